"""The embedded event store: one SQLite file (shared/DESIGN.md §5).

Durability and order:

* WAL journal, ``synchronous=FULL``: a commit returns only after the WAL is synced.
* After each commit, still holding the write lock, the store writes its *writer
  checkpoint* (``events.sqlite-checkpoint``, :mod:`eventlog.store.checkpoint`: last
  position, that event's hash, the running hash of the whole log); only then is the append
  acknowledged. The checkpoint's ``fdatasync`` runs in a thread of its own
  (:class:`~eventlog.store.checkpoint.AnchorSync`), so an append waits for one sync, its
  commit's (checkpoint.py argues why a durable append and the data-loss check both
  hold). SQLite recovers a damaged WAL by silently dropping every commit after the bad
  frame; the checkpoint is what tells: on open, on every append and in ``paipu verify`` a
  log shorter than its checkpoint (or with another running hash at the checkpoint's
  position) raises :class:`LogTruncated` (gRPC DATA_LOSS).
* Group commit (issue 19, :mod:`eventlog.store.group`): appends made while another is
  committing wait, and are then committed together by one of them — one transaction, one
  WAL sync and one checkpoint write for all, every batch planned (the version and
  idempotency checks) before anything is written, so a refused one leaves nothing and the
  others are written as if it had not been made (:meth:`SqliteStore._commit_batches`);
  each gets the outcome it would get alone.
* WAL checkpoints (copying committed pages from the ``-wal`` into the database file, and
  syncing it) run in a thread of the store's own (:class:`_WalCheckpoints`), not in the
  commit that crossed SQLite's threshold: that commit's appends — and every append queued
  behind it — waited for the copy and its sync (1–4 ms more every ~180 single-event
  commits; 15–60 ms after each 20,000-event group of an AppendStream or an import). A
  checkpoint moves only committed, synced pages (SQLite's own, crash-safe), so nothing
  acknowledged depends on it.
* Every append runs in ``BEGIN IMMEDIATE`` (and, across processes, under an exclusive
  ``flock`` of the checkpoint file taken first): the write lock is held *before* the
  idempotency check, the version check and the choice of positions, so writers (threads
  or processes) are serialised, positions are assigned in commit order and checkpoints
  are written in that order. A WAL reader sees a snapshot of whole commits, hence always
  a gap-free prefix of positions — a tailing reader never skips one.
* ``busy_timeout`` (default 30 s) makes concurrent writers from other processes wait
  for the lock instead of failing. Writers in *this* process first queue on a Python
  lock (and form the groups above): SQLite's busy handler waits by sleeping (up to 100 ms
  a try), which gave 8 writer threads a p99 append latency of ~130 ms against ~14 ms with
  the lock.
* Triggers abort any ``UPDATE`` or ``DELETE`` on ``events``, any ``DELETE`` on
  ``streams`` and ``log_head``, and any ``UPDATE`` of them that does not move forward
  (a stream's game id, first position and ruleset never change; versions and positions
  only grow). Someone with a SQL shell must drop them first — which the hash chains, the
  log's running hash and the checkpoint then catch (:mod:`eventlog.verify`).

Files: a new store is created only where there is no file, atomically (built beside
under a temporary name, then linked into place), with ``PRAGMA application_id``
:data:`APPLICATION_ID`. An existing file that is empty (a failed copy), not SQLite, or
another program's database is refused (:class:`NotAStore`), never re-initialised. With
``create=False`` a missing file is :class:`StoreNotFound` (readers never create a store).

Threads: each operation borrows a connection from a small pool (one thread uses a
connection at a time; the pool grows to the peak number of concurrent calls), so one
store object can serve a gRPC thread pool. Readers page through results (one short
read transaction per page, each on a borrowed connection) instead of holding a cursor
across ``yield``.

Tables: ``events`` (one row per event, ``position`` is the rowid), ``streams`` (the
head of each game: version, first/last position, last hash, ruleset) and ``log_head``
(one row: last position, running log hash), written in the same transaction as the
events. ``PRAGMA user_version`` is the schema version (1 → 2 is upgraded on open).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import operator
import os
import sqlite3
import threading
import time
import urllib.parse
import uuid
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from eventlog.hashing import GENESIS_HASH, log_hash
from eventlog.store.background import BackgroundThread
from eventlog.store.base import LINK_COLUMNS, BulkAppend, EventStore, heads_page, utc_now
from eventlog.store.checkpoint import AnchorSync, Checkpoint, CheckpointFile
from eventlog.store.errors import (
    CorruptDatabase,
    IdempotencyConflict,
    LogTruncated,
    NotAStore,
    StoreClosed,
    StoreError,
    StoreNotFound,
    WrongExpectedVersion,
)
from eventlog.store.group import GroupCommit
from eventlog.store.planning import AppendPlan, PlannedBatch, SealedBatch, plan_group
from eventlog.store.types import COLUMNS, AppendResult, LogHead, Row, StreamHead

__all__ = ["SqliteStore", "SCHEMA_VERSION", "APPLICATION_ID", "checkpoint_path"]

SCHEMA_VERSION = 2
#: ``PRAGMA application_id`` of a paipu store ("PAIP").
APPLICATION_ID = 0x50414950

_EVENTS = """
    CREATE TABLE events (
        position       INTEGER PRIMARY KEY,  -- global order from 1; the rowid, never reused
        game_id        TEXT    NOT NULL,
        seq            INTEGER NOT NULL,     -- dense per game from 0
        event_id       TEXT    NOT NULL UNIQUE,
        type           TEXT    NOT NULL,
        schema_version INTEGER NOT NULL,
        payload        TEXT    NOT NULL,     -- canonical JSON
        metadata       TEXT    NOT NULL,     -- canonical JSON
        recorded_at    TEXT    NOT NULL,
        prev_hash      TEXT    NOT NULL,
        hash           TEXT    NOT NULL,
        UNIQUE (game_id, seq)
    )
"""
_STREAMS = """
    CREATE TABLE streams (
        game_id        TEXT    PRIMARY KEY,
        version        INTEGER NOT NULL,
        first_position INTEGER NOT NULL,
        last_position  INTEGER NOT NULL,
        last_hash      TEXT    NOT NULL,
        ruleset        TEXT
    )
