"""The worked examples of seed 001 under the ``mcr1998`` ruleset (docs/reference/rules/
competition.md §B2–B4).

Seats: East 0, South 1, West 2, North 3. Every expectation is computed by hand from the
text: the 1998 fan table (§B3), the formula of §B2 (self-drawn: each of three pays 8 + P; on
a discard: each pays 8, the discarder also P) and the corrections of §B4. The seed's
figures are kept as named ``AS_PRINTED`` fixtures and shown to differ where §B4 corrects
them.

The seed's hand pictures are lost (OCR), so each example is (a) its fan list as printed,
valued with the 1998 table, and (b) where one exists, a concrete hand with exactly the
corrected fans, scored by the calculator from its tiles.
"""

from __future__ import annotations

import pytest

from replayer.rules.base import WinContext, WinScore, get_ruleset
from replayer.rules.mcr.fans.names import fan_id
from replayer.rules.mcr.fans.tables import table
from replayer.rules.mcr.situation import Meld, WinSituation
from replayer.state import TableState

T1998 = table("mcr1998")
RULESET = get_ruleset("mcr1998")

#: The seed's own numbers (seed 001, as printed): P and the payments it states.
AS_PRINTED = {
    "Z1": {"P": 28, "total": 108},
    "Z2": {"P": 68, "total": 228},
    "Z3": {"P": 34, "total": 126},
    "Z4": {"P": 20, "total": None},  # total not printed; (8 + 20) × 3 = 84
    "D1": {"P": 33, "discarder_pays": 41, "winner": 57},
    "D2": {"P": 34, "discarder_pays": None},  # 42 by the formula, not printed
    "D3": {"P": 13, "discarder_pays": None},  # 21 by the formula, not printed
    "D4": {"P": 37, "discarder_pays": 45},
}

#: The fan lists as the seed prints them, with the points it gives each.
SEED_FANS = {
    "Z1": [("清龙", 16), ("混一色", 6), ("箭刻", 2), ("不求人", 4)],
    "Z2": [("一色双龙会", 64), ("不求人", 4)],
    "Z3": [("七对", 24), ("五门齐", 6), ("不求人", 4)],
    "Z4": [("三色三同顺", 8), ("一般高", 2), ("四归一", 2), ("平和", 4), ("不求人", 4)],
    "D1": [("一色三节高", 24), ("坎张", 1), ("平和", 2), ("四归一", 2), ("无字", 1), ("缺一门", 1), ("门前清", 2)],
    "D2": [("全双刻", 24), ("单钓将", 1), ("无字", 1), ("双同刻", 2), ("全求人", 6)],
    "D3": [("花龙", 8), ("边张", 1), ("无字", 1), ("门前清", 2), ("喜相逢", 1)],
    "D4": [("明杠", 1), ("单钓将", 1), ("无字", 1), ("断幺", 2), ("一色三节高", 24), ("双同刻", 2), ("碰碰和", 6)],
}

#: §B4's corrections: the fans dropped from the seed's list, and the corrected P.
#: Z3: 七对 不计不求人 → 30. Z4: 一般高 is 1 and 平和 2 in the table → 17. D1: 平和 cannot
#: stand with 一色三节高 (three pungs) → 31. D2: 全求人 不计单钓 → 33.
CORRECTED = {
    "Z1": ([], 28), "Z2": ([], 68), "Z3": (["不求人"], 30), "Z4": ([], 17),
    "D1": (["平和"], 31), "D2": (["单钓将"], 33), "D3": ([], 13), "D4": ([], 37),
}
WINNER = {"Z1": 0, "Z2": 1, "Z3": 2, "Z4": 3, "D1": 1, "D2": 2, "D3": 3, "D4": 0}
DISCARDER = {"D1": 0, "D2": 1, "D3": 2, "D4": 3}

#: Expected score changes (E, S, W, N) with the corrected P, by hand from §B2.
EXPECTED = {
    "Z1": (108, -36, -36, -36),            # (8+28)×3
    "Z2": (-76, 228, -76, -76),            # (8+68)×3
    "Z3": (-38, -38, 114, -38),            # (8+30)×3 = 114, not the printed 126
    "Z4": (-25, -25, -25, 75),             # (8+17)×3 = 75
    "D1": (-39, 55, -8, -8),               # E pays 8+31; the printed 41 / +57 assume 平和
    "D2": (-8, -41, 57, -8),               # S pays 8+33 = 41
    "D3": (-8, -8, -21, 37),               # W pays 8+13
    "D4": (61, -8, -8, -45),               # N pays 8+37 = 45
}


