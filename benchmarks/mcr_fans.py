"""Speed of the MCR fan calculator against the reference (MahjongGB) on the shared vectors.

Run: .venv/bin/python benchmarks/mcr_fans.py [--repeat N]

Prints hands/s for ``score()`` in three cache states, and for
``MahjongGB.MahjongFanCalculator`` on the same cases, and the ratios:

- cold: every memo cache cleared before one pass;
- steady: caches keyed on small pieces (one suit's counts, the chows or pungs of a reading,
  the set of tile kinds, the win flags, the fans found before exclusions) warm, caches keyed
  on a whole hand's 34 counts or on all the sets of a reading cleared — what a long-running
  service sees on hands it has not met before;
- warm: every cache warm (the same 3000 hands again). There is no cache of whole results;
  the warm pass still builds every reading and evaluates every fan.

Numbers depend on the machine; nothing here asserts.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from replayer.rules.mcr.fans import base, calculator, combine, context
from replayer.rules.mcr.fans.calculator import score
from replayer.rules.mcr.vectors import oracle_args, read_vectors
from replayer.rules.shared import decompose, shapes

VECTORS = Path(__file__).resolve().parent.parent / "tests" / "data" / "mcr" / "fan_vectors.jsonl"


_GROUPS = tuple(found for _, _, found in calculator._GROUPS)
assert not any("chows" in fields for fields, _, _ in calculator._GROUPS), "a group keyed on whole readings"
WHOLE_HAND_CACHES = (decompose.decompose, decompose.waits, decompose._wild_split, shapes.knitted_straight_in,
                     context.concealed_shape, base._all_tiles)
PIECE_CACHES = (decompose._numbered_block, decompose._honor_block, decompose._block_complete,
                decompose._block_groups_numbered, decompose._block_groups_honor,
                decompose._block_additions, base.facts_of, combine.chow_fans, combine.pung_fans,
                calculator._exclude) + _GROUPS


def clear_caches(pieces: bool = True) -> None:
    for fn in WHOLE_HAND_CACHES + (PIECE_CACHES if pieces else ()):
        fn.cache_clear()


def rate(fn, items, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for x in items:
            fn(x)
        best = min(best, time.perf_counter() - t0)
    return len(items) / best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    cases = [c.situation for c in read_vectors(VECTORS)]

    clear_caches()
    t0 = time.perf_counter()
    for s in cases:
        score(s)
    cold = len(cases) / (time.perf_counter() - t0)
    steady = float("inf")
    for _ in range(args.repeat):
        clear_caches(pieces=False)
        t0 = time.perf_counter()
        for s in cases:
            score(s)
        steady = min(steady, time.perf_counter() - t0)
    steady = len(cases) / steady
    warm = rate(score, cases, args.repeat)

    import MahjongGB

    calc = MahjongGB.MahjongFanCalculator
    oracle_inputs = [oracle_args(s) for s in cases]
    ref = rate(lambda a: calc(*a, verbose=True), oracle_inputs, args.repeat)

    print(f"cases: {len(cases)}")
    print(f"paipu score(), cold caches : {cold:10.0f} hands/s")
    print(f"paipu score(), steady      : {steady:10.0f} hands/s  (piece caches warm, whole-hand caches cold)")
    print(f"paipu score(), warm caches : {warm:10.0f} hands/s  (all memo caches warm; no result cache)")
    print(f"MahjongGB (C++ reference)  : {ref:10.0f} hands/s")
    print(f"ratio reference / ours     : {ref / cold:.1f}x cold, {ref / steady:.1f}x steady, {ref / warm:.1f}x warm")


if __name__ == "__main__":
    main()
