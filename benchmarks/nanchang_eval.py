"""Nanchang hand evaluation speed with 0..8 jing in hand (shared/rules/nanchang.md §13).

For each number k of jing among the 14 tiles (13 concealed + a self-drawn winning tile) it
evaluates N random hands — half of them built as winning hands (sets and a pair, then k tiles
turned into jing), half random tiles — and prints evaluations/s with cold caches (every
memoised count-vector check forgotten before each hand), with warm caches (the same hands
again after one pass over all of them), and the slowest single cold evaluation. Deterministic (seeded).

Run: .venv/bin/python benchmarks/nanchang_eval.py [N]
"""

from __future__ import annotations

import random
import sys
import time

from eventlog import tiles as T
from replayer.rules.nanchang.evaluate import WinInput, clear_caches, evaluate
from replayer.rules.nanchang.jing import jing_kinds
from replayer.rules.nanchang.options import NanchangOptions

OPTS = NanchangOptions()


def winning(rng: random.Random) -> list[int]:
    out: list[int] = []
    for _ in range(4):
        kind = rng.choice(["chow", "pung", "wind", "dragon"])
        if kind == "chow":
            s, r = rng.randrange(3), rng.randrange(7)
            out += [9 * s + r, 9 * s + r + 1, 9 * s + r + 2]
        elif kind == "pung":
            out += [rng.randrange(34)] * 3
        elif kind == "wind":
            out += rng.sample([27, 28, 29, 30], 3)
        else:
            out += [31, 32, 33]
    out += [rng.randrange(34)] * 2
    return out


def hand(rng: random.Random, k: int, indicator: str, win_shape: bool) -> list[str]:
    kinds = jing_kinds(indicator)
    j1, j2 = kinds.indices
    while True:
        base = winning(rng) if win_shape else [rng.randrange(34) for _ in range(14)]
        base = [t for t in base if t not in (j1, j2)]
        rng.shuffle(base)
        jing = [j1] * min(k, 4) + [j2] * (k - min(k, 4))
        rng.shuffle(jing)
        if len(base) < 14 - k:
            continue
        tiles = base[: 14 - k] + jing
        if all(tiles.count(t) <= 4 for t in tiles):
            rng.shuffle(tiles)
            return [T.code(t) for t in tiles]


def main(n: int) -> None:
    rng = random.Random(20261129)
    print(f"{'jing':>4} {'hands':>6} {'wins':>5} {'cold eval/s':>12} {'warm eval/s':>12} {'worst cold ms':>14}")
    for k in range(9):
        cases = []
        for i in range(n):
            ind = T.code(rng.randrange(34))
            tiles = hand(rng, k, ind, win_shape=i % 2 == 0)
            cases.append((WinInput(tuple(tiles[:13]), (), tiles[13], "self_drawn", 1, 0), jing_kinds(ind)))
        worst = 0.0
        wins = 0
        t0 = time.perf_counter()
        for w, kinds in cases:
            clear_caches()
            s = time.perf_counter()
            r = evaluate(w, kinds, OPTS)
            worst = max(worst, time.perf_counter() - s)
            wins += r.legal
        cold = time.perf_counter() - t0
        for w, kinds in cases:  # fill the caches with every hand of this k
            evaluate(w, kinds, OPTS)
        t0 = time.perf_counter()
        for w, kinds in cases:
            evaluate(w, kinds, OPTS)
        warm = time.perf_counter() - t0
        print(f"{k:>4} {n:>6} {wins:>5} {n / cold:>12.0f} {n / warm:>12.0f} {worst * 1000:>14.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 400)
