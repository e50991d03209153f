"""The cheap win filter (replayer/rules/nanchang/shape_filter.py) against the full evaluator.

* ``standard_ok`` (block by block) answers exactly what the shared decomposition answers
  for four sets and a pair with wildcards (``decompose.can_complete``, honor chows on);
* ``could_win_shape`` (known jing) and the ruleset's ``could_win`` (unknown indicator) are
  never False for a hand that :func:`evaluate` finds legal — random hands built as
  standard hands (with declared sets), 小七对 and 十三烂 shapes, then 0..4 tiles turned into
  jing, judged as a self-draw and as a discard win (shared/rules/nanchang.md §4.2, §6.1–6.5);
* and the filter does reject hands: a hand of 14 tiles in adjacent pairs of ranks cannot win
  whatever the indicator (worked out by hand below)."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from eventlog import tiles as T
from replayer.rules.nanchang.evaluate import WinInput, evaluate
from replayer.rules.nanchang.jing import jing_kinds
from replayer.rules.nanchang.options import NanchangOptions
from replayer.rules.nanchang.play import build
from replayer.rules.nanchang.settlement import MeldInfo
from replayer.rules.nanchang.shape_filter import could_win_shape, standard_ok
from replayer.rules.shared import decompose as D

OPTS = NanchangOptions()
SETTINGS = settings(max_examples=300, deadline=None, derandomize=True)


@st.composite
def real_and_wild(draw):
    """A 34-count vector of 3n + 2 − w real tiles (≤ 4 of a kind) and w ≤ 8 wildcards."""
    total = draw(st.sampled_from([2, 5, 8, 11, 14]))
    wild = draw(st.integers(0, min(8, total)))
    kinds = draw(st.lists(st.integers(0, 33), min_size=total - wild, max_size=total - wild))
    c = [0] * 34
    for k in kinds:
        c[k] += 1
    assume(max(c) <= 4)
    return tuple(c), wild


@given(real_and_wild())
@SETTINGS
def test_standard_ok_equals_the_shared_decomposition(case):
    real, wild = case
    assert standard_ok(real, wild) == D.can_complete(real, wildcards=wild, honor_chows=True)


@st.composite
def near_winning(draw):
    """(14 tile indices, declared sets, indicator): a standard hand of 4 sets (suited or
    honor chows, pungs; some declared) + a pair, or 7 pairs, or a 十三烂 — then 0..4 tiles
    replaced by jing of the indicator, and sometimes one tile by a random one."""
    shape = draw(st.sampled_from(["standard", "standard", "seven_pairs", "rotten"]))
    sets: list[list[int]] = []
    tiles: list[int] = []
    if shape == "standard":
        for _ in range(4):
            kind = draw(st.sampled_from(["chow", "pung", "wind", "dragon"]))
            if kind == "chow":
                s, r = draw(st.integers(0, 2)), draw(st.integers(0, 6))
                sets.append([9 * s + r, 9 * s + r + 1, 9 * s + r + 2])
            elif kind == "pung":
                sets.append([draw(st.integers(0, 33))] * 3)
            elif kind == "wind":
                sets.append(sorted(draw(st.permutations([27, 28, 29, 30]))[:3]))
            else:
                sets.append([31, 32, 33])
        tiles = [draw(st.integers(0, 33))] * 2
    elif shape == "seven_pairs":
        for k in draw(st.lists(st.integers(0, 33), min_size=7, max_size=7)):
            tiles += [k, k]
    else:
        ranks = [draw(st.sampled_from([(0, 3, 6), (0, 3, 7), (0, 3, 8), (0, 4, 7), (0, 4, 8), (0, 5, 8),
                                       (1, 4, 7), (1, 4, 8), (1, 5, 8), (2, 5, 8)])) for _ in range(3)]
        suited = [9 * s + r for s in range(3) for r in ranks[s]]
        honors = list(range(27, 34))
        n_honors = draw(st.integers(5, 7))
        tiles = draw(st.permutations(suited))[: 14 - n_honors] + draw(st.permutations(honors))[:n_honors]
    declared = draw(st.integers(0, len(sets))) if sets else 0
    for g in sets[declared:]:
        tiles += g
    melds = sets[:declared]
    indicator = draw(st.integers(0, 33))
    j1, j2 = jing_kinds(T.code(indicator)).indices
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(tiles) - 1))
        tiles[at] = draw(st.sampled_from([j1, j2]))
    if draw(st.booleans()):
        tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.integers(0, 33))
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    for g in melds:
        for t in g:
            c[t] += 1
    assume(max(c) <= 4)
    return tiles, melds, indicator


@given(near_winning(), st.sampled_from(["self_drawn", "discard"]), st.integers(0, 13))
@settings(max_examples=600, deadline=None, derandomize=True)
def test_the_filters_never_reject_a_legal_win(case, source, at):
    tiles, melds, indicator = case
    kinds = jing_kinds(T.code(indicator))
    j1, j2 = kinds.indices
    codes = [T.code(t) for t in tiles]
    at %= len(codes)
    win_tile = codes[at]
    concealed = tuple(codes[:at] + codes[at + 1:])
    meld_infos = tuple(
        MeldInfo("pung" if g[0] == g[1] else "chow", tuple(T.code(t) for t in g), None, 0) for g in melds)
    res = evaluate(WinInput(concealed, meld_infos, win_tile, source, 1, 0, from_seat=0 if source == "discard" else None),
                   kinds, OPTS)
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    conc = [0] * 34
    for t in concealed:
        conc[T.index(t)] += 1
    wild = [conc[j1], conc[j2]]
    if source == "self_drawn" and T.index(win_tile) in (j1, j2):
        wild[0 if T.index(win_tile) == j1 else 1] += 1
    if res.legal:
        assert could_win_shape(tuple(counts), (wild[0], wild[1]), (j1, j2), len(melds), OPTS)
        assert build({}).could_win(tuple(counts), len(melds))
        assert build({"shisanlan": False}).could_win(tuple(counts), len(melds)) or res.shape in (
            "thirteen_rotten", "seven_star_rotten")


def test_could_win_rejects_a_hand_no_indicator_completes():
    # 5m6m 1s2s 5s6s 1p2p 5p6p 东东 + 1m2m (14 tiles, no declared set). Whatever the
    # indicator, its 正精/副精 are two adjacent kinds (§4.1), so at most one of the adjacent
    # pairs (e.g. 1m2m) becomes two wilds; then four of the five other two-tile runs need a
    # third tile each: ≥ 4 wilds needed, 2 held. 小七对: ≥ 8 single tiles, 2 wilds. 十三烂:
    # 1m and 2m are one rank apart. No shape (§6.1–6.5).
    hand = [T.index(t) for t in "W1 W2 W5 W6 T1 T2 T5 T6 B1 B2 B5 B6 F1 F1".split()]
    c = [0] * 34
    for t in hand:
        c[t] += 1
    assert not build({}).could_win(tuple(c), 0)
    # and the full evaluator agrees for every indicator, as a self-draw of the last tile
    for ind in range(34):
        codes = [T.code(t) for t in hand]
        res = evaluate(WinInput(tuple(codes[:-1]), (), codes[-1], "self_drawn", 1, 0), jing_kinds(T.code(ind)), OPTS)
        assert not res.legal and res.rule_id == "false_win"


def test_could_win_accepts_a_hand_winning_only_with_wild_jing():
    # 1m2m3m 4s5s6s 7p8p9p 东南西 + 3p 5p: with indicator 3p (正精 3p, 副精 4p) the 3p is wild
    # and stands for 5p: the pair (§4.2, §6.1). With no jing it is no shape.
    hand = [T.index(t) for t in "W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F2 F3 B3 B5".split()]
    c = [0] * 34
    for t in hand:
        c[t] += 1
    assert not D.can_complete(tuple(c), honor_chows=True)
    assert build({}).could_win(tuple(c), 0)
    j1, j2 = jing_kinds("B3").indices
    assert could_win_shape(tuple(c), (1, 0), (j1, j2), 0, OPTS)
    assert not could_win_shape(tuple(c), (0, 0), (j1, j2), 0, OPTS)
