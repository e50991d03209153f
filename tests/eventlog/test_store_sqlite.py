"""What only the SQLite backend promises (DESIGN.md §5 "one SQLite file (WAL,
synchronous FULL)"): the file's settings, persistence across opens, open_store's
paths, and that no SQLite error type escapes the interface."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from eventlog.store import MemoryStore, SqliteStore, StoreError, open_store
from eventlog.verify import verify_all


def test_the_file_is_wal_with_full_sync_and_a_busy_timeout(sqlite_store):
    conn = sqlite3.connect(sqlite_store.path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert conn.execute("PRAGMA user_version").fetchone() == (2,)
        assert conn.execute("PRAGMA application_id").fetchone() == (0x50414950,)
    finally:
        conn.close()
    with sqlite_store._connection() as own:  # a connection of the store's pool
        assert own.execute("PRAGMA synchronous").fetchone()["synchronous"] == 2  # FULL
        assert own.execute("PRAGMA busy_timeout").fetchone()["timeout"] == 30_000


def test_events_survive_reopening_and_the_chain_continues(tmp_path, discards, game_started):
    path = tmp_path / "log.sqlite"
    first = SqliteStore(path)
    first.append("g", [game_started("nanchang"), *discards(2)])
    first.close()
    second = SqliteStore(path)
    try:
        r = second.append("g", discards(1), 2)
        assert (r.first_seq, r.first_position) == (3, 4)
        assert [e.seq for e in second.read_game("g")] == [0, 1, 2, 3]
        assert second.list_games()[0].ruleset == "nanchang"
        assert [x.ok for x in verify_all(second)] == [True]
    finally:
        second.close()


def test_two_store_objects_on_one_file_share_the_log(tmp_path, discards):
    a, b = SqliteStore(tmp_path / "x.sqlite"), SqliteStore(tmp_path / "x.sqlite")
    try:
        a.append("g", discards(2))
        assert b.version("g") == 1
        assert b.append("g", discards(1), 1).first_position == 3
        assert [e.position for e in a.read_all()] == [1, 2, 3]
    finally:
        a.close()
        b.close()


def test_open_store_paths(tmp_path, discards):
    d = open_store(tmp_path / "logdir")
    assert isinstance(d, SqliteStore) and d.path == tmp_path / "logdir" / "events.sqlite"
    d.append("g", discards(1))
    d.close()
    again = open_store(str(tmp_path / "logdir"))
    assert again.version("g") == 0
    again.close()
    f = open_store(tmp_path / "sub" / "my.sqlite")
    assert isinstance(f, SqliteStore) and f.path == tmp_path / "sub" / "my.sqlite"
    f.close()
    u = open_store(f"sqlite:{tmp_path / 'u.db'}")
    assert isinstance(u, SqliteStore) and u.path == tmp_path / "u.db"
    u.close()
    m = open_store("memory:")
    assert isinstance(m, MemoryStore) and m.head_position() == 0
    with pytest.raises(StoreError, match="unsupported"):
        open_store("mysql://localhost/paipu")
    with pytest.raises(StoreError, match="postgresql .*127.0.0.1:1/paipu"):  # no server there
        open_store("postgresql://127.0.0.1:1/paipu")


def test_a_file_that_is_not_a_database_raises_a_store_error(tmp_path):
    bad = tmp_path / "junk.sqlite"
    bad.write_bytes(b"this is not a database file, only text. " * 50)
    with pytest.raises(StoreError) as e:
        SqliteStore(bad)
    assert not isinstance(e.value, sqlite3.Error)


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "future.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 1346455888")  # a paipu store ("PAIP") …
    conn.execute("PRAGMA user_version = 99")  # … from a newer paipu
    conn.close()
    with pytest.raises(StoreError, match="schema version 99"):
        SqliteStore(path)


def test_short_lived_threads_share_pooled_connections(sqlite_store, discards):
    sqlite_store.append("g", discards(1))
    for _ in range(20):  # e.g. one thread per request
        t = threading.Thread(target=lambda: list(sqlite_store.read_game("g")))
        t.start()
        t.join()
    assert len(sqlite_store._idle) == 1


def test_a_half_read_log_does_not_block_a_writer(sqlite_store, discards):
    sqlite_store.append("g", discards(600))  # more than one page
    reader = sqlite_store.read_all()
    assert next(reader).position == 1
    assert sqlite_store.append("g", discards(1)).last_position == 601
    assert [e.position for e in reader] == list(range(2, 602))


@pytest.mark.parametrize(
    "trigger",
    [
        "BEFORE INSERT ON events WHEN NEW.seq = 2",  # the third row of the batch
        "BEFORE INSERT ON streams",  # after every event row is written
    ],
)
def test_a_batch_failing_midway_leaves_nothing_behind(sqlite_store, discards, trigger):
    sqlite_store.append("other", discards(1))
    conn = sqlite3.connect(sqlite_store.path)
    conn.execute(f"CREATE TRIGGER fault {trigger} BEGIN SELECT RAISE(ABORT, 'injected fault'); END")
    conn.commit()
    batch = discards(4)
    with pytest.raises(StoreError, match="injected fault"):
        sqlite_store.append("g", batch)
    assert sqlite_store.head_position() == 1
    assert sqlite_store.version("g") == -1
    assert [e.game_id for e in sqlite_store.read_all()] == ["other"]
    conn.execute("DROP TRIGGER fault")
    conn.commit()
    conn.close()
    r = sqlite_store.append("g", batch)  # the same batch is new, not a duplicate
    assert (r.first_position, r.last_position, r.duplicate) == (2, 5, False)
    assert [x.ok for x in verify_all(sqlite_store)] == [True, True]



def test_the_checkpoint_file_holds_each_acknowledged_position(tmp_path, discards):
    """Issue 19 (eventlog/store/checkpoint.py, AnchorSync): an append waits for its commit's
    sync only, the checkpoint's runs after — but the file already holds the acknowledged
    position when the append returns (a process killed then loses nothing of it)."""
    from eventlog.store.checkpoint import CheckpointFile
    from eventlog.store.sqlite import checkpoint_path

    with SqliteStore(tmp_path / "events.sqlite") as store:
        for i in range(5):
            last = store.append(f"g{i % 2}", discards(2, tag=str(i))).last_position
            seen = CheckpointFile(checkpoint_path(store.path))  # another reader of the file
            try:
                assert seen.read().position == last == 2 * (i + 1)
            finally:
                seen.close()


def test_the_checkpoint_sync_runs_after_each_write_and_a_failure_is_reported_by_the_next():
    """AnchorSync: every write is synced by the store's thread (``flush`` waits for it); a
    sync that fails (here: the file is closed under it) is raised by the next ``written``,
    which the store reports as "the append committed but its checkpoint could not be
    written"."""
    import tempfile
    from pathlib import Path

    from eventlog.hashing import GENESIS_HASH
    from eventlog.store.checkpoint import AnchorSync, Checkpoint, CheckpointFile

    with tempfile.TemporaryDirectory() as d:
        ck = CheckpointFile(Path(d) / "ck", create=True)
        anchor = AnchorSync(ck)
        ck.put(Checkpoint(1, GENESIS_HASH, ""))
        anchor.written(1)
        assert anchor.flush() == 1
        ck.close()  # the next sync fails (EBADF)
        anchor.written(2)
        assert anchor.flush() == 1  # 2 is not durable
        with pytest.raises(OSError):
            anchor.written(3)
        anchor.close()


