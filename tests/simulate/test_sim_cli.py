"""``paipu simulate`` (paipu/cli/simulate.py) on real files and a real SQLite store."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from eventlog.events import NewEvent, uuid5_text
from eventlog.store import NO_STREAM, open_store
from replayer.replay import run
from paipu.cli import app

runner = CliRunner()


def sim(*args: str):
    return runner.invoke(app, ["simulate", *args], catch_exceptions=False)


def test_same_seed_same_bytes_with_any_number_of_jobs(tmp_path: Path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    r = sim("--games", "3", "--seed", "9", "--hands-per-game", "1", "--out", str(a))
    assert r.exit_code == 0, r.output
    assert r.output.startswith("3 games, 3 hands, ")
    r = sim("--games", "3", "--seed", "9", "--hands-per-game", "1", "--out", str(b), "--jobs", "2")
    assert r.exit_code == 0, r.output
    assert a.read_bytes() == b.read_bytes()
    lines = [json.loads(x) for x in a.read_text().splitlines()]
    ids = [x["game_id"] for x in lines if x["type"] == "game_started"]
    assert len(ids) == 3 and ids[0].startswith("sim-mcr-9-") and [i[-6:] for i in ids] == ["000000", "000001", "000002"]
    assert len(set(ids)) == 3


def test_games_go_to_the_store_and_replay_without_findings(tmp_path: Path):
    data = tmp_path / "data"
    args = ("--games", "2", "--seed", "3", "--hands-per-game", "1", "--bots", "greedy,random,greedy,random",
            "--data", str(data))
    assert sim(*args).exit_code == 0
    assert sim(*args).exit_code == 0  # the same run again stores nothing twice
    with open_store(data) as store:
        games = store.list_games()
        assert len(games) == 2 and all(g.game_id.startswith("sim-mcr-3-") for g in games)
        for g in games:
            result = run(list(store.read_game(g.game_id)), mode="strict")
            assert result.findings == () and result.state.phase == "game_over"


def test_games_stored_with_the_earlier_uuid5_ids_are_not_written_again(tmp_path: Path):
    """docs/events.md "Event ids": games stored by earlier versions keep their UUID v5 ids
    of "<game id>/<seq>"; the same simulation run again into that store (today's ids)
    stores nothing twice (the log unchanged)."""
    args = ("--games", "2", "--seed", "3", "--hands-per-game", "1")
    jsonl = tmp_path / "g.jsonl"
    assert sim(*args, "--out", str(jsonl)).exit_code == 0
    lines = [json.loads(x) for x in jsonl.read_text().splitlines()]
    data = tmp_path / "data"
    with open_store(data, create=True) as store:
        for gid in sorted({x["game_id"] for x in lines}):
            store.append(gid, [NewEvent(event_id=uuid5_text(f"{gid}/{x['seq']}"), type=x["type"], payload=x["payload"],
                                        metadata=x["metadata"], schema_version=x["schema_version"])
                               for x in lines if x["game_id"] == gid], NO_STREAM)
        head = store.log_head()
    r = sim(*args, "--data", str(data))
    assert r.exit_code == 0 and r.output.startswith("2 games already in") and "nothing written" in r.output, r.output
    with open_store(data) as store:
        assert store.log_head() == head
        assert [g.version for g in store.list_games()] == [sum(x["game_id"] == g.game_id for x in lines) - 1
                                                          for g in store.list_games()]


def test_errors_are_one_line(tmp_path: Path):
    out = str(tmp_path / "x.jsonl")
    for args, text in [
        (("--ruleset", "nope"), "--ruleset nope: unknown ruleset or preset (known: "),
        (("--options", "{bad"), "--options is not JSON"),
        (("--options", "[1]"), "--options must be a JSON object"),
        (("--bots", "greedy,smart,greedy,greedy"), "unknown bot 'smart'"),
        (("--bots", "greedy,random"), "one bot for all seats or four"),
    ]:
        r = sim(*args, "--out", out)
        assert r.exit_code == 2 and text in r.output, (args, r.output)


def test_output_does_not_depend_on_the_interpreter_hash_seed(tmp_path: Path):
    """No iteration over unordered sets reaches the output: two interpreters with different
    PYTHONHASHSEED write the same bytes."""
    import os
    import subprocess
    import sys

    code = ("import sys; from replayer.simulate.engine import SimulationConfig, simulate_game; "
            "sys.stdout.buffer.write(b''.join(simulate_game(SimulationConfig(seed='hash', hands_per_game=1), 0)"
            ".jsonl_lines()))")
    outs = []
    for h in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": h}
        outs.append(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, check=True,
                                   cwd=Path(__file__).resolve().parents[2]).stdout)
    assert outs[0] == outs[1] and len(outs[0]) > 10_000


def test_default_jobs_use_every_core_for_large_runs():
    import os

    from replayer.simulate.run import PARALLEL_SIMULATED_GAMES, default_jobs

    assert default_jobs(1) == default_jobs(PARALLEL_SIMULATED_GAMES - 1) == 1  # no process start for a few games
    assert default_jobs(PARALLEL_SIMULATED_GAMES) == max(1, os.cpu_count() or 1)
