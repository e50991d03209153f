"""The log's guarantees under damage (issue 12): what was acknowledged is there, and what
is served is what was written — or the reader is told, loudly (DATA_LOSS).

A small, fast version of ``scripts/reliability.py``: a writer process SIGKILLed a few
dozen times; crash images of a real store whose write-ahead log is then flipped, zeroed
or truncated (SQLite silently drops every commit after a bad frame — the checkpoint file
must tell); rows and whole games deleted behind the store's back; empty and foreign
store files; hostile sizes. Expected outcomes come from the issue's contract, not from
the code under test.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from damaged_store import batch, interleaved_store, shell
from typer.testing import CliRunner

from eventlog.events import NewEvent, TileDiscarded
from eventlog.store import (
    CorruptDatabase,
    CorruptEvent,
    GameNotFound,
    LogTruncated,
    MissingEvents,
    NotAStore,
    PositionOutOfRange,
    SqliteStore,
    StoreError,
    StoreNotFound,
    open_store,
)
from eventlog.store.sqlite import checkpoint_path
from eventlog.verify import verify_all, verify_game, verify_log
from paipu.cli import app

ROOT = Path(__file__).resolve().parents[2]
KILLS = 24  # SIGKILLs of a writer process
runner = CliRunner()

WRITER = ROOT / "scripts" / "crash_writer.py"  # appends until killed, prints each acknowledged position



def _cli(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


# ----------------------------------------------------------------------------- SIGKILL


def test_a_writer_sigkilled_again_and_again_loses_no_acknowledged_append(tmp_path):
    path = tmp_path / "events.sqlite"
    rng = random.Random(12)
    acknowledged = 0
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for k in range(KILLS):
        proc = subprocess.Popen([sys.executable, str(WRITER), str(path), f"r{k}"], stdout=subprocess.PIPE,
                                text=True, env=env, cwd=ROOT)
        try:
            assert proc.stdout.readline().strip() == "ready"
            for _ in range(rng.randrange(0, 25)):
                acknowledged = max(acknowledged, int(proc.stdout.readline()))
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        with SqliteStore(path, create=False) as store:  # the checkpoint agrees on open
            events = list(store.read_all())
            assert events[-1].position >= acknowledged
            sizes = Counter(e.metadata["batch"] for e in events)
            assert all(sizes[e.metadata["batch"]] == e.metadata["n"] for e in events)  # no partial batch
    with SqliteStore(path, create=False) as store:
        assert all(r.ok for r in verify_all(store))
        assert verify_log(store).ok


# ----------------------------------------------------------------------------- WAL damage


def _crash_image(tmp_path: Path, commits: int = 12) -> tuple[Path, int]:
    """A store directory as a crash would leave it: the database, its write-ahead log
    (not yet checkpointed into the database) and the checkpoint file. Returns the copy
    and the acknowledged last position."""
    live, image = tmp_path / "live", tmp_path / "image"
    store = open_store(live)
    last = 0
    for c in range(commits):
        last = store.append(f"g{c % 2}", batch(f"c{c}", 3)).last_position
    image.mkdir()
    for name in ("events.sqlite", "events.sqlite-wal", "events.sqlite-checkpoint"):
        shutil.copyfile(live / name, image / name)
    store.close()
    return image, last


def _frames(wal: Path) -> tuple[int, int]:
    data = wal.read_bytes()
    page = int.from_bytes(data[8:12], "big")
    return page + 24, (len(data) - 32) // (page + 24)


@pytest.mark.parametrize("damage", ["flip", "zero", "truncate"])
def test_a_damaged_write_ahead_log_is_data_loss_everywhere(tmp_path, damage):
    image, acknowledged = _crash_image(tmp_path)
    wal = image / "events.sqlite-wal"
    frame, n = _frames(wal)
    assert n >= 6
    at = 32 + frame * (n // 2) + 24 + 100  # inside a frame in the middle of the log
    data = bytearray(wal.read_bytes())
    if damage == "flip":
        data[at] ^= 0xFF
    elif damage == "zero":
        start = 32 + frame * (n // 2)
        data[start : start + frame] = bytes(frame)  # the whole frame, header and page
    else:
        del data[at:]
    wal.write_bytes(bytes(data))

    with pytest.raises(LogTruncated, match=rf"checkpoint records {acknowledged} committed events"):
        SqliteStore(image / "events.sqlite")
    res = _cli("games", "--data", str(image))  # a reader: one line, exit 3 (the log is damaged)
    assert res.exit_code == 3 and "DATA LOSS" in res.output and len(res.output.strip().splitlines()) == 1
    res = _cli("verify", "--data", str(image))  # verify: says what survives, and fails
    assert res.exit_code == 3 and "DATA LOSS" in res.output, res.output  # 3: integrity
    assert res.output.count("DATA LOSS") == 1, res.output  # said once, not "DATA LOSS: DATA LOSS in …"
    summary = next(line for line in res.output.splitlines() if "chains intact" in line)
    assert summary.endswith("the log itself is DAMAGED (exit 3, above)"), summary  # never "all intact" on exit 3
    with SqliteStore(image / "events.sqlite", salvage=True) as store:
        assert isinstance(store.damage, LogTruncated)
        report = verify_log(store)
        assert not report.ok and report.checkpoint == acknowledged and report.head < acknowledged
        with pytest.raises(LogTruncated):
            store.append("new", batch("after", 1))  # nothing is written on top of a loss


def test_a_checkpoint_behind_the_log_is_brought_forward(tmp_path):
    """A crash between a commit and its checkpoint write leaves the checkpoint behind:
    not a loss (the append was never acknowledged); the next open re-anchors it."""
    live = tmp_path / "behind"
    store = open_store(live)
    for c in range(4):
        store.append("g", batch(f"b{c}", 2))
    saved = checkpoint_path(live / "events.sqlite").read_bytes()
    store.append("g", batch("b4", 2))
    store.close()
    checkpoint_path(live / "events.sqlite").write_bytes(saved)  # as if the last write never happened
    with open_store(live, create=False) as store:
        assert store.checkpoint().position == store.head_position() == 10
        assert verify_log(store).ok


# ----------------------------------------------------------------------------- database file damage


def _closed_store(path: Path) -> list[tuple[int, str, str]]:
    """A closed store at ``path`` (everything checkpointed into the database file) holding
    games a (4 events) and b (3); returns what was written: (position, hash, payload)."""
    with open_store(path) as store:
        store.append("a", batch("a", 4))
        store.append("b", batch("b", 3))
        return [(e.position, e.hash, e.payload.model_dump_json()) for e in store.read_all()]


def _index_page(db: Path, name: str) -> int:
    conn = sqlite3.connect(db)
    try:
        (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (name,)).fetchone()
        (size,) = conn.execute("PRAGMA page_size").fetchone()
    finally:
        conn.close()
    return (root - 1) * size


@pytest.mark.parametrize("damage", ["page-type", "lost-entry"])
def test_a_damaged_game_index_is_data_loss_for_every_reader(tmp_path, damage):
    """Issue 12 item 2: a damaged (game_id, seq) index served a game with a hole, or failed
    as an internal error ("database disk image is malformed": INTERNAL, not DATA_LOSS)."""
    _closed_store(tmp_path)
    db = tmp_path / "events.sqlite"
    at = _index_page(db, "sqlite_autoindex_events_2")  # UNIQUE (game_id, seq): one leaf page
    data = bytearray(db.read_bytes())
    if damage == "page-type":
        data[at] = 0  # not a b-tree page: SQLite reports the file damaged
    else:
        cells = int.from_bytes(data[at + 3 : at + 5], "big")
        data[at + 3 : at + 5] = (cells - 1).to_bytes(2, "big")  # the index loses ('b', 2)
    db.write_bytes(bytes(data))
    with open_store(tmp_path, create=False) as store:
        with pytest.raises(CorruptEvent) as err:
            list(store.read_game("b"))
        assert err.value.grpc_code == "DATA_LOSS"
        assert isinstance(err.value, CorruptDatabase if damage == "page-type" else MissingEvents)
        assert not verify_game(store, "b").ok
    res = _cli("verify", "--data", str(tmp_path))
    assert res.exit_code == 3, res.output  # integrity, not "could not run"


def test_a_text_cell_no_longer_utf8_is_a_corrupt_event_naming_the_row(tmp_path):
    """A flipped byte that leaves a text cell invalid UTF-8 made Python's sqlite3 refuse the
    whole page of rows ("Could not decode to UTF-8": INTERNAL); it is that row's damage."""
    _closed_store(tmp_path)
    db = tmp_path / "events.sqlite"
    data = bytearray(db.read_bytes())
    at = data.index(b'"tag":"b"') + len(b'"tag":"')
    data[at] = 0xFF
    db.write_bytes(bytes(data))
    with open_store(tmp_path, create=False) as store:
        assert [e.seq for e in store.read_game("a")] == [0, 1, 2, 3]
        with pytest.raises(CorruptEvent) as err:
            list(store.read_game("b"))
        assert err.value.game_id == "b" and err.value.position in (5, 6, 7) and "hash mismatch" in err.value.reason
        with pytest.raises(CorruptEvent):
            list(store.read_all())
        assert not verify_game(store, "b").ok and verify_game(store, "a").ok


