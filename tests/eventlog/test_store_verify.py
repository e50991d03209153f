"""Tampering with a real SQLite event log is caught by eventlog.verify (DESIGN.md §4:
"any later edit of a stored game is detectable"; §5: "corruption is reported, never
served as good data").

Each test edits the file with the ``sqlite3`` module directly, as an intruder with a SQL
shell would: first dropping the immutability triggers, then changing stored bytes.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from eventlog.events import chain_hash
from eventlog.store import CorruptEvent, MissingEvents, SqliteStore
from eventlog.verify import ChainReport, verify_all, verify_game

# discards(6) in conftest cycles W1 W5 T3 B9 F1 J2, so seq 3 of "g" discards B9.


@pytest.fixture
def log(sqlite_store, discards):
    sqlite_store.append("g", discards(4, tag="g"))
    sqlite_store.append("h", discards(2, tag="h"))
    sqlite_store.append("g", discards(2, tag="g2"))
    return sqlite_store


def intrude(store: SqliteStore, *statements: tuple[str, tuple]) -> None:
    conn = sqlite3.connect(store.path, isolation_level=None)
    try:
        conn.execute("DROP TRIGGER events_no_update")
        conn.execute("DROP TRIGGER events_no_delete")
        for sql, params in statements:
            assert conn.execute(sql, params).rowcount == 1
    finally:
        conn.close()


def rehashed(store: SqliteStore, game: str, seq: int, payload: dict) -> tuple[str, tuple]:
    """An UPDATE giving (game, seq) a new payload *and* the hash that payload deserves."""
    (row,) = [r for r in store.iter_raw(game) if r["seq"] == seq]
    new_hash = chain_hash(
        row["prev_hash"],
        game_id=game,
        seq=seq,
        event_id=row["event_id"],
        type_=row["type"],
        schema_version=row["schema_version"],
        payload=payload,
        metadata=json.loads(row["metadata"]),
        recorded_at=row["recorded_at"],
    )
    return (
        "UPDATE events SET payload = ?, hash = ? WHERE game_id = ? AND seq = ?",
        (json.dumps(payload), new_hash, game, seq),
    )


def test_an_intact_log_verifies(log):
    assert verify_all(log) == [
        ChainReport("g", True, 6, None, ""),
        ChainReport("h", True, 2, None, ""),
    ]


def test_the_triggers_refuse_updates_and_deletes(log):
    conn = sqlite3.connect(log.path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="immutable"):
            conn.execute("UPDATE events SET type = 'pass' WHERE position = 1")
        with pytest.raises(sqlite3.IntegrityError, match="immutable"):
            conn.execute("DELETE FROM events WHERE position = 8")
    finally:
        conn.close()
    assert all(r.ok for r in verify_all(log))


def test_one_changed_payload_byte_is_caught_at_its_seq(log):
    intrude(
        log,
        (
            "UPDATE events SET payload = replace(payload, '\"B9\"', '\"B8\"') "
            "WHERE game_id = 'g' AND seq = 3",
            (),
        ),
    )
    report = verify_game(log, "g")
    assert (report.ok, report.events, report.first_bad_seq) == (False, 6, 3)
    assert "hash mismatch" in report.reason
    assert [r.ok for r in verify_all(log)] == [False, True]
    # Reads serve the good events and refuse the bad one.
    reader = log.read_game("g")
    assert [next(reader).seq for _ in range(3)] == [0, 1, 2]
    with pytest.raises(CorruptEvent) as e:
        next(reader)
    assert (e.value.game_id, e.value.seq, e.value.position) == ("g", 3, 4)
    with pytest.raises(CorruptEvent):
        list(log.read_all())


def test_a_rehashed_forgery_breaks_the_next_link(log):
    intrude(log, rehashed(log, "g", 3, {"seat": 0, "tile": "B8"}))
    assert [e.payload.tile for e in log.read_game("g", 3, limit=1)] == ["B8"]  # self-consistent
    report = verify_game(log, "g")
    assert (report.ok, report.first_bad_seq) == (False, 4)
    assert report.reason == "prev_hash does not link to the hash of seq 3"


def test_a_rehashed_last_event_disagrees_with_the_stream_record(log):
    intrude(log, rehashed(log, "g", 5, {"seat": 0, "tile": "B8"}))
    report = verify_game(log, "g")
    assert (report.ok, report.first_bad_seq) == (False, 5)
    assert "recorded at commit" in report.reason
    # a read serves the events before it, then names it (g's seq 5 is at position 8)
    reader = log.read_game("g")
    assert [next(reader).seq for _ in range(5)] == [0, 1, 2, 3, 4]
    with pytest.raises(MissingEvents, match="seq 5 is not the event recorded as the stream's head") as e:
        next(reader)
    assert (e.value.game_id, e.value.seq, e.value.position) == ("g", 5, 8)


def test_a_deleted_last_event_is_missing(log):
    intrude(log, ("DELETE FROM events WHERE game_id = 'g' AND seq = 5", ()))
    report = verify_game(log, "g")
    assert (report.ok, report.events, report.first_bad_seq) == (False, 5, 5)
    assert "events missing" in report.reason


def test_a_deleted_middle_event_breaks_seq_density(log):
    intrude(log, ("DELETE FROM events WHERE game_id = 'g' AND seq = 2", ()))
    report = verify_game(log, "g")
    assert (report.ok, report.events, report.first_bad_seq) == (False, 5, 2)
    assert "seq 3 where seq 2 was expected" in report.reason


def test_seqs_out_of_commit_order_are_reported_in_position_order(log):
    """Two of g's rows swap seqs (1 at position 3, 2 at position 2): walked by position, as
    the store committed them, position 2 holds seq 2 where seq 1 was expected."""
    intrude(
        log,
        ("UPDATE events SET seq = -1 WHERE game_id = 'g' AND seq = 1", ()),
        ("UPDATE events SET seq = 1 WHERE game_id = 'g' AND seq = 2", ()),
        ("UPDATE events SET seq = 2 WHERE game_id = 'g' AND seq = -1", ()),
    )
    assert [r["position"] for r in log.iter_raw("g")] == [1, 2, 3, 4, 7, 8]
    report = verify_game(log, "g")
    assert (report.ok, report.events, report.first_bad_seq) == (False, 6, 1)
    assert report.reason == ("position 2 holds seq 2 where seq 1 was expected "
                             "(seqs must be dense, in commit order)")


def test_a_row_that_no_longer_parses_is_reported_not_raised(log):
    intrude(log, rehashed(log, "g", 3, {"seat": 9, "tile": "B9"}))  # seat 9 does not exist
    report = verify_game(log, "g")
    assert (report.ok, report.first_bad_seq) == (False, 3)
    assert "does not parse" in report.reason and "seat" in report.reason
    with pytest.raises(CorruptEvent):
        list(log.read_game("g"))


@pytest.mark.parametrize(
    "column, value, words",
    [
        ("payload", "{not json", "payload is not JSON"),
        ("payload", "[1, 2]", "payload is not a JSON object"),
        ("payload", b"\x00\x01", "column payload holds bytes"),
        ("metadata", "null", "metadata is not a JSON object"),
        ("seq", "zero", "holds seq 'zero' where seq 0 was expected"),
        ("schema_version", "one", "column schema_version holds str"),
    ],
)
def test_garbage_in_a_column_is_reported_not_raised(log, column, value, words):
    intrude(log, (f"UPDATE events SET {column} = ? WHERE game_id = 'h' AND seq = 0", (value,)))
    report = verify_game(log, "h")
    assert (report.ok, report.first_bad_seq) == (False, 0)
    assert words in report.reason
    assert verify_game(log, "g").ok


def test_a_game_whose_rows_were_all_deleted_is_still_reported(log):
    intrude(
        log,
        ("DELETE FROM events WHERE game_id = 'h' AND seq = 1", ()),
        ("DELETE FROM events WHERE game_id = 'h' AND seq = 0", ()),
    )
    assert verify_all(log)[1] == ChainReport(
        "h", False, 0, 0, "events missing: the stream record says version 1, the last stored seq is -1"
    )
