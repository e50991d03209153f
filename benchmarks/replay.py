"""Replay benchmark: events/s and hands/s of ``replayer.replay.run`` in audit mode, and the
share of that time spent scoring wins (the ruleset's ``score_win`` + ``settle_win``: MCR
fans, Nanchang evaluation).

Run: .venv/bin/python benchmarks/replay.py [--mcr-games 4] [--nanchang-games 1] [--changsha-games 4]
                                           [--sichuan-games 4 --sichuan-hands 16] [--repeat 3]
                                           [--baseline REV] [--profile N]

* Inputs, built once into memory before any timing: (a) the bundled real games
  (paipu/samples, through eventlog.ingest.parse_file), (b) simulated MCR, Nanchang, Changsha and Sichuan 血战
  games, and Changsha games (replayer.simulate, seed 1). Every event is turned into a StoredEvent (game_id,
  seq, position) as the log returns it, so ``run`` sees what ``paipu verify`` sees.
* Speed: each set is replayed ``--repeat`` times; the best round is printed (events/s,
  hands/s, ms per game, per CPU-second of this process: the machine may be shared), and
  the events/s of iterating ``replay()`` (a frozen state per event: the step-through
  replay) beside the batch ``replay_game()`` (one working state per game: what export and
  verify use) in alternated rounds, with the shares of the ruleset's time measured in separate rounds
  (methods wrapped with a timer, so the speed rounds run unwrapped): scoring
  (``score_win`` + ``settle_win``) and the optional hooks (``check_event`` + ``observe``,
  e.g. Nanchang's 弃胡 checks, which evaluate hands themselves).
* ``--baseline REV``: runs the same benchmark a second time, in a subprocess, on a copy of
  this tree whose replayer/replay.py and replayer/state.py are taken from git revision
  REV — before/after in one run, everything else equal. Also checks the final states of
  both runs are the same (a digest of ``to_dict`` of every final state and the findings).
* ``--profile N``: prints the N most expensive functions (cProfile, tottime) of one round.

Nothing here asserts a speed; it prints numbers.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import os
import pstats
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("PAIPU_BENCH_ROOT") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(ROOT))

from eventlog import events as ev
from eventlog.ingest import parse_file
from replayer import replay as replay_mod
from replayer.rules.base import get_ruleset
from replayer.simulate.engine import SimulationConfig, simulate
from replayer.state import to_dict

SAMPLES = ROOT / "paipu" / "samples"


def _stored(game_id: str, events: Any) -> list[ev.StoredEvent]:
    return [
        ev.StoredEvent(event_id=e.event_id, type=e.type, payload=e.payload, metadata=e.metadata,
                       game_id=game_id, seq=i, position=i)
        for i, e in enumerate(events)
    ]


def real_games() -> list[list[ev.StoredEvent]]:
    out = []
    for p in sorted(SAMPLES.glob("*/*")):
        if p.name in ("README.txt", "__init__.py"):
            continue
        for g in parse_file(p):
            if hasattr(g, "events"):
                out.append(_stored(g.game_id, g.events))
    return out


def simulated_games(ruleset: str, games: int, hands: int | None) -> list[list[ev.StoredEvent]]:
    cfg = SimulationConfig(ruleset=ruleset, seed=1, hands_per_game=hands)
    return [_stored(g.game_id, g.events) for g in simulate(cfg, games=games)]


def _hands(games: list[list[ev.StoredEvent]]) -> int:
    return sum(1 for g in games for e in g if e.type == "hand_started")


def _round(games: list[list[ev.StoredEvent]], clock: Any = time.process_time) -> tuple[float, list[Any]]:
    """(seconds by ``clock``: CPU seconds of this process by default, results) of replaying
    every game once."""
    t0 = clock()
    results = [replay_mod.run(g, mode="audit") for g in games]
    return clock() - t0, results


def _steps_round(games: list[list[ev.StoredEvent]], batch: bool = False) -> float:
    """CPU seconds of iterating ``replay()`` (a frozen state per event), or with ``batch``
    ``replay_game()`` (one working state per game: what export and verify use)."""
    replay = replay_mod.replay_game if batch else replay_mod.replay
    t0 = time.process_time()
    for g in games:
        for _ in replay(g, mode="audit"):
            pass
    return time.process_time() - t0


class _ScoringTimer:
    """Wraps methods ``names`` of the rulesets' classes with a timer (one round only); nested
    calls (a wrapped method calling another) are counted once."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.seconds = 0.0
        self.calls = 0
        self._depth = 0
        self._saved: list[tuple[type, str, Any]] = []

    def __enter__(self) -> _ScoringTimer:
        for rid in ("mcr", "nanchang", "changsha", "sichuan"):
            cls = type(get_ruleset(rid, {}))
            for name in self.names:
                if any(c is cls and n == name for c, n, _ in self._saved):
                    continue
                orig = cls.__dict__.get(name)
                if orig is None:
                    continue
                self._saved.append((cls, name, orig))
                setattr(cls, name, self._wrap(orig))
        return self

    def _wrap(self, f: Any) -> Any:
        def timed(*a: Any, **k: Any) -> Any:
            self._depth += 1
            t0 = time.perf_counter()
            try:
                return f(*a, **k)
            finally:
                self._depth -= 1
                if self._depth == 0:
                    self.seconds += time.perf_counter() - t0
                    self.calls += 1
        return timed

    def __exit__(self, *exc: object) -> None:
        for cls, name, orig in self._saved:
            setattr(cls, name, orig)