FLIPS = 30  # random byte flips of a closed store's database file


def _verifies(store) -> bool:
    """True when verify calls every game and the log intact (a CorruptEvent is a "no")."""
    try:
        return all(r.ok for r in verify_all(store)) and verify_log(store).ok
    except CorruptEvent:
        return False


def test_a_flipped_byte_in_the_database_is_refused_or_harmless_never_served_wrong(tmp_path):
    """The database file's used bytes flipped one at a time (seeded): the store refuses to open
    (not a store / data loss), or a read raises a data-loss error, or it serves exactly what
    was written. Never different content, never an internal error."""
    rng = random.Random(12)
    base = tmp_path / "base"
    truth = _closed_store(base)
    outcomes: Counter = Counter()
    for t in range(FLIPS):
        d = tmp_path / f"flip{t}"
        shutil.copytree(base, d)
        db = d / "events.sqlite"
        data = bytearray(db.read_bytes())
        used = [i for i, b in enumerate(data) if b]  # most of a small file is free space
        data[rng.choice(used)] ^= 1 << rng.randrange(8)
        db.write_bytes(bytes(data))
        try:
            store = open_store(d, create=False)
        except StoreError as e:  # one line, never a store opened: not a store, data loss, a newer schema
            assert len(str(e).splitlines()) == 1
            outcomes["refused on open"] += 1
            continue
        with store:
            try:
                got = [(e.position, e.hash, e.payload.model_dump_json()) for e in store.read_all()]
                for g in store.list_games():
                    list(store.read_game(g.game_id))
            except CorruptEvent:
                outcomes["data loss on read"] += 1
                assert not _verifies(store), f"flip {t}: verify calls a log intact that cannot be read"
                continue
            except GameNotFound:  # a damaged stream record lists an id its index does not know
                outcomes["listed but not found"] += 1
                assert not _verifies(store), f"flip {t}: verify calls a log intact that lists a lost game"
                continue
            assert got == truth, f"flip {t}: served something else as good"
            outcomes["harmless"] += 1
    assert sum(outcomes.values()) == FLIPS and outcomes["data loss on read"] > 0, outcomes


