"""The Jiangxi table rules as data (replayer/rules/nanchang/table_rules.py, jiangxi_variants.md
§1 and the data README's "Illegal wins"): tile sets, 发 as a flower, chow rules, the six-pair
show and winners per discard; and the honor-sequence option inside a hand."""

from __future__ import annotations

from eventlog import tiles as T
from replayer.rules.nanchang.options import NanchangOptions
from replayer.rules.nanchang.settlement import MeldInfo, PlayerTiles
from replayer.rules.nanchang.table_rules import check_situation, chow_rule, tile_copies

from .hands import win


def test_tile_sets():
    assert sum(tile_copies(NanchangOptions())) == 136
    no_winds = tile_copies(NanchangOptions(tileset="120_no_winds"))
    assert sum(no_winds) == 120 and all(no_winds[T.index(w)] == 0 for w in ("F1", "F2", "F3", "F4"))
    assert no_winds[T.index("J2")] == 4  # 九江 keeps 中发白
    flowers = tile_copies(NanchangOptions(tileset="144_flowers"))
    assert sum(flowers) == 144 and flowers[T.index("H8")] == 1


def test_chow_rules():
    ordered = NanchangOptions(honor_chi="ordered")
    assert chow_rule(("F1", "F2", "F3"), ordered) is None
    assert chow_rule(("F2", "F3", "F4"), ordered) is None
    assert chow_rule(("F1", "F2", "F4"), ordered) == "honor_chi"  # 东南风只能吃西风，不能吃北风
    assert chow_rule(("J1", "J2", "J3"), ordered) is None
    assert chow_rule(("F1", "F3", "F4"), NanchangOptions()) is None
    assert chow_rule(("J1", "J2", "J3"), NanchangOptions(honor_chi="none")) == "honor_chi"
    assert chow_rule(("W1", "W2", "W3"), NanchangOptions(chi_allowed=False)) == "chi_allowed"


def _players(**seat0) -> list[PlayerTiles]:
    return [PlayerTiles(**seat0), PlayerTiles(), PlayerTiles(), PlayerTiles()]


def test_situation_rules_in_the_readme_order():
    jiujiang = NanchangOptions(tileset="120_no_winds", fa_as_flower=True)
    # a wind under 120 tiles comes before the 发 rule
    assert check_situation(_players(concealed=("F1", "J2")), (0,), None, "W1", jiujiang)[0] == "tileset"
    assert check_situation(_players(concealed=("J2",)), (0,), None, "W1", jiujiang)[0] == "fa_as_flower"
    assert check_situation(_players(flowers=("J1",)), (0,), None, "W1", jiujiang)[0] == "fa_as_flower"
    assert check_situation(_players(flowers=("J2",)), (0,), None, "W1", NanchangOptions())[0] == "fa_as_flower"
    assert check_situation(_players(flowers=("J2",)), (0,), None, "W1", jiujiang) is None
    chow = MeldInfo("chow", ("W1", "W2", "W3"), None, 3, "W1")
    assert check_situation(_players(melds=(chow,)), (0,), None, "W4", NanchangOptions(chi_allowed=False))[0] == \
        "chi_allowed"
    pairs = ("W1", "W1", "W2", "W2", "W3", "W3", "T1", "T1", "T2", "T2", "B5", "B5", "F1")
    show = NanchangOptions(qidui_early_show=True)
    assert check_situation(_players(concealed=pairs, early_show=True), (1,), 0, "W4", show) is None
    assert check_situation(_players(concealed=pairs, early_show=True), (1,), 0, "W4", NanchangOptions())[0] == \
        "qidui_early_show"
    five = ("W1", "W1", "W2", "W2", "W3", "W3", "T1", "T1", "T2", "T2", "B5", "B6", "F1")
    assert check_situation(_players(concealed=five, early_show=True), (1,), 0, "W4", show)[0] == "qidui_early_show"
    assert check_situation(_players(), (1, 2), 0, "W4", NanchangOptions())[0] == "multiple_winners"
    assert check_situation(_players(), (1, 2), 0, "W4", NanchangOptions(multiple_winners=2)) is None
    assert check_situation(_players(), (1, 2), None, "W4", NanchangOptions(multiple_winners=3))[0] == \
        "multiple_winners"


def test_honor_sequences_inside_the_hand_follow_honor_chi():
    # W123 W456 T789 + 东南北 + B55, self-drawn B5: 东南北 is a sequence only with any_distinct
    hand, tile = "W1 W2 W3 W4 W5 W6 T7 T8 T9 F1 F2 F4 B5", "B5"
    none = NanchangOptions(jing_mode="none")
    assert win(hand, tile, indicator="J3", options=none).legal
    assert not win(hand, tile, indicator="J3", options=none.model_copy(update={"honor_chi": "ordered"})).legal
    assert win("W1 W2 W3 W4 W5 W6 T7 T8 T9 F2 F3 F4 B5", tile, indicator="J3",
               options=none.model_copy(update={"honor_chi": "ordered"})).legal
    assert not win("W1 W2 W3 W4 W5 W6 T7 T8 T9 J1 J2 J3 B5", tile, indicator="J3",
                   options=none.model_copy(update={"honor_chi": "none"})).legal


def test_without_jing_there_is_no_deguo_and_no_wild():
    # the same hand: with jing (indicator B9: 正精 B9, 副精 B1) it is 德国; without jing plain
    hand, tile = "W1 W2 W3 W4 W5 W6 T7 T8 T9 F1 F2 F3 B5", "B5"
    assert "deguo" in win(hand, tile, indicator="B9").conditions
    res = win(hand, tile, indicator="B9", options=NanchangOptions(jing_mode="none"))
    assert res.legal and res.conditions == ("self_drawn",) and res.interpretation.wild == ()
