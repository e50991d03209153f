"""docs/rulesets.md is generated from the ruleset registry (scripts/gen_rulesets_doc.py) and
must stay in step with it: every ruleset, every option with its default, meaning and rule
source, every preset with its values (issue 17 item 5)."""

from __future__ import annotations

from pathlib import Path

from replayer.rules.base import known_rulesets, preset_infos
from replayer.rules.catalog import render_markdown, ruleset_docs

DOC = Path(__file__).resolve().parents[2] / "docs" / "rulesets.md"


def test_the_page_is_what_the_registry_generates():
    assert DOC.read_text(encoding="utf-8") == render_markdown(), \
        "docs/rulesets.md is out of step with the registry: run python scripts/gen_rulesets_doc.py"


def test_every_ruleset_and_preset_is_on_the_page():
    text = DOC.read_text(encoding="utf-8")
    for rid in known_rulesets():
        assert f"\n## {rid}\n" in text
    for p in preset_infos():
        assert f"| `{p.name}` | {p.title} |" in text


def test_every_nanchang_option_has_a_meaning_and_a_rule_source():
    nanchang = next(d for d in ruleset_docs() if d.id == "nanchang")
    assert len(nanchang.options) >= 56
    for o in nanchang.options:
        assert o.meaning and o.source.startswith(("docs/reference/", "tests/data/")), o
    # every engine option of jiangxi_variants.md §1 is there
    names = {o.name for o in nanchang.options}
    for opt in ("tileset", "jing_mode", "jing_scoring", "chi_allowed", "honor_chi", "discard_win_allowed",
                "discard_win_max_jing", "multiple_winners", "qidui_early_show", "chi3_liability", "pair_258",
                "wall_layers", "last_draw_no_discard", "flower_bao", "fly_bao_doubling", "fa_as_flower", "lanhu",
                "daqidui_factor", "tianhu_amount", "dealer_doubling", "jing_provider_liability"):
        assert opt in names


def test_a_preset_value_is_shown_against_the_default():
    text = DOC.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| `jing_mode` | `\"zheng_fu\"` |"))
    assert '**"successor_only"**' in row and '**"none"**' in row


def test_paipu_rulesets_lists_the_cities_and_shows_a_preset():
    import json

    from typer.testing import CliRunner

    from paipu.cli import app

    r = CliRunner().invoke(app, ["rulesets"])
    assert r.exit_code == 0, r.output
    for zh in ("吉安", "赣州", "新余", "景德镇", "九江", "宜春", "鹰潭", "抚州", "萍乡", "上饶"):
        assert zh in r.output
    r = CliRunner().invoke(app, ["rulesets", "pingxiang", "--json"])
    assert r.exit_code == 0, r.output
    got = json.loads(r.output)
    values = {o["option"]: o["value"] for o in got["options"]}
    assert got["base"] == "nanchang" and values["pair_258"] is True and values["wall_layers"] == 3
    assert values["jing_mode"] == "none" and values["win_base"] == 1
    r = CliRunner().invoke(app, ["rulesets", "nanjing"])
    assert r.exit_code != 0 and "unknown ruleset or preset 'nanjing'" in r.output


def test_mcr_lists_its_fan_scoring_options_too():
    """MCR stores play options and fan-scoring interpretations in one ``ruleset_options``
    (replayer/rules/mcr/play.py parse_options); every one of them is listed, and the
    mcr1998 preset's 1998 fan table shows on the page (competition.md §B3)."""
    from typer.testing import CliRunner

    from paipu.cli import app
    from replayer.rules.mcr.options import McrOptions
    from replayer.rules.mcr.play import McrPlayOptions

    mcr = next(d for d in ruleset_docs() if d.id == "mcr")
    names = [o.name for o in mcr.options]
    assert set(names) == set(McrPlayOptions.model_fields) | set(McrOptions.model_fields)
    for o in mcr.options:
        assert o.meaning, o
    text = DOC.read_text(encoding="utf-8")
    assert '| `fan_table` | `"mcr"` | **"mcr1998"** |' in text
    r = CliRunner().invoke(app, ["score", "--ruleset", "mcr", "--option", "fan_table=mcr2000",
                                 "--hand", "123456789m111p5s", "--win", "5s"])
    assert r.exit_code == 2, r.output
    assert '"mcr", "mcr1998"' in r.output or "mcr, mcr1998" in r.output, r.output