# ----------------------------------------------------------------------------- rows and games removed


@pytest.fixture
def log(tmp_path):
    store = interleaved_store(tmp_path)
    yield store
    store.close()



def test_a_deleted_row_is_missing_for_every_reader(log):
    shell(log, "DROP TRIGGER events_no_delete", "DELETE FROM events WHERE game_id = 'g' AND seq = 5")
    with pytest.raises(MissingEvents, match="seq 5 is missing"):
        list(log.read_game("g"))
    with pytest.raises(MissingEvents, match="seq 5 is missing"):
        list(log.read_game("g", from_seq=6))  # the link to seq 5 is checked too
    with pytest.raises(MissingEvents, match="seq 5 is missing"):
        list(log.read_game("g", backward=True, from_seq=-1))
    with pytest.raises(MissingEvents, match="position 9 is missing"):
        list(log.read_all())
    with pytest.raises(MissingEvents):
        list(log.read_all(from_position=-1, backward=True))
    assert [e.seq for e in log.read_game("g", limit=5)] == [0, 1, 2, 3, 4]  # the intact prefix still reads
    assert not verify_game(log, "g").ok
    assert not verify_log(log).ok


def test_a_deleted_last_row_is_missing(log):
    shell(log, "DROP TRIGGER events_no_delete", "DELETE FROM events WHERE game_id = 'g' AND seq = 7")
    with pytest.raises(MissingEvents, match="record says version 7") as err:
        list(log.read_game("g"))
    # the one line says where as far as it is known: no position for an event not there
    assert str(err.value).startswith("game 'g' seq 7: ") and "None" not in str(err.value)
    with pytest.raises(MissingEvents, match="position 11 is missing"):
        list(log.read_all())


