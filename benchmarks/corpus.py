"""The whole path on a Botzone-shaped corpus: ``paipu ingest``, ``verify``, ``export``, the
dashboard's queries and the chain, each beside its floor measured in the same run.

    python benchmarks/corpus.py --games N [--workers W] [--dir DIR] [--keep] [--profile] [--rounds K]
                                [--baseline TREE [--compare STAGES]]

``--help`` is the short version of this text: the commands, the time and disk they take,
what each printed line and JSON key means. Default N is 2,000 (a minute or two on a quiet
2-core machine). N = 10,000 runs in about 4 min and leaves ~1 GB in ``--dir``; the issue's
target size is N = 100,000::

    python benchmarks/corpus.py --games 100000 --dir /var/tmp/paipu-corpus --keep

— about 40 min or more on 2 cores (ten times the 10,000-game run), and ~10 GB kept in
``DIR``: per 10,000 games ~500 MB of log (``DIR/data``) and ~500 MB of the ingest floor's
copy (``DIR/floor.sqlite``); the ``chain`` stage holds another log (~5 GB) while it runs.
The corpus is written once into ``DIR/corpus-N`` (~20 MB per 10,000 games) and a second run
with the same ``--dir`` reuses it; ``--dir`` is never removed (``--keep`` keeps the
temporary directory used without it).

**Corpus** (built once, outside the clock, about 8 s per 100,000 games): Botzone
human-game text files of 1,000 games each, one hand per game like the real data set
(98,209 games, ~11 M events). The 16 real games of
``paipu/samples/botzone-mcr-human-sample`` are re-identified: copy ``k`` gets the match id
``corpus<k>`` and a relabelling of its tiles that keeps every move legal (tile counts,
runs, pungs and kongs stay what they were) — the suits permuted (6 ways), each suit's
numbers read forwards or backwards (8 ways), the three dragons permuted (6 ways), the four
wind tiles permuted (24 ways) and the prevalent wind turned (4 ways): 27,648 variants × 16
games = 442,368 distinct games (different content, so the ingest's content fingerprint
does not take them for re-imports; a relabelling that would change no tile of a game is
skipped). Seats are not rotated: seat 0 deals and draws first in this format, so a
rotation would make the first draw out of turn. Some variants change which fans a hand
scores (a reversed suit breaks a 三色 run, a permuted wind moves a 圈风刻), so the reported
fans can disagree with the computed ones (``reported_score_mismatch``, a quarter to a
third of the games): the work is the same. Beyond 442,368 games the corpus is filled with
simulated MCR games (one hand each, ``paipu simulate``, JSON Lines) — slow to build (~40
games/s per core).

**Stages**, each the real command in a fresh process (``python -m paipu …``), so the peak
RSS is the stage's own (the largest process: the command or one of its workers); CPU
seconds are those of the command and its workers (on a shared machine the wall clock also
holds the time spent waiting for a core):

1. ``ingest`` — ``paipu ingest DIR --quiet``; floor: the same rows (read back from the store
   after the run, outside the clock) inserted with bare ``executemany`` into the same
   ``events`` table and index, the same number of games per transaction
   (:data:`eventlog.ingest.load.GAMES_PER_COMMIT`), the same pragmas (WAL,
   ``synchronous=FULL``).
2. ``verify`` — ``paipu verify --quiet`` (every hash chain, every game replayed in audit
   mode, the log's running hash and checkpoint).
3. ``export`` — ``paipu export --rebuild``; floor: the same Arrow tables (read back from the
   part files, outside the clock) written with ``pyarrow.parquet.write_table`` alone, same
   options.
4. ``replay`` — the replay half of export and verify on the first 500 games, in one
   process: CPU per hand of reading a game and replaying it into the export's rows / into
   the chain check and audit, by today's path (rows as tuples, one working state per game)
   beside the per-event path (rows as dicts, a frozen state per event), alternated.
5. ``read`` — the reading half alone (benchmarks/read_path.py): µs CPU per event of fetching a
   game's rows, checking each (hash, seq, link) and making its events, as export
   (``read_game``) and verify (``verify_game_events``) do, on 500 games whose own payload
   texts were not parsed before (``first``) and again (``again``).
6. ``queries`` — the dashboard's queries (benchmarks/analytics.py), median of 5, ms.
7. ``chain`` — a corpus from nothing to Parquet as a user runs it: ``paipu ingest``, then
   ``paipu verify --export`` (each game read and replayed once for the check, the audit and
   the Parquet rows), in a fresh data directory; beside it the sum of 1–3 (``sum``), and
   the two compared (``chain vs sum``) in CPU seconds — the work done, whatever else runs —
   and in wall seconds, which on a shared machine also hold the waits for a core and the
   disk (one run of each can put them in either order). ``--rounds K`` runs ingest, verify,
   export and chain K times, alternated (the chain after the three, then before them), and
   prints the median wall and the lowest CPU of each.

Targets printed beside the numbers (issue 19): ingest ≥ 0.8× its floor's speed; 1 M hands
exported in 5 min; 100,000 games ingested, verified and exported in 10 min, peak RSS 1 GB.
The export's floor writes Parquet only (no reading, no replay), so export runs at ~0.01× its
speed: the ratio is the share of export's time spent writing Parquet, and the ``read`` and
``replay`` lines give the rest. ``queries`` also times the first open of the export in a
process ("open with file checks": DuckDB's first use — ~200 ms CPU, flat in N — and the
SHA-256 of every part file against the manifest, linear in the export's bytes, ~1.6 MiB per
10,000 games); its wall clock on a busy machine, or with the files no longer in the page
cache, can be several times its CPU.

``--baseline TREE`` (a checkout of the code before a change, e.g. ``git worktree add
../base main``) runs the ``verify``, ``export``, ``replay`` and ``read`` stages (``--compare``
names others: ``--compare ingest`` stores the corpus anew with each tree, its floor beside
each run, and prints the median wall, ratio and floor and the lowest CPU) with that code as
well, on the same store, alternated with this tree's (before, after, after, before …,
``--rounds`` each, default 2; the lowest CPU of each side is kept), and prints before → after: ms CPU per
hand of verify, export and the replay halves, export hands/s, µs CPU per event of reading.

Prints one line per stage with events/s, games/s, wall and CPU seconds, the ratio to the
floor and peak RSS, then a JSON summary. ``--profile`` runs ingest, verify and export once
more in this process under cProfile on the first 500 games and prints the top functions by
own time. Nothing here asserts: the guarantees are the test suite's (tests/ingest,
tests/analytics), the timing is this script's.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import importlib.util
import inspect
import itertools
import json
import os
import pstats
import re
import resource
import shutil
import statistics
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# benchmarks/analytics.py must not shadow the analytics package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

SAMPLE = ROOT / "paipu" / "samples" / "botzone-mcr-human-sample" / "sample_16_games.txt"
GAMES_PER_FILE = 1000
#: Issue 19's ingest target: at least this fraction of the raw insert floor's speed.
INGEST_TARGET = 0.8
#: The command for the issue's target size (README "Benchmarks" gives the same).
COMMAND_100K = "python benchmarks/corpus.py --games 100000 --dir /var/tmp/paipu-corpus --keep"

HELP = f"""\
Time the whole bulk-import path on a Botzone-shaped corpus of N games: paipu ingest,
verify and export, the dashboard's queries and the chain a user runs (ingest, then
verify --export), each beside a floor measured in the same run. The corpus (the 16 bundled
real games relabelled so every move stays legal, 442,368 distinct games) is built once,
outside the clock. Nothing here asserts: it prints one line per stage, then a JSON summary.
The module docstring (benchmarks/corpus.py) is the long reference.

