"""Issue 21 item 6: the command-line conventions. ``--json`` on every command that lists or
reports, ``paipu --version`` (the version of pyproject.toml), shell completion (Typer's), and
one meaning per exit status across commands (README "Exit status"): 0 done, 1 done with
problems to read, 2 could not run, 3 damaged log."""

from __future__ import annotations

import json
import sqlite3
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paipu.cli import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False, prog_name="paipu")


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    from eventlog.ingest.load import ingest_files
    from eventlog.store import open_store
    from paipu.samples import sample_files

    d = tmp_path_factory.mktemp("conventions")
    store = open_store(d)
    try:
        ingest_files(store, sample_files()[:1])
    finally:
        store.close()
    return d


def test_version_is_the_package_version():
    want = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    res = run("--version")
    assert res.exit_code == 0 and res.output.strip() == f"paipu {want}"


def test_shell_completion_is_offered(monkeypatch):
    out = run("--help").output
    assert "--install-completion" in out and "--show-completion" in out
    # Typer's --show-completion is a flag that detects the shell of the parent process: a run
    # with no shell above it (a detached job, a service) finds none and exits 1. With detection
    # off the shell is named, as `paipu --show-completion bash` reads in the README.
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    res = run("--show-completion", "bash")
    assert res.exit_code == 0 and "_PAIPU_COMPLETE" in res.output


def test_help_and_readme_give_one_meaning_per_exit_status():
    out = " ".join(run("--help").output.split())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for status in ("0", "1", "2", "3", "130"):
        assert f"{status} = " in out, status
        assert f"| `{status}` |" in readme, status


@pytest.mark.parametrize("cmd", ["games", "verify", "replay", "review", "rulesets", "stats", "read", "export"])
def test_commands_that_list_or_report_have_json(cmd):
    assert "--json" in run(cmd, "--help").output


def test_json_outputs_parse(data):
    games = [json.loads(line) for line in run("games", "--json", "--data", str(data)).output.splitlines()]
    assert games and {"game_id", "ruleset", "events"} <= set(games[0])
    gid = games[0]["game_id"]
    res = run("replay", gid, "--at", "5", "--seat", "1", "--json", "--data", str(data))
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["seq"] == 5 and doc["event"]["text_en"] and doc["event"]["text_zh"]
    assert doc["state"]["seats"][0]["tiles"] == [] and doc["state"]["seats"][1]["tiles"]
    assert doc["state"]["wall"] is None
    assert json.loads(run("verify", gid, "--json", "--data", str(data)).output)["games"][0]["game_id"] == gid
    assert isinstance(json.loads(run("rulesets", "--json").output), list)


def test_exit_2_when_the_command_cannot_run(data):
    assert run("replay", "no-such-game", "--data", str(data)).exit_code == 2
    assert run("replay", "--nonsense").exit_code == 2  # a usage error (Click) is 2 as well
    assert run("games", "--data", str(data / "nowhere")).exit_code == 2
    assert run("stats", "--by", "colour", "--data", str(data)).exit_code == 2


def test_exit_3_when_the_log_is_damaged(data, tmp_path):
    games = [json.loads(line) for line in run("games", "--json", "--data", str(data)).output.splitlines()]
    gid = games[0]["game_id"]
    con = sqlite3.connect(data / "events.sqlite")
    con.execute(f"VACUUM INTO '{tmp_path / 'events.sqlite'}'")
    con.close()
    con = sqlite3.connect(tmp_path / "events.sqlite")
    for (t,) in con.execute("select name from sqlite_master where type='trigger'").fetchall():
        con.execute(f"drop trigger {t}")
    con.execute("update events set payload = replace(payload, '\"seat\":2', '\"seat\":1') "
                "where game_id = ? and seq = 4", (gid,))
    con.commit()
    con.close()
    for args in (("replay", gid), ("read", gid), ("verify", gid)):
        res = runner.invoke(app, [*args, "--data", str(tmp_path)], prog_name="paipu")
        assert res.exit_code == 3, (args, res.output)