def test_a_subscriber_stops_at_a_hole(log):
    shell(log, "DROP TRIGGER events_no_delete", "DELETE FROM events WHERE position = 3")
    sub = log.subscribe(1)
    assert [next(sub).position for _ in range(2)] == [1, 2]
    with pytest.raises(MissingEvents, match="position 3 is missing"):
        next(sub)


def test_the_stream_records_are_guarded_like_the_events(log):
    for sql in (
        "DELETE FROM streams WHERE game_id = 'h'",
        "UPDATE streams SET first_position = 2 WHERE game_id = 'h'",
        "UPDATE streams SET ruleset = 'sichuan' WHERE game_id = 'g' AND ruleset IS NOT NULL",
        "UPDATE streams SET version = 1 WHERE game_id = 'h'",
        "DELETE FROM log_head",
        "UPDATE log_head SET position = 3",
    ):
        conn = sqlite3.connect(log.path)
        try:
            cur = conn.execute(sql) if "ruleset" in sql else None
            if cur is None:
                with pytest.raises(sqlite3.DatabaseError, match="refused"):
                    conn.execute(sql)
        finally:
            conn.close()
    assert [g.game_id for g in log.list_games()] == ["g", "h"]


def test_a_whole_deleted_game_is_named_by_verify(log, tmp_path):
    shell(
        log,
        "DROP TRIGGER events_no_delete",
        "DROP TRIGGER streams_no_delete",
        "DELETE FROM events WHERE game_id = 'h'",
        "DELETE FROM streams WHERE game_id = 'h'",
    )
    report = verify_log(log)
    assert not report.ok
    assert any("positions 5..7" in p or "position 5 is missing" in p for p in report.problems), report.problems
    res = _cli("verify", "--data", str(Path(log.path).parent))
    assert res.exit_code == 3 and "position 5 is missing" in res.output, res.output  # integrity


def test_a_stream_record_deleted_alone_still_verifies_the_game_from_its_events(log):
    shell(log, "DROP TRIGGER streams_no_delete", "DELETE FROM streams WHERE game_id = 'h'")
    res = _cli("verify", "--data", str(Path(log.path).parent))
    assert res.exit_code == 3  # h's chain is broken: integrity
    # (game g fails its audit: these test games have no game_started; h fails its chain)
    assert "FAIL h: chain BROKEN" in res.output and "no stream record" in res.output, res.output


