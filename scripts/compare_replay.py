"""Before/after check of the table model (issue 14 item 6): the same stored games give the
same states, findings, scores and byte-identical Parquet under two versions of paipu.

    python scripts/compare_replay.py --before <git ref> [--mcr 500] [--nanchang 200] [--hands-per-game 4]
                                     [--keep DIR]

In one run: the ``--before`` tree is unpacked from git (``git archive``) into a temporary
directory, and each version — that tree, and this checkout — in its own process (its own
code first on ``PYTHONPATH``) builds a fresh event store from the same stored games — the
``--before`` tree's bundled real games (``paipu/samples``) and the games its simulator wrote
(``paipu simulate``) — replays every game in audit mode, and exports Parquet. Compared:

* the simulated events each version's simulator writes (the same seed; canonical JSON Lines,
  byte for byte) — reported, but not a difference of stored games: a simulator that now plays
  differently makes new games, not different replays of the stored ones;
* per event of every game: the table state as plain JSON, leaving out the explained score
  objects (compared as scores below) and any field only one version has (listed);
* per game: every finding (seq, rule id, message, source, seat, hand);
* per win: legal, points, settlement changes and the fan lines (names, points, count);
* every Parquet file: SHA-256 of its bytes, and of its rows without the columns that say when
  and from which file each side ingested its games (``recorded_at``, ``source_file``: the
  ``games`` table differs there by construction); rows must be equal. For a file whose rows
  differ: the columns only one side has, and per shared column the number of rows that differ.

Prints the counts and exits 1 on any difference of the stored games' states, findings, scores
or Parquet rows. ``--keep DIR`` keeps both sides' stores, simulated games and Parquet there.
Nothing here is part of the product.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCORE_FIELDS = ("score", "situation", "context", "rule_memory")


def _worker(out: Path, mcr: int, nanchang: int, hands: int, games_from: Path | None) -> None:
    """Runs inside one version (its tree first on sys.path): writes ``out/result.json`` and
    ``out/inputs.json`` (the files it ingested). With ``games_from`` (the other side's output
    directory) it ingests that side's files instead of its own samples and simulated games."""
    from eventlog.store import open_store
    from replayer.replay import replay
    from replayer.state import to_dict

    data = out / "data"
    env = dict(os.environ)
    samples = sorted(str(p) for p in (Path.cwd() / "paipu" / "samples").rglob("*")
                     if p.is_file() and p.suffix in (".txt", ".json", ".log", ".pmn") and p.name != "README.txt")
    sims = []
    for ruleset, games in (("mcr", mcr), ("nanchang", nanchang)):
        if games:
            f = out / f"sim-{ruleset}.jsonl"
            _run(["paipu", "simulate", "--ruleset", ruleset, "--games", str(games), "--seed", "compare",
                  "--hands-per-game", str(hands), "--out", str(f)], env)
            sims.append(f)
    inputs = [*samples, *map(str, sims)]
    if games_from is not None:
        inputs = json.loads((games_from / "inputs.json").read_text())
    (out / "inputs.json").write_text(json.dumps(inputs))
    _run(["paipu", "ingest", *inputs, "--data", str(data)], env, check=False)
    _run(["paipu", "export", "--data", str(data), "--out", str(out / "parquet"), "--workers", "1"], env)

    store = open_store(data)
    result: dict[str, Any] = {"sims": {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in sims},
                              "games": {}, "fields": [], "parquet": {}}
    fields: set[str] = set()
    for info in store.list_games():
        gid = info.game_id
        events = list(store.read_game(gid))
        states, findings, wins = [], [], []
        for step in replay(events, mode="audit"):
            d = to_dict(step.state)
            fields.update(_paths(d))
            for w in d.get("wins", []):
                for k in SCORE_FIELDS:
                    w.pop(k, None)
            d.pop("rule_memory", None)
            states.append(d)
            findings += [[f.seq, f.rule_id, f.message, f.source, f.seat, f.hand_number] for f in step.findings]
            if step.event.type == "win_declared" and step.state.wins:
                wins.append(_win(step.state.wins[-1]))
        result["games"][gid] = {"states": states, "findings": findings, "wins": wins}
    result["fields"] = sorted(fields)
    for p in sorted((out / "parquet").rglob("*")):
        if p.is_file():
            rel = str(p.relative_to(out / "parquet"))
            if p.suffix == ".parquet":
                result["parquet"][rel] = hashlib.sha256(p.read_bytes()).hexdigest()
                result.setdefault("content", {})[rel] = _content_hash(p)
    (out / "result.json").write_text(json.dumps(result, sort_keys=True))