"""
_V1 = (
    _EVENTS,
    _STREAMS,
    "CREATE INDEX streams_by_first_position ON streams (first_position)",
    """
    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'events are immutable: UPDATE refused'); END
    """,
    """
    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'events are immutable: DELETE refused'); END
    """,
)
#: Added by schema 2 (on a new file, and when a version-1 file is upgraded).
_V2 = (
    """
    CREATE TRIGGER streams_no_delete BEFORE DELETE ON streams
    BEGIN SELECT RAISE(ABORT, 'stream records are kept: DELETE refused'); END
    """,
    """
    CREATE TRIGGER streams_only_forward BEFORE UPDATE ON streams
    WHEN NEW.game_id IS NOT OLD.game_id
      OR NEW.first_position IS NOT OLD.first_position
      OR NEW.version <= OLD.version
      OR NEW.last_position <= OLD.last_position
      OR (OLD.ruleset IS NOT NULL AND NEW.ruleset IS NOT OLD.ruleset)
    BEGIN SELECT RAISE(ABORT, 'stream records only move forward: UPDATE refused'); END
    """,
    """
    CREATE TABLE log_head (
        id       INTEGER PRIMARY KEY CHECK (id = 1),
        position INTEGER NOT NULL,
        log_hash TEXT    NOT NULL
    )
    """,
    """
    CREATE TRIGGER log_head_no_delete BEFORE DELETE ON log_head
    BEGIN SELECT RAISE(ABORT, 'the log head is kept: DELETE refused'); END
    """,
    """
    CREATE TRIGGER log_head_only_forward BEFORE UPDATE ON log_head
    WHEN NEW.position <= OLD.position
    BEGIN SELECT RAISE(ABORT, 'the log head only moves forward: UPDATE refused'); END
    """,
)

#: Game identity by content (eventlog.ingest.base.fingerprint, kept in the metadata of a
#: game's first event): an index over it, so ingest finds a stored copy of a game
#: whatever id or file name it was stored under.
_FINGERPRINT_INDEX = (
    "CREATE INDEX IF NOT EXISTS events_fingerprint "
    "ON events (json_extract(metadata, '$.fingerprint')) WHERE seq = 0"
)

_COLS = ", ".join(COLUMNS)
_row_tuple = operator.itemgetter(*COLUMNS)  # a plan's row dict -> the INSERT's parameters
_INSERT = f"INSERT INTO events ({_COLS}) VALUES ({', '.join('?' * len(COLUMNS))})"
#: A sealed row (:class:`~eventlog.store.planning.SealedBatch`): every column but the position.
_INSERT_SEALED = (f"INSERT INTO events ({', '.join(COLUMNS[1:])}) "
                  f"VALUES ({', '.join('?' * (len(COLUMNS) - 1))})")
_UPSERT_HEAD = """
    INSERT INTO streams (game_id, version, first_position, last_position, last_hash, ruleset)
    VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (game_id) DO UPDATE SET
        version = excluded.version,
        last_position = excluded.last_position,
        last_hash = excluded.last_hash,
        ruleset = excluded.ruleset
"""
_UPSERT_LOG = """
    INSERT INTO log_head (id, position, log_hash) VALUES (1, ?, ?)
    ON CONFLICT (id) DO UPDATE SET position = excluded.position, log_hash = excluded.log_hash
