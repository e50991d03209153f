"""The suit-completion table behind ``is_complete``, ``waits`` and ``decompose``: every suit
block of a physical hand (each kind at most four times, at most 14 tiles) is complete exactly
when it splits into sets (three of a kind, three in a row) and at most one pair — checked
against a plain search written here from that definition, on random blocks; and the table is
built once when many threads ask for it at the same time."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

from replayer.rules.shared import decompose as D


@lru_cache(maxsize=None)
def splits(block: tuple[int, ...], pair_left: bool) -> frozenset[bool]:
    """Whether ``block`` splits into sets only (False) / sets and one pair (True), by taking
    a set or the pair off its lowest kind."""
    i = next((k for k, n in enumerate(block) if n), None)
    if i is None:
        return frozenset({False})
    out: set[bool] = set()
    c = list(block)
    if c[i] >= 3:
        c[i] -= 3
        out |= splits(tuple(c), pair_left)
        c[i] += 3
    if i <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        out |= splits(tuple(c), pair_left)
        for k in (i, i + 1, i + 2):
            c[k] += 1
    if pair_left and c[i] >= 2:
        c[i] -= 2
        out |= {True for done in splits(tuple(c), False) if not done}
    return frozenset(out)


def random_block(rng: random.Random) -> tuple[int, ...]:
    c = [0] * 9
    for _ in range(rng.randrange(15)):
        k = rng.randrange(9)
        if c[k] < 4:
            c[k] += 1
    return tuple(c)


def test_a_suit_is_complete_exactly_when_it_splits_into_sets_and_at_most_one_pair():
    rng = random.Random(19)
    blocks = {random_block(rng) for _ in range(4000)}
    # the shapes of a real wait: one tile short of sets + a pair
    blocks |= {(1, 1, 1, 2, 3, 1, 1, 1, 3), (3, 1, 1, 1, 1, 1, 1, 1, 3), (0, 4, 4, 4, 2, 0, 0, 0, 0)}
    for block in sorted(blocks):
        found = splits(block, True)
        hand = block + (0,) * 25
        with_pair = True in found
        sets_only = False in found
        assert D._block_complete.__wrapped__(block, True, False) == (sets_only, with_pair), block
        if sum(block) % 3 == 2:
            assert D.is_complete(hand) == with_pair, block
            assert bool(D.decompose(hand)) == with_pair, block


def test_waits_of_a_suit_are_the_tiles_that_complete_it():
    rng = random.Random(20)
    for _ in range(300):
        block = random_block(rng)
        if sum(block) % 3 != 1:
            continue
        hand = block + (0,) * 25
        expected = tuple(x for x in range(9) if True in splits(tuple(n + (k == x) for k, n in enumerate(block)), True))
        assert D.waits(hand, seven_pairs=False) == expected, block


def test_the_table_is_built_once_however_many_threads_ask():
    D._suit_table = None  # as at import
    with ThreadPoolExecutor(8) as pool:
        tables = list(pool.map(lambda _: D._complete_suits(), range(32)))
    assert all(t is tables[0] for t in tables)
    assert 0 in tables[0]  # an empty suit: all sets (none)
