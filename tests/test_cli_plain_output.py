"""What a user reads holds no Python repr (a newcomer's trial, README + --help only): no
``['W1', …]``, ``{'k': …}``, ``True``/``False``/``None``, ``Literal[...]`` or ``<list[str]>``
— in ``paipu read``, ``verify --as``, the dispute page, ``tournament standings --csv``,
``rulesets --json``, ``players alias`` and every ``--help``."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from cli_run import run
import typer.main

from paipu.cli import app

PMN = "pmn-mahjongsoft.com-74621-1-3"  # MCR, two winners on one discard, options {"multiple_winners": "all"}
PY_REPR = re.compile(r"\b(None|True|False)\b|\['|\{'|': ")


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("plain") / "paipu-data"
    assert run("quickstart", "--data", d).exit_code == 0
    return d


def test_read_shows_values_in_words(data):
    res = run("read", PMN, "--data", data)
    assert res.exit_code == 0, res.output
    assert not PY_REPR.search(res.output), PY_REPR.search(res.output)
    assert "ruleset_options={multiple_winners=all}" in res.output
    assert "self_drawn=no" in res.output


def test_verify_as_header_names_the_options(data):
    res = run("verify", PMN, "--as", "mcr1998", "--data", data)
    assert not PY_REPR.search(res.output), PY_REPR.search(res.output)
    assert "what-if: mcr {multiple_winners=all} -> mcr1998 {" in res.output


def test_dispute_page_as_recorded_column(data, tmp_path):
    out = tmp_path / "d.html"
    res = run("dispute", PMN, "--out", out, "--as", "mcr1998", "--data", data)
    assert res.exit_code == 0, res.output
    page = out.read_text(encoding="utf-8")
    events = page[page.index("<h2>Events"):]
    assert not re.search(r"\b(None|True|False)\b|\[&#x27;|\{&#x27;", events)
    assert "self_drawn=no" in events


def test_standings_csv_writes_true_false_as_words(data, tmp_path):
    assert run("tournament", "create", "cup", "--data", data).exit_code == 0
    assert run("tournament", "add-game", "cup", PMN, "--data", data).exit_code == 0
    out = tmp_path / "s.csv"
    res = run("tournament", "standings", "cup", "--csv", out, "--data", data)
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert rows and {r["provisional"] for r in rows} == {"false"}


def test_rulesets_json_types_are_json_types():
    got = json.loads(run("rulesets", "--json").output)
    kinds = {o["type"] for r in got for o in r["options"]}
    assert kinds <= {"string", "integer", "boolean", "array", "object", "number", "integer | null"}, kinds
    mcr = next(r for r in got if r["id"] == "mcr")
    mw = next(o for o in mcr["options"] if o["option"] == "multiple_winners")
    # README: multiple_winners (first_only | all)
    assert sorted(mw["allowed"]) == ["all", "first_only"] and mw["type"] == "string"
    one = json.loads(run("rulesets", "mcr", "--json").output)
    assert not any("Literal" in o["type"] for o in one["options"])
    assert '(one of "first_only", "all")' in run("rulesets", "mcr").output


def test_players_alias_output_has_no_repr(data):
    res = run("players", "alias", "Player0", "Player 0", "--data", data)
    assert res.exit_code == 0, res.output
    assert res.output.startswith('"Player0" → "Player 0"; 1 alias ') and "'" not in res.output


def _commands(group, path=()):
    for name, cmd in group.commands.items():
        if hasattr(cmd, "commands"):
            yield from _commands(cmd, (*path, name))
        else:
            yield (*path, name)


@pytest.mark.parametrize("cmd", sorted(_commands(typer.main.get_command(app))), ids=" ".join)
def test_help_names_values_in_words(cmd):
    res = run(*cmd, "--help")
    assert res.exit_code == 0, res.output
    # Typer's own words for value types (help texts may still write paths like <data>/parquet)
    typer_types = re.compile(r"<(str|int|float|bool|path|file|directory|text|uuid|datetime|[a-z]+ range"
                             r"|list\[[^>]*\]|tuple\[[^>]*\])>")
    assert not typer_types.search(res.output), typer_types.search(res.output)
    usage = res.output.splitlines()[0]
    assert usage.startswith("Usage: paipu ") and not re.search(r"\{[a-z_]+\}", usage), usage
