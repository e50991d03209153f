"""Small CLI findings of a user trial (each a real store in tmp_path, the CLI through
CliRunner or a subprocess): the exit status with --debug, the stored game an ingest
duplicate matched, ``read --from`` past the end, and ``verify`` checking the ids first.
Expected exit statuses come from the README's "Exit status" table (2 = could not run)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paipu.cli import app
from paipu.samples import SAMPLES_DIR

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = SAMPLES_DIR / "botzone-mcr-human-sample" / "sample_16_games.txt"
runner = CliRunner()


def _run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def _first_match() -> tuple[str, list[str]]:
    """The id and lines of the sample's first ``Match`` block."""
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    starts = [i for i, l in enumerate(lines) if l.startswith("Match ")]
    block = lines[starts[0]:starts[1]]
    return block[0].split()[1], block


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("fixa") / "paipu-data"
    _, block = _first_match()
    f = d.parent / "one.txt"
    f.write_text("\n".join(block) + "\n", encoding="utf-8")
    res = _run("ingest", str(f), "--data", str(d))
    assert res.exit_code == 0, res.output
    return d


def test_debug_keeps_the_exit_status_and_shows_the_traceback(data):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for debug in ([], ["--debug"]):
        p = subprocess.run([sys.executable, "-m", "paipu", *debug, "replay", "nosuch", "--data", str(data)],
                           capture_output=True, text=True, env=env, timeout=120)
        assert p.returncode == 2, (debug, p.returncode, p.stderr)
        assert "error: no such game: 'nosuch'" in p.stderr
        assert ("Traceback" in p.stderr) == bool(debug), p.stderr


def test_a_duplicate_names_the_stored_game_it_matched(tmp_path):
    # a _lite.json renamed away from its match id reads as botzone-anon-…: the same game,
    # already stored under its match id
    data = tmp_path / "data"
    lite = SAMPLES_DIR / "botzone-mcr-matchlog-json" / "6a20231658ebe27b197daaa8_lite.json"
    assert _run("ingest", str(lite), "--data", str(data)).exit_code == 0
    renamed = tmp_path / "game.json"
    renamed.write_bytes(lite.read_bytes())
    res = _run("ingest", str(renamed), "--data", str(data))
    assert res.exit_code == 0, res.output
    assert "0 games stored (0 events), 1 already stored (as botzone-6a20231658ebe27b197daaa8)" in res.output, res.output


def test_the_same_actions_under_another_match_id_are_another_match(tmp_path):
    # docs/events.md "Same game": a Botzone match is named by its id (the game's source)
    game_id, block = _first_match()
    data = tmp_path / "data"
    first = tmp_path / "one.txt"
    first.write_text("\n".join(block) + "\n", encoding="utf-8")
    assert "1 game stored" in _run("ingest", str(first), "--data", str(data)).output
    other = tmp_path / "testenc.txt"
    other.write_text("\n".join(["Match testenc", *block[1:]]) + "\n", encoding="utf-8")
    res = _run("ingest", str(other), "--data", str(data))
    assert res.exit_code == 0, res.output
    assert "1 game stored" in res.output and "0 already stored" in res.output, res.output


def test_read_from_past_the_end_says_so_like_replay_at(data):
    game = f"botzone-{_first_match()[0]}"
    replay = _run("replay", game, "--at", "99999", "--data", str(data))
    read = _run("read", game, "--from", "99999", "--data", str(data))
    assert read.exit_code == replay.exit_code == 2, read.output
    last = replay.output.split("events 0..")[1].split(")")[0]
    assert f"game {game} has no event 99999 (events 0..{last})" in read.output, read.output
    assert _run("read", game, "--from", last, "--data", str(data)).exit_code == 0


def test_verify_checks_the_ids_before_any_game(data):
    game = f"botzone-{_first_match()[0]}"
    res = _run("verify", game, "nosuch", "--data", str(data))
    assert res.exit_code == 2, res.output
    assert "no such game: 'nosuch'" in res.output
    assert game not in res.output  # not checked first
    two = _run("verify", "nosuch", game, "nosuch2", "--data", str(data))
    assert two.exit_code == 2 and "'nosuch', 'nosuch2'" in two.output, two.output


def test_export_notices_a_deleted_or_cut_part_file_and_rebuilds_it(data, tmp_path):
    """README: "a damaged or missing file is named with the command that rebuilds it"; a
    trial deleted wins/ruleset=mcr/*.parquet and got "exported 0 games", exit 0."""
    out = tmp_path / "parquet"
    first = _run("export", "--data", str(data), "--out", str(out))
    assert first.exit_code == 0 and "exported 1 game " in first.output, first.output
    (wins,) = sorted((out / "wins").rglob("*.parquet"))
    written = wins.read_bytes()
    wins.unlink()
    again = _run("export", "--data", str(data), "--out", str(out))
    assert again.exit_code == 0, again.output
    rel = wins.relative_to(out).as_posix()
    assert f"{rel} was missing; rebuilt from the log" in again.output, again.output
    assert wins.read_bytes() == written  # the same bytes (the export is deterministic)
    wins.write_bytes(written[: len(written) // 2])
    cut = _run("export", "--data", str(data), "--out", str(out))
    assert f"{rel} was {len(written) // 2} bytes, written as {len(written)}" in cut.output, cut.output
    assert wins.read_bytes() == written
    quiet = _run("export", "--data", str(data), "--out", str(out))
    assert "repaired" not in quiet.output and "exported 0 games" in quiet.output
