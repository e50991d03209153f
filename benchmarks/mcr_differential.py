"""Differential check of the MCR fan calculator against the reference (MahjongGB 1.4.0).

Run: .venv/bin/python benchmarks/mcr_differential.py [--hands N] [--seed S]

Draws N random legal wins (seeded; the generator of tests/rules/mcr/hands.py: regular hands
with declared melds and kongs, and concealed special shapes), scores each with ``score()`` and
with ``MahjongGB.MahjongFanCalculator(..., verbose=True)``, and prints how many differ in the
fans (Chinese name, count) — the reference's output — with the first few differences.
Nothing here asserts; the test suite holds the same comparison on fewer hands.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "rules" / "mcr"))

from hands import random_situation  # noqa: E402  (test helper, not a package)

from replayer.rules.mcr.fans.calculator import score  # noqa: E402
from replayer.rules.mcr.vectors import oracle_args  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--show", type=int, default=5, help="how many mismatches to print")
    args = ap.parse_args()

    import MahjongGB

    calc = MahjongGB.MahjongFanCalculator
    rng = random.Random(args.seed)
    situations = [random_situation(rng) for _ in range(args.hands)]
    t0 = time.perf_counter()
    ours = [[(f.name_zh, f.count) for f in score(s).fans] for s in situations]
    elapsed = time.perf_counter() - t0
    mismatches = 0
    for s, mine in zip(situations, ours):
        ref = [(name, cnt) for _, cnt, name, _ in calc(*oracle_args(s), verbose=True)]
        if mine != ref:
            mismatches += 1
            if mismatches <= args.show:
                print(f"mismatch: {s}\n  ours: {mine}\n  ref : {ref}")
    print(f"hands: {len(situations)} (seed {args.seed}), scored in {elapsed:.2f} s in one fresh pass")
    print(f"mismatches against MahjongGB: {mismatches}")


if __name__ == "__main__":
    main()
