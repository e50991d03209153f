"""``paipu export`` / ``paipu stats`` through Typer, on a real data directory."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from paipu.cli import app as paipu_app
from analytics.queries import Analytics
from analytics_samples import BOTZONE_TEXT, fill, imported_games
from eventlog.store import open_store
from source_counts import read_text_games

DOCS = Path(__file__).resolve().parents[2] / "docs" / "analytics.md"
TEXT_GAMES = read_text_games(BOTZONE_TEXT)


@pytest.fixture(scope="module")
def cli():
    runner = CliRunner()
    return lambda *args: runner.invoke(paipu_app, [str(a) for a in args])


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli") / "data"
    store = open_store(d)
    fill(store, imported_games([BOTZONE_TEXT]))
    store.close()
    return d


def test_export_then_stats_json(cli, data_dir):
    res = cli("export", "--data", data_dir)
    assert res.exit_code == 0, res.output
    assert "exported 16 games (16 hands" in res.output
    assert (data_dir / "parquet" / "_manifest.json").exists()
    res = cli("stats", "--data", data_dir, "--by", "seat", "--json")
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)
    wins = [sum(g.winner == s for g in TEXT_GAMES) for s in range(4)]
    deal_ins = [sum(g.dealt_in == s for g in TEXT_GAMES) for s in range(4)]
    assert [(r["seat"], r["hands"], r["wins"], r["deal_ins"]) for r in rows] == [
        (s, 16, wins[s], deal_ins[s]) for s in range(4)]
    for key in ("self_draws", "win_rate", "win_rate_ci_low", "win_rate_ci_high", "self_draw_rate",
                "self_draw_rate_ci_low", "self_draw_rate_ci_high", "deal_in_rate", "deal_in_rate_ci_low",
                "deal_in_rate_ci_high", "avg_points_won"):
        assert key in rows[0]
    again = cli("export", "--data", data_dir, "--json")
    assert json.loads(again.output)["games"] == 0


def test_stats_tables_and_fans(cli, data_dir):
    assert cli("export", "--data", data_dir).exit_code == 0
    res = cli("stats", "--data", data_dir, "--by", "ruleset")
    assert res.exit_code == 0 and "mcr" in res.output
    res = cli("stats", "--data", data_dir, "--fans", "--json")
    fans = json.loads(res.output)
    top = fans[0]
    assert (top["name_en"], top["name_zh"], top["wins_with_fan"]) == ("All Chows", "平和", 6)
    assert top["share_of_wins"] == pytest.approx(6 / 14)


def test_errors_are_one_line(cli, data_dir, tmp_path):
    res = cli("stats", "--data", tmp_path / "empty")
    assert res.exit_code == 2
    assert "no analytics export" in res.output and "paipu export" in res.output
    res = cli("stats", "--data", data_dir, "--by", "colour")
    assert res.exit_code == 2 and "--by must be one of" in res.output
    res = cli("stats", "--data", data_dir, "--from", "yesterday")
    assert res.exit_code == 2 and "YYYY-MM-DD" in res.output
    res = cli("export", "--data", tmp_path / "no-log")
    assert res.exit_code == 2 and "no event store" in res.output


def test_damaged_file_names_the_file_and_the_repair(cli, data_dir):
    assert cli("export", "--data", data_dir).exit_code == 0
    victim = sorted((data_dir / "parquet" / "seat_results").rglob("part-*.parquet"))[0]
    good = victim.read_bytes()
    victim.write_bytes(good[:-10])
    res = cli("stats", "--data", data_dir)
    assert res.exit_code == 2
    flat = "".join(res.output.split())  # Rich wraps long lines, even inside a file name
    assert victim.name in flat and "paipuexport--repair" in flat
    res = cli("export", "--data", data_dir, "--repair")
    assert res.exit_code == 0, res.output
    assert victim.read_bytes() == good


def test_doc_duckdb_snippets_run(data_dir, cli):
    """The plain-DuckDB SQL in docs/analytics.md runs on an export and agrees with paipu."""
    assert cli("export", "--data", data_dir).exit_code == 0
    text = DOCS.read_text(encoding="utf-8").split("## Plain DuckDB", 1)[1]
    blocks = re.findall(r"```sql\n(.*?)```", text, re.S)[:2]
    out = str(data_dir / "parquet")
    players = duckdb.sql(blocks[0].replace("paipu-data/parquet", out)).fetchall()
    with Analytics.open(out) as a:
        expected = [(r["player"], r["hands"], r["win_rate"], r["deal_in_rate"]) for r in a.seat_stats("player")]
        fans = a.fan_frequency()
    assert [(p, n, pytest.approx(w), pytest.approx(d)) for p, n, w, d in players] == expected
    top = duckdb.sql(blocks[1].replace("paipu-data/parquet", out)).fetchall()
    assert [(r[0], r[2]) for r in top] == [(r["name_en"], r["wins_with_fan"]) for r in fans[:10]]
