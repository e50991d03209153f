"""Input that is not one whole, readable game is refused with file, line and why — nothing
of it stored (README "a game is stored whole or not at all"). Found by a new user:

* a PMN record cut inside its ``Play`` was stored as a finished hand with an invented
  exhaustive draw (competition.md "荒牌: after the 144th tile is drawn and discarded and
  nobody wins": a hand with tiles left in the wall and no win is not over);
* a JSON Lines file whose first line is repeated stored a one-event stub, and then the
  right file was refused as another game;
* loose values: ``seat: true`` read as seat 1, ``initial_scores: [1.0, …]``, a Botzone
  match page whose ``status`` is ``running``, a Botzone fan count of 20 digits kept as part
  of the fan's name.

Real SQLite stores, the real CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cli_run import run
from ingest_helpers import JSON_DIR, SAMPLES_DIR, TEXT_SAMPLE

from eventlog.hashing import canonical_text
from eventlog.store import open_store

PMN = SAMPLES_DIR / "pmn-python-majiang" / "mahjongsoft_duplicate_mcr_session74621_game1_table3.pmn"


def _refused(data: Path, path: Path) -> str:
    """``paipu ingest`` of ``path`` fails (exit 1), stores nothing and says why: the error line."""
    res = run("ingest", "--data", data, path)
    assert res.exit_code == 1 and "0 games stored (0 events)" in res.output, res.output
    (err,) = [ln for ln in res.output.splitlines() if ln.startswith("error: ")]
    return err


# ---------------------------------------------------------------- PMN: a Play cut off


def test_a_pmn_play_cut_off_is_refused_not_drawn(tmp_path):
    text = PMN.read_text(encoding="utf-8").replace("table=3", "table=6")
    cut = re.sub(r'\[Play "(.{100}).*', r'[Play "\1"]', text)
    assert cut != text
    f = tmp_path / "cut.pmn"
    f.write_text(cut, encoding="utf-8")
    play_line = next(i for i, ln in enumerate(cut.splitlines(), 1) if ln.startswith("[Play"))
    err = _refused(tmp_path / "data", f)
    assert err.startswith(f"error: {f}:{play_line}: ") and "still in the wall" in err and "cut off" in err, err


def test_a_pmn_play_cut_after_a_whole_token_is_refused_too(tmp_path):
    # cut at a token boundary (nothing unreadable left): only the wall says it is cut off
    text = PMN.read_text(encoding="utf-8")
    play = re.search(r'\[Play "(.*)"\]', text).group(1)
    tokens = re.findall(r"[TDCPABZR][0-3][a-z]\d|[HMN][0-3]", play)
    f = tmp_path / "cut.pmn"
    f.write_text(text.replace(play, "".join(tokens[:-4])), encoding="utf-8")
    assert "still in the wall" in _refused(tmp_path / "data", f)


def test_the_bundled_pmn_record_still_imports(tmp_path):
    res = run("ingest", "--data", tmp_path / "data", PMN)
    assert res.exit_code == 0 and "1 game stored" in res.output, res.output


# ---------------------------------------------------------------- JSON Lines: one game twice


def _simulated(tmp_path: Path) -> Path:
    out = tmp_path / "t.jsonl"
    res = run("simulate", "--games", 1, "--seed", 3, "--hands-per-game", 1, "--out", out)
    assert res.exit_code == 0, res.output
    return out


def test_a_repeated_first_line_refuses_the_game_and_the_right_file_then_stores(tmp_path):
    t = _simulated(tmp_path)
    lines = t.read_text(encoding="utf-8").splitlines(keepends=True)
    two = tmp_path / "two.jsonl"
    two.write_text(lines[0] + "".join(lines), encoding="utf-8")
    data = tmp_path / "data"
    err = _refused(data, two)
    assert err.startswith(f"error: {two}:2: game_started again (the game started at line 1)"), err
    res = run("ingest", "--data", data, t)
    assert res.exit_code == 0 and "1 game stored" in res.output, res.output


def test_a_repeated_first_line_without_game_ids_is_refused(tmp_path):
    t = _simulated(tmp_path)
    rows = [json.loads(ln) for ln in t.read_text(encoding="utf-8").splitlines()]
    for r in rows:
        del r["game_id"]
    two = tmp_path / "noid.jsonl"
    two.write_text("".join(json.dumps(r) + "\n" for r in [rows[0], *rows]), encoding="utf-8")
    assert f"{two}:2: game_started again" in _refused(tmp_path / "data", two)


def test_a_game_resumed_after_another_games_lines_is_refused(tmp_path):
    t = _simulated(tmp_path)
    lines = t.read_text(encoding="utf-8").splitlines(keepends=True)
    other = tmp_path / "o.jsonl"
    assert run("simulate", "--games", 1, "--seed", 4, "--hands-per-game", 1, "--out", other).exit_code == 0
    mixed = tmp_path / "mixed.jsonl"
    others = other.read_text(encoding="utf-8").splitlines(keepends=True)
    mixed.write_text("".join(lines + others + lines[-1:]), encoding="utf-8")
    res = run("ingest", "--data", tmp_path / "data", mixed)
    assert res.exit_code == 1 and "1 game stored" in res.output, res.output  # the other game
    line = len(lines) + len(others) + 1
    # both runs of the split game are refused: nothing of it is stored
    assert f"error: {mixed}:1: game sim-mcr-3-9052522d-000000 goes on at line {line}, after another game's lines" \
        in res.output, res.output
    assert f"error: {mixed}:{line}: game sim-mcr-3-9052522d-000000 again, after another game's lines" in res.output


# ---------------------------------------------------------------- loose values


def _edited_jsonl(tmp_path: Path, name: str, edit) -> tuple[Path, int]:
    t = _simulated(tmp_path)
    rows = [json.loads(ln) for ln in t.read_text(encoding="utf-8").splitlines()]
    i = edit(rows)
    f = tmp_path / name
    f.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return f, i + 1


def test_a_boolean_seat_is_refused(tmp_path):
    def edit(rows):
        i = next(i for i, r in enumerate(rows) if r["type"] == "tile_discarded" and r["payload"]["seat"] == 1)
        rows[i]["payload"]["seat"] = True
        return i

    f, line = _edited_jsonl(tmp_path, "seat.jsonl", edit)
    err = _refused(tmp_path / "data", f)
    assert err.startswith(f"error: {f}:{line}: tile_discarded: payload.seat: must be a whole number, got True"), err


def test_float_initial_scores_are_refused(tmp_path):
    def edit(rows):
        rows[0]["payload"]["initial_scores"] = [1.0, 0, 0, 0]
        return 0

    f, line = _edited_jsonl(tmp_path, "scores.jsonl", edit)
    err = _refused(tmp_path / "data", f)
    assert err.startswith(f"error: {f}:1: game_started: payload.initial_scores[0]: must be a whole number, got 1.0"), err


def test_valid_events_keep_their_bytes(tmp_path):
    # the strict integers refuse only what JSON did not write as an integer: a valid game's
    # stored payloads are, byte for byte, the simulator's own export
    t = _simulated(tmp_path)
    data = tmp_path / "data"
    assert run("ingest", "--data", data, t).exit_code == 0
    store = open_store(data)
    try:
        (info,) = store.list_games()
        stored = [(e.type, canonical_text(e.payload_json())) for e in store.read_game(info.game_id)]
    finally:
        store.close()
    written = [(r["type"], canonical_text(r["payload"]))
               for r in map(json.loads, t.read_text(encoding="utf-8").splitlines())]
    assert stored == written


def test_a_botzone_match_still_running_is_refused(tmp_path):
    lite = JSON_DIR / "6a20231658ebe27b197daaa8_lite.json"
    text = lite.read_text(encoding="utf-8")
    assert '"status":"finished"' in text
    f = tmp_path / "6a20231658ebe27b197daaa8_lite.json"
    f.write_text(text.replace('"status":"finished"', '"status":"running"'), encoding="utf-8")
    err = _refused(tmp_path / "data", f)
    assert err.startswith(f"error: {f}:1: the match's status is 'running', not 'finished'"), err


def test_a_botzone_fan_count_that_is_no_count_is_refused(tmp_path):
    lines = TEXT_SAMPLE.read_text(encoding="utf-8").splitlines()
    block = lines[: lines.index("", 1)]
    k = next(i for i, t in enumerate(block) if t.startswith("Fan ") and "*1" in t)
    block[k] = block[k].replace("*1", "*99999999999999999999", 1)
    f = tmp_path / "fan.txt"
    f.write_text("\n".join(block) + "\n", encoding="utf-8")
    err = _refused(tmp_path / "data", f)
    assert err.startswith(f"error: {f}:{k + 1}: Fan: ") and "'99999999999999999999'" in err, err
