"""The shared decomposition (replayer/rules/shared) on hands whose readings are known."""

from __future__ import annotations

import pytest

from replayer.rules.shared import decompose as D
from replayer.rules.shared.shapes import honors_and_knitted, is_thirteen_orphans, seven_shifted_pairs_suit
from eventlog.tiles import parse, to_counts


def counts(text: str) -> tuple[int, ...]:
    return tuple(to_counts(parse(text)))


def readings(text: str, **kw) -> list[tuple[list[tuple[str, tuple[int, ...]]], int]]:
    return [([(g.kind, g.tiles) for g in d.sets], d.pair.tiles[0]) for d in D.decompose(counts(text), **kw)]


def test_nine_gates_shape_has_one_reading():
    # 111 345 678 999 + 22 (W)
    assert readings("11122345678999m") == [
        ([("pung", (0, 0, 0)), ("chow", (2, 3, 4)), ("chow", (5, 6, 7)), ("pung", (8, 8, 8))], 1)
    ]


def test_triple_chow_hand_reads_as_pungs_or_chows_pungs_first():
    # 111222333m + 123m: three pungs + a chow, or four chows (the reference's order)
    assert [sets for sets, _ in readings("111222333123m11z")] == [
        [("pung", (0, 0, 0)), ("chow", (0, 1, 2)), ("pung", (1, 1, 1)), ("pung", (2, 2, 2))],
        [("chow", (0, 1, 2))] * 4,
    ]


def test_not_a_winning_shape_has_no_reading():
    assert D.decompose(counts("1245m")) == ()
    assert D.decompose(counts("19m19p19s1234567z1z")) == ()


def test_waits_are_structural():
    assert D.waits(counts("1112345678999m")) == tuple(range(9))  # 九莲宝灯 waits on all nine
    assert D.waits(counts("1233m")) == (2,)  # only W3
    assert D.waits(counts("1122334455667p")) == (18, 21, 24)  # B1 B4 as sets, B7 also as pairs
    assert D.waits(counts("1133m557p99s1122z")) == (24,)  # seven pairs only: B7


def test_honor_chows_for_rulesets_that_allow_them():
    assert readings("123567z11z") == []
    assert readings("123567z11z", honor_chows=True) == [
        ([("chow", (27, 28, 29)), ("chow", (31, 32, 33))], 27)
    ]


def test_a_wildcard_stands_for_the_missing_tile():
    # 13m + 精 reads as W1 W2 W3 with the wildcard as W2 (Nanchang 精, shared/rules/nanchang.md)
    [d] = D.decompose(counts("13m456p789s11z"), wildcards=1)
    assert d.sets[0] == D.Group("chow", (0, 1, 2), (1,))
    [d] = D.decompose(counts("123m456p789s1z"), wildcards=1)
    assert d.pair == D.Group("pair", (27, 27), (27,))


def test_three_wildcards_can_be_a_set_of_their_own():
    ds = D.decompose(counts("123m456p11z"), wildcards=3)
    assert any(D.Group("wild_set", ()) in d.sets for d in ds)
    assert D.decompose(counts("19m"), wildcards=1) == ()  # 3 tiles: not 3n + 2
    with pytest.raises(ValueError):
        D.decompose(counts("11z"), wildcards=-1)


def test_count_vector_length_is_checked():
    with pytest.raises(ValueError, match="34"):
        D.decompose((0,) * 33)


def test_decompositions_are_memoised_on_the_count_tuple():
    c = counts("234m345m456p678s55z")
    first = D.decompose(c)
    assert D.decompose(c) is first


def test_irregular_shapes():
    assert seven_shifted_pairs_suit(counts("22334455667788s")) == 1
    assert seven_shifted_pairs_suit(counts("22334455667799s")) is None
    assert is_thirteen_orphans(counts("19m19p19s12345677z"))
    assert honors_and_knitted(counts("147m25p36s1234567z")) == "greater"
    assert honors_and_knitted(counts("147m258p369s12345z")) == "lesser"
    assert honors_and_knitted(counts("147m258p368s12345z")) is None
