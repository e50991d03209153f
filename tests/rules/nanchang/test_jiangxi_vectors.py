"""The Jiangxi variants as presets over the Nanchang engine (shared/rules/jiangxi_variants.md,
issue 17): every situation of tests/data/jiangxi/settlement_vectors.jsonl (copied from
shared/data/jiangxi/, see its README) gives exactly the expected components, totals, shapes,
conditions and counts — or the expected rule id where the preset forbids the win — through the
Python API and through ``paipu score --ruleset nanchang --vectors``; and every preset resolves
to the option values of the README's "Preset options (resolved)" table."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paipu.cli import app
from replayer.rules.base import get_ruleset, preset_infos, presets
from replayer.rules.nanchang.vectors import score_case

DATA = Path(__file__).resolve().parents[2] / "data" / "jiangxi"
VECTORS = DATA / "settlement_vectors.jsonl"
CASES = [json.loads(line) for line in VECTORS.read_text(encoding="utf-8").splitlines() if line.strip()]
PRESETS = ("ji_an", "ganzhou", "ganzhou_chongguan_online", "xinyu", "jingdezhen", "jiujiang", "yichun",
           "yingtan", "fuzhou", "pingxiang", "shangrao")


def test_the_file_covers_every_preset_with_wins_and_forbidden_wins():
    assert len(CASES) == 62
    assert {c["preset"] for c in CASES} == set(PRESETS)
    assert sum(1 for c in CASES if "error" in c["expected"]) == 16


def _same_win(got: dict, exp: dict) -> None:
    assert got["shape"] == exp["shape"]
    assert sorted(got["conditions"]) == sorted(exp["conditions"])  # their order carries no meaning
    assert got.get("counts", {}) == exp.get("counts", {})


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_vector(case):
    res = score_case(case)
    exp = case["expected"]
    if "error" in exp:
        assert res.get("rule") == exp["error"], res
        assert exp["error"] in res["error"] or res["rule"] == "not_a_winning_hand"
        return
    assert "error" not in res, res
    assert res["components"] == exp["components"]
    assert res["total"] == exp["total"]
    if exp.get("wins"):
        assert res["win"] is None
        assert [w["winner"] for w in res["wins"]] == [w["winner"] for w in exp["wins"]]
        for got, want in zip(res["wins"], exp["wins"]):
            _same_win(got, want)
    elif exp["win"] is None:
        assert res["win"] is None
    else:
        _same_win(res["win"], exp["win"])


def test_cli_scores_the_file_line_by_line(tmp_path):
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(app, ["score", "--ruleset", "nanchang", "--vectors", str(VECTORS), "--out", str(out)])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [x["id"] for x in lines] == [c["id"] for c in CASES]
    for got, case in zip(lines, CASES):
        exp = case["expected"]
        if "error" in exp:
            assert got["rule"] == exp["error"]
        else:
            assert got["total"] == exp["total"] and got["components"] == exp["components"]


def test_a_case_option_overrides_its_preset():
    # jx-ganzhou_chongguan_online-05 is 通庄 (dealer_doubling false); without the override the
    # dealer (seat 1) pays double: win 2 x 2 x 2 x (1 + 2 + 1) + 15 → the totals differ
    case = next(c for c in CASES if c["id"] == "jx-ganzhou_chongguan_online-05")
    plain = json.loads(json.dumps(case))
    plain["options"] = {}
    assert score_case(plain)["total"] != case["expected"]["total"]
    assert score_case(case)["total"] == case["expected"]["total"]


def test_an_unknown_preset_is_a_clear_error():
    case = json.loads(json.dumps(CASES[0]))
    case["preset"] = "nanjing"
    from replayer.findings import RulesetError

    with pytest.raises(RulesetError, match="unknown preset 'nanjing'"):
        score_case(case)


# --- the presets against the README's resolved table ------------------------------------------


def _resolved_table() -> tuple[list[str], dict[str, dict[str, str]]]:
    text = (DATA / "README.md").read_text(encoding="utf-8")
    section = text.split("## Preset options (resolved)", 1)[1].split("\n## ", 1)[0]
    rows = [r for r in section.splitlines() if r.startswith("|")]
    head = [c.strip() for c in rows[0].strip("|").split("|")]
    table: dict[str, dict[str, str]] = {}
    for r in rows[2:]:
        cells = [c.strip().strip("*") for c in r.strip("|").split("|")]
        table[cells[0].strip("`")] = dict(zip(head[1:], cells[1:]))
    return head[2:], table


def _value(text: str):
    if text in ("true", "false"):
        return text == "true"
    if text == "null":
        return None
    if re.fullmatch(r"\d+", text):
        return int(text)
    return text


def test_every_preset_resolves_to_the_readme_table():
    names, table = _resolved_table()
    assert names == list(PRESETS)
    for name in PRESETS:
        opts = get_ruleset(name).options
        for option, row in table.items():
            if option.startswith("spec_confidence"):
                continue
            want = _value(row[name])
            got = getattr(opts, option)
            if option in ("tileset",):
                got = str(got)
            assert got == want or str(got) == str(want), (name, option, got, want)


def test_presets_carry_city_names_and_confidence():
    _, table = _resolved_table()
    conf = table["spec_confidence (ruleset flag)"]
    infos = {p.name: p for p in preset_infos()}
    zh = {"ji_an": "吉安", "ganzhou": "赣州", "ganzhou_chongguan_online": "赣州", "xinyu": "新余",
          "jingdezhen": "景德镇", "jiujiang": "九江", "yichun": "宜春", "yingtan": "鹰潭", "fuzhou": "抚州",
          "pingxiang": "萍乡", "shangrao": "上饶"}
    for name in PRESETS:
        assert presets()[name][0] == "nanchang"
        assert zh[name] in infos[name].title
        assert infos[name].spec_confidence == ("low" if conf[name] == "low" else "")


def test_cli_takes_a_preset_as_the_ruleset(tmp_path):
    # the Ganzhou cases without their preset field, scored with --ruleset ganzhou
    src = tmp_path / "ganzhou.jsonl"
    cases = [c for c in CASES if c["preset"] == "ganzhou"]
    src.write_text("".join(json.dumps({k: v for k, v in c.items() if k != "preset"}) + "\n" for c in cases),
                   encoding="utf-8")
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(app, ["score", "--ruleset", "ganzhou", "--vectors", str(src), "--out", str(out)])
    assert r.exit_code == 0, r.output
    for got, case in zip((json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()), cases, strict=True):
        exp = case["expected"]
        assert got.get("rule") == exp["error"] if "error" in exp else got["total"] == exp["total"]