@pytest.mark.parametrize("last", ["duplicate", "refused"])
def test_a_bulk_commit_ending_with_a_batch_that_writes_nothing_checkpoints_the_last_event_written(
        tmp_path, discards, last):
    """append_batches — the path of AppendStream, of concurrent appends' group commit and of
    ingest — writes one checkpoint for the whole transaction: it must name the event at the
    log's new head even when the last batch wrote nothing (a retry's duplicate, a refused
    version), or every later open is DATA LOSS over an intact log."""
    from eventlog.store.base import NO_STREAM, WrongExpectedVersion
    from eventlog.store.planning import Batch

    first = discards(2, tag="a")
    with SqliteStore(tmp_path / "events.sqlite") as store:
        store.append("a", first, NO_STREAM)
        tail = Batch.encode("a", first, NO_STREAM) if last == "duplicate" else Batch.encode("a", discards(1, tag="x"), 7)
        results = store.append_batches([Batch.encode("b", discards(3, tag="b"), NO_STREAM), tail])
        assert results[1].duplicate if last == "duplicate" else isinstance(results[1], WrongExpectedVersion)
        written = list(store.read_game("b"))[-1]
    with SqliteStore(tmp_path / "events.sqlite", create=False) as again:  # was LogTruncated
        assert again.checkpoint() == again.log_head() and again.head_position() == written.position == 5


