"""The ``paipu`` command line end to end on real SQLite files.

Expected counts come from the sample READMEs and source files, not from paipu's output:
Botzone text sample: 16 games (14 wins, 2 draws); Botzone judge logs: 7 games (6 of them
name a winner in a `"fan"` record, 1 has none); PMN: 1 game with two winners on one discard.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paipu.cli import app
from eventlog import tiles as T
from paipu.samples import sample_files

runner = CliRunner()


def run(*args: str, data: Path | None = None):
    argv = list(args) + (["--data", str(data)] if data is not None else [])
    return runner.invoke(app, argv, catch_exceptions=False)


def _source_counts() -> tuple[int, int, int]:
    """(games, wins, draws) read straight from the sample files."""
    games = wins = draws = 0
    for f in sample_files():
        text = f.read_text(encoding="utf-8", errors="replace")
        if f.suffix == ".txt":
            games += len(re.findall(r"^Match ", text, re.M))
            wins += len(re.findall(r"^Player \d Hu", text, re.M))
            draws += len(re.findall(r"^Huang", text, re.M))
        elif f.suffix in (".json", ".log"):
            games += 1
            if '"fan"' in text:
                wins += 1
            else:
                draws += 1
        elif f.suffix == ".pmn":
            games += 1
            wins += 2  # "M1M3": two winners on one discard
    return games, wins, draws


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    data = tmp_path_factory.mktemp("qs") / "paipu-data"
    first = run("quickstart", data=data)
    return data, first


def test_quickstart_imports_verifies_and_summarises(quick):
    data, res = quick
    assert res.exit_code == 0, res.output
    games, wins, draws = _source_counts()
    assert (games, wins, draws) == (24, 22, 3)
    out = res.output
    assert re.search(rf"games\s*│\s*{games} \(mcr: {games}\); {games} newly stored, 0 already", out), out
    assert re.search(rf"hash chains\s*│\s*{games} of {games} intact", out)
    assert re.search(rf"wins\s*│\s*{wins} ", out)
    assert re.search(rf"exhaustive draws\s*│\s*{draws}", out)
    assert "biggest hand:" in out
    assert (data / "events.sqlite").exists()


def test_quickstart_twice_stores_nothing_twice(quick):
    data, _ = quick
    before = sqlite3.connect(data / "events.sqlite").execute("select count(*) from events").fetchone()[0]
    res = run("quickstart", data=data)
    assert res.exit_code == 0
    assert "0 newly stored, 24 already stored" in res.output
    after = sqlite3.connect(data / "events.sqlite").execute("select count(*) from events").fetchone()[0]
    assert before == after


def test_quickstart_on_a_damaged_log_names_the_game_and_exits_3(quick, tmp_path):
    """README exit statuses: 3 = the log is damaged (as `paipu verify` says on the same copy)."""
    data, _ = quick
    copy = tmp_path / "copy"
    copy.mkdir()
    con = sqlite3.connect(data / "events.sqlite")
    con.execute(f"VACUUM INTO '{copy / 'events.sqlite'}'")
    con.close()
    con = sqlite3.connect(copy / "events.sqlite")
    for (t,) in con.execute("select name from sqlite_master where type='trigger'").fetchall():
        con.execute(f"drop trigger {t}")
    con.execute("delete from events where game_id = 'botzone-61602cb45ddc087351c04358' and seq = 5")
    con.commit()
    con.close()
    res = run("quickstart", data=copy)
    assert res.exit_code == 3, res.output
    games, _wins, _draws = _source_counts()
    assert re.search(rf"hash chains\s*│\s*{games - 1} of {games} intact", res.output), res.output
    assert "chain BROKEN in botzone-61602cb45ddc087351c04358" in res.output


def test_games_and_read_json_carry_seq_position_and_hashes(quick):
    data, _ = quick
    res = run("games", data=data)
    assert res.exit_code == 0 and "24 games" in res.output
    res = run("read", "botzone-61602cb45ddc087351c04358", "--json", data=data)
    assert res.exit_code == 0
    lines = [json.loads(l) for l in res.output.splitlines()]
    assert [l["seq"] for l in lines] == list(range(len(lines)))
    assert lines[0]["type"] == "game_started"
    assert all(l["prev_hash"] == p["hash"] for p, l in zip(lines, lines[1:]))
    # Source line 1 of the text sample: "Match 61602cb45ddc087351c04358"; first deal on line 3.
    dealt = [l for l in lines if l["type"] == "tiles_dealt"]
    assert dealt[0]["payload"]["tiles"] == "T8 B7 T1 W6 B8 W9 J1 T9 B2 W3 T6 F4 W9".split()


def test_replay_shows_the_table_and_hides_other_seats(quick):
    data, _ = quick
    # Source: seat 0 is dealt "T8 B7 T1 W6 B8 W9 J1 T9 B2 W3 T6 F4 W9" (13 tiles).
    res = run("replay", "botzone-61602cb45ddc087351c04358", "--at", "4", "--seat", "1", data=data)
    assert res.exit_code == 0, res.output
    assert "13 tiles" in res.output  # seat 0 hidden behind tile backs
    res = run("replay", "botzone-61602cb45ddc087351c04358", "--at", "4", data=data)
    assert "B2 B7 B8" in res.output.replace("\n", " ") or "B2 B7" in res.output
    res = run("replay", "botzone-61602cb45ddc087351c04358", "--at", "99999", data=data)
    assert res.exit_code == 2 and "has no event 99999" in res.output


def test_verify_catches_a_tampered_byte(tmp_path, quick):
    src, _ = quick
    data = tmp_path / "copy"
    data.mkdir()
    con = sqlite3.connect(src / "events.sqlite")
    con.execute(f"VACUUM INTO '{data / 'events.sqlite'}'")
    con.close()
    assert run("verify", "-q", data=data).exit_code in (0, 1)  # findings are allowed here
    con = sqlite3.connect(data / "events.sqlite")
    triggers = [r[0] for r in con.execute("select name from sqlite_master where type='trigger'")]
    for t in triggers:
        con.execute(f"drop trigger {t}")
    cols = [r[1] for r in con.execute("pragma table_info(events)")]
    pcol = "payload" if "payload" in cols else next(c for c in cols if "payload" in c)
    gid = "botzone-61602cb45ddc087351c04358"
    con.execute(
        f"update events set {pcol} = replace({pcol}, 'T8', 'T7') where game_id = ? and seq = 2", (gid,)
    )
    con.commit()
    con.close()
    res = run("verify", gid, data=data)
    assert res.exit_code == 3  # integrity (a damaged log), apart from rule findings (1)
    assert "BROKEN at seq 2" in res.output


def test_append_and_expected_version_conflict(tmp_path):
    data = tmp_path / "d"
    events = tmp_path / "g.jsonl"
    events.write_text(
        json.dumps({"event_id": "00000000-0000-4000-8000-000000000001", "type": "game_started",
                    "payload": {"ruleset": "mcr", "players": ["a", "b", "c", "d"]}}) + "\n"
    )
    assert run("append", "g1", str(events), "--expected-version", "no_stream", data=data).exit_code == 0
    again = run("append", "g1", str(events), data=data)
    assert again.exit_code == 0 and "already stored" in again.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"event_id": "00000000-0000-4000-8000-000000000002", "type": "tile_drawn",
                               "payload": {"seat": 7}}) + "\n")
    res = run("append", "g1", str(bad), data=data)
    assert res.exit_code == 2 and f"{bad}:1" in res.output and "payload.seat" in res.output


def test_ingest_reports_bad_input_and_keeps_the_rest(tmp_path):
    data = tmp_path / "d"
    fixtures = Path(__file__).parent / "ingest" / "fixtures"
    res = run("ingest", str(fixtures / "bad_tile.txt"), data=data)
    assert res.exit_code == 1
    assert "bad_tile.txt:" in res.output
    # An unrecognised file is an error for that file only: the good file beside it loads.
    res = run("ingest", str(fixtures / "unknown_format.txt"), str(fixtures / "one_game.txt"), data=data)
    assert res.exit_code == 1
    assert "1 game stored" in res.output
    assert "unknown_format.txt" in res.output and "botzone-text" in res.output
    empty = tmp_path / "empty.pmn"
    empty.write_text("")
    res = run("ingest", "--format", "pmn", str(empty), data=data)
    assert res.exit_code == 1 and f"{empty}: empty file" in res.output  # said as it is, not "no game found"


def test_a_renamed_copy_of_an_imported_file_is_already_stored(tmp_path):
    data = tmp_path / "d"
    original = next(f for f in sample_files() if f.suffix == ".pmn")
    copy = tmp_path / "renamed.pmn"
    copy.write_bytes(original.read_bytes())
    assert "1 game stored" in run("ingest", str(original), data=data).output
    res = run("ingest", str(copy), data=data)
    assert res.exit_code == 0 and "0 games stored" in res.output and "1 already stored" in res.output


def test_findings_keep_their_rule_id_and_output_is_not_wrapped(quick):
    data, _ = quick
    res = run("verify", "pmn-mahjongsoft.com-74621-1-3", data=data)
    assert res.exit_code == 1
    # Source "Result" line: -32 36 -8 36; two MCR wins of 12 fans each settle to -40 28 -16 28.
    line = next(l for l in res.output.splitlines() if "finding:" in l)
    assert "[reported_score_mismatch]" in line and "[-32, 36, -8, 36]" in line and "[-40, 28, -16, 28]" in line


def test_score_vectors_and_single_hand(tmp_path):
    vec = Path(__file__).parent / "data" / "mcr" / "fan_vectors.jsonl"
    cases = [json.loads(l) for l in vec.read_text(encoding="utf-8").splitlines()[:40]]
    sub = tmp_path / "v.jsonl"
    sub.write_text("".join(json.dumps(c) + "\n" for c in cases))
    out = tmp_path / "out.jsonl"
    assert run("score", "--ruleset", "mcr", "--vectors", str(sub), "--out", str(out)).exit_code == 0
    got = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()]
    assert [g["id"] for g in got] == [c["id"] for c in cases]
    for c, g in zip(cases, got):
        exp = c["expected"]
        if exp["meets_8_fan_minimum"]:
            assert g["total"] == exp["total"], c["id"]
            assert [f["name_zh"] for f in g["fans"]] == [f["name_zh"] for f in exp["fans"]]
        else:
            assert "8-fan minimum" in g["error"], c["id"]
    # Nine Gates (九莲宝灯) on W5: 88, plus Two Concealed Pungs and Pung of Terminals (README note 3).
    res = run("score", "--hand", "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9", "--win", "W5", "--json")
    obj = json.loads(res.output)
    assert obj["total"] == 88 + 2 + 1
    res = run("score", "--hand", "123m", "--win", "W4")
    assert res.exit_code == 2 and "13" in res.output


def test_replay_seat_view_hides_other_seats_tiles_in_the_event(quick):
    """A seat view shows the event as that seat sees it (DESIGN.md §6): seat 0's dealt tiles
    (source: "T8 B7 T1 W6 B8 W9 J1 T9 B2 W3 T6 F4 W9") and its draw at event 6 are hidden
    from seat 1 — in the event line, its words and the --json payload — and shown to seat 0."""
    data, _ = quick
    gid = "botzone-61602cb45ddc087351c04358"
    res = run("replay", gid, "--at", "2", "--seat", "1", data=data)
    assert res.exit_code == 0, res.output
    assert "T8" not in res.output and "B7" not in res.output
    out = json.loads(run("replay", gid, "--at", "2", "--seat", "1", "--json", data=data).output)
    assert out["event"]["type"] == "tiles_dealt" and out["event"]["payload"]["tiles"] == []
    own = json.loads(run("replay", gid, "--at", "2", "--seat", "0", "--json", data=data).output)
    assert own["event"]["payload"]["tiles"][:2] == ["T8", "B7"]
    drawn = json.loads(run("replay", gid, "--at", "6", "--json", data=data).output)
    assert drawn["event"]["type"] == "tile_drawn" and drawn["event"]["payload"]["seat"] == 0
    tile = drawn["event"]["payload"]["tile"]
    hidden = json.loads(run("replay", gid, "--at", "6", "--seat", "1", "--json", data=data).output)
    assert hidden["event"]["payload"]["tile"] is None
    assert tile not in hidden["event"]["text_en"] and "draws a tile" in hidden["event"]["text_en"]
    res = run("replay", gid, "--at", "6", "--seat", "1", data=data)
    assert f"tile={T.to_unicode(tile)}" not in res.output and "draws a tile" in res.output


def test_replay_json_last_event_of_a_real_game_is_game_over(quick):
    """game_ended ends the game (DESIGN.md §6): at the last event of a bundled real game (one
    hand, not a full schedule) the state says game_over, as the phase does."""
    data, _ = quick
    out = json.loads(run("replay", "botzone-61602cb45ddc087351c04358", "--json", data=data).output)
    assert out["event"]["type"] == "game_ended"
    assert out["state"]["phase"] == "game_over" and out["state"]["game_over"] is True
