"""Speed of the MCR fan calculator against the reference (MahjongGB) on the shared vectors.

Run: .venv/bin/python benchmarks/mcr_fans.py [--repeat N] [--fresh N] [--cpu]

Prints hands/s for ``score()`` in four cache states, and for
``MahjongGB.MahjongFanCalculator`` on the same cases, and the ratios:

- cold: every memo cache cleared before one pass;
- steady: caches keyed on small pieces (one suit's counts, the chows or pungs of a reading,
  the set of tile kinds, the win flags, the fans found before exclusions) warm from a pass
  over the same hands, caches keyed on a whole hand's 34 counts cleared;
- fresh: every cache cleared, then ``--fresh`` other random wins scored (seeded, the
  generator of tests/rules/mcr/hands.py), whole-hand caches cleared, one pass over the
  vectors — what a long-running service sees on hands it has not met before (the piece
  caches only hold what other hands left; lower than steady);
- warm: every cache warm (the same 3000 hands again). There is no cache of whole results;
  the warm pass still builds every reading and evaluates every fan.

The shared decomposition's suit-completion table (replayer/rules/shared/decompose.py) is not
a cache: it is built once, on first use — inside the cold pass, which therefore includes it.

``--cpu`` times with process CPU time instead of wall time (steadier on a shared machine).
Numbers depend on the machine; nothing here asserts.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

from replayer.rules.mcr.fans import base, calculator, combine, context
from replayer.rules.mcr.fans.calculator import score
from replayer.rules.mcr.vectors import oracle_args, read_vectors
from replayer.rules.shared import decompose, shapes

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "tests" / "data" / "mcr" / "fan_vectors.jsonl"
clock = time.perf_counter


_GROUPS = tuple(found for _, _, found in calculator._GROUPS)
assert not any("chows" in fields for fields, _, _ in calculator._GROUPS), "a group keyed on whole readings"
WHOLE_HAND_CACHES = (decompose.decompose, decompose.waits, decompose._wild_split, shapes.knitted_straight_in,
                     context.concealed_shape, context.divisions, context._single_wait, base._all_tiles)
PIECE_CACHES = (decompose._numbered_block, decompose._honor_block, decompose._block_complete,
                decompose._block_groups_numbered, decompose._block_groups_honor,
                decompose._block_additions, base.facts_of_mask, base._block_codes, combine._chow_fans,
                combine._pung_fans,
                combine._two_chow_fan, combine._three_chow_fan, combine._two_pung_fan, combine._three_pung_fan,
                calculator._exclude) + _GROUPS


def clear_caches(pieces: bool = True) -> None:
    for fn in WHOLE_HAND_CACHES + (PIECE_CACHES if pieces else ()):
        fn.cache_clear()


def rate(fn, items, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        t0 = clock()
        for x in items:
            fn(x)
        best = min(best, clock() - t0)
    return len(items) / best


def one_pass(cases) -> float:
    gc.collect()  # start each timed pass with no garbage pending
    t0 = clock()
    for s in cases:
        score(s)
    return len(cases) / (clock() - t0)


def main() -> None:
    global clock
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--fresh", type=int, default=30000, help="other hands scored before the fresh pass")
    ap.add_argument("--cpu", action="store_true", help="time with process CPU time")
    args = ap.parse_args()
    if args.cpu:
        clock = time.process_time
    cases = [c.situation for c in read_vectors(VECTORS)]

    clear_caches()
    cold = one_pass(cases)
    steady = 0.0
    for _ in range(args.repeat):
        clear_caches(pieces=False)
        steady = max(steady, one_pass(cases))
    warm = rate(score, cases, args.repeat)

    sys.path.insert(0, str(ROOT / "tests" / "rules" / "mcr"))
    from hands import random_situation  # test helper, not a package

    rng = random.Random(20261129)
    others = [random_situation(rng) for _ in range(args.fresh)]
    clear_caches()
    for s in others:
        score(s)
    del others
    clear_caches(pieces=False)
    fresh = one_pass(cases)

    import MahjongGB

    calc = MahjongGB.MahjongFanCalculator
    oracle_inputs = [oracle_args(s) for s in cases]
    ref = rate(lambda a: calc(*a, verbose=True), oracle_inputs, args.repeat)

    print(f"cases: {len(cases)}")
    print(f"paipu score(), cold caches : {cold:10.0f} hands/s")
    print(f"paipu score(), steady      : {steady:10.0f} hands/s  (piece caches warm, whole-hand caches cold)")
    print(f"paipu score(), fresh       : {fresh:10.0f} hands/s  (piece caches from {args.fresh} other hands)")
    print(f"paipu score(), warm caches : {warm:10.0f} hands/s  (all memo caches warm; no result cache)")
    print(f"MahjongGB (C++ reference)  : {ref:10.0f} hands/s")
    print(f"ratio reference / ours     : {ref / cold:.1f}x cold, {ref / steady:.1f}x steady, "
          f"{ref / fresh:.1f}x fresh, {ref / warm:.1f}x warm")


if __name__ == "__main__":
    main()
