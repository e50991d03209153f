"""Issue 11 item 16: no Python ``None``/``True``/``False`` in what a user reads; filters
that match nothing say so (exit 1); docs and rule sources cite paths that exist in the
repository (docs/reference/...), not ``shared/...``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paipu.cli import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
PY_WORDS = re.compile(r"\b(None|True|False)\b")


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("words") / "paipu-data"
    assert run("quickstart", "--data", d).exit_code == 0
    assert run("export", "--data", d).exit_code == 0
    return d


def test_replay_view_before_a_hand_has_no_python_words(data):
    res = run("replay", "pmn-mahjongsoft.com-74621-1-3", "--at", "0", "--data", data)
    assert res.exit_code == 0, res.output
    assert not PY_WORDS.search(res.output), res.output


def test_verify_prints_no_python_words(data):
    res = run("verify", "pmn-mahjongsoft.com-74621-1-3", "--data", data)
    assert not PY_WORDS.search(res.output), res.output


def test_stats_by_dealer_names_the_groups(data):
    res = run("stats", "--by", "dealer", "--data", data)
    assert res.exit_code == 0, res.output
    assert "not dealer" in res.output and not PY_WORDS.search(res.output)


def test_a_filter_matching_nothing_says_so(data):
    res = run("stats", "--player", "nobody-at-all", "--data", data)
    assert res.exit_code == 1
    assert "no exported hands match --player nobody-at-all" in res.output


def test_docs_cite_paths_in_the_repository():
    cited = re.compile(r"shared/(rules|DESIGN\.md|seeds|STYLE\.md)")
    for f in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = f.read_text(encoding="utf-8")
        assert not cited.search(text), f"{f.name}: {cited.search(text).group(0)}"
    for m in re.finditer(r"docs/reference/rules/([a-z_]+\.md)", (ROOT / "README.md").read_text(encoding="utf-8")):
        assert (ROOT / "docs" / "reference" / "rules" / m.group(1)).exists(), m.group(0)


def test_finding_sources_cite_paths_in_the_repository(data):
    res = run("verify", "--json", "--data", data)
    import json

    for g in json.loads(res.output)["games"]:
        for f in g.get("findings", []):
            assert "shared/" not in f["source"], f
    from replayer.rules.base import get_ruleset

    rs = get_ruleset("mcr")
    for rule in ("settlement", "false_win", "dealer_rotation"):
        assert "shared/" not in rs.rule_source(rule), rule
