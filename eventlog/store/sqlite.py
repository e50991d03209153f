"""The embedded event store: one SQLite file (shared/DESIGN.md §5).

Durability and order:

* WAL journal, ``synchronous=FULL``: a commit returns only after the WAL is synced,
  so :meth:`append` acknowledges durable data.
* Every append runs in ``BEGIN IMMEDIATE``: the write lock is taken *before* the
  idempotency check, the version check and the choice of positions, so writers (threads
  or processes) are serialised and positions are assigned in commit order. A WAL reader
  sees a snapshot of whole commits, hence always a gap-free prefix of positions — a
  tailing reader never skips one.
* ``busy_timeout`` (default 30 s) makes concurrent writers from other processes wait
  for the lock instead of failing. Writers in *this* process first queue on a Python
  lock: SQLite's busy handler waits by sleeping (up to 100 ms a try), which gave 8
  writer threads a p99 append latency of ~130 ms against ~14 ms with the lock.
* Triggers abort any ``UPDATE`` or ``DELETE`` on ``events``: the log is append-only
  even for someone with a SQL shell (who would have to drop them first — which
  :mod:`eventlog.verify` then catches through the hash chain).

Threads: each operation borrows a connection from a small pool (one thread uses a
connection at a time; the pool grows to the peak number of concurrent calls), so one
store object can serve a gRPC thread pool. Readers page through results (one short
read transaction per page, each on a borrowed connection) instead of holding a cursor
across ``yield``.

Tables: ``events`` (one row per event, ``position`` is the rowid) and ``streams`` (the
head of each game: version, first/last position, last hash, ruleset), written in the
same transaction as the events. ``PRAGMA user_version`` is the schema version.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from eventlog.store.base import (
    COLUMNS,
    AppendResult,
    Batch,
    EventStore,
    Row,
    StoreClosed,
    StoreError,
    StreamHead,
    utc_now,
)

__all__ = ["SqliteStore", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1

_SCHEMA = (
    """
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
    """,
    """
    CREATE TABLE streams (
        game_id        TEXT    PRIMARY KEY,
        version        INTEGER NOT NULL,
        first_position INTEGER NOT NULL,
        last_position  INTEGER NOT NULL,
        last_hash      TEXT    NOT NULL,
        ruleset        TEXT
    )
    """,
    "CREATE INDEX streams_by_first_position ON streams (first_position)",
    """
    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'events are immutable: UPDATE refused'); END
    """,
    """
    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'events are immutable: DELETE refused'); END
    """,
    f"PRAGMA user_version = {SCHEMA_VERSION}",
)

#: Game identity by content (eventlog.ingest.base.fingerprint, kept in the metadata of a
#: game's first event): an index over it, so ingest finds a stored copy of a game
#: whatever id or file name it was stored under.
_FINGERPRINT_INDEX = (
    "CREATE INDEX IF NOT EXISTS events_fingerprint "
    "ON events (json_extract(metadata, '$.fingerprint')) WHERE seq = 0"
)

_COLS = ", ".join(COLUMNS)
_INSERT = f"INSERT INTO events ({_COLS}) VALUES ({', '.join('?' * len(COLUMNS))})"
_UPSERT_HEAD = """
    INSERT INTO streams (game_id, version, first_position, last_position, last_hash, ruleset)
    VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (game_id) DO UPDATE SET
        version = excluded.version,
        last_position = excluded.last_position,
        last_hash = excluded.last_hash,
        ruleset = excluded.ruleset