#: Columns that say when and from which file the games were ingested: each side ingests its
#: own copy (its own clock, its own temporary directory), so they differ by construction.
INGEST_COLUMNS = ("recorded_at", "source_file")


def _content_hash(path: Path) -> str:
    """SHA-256 of a Parquet file's rows without :data:`INGEST_COLUMNS`."""
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    table = table.drop_columns([c for c in INGEST_COLUMNS if c in table.column_names])
    return hashlib.sha256(json.dumps(table.to_pylist(), sort_keys=True, default=str).encode()).hexdigest()


def _rows_diff(before: Path, after: Path) -> str:
    """How two Parquet files' rows differ: the columns one side has (an added column's
    distinct values, up to five), and the rows over the shared columns (without
    :data:`INGEST_COLUMNS`): the same in file order, the same as a multiset, or how many rows
    only one side has."""
    from collections import Counter

    import pyarrow.parquet as pq

    tb, tf = pq.read_table(before), pq.read_table(after)
    nb, nf = set(tb.column_names), set(tf.column_names)
    out = []
    if nb - nf:
        out.append(f"only before: {sorted(nb - nf)}")
    for c in sorted(nf - nb):
        values = sorted({json.dumps(v, default=str) for v in tf.column(c).to_pylist()})
        out.append(f"only after: {c} (values {', '.join(values[:5])}{' …' if len(values) > 5 else ''})")
    shared = [c for c in tb.column_names if c in nf and c not in INGEST_COLUMNS]

    def rows(t: Any) -> list[str]:
        return [json.dumps(r, sort_keys=True, default=str) for r in t.select(shared).to_pylist()]

    rb, rf = rows(tb), rows(tf)
    if rb == rf:
        out.append(f"shared columns: the same {len(rb)} rows")
    elif sorted(rb) == sorted(rf):
        out.append(f"shared columns: the same {len(rb)} rows in another order")
    else:
        cb, cf = Counter(rb), Counter(rf)
        out.append(f"shared columns: {len(rb)} -> {len(rf)} rows, {sum((cb - cf).values())} only before, "
                   f"{sum((cf - cb).values())} only after")
    return "; ".join(out)


def _win(w: Any) -> list[Any]:
    """legal, points, changes and fan lines of a win, through whichever interface the
    version has (an explained score with ``lines()``, or the older ``fans`` attribute)."""
    score = w.score
    lines: list[Any] = []
    if score is not None and hasattr(score, "lines"):
        lines = [[x.name_en, x.name_zh, x.value, x.count] for x in score.lines()]
    elif score is not None:
        lines = [[getattr(f, "name_en", str(f)), getattr(f, "name_zh", ""), getattr(f, "points", None),
                  getattr(f, "count", 1)] for f in (getattr(score, "fans", None) or ())]
    changes = list(w.settlement.changes) if w.settlement is not None else None
    return [w.seq, w.seat, w.legal, w.points, changes, lines]


def _paths(d: Any, prefix: str = "") -> set[str]:
    out: set[str] = set()
    if isinstance(d, dict):
        for k, v in d.items():
            p = f"{prefix}.{k}" if prefix else k
            out.add(p)
            out |= _paths(v, p)
    elif isinstance(d, list) and d:
        out |= _paths(d[0], prefix + "[]")
    return out


def _run(cmd: list[str], env: dict[str, str], check: bool = True) -> None:
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:3])} failed: {r.stderr.strip()[-2000:]}")


