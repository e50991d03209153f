"""Shanten (replayer/rules/shared/shanten.py) against hands worked out by hand and against
the shared decomposition (decompose.is_complete / waits), which is independent code:
−1 exactly for a complete hand, 0 exactly for a ready hand."""

from __future__ import annotations

import random

import pytest

from eventlog import tiles as T
from replayer.rules.shared.decompose import is_complete, waits
from replayer.rules.shared.shanten import regular_shanten, shanten


def counts(text: str) -> tuple[int, ...]:
    c = [0] * 34
    for t in T.parse(text):
        c[T.index(t)] += 1
    return tuple(c)


@pytest.mark.parametrize("hand, melds, expected", [
    ("W1 W2 W3 W4 W5 W6 W7 W8 W9 B4 B5 B6 T2 T2", 0, -1),  # complete
    ("W1 W2 W3 W4 W5 W6 W7 W8 W9 B4 B6 T2 T2", 0, 0),  # closed wait on B5
    ("W1 W9 T1 T9 B1 B9 F1 F2 F3 F4 J1 J2 J3", 0, 0),  # thirteen orphans, 13-sided wait
    ("W1 W1 W2 W2 W3 W3 F1 F1 J1 J1 T5 T5 B9", 0, 0),  # seven pairs, single wait (and regular 1)
    ("W1 W4 W7 T2 T5 T8 B3 B6 B9 F1 F2 F3 J1", 0, 6),  # all isolated: seven pairs needs 6
    ("W1 W2 W3 T5 T6", 3, 0),  # three sets declared, one set + a partial: ready
    ("W1 W5 W9 T3", 3, 2),  # a set and a pair from four singles: two draws to ready
    ("B2", 4, 0),  # four sets declared: single wait
])
def test_worked_examples(hand, melds, expected):
    assert shanten(counts(hand), melds) == expected


def test_seven_pairs_is_not_counted_with_declared_sets():
    # five pairs and one set declared: regular needs 3 sets + a pair (one pair, three
    # partials: 2); seven pairs (6 − 5 = 1) would be nearer but needs a concealed hand
    c = counts("W1 W1 W4 W4 W7 W7 F1 F1 J1 J1")
    assert shanten(c, 1) == regular_shanten(c, 1) == 2


def _random_hands(n_tiles: int, k: int, seed: int):
    rng = random.Random(seed)
    wall = [i for i in range(34) for _ in range(4)]
    for _ in range(k):
        c = [0] * 34
        for i in rng.sample(wall, n_tiles):
            c[i] += 1
        yield tuple(c)


def _near_complete(seed: int, k: int):
    """Complete hands with one tile swapped: many ready and one-away hands."""
    rng = random.Random(seed)
    for _ in range(k):
        c = [0] * 34
        for _ in range(4):
            if rng.random() < 0.5:
                s, r = rng.randrange(3), rng.randrange(7)
                for d in range(3):
                    c[9 * s + r + d] += 1
            else:
                c[rng.randrange(34)] += 3
        c[rng.randrange(34)] += 2
        if max(c) > 4:
            continue
        c[rng.choice([i for i in range(34) if c[i]])] -= 1
        yield tuple(c)


def test_minus_one_exactly_for_complete_and_zero_exactly_for_ready_hands():
    checked = 0
    for c in list(_random_hands(13, 300, 1)) + list(_near_complete(2, 600)):
        sh = regular_shanten(c, 0)
        assert (sh == 0) == bool(waits(c, seven_pairs=False)), c
        for extra in range(34):
            if c[extra] < 4:
                d = list(c)
                d[extra] += 1
                d = tuple(d)
                assert (regular_shanten(d, 0) == -1) == is_complete(d)
                checked += 1
    assert checked > 10_000


def test_one_exchange_moves_shanten_by_at_most_one():
    """Shanten counts exchanges: swapping one tile for another changes it by at most 1."""
    rng = random.Random(4)
    for c in _random_hands(13, 150, 3):
        base = regular_shanten(c, 0)
        out = rng.choice([i for i in range(34) if c[i]])
        for into in range(34):
            if into != out and c[into] < 4:
                d = list(c)
                d[out] -= 1
                d[into] += 1
                assert abs(regular_shanten(tuple(d), 0) - base) <= 1
