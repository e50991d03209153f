"""Patterns (§A6.2) and bonuses (§A6.3) of the chip format, from hands whose T is counted by
hand from the tables of docs/reference/rules/competition.md (provisional values)."""

from __future__ import annotations

from replayer.rules.cjm_chips.options import CjmOptions
from replayer.rules.cjm_chips.patterns import WinFlags, score
from replayer.rules.mcr.situation import Meld, WinSituation

O = CjmOptions()
H = lambda s: tuple(s.split())


def items(res):
    return {f.name_zh: f.total for f in res.fans}


def test_example_1_hand():
    """混一色 6 + 门清 8 + 1 flower 2 + single wait (W9 alone) 4 = 20, self-drawn."""
    s = WinSituation(hand=H("W2 W3 W4 W5 W6 W7 F1 F1 F1 F2 F2 F2 W9"), win_tile="W9", self_drawn=True, flowers=1)
    res = score(s, O)
    assert items(res) == {"混一色": 6, "门清": 8, "花牌": 2, "单张和牌": 4}
    assert res.total == 20 and res.is_win and res.provisional_values


def test_example_3_hand_robbing():
    """清龙 16 + single wait 4 with a claimed set (no 门清): T = 20."""
    s = WinSituation(hand=H("B1 B2 B3 B4 B5 B6 B7 B8 B9 T5"), win_tile="T5", kong_related=True,
                     melds=(Meld("pung", ("J2",) * 3, claimed_from=2, claimed_tile="J2"),))
    assert items(score(s, O)) == {"清龙": 16, "单张和牌": 4}


def test_multi_wait_gets_no_single_wait_bonus():
    """W1 W2 W3 W4 W5 W6 W7 W9 + W9 also waits on W8: scored as a multi-wait (§A6.2)."""
    s = WinSituation(hand=H("W1 W1 W1 W2 W3 W4 W5 W6 W7 W9 F1 F1 F1"), win_tile="W9", self_drawn=True)
    assert "单张和牌" not in items(score(s, O))


def test_no_pattern_no_win():
    """无番禁和牌: a concealed hand of sequences and a pung with no pattern is no win."""
    s = WinSituation(hand=H("W1 W2 W3 T4 T5 T6 B1 B2 B3 J1 J1 J1 F2"), win_tile="F2", self_drawn=True)
    res = score(s, O)
    assert not res.is_win and res.patterns == 0


def test_melded_single_wait_and_all_pungs():
    """全求独钓 6 + 对对和 6 (all sets are pons, §A6.2 #7) + single wait 4."""
    p = lambda t, f=1: Meld("pung", (t,) * 3, claimed_from=f, claimed_tile=t)
    s = WinSituation(hand=H("J3"), win_tile="J3", melds=(p("W2"), p("T5", 2), p("B8", 3), p("F1")))
    assert items(score(s, O)) == {"对对和": 6, "全求独钓": 6, "单张和牌": 4}


def test_closed_last_tile():
    """夹绝张 4: closed wait on T5 with the other three T5 face up; + single wait 4 + 门清 8."""
    s = WinSituation(hand=H("T4 T6 W1 W2 W3 B1 B2 B3 J1 J1 J1 F3 F3"), win_tile="T5", last_tile=True)
    assert items(score(s, O)) == {"夹绝张": 4, "单张和牌": 4, "门清": 8}


def test_three_chows_of_a_range_seven_pairs_and_dragons():
    s = WinSituation(hand=H("W7 W8 W9 T7 T8 T9 B7 B8 B9 F1 F1 F1 J2"), win_tile="J2", self_drawn=True)
    assert items(score(s, O))["全大/全中/全小"] == 24
    s = WinSituation(hand=H("W1 W1 T2 T2 B3 B3 F1 F1 J1 J1 W5 W5 T7"), win_tile="T7", self_drawn=True)
    assert items(score(s, O)) == {"七对": 24, "门清": 8}  # no single-wait bonus on 七对 (§A6.3)
    s = WinSituation(hand=H("J1 J1 J1 J2 J2 J2 J3 J3 J3 W1 W2 W3 F4"), win_tile="F4", self_drawn=True)
    assert items(score(s, O))["三箭刻"] == 88


def test_honors_and_knitted():
    """大乱 (十四不靠) 12 + 门清 8."""
    s = WinSituation(hand=H("W1 W4 W7 T2 T5 T8 B3 B6 F1 F2 F3 J1 J2"), win_tile="J3", self_drawn=True)
    assert items(score(s, O)) == {"大乱": 12, "门清": 8}


def test_replacement_and_last_tile_bonuses():
    s = WinSituation(hand=H("W2 W3 W4 W5 W6 W7 F1 F1 F1 F2 F2 F2 W9"), win_tile="W9", self_drawn=True,
                     kong_related=True)
    assert items(score(s, O, WinFlags(kong_replacement=True)))["杠上开花"] == 8
    s2 = WinSituation(hand=s.hand, win_tile="W9", self_drawn=True)
    assert items(score(s2, O, WinFlags(flower_replacement=True)))["补花和牌"] == 6
    assert items(score(s2, O, WinFlags(last_go_around=True)))["妙手回春"] == 8
    s3 = WinSituation(hand=s.hand, win_tile="W9")
    assert items(score(s3, O, WinFlags(last_go_around=True)))["海底捞月"] == 8


def test_confirmed_values_are_not_provisional():
    conf = CjmOptions(cjm_fan_values={k: 5 for k in ("half_flush", "mixed_straight", "pure_straight",
                                                     "knitted_straight", "all_pungs", "honors_and_knitted",
                                                     "melded_single_wait", "closed_last_tile",
                                                     "three_chows_of_a_range", "full_flush", "seven_pairs",
                                                     "three_dragon_pungs")})
    s = WinSituation(hand=H("W2 W3 W4 W5 W6 W7 F1 F1 F1 F2 F2 F2 W9"), win_tile="W9", self_drawn=True)
    res = score(s, conf)
    assert res.total == 5 + 8 + 4 and not res.provisional_values


def test_each_pattern_and_bonus_cites_its_row_of_the_rules():
    """Every scoring item names its own section: a pattern its row of the §A6.2 table (read
    from docs/reference/rules/competition.md itself), a bonus the §A6.3 附加分 table — never
    just "Part A"."""
    import re
    from pathlib import Path

    from replayer.rules.base import get_ruleset
    from replayer.rules.cjm_chips.patterns import NAMES_EN, PATTERNS

    text = (Path(__file__).resolve().parents[3] / "docs/reference/rules/competition.md").read_text(encoding="utf-8")
    table = text.split("### A6.2", 1)[1].split("###", 1)[0]
    # "大乱 (十四不靠)" → 大乱, "全大 / 全中 / 全小" → 全大/全中/全小
    rows = {re.sub(r"\s*\(.*\)", "", m[2]).replace(" ", ""): int(m[1])
            for m in re.finditer(r"^\| (\d+) \| ([^|]+?) \|", table, re.M)}
    assert len(rows) == 12
    rs = get_ruleset("cjm_chips")
    for p in PATTERNS:
        assert rs.rule_source(p.id) == f"docs/reference/rules/competition.md §A6.2 #{rows[p.name_zh]} ({p.name_zh})"
    bonuses = set(NAMES_EN) - {p.id for p in PATTERNS}
    assert len(bonuses) == 7
    for b in bonuses:
        assert rs.rule_source(b).startswith("docs/reference/rules/competition.md §A6.3 ("), b
