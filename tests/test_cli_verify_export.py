"""Issue 19: ``paipu verify --export`` checks, audits and exports each new game from one
read and one replay — with the same report as ``paipu verify`` and the same Parquet bytes
as ``paipu export``; ``paipu ingest --quiet`` prints the summary only."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from paipu.cli import app
from paipu.samples import sample_files

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def _parquet(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.rglob("*.parquet"))}


def test_verify_with_export_equals_verify_then_export(tmp_path):
    one = tmp_path / "one"
    res = run("ingest", *map(str, sample_files()), "--data", str(one), "--quiet")
    assert res.exit_code == 0 and res.output.strip().splitlines() == [
        "24 games stored (2683 events), 0 already stored, 0 errors"]
    two = tmp_path / "two"
    shutil.copytree(one, two)

    plain = run("verify", "--data", str(one), "--json")
    assert run("export", "--data", str(one), "--quiet").exit_code == 0
    shared = run("verify", "--export", "--data", str(two), "--json")

    assert plain.exit_code == shared.exit_code == 1  # the PMN game's true finding, as verify says
    a, b = json.loads(plain.stdout), json.loads(shared.stdout)
    assert a["summary"] == b["summary"] and a["log"] == b["log"]
    assert sorted(a["games"], key=lambda g: g["game_id"]) == sorted(b["games"], key=lambda g: g["game_id"])
    assert _parquet(one / "parquet") == _parquet(two / "parquet") != {}

    again = run("verify", "--export", "--data", str(two), "--json")  # nothing new to export
    assert json.loads(again.stdout)["summary"] == b["summary"]
    assert _parquet(two / "parquet") == _parquet(one / "parquet")


def test_verify_export_json_carries_the_export_report_as_export_json_gives_it(tmp_path):
    # breaker9 F18: `verify --export --json` left the export's report out of the JSON; it is
    # under "export", with the fields of `paipu export --json` (README: one pass instead of
    # `verify` then `export`)
    one, two = tmp_path / "one", tmp_path / "two"
    assert run("ingest", *map(str, sample_files()), "--data", str(one), "--quiet").exit_code == 0
    shutil.copytree(one, two)
    alone = json.loads(run("export", "--data", str(one), "--json").stdout)
    shared = run("verify", "--export", "--data", str(two), "--json")
    got = json.loads(shared.stdout)
    assert sorted(got) == ["export", "games", "log", "log_streams", "summary"]
    mine = got["export"]
    assert sorted(mine) == sorted(alone)
    for key in ("games", "hands", "reexported", "unfinished", "skipped", "damaged", "rows", "checkpoint",
                "previous_checkpoint"):
        assert mine[key] == alone[key], key
    assert mine["out"] == str(two / "parquet") and alone["out"] == str(one / "parquet")
    assert "0 re-exported" in shared.stderr  # the stderr line as `paipu export` words it