Sizes, time and disk (2 cores; a busy machine takes longer):
  python benchmarks/corpus.py
      N = 2,000: a minute or two, in a temporary directory removed at the end.
  python benchmarks/corpus.py --games 10000 --dir /var/tmp/paipu-corpus
      about 4 min; leaves ~1 GB in --dir.
  {COMMAND_100K}
      the target size (the Botzone human-game set is 98,209 games): about 40 min or more,
      and ~10 GB kept in --dir, ~1 GB per 10,000 games: the log (data/, ~500 MB) and the
      ingest floor's copy of it (floor.sqlite, ~500 MB); the chain stage needs another
      ~5 GB while it runs. Pick a disk with room (/var/tmp, not a small /tmp). The corpus
      (DIR/corpus-N, ~20 MB per 10,000 games, written in ~10 s per 100,000) is reused by a
      second run with the same --dir and --games.
"""

EPILOG = f"""\
what each line means:
  ingest   `paipu ingest` of the corpus in a fresh process: events/s, games/s, wall and CPU
           seconds (the command's and its workers'), peak RSS (its largest process).
    floor  the same rows inserted with bare sqlite3 executemany (same table, index, games
           per transaction, pragmas): ingest's speed as a fraction of the floor's
           (target >= {INGEST_TARGET}x), and the same ratio in CPU seconds.
  verify   `paipu verify`: every hash chain checked, every game replayed in audit mode.
           [exit status 1] is expected: a quarter to a third of the relabelled games report
           fans the replay does not compute (reported_score_mismatch).
  export   `paipu export --rebuild`: every game read from the log, replayed, written as Parquet.
    floor  the same Arrow tables written with pyarrow alone: Parquet writing only, no reading
           or replaying, so the ratio is small (~0.01x: writing Parquet is ~1 % of export;
           the rest is the read and replay halves below). Then hands/s and 1 M hands at that
           rate (target 5 min).
  replay   the replay half of export / verify, in one process on the first 500 games: ms CPU
           per hand of reading a game and replaying it into the export's rows / verify's chain
           check and audit, by the commands' path beside the "per-event path" (the way before
           issue 19: each row a dict, a frozen table state per event); xN = how many times the
           CPU of today's path the per-event path needs.
  read     the reading half alone (rows fetched, checked, made events; no replay), µs CPU
           per event. "unparsed": a game read for the first time in the process (its own
           payload texts - its deal, its players - not parsed yet, as a worker meets a new
           game); "parsed": the same games read again.
  queries  the dashboard's slowest query (median of 5, ms), and the first open of the export
           in a process: DuckDB's first use, and each part file's SHA-256 checked against the
           manifest (linear in the export's bytes, ~1.6 MiB per 10,000 games) - wall and CPU.
  chain    a fresh data directory from nothing to Parquet as a user runs it: ingest, then
           verify --export (one replay per game for the check, the audit and the rows).
  sum      the ingest, verify and export stages added up; both are projected to 100,000 games
           (target 10 min, peak RSS 1 GB).
  chain vs sum  compare the CPU seconds: they are the work done, whatever else runs. The
           wall clock also holds the waits for a core and the disk, so on a shared machine
           one run of each can put them in either order; --rounds K runs ingest, verify,
           export and chain K times, alternated, and prints the median wall, lowest CPU.

JSON summary (the last line before any --baseline comparison):
  ingest_s verify_s export_s / ..._cpu_s   wall / CPU seconds of the stages
  ingest_floor_s ingest_vs_floor[_cpu]     the ingest floor and the ratio (target {INGEST_TARGET})
  export_floor_s export_hands              the export floor; hands exported
  chain_s, chain_cpu_s                     the SUM of ingest + verify + export (an old name)
  chain_verify_export_s, ..._cpu_s         the chain stage (ingest, then verify --export)
  replay_half_cpu_ms_per_hand              "export new" / "verify new": the commands' path;
                                           "export old" / "verify old": the per-event path
  read_us_per_event                        "export first" / "verify first": unparsed;
                                           "export again" / "verify again": parsed
  open_with_file_checks_ms / _cpu_ms       the queries line's first open, wall / CPU
  rounds                                   runs of the timed stages (--rounds)
"""

# --------------------------------------------------------------------------- the corpus

_SUIT_PERMS = list(itertools.permutations("WBT"))
_DRAGON_PERMS = list(itertools.permutations("123"))
_WIND_PERMS = list(itertools.permutations("1234"))
_TOKEN = re.compile(r"\b([WBTFJ][1-9])\b")
#: Distinct relabellings of one game: suits (6) x reflections (8) x dragons (6) x winds (24)
#: x the prevalent wind (4).
VARIANTS = len(_SUIT_PERMS) * 8 * len(_DRAGON_PERMS) * len(_WIND_PERMS) * 4


def _sample_blocks() -> list[list[str]]:
    blocks: list[list[str]] = []
    for line in SAMPLE.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.startswith("Match "):
            blocks.append([])
        elif blocks and line.strip():
            blocks[-1].append(line)
    return blocks


def _variant(v: int) -> tuple[dict[str, str], int]:
    """Tile map and prevalent-wind turn of variant ``v`` (0 = the real game as it is)."""
    v, suits = divmod(v, len(_SUIT_PERMS))
    v, reflect = divmod(v, 8)
    v, dragons = divmod(v, len(_DRAGON_PERMS))
    v, winds = divmod(v, len(_WIND_PERMS))
    turn = v % 4
    perm, dperm, wperm = _SUIT_PERMS[suits], _DRAGON_PERMS[dragons], _WIND_PERMS[winds]
    tiles = {f"J{n}": f"J{dperm[n - 1]}" for n in range(1, 4)}
    tiles.update({f"F{n}": f"F{wperm[n - 1]}" for n in range(1, 5)})
    for i, s in enumerate("WBT"):
        for n in range(1, 10):
            tiles[f"{s}{n}"] = f"{perm[i]}{10 - n if reflect >> i & 1 else n}"
    return tiles, turn


def _template(block: list[str]) -> list[str | tuple[str, str]]:
    """``block`` as text pieces and ``("tile", code)`` / ``("wind", n)`` slots: the tiles of
    the Player lines and the Wind line's number."""
    out: list[str | tuple[str, str]] = []
    for line in block:
        if line.startswith("Wind "):
            out += ["Wind ", ("wind", line.split()[1]), "\n"]
        elif line.startswith("Player "):
            for i, part in enumerate(_TOKEN.split(line)):
                out.append(("tile", part) if i % 2 else part)
        else:
            out.append(line)
    return out


_TEMPLATES: dict[int, list[list[str | tuple[str, str]]]] = {}
_VARIANT_CACHE: dict[int, tuple[dict[str, str], int]] = {}


def _text_game(k: int, blocks: list[list[str]]) -> str:
    """Game ``k``: real game ``k % 16`` relabelled by variant ``k // 16``, as a Match block."""
    templates = _TEMPLATES.get(id(blocks))
    if templates is None:
        templates = _TEMPLATES[id(blocks)] = [_template(b) for b in blocks]
    v = k // len(blocks)
    if v not in _VARIANT_CACHE:
        _VARIANT_CACHE.clear()
        _VARIANT_CACHE[v] = _variant(v)
    tiles, turn = _VARIANT_CACHE[v]
    body = "".join(
        p if type(p) is str else (tiles[p[1]] if p[0] == "tile" else str((int(p[1]) + turn) % 4))
        for p in templates[k % len(blocks)]
    )
    return f"Match corpus{k:08d}\n{body}\n"


def build_corpus(directory: Path, games: int) -> dict:
    """Write the corpus (see the module doc) into ``directory``; reuse a complete one."""
    stamp = directory / "COMPLETE"
    if stamp.exists():
        return json.loads(stamp.read_text())
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    blocks = _sample_blocks()
    seen: set[bytes] = set()  # the games' content (a relabelling that changes no tile of a game is left out)
    size = k = real = 0
    limit = VARIANTS * len(blocks)
    while real < games and k < limit:
        chunk: list[str] = []
        while len(chunk) < GAMES_PER_FILE and real + len(chunk) < games and k < limit:
            text = _text_game(k, blocks)
            k += 1
            body = hashlib.sha256(text.partition("\n")[2].encode()).digest()
            if body not in seen:
                seen.add(body)
                chunk.append(text)
        if not chunk:
            break
        text = "".join(chunk)
        path = directory / f"botzone-{real // GAMES_PER_FILE:04d}.txt"
        path.write_text(text, encoding="utf-8")
        size += len(text.encode())
        real += len(chunk)
    simulated = games - real
    if simulated:
        from replayer.simulate.engine import SimulationConfig
        from replayer.simulate.run import run_simulation

        for start in range(0, simulated, GAMES_PER_FILE):
            n = min(GAMES_PER_FILE, simulated - start)
            out = directory / f"simulated-{start // GAMES_PER_FILE:04d}.jsonl"
            config = SimulationConfig(ruleset="mcr", seed=f"corpus-{start}", hands_per_game=1)
            run_simulation(config, n, out=out, jobs=os.cpu_count() or 1)
            size += out.stat().st_size
    info = {"games": games, "real_variants": real, "simulated": simulated, "bytes": size}
    stamp.write_text(json.dumps(info))
    return info


# --------------------------------------------------------------------------- measuring


def _usage() -> tuple[float, float]:
    """CPU seconds (user + system) and peak RSS (MiB) of the finished children."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime, r.ru_maxrss / 1024


def _self_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def run_stage(args: list[str]) -> dict:
    """``python -m paipu ARGS`` in a fresh process: wall and CPU seconds, exit status. The
    peak RSS is measured by the caller (each stage runs in its own --child process)."""
    cpu0, _ = _usage()
    t = time.perf_counter()
    res = subprocess.run([sys.executable, "-m", "paipu", *args], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    wall = time.perf_counter() - t
    cpu1, rss = _usage()
    return {"seconds": wall, "cpu": cpu1 - cpu0, "status": res.returncode, "rss_mib": rss,
            "stderr": res.stderr[-2000:], "stdout": res.stdout[-600:]}


def floor_ingest(store_db: Path, directory: Path) -> dict:
    """The store's rows re-inserted with bare executemany: same table, index, grouping,
    pragmas (timed part only)."""
    from eventlog.ingest import load
    from eventlog.store.sqlite import _EVENTS, _FINGERPRINT_INDEX, COLUMNS

    src = sqlite3.connect(store_db)
    target = directory / "floor.sqlite"
    for p in directory.glob("floor.sqlite*"):
        p.unlink()
    dst = sqlite3.connect(target, isolation_level=None)
    dst.execute("PRAGMA journal_mode = WAL")
    dst.execute("PRAGMA synchronous = FULL")
    dst.execute(_EVENTS)
    dst.execute(_FINGERPRINT_INDEX)
    cols = ", ".join(COLUMNS)
    sql = f"INSERT INTO events ({cols}) VALUES ({', '.join('?' * len(COLUMNS))})"
    games = [r[0] for r in src.execute("SELECT game_id FROM streams ORDER BY first_position")]
    seconds = cpu = 0.0
    events = 0
    try:
        per_commit = getattr(load, "GAMES_PER_COMMIT", 1)  # 1: the ingest before bulk commits
        for i in range(0, len(games), per_commit):
            group = games[i : i + per_commit]
            rows = src.execute(
                f"SELECT {cols} FROM events WHERE position BETWEEN "
                "(SELECT first_position FROM streams WHERE game_id = ?) AND "
                "(SELECT last_position FROM streams WHERE game_id = ?) ORDER BY position",
                (group[0], group[-1]),
            ).fetchall()
            t, c = time.perf_counter(), _self_cpu()
            dst.execute("BEGIN IMMEDIATE")
            dst.executemany(sql, rows)
            dst.execute("COMMIT")
            seconds += time.perf_counter() - t
            cpu += _self_cpu() - c
            events += len(rows)
    finally:
        src.close()
        dst.close()
    return {"games": len(games), "events": events, "seconds": seconds, "cpu": cpu}


def floor_export(parquet: Path, directory: Path) -> dict:
    """Every part file's Arrow table (read outside the clock) written again with pyarrow
    alone, same options."""
    import pyarrow.parquet as pq

    from analytics.export.writer import WRITE_OPTIONS

    out = directory / "floor-parquet"
    shutil.rmtree(out, ignore_errors=True)
    seconds = cpu = 0.0
    files = 0
    for i, f in enumerate(sorted(parquet.rglob("*.parquet"))):
        table = pq.read_table(f)
        target = out / f"{i:05d}.parquet"
        target.parent.mkdir(parents=True, exist_ok=True)
        t, c = time.perf_counter(), _self_cpu()
        pq.write_table(table, target, **WRITE_OPTIONS)
        seconds += time.perf_counter() - t
        cpu += _self_cpu() - c
        files += 1
    return {"files": files, "seconds": seconds, "cpu": cpu}


def _queries(parquet: Path) -> dict:
    spec = importlib.util.spec_from_file_location("bench_analytics", ROOT / "benchmarks" / "analytics.py")
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod.run_queries(parquet)


def _read_path(data: Path) -> dict:
    spec = importlib.util.spec_from_file_location("bench_read_path", ROOT / "benchmarks" / "read_path.py")
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod.measure(data, rounds=3)


def child(stage: str, work: Path, corpus: Path, workers: int | None) -> dict:
    data = work / "data"
    w = [] if workers is None else ["--workers", str(workers)]
    if stage == "ingest":
        shutil.rmtree(data, ignore_errors=True)
        import paipu.cli.log

        quiet = ["--quiet"] if "quiet" in inspect.signature(paipu.cli.log.ingest).parameters else []
        r = run_stage(["ingest", str(corpus), "--data", str(data), *quiet, *w])
        r["floor"] = floor_ingest(data / "events.sqlite", work)
        from eventlog.store import open_store

        s = open_store(data, create=False)
        r["games"], r["events"] = len(s.list_games()), s.head_position()
        s.close()
        return r
    if stage == "verify":
        r = run_stage(["verify", "--data", str(data), "--quiet", *w])
        return r
    if stage == "export":
        r = run_stage(["export", "--data", str(data), "--rebuild", "--json", *w])
        try:
            r["report"] = json.loads(r["stdout"].strip().splitlines()[-1])
        except (ValueError, IndexError):
            r["report"] = {}
        r["floor"] = floor_export(data / "parquet", work)
        return r
    if stage == "queries":
        r = _queries(data / "parquet")
        # what the first open's file checks read: every part file hashed (warm page cache)
        files = sorted((data / "parquet").rglob("*.parquet"))
        t, c = time.perf_counter(), _self_cpu()
        for f in files:
            hashlib.sha256(f.read_bytes()).hexdigest()
        r.update(parquet_files=len(files), parquet_mib=sum(f.stat().st_size for f in files) / 2**20,
                 sha256_ms=(time.perf_counter() - t) * 1000, sha256_cpu_ms=(_self_cpu() - c) * 1000)
        return r
    if stage == "replay":
        return replay_half(data)
    if stage == "read":
        return _read_path(data)
    if stage == "chain":  # from nothing to Parquet as a user runs it: ingest, then verify --export
        chain = work / "chain"
        shutil.rmtree(chain, ignore_errors=True)
        a = run_stage(["ingest", str(corpus), "--data", str(chain), "--quiet", *w])
        b = run_stage(["verify", "--export", "--data", str(chain), "--quiet", *w])
        shutil.rmtree(chain, ignore_errors=True)
        return {"seconds": a["seconds"] + b["seconds"], "cpu": a["cpu"] + b["cpu"],
                "rss_mib": max(a["rss_mib"], b["rss_mib"]), "status": b["status"], "stderr": b["stderr"],
                "ingest_s": a["seconds"], "verify_export_s": b["seconds"],
                "ingest_cpu": a["cpu"], "verify_export_cpu": b["cpu"]}
    raise SystemExit(f"unknown stage {stage}")


def replay_half(data: Path, games: int = 500, rounds: int = 3) -> dict:
    """CPU seconds per hand of the replay half — reading a game and replaying it into the
    export's rows, or into verify's chain check and audit — on the first ``games`` stored
    games, in this process, by the path the commands take beside the per-event path they
    took before issue 19 item 4 (each row read as a dict and judged by ``inspect_row``,
    a frozen TableState built per event by ``replay``, the facts and the audit read from
    those states), in alternated rounds (best of ``rounds``), with the number of rows and
    findings both gave (they must agree)."""
    from analytics.export.outcomes import game_outcome
    from analytics.facts import game_facts
    from eventlog.store import open_store
    from eventlog.store.rows import GameLinks, inspect_row
    from eventlog.verify import verify_game_events
    from replayer.audit import audit_game
    from replayer.replay import replay

    store = open_store(data, create=False)
    ids = [g.game_id for g in store.list_games()][:games]
    head = store.head_position()

    def old_events(gid: str) -> list:
        links = GameLinks(gid, 0, False, None)
        out = []
        for row in store.iter_raw(gid):
            links.check(row)
            out.append(inspect_row(row))
        return out

    def old_export(gid: str) -> tuple:
        events = old_events(gid)
        f = game_facts(events, steps=replay(events, mode="audit"))
        return (sum(map(len, f.rows.values())), f.records("games")[0]["findings"]) if f else (0, 0)

    def new_export(gid: str) -> tuple:
        f = game_outcome(store, gid, head).facts
        return (sum(map(len, f.rows.values())), f.records("games")[0]["findings"]) if f else (0, 0)

    def old_verify(gid: str) -> tuple:
        events = old_events(gid)
        a = audit_game(events, steps=replay(events, mode="audit"))
        return (a.events, len(a.findings))

    def new_verify(gid: str) -> tuple:
        _chain, events = verify_game_events(store, gid)
        a = audit_game(events)
        return (a.events, len(a.findings))

    paths = {"export old": old_export, "export new": new_export, "verify old": old_verify, "verify new": new_verify}
    best = {k: float("inf") for k in paths}
    seen: dict[str, list] = {}
    for k in paths:  # warm: imports, rulesets, the payload cache
        seen[k] = [paths[k](g) for g in ids]
    for _ in range(rounds):
        for k, fn in paths.items():
            t = time.process_time()
            for g in ids:
                fn(g)
            best[k] = min(best[k], time.process_time() - t)
    hands = sum(1 for g in ids for e in store.read_game(g) if e.type == "hand_started")
    store.close()
    return {"games": len(ids), "hands": hands, "cpu_s": best,
            "same": seen["export old"] == seen["export new"] and seen["verify old"] == seen["verify new"]}


def profile(corpus: Path, games: int = 500, top: int = 22) -> None:
    """cProfile of ingest, verify and export on the first ``games`` games, in-process."""
    from analytics.export import export
    from eventlog.ingest.load import ingest_files
    from eventlog.store import open_store
    from paipu.cli.check import _verify_one

    params = inspect.signature(ingest_files).parameters
    first = sorted(corpus.glob("botzone-*.txt"))[0]
    lines = first.read_text(encoding="utf-8").split("\nMatch ")
    with tempfile.TemporaryDirectory(prefix="paipu-corpus-profile-") as tmp:
        d = Path(tmp)
        part = d / "part.txt"
        part.write_text("\nMatch ".join(lines[:games]) + "\n", encoding="utf-8")
        store = open_store(d / "data")
        steps = [
            ("ingest", lambda: ingest_files(store, [part], **({"workers": 0} if "workers" in params else {}))),
            ("verify", lambda: [_verify_one(store, g) for g in store.raw_game_ids()]),
            ("export", lambda: export(store, d / "parquet", workers=1)),
        ]
        for name, fn in steps:
            prof = cProfile.Profile()
            t = time.perf_counter()
            prof.enable()
            fn()
            prof.disable()
            print(f"\n== cProfile: {name} of {games} games, {time.perf_counter() - t:.2f} s under the profiler")
            stats = pstats.Stats(prof)
            stats.strip_dirs()
            stats.sort_stats("tottime").print_stats(top)
        store.close()


def _run_child(tree: Path, stage: str, work: Path, games: int, workers: int | None) -> dict:
    """One stage in a fresh process with the code of ``tree`` (its own benchmarks/corpus.py;
    ``read``: this tree's benchmarks/read_path.py, which reads through the public API)."""
    extra = [] if workers is None else ["--workers", str(workers)]
    args = ([str(ROOT / "benchmarks" / "read_path.py"), "--data", str(work / "data"), "--rounds", "3"]
            if stage == "read" else
            [str(tree / "benchmarks" / "corpus.py"), "--child", stage, "--dir", str(work), "--games", str(games), *extra])
    out = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=tree,
                         env={**os.environ, "PYTHONPATH": str(tree)})
    if out.returncode != 0:
        raise SystemExit(f"stage {stage} ({tree}) failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare(baseline: Path, work: Path, games: int, workers: int | None, rounds: int, first: dict,
            stages: tuple[str, ...] = ("verify", "export", "replay", "read")) -> None:
    """The stages ``stages`` with the code of ``baseline`` and of this tree, alternated on
    the same store (this tree's first run is the one already taken): before → after, the
    lowest CPU of each side (``ingest``: each run stores the corpus anew and measures its
    floor beside it; the median wall, ratio and floor of each side, and the lowest CPU)."""
    sides: dict[str, dict[str, list[dict]]] = {"before": {s: [] for s in stages},
                                              "after": {s: [first[s]] for s in stages}}
    order = ["before", "after"]
    for k in range(rounds):
        for side in order if k % 2 == 0 else order[::-1]:
            for stage in stages:
                if len(sides[side][stage]) <= k:
                    sides[side][stage].append(_run_child(baseline if side == "before" else ROOT, stage, work, games,
                                                         workers))
    print(f"\nbefore ({baseline}) → after ({ROOT}), {rounds} alternated runs each, lowest CPU:")
    if "ingest" in stages:
        def median(xs: list[float]) -> float:
            return sorted(xs)[len(xs) // 2]

        runs = {s: sides[s]["ingest"] for s in sides}
        wall = {s: median([r["seconds"] for r in runs[s]]) for s in sides}
        cpu = {s: min(r["cpu"] for r in runs[s]) for s in sides}
        floor = {s: median([r["floor"]["seconds"] for r in runs[s]]) for s in sides}
        ratio = {s: median([r["floor"]["seconds"] / r["seconds"] for r in runs[s]]) for s in sides}
        cpu_ratio = {s: median([r["floor"]["cpu"] / r["cpu"] for r in runs[s]]) for s in sides}
        print(f"ingest   wall {wall['before']:.2f} → {wall['after']:.2f} s (median), CPU {cpu['before']:.2f} → "
              f"{cpu['after']:.2f} s (lowest), floor {floor['before']:.2f} / {floor['after']:.2f} s: "
              f"{ratio['before']:.2f} → {ratio['after']:.2f}x the floor's speed (median of the runs' ratios; "
              f"in CPU {cpu_ratio['before']:.2f} → {cpu_ratio['after']:.2f}x)")
    if "export" not in stages:
        return
    ex = {s: min(sides[s]["export"], key=lambda r: r["cpu"]) for s in sides}
    hands = max(ex["after"]["report"].get("hands", 0), 1)
    if "verify" in stages:
        ve = {s: min(r["cpu"] for r in sides[s]["verify"]) for s in sides}
        print(f"verify   {1000 * ve['before'] / hands:.2f} → {1000 * ve['after'] / hands:.2f} ms CPU per hand "
              f"({ve['before']:.2f} → {ve['after']:.2f} s CPU)")
    print(f"export   {1000 * ex['before']['cpu'] / hands:.2f} → {1000 * ex['after']['cpu'] / hands:.2f} ms CPU per hand, "
          f"{hands / ex['before']['seconds']:,.0f} → {hands / ex['after']['seconds']:,.0f} hands/s (wall)")
    for key in ("export new", "verify new") if "replay" in stages else ():
        best = {s: min(r["cpu_s"][key] / max(r["hands"], 1) for r in sides[s]["replay"]) for s in sides}
        print(f"replay   {key.split()[0]} half {1000 * best['before']:.3f} → {1000 * best['after']:.3f} ms CPU per hand "
              f"(x{best['before'] / best['after']:.2f})")
    for key in ("export first", "export again", "verify first", "verify again") if "read" in stages else ():
        best = {s: min(r["us_per_event"][key] for r in sides[s]["read"]) for s in sides}
        print(f"read     {key} {best['before']:.2f} → {best['after']:.2f} µs CPU per event "
              f"(x{best['before'] / best['after']:.2f})")


def _line(name: str, r: dict, games: int, events: int, floor: dict | None) -> str:
    s = r["seconds"]
    text = (f"{name:<8} {events / s:>10,.0f} events/s {games / s:>8,.0f} games/s  wall {s:7.2f} s  "
            f"CPU {r['cpu']:7.2f} s  peak RSS {r['rss_mib']:7.1f} MiB")
    if r.get("status"):
        text += f"  [exit status {r['status']}]"
    if floor is None:
        return text
    ratio, cpu_ratio = floor["seconds"] / s, floor["cpu"] / max(r["cpu"], 1e-9)
    text += (f"\n{'':<8} floor {floor['seconds']:7.2f} s (CPU {floor['cpu']:6.2f} s): "
             f"{ratio:{'5.2f' if ratio >= 0.1 else '5.3f'}}x the floor's speed")
    if name == "ingest":
        text += (f" (target ≥ {INGEST_TARGET}x; {cpu_ratio:.2f}x in CPU seconds: on a busy machine the wall "
                 "clock follows the CPU a command needs, its own and its workers')")
    else:
        text += (f" ({cpu_ratio:{'.2f' if cpu_ratio >= 0.1 else '.3f'}}x in CPU seconds). The floor only writes the same Arrow tables to Parquet; "
                 "export also reads every game from the log and replays it into those rows (the read and replay "
                 f"lines below), so writing Parquet is {100 * ratio:.1f} % of its time")
    return text


def _merged(stage: str, runs: list[dict]) -> dict:
    """One stage's runs as one: the median wall, the lowest CPU, the highest peak RSS (the
    ingest floor: median wall, lowest CPU; the chain's parts: median wall, lowest CPU)."""
    if len(runs) == 1:
        return runs[0]
    med = statistics.median
    r = {**runs[-1], "seconds": med(x["seconds"] for x in runs), "cpu": min(x["cpu"] for x in runs),
         "rss_mib": max(x["rss_mib"] for x in runs), "status": max(x["status"] for x in runs),
         "walls": [round(x["seconds"], 2) for x in runs], "cpus": [round(x["cpu"], 2) for x in runs]}
    if stage == "ingest":
        r["floor"] = {**runs[-1]["floor"], "seconds": med(x["floor"]["seconds"] for x in runs),
                      "cpu": min(x["floor"]["cpu"] for x in runs)}
    if stage == "chain":
        r.update(ingest_s=med(x["ingest_s"] for x in runs), verify_export_s=med(x["verify_export_s"] for x in runs),
                 ingest_cpu=min(x["ingest_cpu"] for x in runs),
                 verify_export_cpu=min(x["verify_export_cpu"] for x in runs))
    return r


def _chain_line(r: dict, games: int) -> str:
    return (f"chain    ingest, then verify --export (one replay per game for both): {r['seconds']:.1f} s "
            f"(CPU {r['cpu']:.1f} s; ingest {r['ingest_s']:.1f} s, CPU {r['ingest_cpu']:.1f} s; verify --export "
            f"{r['verify_export_s']:.1f} s, CPU {r['verify_export_cpu']:.1f} s), peak RSS {r['rss_mib']:.0f} MiB; "
            f"100,000 games would take {r['seconds'] * 100_000 / max(games, 1) / 60:.1f} min at this rate "
            "(target 10 min, 1 GB)")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python benchmarks/corpus.py", description=HELP, epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000, metavar="N", help="corpus size (default 2000)")
    ap.add_argument("--workers", type=int, default=None, metavar="W", help="--workers for every command (default: theirs)")
    ap.add_argument("--dir", type=Path, default=None,
                    help="work directory, kept after the run: the corpus (reused by a second run), the log, the "
                         "export and the floors' copies (default: a temporary one, removed unless --keep)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary work directory")
    ap.add_argument("--profile", action="store_true", help="also profile ingest/verify/export on 500 games")
    ap.add_argument("--rounds", type=int, default=None, metavar="K",
                    help="run ingest, verify, export and chain K times, alternated, and print the median wall and "
                         "the lowest CPU of each (default 1); with --baseline: the alternated runs of each side "
                         "(default 2)")
    ap.add_argument("--baseline", type=Path, default=None, metavar="TREE",
                    help="a checkout of the code before a change: the --compare stages run with it too, before → after")
    ap.add_argument("--compare", default="verify,export,replay,read", metavar="STAGES",
                    help="--baseline: the stages run with both trees, comma-separated, of ingest, verify, export, "
                         "replay, read (default verify,export,replay,read; ingest stores the corpus anew each run, "
                         "and must come first)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    work = a.dir or Path(tempfile.mkdtemp(prefix="paipu-corpus-"))
    corpus = work / f"corpus-{a.games}"
    if a.child:
        print(json.dumps(child(a.child, work, corpus, a.workers)))
        return
    rounds = max(1, a.rounds or 1)  # the timed stages' runs; --baseline's sides: 2 unless --rounds says
    try:
        t = time.perf_counter()
        info = build_corpus(corpus, a.games)
        print(f"corpus: {info['games']:,} games ({info['real_variants']:,} re-identified real, "
              f"{info['simulated']:,} simulated), {info['bytes'] / 2**20:.1f} MiB in {corpus} "
              f"(built in {time.perf_counter() - t:.1f} s, outside the clock); cores: {os.cpu_count()}, "
              f"load average {os.getloadavg()[0]:.2f}", flush=True)
        results = {}
        stages = ["ingest", "verify", "export", "replay", "read", "queries"]
        import paipu.cli.check

        if "export_" in inspect.signature(paipu.cli.check.verify).parameters:
            stages.append("chain")

        def run(stage: str) -> dict:
            extra = [] if a.workers is None else ["--workers", str(a.workers)]
            out = subprocess.run([sys.executable, __file__, "--child", stage, "--dir", str(work),
                                  "--games", str(a.games), *extra], capture_output=True, text=True)
            if out.returncode != 0:
                raise SystemExit(f"stage {stage} failed:\n{out.stderr[-3000:]}")
            return json.loads(out.stdout.strip().splitlines()[-1])

        for stage in stages:
            results[stage] = r = run(stage)
            if stage == "ingest":
                games, events = r["games"], r["events"]
                print(_line("ingest", r, games, events, r["floor"]), flush=True)
            elif stage == "verify":
                print(_line("verify", r, games, events, None), flush=True)
            elif stage == "export":
                hands = r["report"].get("hands", 0)
                print(_line("export", r, games, events, r["floor"])
                      + f"\n{'':<8} {hands / r['seconds']:,.0f} hands/s: 1 M hands would take "
                      f"{1e6 / max(hands, 1) * r['seconds'] / 60:.1f} min (target 5 min)", flush=True)
            elif stage == "chain":
                print(_chain_line(r, games), flush=True)
            elif stage == "replay":
                c, h = r["cpu_s"], max(r["hands"], 1)
                print(f"replay   half of export / verify on {r['games']} games, in-process, CPU per hand: "
                      f"export {1000 * c['export new'] / h:.2f} ms (per-event path, the way before issue 19: "
                      f"{1000 * c['export old'] / h:.2f} ms, x{c['export old'] / c['export new']:.2f}), "
                      f"verify {1000 * c['verify new'] / h:.2f} ms (per-event path {1000 * c['verify old'] / h:.2f} ms, "
                      f"x{c['verify old'] / c['verify new']:.2f})"
                      f"{'' if r['same'] else '  RESULTS DIFFER'}", flush=True)
            elif stage == "read":
                u = r["us_per_event"]
                print(f"read     the reading half alone on {r['games']} games (rows fetched, checked, made events), "
                      f"µs CPU per event, a game's own texts unparsed (first read in the process) / parsed (read "
                      f"again): export {u['export first']:.2f} / {u['export again']:.2f}, "
                      f"verify {u['verify first']:.2f} / {u['verify again']:.2f}", flush=True)
            else:
                slow = max(r["query_ms_median_of_5"].values())
                print(f"queries  slowest dashboard query {slow:.1f} ms (median of 5); open with file checks "
                      f"{r['open_with_file_checks_ms']:.0f} ms, CPU {r['open_with_file_checks_cpu_ms']:.0f} ms (the "
                      f"first open in a process: DuckDB's first use, and the SHA-256 of each of the "
                      f"{r['parquet_files']} part files, {r['parquet_mib']:.1f} MiB, checked against the manifest: "
                      f"{r['sha256_cpu_ms']:.0f} ms CPU of it; opened again {r['open_again_ms']:.0f} ms)", flush=True)
            if r.get("status") not in (None, 0, 1):
                print(f"         stderr: {r['stderr'][-800:]}")
        timed = [s for s in ("ingest", "verify", "export", "chain") if s in results]
        runs = {s: [results[s]] for s in timed}
        for k in range(1, rounds):  # alternated: the chain after the three stages, then before them
            for stage in timed if k % 2 == 0 else timed[-1:] + timed[:-1]:
                runs[stage].append(run(stage))
            print(f"round {k + 1} of {rounds}: " + ", ".join(
                f"{s} {runs[s][-1]['seconds']:.1f} s (CPU {runs[s][-1]['cpu']:.1f} s)" for s in timed), flush=True)
        if rounds > 1:
            results.update({s: _merged(s, runs[s]) for s in timed})
            print(f"median wall, lowest CPU of {rounds} rounds:")
            print(_line("ingest", results["ingest"], games, events, results["ingest"]["floor"]))
            print(_line("verify", results["verify"], games, events, None))
            print(_line("export", results["export"], games, events, results["export"]["floor"]))
            if "chain" in results:
                print(_chain_line(results["chain"], games))
        total = sum(results[s]["seconds"] for s in ("ingest", "verify", "export"))
        total_cpu = sum(results[s]["cpu"] for s in ("ingest", "verify", "export"))
        peak = max(results[s]["rss_mib"] for s in ("ingest", "verify", "export"))
        print(f"sum      ingest + verify + export of {games:,} games: {total:.1f} s (CPU {total_cpu:.1f} s), "
              f"peak RSS {peak:.0f} MiB; 100,000 games would take {total * 100_000 / max(games, 1) / 60:.1f} min "
              "at this rate (target 10 min, 1 GB)")
        if "chain" in results:
            ch = results["chain"]
            how = "one run each" if rounds == 1 else f"median of {rounds} alternated runs each"
            print(f"chain vs sum  CPU {ch['cpu']:.1f} vs {total_cpu:.1f} s: the chain needs "
                  f"{ch['cpu'] / max(total_cpu, 1e-9):.2f}x the CPU of the three commands — compare these: CPU "
                  f"seconds are the work done, whatever else runs. Wall {ch['seconds']:.1f} vs {total:.1f} s "
                  f"({how}): on a shared machine the wall clock also holds the waits for a core and the disk"
                  + (", so one run can put them in either order (--rounds 3 gives medians)" if rounds == 1 else ""))
        summary = {
            "games": games, "events": events, "load_average_1min": round(os.getloadavg()[0], 2), "rounds": rounds,
            **{f"{s}_s": round(results[s]["seconds"], 2) for s in ("ingest", "verify", "export")},
            **{f"{s}_cpu_s": round(results[s]["cpu"], 2) for s in ("ingest", "verify", "export")},
            "ingest_floor_s": round(results["ingest"]["floor"]["seconds"], 2),
            "ingest_vs_floor": round(results["ingest"]["floor"]["seconds"] / results["ingest"]["seconds"], 3),
            "ingest_vs_floor_cpu": round(results["ingest"]["floor"]["cpu"] / results["ingest"]["cpu"], 3),
            "export_floor_s": round(results["export"]["floor"]["seconds"], 2),
            "export_hands": results["export"]["report"].get("hands"),
            "chain_s": round(total, 2), "chain_cpu_s": round(total_cpu, 2), "peak_rss_mib": round(peak, 1),
            "slowest_query_ms": max(results["queries"]["query_ms_median_of_5"].values()),
            "open_with_file_checks_ms": results["queries"]["open_with_file_checks_ms"],
            "open_with_file_checks_cpu_ms": results["queries"]["open_with_file_checks_cpu_ms"],
            "chain_verify_export_s": round(results["chain"]["seconds"], 2) if "chain" in results else None,
            "chain_verify_export_cpu_s": round(results["chain"]["cpu"], 2) if "chain" in results else None,
            "replay_half_cpu_ms_per_hand": {k: round(1000 * v / max(results["replay"]["hands"], 1), 3)
                                            for k, v in results["replay"]["cpu_s"].items()},
            "read_us_per_event": results["read"]["us_per_event"],
        }
        print(json.dumps(summary))
        if a.baseline is not None:
            compare(a.baseline.resolve(), work, a.games, a.workers, max(1, a.rounds or 2), results,
                    tuple(x.strip() for x in a.compare.split(",") if x.strip()))
        if a.profile:
            profile(corpus)
    finally:
        if not a.keep and a.dir is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