@pytest.mark.parametrize("edit, words", [
    ("UPDATE streams SET ruleset = 'sichuan' WHERE game_id = 's'", "ruleset 'sichuan'"),
    ("UPDATE streams SET ruleset = NULL WHERE game_id = 's'", "ruleset None"),
    ("UPDATE streams SET first_position = 2 WHERE game_id = 'h'", "positions 2..7"),
    ("UPDATE streams SET last_position = 99 WHERE game_id = 'h'", "positions 5..99"),
])
def test_an_edited_stream_record_is_named_by_verify(log, edit, words):
    """Issue 12 item 3: with its trigger dropped, an edited stream record (first position,
    ruleset) was served by list_games and verify said the game was intact."""
    from eventlog.events import GameStarted

    log.append("s", [NewEvent.of(GameStarted(ruleset="mcr", players=["a", "b", "c", "d"]))])
    assert verify_game(log, "s").ok and verify_game(log, "h").ok
    shell(log, "DROP TRIGGER streams_only_forward", edit)
    game = "s" if "'s'" in edit else "h"
    report = verify_game(log, game)
    assert not report.ok and words in report.reason and "record was edited" in report.reason, report
    res = _cli("verify", "--data", str(Path(log.path).parent))
    assert res.exit_code == 3 and f"FAIL {game}: chain BROKEN" in res.output, res.output


# ----------------------------------------------------------------------------- store files


def test_an_empty_store_file_is_refused_not_reinitialised(tmp_path):
    (tmp_path / "events.sqlite").write_bytes(b"")
    with pytest.raises(NotAStore, match="empty"):
        open_store(tmp_path)
    assert (tmp_path / "events.sqlite").stat().st_size == 0
    res = _cli("verify", "--data", str(tmp_path))
    assert res.exit_code == 2 and "not a paipu event store" in res.output and "empty" in res.output


@pytest.mark.parametrize("content", [b"hello, not a database\n" * 10, "sqlite"])
def test_a_foreign_file_is_refused(tmp_path, content):
    path = tmp_path / "events.sqlite"
    if content == "sqlite":
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE photos (id INTEGER)")
        conn.commit()
        conn.close()
    else:
        path.write_bytes(content)
    before = path.read_bytes()
    with pytest.raises(NotAStore):
        SqliteStore(path)
    assert path.read_bytes() == before


def test_readers_and_serve_never_create_a_store(tmp_path):
    typo = tmp_path / "dtaa"
    for args in (["games"], ["verify"], ["read", "g"], ["replay", "g"]):
        res = _cli(*args, "--data", str(typo))
        assert res.exit_code == 2 and str(typo) in res.output, (args, res.output)
    res = _cli("serve", "--data", str(typo), "--port", "0")
    assert res.exit_code == 2 and "no event store in" in res.output and "--create" in res.output, res.output
    assert not typo.exists()
    with pytest.raises(StoreNotFound):
        open_store(typo, create=False)
    with pytest.raises(StoreNotFound):
        SqliteStore(typo / "events.sqlite", create=False)
    assert not typo.exists()


def test_a_missing_database_with_a_checkpoint_is_data_loss(tmp_path):
    with open_store(tmp_path) as store:
        store.append("g", batch("g", 2))
    (tmp_path / "events.sqlite").unlink()
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"events.sqlite{suffix}").unlink(missing_ok=True)
    with pytest.raises(LogTruncated, match="events.sqlite is missing"):
        open_store(tmp_path)


def test_a_version_1_store_is_upgraded_and_anchored(tmp_path):
    path = tmp_path / "events.sqlite"
    with SqliteStore(path) as store:
        store.append("g", batch("g", 3))
        store.append("h", batch("h", 2))
    conn = sqlite3.connect(path, isolation_level=None)
    for t in ("streams_no_delete", "streams_only_forward", "log_head_no_delete", "log_head_only_forward"):
        conn.execute(f"DROP TRIGGER {t}")
    conn.execute("DROP TABLE log_head")
    conn.execute("PRAGMA application_id = 0")
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    checkpoint_path(path).unlink()
    with SqliteStore(path, create=False) as store:
        assert store.head_position() == 5 and store.checkpoint().position == 5
        assert verify_log(store).ok
        assert [e.seq for e in store.read_game("g")] == [0, 1, 2]


# ----------------------------------------------------------------------------- hostile sizes


@pytest.mark.parametrize("value", [2**63, 2**64 - 1, 10**30, -2])
def test_positions_outside_64_bits_are_refused_as_arguments(log, value):
    for call in (
        lambda: log.read_all(value),
        lambda: log.read_game("g", value),
        lambda: log.subscribe(value),
    ):
        with pytest.raises(PositionOutOfRange) as e:
            call()
        assert isinstance(e.value, ValueError) and len(str(e.value)) < 200


