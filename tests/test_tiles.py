"""Canonical tile notation (shared/DESIGN.md §3)."""

import pytest
from hypothesis import given, strategies as st

from eventlog import tiles


def test_dense_index_order_is_w_t_b_f_j_h():
    assert tiles.index("W1") == 0
    assert tiles.index("T1") == 9
    assert tiles.index("B9") == 26
    assert tiles.index("F1") == 27
    assert tiles.index("J3") == 33
    assert tiles.index("H8") == 41
    assert len(tiles.PLAYING_TILES) == 34


def test_mpsz_maps_suits_and_riichi_honor_order():
    assert tiles.parse("123m") == ["W1", "W2", "W3"]
    assert tiles.parse("19p") == ["B1", "B9"]
    assert tiles.parse("55s") == ["T5", "T5"]
    # 5z white, 6z green, 7z red (riichi order) -> J3, J2, J1
    assert tiles.parse("1234567z") == ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]
    assert tiles.parse("0m") == ["W5"]


def test_unicode_round_trip_and_known_code_points():
    assert tiles.to_unicode("F1") == "\U0001F000"
    assert tiles.to_unicode("J1") == "\U0001F004"  # red dragon 中
    assert tiles.to_unicode("W1") == "\U0001F007"
    assert tiles.to_unicode("T1") == "\U0001F010"
    assert tiles.to_unicode("B1") == "\U0001F019"
    assert tiles.to_unicode("H1") == "\U0001F026"  # spring 春
    assert tiles.to_unicode("H5") == "\U0001F022"  # plum 梅
    assert tiles.parse("\U0001F004\ufe0f\U0001F007") == ["J1", "W1"]


def test_codes_with_commas_and_spaces():
    assert tiles.parse("W1, T2 B3") == ["W1", "T2", "B3"]


@pytest.mark.parametrize("bad", ["W0", "X1", "T10", "F5", "J4", "H9", "W1 Q7"])
def test_invalid_codes_name_the_token(bad):
    with pytest.raises(tiles.TileError) as e:
        tiles.parse(bad)
    token = bad.split()[-1]
    assert token in str(e.value)


@pytest.mark.parametrize("bad", ["8z", "12x", "m12"])
def test_invalid_mpsz(bad):
    with pytest.raises(tiles.TileError):
        tiles.parse_mpsz(bad)


def test_next_in_cycle_wraps():
    assert tiles.next_in_cycle("W9") == "W1"
    assert tiles.next_in_cycle("F4") == "F1"
    assert tiles.next_in_cycle("J3") == "J1"
    assert tiles.next_in_cycle("B4") == "B5"


@given(st.lists(st.sampled_from(tiles.PLAYING_TILES), max_size=14))
def test_counts_round_trip(ts):
    assert tiles.from_counts(tiles.to_counts(ts)) == tiles.sort_tiles(ts)
    assert tiles.parse_unicode(tiles.to_unicode(ts)) == ts