def _table_points(case: str) -> int:
    """P of the seed's fan list with the corrections applied, each fan at its 1998 value."""
    dropped, _ = CORRECTED[case]
    total = 0
    for name, _printed in SEED_FANS[case]:
        if name in dropped:
            continue
        fid = fan_id(name)
        assert fid is not None, name
        points = T1998.points(fid)
        assert points is not None, f"{name} is not in the 1998 table"
        total += points
    return total


def _settle(case: str, points: int):
    seat, frm = WINNER[case], DISCARDER.get(case)
    ctx = WinContext(seat=seat, tile="W1", self_drawn=frm is None, from_seat=frm, robbing_kong=False,
                     kong_related=False, last_of_wall=False, visible_copies=0, concealed=(), melds=(),
                     seat_wind="F1", prevalent_wind="F1", flowers=())
    return RULESET.settle_win(TableState(), ctx, WinScore(True, points)).changes


@pytest.mark.parametrize("case", sorted(SEED_FANS))
def test_fan_list_valued_with_the_1998_table(case):
    assert _table_points(case) == CORRECTED[case][1]
    assert _settle(case, CORRECTED[case][1]) == EXPECTED[case]


@pytest.mark.parametrize("case", ["Z3", "Z4", "D1", "D2"])
def test_as_printed_figures_differ_from_the_rules(case):
    """§B4: these four examples break the seed's own table or exclusions."""
    printed = AS_PRINTED[case]["P"]
    assert printed != CORRECTED[case][1]
    assert sum(p for _, p in SEED_FANS[case]) == printed  # the seed's additions are right
    changes = _settle(case, printed)
    assert changes != EXPECTED[case]
    if case == "Z3":
        assert changes[2] == AS_PRINTED["Z3"]["total"] == 126
    if case == "D1":
        assert (-changes[0], changes[1]) == (AS_PRINTED["D1"]["discarder_pays"], AS_PRINTED["D1"]["winner"])


@pytest.mark.parametrize("case", ["Z1", "Z2", "D4"])
def test_as_printed_figures_that_stand(case):
    printed = AS_PRINTED[case]
    assert printed["P"] == CORRECTED[case][1]
    changes = _settle(case, printed["P"])
    if printed.get("total") is not None:
        assert changes[WINNER[case]] == printed["total"]
    if printed.get("discarder_pays") is not None:
        assert -changes[DISCARDER[case]] == printed["discarder_pays"]


H = lambda s: tuple(s.split())


def _pung(t: str, frm: int = 1) -> Meld:
    return Meld("pung", (t,) * 3, claimed_from=frm, claimed_tile=t)


#: Concrete hands with the corrected fans (names as the calculator spells them).
HANDS = {
    # Z1 East self-draws: W123 W456 W789 J1J1J1 F3F3, W9 completes W789 two-sided (W6/W9).
    "Z1": (WinSituation(hand=H("W1 W2 W3 W4 W5 W6 W7 W8 J1 J1 J1 F3 F3"), win_tile="W9", self_drawn=True),
           {"清龙": 16, "混一色": 6, "不求人": 4, "箭刻": 2}),
    # Z2 South self-draws T123 T123 T789 T789 T55 on T1 (T1/T4 wait: no wait fan).
    "Z2": (WinSituation(hand=H("T1 T2 T2 T3 T3 T7 T7 T8 T8 T9 T9 T5 T5"), win_tile="T1", self_drawn=True,
                        seat_wind="S"),
           {"一色双龙会": 64, "不求人": 4}),
    # Z3 West self-draws seven pairs of all five kinds: 七对 24 + 五门齐 6 (no 不求人, no 单钓).
    "Z3": (WinSituation(hand=H("W1 W1 T2 T2 B3 B3 F1 F1 J1 J1 W5 W5 T7"), win_tile="T7", self_drawn=True,
                        seat_wind="W"),
           {"七对": 24, "五门齐": 6}),
    # D2 West on South's T8: four claimed even pungs, single wait T8: 全双刻 24 + 全求人 6 +
    # 双同刻 2 (W4 T4) + 无字 1 (the 1998 table counts it beside 全双刻: D2, §B3).
    "D2": (WinSituation(hand=H("T8"), win_tile="T8", seat_wind="W",
                        melds=(_pung("W4"), _pung("T4", 2), _pung("B6", 3), _pung("W2"))),
           {"全双刻": 24, "全求人": 6, "双同刻": 2, "无字": 1}),
    # D4 East on North's B2: added kong T3, pungs T4 T5 W4, single wait on B2: 一色三节高 24 +
    # 碰碰和 6 + 双同刻 2 (T4 W4) + 断幺 2 + 明杠 1 + 单钓将 1 + 无字 1 = 37.
    "D4": (WinSituation(hand=H("W4 W4 W4 B2"), win_tile="B2",
                        melds=(Meld("kong", ("T3",) * 4, claimed_from=2, claimed_tile="T3"), _pung("T4"),
                               _pung("T5", 2))),
           {"一色三节高": 24, "碰碰和": 6, "双同刻": 2, "断幺": 2, "明杠": 1, "独听・单钓": 1, "无字": 1}),
}


