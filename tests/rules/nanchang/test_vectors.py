"""Every settlement vector (tests/data/nanchang, written from shared/rules/nanchang.md §15 and
more) gives exactly the expected components, totals, shape and conditions — through the
Python API and through ``paipu score --ruleset nanchang --vectors``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paipu.cli import app
from replayer.rules.nanchang.vectors import score_case, score_lines

DATA = Path(__file__).resolve().parents[2] / "data" / "nanchang" / "settlement_vectors.jsonl"
CASES = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_file_has_the_35_cases_of_the_readme():
    assert len(CASES) == 35


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_vector(case):
    res = score_case(case)
    exp = case["expected"]
    assert res["components"] == exp["components"]
    assert res["total"] == exp["total"]
    if exp["win"] is None:
        assert res["win"] is None
    else:
        assert res["win"]["shape"] == exp["win"]["shape"]
        assert res["win"]["conditions"] == exp["win"]["conditions"]


def test_cli_writes_one_line_per_case(tmp_path):
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(app, ["score", "--ruleset", "nanchang", "--vectors", str(DATA), "--out", str(out)])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [x["id"] for x in lines] == [c["id"] for c in CASES]
    assert all(x["total"] == c["expected"]["total"] for x, c in zip(lines, CASES))


def test_a_bad_line_is_an_error_naming_file_and_line():
    good = json.dumps(CASES[0])
    bad = json.dumps({"id": "broken", "indicator": "W3", "players": []})
    res = list(score_lines([good, "", bad, "{not json"], source="f.jsonl"))
    assert "error" not in res[0]
    assert res[1]["id"] == "broken" and res[1]["error"].startswith("f.jsonl:3:")
    assert res[2]["id"] == 4 and res[2]["error"].startswith("f.jsonl:4:")


def test_a_false_win_situation_is_reported_as_error():
    case = json.loads(json.dumps(CASES[0]))
    case["outcome"]["win_tile"] = "F4"  # S's hand does not win on 北 … unless the jing makes it
    case["players"][1]["concealed"] = ["T1", "T2", "T3", "T7", "T8", "T9", "F1", "F2", "F3", "B1", "B5", "B9", "J1"]
    res = score_case(case)
    assert "not a legal win" in res["error"]
