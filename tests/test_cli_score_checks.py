"""Issue 11 items 9-12: ``paipu score`` explanations show exactly the sets a fan counts;
``--option NAME=VALUE``; one exit status per outcome in every output mode, and fans listed
below the minimum; input that cannot happen is a one-line error naming the flag.

Expected fans come from the rules (competition.md Part B) and the shared vectors
(tests/data/mcr/fan_vectors.jsonl, from shared/data/mcr), not from the code under test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import one_error
from typer.testing import CliRunner

from paipu.cli import app
from replayer.rules.mcr.fans.calculator import score
from replayer.rules.mcr.situation import Meld, WinSituation

runner = CliRunner()
VECTORS = Path(__file__).parent / "data" / "mcr" / "fan_vectors.jsonl"


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def _fan(result, fid_en):
    return next(f for f in result.fans if f.name_en == fid_en)


# ----------------------------------------------------------------- 9. tiles of each fan


def test_two_concealed_pungs_show_only_the_concealed_pungs():
    # W1 and T2 pungs in hand (concealed), a B9 pung claimed from the opposite seat
    sit = WinSituation(hand=("W1", "W1", "W1", "T2", "T2", "T2", "B5", "B6", "F2", "F2"),
                       win_tile="B7", melds=(Meld("pung", ("B9",) * 3, False, 2, "B9"),))
    f = _fan(score(sit), "Two Concealed Pungs")
    assert sorted(f.tiles) == [("T2",) * 3, ("W1",) * 3]


def test_three_concealed_pungs_include_a_concealed_kong_but_not_a_melded_one():
    # concealed: W1 pung, T2 pung, B3 concealed kong; the T9 kong is melded (claimed)
    sit = WinSituation(hand=("W1", "W1", "W1", "T2", "T2", "T2", "F2"), win_tile="F2",
                       melds=(Meld("kong", ("B3",) * 4, True), Meld("kong", ("T9",) * 4, False, 1, "T9")))
    f = _fan(score(sit), "Three Concealed Pungs")
    assert sorted(f.tiles) == [("B3",) * 4, ("T2",) * 3, ("W1",) * 3]


def test_a_pung_completed_by_the_winning_discard_is_not_concealed():
    # competition.md §B: 暗刻 are concealed pungs; the W9 pung made with the discard is exposed
    sit = WinSituation(hand=("W1", "W1", "W1", "T2", "T2", "T2", "W9", "W9", "F2", "F2"),
                       win_tile="W9", melds=(Meld("chow", ("B1", "B2", "B3"), False, 1, "B1"),))
    f = _fan(score(sit), "Two Concealed Pungs")
    assert sorted(f.tiles) == [("T2",) * 3, ("W1",) * 3]


def test_pung_of_terminals_or_honors_lists_only_what_it_counts():
    # seat E: the F1 pung is 门风刻 (not also 幺九刻: 不重复原则), the W9 pung is 幺九刻 ×1
    sit = WinSituation(hand=("F1", "F1", "F1", "W9", "W9", "W9", "B2", "B3", "B4", "T5"),
                       win_tile="T5", melds=(Meld("chow", ("T6", "T7", "T8"), False, 1, "T6"),),
                       seat_wind="E", prevalent_wind="S")
    f = _fan(score(sit), "Pung of Terminals or Honors")
    assert f.count == 1 and f.tiles == (("W9",) * 3,)


# ----------------------------------------------------------------- 10. --option

KONGS = ["score", "--hand", "B1 B2 B3 B4 B5 B6 F2", "--win", "F2", "--meld", "ckong:W1",
         "--meld", "kong:T9@2", "--json"]


def test_option_switches_an_interpretation():
    default = json.loads(run(*KONGS).output)
    names = [f["name_en"] for f in default["items"]]
    assert "Concealed Kong and Melded Kong" in names  # 明暗杠 5 (the reference's reading)
    res = run(*KONGS, "--option", "concealed_and_melded_kong=one_plus_two")
    names = [f["name_en"] for f in json.loads(res.output)["items"]]
    assert "Concealed Kong and Melded Kong" not in names
    assert {"Melded Kong", "Concealed Kong"} <= set(names)  # 1998 rulebook: 1 + 2


def test_one_plus_two_lists_each_kong_under_its_own_fan():
    # competition.md: 明杠 is a melded kong, 暗杠 a concealed one — each fan counts on its kong
    args = ["score", "--hand", "W1 W2 W3 B5", "--win", "B5", "--meld", "kong:T2T2T2T2@2",
            "--meld", "ckong:F1F1F1F1", "--meld", "pung:J1J1J1@3",
            "--option", "concealed_and_melded_kong=one_plus_two", "--json"]
    items = {f["name_en"]: f["tiles"] for f in json.loads(run(*args).output)["items"]}
    assert items["Concealed Kong"] == [["F1"] * 4]
    assert items["Melded Kong"] == [["T2"] * 4]


def test_option_errors_name_the_flag():
    res = run(*KONGS, "--option", "no_such_option=1")
    assert res.exit_code == 2 and "--option" in res.output
    res = run(*KONGS, "--option", "knitted_straight_waits")
    assert res.exit_code == 2 and "NAME=VALUE" in res.output


def test_option_with_vectors(tmp_path):
    case = {"id": "k", "hand": ["B1", "B2", "B3", "B4", "B5", "B6", "F2"], "win_tile": "F2",
            "melds": [{"type": "kong", "tiles": ["W1"] * 4, "concealed": True},
                      {"type": "kong", "tiles": ["T9"] * 4, "concealed": False, "claimed_from": 2,
                       "claimed_tile": "T9"}]}
    p = tmp_path / "v.jsonl"
    p.write_text(json.dumps(case) + "\n", encoding="utf-8")
    out = json.loads(run("score", "--vectors", str(p), "--option",
                         "concealed_and_melded_kong=one_plus_two").output)
    assert "Concealed Kong and Melded Kong" not in [f["name_en"] for f in out["fans"]]


# ----------------------------------------------------------------- 11. exit statuses, minimum

BELOW = ["score", "--hand", "W1 W2 W3 W4 W5 W6 T2 T3 T4 B5 B5 T7 T8", "--win", "T9"]


def test_below_the_minimum_lists_fans_with_one_exit_status():
    table = run(*BELOW)
    js = run(*BELOW, "--json")
    assert table.exit_code == js.exit_code == 1
    assert "below the minimum of 8" in table.output and "Short Straight" in table.output
    obj = json.loads(js.output)  # the ruleset-neutral shape: items, legal, rule_id, message
    assert [f["name_en"] for f in obj["items"]] == ["Concealed Hand", "All Chows", "Short Straight"]
    assert obj["legal"] is False and obj["total"] == 5 and "below the minimum of 8" in obj["message"]


def test_not_a_winning_hand_has_the_same_status_in_both_modes():
    args = ["score", "--hand", "W1 W2 W4 T4 T5 T6 B7 B8 B9 B2 B3 F3 F3", "--win", "B4"]
    assert run(*args).exit_code == run(*args, "--json").exit_code == 1


def test_vectors_list_the_fans_of_the_cases_below_the_minimum(tmp_path):
    cases = [json.loads(l) for l in VECTORS.read_text(encoding="utf-8").splitlines()]
    below = [c for c in cases if not c["expected"]["meets_8_fan_minimum"]]
    assert len(below) == 696
    out = tmp_path / "out.jsonl"
    src = tmp_path / "below.jsonl"
    src.write_text("".join(json.dumps(c) + "\n" for c in below), encoding="utf-8")
    assert run("score", "--vectors", str(src), "--out", str(out)).exit_code == 0
    got = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()]
    for c, g in zip(below, got):
        assert [f["name_zh"] for f in g["fans"]] == [f["name_zh"] for f in c["expected"]["fans"]], c["id"]
        assert g["total"] == c["expected"]["total"] and g["meets_8_fan_minimum"] is False


# ----------------------------------------------------------------- 12. impossible input

TEN = ["--hand", "W1 W2 W3 T4 T5 T6 F3 F3 F3 B7", "--win", "B7"]


@pytest.mark.parametrize(("args", "flag"), [
    ([*TEN, "--meld", "chow:B1B2B3@2"], "--meld"),                  # a chow from the opposite seat
    ([*TEN, "--meld", "chow:F1F2F3"], "--meld"),                     # a chow of honors
    ([*TEN, "--meld", "kong:B5"], "--meld"),                         # a melded kong from nobody
    ([*TEN, "--meld", "pung:B5@1", "--kong", "--self-drawn"], "--kong"),  # replacement, no kong
    ([*TEN, "--meld", "pung:B5@1", "--kong", "--last-of-wall"], "--last-of-wall"),
    (["--hand", "W1 W2 W3 T4 T5 T6 F3 F3 B7 B7", "--win", "F3", "--meld", "pung:B5@1",
      "--last-tile"], "--last-tile"),                                # 和绝张 with a copy in hand
])
def test_impossible_input_is_a_one_line_error_naming_the_flag(args, flag):
    res = run("score", *args)
    assert res.exit_code == 2, res.output
    errors = [l for l in res.output.splitlines() if l.strip()]
    assert len(errors) == 1 and flag in errors[0], res.output
    assert run("score", *args, "--json").exit_code == 2  # the same status in every output mode


def test_robbing_a_tile_you_hold():
    res = run("score", "--hand", "W1 W2 W3 T4 T5 T6 B7 B8 B9 F3 F3 F3 T4", "--win", "T4", "--kong")
    assert res.exit_code == 2 and "--kong" in res.output


def test_kong_replacement_on_the_last_tile_scores_both_fans_like_the_replayer():
    # competition.md §B3 excludes neither 杠上开花 nor 妙手回春 by the other (each only 自摸)
    res = run("score", "--hand", "W1 W2 W3 T4 T5 T6 B7 B8 B9 F3", "--win", "F3", "--meld", "ckong:J1",
              "--self-drawn", "--kong", "--last-of-wall", "--json")
    assert res.exit_code == 0, res.output
    names = [f["name_en"] for f in json.loads(res.output)["items"]]
    assert "Out with Replacement Tile" in names and "Last Tile Draw" in names


def test_an_empty_vectors_file_is_bad_input(tmp_path):
    """No case at all is a mistake (wrong file, empty pipe), exit 2 — not a silent exit 0."""
    for text in ("", "\n\n"):
        f = tmp_path / "v.jsonl"
        f.write_text(text, encoding="utf-8")
        res = run("score", "--ruleset", "mcr", "--vectors", str(f))
        assert res.exit_code == 2
        assert one_error(res) == f"error: --vectors {f}: no cases (the file holds no JSON line; schema: " \
                                 "tests/data/<ruleset>/README.md)"
