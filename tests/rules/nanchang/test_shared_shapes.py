"""The shared decomposition with wildcards and honor chows (replayer/rules/shared), as Nanchang
uses it (shared/rules/nanchang.md §5.2, §6.1–6.5): feasibility agrees with the full
enumeration, one division is found without enumerating, and the special shapes take wilds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from eventlog import tiles as T
from replayer.rules.shared import decompose as D
from replayer.rules.shared import shapes as S


def c(text: str) -> tuple[int, ...]:
    return tuple(T.to_counts(T.parse(text))[:34])


def test_honor_chows_with_a_wild():
    # 东西 + a wild is a wind chow (wild as 南 or 北); 中发 + wild is 中发白
    assert D.can_complete(c("F1 F3 J1 J2 W5 W5"), wildcards=2, honor_chows=True)
    assert not D.can_complete(c("F1 F3 J1 J2 W5 W5"), wildcards=2, honor_chows=False)


def test_sets_only_for_jing_fishing():
    # 精钓 rest: 678s 东南西 234m 555m = four sets, no pair (§6.8, seed 004)
    assert D.can_complete(c("T6 T7 T8 F1 F2 F3 W2 W3 W4 W5 W5 W5"), pair=False, honor_chows=True)
    assert not D.can_complete(c("T6 T7 T8 F1 F2 F3 W2 W3 W4 W5 W5 W5"), honor_chows=True)


def test_pungs_only():
    assert D.can_complete(c("W1 W1 W1 F2 F2 B5 B5"), wildcards=1, chows=False)
    assert not D.can_complete(c("W1 W2 W3 F2 F2 B5 B5"), wildcards=1, chows=False)


def test_first_division_fills_wild_positions():
    d = D.first_division(c("W1 W2 T5 T5 T5 F1 F2 F3 J1 J2 J3 B9"), wildcards=2, honor_chows=True)
    wild = sorted(t for g in d.sets + (d.pair,) for t in g.wild)
    assert wild == [T.index("W3"), T.index("B9")]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 33), min_size=5, max_size=11), st.integers(0, 3), st.booleans())
def test_feasibility_agrees_with_enumeration(tiles, wild, honor):
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    counts_t = tuple(counts)
    assert D.can_complete(counts_t, wildcards=wild, honor_chows=honor) == bool(
        D.decompose(counts_t, wildcards=wild, honor_chows=honor))
    assert (D.first_division(counts_t, wildcards=wild, honor_chows=honor) is not None) == D.can_complete(
        counts_t, wildcards=wild, honor_chows=honor)


def test_seven_pairs_with_wilds_and_four_of_a_kind():
    assert S.seven_pairs_fill(c("W1 W1 W1 W1 T2 T2 B3 B3 F1 F1 J1 J1 B9"), 1) == (T.index("B9"),)
    assert S.seven_pairs_fill(c("W1 W1 W1 W1 T2 T2 B3 B3 F1 F1 J1 J1"), 2) == (1, 1)  # a wild pair of W2, the lowest absent kind
    assert S.seven_pairs_fill(c("W1 W2 T2 T2 B3 B3 F1 F1 J1 J1 J2 J2"), 1) is None


def test_thirteen_rotten_rank_sets_and_wilds():
    # the seed's list: 147 148 149 158 159 169 258 259 269 369 (three-tile rank sets)
    triples = sorted(tuple(r + 1 for r in s) for s in S.ROTTEN_RANK_SETS if len(s) == 3)
    assert triples == [(1, 4, 7), (1, 4, 8), (1, 4, 9), (1, 5, 8), (1, 5, 9), (1, 6, 9), (2, 5, 8), (2, 5, 9),
                       (2, 6, 9), (3, 6, 9)]
    assert S.rotten_fill(c("W1 W4 W7 T2 T5 T8 B3 B6 F1 F2 F3 F4 J1 J2")) == ()
    assert S.rotten_fill(c("W1 W4 T2 T5 T8 B3 B6 F1 F2 F3 F4 J1 J2"), 1) is not None
    assert S.rotten_fill(c("W1 W3 W7 T2 T5 T8 B3 B6 F1 F2 F3 F4 J1 J2")) is None  # gap 2
    # 七星: the seven honors must be real unless wild honors are allowed
    six = c("W1 W4 W7 T2 T5 T8 B3 F1 F2 F3 F4 J1 J2")
    assert S.rotten_fill(six, 1, min_honors=7, wild_honors=False) is None
    assert S.rotten_fill(six, 1, min_honors=7, wild_honors=True) == (T.index("J3"),)
