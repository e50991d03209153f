"""Hand evaluation: shapes, jing as wild or face value, 精钓, 德国 — cases from seed 004 and
shared/rules/nanchang.md §5.2, §6, §12.4–12.6 (expected values derived from the text)."""

from __future__ import annotations

from replayer.rules.nanchang.options import NanchangOptions
from replayer.rules.nanchang.settlement import MeldInfo

from .hands import win

# 004 精的使用: 白板 = 正精 (indicator J3), 紅中 = 副精
HAND_A = "T2 T2 T2 T5 T6 T7 F2 F3 F4 B1 W3 W5 J1"  # 222條 567條 南西北 1筒 35萬 紅中


def test_jing_stands_for_any_tile_seed_004_a():
    four_wan = win(HAND_A, "W4", indicator="J3", source="discard")
    assert four_wan.legal and four_wan.shape == "standard"
    assert four_wan.interpretation.wild == (("J1", "B1"),)  # 紅中 as 1筒 (pair)
    one_tong = win(HAND_A, "B1", indicator="J3", source="discard")
    assert one_tong.legal and one_tong.interpretation.wild == (("J1", "W4"),)  # 紅中 as 4萬
    assert "deguo" not in four_wan.conditions


JINGDIAO_A = "W3 W3 W3 B5 B5 B5 B5 B6 B7 F2 F2 J3 J1"  # 333萬 555筒567筒 南南 白 中


def test_jingdiao_discard_win_only_as_deguo_seed_004_a():
    fa = win(JINGDIAO_A, "J2", indicator="J3", source="discard")
    assert fa.legal and fa.jingdiao_state
    assert "deguo" in fa.conditions and "jing_fishing" not in fa.conditions  # 中发白 natural
    nan = win(JINGDIAO_A, "F2", indicator="J3", source="discard")
    assert not nan.legal and nan.rule_id == "jingdiao_discard_win"  # §12.6


def test_jingdiao_discard_options():
    allowed = win(JINGDIAO_A, "F2", indicator="J3", source="discard",
                  options=NanchangOptions(jingdiao_discard_win="allowed_no_bonus"))
    assert allowed.legal and "jing_fishing" not in allowed.conditions
    never = win(JINGDIAO_A, "J2", indicator="J3", source="discard",
                options=NanchangOptions(jingdiao_discard_win="never"))
    assert not never.legal


JINGDIAO_B = "W3 W3 W3 B5 B5 B5 B5 B6 B7 F3 F4 F1 J3"  # 333萬 555筒 567筒 西北東 白


def test_jingdiao_with_deguo_seed_004_b():
    r = win(JINGDIAO_B, "J3", indicator="J3")
    assert r.legal and r.conditions == ("self_drawn", "jing_fishing", "deguo")


def test_jingdiao_with_kong_replacement_seed_004_c():
    kong = MeldInfo("kong", ("W3",) * 4, "melded", 2)
    r = win("B5 B5 B5 B5 B6 B7 F3 F4 F1 J3", "T9", indicator="J3", melds=(kong,), kong_replacement=True)
    assert r.legal and r.conditions == ("self_drawn", "kong_replacement", "jing_fishing")
    assert r.multiplier == 8  # ×2 self-draw ×2 杠开 ×2 精钓 (§6.9)


def test_seven_pairs_with_four_identical_tiles():
    r = win("W1 W1 W1 W1 W5 W5 T3 T3 T7 T7 B9 B9 F1", "F1", indicator="J1", source="discard")
    assert r.legal and r.shape == "seven_pairs" and "deguo" in r.conditions  # §6.3, §12.4


def test_no_seven_pairs_after_a_kong():
    kong = MeldInfo("kong", ("W1",) * 4, "concealed", None)
    r = win("W5 W5 T3 T3 T7 T7 B9 B9 F1", "F1", indicator="J1", melds=(kong,))
    assert not r.legal  # five pairs beside a kong: no 小七对 (§6.3, §12.4)


def test_thirteen_rotten_checks():
    ok = win("W1 W4 W7 T2 T5 T8 B3 B6 F1 F2 F3 F4 J1", "J2", indicator="B1", source="discard")
    assert ok.legal and ok.shape == "thirteen_rotten"
    for bad in ("W1 W4 W6 T2 T5 T8 B3 B6 F1 F2 F3 F4 J1",   # gap 2 (4–6)
                "W1 W4 W7 T2 T5 T8 B3 B3 F1 F2 F3 F4 J1",   # duplicate
                "W1 W4 W7 T2 T5 T8 B3 B6 F1 F1 F3 F4 J1"):  # repeated honor
        assert not win(bad, "J2", indicator="B1", source="discard").legal  # §12.5


def test_seven_star_needs_real_honors_by_default():
    # six honors + a 副精 (W2, indicator W1) that could be wild for the seventh honor
    hand = "W1 W5 W9 T2 T5 T8 B3 F1 F2 F3 F4 J1 W2"
    r = win(hand, "J2", indicator="W1", source="discard")
    assert r.legal and r.shape == "thirteen_rotten"  # W2 wild in a suited place, not as 白
    any_wild = win(hand, "J2", indicator="W1", source="discard", options=NanchangOptions(qixing_wild="any"))
    assert any_wild.shape == "seven_star_rotten"


def test_honor_chows_winds_and_dragons_never_mixed():
    assert win("F1 F2 F3 F2 F3 F4 J1 J2 J3 W1 W2 W3 B5", "B5", indicator="T1", source="discard").legal
    assert not win("F1 F2 J1 F2 F3 F4 J1 J2 J3 W1 W2 W3 B5", "B5", indicator="T1", source="discard").legal


def test_big_seven_pairs_with_wild_pung():
    r = win("W1 W1 W1 T4 T4 B8 B8 F2 F2 F2 J3 J3 T7", "J3", indicator="T7", source="discard")
    # T7 (正精) wild completes T4T4 or B8B8 into a pung: 大七对, not 德国
    assert r.legal and r.shape == "big_seven_pairs" and "deguo" not in r.conditions


def test_discarded_jing_is_face_value_for_the_winner():
    # indicator W1: W1/W2 are jing. A discarded W2 cannot be wild: 1-9 would need it.
    hand = "T1 T2 T3 T4 T5 T6 B7 B8 B9 F1 F2 F3 J1"
    assert not win(hand, "W2", indicator="W1", source="discard").legal
    selfdrawn = win(hand, "W2", indicator="W1")
    assert selfdrawn.legal and selfdrawn.interpretation.wild == (("W2", "J1"),)