def digest(results: list[Any]) -> str:
    h = hashlib.sha256()
    for r in results:
        h.update(ev.canonical_bytes(to_dict(r.state)))
        h.update(json.dumps([(f.seq, f.rule_id, f.message, f.seat) for f in r.findings]).encode())
    return h.hexdigest()[:16]


def bench(sets: dict[str, list[list[ev.StoredEvent]]], repeat: int, profile: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, games in sets.items():
        if not games:
            continue
        n_ev = sum(len(g) for g in games)
        n_hands = _hands(games)
        _round(games)  # warm caches (rulesets, imports)
        best = min(_round(games)[0] for _ in range(repeat))
        steps = batch = float("inf")
        for _ in range(repeat):  # alternated, so both see the same machine
            steps = min(steps, _steps_round(games))
            batch = min(batch, _steps_round(games, batch=True))
        with _ScoringTimer(("score_win", "settle_win")) as st:
            wrapped, results = _round(games, time.perf_counter)  # the timers' clock
        with _ScoringTimer(("check_event", "observe")) as hooks:
            wrapped_hooks, _ = _round(games, time.perf_counter)
        out[name] = dict(games=len(games), events=n_ev, hands=n_hands, seconds=best,
                         events_per_s=n_ev / best, steps_events_per_s=n_ev / steps,
                         batch_events_per_s=n_ev / batch, hands_per_s=n_hands / best,
                         scoring_share=st.seconds / wrapped, scoring_calls=st.calls,
                         hooks_share=hooks.seconds / wrapped_hooks, digest=digest(results))
    if profile:
        prof = cProfile.Profile()
        prof.enable()
        for games in sets.values():
            _round(games)
        prof.disable()
        pstats.Stats(prof, stream=sys.stderr).sort_stats("tottime").print_stats(profile)
    return out


def _print(label: str, res: dict[str, Any]) -> None:
    print(f"== {label}")
    for name, r in res.items():
        print(f"  {name:<10} {r['games']:>4} games {r['hands']:>5} hands {r['events']:>7} events: "
              f"{r['events_per_s']:>9,.0f} events/s {r['hands_per_s']:>7,.1f} hands/s "
              f"({1000 * r['seconds'] / r['games']:.1f} ms/game; replay() {r['steps_events_per_s']:,.0f} events/s, "
              + (f"batch replay_game() {r['batch_events_per_s']:,.0f} events/s "
                 f"x{r['batch_events_per_s'] / r['steps_events_per_s']:.2f}" if "batch_events_per_s" in r else "")
              + f"); scoring {100 * r['scoring_share']:.0f}% "
              f"({r['scoring_calls']} calls), ruleset hooks {100 * r['hooks_share']:.0f}% of replay time; "
              f"state digest {r['digest']}")


def _baseline(rev: str, argv: list[str]) -> dict[str, Any]:
    """Run this benchmark on a copy of the tree with replay.py/state.py from ``rev``."""
    with tempfile.TemporaryDirectory() as tmp:
        for pkg in ("paipu", "eventlog", "replayer", "analytics", "dashboard", "proto"):
            if (ROOT / pkg).is_dir():
                shutil.copytree(ROOT / pkg, Path(tmp) / pkg, ignore=shutil.ignore_patterns("__pycache__"))
        for path in ("replayer/replay.py", "replayer/state.py"):
            old = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True, capture_output=True).stdout
            (Path(tmp) / path).write_bytes(old)
        env = dict(os.environ, PAIPU_BENCH_ROOT=tmp)
        proc = subprocess.run([sys.executable, __file__, *argv, "--json"], env=env, check=True,
                              capture_output=True, text=True)
        return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mcr-games", type=int, default=4)
    ap.add_argument("--nanchang-games", type=int, default=1)
    ap.add_argument("--nanchang-hands", type=int, default=32)
    ap.add_argument("--sichuan-games", type=int, default=4)
    ap.add_argument("--sichuan-hands", type=int, default=16)
    ap.add_argument("--changsha-games", type=int, default=4, help="simulated Changsha games (8 hands each)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--baseline", metavar="REV")
    ap.add_argument("--profile", type=int, default=0)
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()

    t0 = time.perf_counter()
    sets = {
        "real": real_games(),
        "sim-mcr": simulated_games("mcr", a.mcr_games, None),
        "sim-nc": simulated_games("nanchang", a.nanchang_games, a.nanchang_hands),
        "sim-cs": simulated_games("changsha", a.changsha_games, None),
        "sim-sc": simulated_games("sichuan", a.sichuan_games, a.sichuan_hands),
    }
    if not a.json:
        print(f"inputs built in {time.perf_counter() - t0:.1f} s (not timed below)")
    res = bench(sets, a.repeat, a.profile)
    if a.json:
        print(json.dumps(res))
        return
    if a.baseline:
        argv = ["--mcr-games", str(a.mcr_games), "--nanchang-games", str(a.nanchang_games),
                "--nanchang-hands", str(a.nanchang_hands), "--changsha-games", str(a.changsha_games),
                "--sichuan-games", str(a.sichuan_games), "--sichuan-hands", str(a.sichuan_hands),
                "--repeat", str(a.repeat)]
        base = _baseline(a.baseline, argv)
        _print(f"baseline: replay.py/state.py at {a.baseline}", base)
    _print("this tree", res)
    if a.baseline:
        for name, r in res.items():
            b = base[name]
            same = "same states" if b["digest"] == r["digest"] else "STATES DIFFER"
            print(f"  {name:<10} speed-up x{r['events_per_s'] / b['events_per_s']:.2f} ({same})")


if __name__ == "__main__":
    main()
