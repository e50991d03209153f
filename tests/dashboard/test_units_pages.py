"""The dashboard names a ruleset's amounts in its own unit (RulesetSpec.score_unit): the Fans
page of a Changsha export shows units and points per unit (changsha.md §5), never "points
of the win (with flowers)" — Changsha is played without flowers (changsha.md §1: 108 tiles)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from paipu.cli import app


@pytest.fixture(scope="module")
def changsha_export(tmp_path_factory):
    d = tmp_path_factory.mktemp("units") / "data"
    run = CliRunner().invoke
    for args in (["simulate", "--ruleset", "changsha", "--games", "2", "--seed", "1", "--hands-per-game", "2",
                  "--data", str(d)], ["export", "--data", str(d), "-q"]):
        res = run(app, args)
        assert res.exit_code == 0, res.output
    return d


def _labels(at) -> str:
    cols = [c for d in at.dataframe for c in d.value.columns]
    return " ".join([*cols, *(s.value for s in at.subheader)])


def test_the_fans_page_of_changsha_speaks_in_units(changsha_export, open_page):
    at = open_page(changsha_export, "fans")
    labels = _labels(at)
    assert "value (points per unit)" in labels and "total (units)" in labels, labels
    assert "flowers" not in labels and "total points" not in labels
    freq = next(d.value for d in at.dataframe if "value (points per unit)" in d.value.columns)
    assert "10 points per unit" in set(freq["value (points per unit)"])  # a small unit is X = 10 (§5)


def test_stats_names_its_columns_for_what_they_count(changsha_export):
    run = CliRunner().invoke
    res = run(app, ["stats", "--data", str(changsha_export), "--by", "ruleset"])
    assert res.exit_code == 0, res.output
    assert "seat-hands" in res.output  # 2 games x 2 hands x 4 seats = 16 rows, not 16 hands
    res = run(app, ["stats", "--data", str(changsha_export), "--fans"])
    assert res.exit_code == 0, res.output
    assert "10 points per unit" in res.output and "│ points" not in res.output
