"""Every settlement vector of tests/data/changsha (copied from shared/data/changsha, written
from docs/reference/rules/changsha.md §7 and generated situations) gives exactly the expected
components, totals, opening units, win units, bird seats and next dealer — through the Python
API and through ``paipu score --ruleset changsha --vectors``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paipu.cli import app
from replayer.rules.changsha.vectors import score_case, score_lines

DATA = Path(__file__).resolve().parents[2] / "data" / "changsha" / "settlement_vectors.jsonl"
CASES = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
KEYS = ("components", "total", "opening", "wins", "next_dealer", "next_dealer_rule")


def test_the_file_has_the_45_cases():
    ids = [c["id"] for c in CASES]
    assert ids == [f"cs-ex{i:02d}" for i in range(1, 9)] + [f"cs-{i:03d}" for i in range(1, 38)]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_vector(case):
    res = score_case(case)
    assert "error" not in res, res.get("error")
    assert res["id"] == case["id"]
    for key in KEYS:
        assert res[key] == case["expected"][key], key
    for comp in res["components"].values():
        assert sum(comp) == 0


def test_explained_units_name_each_unit_in_english_and_chinese_with_tiles():
    ex5 = next(c for c in CASES if c["id"] == "cs-ex05")  # 清一色 + 七小对 on the dealer's discard
    (win,) = score_case(ex5)["explained"]["wins"]
    items = {i["id"]: i for i in win["items"]}
    assert items["full_flush"]["name_zh"] == "清一色" and items["seven_pairs"]["name_zh"] == "七小对"
    hand = sorted(ex5["occurrences"][0]["winners"][0]["concealed"] + ["T2"])
    assert sorted(items["seven_pairs"]["tiles"]) == hand
    assert all(i["count"] == 1 and i["source"].startswith("docs/reference/rules/changsha.md §3.3") for i in win["items"])
    ex6 = next(c for c in CASES if c["id"] == "cs-ex06")
    (opening,) = score_case(ex6)["explained"]["opening"]
    assert [(i["id"], i["name_zh"]) for i in opening["items"]] == [("missing_suit", "缺一色"), ("two_pungs", "六六顺")]
    assert opening["items"][1]["tiles"] == ["W3", "W3", "W3", "B7", "B7", "B7"]


def test_cli_writes_one_line_per_case(tmp_path):
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(app, ["score", "--ruleset", "changsha", "--vectors", str(DATA), "--out", str(out)])
    assert r.exit_code == 0, r.output
    got = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(got) == len(CASES)
    for res, case in zip(got, CASES):
        assert {k: res[k] for k in KEYS} == {k: case["expected"][k] for k in KEYS}


def _with(case: dict, **changes) -> dict:
    c = json.loads(json.dumps(case))
    c.update(changes)
    return c


def test_a_false_win_is_an_error_line_naming_the_rule():
    ex1 = json.loads(json.dumps(CASES[0]))
    # 3m pair instead of 5m: 123m 456p 789s 234s + 3m3m is a rank-3 pair and no big win
    ex1["occurrences"][0]["winners"][0]["concealed"] = ["W1", "W2", "W3", "W3", "T2", "T3", "T4", "T7", "T8", "T9",
                                                         "B4", "B5", "B6"]
    ex1["occurrences"][0]["winners"][0]["win_tile"] = "W3"
    res = score_case(ex1)
    assert set(res) == {"id", "error"} and "[pair_not_258]" in res["error"] and "§3.1" in res["error"]


def test_an_unproved_declaration_is_an_error():
    ex6 = json.loads(json.dumps(next(c for c in CASES if c["id"] == "cs-ex06")))
    ex6["opening"]["declarations"][1]["tiles"] = ["W3", "W3", "W3", "B7", "B7", "B8"]
    res = score_case(ex6)
    assert "[opening_not_proved]" in res["error"] and "§3.2" in res["error"]


def test_wrong_number_of_birds_is_an_error():
    ex1 = json.loads(json.dumps(CASES[0]))
    ex1["occurrences"][0]["birds"] = ["B7", "B1"]
    assert "[wrong_birds]" in score_case(ex1)["error"]


def test_malformed_lines_are_reported_with_source_and_line():
    lines = ['{"id": "x", "dealer": 0, "occurrences": []}', "not json",
             json.dumps(_with(CASES[0], dealer=4)), json.dumps(_with(CASES[0], options={"birds": 3})),
             json.dumps(_with(CASES[0], options={"extra_opening_wins": ["节节高"]})),
             json.dumps({**CASES[0], "occurrences": [{**CASES[0]["occurrences"][0], "birds": ["F1"]}]})]
    res = list(score_lines(lines, source="v.jsonl"))
    assert [r["id"] for r in res] == ["x", "line 2", "cs-ex01", "cs-ex01", "cs-ex01", "cs-ex01"]
    assert all(r["error"].startswith("v.jsonl:") for r in res)
    assert "dealer" in res[2]["error"]
    assert "birds" in res[3]["error"]
    assert "§8.15" in res[4]["error"]
    assert "no honors" in res[5]["error"]


def test_a_robbed_kong_listed_as_an_occurrence_pays_no_kong_money():
    # cs-026 with kong money on and the robbed added kong listed before the win (§8.9)
    case = json.loads(json.dumps(next(c for c in CASES if c["id"] == "cs-026")))
    case["options"] = {"kong_pay": {"ming": 5, "an": 10}}
    win = case["occurrences"][0]
    case["occurrences"] = [{"type": "kong", "seat": win["discarder"], "kong_kind": "added", "tile": win["winners"][0]["win_tile"],
                            "from": 0, "mode": "buzhang"}, win]
    res = score_case(case)
    assert res["components"]["kong"] == [0, 0, 0, 0]
    assert res["total"] == case["expected"]["total"]