"""
_HEAD_COLS = "game_id, version, first_position, last_position, last_hash, ruleset"
_ID_CHUNK = 500  # well under SQLite's bound-parameter limit


def _dict_row(cursor: sqlite3.Cursor, row: tuple[Any, ...]) -> dict[str, Any]:
    return {d[0]: v for d, v in zip(cursor.description, row)}


@contextlib.contextmanager
def _translated() -> Iterator[None]:
    """No SQLite exception leaves this module: they become :class:`StoreError`."""
    try:
        yield
    except sqlite3.Error as e:
        raise StoreError(f"sqlite: {e}") from e


class SqliteStore(EventStore):
    """The SQLite backend. ``path`` is the database file (created if missing).

    ``busy_timeout``: seconds a writer waits for another's lock (other processes).
    ``clock``: returns ``recorded_at`` strings (tests may fix it; default UTC now)."""

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout: float = 30.0,
        clock: Callable[[], str] = utc_now,
    ) -> None:
        self.path = Path(path)
        self._busy_timeout = busy_timeout
        self._clock = clock
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._idle: list[sqlite3.Connection] = []  # the pool; grows to peak concurrency
        self._closed = False
        self._committed = threading.Condition()
        self._last_committed = 0  # by this object; other processes are seen by polling
        try:
            with self._connection() as conn:
                self._init_schema(conn)
        except BaseException:
            self._close()
            raise

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
        with _translated():
            conn = sqlite3.connect(
                str(self.path),
                timeout=self._busy_timeout,
                isolation_level=None,  # we issue BEGIN/COMMIT ourselves
                check_same_thread=False,  # pooled: one thread at a time, not always the same
            )
            try:
                conn.row_factory = _dict_row
                conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()["journal_mode"]
                if mode.lower() != "wal":
                    raise StoreError(f"{self.path}: cannot switch to WAL journal (got {mode!r})")
                conn.execute("PRAGMA synchronous = FULL")
            except BaseException:
                conn.close()
                raise
        return conn

    def _init_schema(self, conn: sqlite3.Connection) -> None:
        with _translated():
            version = conn.execute("PRAGMA user_version").fetchone()["user_version"]
            if version == SCHEMA_VERSION:
                self._ensure_fingerprint_index(conn)
                return
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path}: schema version {version} is newer than this paipu "
                    f"understands ({SCHEMA_VERSION})"
                )
            with self._write(conn):
                # Another process may have created it while we waited for the lock.
                if conn.execute("PRAGMA user_version").fetchone()["user_version"] == 0:
                    for statement in _SCHEMA:
                        conn.execute(statement)
                    conn.execute(_FINGERPRINT_INDEX)

    def _ensure_fingerprint_index(self, conn: sqlite3.Connection) -> None:
        """Add the fingerprint index to a store made before it existed (an index only:
        no stored row changes). A read-only file keeps working without it."""
        if conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'events_fingerprint'"
        ).fetchone():
            return
        with contextlib.suppress(sqlite3.Error):
            with self._write(conn):
                conn.execute(_FINGERPRINT_INDEX)

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
        for conn in idle:  # connections in use are closed when they come back
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        with self._committed:
            self._committed.notify_all()

    # ---- append ----------------------------------------------------------------------

    def _append_batch(self, batch: Batch) -> AppendResult:
        with self._write_lock, self._connection() as conn, _translated():
            with self._write(conn):
                stored = self._rows_by_event_id(conn, batch.event_ids)
                head = self._head(conn, batch.game_id)
                next_position = conn.execute(
                    "SELECT COALESCE(MAX(position), 0) + 1 AS p FROM events"
                ).fetchone()["p"]
                plan = batch.plan(stored, head, next_position, self._clock())
                if plan.rows:
                    conn.executemany(_INSERT, [tuple(r[c] for c in COLUMNS) for r in plan.rows])
                    h = plan.head
                    assert h is not None
                    conn.execute(
                        _UPSERT_HEAD,
                        (h.game_id, h.version, h.first_position, h.last_position, h.last_hash, h.ruleset),
                    )
        if plan.rows:
            with self._committed:
                self._last_committed = max(self._last_committed, plan.result.last_position)
                self._committed.notify_all()
        return plan.result

    def _rows_by_event_id(self, conn: sqlite3.Connection, ids: list[str]) -> list[Row]:
        rows: list[Row] = []
        for i in range(0, len(ids), _ID_CHUNK):
            chunk = ids[i : i + _ID_CHUNK]
            marks = ", ".join("?" * len(chunk))
            rows += conn.execute(
                f"SELECT {_COLS} FROM events WHERE event_id IN ({marks})", chunk
            ).fetchall()
        return rows

    @staticmethod
    def _head(conn: sqlite3.Connection, game_id: str) -> StreamHead | None:
        row = conn.execute(
            f"SELECT {_HEAD_COLS} FROM streams WHERE game_id = ?", (game_id,)
        ).fetchone()
        return StreamHead(**row) if row is not None else None

    # ---- reads -------------------------------------------------------------------------

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]:
        with self._connection() as conn, _translated():
            return conn.execute(sql, params).fetchall()

    def _fetch_game(self, game_id: str, from_seq: int, n: int, backward: bool) -> list[Row]:
        op, order = ("<=", "DESC") if backward else (">=", "ASC")
        return self._query(
            f"SELECT {_COLS} FROM events WHERE game_id = ? AND seq {op} ? ORDER BY seq {order} LIMIT ?",
            (game_id, from_seq, n),
        )

    def _fetch_all(self, from_position: int, n: int, backward: bool) -> list[Row]:
        op, order = ("<=", "DESC") if backward else (">=", "ASC")
        return self._query(
            f"SELECT {_COLS} FROM events WHERE position {op} ? ORDER BY position {order} LIMIT ?",
            (from_position, n),
        )

    def _stream_head(self, game_id: str) -> StreamHead | None:
        with self._connection() as conn, _translated():
            return self._head(conn, game_id)

    def _stream_heads(self) -> list[StreamHead]:
        rows = self._query(f"SELECT {_HEAD_COLS} FROM streams ORDER BY first_position")
        return [StreamHead(**r) for r in rows]

    def game_with_fingerprint(self, fingerprint: str) -> str | None:
        self._check_open()
        rows = self._query(
            "SELECT game_id FROM events WHERE seq = 0 "
            "AND json_extract(metadata, '$.fingerprint') = ? ORDER BY position LIMIT 1",
            (fingerprint,),
        )
        return rows[0]["game_id"] if rows else None

    def _head_position(self) -> int:
        return self._query("SELECT COALESCE(MAX(position), 0) AS p FROM events")[0]["p"]

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

    def raw_game_ids(self) -> list[str]:
        with_rows = self._query(
            "SELECT game_id FROM events GROUP BY game_id ORDER BY MIN(position)"
        )
        recorded = self._query("SELECT game_id FROM streams ORDER BY first_position")
        ids = [r["game_id"] for r in with_rows]
        seen = set(ids)
        return ids + [r["game_id"] for r in recorded if r["game_id"] not in seen]
