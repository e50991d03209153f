"""Speed of the MCR fan calculator against the reference (MahjongGB) on the shared vectors.

Run: .venv/bin/python benchmarks/mcr_fans.py [--repeat N]

Prints hands/s for ``score()`` — cold (all memo caches cleared before the pass) and with
intermediate caches warm (decompositions, waits, set-combination allocations; there is no
whole-result cache) — and for ``MahjongGB.MahjongFanCalculator`` on the same cases, and the
ratio. Numbers depend on the machine; nothing here asserts.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from replayer.rules.mcr.fans import base, combine
from replayer.rules.mcr.fans.calculator import score
from replayer.rules.mcr.vectors import oracle_args, read_vectors
from replayer.rules.shared import decompose, shapes

VECTORS = Path(__file__).resolve().parent.parent / "tests" / "data" / "mcr" / "fan_vectors.jsonl"


def clear_caches() -> None:
    for fn in (decompose.decompose, decompose.waits, decompose._numbered_block, decompose._honor_block,
               decompose._block_complete, shapes.knitted_straight_in, base.facts_of,
               combine.chow_fans, combine.pung_fans):
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
    warm = rate(score, cases, args.repeat)

    import MahjongGB

    calc = MahjongGB.MahjongFanCalculator
    oracle_inputs = [oracle_args(s) for s in cases]
    ref = rate(lambda a: calc(*a, verbose=True), oracle_inputs, args.repeat)

    print(f"cases: {len(cases)}")
    print(f"paipu score(), cold caches : {cold:10.0f} hands/s")
    print(f"paipu score(), warm caches : {warm:10.0f} hands/s  (decompositions/waits memoised; no result cache)")
    print(f"MahjongGB (C++ reference)  : {ref:10.0f} hands/s")
    print(f"ratio reference / ours     : {ref / warm:10.1f}x (warm), {ref / cold:.1f}x (cold)")


if __name__ == "__main__":
    main()
