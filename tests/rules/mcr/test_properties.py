"""Properties of the MCR fan calculator on random legal winning hands (hypothesis, seeded)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replayer.rules.mcr.fans import FAN_BY_ID
from replayer.rules.mcr.fans.base import facts_of
from replayer.rules.mcr.fans.calculator import score
from replayer.rules.mcr.situation import WinSituation
from replayer.rules.mcr.vectors import oracle_args
from eventlog.tiles import index

from .hands import random_regular, random_situation

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])

situations = st.randoms(use_true_random=False).map(random_situation)


def _regular(rng: random.Random) -> WinSituation:
    while (s := random_regular(rng)) is None:
        pass
    return s


regular_situations = st.randoms(use_true_random=False).map(_regular)


@SETTINGS
@given(situations)
def test_random_wins_score_consistently(s):
    r = score(s)
    assert r.is_win, r.error
    assert r.total == sum(f.points * f.count for f in r.fans)
    assert r.total_without_flowers == r.total - s.flowers
    assert r.meets_minimum == (r.total_without_flowers >= 8)
    names = [f.name_zh for f in r.fans]
    assert len(names) == len(set(names))
    order = [next(x.number for x in FAN_BY_ID.values() if x.name_zh == n) for n in names]
    assert order == sorted(order)


_SUIT_PERMUTATIONS = ("TWB", "BTW", "WBT", "TBW", "BWT")


def _relabel(s: WinSituation, perm: str) -> WinSituation:
    mapping = dict(zip("WTB", perm))

    def t(code: str) -> str:
        return mapping.get(code[0], code[0]) + code[1:]

    melds = tuple(replace(m, tiles=tuple(t(x) for x in m.tiles),
                          claimed_tile=t(m.claimed_tile) if m.claimed_tile else None) for m in s.melds)
    return replace(s, hand=tuple(t(x) for x in s.hand), win_tile=t(s.win_tile), melds=melds)


def _suit_specific(s: WinSituation) -> bool:
    """All Green (bamboo) and Reversible Tiles (dots/bamboo) depend on which suit is which."""
    tiles = [*s.hand, s.win_tile, *(x for m in s.melds for x in m.tiles)]
    f = facts_of(frozenset(index(x) for x in tiles))
    return f.all_green or f.all_reversible


@SETTINGS
@given(regular_situations, st.sampled_from(_SUIT_PERMUTATIONS))
def test_totals_do_not_depend_on_suit_names(s, perm):
    other = _relabel(s, perm)
    if _suit_specific(s) or _suit_specific(other):
        return
    assert score(s).total == score(other).total


@SETTINGS
@given(situations)
def test_same_fans_as_the_reference_calculator(s):
    """Differential test against MahjongGB 1.4.0, the calculator that scored the vectors."""
    mahjonggb = pytest.importorskip("MahjongGB")
    ref = mahjonggb.MahjongFanCalculator(*oracle_args(s), verbose=True)
    assert [(f.name_zh, f.count) for f in score(s).fans] == [(name, cnt) for _, cnt, name, _ in ref]
