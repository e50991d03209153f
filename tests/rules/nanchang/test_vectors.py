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
    assert res[2]["id"] == "line 4" and res[2]["error"].startswith("f.jsonl:4:")


@pytest.mark.parametrize("edit, where", [
    (lambda c: c.update(dealr=1), "dealr: not a known field (known: "),
    (lambda c: c["outcome"].update(kong_replacment=True), "outcome.kong_replacment: not a known field"),
    (lambda c: c["players"][2].update(early_show="yes"), "players[2].early_show: must be true or false, got 'yes'"),
    (lambda c: c["players"][0]["melds"].append({"type": "kong", "tiles": ["W1"] * 4, "from": 1}),
     "players[0].melds[0]: kong_kind: a kong needs"),
    (lambda c: c["players"][0]["melds"].append({"type": "pung", "tiles": ["W1"] * 2, "from": 1}),
     "players[0].melds[0]: tiles: a pung has 3 tiles, got 2"),
    (lambda c: c["players"][3]["unclaimed_discards"].append("Z9"), "players[3].unclaimed_discards[" ),
    (lambda c: c.update(players=c["players"][:3]), "players: must have at least 4 items"),
    (lambda c: c["outcome"].pop("win_tile"), "outcome: win_tile: a win needs its winning tile"),
])
def test_vector_model_names_the_field_and_the_line(edit, where):
    # the case line is read through a strict model (README "Schema"): an unknown or mistyped
    # field is refused, naming the field; score_lines adds the file and line
    case = json.loads(json.dumps(CASES[0]))
    assert not case["players"][0]["melds"]
    edit(case)
    res = list(score_lines([json.dumps(CASES[0]), json.dumps(case)], source="v.jsonl"))
    assert "error" not in res[0]
    assert res[1]["error"].startswith("v.jsonl:2: bad situation: " + where), res[1]["error"]


def test_a_false_win_situation_is_reported_as_error():
    case = json.loads(json.dumps(CASES[0]))
    case["outcome"]["win_tile"] = "F4"  # S's hand does not win on 北 … unless the jing makes it
    case["players"][1]["concealed"] = ["T1", "T2", "T3", "T7", "T8", "T9", "F1", "F2", "F3", "B1", "B5", "B9", "J1"]
    res = score_case(case)
    assert "not a legal win" in res["error"]


def test_presets_are_valid_nanchang_options():
    import tomllib

    from replayer.rules.base import get_ruleset

    path = Path(__file__).resolve().parents[3] / "replayer" / "rules" / "presets" / "nanchang.toml"
    presets = tomllib.loads(path.read_text(encoding="utf-8"))
    assert "nanchang" in presets
    for name, p in presets.items():
        rs = get_ruleset(p["base"], p["options"])
        assert rs.id == "nanchang", name
        assert get_ruleset(name).id == name


def test_optional_jing_rules_of_section_11():
    # Example 1 with 上下翻精 (§11.1): lower indicator 5p → 下正精 5p, 下副精 6p, counted in the
    # dealt hands: E holds no 5p/6p, S 5p 5p (n = 4), W none, N none → S alone: 霸王 8 →
    # S +24, others −8. With 回头一笑 (§11.3) against a previous indicator 中 (中 2, 发 1):
    # E 中 (2), W 发 (1), N 中 (2) → E +3, S −5, W −1, N +3.
    case = json.loads(json.dumps(CASES[0]))
    case["options"] = {"shangxia_fanjing": True, "huitou_yixiao": True}
    case["lower_indicator"] = "B5"
    case["previous_indicator"] = "J1"
    case["dealt"] = [["B1", "J1"], ["B5", "B5"], ["J2"], ["J1"]]
    res = score_case(case)
    assert res["components"]["lower_jing"] == [-8, 24, -8, -8]
    assert res["components"]["look_back"] == [3, -5, -1, 3]
    assert res["total"] == [a + b + c for a, b, c in zip(case["expected"]["total"], [-8, 24, -8, -8], [3, -5, -1, 3])]


def test_buried_mine_settles_the_lower_jing_on_everything_held():
    # Example 1 with 埋地雷 (§11.2), lower indicator 5p → 5p (2), 6p (1): E holds 5p 5p (4);
    # S 5p 5p + the winning 6p (5 → 冲关 10); W, N none → E +2, S +26, W −14, N −14.
    case = json.loads(json.dumps(CASES[0]))
    case["options"] = {"maidilei": True}
    case["lower_indicator"] = "B5"
    assert score_case(case)["components"]["lower_jing"] == [2, 26, -14, -14]
