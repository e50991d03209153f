"""The long Sichuan run of issue 15: simulated 血战 games under the default options and under
each non-default option of docs/reference/rules/sichuan.md §9, each game replayed from its JSON
Lines form and checked by tests/rules/sichuan/sim_checks.py (no finding; zero-sum settlements
and components; seats out never pay; byte-identical second replay). Prints, per option set,
games, hands, wins, what was exercised and the CPU time; tests/rules/sichuan/test_simulated.py
runs the same checks on fewer games.

Run: python scripts/sichuan_games.py [--games 1000] [--option-games 200] [--hands 4] [--seed 1]

A game is ``--hands`` hands (Sichuan games have no fixed length; the log decides). Exit
status 1 when any check fails.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from replayer.simulate.engine import SimulationConfig, simulate
from tests.rules.sichuan.sim_checks import check_game
from tests.rules.sichuan.test_simulated import NON_DEFAULT


def run(options: dict, games: int, hands: int, seed: str) -> tuple[int, Counter, list[str]]:
    cfg = SimulationConfig(ruleset="sichuan", options=options, seed=seed, hands_per_game=hands)
    stats: Counter = Counter()
    problems: list[str] = []
    n_hands = 0
    for k, game in enumerate(simulate(cfg, games), 1):
        problems += check_game(game, stats)
        n_hands += game.hands
        if k % 100 == 0:
            print(f"    {k}/{games} games", file=sys.stderr)
    return n_hands, stats, problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="games under the default options")
    ap.add_argument("--option-games", type=int, default=200, help="games under each non-default option")
    ap.add_argument("--hands", type=int, default=4, help="hands per game")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--only", default="", help="run only the option sets whose JSON contains this text")
    a = ap.parse_args()
    failed = 0
    for options, games in [({}, a.games)] + [(o, a.option_games) for o in NON_DEFAULT]:
        if a.only and a.only not in json.dumps(options):
            continue
        t0 = time.process_time()
        hands, stats, problems = run(options, games, a.hands, a.seed)
        wins = sum(v for k, v in stats.items() if k.startswith("win "))
        print(f"{json.dumps(options)}: {games} games, {hands} hands, {wins} wins, problems {len(problems)}; "
              f"{time.process_time() - t0:.0f} s CPU")
        print("    " + ", ".join(f"{k} {v}" for k, v in sorted(stats.items())))
        for p in problems[:5]:
            print("    PROBLEM", p)
        failed += len(problems)
    print(f"total problems: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