"""
_HEAD_COLS = "game_id, version, first_position, last_position, last_hash, ruleset"
_ID_CHUNK = 500  # well under SQLite's bound-parameter limit
_SQLITE_MAGIC = b"SQLite format 3\0"


def _writable(db_path: Path) -> bool:
    """Whether the database file and its directory (where SQLite makes ``-wal``/``-shm`` and
    the store its checkpoint) can be written (``access(2)``: False on a read-only mount even
    for root)."""
    return os.access(db_path, os.W_OK) and os.access(db_path.parent, os.W_OK)


def checkpoint_path(db_path: str | Path) -> Path:
    """Where the writer checkpoint of the database ``db_path`` lives (``…-checkpoint``)."""
    p = Path(db_path)
    return p.with_name(p.name + "-checkpoint")


def _dict_row(cursor: sqlite3.Cursor, row: tuple[Any, ...]) -> dict[str, Any]:
    return {d[0]: v for d, v in zip(cursor.description, row)}


#: The types the values of a ``log_head`` / ``streams`` row must have (SQLite keeps any type
#: in any column: a damaged record header can turn a number into text).
_LOG_HEAD_TYPES = {"position": (int,), "log_hash": (str,)}
_STREAM_TYPES = {"game_id": (str,), "version": (int,), "first_position": (int,), "last_position": (int,),
                 "last_hash": (str,), "ruleset": (str, type(None))}


def _typed(row: dict[str, Any], types: Mapping[str, tuple[type, ...]]) -> bool:
    return all(isinstance(row.get(k), t) and not isinstance(row.get(k), bool) for k, t in types.items())


def _columns_of(conn: sqlite3.Connection, table: str) -> tuple[tuple[Any, ...], ...]:
    rows = conn.execute(f"PRAGMA table_info({table})").fetchall()
    return tuple((r["name"], r["type"], r["notnull"], r["pk"]) for r in rows)


@functools.cache
def _table_columns() -> dict[str, tuple[tuple[Any, ...], ...]]:
    """What :func:`_columns_of` says of each table of a new store at :data:`SCHEMA_VERSION`."""
    with contextlib.closing(sqlite3.connect(":memory:")) as conn:
        conn.row_factory = _dict_row
        for statement in (*_V1, *_V2):
            conn.execute(statement)
        return {t: _columns_of(conn, t) for t in ("events", "streams", "log_head")}


def _lenient_text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _fetch(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...] | list[Any] = (),
           tuples: bool = False) -> list[Any]:
    """``conn.execute(sql, params).fetchall()``. A damaged text cell that is no longer UTF-8
    makes Python's sqlite3 refuse the whole result ("Could not decode to UTF-8"); then the
    query runs again decoding leniently (U+FFFD), so the row reaches the checks that name it
    (:func:`~eventlog.store.rows.inspect_row`: its hash no longer matches) instead of the
    read failing as an internal error. Only on that error: a lenient ``text_factory`` on
    every read would double the cost of fetching rows. ``tuples``: rows as plain tuples (in
    the query's column order), not dicts."""
    def run() -> list[Any]:
        cursor = conn.cursor()
        if tuples:
            cursor.row_factory = None
        return cursor.execute(sql, params).fetchall()

    try:
        return run()
    except sqlite3.OperationalError as e:
        if "decode" not in str(e):
            raise
    conn.text_factory = _lenient_text
    try:
        return run()
    finally:
        conn.text_factory = str


#: SQLite's primary result codes for a damaged file (``sqlite3.DatabaseError.sqlite_errorcode``
#: & 0xFF): SQLITE_CORRUPT ("database disk image is malformed", also a damaged index) and
#: SQLITE_NOTADB.
_DAMAGED = (11, 26)


@contextlib.contextmanager
def _translated(where: object = "the event store") -> Iterator[None]:
    """No SQLite exception leaves this module: they become :class:`StoreError` —
    :class:`CorruptDatabase` (DATA_LOSS) when SQLite says the file ``where`` is damaged."""
    try:
        yield
    except sqlite3.Error as e:
        if getattr(e, "sqlite_errorcode", 0) & 0xFF in _DAMAGED or "Could not decode to UTF-8" in str(e):
            raise CorruptDatabase(str(where), f"sqlite: {e}") from e
        if getattr(e, "sqlite_errorcode", 0) & 0xFF == _FULL:
            raise StoreError(f"{where}: disk full: the transaction was rolled back (sqlite: {e}); "
                             "free space and run it again") from e
        raise StoreError(f"sqlite: {e}") from e
    except UnicodeDecodeError as e:  # SQLite's own message quotes damaged bytes of the schema
        raise CorruptDatabase(str(where), f"sqlite: the schema holds bytes that are not UTF-8 ({e})") from e


@contextlib.contextmanager
def _savepoint(conn: sqlite3.Connection, name: str) -> Iterator[None]:
    """``SAVEPOINT name`` … ``RELEASE name``. When the body raises, the release is tried only
    while the transaction is still open and its own failure is dropped: SQLite rolls the
    whole transaction back on some errors (SQLITE_FULL: disk full), and "no such savepoint"
    would hide the error that tells what happened."""
    conn.execute(f"SAVEPOINT {name}")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute(f"RELEASE {name}")
        raise
    conn.execute(f"RELEASE {name}")


#: SQLite's primary result code SQLITE_FULL ("database or disk is full").
_FULL = 13


#: A WAL checkpoint is asked of the store's checkpoint thread once this many commits, or
#: commits of this many events, have been made since the last (SQLite's own threshold,
#: 1000 WAL pages, is ~180 single-event commits or ~11,000 events of whole games).
WAL_CHECKPOINT_COMMITS = 100
WAL_CHECKPOINT_EVENTS = 10_000
#: SQLite starts the WAL again from its beginning only once a checkpoint has copied every
#: frame (page) in it, and one running beside a steady flow of commits never has: from
#: :data:`WAL_MAX_FRAMES` frames (SQLite's own threshold) a checkpoint during which this
#: store committed copies the frames committed meanwhile holding the write lock (a few:
#: it copied the rest beside the appends), and from :data:`WAL_LIMIT_FRAMES` (40 MB of
#: 4 KiB pages: a bulk transaction writes frames before its commit) any checkpoint does.
WAL_MAX_FRAMES = 1000
WAL_LIMIT_FRAMES = 10_000


class _WalCheckpoints(BackgroundThread):
    """Runs the store's WAL checkpoints in a thread of its own, off the commit path (the
    store's connections have SQLite's automatic checkpoint turned off). :meth:`committed`
    after each commit that wrote events (the thread starts on first use, and runs a
    ``PRAGMA wal_checkpoint(PASSIVE)`` on a connection of its own when one is due — it
    waits for no reader or writer: the appends go on meanwhile, and only the frames they
    commit meanwhile are left, copied holding the write lock once the WAL is long:
    :data:`WAL_MAX_FRAMES`); :meth:`settle` waits until none is due or running;
    :meth:`close` lets a running checkpoint end and stops the thread. A checkpoint that
    fails (a disk error) leaves the WAL as it was — every commit is in it — and the next
    one due tries again."""

    thread_name = "paipu-wal-checkpoint"

    def __init__(self, store: SqliteStore) -> None:
        super().__init__()
        self._store = store
        self._commits = 0
        self._events = 0
        self._made = 0  # commits since the thread began: did any happen during a checkpoint?
        self._due = False
        self._running = False

    def committed(self, events: int) -> None:
        """A commit of ``events`` events was made (by this store)."""
        with self._cond:
            self._made += 1
            self._commits += 1
            self._events += events
            if self._commits < WAL_CHECKPOINT_COMMITS and self._events < WAL_CHECKPOINT_EVENTS:
                return
            self._commits = self._events = 0
            self._due = True
            self._start()
            self._cond.notify_all()

    def settle(self) -> None:
        """Wait until no checkpoint is due or running (one asked for has ended)."""
        with self._cond:
            while (self._due or self._running) and self._alive():
                self._cond.wait()

    def _run(self) -> None:
        conn: sqlite3.Connection | None = None
        try:
            while True:
                with self._cond:
                    while not self._due and not self._closing:
                        self._cond.wait()
                    if self._closing:
                        return
                    self._due, self._running = False, True
                try:
                    if conn is None:
                        conn = self._store._connect()
                    self._checkpoint(conn)
                except (sqlite3.Error, StoreError):
                    pass  # nothing is lost: the WAL holds every commit until a checkpoint copies it
                finally:
                    with self._cond:
                        self._running = False
                        self._cond.notify_all()
        finally:
            with self._cond:
                self._due = self._running = False
                self._cond.notify_all()
            if conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    conn.close()

    def _checkpoint(self, conn: sqlite3.Connection) -> None:
        made = self._made
        # fetchall: the statement runs to its end, so this connection keeps no read lock
        # (one would stop the next commit from starting the log again)
        (row,) = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        frames = row["log"]  # as the checkpoint began: what was committed since is not in it
        if frames >= WAL_LIMIT_FRAMES or (frames >= WAL_MAX_FRAMES and self._made != made):
            store = self._store
            assert store._ckpt is not None
            with store._write_lock, store._ckpt.locked():  # no commit now: it copies every frame left
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class _SqliteBulkAppend(BulkAppend):
    """:meth:`SqliteStore.bulk_append`: the batches of each :meth:`write` written at once into
    one write transaction, opened by the first write and ended by :meth:`commit` (or rolled
    back by :meth:`close`). Used by one thread."""

    def __init__(self, store: SqliteStore) -> None:
        super().__init__(store)
        self._sqlite = store
        self._held: contextlib.ExitStack | None = None  # the locks and connection of the open transaction
        self._conn: sqlite3.Connection | None = None
        self._start = self._log = LogHead()
        self._taken: set[str] = set()
        self._results: list[AppendResult | StoreError] = []
        self._writes = 0  # write calls in the open transaction

    def write(self, batches: Sequence[PlannedBatch]) -> None:
        if not batches:
            return
        store = self._sqlite
        if self._held is None:
            self._begin()
        assert self._conn is not None
        self._writes += 1
        try:
            with _translated(store.path):
                self._log = store._write_batches(self._conn, batches, self._log, self._taken, self._results)
        except BaseException:
            self.close()
            raise

    def _begin(self) -> None:
        store = self._sqlite
        store._check_open()
        store._check_writable()
        assert store._ckpt is not None
        held = contextlib.ExitStack()
        try:
            held.enter_context(store._write_lock)
            held.enter_context(store._ckpt.locked())
            conn = held.enter_context(store._connection())
            held.callback(_roll_back, conn)  # runs first on exit: a transaction left open is undone
            with _translated(store.path):
                conn.execute("BEGIN IMMEDIATE")
                log = store._log_checked(conn)
        except BaseException:
            held.close()
            raise
        self._held, self._conn = held, conn
        self._start = self._log = log
        self._taken = set()
        self._results = []
        self._writes = 0

    def commit(self) -> list[AppendResult | StoreError]:
        if self._held is None:
            return []  # nothing written since the last commit
        store, conn, log, start = self._sqlite, self._conn, self._log, self._start
        assert conn is not None and store._ckpt is not None and store._anchor is not None
        try:
            with _translated(store.path):
                if log.position != start.position:
                    conn.execute(_UPSERT_LOG, (log.position, log.log_hash))
                    tip = store._committed_tip(conn, log)
                conn.execute("COMMIT")
            if log.position != start.position:
                try:
                    store._ckpt.put(tip)
                    store._anchor.written(tip.position)  # synced off the acknowledgement path
                except OSError as e:
                    raise store._unanchored_bulk(start.position + 1, log.position, e) from e
        finally:
            self.close()
        if self._writes > 1:
            # a transaction held open across writes (a bulk import between its parsed chunks)
            # holds the lock nearly all along: a writer of another process or store object,
            # blocked on the checkpoint's lock and woken by its release, gets a moment to
            # take it before the next write takes it again (else it could wait out the import)
            time.sleep(_YIELD_SECONDS)
        if log.position != start.position:
            store._wal.committed(log.position - start.position)
            with store._committed:
                store._last_committed = max(store._last_committed, log.position)
                store._committed.notify_all()
        results, self._results = self._results, []
        return results

    def close(self) -> None:
        held, self._held, self._conn = self._held, None, None
        if held is not None:
            held.close()


#: How long a bulk append whose transaction spanned several writes leaves the lock free after
#: its commit (:meth:`_SqliteBulkAppend.commit`): one for every ``GAMES_PER_COMMIT`` games of an
#: import, ~10 ms in 2,000 games.
_YIELD_SECONDS = 0.001


def _roll_back(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


class SqliteStore(EventStore):
    """The SQLite backend. ``path`` is the database file.

    ``create``: make a new store when there is no file at ``path`` (else
    :class:`StoreNotFound`). ``salvage``: open even when the log lost committed events
    (for ``paipu verify`` to report what survives; :attr:`damage` then holds the
    :class:`LogTruncated`) — otherwise that raises. ``busy_timeout``: seconds a writer
    waits for another's lock (other processes). ``clock``: returns ``recorded_at``
    strings (tests may fix it; default UTC now).

    Raises :class:`NotAStore` for an existing file that is not a paipu store."""

    def __init__(
        self,
        path: str | Path,
        *,
        create: bool = True,
        salvage: bool = False,
        busy_timeout: float = 30.0,
        clock: Callable[[], str] = utc_now,
        read_only: bool | None = None,
    ) -> None:
        self.path = Path(path)
        #: Opened read-only (a snapshot, a read-only mount): SQLite's ``mode=ro`` (``immutable``
        #: when the WAL is empty and its ``-shm`` cannot be made), no checkpoint rewrite or
        #: heal, no WAL checkpoints; every append raises :class:`StoreError` saying so.
        #: ``read_only=None``: when ``create`` is False and the directory or the file is not
        #: writable (a reader on a read-only copy).
        if read_only is None:
            read_only = self.path.exists() and not _writable(self.path)
            if read_only and create:  # a command that writes
                raise StoreError(f"{self.path}: the store is read-only (a read-only directory or file); "
                                 "cannot write to it — copy it to a writable directory to write")
        self.read_only = read_only
        self._immutable = False
        #: The one-line warning given when opened read-only (what is skipped), else None.
        self.read_only_note: str | None = None
        self._busy_timeout = busy_timeout
        self._clock = clock
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._idle: list[sqlite3.Connection] = []  # the pool; grows to peak concurrency
        self._closed = False
        self._committed = threading.Condition()
        self._last_committed = 0  # by this object; other processes are seen by polling
        self._ckpt: CheckpointFile | None = None
        self._anchor: AnchorSync | None = None  # syncs the checkpoint's writes (checkpoint.py)
        self._wal = _WalCheckpoints(self)  # WAL checkpoints, off the commit path
        self._group = GroupCommit(self._commit_batches)  # concurrent appends (_append_batch)
        #: The data loss found on open (``salvage=True`` only), else None.
        self.damage: LogTruncated | None = None
        #: Set when the checkpoint file was missing on open and the log was anchored as it was
        #: found (words for ``paipu verify``: a loss before that open cannot be detected).
        self.anchored_anew: str | None = None
        #: Set when the checkpoint on open named another event hash at its position than the
        #: log's, while the log's events re-hash to the checkpoint's own running hash there
        #: (the checkpoint alone was wrong — as AppendStream wrote it before 2026-12, see
        #: :meth:`_committed_tip`) and it was rewritten: words for ``paipu verify``.
        self.reanchored: str | None = None
        try:
            self._open_file(create)
            with self._connection() as conn:
                upgraded = self._init_schema(conn)
            self._open_checkpoint(upgraded, salvage)
        except BaseException:
            self._close()
            raise

    # ---- files ---------------------------------------------------------------------

    def _open_file(self, create: bool) -> None:
        path = self.path
        if path.is_dir():
            raise NotAStore(path, "it is a directory")
        if not path.exists():
            ck = checkpoint_path(path)
            if ck.exists():
                with contextlib.closing(CheckpointFile(ck)) as f:
                    c = f.read()
                if c is not None and c.position > 0:
                    raise LogTruncated(
                        str(path), c.position, 0,
                        f"{path.name} is missing but its checkpoint records {c.position} committed "
                        f"events; restore the database file (do not delete {ck.name})",
                    )
            if not create:
                raise StoreNotFound(path.parent if path.name == "events.sqlite" else path)
            self._create_file()
            return
        with open(path, "rb") as f:
            magic = f.read(len(_SQLITE_MAGIC))
        if not magic:
            raise NotAStore(path, "the file is empty (a failed copy?); restore it from a copy, or "
                                  "remove it to start a new, empty store")
        if magic != _SQLITE_MAGIC:
            raise NotAStore(path, "not an SQLite database")
        with open(path, "rb") as f:
            header = f.read(100)
        app = int.from_bytes(header[68:72], "big")  # the database header's application id
        if self.read_only:
            self._choose_read_only_mode()
        with contextlib.closing(self._raw_connect()) as conn:
            try:
                tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            except (sqlite3.Error, UnicodeDecodeError) as e:  # SQLite quotes a damaged schema: maybe not UTF-8
                if app == APPLICATION_ID:
                    raise CorruptDatabase(str(path), f"sqlite: the schema cannot be read ({e})") from None
                raise NotAStore(path, f"SQLite cannot read it ({e})") from None
        if app != APPLICATION_ID and not (app == 0 and {"events", "streams"} <= tables):
            raise NotAStore(path, "an SQLite database of another program (no paipu tables)")

    def _raw_connect(self, **kwargs: Any) -> sqlite3.Connection:
        """A plain connection to the file (``mode=ro`` or ``immutable`` when read-only)."""
        if not self.read_only:
            return sqlite3.connect(str(self.path), timeout=self._busy_timeout, **kwargs)
        query = "immutable=1" if self._immutable else "mode=ro"
        uri = "file:" + urllib.parse.quote(str(self.path.resolve())) + "?" + query
        return sqlite3.connect(uri, uri=True, timeout=self._busy_timeout, **kwargs)

    def _choose_read_only_mode(self) -> None:
        """A cleanly closed store (no ``-shm``, the WAL empty or absent) is read with
        ``immutable=1``: the database file alone holds every commit, and SQLite makes no
        ``-wal``/``-shm`` beside it. Otherwise (a copy taken while open, or another process
        has it open) ``mode=ro``, which reads the WAL too but needs its ``-shm``: a non-empty
        WAL whose ``-shm`` cannot be had in a read-only directory cannot be read."""
        wal = self.path.with_name(self.path.name + "-wal")
        shm = self.path.with_name(self.path.name + "-shm")
        if not shm.exists() and not (wal.exists() and wal.stat().st_size > 0):
            self._immutable = True
            return
        try:
            with contextlib.closing(self._raw_connect()) as conn:
                conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        except sqlite3.Error as e:
            raise StoreError(
                f"{self.path}: read-only, and SQLite cannot read its {wal.name} (sqlite: {e}; it needs "
                f"{shm.name} beside it); copy the store to a writable directory, or open it where it "
                "was written"
            ) from None

    def _create_file(self) -> None:
        """Build the schema in a temporary file beside ``path``, then link it into place
        (so a crash never leaves a half-made store, and a concurrent creator wins)."""
        path = self.path
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.new")
        try:
            with contextlib.closing(sqlite3.connect(str(tmp), isolation_level=None)) as conn:
                conn.execute("BEGIN")
                for statement in (*_V1, *_V2, _FINGERPRINT_INDEX):
                    conn.execute(statement)
                conn.execute("INSERT INTO log_head (id, position, log_hash) VALUES (1, 0, ?)", (GENESIS_HASH,))
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                conn.execute("COMMIT")
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
            ck = CheckpointFile(checkpoint_path(path), create=True)
            try:
                with ck.locked():
                    if not path.exists():
                        ck.initialise(Checkpoint(0, GENESIS_HASH, ""))
                    with contextlib.suppress(FileExistsError):  # another creator was first
                        os.link(tmp, path)
            finally:
                ck.close()
            _fsync_dir(path.parent)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)

    # ---- connections ---------------------------------------------------------------

    @contextlib.contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        """A connection for the duration of one operation, used by one thread at a time
        and returned to the pool afterwards (so a gRPC thread pool shares a few)."""
        with self._lock:
            if self._closed:
                raise StoreClosed("the event store is closed")
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            conn = self._connect()
        try:
            yield conn
        finally:
            with self._lock:
                if not self._closed and not conn.in_transaction:
                    self._idle.append(conn)
                    conn = None
            if conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    conn.close()

    def _connect(self) -> sqlite3.Connection:
        with _translated(self.path):
            conn = self._raw_connect(
                isolation_level=None,  # we issue BEGIN/COMMIT ourselves
                check_same_thread=False,  # pooled: one thread at a time, not always the same
            )
            try:
                conn.row_factory = _dict_row
                conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")
                if self.read_only:
                    return conn  # the journal mode is the file's; nothing is written
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()["journal_mode"]
                if mode.lower() != "wal":
                    raise StoreError(f"{self.path}: cannot switch to WAL journal (got {mode!r})")
                conn.execute("PRAGMA synchronous = FULL")
                conn.execute("PRAGMA wal_autocheckpoint = 0")  # the store's own thread checkpoints (_WalCheckpoints)
            except BaseException:
                conn.close()
                raise
        return conn

    def _init_schema(self, conn: sqlite3.Connection) -> bool:
        """Check the schema version; upgrade a version-1 file. True when upgraded."""
        with _translated(self.path):
            version = conn.execute("PRAGMA user_version").fetchone()["user_version"]
            if version == SCHEMA_VERSION:
                self._check_tables(conn)
                self._ensure_fingerprint_index(conn)
                return False
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path}: schema version {version} is newer than this paipu "
                    f"understands ({SCHEMA_VERSION})"
                )
            if version != 1:
                raise NotAStore(self.path, f"unknown schema version {version}")
            self._check_writable("upgrade its schema version 1")
            with self._write(conn):
                # Another process may have upgraded it while we waited for the lock.
                if conn.execute("PRAGMA user_version").fetchone()["user_version"] != 1:
                    return False
                for statement in _V2:
                    conn.execute(statement)
                running, last = GENESIS_HASH, 0
                for row in conn.execute("SELECT position, hash FROM events ORDER BY position"):
                    running, last = log_hash(running, row["position"], row["hash"]), row["position"]
                conn.execute(_UPSERT_LOG, (last, running))
                conn.execute(_FINGERPRINT_INDEX)
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            return True

    def _check_tables(self, conn: sqlite3.Connection) -> None:
        """The tables have the columns (names, declared types, keys) this schema version
        makes. A damaged schema record (a flipped byte in ``sqlite_master`` renames a column,
        or turns the ``position`` rowid into an ordinary column) would otherwise fail reads
        as internal errors or serve other values; it is :class:`CorruptDatabase` at open."""
        for table, columns in _table_columns().items():
            found = _columns_of(conn, table)
            if found != columns:
                raise CorruptDatabase(
                    str(self.path),
                    f"the schema is damaged: table {table} has columns "
                    f"{', '.join(' '.join(map(str, c)) for c in found) or 'none'}",
                )

    def _ensure_fingerprint_index(self, conn: sqlite3.Connection) -> None:
        """Add the fingerprint index to a store made before it existed (an index only:
        no stored row changes). A read-only file keeps working without it."""
        if self.read_only:
            return
        if conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'events_fingerprint'"
        ).fetchone():
            return
        with contextlib.suppress(sqlite3.Error):
            with self._write(conn):
                conn.execute(_FINGERPRINT_INDEX)

    def _open_read_only(self, salvage: bool) -> None:
        """The checks of :meth:`_open_checkpoint` on a read-only store, writing nothing: a
        missing checkpoint is not made, one behind the log is not healed, a wrong one not
        rewritten (each said in the one warning)."""
        ck_path = checkpoint_path(self.path)
        skipped = ["WAL checkpoints"]
        with self._connection() as conn, _translated(self.path):
            log = self._log(conn)
            c: Checkpoint | None = None
            if ck_path.exists():
                self._ckpt = CheckpointFile(ck_path, read_only=True)  # for checkpoint(): verify
                c = self._ckpt.read()
            if c is None:
                if log.position > 0:
                    skipped.insert(0, f"the data-loss check ({ck_path.name} is missing or damaged)")
            else:
                problem = self._compare(conn, c, log)
                if problem is not None and self._only_event_hash_wrong(conn, c, log):
                    skipped.insert(0, f"the rewrite of {ck_path.name} (it names another event hash "
                                      f"at position {c.position})")
                elif problem is not None:
                    if not salvage:
                        raise problem
                    self.damage = problem
                elif c.position < log.position:
                    skipped.insert(0, f"the checkpoint heal ({ck_path.name} records {c.position}, "
                                      f"the log {log.position})")
        mode = "immutable" if self._immutable else "mode=ro"
        self.read_only_note = (
            f"{self.path}: the store is read-only (opened {mode}); skipped: {', '.join(skipped)}; "
            "commands that write refuse it"
        )
        warnings.warn(self.read_only_note, stacklevel=4)

    def _check_writable(self, what: str = "append") -> None:
        """Raises :class:`StoreError` (one line) when the store was opened read-only."""
        if self.read_only:
            raise StoreError(f"{self.path}: the store is read-only (a read-only directory or file); "
                             f"cannot {what} — copy it to a writable directory to write")

    def _open_checkpoint(self, upgraded: bool, salvage: bool) -> None:
        if self.read_only:
            self._open_read_only(salvage)
            return
        ck_path = checkpoint_path(self.path)
        missing = not ck_path.exists()
        self._ckpt = CheckpointFile(ck_path, create=True)
        self._anchor = AnchorSync(self._ckpt)
        with self._ckpt.locked(), self._connection() as conn, _translated(self.path):
            log = self._log(conn)
            c = self._ckpt.read()
            if c is None:
                if not (upgraded or missing or log.position == 0):
                    damaged = LogTruncated(str(self.path), 0, log.position,
                                           f"the checkpoint file {ck_path.name} is damaged")
                    if not salvage:
                        raise damaged
                    self.damage = damaged
                elif not upgraded and log.position > 0:
                    self.anchored_anew = (
                        f"{self.path}: no checkpoint file ({ck_path.name}); anchoring the log as it "
                        f"is now (position {log.position}). Copy it with the database."
                    )
                    warnings.warn(self.anchored_anew, stacklevel=3)
                self._ckpt.initialise(self._checkpoint_of(conn, log))
                return
            problem = self._compare(conn, c, log)
            if problem is not None and self._only_event_hash_wrong(conn, c, log):
                self.reanchored = (
                    f"{self.path}: its checkpoint ({ck_path.name}) named another event hash at "
                    f"position {c.position} than the log holds, but the log's events up to there "
                    "re-hash to the checkpoint's own running hash: the events are the committed "
                    f"ones and the checkpoint was wrong; rewritten at position {log.position}."
                )
                warnings.warn(self.reanchored, stacklevel=3)
                self._ckpt.initialise(self._checkpoint_of(conn, log))  # both slots: the other may hold it too
                return
            if problem is not None:
                if not salvage:
                    raise problem
                self.damage = problem
                return
            if c.position < log.position:  # a crash between commit and checkpoint write
                self._ckpt.write(self._checkpoint_of(conn, log))

    def _checkpoint_of(self, conn: sqlite3.Connection, log: LogHead) -> Checkpoint:
        rows = _fetch(conn, "SELECT hash FROM events WHERE position = ?", (log.position,))
        return Checkpoint(log.position, log.log_hash, rows[0]["hash"] if rows else "")

    def _only_event_hash_wrong(self, conn: sqlite3.Connection, c: Checkpoint, log: LogHead) -> bool:
        """True when of the checkpoint ``c`` only the event hash disagrees with the log: the
        stored events from position 1 to ``c.position`` re-hash (:func:`log_hash`, which
        covers each position and event hash) to ``c.log_hash``, and at the log's recorded
        head the recorded running hash agrees. The running hash then proves every event up
        to the checkpoint is the committed one (the event hash is only the quick check of
        the same fact, without reading the whole log); this full walk runs only when that
        quick check failed."""
        if c.position == 0 or c.position > log.position:
            return False
        if c.position == log.position and c.log_hash != log.log_hash:
            return False
        running, expected = GENESIS_HASH, 1
        for row in conn.execute("SELECT position, hash FROM events WHERE position <= ? ORDER BY position",
                                (c.position,)):
            if row["position"] != expected or not isinstance(row["hash"], str):
                return False
            running, expected = log_hash(running, row["position"], row["hash"]), expected + 1
        return expected == c.position + 1 and running == c.log_hash

    def _committed_tip(self, conn: sqlite3.Connection, log: LogHead) -> Checkpoint:
        """The checkpoint of a write transaction about to commit with the log's head at
        ``log``: its event hash read back from the table at that position, inside the
        transaction — never carried from whichever batch came last (a duplicate or a refused
        batch writes nothing; a checkpoint naming another event there is DATA LOSS on every
        later open). Raises :class:`CorruptDatabase` (the transaction then rolls back, nothing
        acknowledged) when no event holds that position."""
        tip = self._checkpoint_of(conn, log)
        if not tip.event_hash:
            raise CorruptDatabase(str(self.path), f"the append would leave the log's head at position "
                                                  f"{log.position}, where no event is stored")
        return tip

    def _log_checked(self, conn: sqlite3.Connection) -> LogHead:
        """The log's head as the write transaction open on ``conn`` sees it, after the
        checkpoint's word on it: raises the :class:`LogTruncated` that :meth:`_compare` finds
        when the checkpoint records committed events past it (no write goes on a lost tail)."""
        assert self._ckpt is not None
        log = self._log(conn)
        ck = self._ckpt.read()
        if ck is not None and ck.position > log.position:
            problem = self._compare(conn, ck, log)
            if problem is not None:
                raise problem
        return log

    def _compare(self, conn: sqlite3.Connection, c: Checkpoint, log: LogHead) -> LogTruncated | None:
        """The data loss the checkpoint ``c`` reveals in the database, or None."""
        where = str(self.path)
        top = conn.execute("SELECT COALESCE(MAX(position), 0) AS p FROM events").fetchone()["p"]
        found = min(top, log.position)
        if c.position > found:
            return LogTruncated(
                where, c.position, found,
                f"the log ends at position {found} but its checkpoint records {c.position} "
                f"committed events: positions {found + 1}..{c.position} are lost (a damaged or "
                f"truncated {self.path.name}-wal?). Restore from a backup; `paipu verify` "
                "lists the games that survive",
            )
        if c.position == log.position and c.log_hash != log.log_hash:
            return LogTruncated(
                where, c.position, found,
                f"the log's running hash at position {c.position} differs from its checkpoint "
                "(events or games were removed or rewritten)",
            )
        if c.position and c.position <= found:
            rows = _fetch(conn, "SELECT hash FROM events WHERE position = ?", (c.position,))
            if not rows or rows[0]["hash"] != c.event_hash:
                return LogTruncated(
                    where, c.position, found,
                    f"the event at the checkpoint's position {c.position} is not the one committed there",
                )
        return None

    @contextlib.contextmanager
    def _write(self, conn: sqlite3.Connection) -> Iterator[None]:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _is_closed(self) -> bool:
        return self._closed

    def _close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            idle, self._idle = self._idle, []
        self._wal.close()
        for conn in idle:  # connections in use are closed when they come back
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        with self._write_lock:
            if self._anchor is not None:
                self._anchor.close()  # every checkpoint written is synced
            if self._ckpt is not None:
                self._ckpt.close()
        with self._committed:
            self._committed.notify_all()

    def checkpoint(self) -> LogHead | None:
        self._check_open()
        if self._ckpt is None:  # read-only, with no checkpoint file
            return None
        with self._write_lock:
            c = self._ckpt.read()
        return LogHead(c.position, c.log_hash) if c is not None else None

    # ---- append ----------------------------------------------------------------------

    def _append_batch(self, batch: PlannedBatch) -> AppendResult:
        """Group commit (:class:`~eventlog.store.group.GroupCommit`): an append made while
        another thread commits waits, and is committed with every other append made
        meanwhile in the next transaction (:meth:`_commit_batches`: one ``BEGIN IMMEDIATE``
        … ``COMMIT``, one sync of the WAL, one checkpoint write for all); each gets the
        outcome it would get alone. A lone append commits at once."""
        return self._group.append(batch)

    def _commit_batches(self, batches: Sequence[PlannedBatch]) -> list[AppendResult | BaseException]:
        """Append ``batches`` in one write transaction, in order: one outcome each (its
        result, or the exception it raises alone — nothing of it written), once the
        transaction is durable and its checkpoint written. The reads come first (every
        batch's event ids, every stream record, in two queries), then each batch is planned
        seeing the ones before it (:func:`~eventlog.store.planning.plan_group`), then the
        writes: one insert of every row, one of the stream records, the log's head. Raises
        (nothing of it acknowledged) when the transaction fails."""
        self._check_open()
        self._check_writable()
        assert self._ckpt is not None and self._anchor is not None
        with self._write_lock, self._ckpt.locked(), self._connection() as conn, _translated(self.path):
            with self._write(conn):
                log = self._log_checked(conn)
                stored = self._rows_by_event_id(conn, list(dict.fromkeys(i for b in batches for i in b.event_ids)))
                heads = self._heads(conn, list(dict.fromkeys(b.game_id for b in batches)))
                group = plan_group(batches, stored, heads, log, self._clock)
                if group.rows:
                    conn.executemany(_INSERT, [_row_tuple(r) for r in group.rows])
                    conn.executemany(_UPSERT_HEAD, [(h.game_id, h.version, h.first_position, h.last_position,
                                                     h.last_hash, h.ruleset) for h in group.heads])
                    conn.execute(_UPSERT_LOG, (group.log.position, group.log.log_hash))
            outcomes: list[AppendResult | BaseException] = list(group.outcomes)
            if group.rows:
                # the tip: the last row written (the log's head), as planned — no read-back
                tip = Checkpoint(group.log.position, group.log.log_hash, group.rows[-1]["hash"])
                try:
                    self._ckpt.put(tip)
                    self._anchor.written(tip.position)  # synced off the acknowledgement path
                except OSError as e:
                    outcomes = [self._unanchored(o, e) if isinstance(o, AppendResult) and not o.duplicate else o
                                for o in outcomes]
        if group.rows:
            self._wal.committed(len(group.rows))
            with self._committed:
                self._last_committed = max(self._last_committed, group.log.position)
                self._committed.notify_all()
        return outcomes

    def append_batches(self, batches: Sequence[PlannedBatch]) -> list[AppendResult | StoreError]:
        """Every batch in one write transaction, then one commit, one checkpoint write and
        sync (:meth:`bulk_append`: written, then committed)."""
        self._check_open()
        if not batches:
            return []
        with self.bulk_append() as bulk:
            bulk.write(batches)
            return bulk.commit()

    def bulk_append(self) -> _SqliteBulkAppend:
        """A :class:`~eventlog.store.base.BulkAppend` that writes each call's batches at once
        into one open write transaction (taken at the first write: the write lock, the
        checkpoint's lock, ``BEGIN IMMEDIATE``), so a bulk import inserts a game while the next
        ones are parsed; :meth:`~eventlog.store.base.BulkAppend.commit` ends it — one commit,
        one checkpoint write and sync for all. A run of :class:`SealedBatch` es of new
        streams is written with one insert (their rows and stream records, in a savepoint);
        any other batch — or a run whose insert meets an event id already stored — is
        planned one by one, each in its own savepoint (so a refused game leaves nothing).
        Readers (other connections) see none of it before the commit."""
        return _SqliteBulkAppend(self)

    def _write_batches(self, conn: sqlite3.Connection, batches: Sequence[PlannedBatch], log: LogHead,
                       taken: set[str], results: list[AppendResult | StoreError]) -> LogHead:
        """Write ``batches`` after ``log`` in the open write transaction of ``conn`` (see
        :meth:`bulk_append`): each outcome appended to ``results``, the game ids now taken added
        to ``taken`` (which holds those written earlier in the transaction); the log's new head."""
        taken.update(self._stream_ids(conn, [b.game_id for b in batches
                                             if isinstance(b, SealedBatch) and b.game_id not in taken]))
        i = 0
        while i < len(batches):
            run = self._new_streams(batches, i, taken)
            if run:
                written = self._insert_sealed(conn, run, log)
                if written is not None:
                    log, done = written
                    results += done
                    taken.update(b.game_id for b in run)
                    i += len(run)
                    continue
            for batch in run or batches[i : i + 1]:  # one by one
                outcome = self._append_one(conn, batch, log)
                if isinstance(outcome, tuple):
                    plan, log = outcome
                    results.append(plan.result)
                else:
                    results.append(outcome)
                taken.add(batch.game_id)
                i += 1
        return log

    @staticmethod
    def _new_streams(batches: Sequence[PlannedBatch], i: int, taken: set[str]) -> list[SealedBatch]:
        """The sealed batches from ``i`` on whose streams do not exist (nor earlier in the run)."""
        run: list[SealedBatch] = []
        ids: set[str] = set()
        for b in batches[i:]:
            if not isinstance(b, SealedBatch) or b.game_id in taken or b.game_id in ids:
                break
            ids.add(b.game_id)
            run.append(b)
        return run

    def _insert_sealed(
        self, conn: sqlite3.Connection, run: list[SealedBatch], log: LogHead
    ) -> tuple[LogHead, list[AppendResult]] | None:
        """Write ``run`` (new streams) after ``log``: one insert of every row and one of the
        stream records, the log's running hash over the positions they take. The rows go in
        as they came (:data:`_INSERT_SEALED`: the position is the rowid SQLite gives, one
        more than the largest — the log's head, events are never deleted), checked after
        the insert. None, with nothing written, when an event id of the run is stored
        already or the positions are not the expected ones (then each is planned on its
        own)."""
        heads: list[tuple[Any, ...]] = []
        done: list[AppendResult] = []
        position = log.position
        for b in run:
            first = position + 1
            position += len(b.rows)
            last = b.rows[-1]
            heads.append((b.game_id, last[1], first, position, last[9], b.ruleset))
            done.append(AppendResult(b.game_id, 0, last[1], first, position, last[1], False))
        with _savepoint(conn, "sealed"):
            try:
                conn.executemany(_INSERT_SEALED, itertools.chain.from_iterable(b.rows for b in run))
                if conn.execute("SELECT last_insert_rowid() AS p").fetchone()["p"] != position:
                    conn.execute("ROLLBACK TO sealed")
                    return None
                conn.executemany(_UPSERT_HEAD, heads)
            except sqlite3.IntegrityError:
                conn.execute("ROLLBACK TO sealed")
                return None
        head = log
        for b in run:
            head = LogHead(head.position + len(b.rows), b.log_hash_after(head))
        return head, done

    def _append_one(
        self, conn: sqlite3.Connection, batch: PlannedBatch, log: LogHead
    ) -> tuple[AppendPlan, LogHead] | StoreError:
        """Plan and write one batch in its own savepoint: the plan and the log's new head
        (the old ``log`` for a duplicate), or the refusal."""
        with _savepoint(conn, "game"):
            try:
                stored = self._rows_by_event_id(conn, batch.event_ids)
                plan = batch.plan(stored, self._head(conn, batch.game_id), log, self._clock())
                if plan.rows:
                    conn.executemany(_INSERT, [_row_tuple(r) for r in plan.rows])
                    h = plan.head
                    assert h is not None and plan.log is not None
                    conn.execute(
                        _UPSERT_HEAD,
                        (h.game_id, h.version, h.first_position, h.last_position, h.last_hash, h.ruleset),
                    )
                    log = plan.log
            except (WrongExpectedVersion, IdempotencyConflict) as e:
                conn.execute("ROLLBACK TO game")
                return e
        return plan, log

    def _stream_ids(self, conn: sqlite3.Connection, game_ids: list[str]) -> set[str]:
        """Those of ``game_ids`` that have a stream."""
        found: set[str] = set()
        for i in range(0, len(game_ids), _ID_CHUNK):
            chunk = game_ids[i : i + _ID_CHUNK]
            marks = ", ".join("?" * len(chunk))
            found.update(r["game_id"] for r in _fetch(conn, f"SELECT game_id FROM streams WHERE game_id IN ({marks})", chunk))
        return found

    def _unanchored_bulk(self, first: int, last: int, e: OSError) -> StoreError:
        return StoreError(
            f"{self.path}: the append committed (positions {first}..{last}) but its checkpoint "
            f"could not be written ({e}); retry the same batches"
        )

    def _unanchored(self, result: AppendResult, e: OSError) -> StoreError:
        return StoreError(
            f"{self.path}: the append committed (positions {result.first_position}.."
            f"{result.last_position}) but its checkpoint could not be written ({e}); "
            "retry the same batch"
        )

    def _log(self, conn: sqlite3.Connection) -> LogHead:
        rows = _fetch(conn, "SELECT position, log_hash FROM log_head WHERE id = 1")
        if not rows:
            return LogHead()
        row = rows[0]
        if not _typed(row, _LOG_HEAD_TYPES):
            raise CorruptDatabase(str(self.path), "the log head record is damaged (a value of the wrong type)")
        return LogHead(row["position"], row["log_hash"])

    def _rows_by_event_id(self, conn: sqlite3.Connection, ids: list[str]) -> list[Row]:
        rows: list[Row] = []
        for i in range(0, len(ids), _ID_CHUNK):
            chunk = ids[i : i + _ID_CHUNK]
            marks = ", ".join("?" * len(chunk))
            rows += _fetch(conn, f"SELECT {_COLS} FROM events WHERE event_id IN ({marks})", chunk)
        return rows

    def _heads(self, conn: sqlite3.Connection, game_ids: list[str]) -> dict[str, StreamHead]:
        """The stream records of those of ``game_ids`` that have one."""
        found: dict[str, StreamHead] = {}
        for i in range(0, len(game_ids), _ID_CHUNK):
            chunk = game_ids[i : i + _ID_CHUNK]
            marks = ", ".join("?" * len(chunk))
            for row in _fetch(conn, f"SELECT {_HEAD_COLS} FROM streams WHERE game_id IN ({marks})", chunk):
                if not _typed(row, _STREAM_TYPES):
                    raise CorruptDatabase(str(self.path), f"the stream record of game {str(row.get('game_id'))[:200]!r} "
                                                          "is damaged (a value of the wrong type)")
                found[row["game_id"]] = StreamHead(**row)
        return found

    def _head(self, conn: sqlite3.Connection, game_id: str) -> StreamHead | None:
        rows = _fetch(conn, f"SELECT {_HEAD_COLS} FROM streams WHERE game_id = ?", (game_id,))
        if not rows:
            return None
        if not _typed(rows[0], _STREAM_TYPES):
            raise CorruptDatabase(str(self.path), f"the stream record of game {game_id[:200]!r} is damaged "
                                                  "(a value of the wrong type)")
        return StreamHead(**rows[0])

    # ---- reads -------------------------------------------------------------------------

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]:
        with self._connection() as conn, _translated(self.path):
            return _fetch(conn, sql, params)

    def _fetch_game(self, game_id: str, from_seq: int, n: int, backward: bool) -> list[Row]:
        op, order = ("<=", "DESC") if backward else (">=", "ASC")
        return self._query(
            f"SELECT {_COLS} FROM events WHERE game_id = ? AND seq {op} ? ORDER BY seq {order} LIMIT ?",
            (game_id, from_seq, n),
        )

    def _fetch_game_values(self, game_id: str, from_seq: int, n: int, backward: bool) -> list[tuple[Any, ...]]:
        op, order = ("<=", "DESC") if backward else (">=", "ASC")
        with self._connection() as conn, _translated(self.path):
            return _fetch(
                conn, f"SELECT {_COLS} FROM events WHERE game_id = ? AND seq {op} ? ORDER BY seq {order} LIMIT ?",
                (game_id, from_seq, n), tuples=True,
            )

    def _fetch_all(self, from_position: int, n: int, backward: bool) -> list[Row]:
        op, order = ("<=", "DESC") if backward else (">=", "ASC")
        return self._query(
            f"SELECT {_COLS} FROM events WHERE position {op} ? ORDER BY position {order} LIMIT ?",
            (from_position, n),
        )

    def _stream_head(self, game_id: str) -> StreamHead | None:
        with self._connection() as conn, _translated(self.path):
            return self._head(conn, game_id)

    def _stream_heads(self, after: int = 0, limit: int | None = None, ruleset: str | None = None) -> list[StreamHead]:
        where, params = heads_page(after, limit, ruleset, "?")
        rows = self._query(f"SELECT {_HEAD_COLS} FROM streams{where}", params)
        for r in rows:
            if not _typed(r, _STREAM_TYPES):
                raise CorruptDatabase(str(self.path), "a stream record is damaged (a value of the wrong type)")
        return [StreamHead(**r) for r in rows]

    def games_by_fingerprint(self, fingerprints: Sequence[str]) -> dict[str, list[tuple[str, str, str]]]:
        self._check_open()
        found: dict[str, list[tuple[str, str, str]]] = {}
        fps = list(dict.fromkeys(fingerprints))
        for i in range(0, len(fps), _ID_CHUNK):
            chunk = fps[i : i + _ID_CHUNK]
            marks = ", ".join("?" * len(chunk))
            for r in self._query(
                "SELECT json_extract(metadata, '$.fingerprint') AS fp, game_id, payload, metadata FROM events "
                f"WHERE seq = 0 AND json_extract(metadata, '$.fingerprint') IN ({marks}) ORDER BY position",
                tuple(chunk),
            ):
                found.setdefault(r["fp"], []).append((r["game_id"], r["payload"], r["metadata"]))
        return found

    def _log_head(self) -> LogHead:
        with self._connection() as conn, _translated(self.path):
            return self._log(conn)

    def _wait_for_commit(self, after_position: int, timeout: float) -> None:
        # Commits by this object wake us at once; other processes' are seen by polling.
        with self._committed:
            if self._last_committed <= after_position and not self._closed:
                self._committed.wait(timeout)

    # ---- raw read path -------------------------------------------------------------------

    def iter_raw(self, game_id: str) -> Iterator[Row]:
        rows = self._query(
            f"SELECT {_COLS} FROM events WHERE game_id = ? ORDER BY position", (game_id,)
        )
        return iter(rows)

    def _fetch_log_links(self, from_position: int, n: int) -> list[tuple[Any, ...]]:
        with self._connection() as conn, _translated(self.path):
            return _fetch(conn, f"SELECT {', '.join(LINK_COLUMNS)} FROM events WHERE position >= ? "
                                "ORDER BY position LIMIT ?", (from_position, n), tuples=True)

    def iter_raw_values(self, game_id: str) -> Iterator[tuple[Any, ...]]:
        # In the (game_id, seq) index's order, which is position order for an intact game
        # (seqs are given in commit order) and spares SQLite a sort of the whole rows; when
        # the positions say otherwise, the rows are read again by position.
        with self._connection() as conn, _translated(self.path):
            rows = _fetch(conn, f"SELECT {_COLS} FROM events WHERE game_id = ? ORDER BY seq", (game_id,),
                          tuples=True)
            positions = [row[0] for row in rows]
            if positions != sorted(positions):
                rows = _fetch(conn, f"SELECT {_COLS} FROM events WHERE game_id = ? ORDER BY position",
                              (game_id,), tuples=True)
        return iter(rows)

    def raw_game_ids(self) -> list[str]:
        with_rows = self._query(
            "SELECT game_id FROM events GROUP BY game_id ORDER BY MIN(position)"
        )
        recorded = self._query("SELECT game_id FROM streams ORDER BY first_position")
        ids = [r["game_id"] for r in with_rows]
        seen = set(ids)
        return ids + [r["game_id"] for r in recorded if r["game_id"] not in seen]
