"""The pair restriction of the shared decomposition (``pair_tiles``): a regular shape whose pair
must be of given kinds — Changsha 二五八做将 (shared/rules/changsha.md §3.1) and Jiangxi
``pair_258`` (shared/rules/jiangxi_variants.md §1). Expected values come from the rules text and
from a brute-force oracle written here (remove a pair of an allowed kind, then sets only)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from eventlog import tiles as T
from replayer.rules.shared import decompose as D


def c(text: str) -> tuple[int, ...]:
    return tuple(T.to_counts(T.parse(text))[:34])


def oracle(counts: tuple[int, ...], kinds: frozenset[int], wild: int = 0) -> bool:
    """Brute force: some allowed pair (real tiles, wildcards filling) and the rest sets only."""
    for k in sorted(kinds):
        for real in (2, 1, 0):
            need = 2 - real
            if counts[k] >= real and need <= wild:
                rest = list(counts)
                rest[k] -= real
                if D.can_complete(tuple(rest), wildcards=wild - need, pair=False):
                    return True
    return False


def test_258_constant_is_the_nine_tiles():
    assert sorted(T.ALL_TILES[i] for i in D.PAIR_258) == sorted(
        ["W2", "W5", "W8", "T2", "T5", "T8", "B2", "B5", "B8"])


def test_spec_example_1_hand_has_a_258_pair():
    # changsha.md §7 Ex 1: 123m 456p 789s 234s + 5m5m
    hand = c("W1 W2 W3 B4 B5 B6 T7 T8 T9 T2 T3 T4 W5 W5")
    assert D.is_complete(hand, pair_tiles=D.PAIR_258)
    assert D.can_complete(hand, pair_tiles=D.PAIR_258)
    div = D.first_division(hand, pair_tiles=D.PAIR_258)
    assert div is not None and div.pair.tiles == (4, 4)
    assert [d.pair.tiles for d in D.decompose(hand, pair_tiles=D.PAIR_258)] == [(4, 4)]


def test_pair_of_another_rank_is_refused():
    # 123m 456p 789s 234s + 3m3m: a winning shape, but the pair is rank 3 (乱将)
    hand = c("W1 W2 W3 B4 B5 B6 T7 T8 T9 T2 T3 T4 W3 W3")
    assert D.is_complete(hand)
    assert not D.is_complete(hand, pair_tiles=D.PAIR_258)
    assert not D.can_complete(hand, pair_tiles=D.PAIR_258)
    assert D.first_division(hand, pair_tiles=D.PAIR_258) is None
    assert D.decompose(hand, pair_tiles=D.PAIR_258) == ()


def test_waits_keep_only_258_pairs():
    # 123m 456p 789s 234s + 5m: waits on 5m only (the pair)
    assert D.waits(c("W1 W2 W3 B4 B5 B6 T7 T8 T9 T2 T3 T4 W5"), pair_tiles=D.PAIR_258) == (4,)
    # 123m 456p 789s 234s + 3m: a 3m wait is a rank-3 pair — no wait with the restriction
    assert D.waits(c("W1 W2 W3 B4 B5 B6 T7 T8 T9 T2 T3 T4 W3"), seven_pairs=False) == (2,)
    assert D.waits(c("W1 W2 W3 B4 B5 B6 T7 T8 T9 T2 T3 T4 W3"), seven_pairs=False,
                   pair_tiles=D.PAIR_258) == ()
    # 55m + 6m7m: waits 5m/8m; the 55 pair is 2-5-8 either way
    assert D.waits(c("W5 W5 W6 W7"), seven_pairs=False, pair_tiles=D.PAIR_258) == (4, 7)


def test_wildcard_pair_stands_for_an_allowed_kind():
    # two wilds + 123m: the wilds are a pair of any allowed kind
    assert D.can_complete(c("W1 W2 W3"), wildcards=2, pair_tiles=D.PAIR_258)
    assert not D.can_complete(c("W1 W2 W3"), wildcards=2, pair_tiles=())
    # 3m + a wild as the pair: only a 3m pair -> refused; 5m + wild -> allowed
    assert not D.can_complete(c("W1 W2 W3 W3"), wildcards=1, pair_tiles=D.PAIR_258)
    assert D.can_complete(c("W1 W2 W3 W5"), wildcards=1, pair_tiles=D.PAIR_258)
    assert all(d.pair.tiles in ((4, 4),) for d in D.decompose(c("W1 W2 W3 W5"), wildcards=1,
                                                             pair_tiles=D.PAIR_258))


@st.composite
def _hands(draw):
    """14 suited tiles built as four sets + a pair (so many are winning shapes), with some
    tiles swapped for random ones."""
    tiles: list[int] = []
    for _ in range(4):
        t = draw(st.integers(0, 26))
        if draw(st.booleans()) and t % 9 <= 6:
            tiles += [t, t + 1, t + 2]
        else:
            tiles += [t] * 3
    tiles += [draw(st.integers(0, 26))] * 2
    for _ in range(draw(st.integers(0, 2))):
        tiles[draw(st.integers(0, 13))] = draw(st.integers(0, 26))
    return tiles


@settings(max_examples=400, deadline=None)
@given(_hands(), st.integers(0, 2))
def test_agrees_with_brute_force(tiles, wild):
    counts = [0] * 34
    for t in tiles[wild:]:
        counts[t] += 1
    if max(counts) > 4:
        return
    hand = tuple(counts)
    want = oracle(hand, D.PAIR_258, wild)
    assert D.can_complete(hand, wildcards=wild, pair_tiles=D.PAIR_258) == want
    assert D.is_complete(hand, wildcards=wild, pair_tiles=D.PAIR_258) == want
    assert bool(D.decompose(hand, wildcards=wild, pair_tiles=D.PAIR_258)) == want
    assert (D.first_division(hand, wildcards=wild, pair_tiles=D.PAIR_258) is not None) == want


@settings(max_examples=150, deadline=None)
@given(_hands())
def test_waits_agree_with_is_complete(tiles):
    counts = [0] * 34
    for t in tiles[1:]:
        counts[t] += 1
    if max(counts) > 4:
        return
    hand = tuple(counts)
    got = D.waits(hand, seven_pairs=False, pair_tiles=D.PAIR_258)
    want = tuple(x for x in range(34)
                 if oracle(tuple(n + (i == x) for i, n in enumerate(hand)), D.PAIR_258))
    assert got == want
