"""Simulate every Nanchang-based preset (the Jiangxi variants, issue 17) and check each game
as tests/simulate does: a strict replay from its JSON Lines with no finding, zero-sum
settlements, a second replay byte-identical after every event, each win as the simulator
recorded it. Prints one line per preset with games, hands, wins, seconds and failures.

Run: python scripts/simulate_presets.py [--games 200] [--hands 1] [--seed presets] [PRESET ...]
Nothing asserts: the exit code is 1 when any game failed a check.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eventlog import events as ev
from replayer.replay import replay
from replayer.rules.base import presets
from replayer.simulate.engine import SimulationConfig, simulate_game
from replayer.state import to_dict


def check(game, hands: int) -> str | None:
    """None when the game passes every check, else what failed."""
    events = [ev.parse_event(line.decode()) for line in game.jsonl_lines()]
    try:
        steps = list(replay(events, mode="strict"))
    except Exception as e:  # a strict replay refuses the first illegal event
        return f"{type(e).__name__}: {e}"
    bad = [f for s in steps for f in s.findings]
    if bad:
        return f"finding: {bad[0]}"
    final = steps[-1].state
    if final.phase != "game_over" or len(final.hands) != hands:
        return f"game not over after {hands} hands: {final.phase}, {len(final.hands)}"
    if any(sum(e.changes) for e in final.score_log) or sum(final.scores):
        return "not zero-sum"
    again = list(replay(events, mode="strict"))
    for a, b in zip(steps, again, strict=True):
        if ev.canonical_bytes(to_dict(a.state)) != ev.canonical_bytes(to_dict(b.state)):
            return f"re-replay differs at seq {a.event.seq}"
    recs = [s.state.wins[-1] for s in steps if s.event.type == "win_declared"]
    if len(recs) != len(game.wins) or any(not r.legal for r in recs):
        return "wins differ from the simulator's"
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--hands", type=int, default=1)
    ap.add_argument("--seed", default="presets")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    names = a.names or [n for n, (base, _) in presets().items() if base == "nanchang"]
    failed = 0
    print(f"{'preset':28} {'games':>5} {'hands':>5} {'wins':>5} {'events':>7} {'s':>6}  failures")
    for name in names:
        cfg = SimulationConfig(ruleset=name, seed=a.seed, hands_per_game=a.hands)
        t0 = time.perf_counter()
        hands = wins = events = 0
        fails: list[str] = []
        for g in range(a.games):
            try:
                game = simulate_game(cfg, g)
            except Exception as e:
                fails.append(f"game {g}: simulation: {type(e).__name__}: {e}")
                continue
            hands += game.hands
            wins += len(game.wins)
            events += len(game.events)
            why = check(game, a.hands)
            if why:
                fails.append(f"game {g}: {why}")
        failed += len(fails)
        print(f"{name:28} {a.games:5} {hands:5} {wins:5} {events:7} {time.perf_counter() - t0:6.1f}  {len(fails)}"
              + (f"  first: {fails[0]}" if fails else ""), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
