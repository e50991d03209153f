"""A JSON Lines log of stored events (``paipu simulate --out``, an export) with a line missing
is not a log: it cannot be stored renumbered (docs/events.md: ``seq`` is the event's number in
its game, 0, 1, 2 … without gaps). A user trial deleted line 3 of a simulated game and got 4
events stored as seq 0..3 and ``verify`` ok. The importer refuses that game naming the file,
the line and why; the other games of the file are stored."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from eventlog.store import open_store
from paipu.cli import app

runner = CliRunner()


def _run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def _games(data) -> dict[str, list]:
    store = open_store(data, create=False)
    try:
        return {g.game_id: list(store.read_game(g.game_id)) for g in store.list_games()}
    finally:
        store.close()


def test_a_game_with_a_missing_line_is_refused_and_the_others_are_stored(tmp_path):
    sim = tmp_path / "b1.jsonl"
    assert _run("simulate", "--games", "2", "--hands-per-game", "1", "--out", str(sim)).exit_code == 0
    lines = sim.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])["game_id"]
    second_start = next(i for i, l in enumerate(lines) if i and json.loads(l)["type"] == "game_started")
    second = json.loads(lines[second_start])["game_id"]
    assert [json.loads(l)["seq"] for l in lines[:4]] == [0, 1, 2, 3]
    gap = tmp_path / "gap.jsonl"
    gap.write_text("\n".join(lines[:2] + lines[3:5] + lines[second_start:]) + "\n", encoding="utf-8")
    data = tmp_path / "data"
    res = _run("ingest", str(gap), "--data", str(data))
    assert res.exit_code != 0, res.output
    assert "gap.jsonl:3:" in res.output and "seq 3 where 2 was expected" in res.output, res.output
    assert first in res.output
    stored = _games(data)
    assert list(stored) == [second]
    assert len(stored[second]) == len(lines) - second_start


def test_lines_out_of_order_are_refused_and_new_events_without_seq_pass(tmp_path):
    sim = tmp_path / "b1.jsonl"
    assert _run("simulate", "--games", "1", "--hands-per-game", "1", "--out", str(sim)).exit_code == 0
    lines = sim.read_text(encoding="utf-8").splitlines()
    swapped = tmp_path / "swapped.jsonl"
    swapped.write_text("\n".join([lines[0], lines[2], lines[1], *lines[3:]]) + "\n", encoding="utf-8")
    res = _run("ingest", str(swapped), "--data", str(tmp_path / "d1"))
    assert res.exit_code != 0 and "swapped.jsonl:2:" in res.output and "seq 2 where 1 was expected" in res.output
    assert not (tmp_path / "d1").exists() or _games(tmp_path / "d1") == {}
    unnumbered = tmp_path / "new.jsonl"  # new events: no seq, nothing to check
    unnumbered.write_text("\n".join(json.dumps({k: v for k, v in json.loads(l).items() if k != "seq"})
                                    for l in lines) + "\n", encoding="utf-8")
    res = _run("ingest", str(unnumbered), "--data", str(tmp_path / "d2"))
    assert res.exit_code == 0, res.output
    (events,) = _games(tmp_path / "d2").values()
    assert len(events) == len(lines)