@pytest.mark.parametrize("case", sorted(HANDS))
def test_concrete_hands_score_the_corrected_fans(case):
    situation, fans = HANDS[case]
    result = RULESET.scorer(situation, RULESET.fan_options)
    assert {f.name_zh: f.points * f.count for f in result.fans} == fans
    assert result.total == CORRECTED[case][1] == sum(fans.values())


def test_every_hand_with_d3s_fans_also_has_all_chows():
    """D3 (花龙 + 边张 + 无字 + 门前清 + 喜相逢): 花龙 and 喜相逢 need four chows, and 无字 a
    suited pair — that is 平和, which the seed leaves out. A concrete hand therefore scores
    13 + 平和 2 + 无字 kept beside 平和 (already in the 13) = 15; §B4 calls D3 consistent."""
    s = WinSituation(hand=H("W1 W2 W3 T4 T5 T6 B8 B9 T1 T2 T3 B5 B5"), win_tile="B7", seat_wind="N")
    result = RULESET.scorer(s, RULESET.fan_options)
    assert {f.name_zh: f.points for f in result.fans} == {
        "花龙": 8, "门前清": 2, "平和": 2, "喜相逢": 1, "独听・边张": 1, "无字": 1}
    assert result.total == 15


def test_every_hand_with_z4s_fans_has_one_more():
    """Z4 (三色三同顺 + 一般高 + 四归一 + 平和): four chows of one rank pattern in three suits
    with a fourth copy of one tile need a pair from those chows, so every tile is 1–3, 4–6,
    7–9 (全小/全中/全大) or simples (断幺). With 345 chows: 8 + 1 + 2 + 2 + 断幺 2 + 无字 1 +
    不求人 4 = 20."""
    s = WinSituation(hand=H("W3 W3 W3 W3 W4 W4 W5 W5 T3 T4 T5 B3 B4"), win_tile="B5", self_drawn=True,
                     seat_wind="N")
    result = RULESET.scorer(s, RULESET.fan_options)
    assert {f.name_zh: f.points for f in result.fans} == {
        "三色三同顺": 8, "不求人": 4, "平和": 2, "四归一": 2, "断幺": 2, "一般高": 1, "无字": 1}


def test_the_1998_table_is_section_b3():
    """Spot checks of §B3 and its gaps: no 自摸 / 连六 / 三暗刻 / 三同刻 / 三风刻 / 组合龙 /
    三杠 / 四杠 / 明暗杠; 平和 and 断幺 2 (B-Amb-1)."""
    for fid in ("self_drawn", "short_straight", "three_concealed_pungs", "triple_pung", "big_three_winds",
                "knitted_straight", "three_kongs", "four_kongs", "concealed_kong_and_melded_kong"):
        assert T1998.points(fid) is None, fid
    assert T1998.points("all_chows") == T1998.points("all_simples") == 2
    assert T1998.points("pure_double_chow") == 1 and T1998.points("chicken_hand") == 8
    assert T1998.points("big_three_dragons") == 88 and T1998.points("pure_terminal_chows") == 64
    assert len(T1998.values) == 73  # 82 records − the 9 above


def test_a_self_drawn_seven_pairs_gets_no_self_drawn_fan_in_1998():
    """The current table adds 自摸 1 to Z3's hand; the 1998 table has no 自摸."""
    current = get_ruleset("mcr")
    s = HANDS["Z3"][0]
    assert current.scorer(s, current.fan_options).total == 31
    assert RULESET.scorer(s, RULESET.fan_options).total == 30


def test_a_knitted_straight_is_no_win_in_1998():
    """组合龙 + a set + a pair is not a 1998 shape (§B3 has no 组合龙)."""
    s = WinSituation(hand=H("W1 W4 W7 T2 T5 T8 B3 B6 B9 J1 J1 J1 F2"), win_tile="F2", self_drawn=True)
    current = get_ruleset("mcr")
    assert current.scorer(s, current.fan_options).is_win
    assert not RULESET.scorer(s, RULESET.fan_options).is_win
