"""Every settlement vector of tests/data/sichuan (copied from shared/data/sichuan, written from
docs/reference/rules/sichuan.md §11 and generated cases) gives exactly the expected
components, totals, per-win fan breakdowns, 查大叫 readings and next dealer — or the expected
illegal-replay error — through the Python API and through ``paipu score --ruleset sichuan
--vectors``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paipu.cli import app
from replayer.rules.sichuan.vectors import score_case, score_lines

DATA = Path(__file__).resolve().parents[2] / "data" / "sichuan" / "settlement_vectors.jsonl"
CASES = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_file_has_the_42_cases_of_the_readme():
    ids = [c["id"] for c in CASES]
    assert ids == [f"sc-ex{i:02d}" for i in range(1, 11)] + [f"sc-g{i:02d}" for i in range(1, 33)]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_vector(case):
    res = score_case(case)
    exp = case["expected"]
    if exp.get("illegal"):
        assert "error" in res
        assert res["illegal"] == exp["error"]
        return
    assert "error" not in res, res.get("error")
    assert res["components"] == exp["components"]
    assert res["total"] == exp["total"]
    assert res["next_dealer"] == exp["next_dealer"]
    assert res["draw_check"] == exp["draw_check"]
    assert [{k: v for k, v in w.items() if k != "items"} for w in res["wins"]] == exp["wins"]
    for comp in res["components"].values():
        assert sum(comp) == 0


def test_explained_items_name_each_pattern_with_fan_and_tiles():
    ex2 = next(c for c in CASES if c["id"] == "sc-ex02")  # 清一色 + 1 根 (four 1m)
    (win,) = score_case(ex2)["wins"]
    items = {i["id"]: i for i in win["items"]}
    assert items["qingyise"]["fan"] == 2 and items["qingyise"]["name_zh"] == "清一色"
    assert sorted(t for g in items["qingyise"]["tiles"] for t in g) == sorted(
        ex2["events"][0]["winners"][0]["concealed"] + ["W9"])
    assert items["gen"] == {"id": "gen", "name": "Root (four of a kind)", "name_zh": "根", "fan": 1, "count": 1,
                            "tiles": [["W1", "W1", "W1", "W1"]]}
    assert sum(i["fan"] for i in win["items"]) == win["fan"]


def test_cli_writes_one_line_per_case(tmp_path):
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(app, ["score", "--ruleset", "sichuan", "--vectors", str(DATA), "--out", str(out)])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [x["id"] for x in lines] == [c["id"] for c in CASES]
    for x, c in zip(lines, CASES):
        if c["expected"].get("illegal"):
            assert set(x) == {"id", "error", "illegal"}
        else:
            assert x["total"] == c["expected"]["total"]
            assert x["components"] == c["expected"]["components"]


def test_a_bad_line_is_an_error_naming_file_and_line():
    good = json.dumps(CASES[0])
    bad = json.dumps({**CASES[0], "id": "broken", "dealer": 7})
    honor = json.loads(good)
    honor["id"] = "honor"
    honor["events"][0]["tile"] = "F1"
    res = list(score_lines([good, "", bad, "{not json", json.dumps(honor)], source="f.jsonl"))
    assert "error" not in res[0]
    assert res[1]["id"] == "broken" and res[1]["error"].startswith("f.jsonl:3:") and "dealer" in res[1]["error"]
    assert res[2]["id"] == "line 4" and res[2]["error"].startswith("f.jsonl:4:")
    assert res[3]["id"] == "honor" and "not a Sichuan tile" in res[3]["error"]


def test_unknown_option_and_wrong_type_are_refused():
    case = json.loads(json.dumps(CASES[0]))
    case["options"] = {"cap": "4"}
    with pytest.raises(Exception, match="cap"):
        score_case(case)
    case["options"] = {"no_such_option": True}
    with pytest.raises(Exception, match="no_such_option"):
        score_case(case)


def test_a_false_win_is_an_error():
    case = json.loads(json.dumps(CASES[0]))  # S wins on B5 with W123 W456 W789 B234 B5
    case["events"][0]["tile"] = "B7"
    res = score_case(case)
    assert res["illegal"]["rule"] == "false_win" and res["illegal"]["seat"] == 1


def test_xiayu_false_pays_no_kong():
    """§11 Ex 3 (the three kong kinds) under option ``xiayu = false`` (the seed's games without
    下雨): every component is zero."""
    case = next(c for c in CASES if c["id"] == "sc-ex03")
    res = score_case({**case, "options": {"xiayu": False}})
    assert res["components"]["kong"] == [0, 0, 0, 0] and res["total"] == [0, 0, 0, 0]
