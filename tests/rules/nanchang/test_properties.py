"""Property tests on random hands (hypothesis, derandomized):

* a hand that wins with wild jing still wins, in the same shape, when each jing is replaced
  by the tile reported for it (shared/rules/nanchang.md §4.2: a wild stands for one tile);
* a jing in place of any tile never loses a winning tile (a wild can be that tile);
* every settlement component is zero-sum (§9, §12.11)."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from eventlog import tiles as T
from replayer.rules.nanchang.evaluate import WinInput, evaluate
from replayer.rules.nanchang.jing import jing_kinds
from replayer.rules.nanchang.options import NanchangOptions
from replayer.rules.nanchang.settlement import HandSituation, PlayerTiles, settle_hand
from replayer.rules.shared import decompose as D
from replayer.rules.shared import shapes as S

OPTS = NanchangOptions()
ALL = [T.code(i) for i in range(34)]
SETTINGS = settings(max_examples=80, deadline=None, derandomize=True)


@st.composite
def winning_with_jing(draw):
    """4 sets (suited or honor chows, pungs) + a pair, then up to 3 tiles replaced by jing."""
    groups = []
    for _ in range(4):
        kind = draw(st.sampled_from(["chow", "pung", "wind", "dragon"]))
        if kind == "chow":
            s, r = draw(st.integers(0, 2)), draw(st.integers(0, 6))
            groups += [9 * s + r, 9 * s + r + 1, 9 * s + r + 2]
        elif kind == "pung":
            groups += [draw(st.integers(0, 33))] * 3
        elif kind == "wind":
            groups += draw(st.permutations([27, 28, 29, 30]))[:3]
        else:
            groups += [31, 32, 33]
    groups += [draw(st.integers(0, 33))] * 2
    tiles = [T.code(i) for i in groups]
    indicator = draw(st.sampled_from(ALL))
    kinds = jing_kinds(indicator)
    for _ in range(draw(st.integers(1, 3))):
        k = draw(st.integers(0, 13))
        tiles[k] = draw(st.sampled_from([kinds.primary, kinds.secondary]))
    assume(all(tiles.count(t) <= 4 for t in tiles))  # a real tile set
    order = draw(st.permutations(range(14)))
    tiles = [tiles[i] for i in order]
    return tiles, indicator


def _self_drawn(tiles, indicator):
    w = WinInput(tuple(tiles[:13]), (), tiles[13], "self_drawn", 1, 0)
    return evaluate(w, jing_kinds(indicator), OPTS)


def _natural_shape(counts, shape):
    if shape == "standard":
        return D.is_complete(counts, honor_chows=True)
    if shape == "big_seven_pairs":
        return D.can_complete(counts, chows=False)
    if shape == "seven_pairs":
        return S.is_seven_pairs(counts)
    if shape == "thirteen_rotten":
        return S.rotten_fill(counts) is not None
    return S.rotten_fill(counts, min_honors=7) is not None


@SETTINGS
@given(winning_with_jing())
def test_replacing_jing_by_their_stand_ins_still_wins(case):
    tiles, indicator = case
    res = _self_drawn(tiles, indicator)
    assert res.legal  # built from sets and a pair: the jing can be the replaced tiles
    rest = list(tiles)
    for jing, stands_for in res.interpretation.wild:
        rest.remove(jing)
        rest.append(stands_for)
    counts = tuple(T.to_counts(rest)[:34])
    assert _natural_shape(counts, res.shape)


def _wins(tiles12, extra, indicator):
    out = set()
    for t in ALL:
        w = WinInput(tuple(tiles12) + (extra,), (), t, "self_drawn", 1, 0)
        if evaluate(w, jing_kinds(indicator), OPTS).legal:
            out.add(t)
    return out


@settings(max_examples=40, deadline=None, derandomize=True)
@given(winning_with_jing(), st.booleans(), st.integers(0, 12))
def test_a_jing_instead_of_any_tile_never_loses_a_winning_tile(case, primary, k):
    # a ready hand (a winning hand less its last tile); tile k is swapped for a jing
    tiles, indicator = case
    kinds = jing_kinds(indicator)
    jing = kinds.primary if primary else kinds.secondary
    hand13 = tiles[:13]
    extra = hand13[k]
    tiles12 = hand13[:k] + hand13[k + 1:]
    assume((tiles12 + [jing]).count(jing) <= 4)
    before = _wins(tiles12, extra, indicator)
    assert tiles[13] in before
    assert before <= _wins(tiles12, jing, indicator)


@SETTINGS
@given(st.lists(st.lists(st.sampled_from(ALL), min_size=0, max_size=20), min_size=4, max_size=4),
       st.sampled_from(ALL), st.integers(0, 3), st.booleans(), st.sampled_from(["draw", "false_win"]))
def test_settlement_components_are_zero_sum(piles, indicator, dealer, chao, outcome):
    players = tuple(PlayerTiles(tuple(p[:13]), (), tuple(p[13:])) for p in piles)
    sit = HandSituation(indicator, dealer, players, outcome, offender=(dealer + 1) % 4, chaozhuang=chao)
    comps = settle_hand(sit, NanchangOptions(draw_dealer_pays=5))
    for _, vec in comps.parts:
        assert sum(vec) == 0
    assert sum(comps.total) == 0


@SETTINGS
@given(winning_with_jing(), st.integers(0, 3), st.integers(0, 3), st.booleans())
def test_win_components_are_zero_sum(case, winner, dealer, self_drawn):
    tiles, indicator = case
    frm = None if self_drawn else (winner + 1) % 4
    w = WinInput(tuple(tiles[:13]), (), tiles[13], "self_drawn" if self_drawn else "discard", winner, dealer, frm)
    res = evaluate(w, jing_kinds(indicator), OPTS)
    if res.legal:
        assert sum(res.win) == 0 and res.win[winner] > 0
