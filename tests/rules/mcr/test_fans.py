"""MCR fan calculator against the shared reference vectors (tests/data/mcr/, copied from
shared/data/mcr/) and against rules stated in their README.

Expected values come from the vectors (scored by the reference calculator) or from the README
table and notes; none is taken from our own output.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from replayer.rules.mcr.fans import FAN_BY_ID, FANS
from replayer.rules.mcr.fans.calculator import McrInputError, score
from replayer.rules.mcr.options import McrOptions
from replayer.rules.mcr.situation import Meld, WinSituation
from replayer.rules.mcr.vectors import VectorError, read_vectors, result_to_json
from replayer.rules.shared.shapes import knitted_straight_in
from eventlog.tiles import index, to_counts

DATA = Path(__file__).resolve().parents[2] / "data" / "mcr"
CASES = list(read_vectors(DATA / "fan_vectors.jsonl"))


def fans_of(result) -> list[tuple[str, int]]:
    return [(f.name_zh, f.count) for f in result.fans]


def expected_fans(case) -> list[tuple[str, int]]:
    return [(f["name_zh"], f["count"]) for f in case.expected["fans"]]


def describe(case) -> str:
    s = case.situation
    melds = " ".join(f"[{m.type}{'(c)' if m.concealed else ''} {' '.join(m.tiles)}]" for m in s.melds)
    return (f"{case.id} ({case.category}, line {case.line}): hand {' '.join(s.hand)} win {s.win_tile} {melds} "
            f"{'self-drawn' if s.self_drawn else 'discard'} seat {s.seat_wind} prevalent {s.prevalent_wind}")


def test_every_vector_scores_as_the_reference():
    mismatches = []
    for case in CASES:
        r = score(case.situation)
        exp = case.expected
        ok = (
            r.is_win
            and fans_of(r) == expected_fans(case)
            and [f.name_en for f in r.fans] == [f["name_en"] for f in exp["fans"]]
            and [f.points for f in r.fans] == [f["points"] for f in exp["fans"]]
            and r.total == exp["total"]
            and r.total_without_flowers == exp["total_without_flowers"]
            and r.meets_minimum == exp["meets_8_fan_minimum"]
        )
        if not ok:
            mismatches.append(f"{describe(case)}\n  expected {expected_fans(case)} = {exp['total']}"
                              f"\n  got      {fans_of(r)} = {r.total} {r.error or ''}")
    assert not mismatches, f"{len(mismatches)} of {len(CASES)} vectors differ:\n" + "\n".join(mismatches[:40])


def _readme_table() -> list[tuple[int, int, str, str]]:
    rows = []
    for line in (DATA / "README.md").read_text(encoding="utf-8").splitlines():
        m = re.fullmatch(r"\| (\d+) \| (\d+) \| (.+?) \| (.+?) \|", line.strip())
        if m:
            rows.append((int(m[1]), int(m[2]), m[3], m[4]))
    return rows


def test_fan_table_is_the_readme_table():
    rows = _readme_table()
    assert len(rows) == 82
    for (number, points, name_en, name_zh), fan in zip(rows, FANS):
        assert (fan.number, fan.points, fan.name_zh) == (number, points, name_zh)
        # row 82 carries a remark after its English name
        assert name_en == fan.name_en or name_en.startswith(fan.name_en + " (")


@pytest.mark.parametrize("fan", FANS, ids=[f.id for f in FANS])
def test_each_fan_on_its_first_reference_case(fan):
    """Every fan occurs in the vectors (README "Counts"); the first case holding it must give
    it with the reference's count."""
    case = next(c for c in CASES if any(f["name_zh"] == fan.name_zh for f in c.expected["fans"]))
    want = dict(expected_fans(case))[fan.name_zh]
    got = dict(fans_of(score(case.situation)))
    assert got.get(fan.name_zh) == want, describe(case)


def test_excludes_name_known_fans():
    for fan in FANS:
        for ex in fan.excludes:
            assert (ex if isinstance(ex, str) else ex[0]) in FAN_BY_ID


# --- options (README "Notes on how the oracle scores") ---

def test_one_plus_two_replaces_the_five_point_mixed_kong_fan():
    """Note 1: under the 1998 table one concealed + one melded kong is 明杠 1 + 暗杠 2."""
    cases = [c for c in CASES if any(f["name_zh"] == "明暗杠" for f in c.expected["fans"])]
    assert len(cases) == 30
    opts = McrOptions(concealed_and_melded_kong="one_plus_two")
    for case in cases:
        r = score(case.situation, opts)
        want = {k: v for k, v in expected_fans(case) if k != "明暗杠"}
        want.update({"明杠": 1, "暗杠": 1})
        assert dict(fans_of(r)) == want, describe(case)
        assert r.total == case.expected["total"] - 5 + 3


def _wins_inside_knitted_body(case) -> bool:
    s = case.situation
    seq = knitted_straight_in(tuple(to_counts([*s.hand, s.win_tile])))
    return case.category == "knitted_straight" and not s.melds and seq is not None and index(s.win_tile) in seq


def test_knitted_straight_waits_option_off_drops_wait_fans_on_the_knitted_tiles():
    """Note 2: without the MIL clarification no Edge/Closed/Single Wait when the winning tile
    is one of the knitted nine."""
    cases = [c for c in CASES if _wins_inside_knitted_body(c)
             and any(f["name_zh"].startswith("独听") for f in c.expected["fans"])]
    assert cases
    for case in cases:
        r = score(case.situation, McrOptions(knitted_straight_waits=False))
        assert [x for x in expected_fans(case) if not x[0].startswith("独听")] == fans_of(r), describe(case)
        assert r.total == case.expected["total"] - 1