def test_a_huge_game_id_is_refused_without_echoing_it(log):
    with pytest.raises(ValueError) as e:
        log.append("x" * 70_000, batch("x", 1))
    assert len(str(e.value)) < 200
    with pytest.raises(ValueError) as e:
        log.read_game("\n" * 70_000)
    assert len(str(e.value)) < 300


def test_store_errors_are_store_errors(log):
    assert issubclass(LogTruncated, StoreError) and issubclass(MissingEvents, StoreError)


# ----------------------------------------------------------------------------- shared payloads


def test_two_readers_of_one_payload_cannot_change_each_other(log):
    log.append("t", [NewEvent.of(TileDiscarded(seat=1, tile="T5"))])
    from eventlog.events import GameStarted

    log.append("s", [NewEvent.of(GameStarted(ruleset="mcr", players=["a", "b", "c", "d"]))])
    log.append("s2", [NewEvent.of(GameStarted(ruleset="mcr", players=["a", "b", "c", "d"]))])
    (first,) = log.read_game("s")
    (second,) = log.read_game("s2")
    assert first.payload is second.payload  # parsed once, shared …
    with pytest.raises(TypeError, match="read-only"):
        first.payload.players[0] = "mallory"  # … and so immutable, deeply
    with pytest.raises(TypeError, match="read-only"):
        first.payload.players.append("e")
    with pytest.raises(TypeError, match="read-only"):
        first.payload.ruleset_options["flowers"] = True
    assert second.payload.players == ["a", "b", "c", "d"] and second.payload.ruleset_options == {}
    import copy
    import pickle

    assert pickle.loads(pickle.dumps(first)).payload.players == ["a", "b", "c", "d"]
    assert copy.deepcopy(first).payload == first.payload
    assert first.payload.model_dump(mode="json")["players"] == ["a", "b", "c", "d"]
    first.metadata["mine"] = 1  # metadata is each reader's own
    (again,) = log.read_game("s")
    assert "mine" not in again.metadata


# ----------------------------------------------------------------------------- worker processes


def _count_events(store, game_id):
    return sum(1 for _ in store.read_game(game_id))


