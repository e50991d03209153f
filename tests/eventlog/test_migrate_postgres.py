"""``paipu migrate`` (issue 20 item 4): a log copied SQLite → PostgreSQL → SQLite keeps event
ids, seqs, recorded times and hash chains row for row, verifies the same, and an interrupted
copy is completed by running it again; a damaged source row stops that game's copy with an
error naming it; a target holding another game under the same id is refused."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from eventlog.ingest.load import ingest_files
from eventlog.store import COLUMNS, IdempotencyConflict, SqliteStore, open_store
from eventlog.store.copy import copy_log
from eventlog.verify import verify_all

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "paipu" / "samples"


def _raw(store) -> list[dict]:
    """Every row as stored, by game then seq (the position is the target's own)."""
    return [
        {c: r[c] for c in COLUMNS if c != "position"}
        for g in store.raw_game_ids()
        for r in store.iter_raw(g)
    ]


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    data = tmp_path_factory.mktemp("src")
    store = SqliteStore(data / "events.sqlite")
    files = sorted(p for p in SAMPLES.rglob("*") if p.is_file() and p.suffix in (".txt", ".json", ".log", ".pmn") and "README" not in p.name)
    report = ingest_files(store, files)
    assert len(report.stored) >= 20 and not report.errors
    store.close()
    return data


def _paipu(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "paipu", *args], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.DEVNULL, timeout=300)


def test_sqlite_to_postgres_and_back_keeps_every_row(source, postgres, tmp_path):
    url = postgres.new_schema()
    there = _paipu("migrate", "--from", str(source), "--to", url, "--json")
    assert there.returncode == 0, there.stderr
    counts = json.loads(there.stdout)
    with open_store(source) as src:
        n = src.head_position()
        original = _raw(src)
        original_reports = [(r.game_id, r.ok, r.events) for r in verify_all(src)]
        original_positions = [r["position"] for g in src.raw_game_ids() for r in src.iter_raw(g)]
    assert counts["copied"] == n and counts["already_there"] == 0
    back = tmp_path / "back"
    again = _paipu("migrate", "--from", url, "--to", str(back))
    assert again.returncode == 0, again.stderr
    with open_store(url) as pg, open_store(back) as sq:
        assert _raw(pg) == original and _raw(sq) == original
        assert [(r.game_id, r.ok, r.events) for r in verify_all(pg)] == original_reports
        # copied into empty stores in source order: the positions agree too
        assert [r["position"] for g in sq.raw_game_ids() for r in sq.iter_raw(g)] == original_positions
        assert [g.game_id for g in pg.list_games()] == [g.game_id for g in sq.list_games()]


def test_an_interrupted_copy_completes_when_run_again(source, postgres):
    url = postgres.new_schema()

    class Interrupted(Exception):
        pass

    calls = []

    def stop_after_three(p):
        calls.append(p)
        if len(calls) == 3:
            raise Interrupted

    with open_store(source) as src, open_store(url) as dst:
        with pytest.raises(Interrupted):
            copy_log(src, dst, progress=stop_after_three)
        partial = dst.head_position()
        assert 0 < partial < src.head_position()
        result = copy_log(src, dst)
        assert result.skipped == partial and result.copied == src.head_position() - partial
        assert _raw(dst) == _raw(src)
        assert copy_log(src, dst).copied == 0  # a third run has nothing to do


def _damaged_copy(source: Path, tmp_path: Path) -> tuple[Path, str, int]:
    """The source's database with the payload of the event at position 30 changed behind
    the store's back (its trigger dropped): (file, that game, its seq)."""
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes((source / "events.sqlite").read_bytes())
    (tmp_path / "damaged.sqlite-checkpoint").write_bytes((source / "events.sqlite-checkpoint").read_bytes())
    conn = sqlite3.connect(damaged, isolation_level=None)
    conn.execute("DROP TRIGGER events_no_update")
    game, seq = conn.execute("SELECT game_id, seq FROM events WHERE position = 30").fetchone()
    conn.execute("""UPDATE events SET payload = '{"damaged":true}' WHERE position = 30""")
    conn.close()
    return damaged, game, seq


def test_a_damaged_source_row_stops_its_game_and_names_it(source, postgres, tmp_path):
    """`migrate --help`: "A damaged source event stops the copy of that game" — that game
    only: every intact game (also those after it) is copied, the damaged one is reported."""
    damaged, game, seq = _damaged_copy(source, tmp_path)
    url = postgres.new_schema()
    with open_store(damaged) as src, open_store(url) as dst:
        result = copy_log(src, dst)
        assert [(e.game_id, e.seq) for e in result.damaged] == [(game, seq)]
        assert dst.version(game) == -1 or dst.version(game) < seq  # nothing of it past the damage
        intact = {g.game_id: g.version for g in src.list_games() if g.game_id != game}
        assert {g.game_id: g.version for g in dst.list_games() if g.game_id != game} == intact
    cli = _paipu("migrate", "--from", str(damaged), "--to", postgres.new_schema())
    # exit 3: the log is damaged (README "Exit status"); one line for the damaged game
    assert cli.returncode == 3 and f"game {game!r} seq {seq}:" in cli.stderr, cli.stderr
    assert len(cli.stderr.strip().splitlines()) == 1, cli.stderr


def test_migrate_between_sqlite_stores_copies_every_intact_game_after_a_damaged_one(source, tmp_path):
    """The tester's case: SQLite to SQLite, a damaged game early in the log — the copy went
    no further (17 of 24 games, every time); now every intact game is copied, run after run."""
    damaged, game, seq = _damaged_copy(source, tmp_path)
    for _ in range(2):  # and again: resumed, the same outcome
        cli = _paipu("migrate", "--from", str(damaged), "--to", str(tmp_path / "copy"), "--json")
        assert cli.returncode == 3, cli.stderr
        assert [(d["game_id"], d["seq"]) for d in json.loads(cli.stdout)["damaged"]] == [(game, seq)]
        assert cli.stderr.strip().splitlines() == [cli.stderr.strip()] and f"game {game!r} seq {seq}:" in cli.stderr
    with open_store(damaged) as src, open_store(tmp_path / "copy", create=False) as dst:
        want = {g.game_id: g.version for g in src.list_games() if g.game_id != game}
        assert {g.game_id: g.version for g in dst.list_games() if g.game_id != game} == want
        assert all(r.ok for r in verify_all(dst))


def test_a_target_with_another_game_under_the_same_id_is_refused(source, tmp_path):
    with open_store(source) as src:
        first = src.list_games()[0].game_id
    other = SqliteStore(tmp_path / "other.sqlite")
    from eventlog.events import GameStarted, NewEvent

    other.append(first, [NewEvent.of(GameStarted(ruleset="mcr", players=["w", "x", "y", "z"]))])
    with open_store(source) as src, pytest.raises(IdempotencyConflict, match="differs"):
        copy_log(src, other)
    assert other.version(first) == 0
    other.close()
