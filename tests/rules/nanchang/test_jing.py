"""Jing identity and points: shared/rules/nanchang.md §1, §4.1, §9.1 (seed 004 精的計算)."""

from __future__ import annotations

import pytest

from replayer.rules.nanchang.jing import JingHolding, chongguan, jing_kinds, jing_points, succ


@pytest.mark.parametrize("indicator,primary,secondary", [
    ("W1", "W1", "W2"), ("W9", "W9", "W1"), ("F4", "F4", "F1"), ("J1", "J1", "J2"), ("J3", "J3", "J1"),
    ("F2", "F2", "F3"), ("B9", "B9", "B1"),
])
def test_primary_is_the_indicator_secondary_its_successor(indicator, primary, secondary):
    k = jing_kinds(indicator)
    assert (k.primary, k.secondary) == (primary, secondary)


def test_flowers_have_no_successor():
    with pytest.raises(ValueError):
        succ("H1")


def test_chongguan_table_of_the_spec():
    # §9.1: 5→10, 6→18, 7→28, 8→40, 9→54, 10→70, 11→88, 12→108; ≤4 unchanged
    assert [chongguan(n) for n in range(13)] == [0, 1, 2, 3, 4, 10, 18, 28, 40, 54, 70, 88, 108]


def test_seed_004_example_two_white_three_red_is_28():
    # 004: 2 白板 (正精) + 3 紅中 (副精) = 7 子 → 沖四關 7×4 = 28 from each player
    k = jing_kinds("J3")
    n = sum(k.value(t) for t in ["J3", "J3", "J1", "J1", "J1"])
    assert n == 7 and chongguan(n) == 28


def test_bawang_doubles_the_only_holder():
    # Example 4: only W holds jing, n = 2 → 霸王 4: W +12, others −4
    assert jing_points([JingHolding(0, True), JingHolding(0, True), JingHolding(2, True), JingHolding(0, True)]) == (
        -4, -4, 12, -4)


def test_two_holders_no_bawang():
    # Example 1: S n=1, N n=2 → E −3, S +1, W −3, N +5
    assert jing_points([JingHolding(0, True), JingHolding(1, True), JingHolding(0, True), JingHolding(2, True)]) == (
        -3, 1, -3, 5)