def _wal_restarts(wal: Path) -> int:
    """The WAL header's checkpoint sequence number: SQLite adds one each time a writer
    starts the log again from its beginning, every frame of it checkpointed
    (https://sqlite.org/fileformat2.html, "WAL File Format")."""
    return int.from_bytes(wal.read_bytes()[12:16], "big")


def test_wal_checkpoints_run_in_the_stores_thread_not_in_a_commit(tmp_path, discards):
    """Issue 19: the commit that crossed SQLite's checkpoint threshold copied the WAL into the
    database file and synced it before its appends — and every append queued behind it —
    were acknowledged. The store's connections checkpoint nothing; the store's own thread
    does, once WAL_CHECKPOINT_COMMITS commits are made, and the next commit writes the
    log from its beginning again. Nothing of the log is lost on the way."""
    from eventlog.store import sqlite as backend

    store = SqliteStore(tmp_path / "events.sqlite")
    try:
        with store._connection() as own:
            assert own.execute("PRAGMA wal_autocheckpoint").fetchone()["wal_autocheckpoint"] == 0
        db, wal = store.path, store.path.with_name(store.path.name + "-wal")
        size, restarts = db.stat().st_size, _wal_restarts(wal)
        for i in range(backend.WAL_CHECKPOINT_COMMITS - 1):
            store.append(f"g{i % 3}", discards(1, tag=str(i)))
        assert db.stat().st_size == size  # every commit is still only in the WAL
        store.append("g0", discards(1, tag="due"))  # the commit that makes one due
        store._wal.settle()
        assert db.stat().st_size > size  # the pages were copied into the database file
        store.append("g1", discards(2, tag="after"))
        assert _wal_restarts(wal) == restarts + 1  # and the log began again
        assert store.head_position() == backend.WAL_CHECKPOINT_COMMITS + 2
    finally:
        store.close()
    with SqliteStore(tmp_path / "events.sqlite", create=False) as again:
        assert again.head_position() == backend.WAL_CHECKPOINT_COMMITS + 2
        assert all(r.ok for r in verify_all(again))


def test_under_a_steady_flow_of_commits_the_wal_still_starts_again(tmp_path, discards, monkeypatch):
    """A checkpoint beside the appends never finds the log complete while commits keep
    coming (they add frames as it copies), and SQLite starts the log again only after a
    complete one: once the WAL holds WAL_MAX_FRAMES pages, the frames committed during a
    checkpoint are copied holding the write lock — the WAL stays bounded, as with SQLite's
    own checkpoint. (Thresholds made small: a few hundred commits cross them many times.)"""
    from eventlog.store import sqlite as backend

    monkeypatch.setattr(backend, "WAL_CHECKPOINT_COMMITS", 20)
    monkeypatch.setattr(backend, "WAL_MAX_FRAMES", 200)
    n = 400  # >= 200 commits (two appenders: some commit together), > 5 frames each
    with SqliteStore(tmp_path / "events.sqlite") as store:
        wal = store.path.with_name(store.path.name + "-wal")
        restarts = _wal_restarts(wal)

        def append(c: int) -> None:
            for i in range(n // 2):
                store.append(f"g{c}", discards(1, tag=f"{c}-{i}"))

        threads = [threading.Thread(target=append, args=(c,)) for c in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        store._wal.settle()
        store.append("g0", discards(1, tag="last"))
        # a checkpoint began with >= 200 frames: either commits ran beside it (the rest was
        # then copied under the lock) or none did (it was complete): the log began again
        assert _wal_restarts(wal) > restarts
        assert store.head_position() == n + 1 and all(r.ok for r in verify_all(store))