def _drop(d: Any, only: set[str], prefix: str = "") -> Any:
    """``d`` without the field paths in ``only`` (fields one version does not have)."""
    if isinstance(d, dict):
        return {k: _drop(v, only, f"{prefix}.{k}" if prefix else k) for k, v in d.items()
                if (f"{prefix}.{k}" if prefix else k) not in only}
    if isinstance(d, list):
        return [_drop(x, only, prefix + "[]") for x in d]
    return d


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", required=True, help="git ref of the version to compare against")
    ap.add_argument("--mcr", type=int, default=500)
    ap.add_argument("--nanchang", type=int, default=200)
    ap.add_argument("--hands-per-game", type=int, default=4)
    ap.add_argument("--keep", type=Path, help="keep both sides' stores, games and Parquet in this directory")
    ap.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--games-from", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        _worker(a.worker, a.mcr, a.nanchang, a.hands_per_game, a.games_from)
        return 0
    with tempfile.TemporaryDirectory(prefix="paipu-compare-") as tmp:
        t = Path(tmp)
        if a.keep:
            shutil.rmtree(a.keep, ignore_errors=True)
            a.keep.mkdir(parents=True)
            t = a.keep.resolve()
        before = t / "before-tree"
        before.mkdir()
        arch = subprocess.run(["git", "-C", str(ROOT), "archive", a.before], capture_output=True, check=True).stdout
        with tarfile.open(fileobj=__import__("io").BytesIO(arch)) as tf:
            tf.extractall(before, filter="data")
        results = {}
        for name, tree in (("before", before), ("after", ROOT)):
            out = t / name
            out.mkdir()
            env = dict(os.environ, PYTHONPATH=str(tree))
            t0 = time.perf_counter()
            games_from = [] if name == "before" else ["--games-from", str(t / "before")]
            subprocess.run([sys.executable, str(Path(__file__).resolve()), "--before", a.before, "--worker", str(out),
                            "--mcr", str(a.mcr), "--nanchang", str(a.nanchang),
                            "--hands-per-game", str(a.hands_per_game), *games_from],
                           env=env, cwd=tree, check=True)
            print(f"{name}: {time.perf_counter() - t0:.0f} s", flush=True)
            results[name] = json.loads((out / "result.json").read_text())
        b, f = results["before"], results["after"]
        only = set(b["fields"]) ^ set(f["fields"])
        bad = 0
        print(f"fields only in one version (left out of the state comparison): {sorted(only) or 'none'}")
        same_sims = [k for k in sorted(b["sims"]) if b["sims"][k] == f["sims"].get(k)]
        print(f"simulators write identical events: {', '.join(same_sims) or 'none'} of {', '.join(sorted(b['sims']))}"
              " (both sides replay the before side's games)")
        games = sorted(set(b["games"]) | set(f["games"]))
        n_states = n_find = n_wins = 0
        diff_states = diff_find = diff_wins = missing = 0
        for g in games:
            gb, gf = b["games"].get(g), f["games"].get(g)
            if gb is None or gf is None:
                missing += 1
                continue
            n_states += len(gb["states"])
            n_find += len(gb["findings"])
            n_wins += len(gb["wins"])
            sb = [_drop(s, only) for s in gb["states"]]
            sf = [_drop(s, only) for s in gf["states"]]
            diff_states += sum(x != y for x, y in zip(sb, sf)) + abs(len(sb) - len(sf))
            diff_find += gb["findings"] != gf["findings"]
            diff_wins += gb["wins"] != gf["wins"]
        print(f"games: {len(games)} (missing on one side: {missing}); states compared: {n_states}, "
              f"different: {diff_states}; findings: {n_find}, games with different findings: {diff_find}; "
              f"wins: {n_wins}, games with different scores: {diff_wins}")
        pb, pf = b["parquet"], f["parquet"]
        cb, cf = b.get("content", {}), f.get("content", {})
        same = sum(pb.get(k) == v for k, v in pf.items())
        print(f"parquet files: before {len(pb)}, after {len(pf)}, byte-identical {same}")
        for k in sorted(set(pb) | set(pf)):
            if pb.get(k) != pf.get(k):
                if cb.get(k) is not None and cb.get(k) == cf.get(k):
                    how = f"the same rows but for {', '.join(INGEST_COLUMNS)} (each side's own ingest)"
                elif k in pb and k in pf:
                    how = f"different rows: {_rows_diff(t / 'before' / 'parquet' / k, t / 'after' / 'parquet' / k)}"
                else:
                    how = "only " + ("before" if k in pb else "after")
                print(f"    {k}: {how}")
        bad += missing + diff_states + diff_find + diff_wins + (set(pb) != set(pf)) + (cb != cf)
        print("SAME" if not bad else "DIFFERENT")
        return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
