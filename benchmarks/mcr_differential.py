"""Differential check of the MCR fan calculator against the reference (MahjongGB 1.4.0).

Run: .venv/bin/python benchmarks/mcr_differential.py [--hands N] [--seed S]

Draws N random legal wins (seeded; the generator of tests/rules/mcr/hands.py: regular hands
with declared melds and kongs, and concealed special shapes), scores each with ``score()`` and
with ``MahjongGB.MahjongFanCalculator(..., verbose=True)``, and prints how many differ in the
fans (Chinese name, count) — the reference's output — with the first few differences.

It also checks the calculator's memoisation on the same hands: for every reading, the fans
found through the memoised field groups (``Fan.reads``) must equal calling every fan's
``count`` on the full context (prints the number of readings where they differ).
Nothing here asserts; the test suite holds the reference comparison on fewer hands.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "rules" / "mcr"))

from hands import random_situation

from replayer.rules.mcr.fans import FANS
from replayer.rules.mcr.fans.calculator import found_before_exclusions, score
from replayer.rules.mcr.fans.context import prepare, readings
from replayer.rules.mcr.options import DEFAULT_OPTIONS
from replayer.rules.mcr.vectors import oracle_args


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

    counted = [f for f in FANS if not f.residual and f.id != "flower_tiles"]
    n_readings = wrong = 0
    for s in situations:
        special, regular = readings(prepare(s), DEFAULT_OPTIONS)
        for ctx in ([special] if special is not None else []) + regular:
            n_readings += 1
            direct = tuple((f.number, n) for f in counted if (n := f.count(ctx)))
            if direct != found_before_exclusions(ctx):
                wrong += 1
    print(f"readings where memoised fans differ from calling every fan: {wrong} of {n_readings}")


if __name__ == "__main__":
    main()