def test_a_worker_never_creates_a_store_and_opens_a_salvaged_log_as_salvaged(tmp_path):
    """Issue 12 item 4: a worker process (paipu export/verify --cluster, local workers) opened
    the store with create=True — on a machine without the shared disk it made a new empty
    store and found no games; and it refused a log that `paipu verify` had opened salvaged."""
    from eventlog.parallel import _run_chunk

    missing = tmp_path / "elsewhere" / "events.sqlite"
    with pytest.raises(StoreNotFound):
        _run_chunk(_count_events, str(missing), ["g0"])
    assert not missing.parent.exists()

    image, _ = _crash_image(tmp_path)
    wal = image / "events.sqlite-wal"
    frame, n = _frames(wal)
    wal.write_bytes(wal.read_bytes()[: 32 + frame * (n // 2)])  # the later half of the commits lost
    with SqliteStore(image / "events.sqlite", salvage=True) as store:
        assert store.damage is not None
        ids = [g.game_id for g in store.list_games()]
        assert ids
        assert _run_chunk(_count_events, str(store.path), ids, salvage=True) == [
            _count_events(store, g) for g in ids
        ]


def test_verify_says_when_the_checkpoint_file_was_missing(tmp_path):
    """The checkpoint is the anchor a damaged WAL cannot take with it; when it is gone too
    (the database copied without it) the log is anchored anew as found — and `paipu verify`
    says that a loss before now cannot be detected, instead of only "log intact"."""
    with open_store(tmp_path) as store:
        store.append("g", batch("g", 2))
    checkpoint_path(tmp_path / "events.sqlite").unlink()
    res = _cli("verify", "--data", str(tmp_path))
    assert "no checkpoint file" in res.output and "cannot be detected" in res.output, res.output
    res = _cli("verify", "--data", str(tmp_path))  # anchored now: the next run has it
    assert "no checkpoint file" not in res.output, res.output


def _write_checkpoint(db: Path, position: int, log_hash: str, event_hash: str) -> None:
    from eventlog.store.checkpoint import Checkpoint, CheckpointFile

    ck = CheckpointFile(checkpoint_path(db))
    try:
        ck.initialise(Checkpoint(position, log_hash, event_hash))  # both slots
    finally:
        ck.close()


def test_a_checkpoint_wrong_only_in_its_event_hash_is_rewritten_and_verify_says_so(tmp_path):
    """The store an AppendStream ending with a resent batch left before the fix
    (test_grpc_append_stream.py): the checkpoint's position and running hash are the log's,
    its event hash is not (zeros). The running hash covers every event's position and hash,
    so the log re-hashing to it proves the events are the committed ones: the checkpoint is
    the wrong record. The store opens (rewriting it) and verify says what it did — never
    DATA LOSS, never a silent "intact"."""
    with open_store(tmp_path) as store:
        store.append("g", batch("g", 3))
        store.append("h", batch("h", 2))
        head = store.log_head()
    db = tmp_path / "events.sqlite"
    _write_checkpoint(db, head.position, head.log_hash, "")  # the bug's checkpoint: event hash zero
    res = _cli("verify", "--data", str(tmp_path))
    assert res.exit_code == 1 and "DATA LOSS" not in res.output, res.output  # 1: the discards' findings
    assert "log intact: 5 events" in res.output and "checkpoint was wrong; rewritten at position 5" in res.output.replace("\n", " "), res.output
    res = _cli("games", "--data", str(tmp_path))  # rewritten: every command reads it again
    assert res.exit_code == 0 and "checkpoint" not in res.output, res.output
    with open_store(tmp_path, create=False) as store:
        assert store.checkpoint() == head and store.reanchored is None


def test_a_rewritten_last_event_is_still_data_loss_when_the_log_head_record_is_left_alone(tmp_path):
    """The event-hash check is what catches a last event rewritten (its own hash recomputed)
    with the log's head record left as it was; the running hash must then not vouch for it:
    the events no longer re-hash to the checkpoint's, so the store stays DATA LOSS."""
    store = open_store(tmp_path)
    store.append("g", batch("g", 3))
    last = store.log_head().position
    shell(store, "DROP TRIGGER events_no_update",
          f"UPDATE events SET hash = 'ab' || substr(hash, 3) WHERE position = {last}")
    store.close()
    with pytest.raises(LogTruncated, match=f"the event at the checkpoint's position {last} is not the one"):
        open_store(tmp_path, create=False)


def test_readers_never_create_a_store_named_by_store_or_paipu_store(tmp_path, monkeypatch):
    """A mistyped ``--store`` / ``$PAIPU_STORE`` path is refused by every command that only
    reads — "no event store", exit 2, as for ``--data`` — never a new empty store that
    verify then calls intact; a command that writes (append) still creates it."""
    monkeypatch.chdir(tmp_path)
    readers = (["verify"], ["games"], ["read", "g"], ["replay", "g"], ["export"], ["players", "list"],
               ["review", "g", "--seat", "0"], ["dispute", "g", "--out", "d.html"])
    for args in readers:
        res = _cli("--store", "typo", *args)
        assert res.exit_code == 2 and "no event store" in res.output and "typo" in res.output, (args, res.output)
    monkeypatch.setenv("PAIPU_STORE", str(tmp_path / "typo2"))
    res = _cli("verify")
    assert res.exit_code == 2 and "no event store" in res.output, res.output
    assert not (tmp_path / "typo").exists() and not (tmp_path / "typo2").exists()
    events = tmp_path / "e.jsonl"
    events.write_text('{"event_id": "aaaaaaaa-0000-4000-8000-000000000000", "type": "tile_discarded", '
                      '"payload": {"seat": 0, "tile": "W1"}}\n')
    res = _cli("append", "g", str(events))  # a writer: creates the store $PAIPU_STORE names
    assert res.exit_code == 0 and (tmp_path / "typo2" / "events.sqlite").is_file(), res.output
