"""Text from a log is printed as written, never read as Rich markup: a user trial saw
``players=`` blank in ``paipu read`` (``[greedy-0, …]`` taken for a style tag) and a player
name may carry ``[bold red]…[/]``. Names from the log go through ``paipu read``, ``paipu
replay`` (the table) and ``paipu games`` unchanged."""

from __future__ import annotations

from typer.testing import CliRunner

from eventlog import events as ev
from paipu.cli import app

NAMES = ["[bold red]x[/]", "[greedy-0]", "[link=http://example.invalid]c[/link]", "d[/]"]
runner = CliRunner()


def _run(*args: str):
    res = runner.invoke(app, list(args), catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return res.output


def test_player_names_with_brackets_are_printed_as_written(tmp_path):
    f = tmp_path / "g.jsonl"
    first = ev.NewEvent.of(ev.GameStarted(ruleset="mcr", players=NAMES), id_seed="markup/0")
    f.write_text(first.model_dump_json() + "\n", encoding="utf-8")
    d = str(tmp_path / "data")
    _run("append", "mk", str(f), "--data", d)
    read = _run("read", "mk", "--data", d)
    assert "players=[" + ", ".join(NAMES) + "]" in read, read
    table = _run("replay", "mk", "--data", d)
    for name in NAMES:
        assert name in table, (name, table)
    assert "mk" in _run("games", "--data", d)