def test_options_reject_unknown_interpretation():
    with pytest.raises(ValueError, match="concealed_and_melded_kong"):
        McrOptions(concealed_and_melded_kong="six")  # type: ignore[arg-type]


# --- rules stated in the README notes and the fan table ---

def _nine_gates(win: str, self_drawn: bool = False) -> WinSituation:
    return WinSituation(hand=("B1", "B1", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "B9", "B9"),
                        win_tile=win, self_drawn=self_drawn)


def test_nine_gates_on_a_five_adds_two_concealed_pungs_and_one_terminal_pung():
    """Note 3: a win on 5 adds Two Concealed Pungs and one Pung of Terminals or Honors; no
    Full Flush or Concealed Hand."""
    r = score(_nine_gates("B5"))
    assert fans_of(r) == [("九莲宝灯", 1), ("双暗刻", 1), ("幺九刻", 1)]
    assert r.total == 88 + 2 + 1


def test_nine_gates_on_a_nine_self_drawn_adds_pure_straight_tile_hog_and_self_drawn():
    """Note 3: a win on 1 or 9 adds Pure Straight and Tile Hog; Self-Drawn is counted."""
    r = score(_nine_gates("B9", self_drawn=True))
    assert fans_of(r) == [("九莲宝灯", 1), ("清龙", 1), ("四归一", 1), ("自摸", 1)]


def test_seven_pairs_with_four_identical_tiles_scores_tile_hog():
    """Note 4."""
    s = WinSituation(hand=("W2", "W2", "W2", "W2", "T3", "T3", "T7", "T7", "B5", "B5", "F1", "F1", "J2"),
                     win_tile="J2")
    r = score(s)
    assert ("七对", 1) in fans_of(r) and ("四归一", 1) in fans_of(r)


def test_chicken_hand_when_nothing_else_counts_and_flowers_do_not_prevent_it():
    """无番和 (8): no fan at all — three suits without dragons, an honor pair, exposed sets,
    a two-sided wait on a discard. Flowers add to the total, not to the 8."""
    s = WinSituation(
        hand=("B7", "B8", "F2", "F2"), win_tile="B6",
        melds=(Meld("chow", ("W1", "W2", "W3"), False, 1, "W2"),
               Meld("chow", ("T4", "T5", "T6"), False, 1, "T4"),
               Meld("pung", ("B5", "B5", "B5"), False, 2, "B5")),
        seat_wind="E", prevalent_wind="E", flowers=2,
    )
    r = score(s)
    assert fans_of(r) == [("无番和", 1), ("花牌", 2)]
    assert (r.total, r.total_without_flowers, r.meets_minimum) == (10, 8, True)


def test_a_hand_that_is_no_winning_shape_is_not_a_win():
    s = WinSituation(hand=("W1", "W2", "W4", "T3", "T5", "T7", "B1", "B3", "B8", "F1", "F2", "J1", "J3"),
                     win_tile="B9")
    r = score(s)
    assert not r.is_win and r.error.startswith("not a winning hand: ") and r.fans == ()


def test_malformed_situations_raise_naming_the_field():
    with pytest.raises(McrInputError, match="hand: 12 tiles"):
        score(WinSituation(hand=("W1",) * 3 + ("W2",) * 3 + ("W3",) * 3 + ("W4",) * 3, win_tile="W5"))
    with pytest.raises(McrInputError, match=r"melds\[0\]"):
        score(WinSituation(hand=("W1",) * 10, win_tile="W5", melds=(Meld("chow", ("W1", "W3", "W4")),)))
    with pytest.raises(McrInputError, match="win_tile"):
        score(WinSituation(hand=("W1",) * 13, win_tile="X9"))
    with pytest.raises(McrInputError, match="more than four copies of W1"):
        score(WinSituation(hand=("W1", "W1", "W1", "W1", "W2", "W2", "W2", "W3", "W3", "W3", "W4", "W4", "W4"),
                           win_tile="W1"))


def test_fan_items_name_the_tiles_they_were_counted_on():
    r = score(CASES[0].situation)  # dev-s1-000001: knitted straight + pung of Red + pair of T6
    on = {f.name_zh: f.tiles for f in r.fans}
    assert on["组合龙"] == (("W2", "W5", "W8", "T3", "T6", "T9", "B1", "B4", "B7"),)
    assert on["箭刻"] == (("J1", "J1", "J1"),)
    assert on["独听・单钓"] == (("T6", "T6"),)


# --- vector file reading and result writing ---

def test_result_json_line_has_the_expected_shape():
    case = CASES[1]
    obj = json.loads(result_to_json(case.id, score(case.situation)))
    assert obj["id"] == case.id and obj["total"] == case.expected["total"]
    assert [(f["name_zh"], f["count"]) for f in obj["fans"]] == expected_fans(case)


def test_bad_vector_line_names_file_and_line(tmp_path):
    p = tmp_path / "v.jsonl"
    p.write_text(json.dumps({"id": "x", "expected": {}}) + "\n", encoding="utf-8")
    with pytest.raises(VectorError, match=r"v\.jsonl:1: "):
        list(read_vectors(p))
