"""The shared decomposition's rule parameters: ``pair_tiles`` (a 258 pair, 将: Pingxiang
shared/rules/jiangxi_variants.md §10 and Changsha) and ``honor_chows`` as a tuple of allowed
honor triples (ordered winds, Ganzhou §3). Expected values are worked from the rules text."""

from __future__ import annotations

from eventlog import tiles as T
from replayer.rules.shared import decompose as D


def counts(*codes: str) -> tuple[int, ...]:
    c = [0] * 34
    for code in codes:
        c[T.index(code)] += 1
    return tuple(c)


# W123 W456 W789 T123 + pair: the pair decides the 258 rule
def test_a_pair_of_a_suited_2_5_or_8_is_a_258_hand():
    hand = counts("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "T1", "T2", "T3", "B5", "B5")
    assert D.can_complete(hand, pair_tiles=D.PAIR_258)
    assert D.is_complete(hand, pair_tiles=D.PAIR_258)
    assert [d.pair.tiles for d in D.decompose(hand, pair_tiles=D.PAIR_258)] == [(22, 22)]


def test_any_other_pair_is_not():
    hand = counts("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "T1", "T2", "T3", "B6", "B6")
    assert D.can_complete(hand)
    assert not D.can_complete(hand, pair_tiles=D.PAIR_258)
    assert not D.is_complete(hand, pair_tiles=D.PAIR_258)
    assert D.decompose(hand, pair_tiles=D.PAIR_258) == ()
    # honors are never 258
    hand = counts("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "T1", "T2", "T3", "J1", "J1")
    assert not D.can_complete(hand, pair_tiles=D.PAIR_258)


def test_the_258_pair_is_found_among_several_divisions():
    # W2 W2 W2 W3 W4 + T111 T999 B999: W22 pair + W234, or W222 + W34 (no) → only the W2 pair
    hand = counts("W2", "W2", "W2", "W3", "W4", "T1", "T1", "T1", "T9", "T9", "T9", "B9", "B9", "B9")
    assert D.can_complete(hand, pair_tiles=D.PAIR_258)
    d = D.first_division(hand, pair_tiles=D.PAIR_258)
    assert d is not None and d.pair.tiles == (1, 1)


def test_a_wild_may_stand_for_the_258_pair():
    real = counts("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "T1", "T2", "T3", "F1")
    assert not D.can_complete(real, wildcards=1, pair_tiles=D.PAIR_258)  # F1 + wild: F1 pair only
    real = counts("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "T1", "T2", "T3", "T8")
    assert D.can_complete(real, wildcards=1, pair_tiles=D.PAIR_258)
    real = counts("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "T1", "T2", "T3")
    assert D.can_complete(real, wildcards=2, pair_tiles=D.PAIR_258)


def test_ordered_wind_chows_are_east_south_west_and_south_west_north_only():
    rest = ("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "B5", "B5")
    for winds, ok in ((("F1", "F2", "F3"), True), (("F2", "F3", "F4"), True),
                      (("F1", "F2", "F4"), False), (("F1", "F3", "F4"), False)):
        hand = counts(*rest, *winds)
        assert D.can_complete(hand, honor_chows=True)
        assert D.can_complete(hand, honor_chows=D.ORDERED_HONOR_CHOWS) is ok, winds
        assert D.is_complete(hand, honor_chows=D.ORDERED_HONOR_CHOWS) is ok, winds
        assert bool(D.decompose(hand, honor_chows=D.ORDERED_HONOR_CHOWS)) is ok, winds
    # dragons are unaffected
    assert D.can_complete(counts(*rest, "J1", "J2", "J3"), honor_chows=D.ORDERED_HONOR_CHOWS)


def test_a_wild_completes_an_ordered_wind_chow_only_in_order():
    rest = ("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "B5", "B5")
    assert D.can_complete(counts(*rest, "F1", "F2"), wildcards=1, honor_chows=D.ORDERED_HONOR_CHOWS)
    assert not D.can_complete(counts(*rest, "F1", "F4"), wildcards=1, honor_chows=D.ORDERED_HONOR_CHOWS)
    assert D.can_complete(counts(*rest, "F1", "F4"), wildcards=1, honor_chows=True)
