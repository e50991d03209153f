"""The scale-out event store: one PostgreSQL database shared by several servers
(shared/DESIGN.md §5; the design is explained in ``eventlog/store/README.md``).

Global order without gaps — the trap of sequence columns: a ``bigserial`` position is
handed out when a transaction *asks*, not when it commits, so two writers can commit
positions 11 and 10 in that order; a reader tailing the log that saw 11 before 10 was
visible would move past 10 and never see it. Here every append first locks the single
row of ``paipu_log`` (``SELECT … FOR UPDATE``) and takes its positions from that row's
``head_position``: the lock is held to the commit, so appends are serialised across every
connection and server, positions are assigned in commit order, and any snapshot a reader
takes holds a gap-free prefix of positions. The price is one writer at a time (a commit
each, some milliseconds); batches amortise it (``benchmarks/postgres.py``), and so does
group commit within a process (:meth:`PostgresStore._append_batch`: the appends its threads
make while one of its transactions holds the lock go in the next one together — 4 threads'
single-event appends, same run: 281–460 a second, p50 8 ms, against 199–219, p50 15–16 ms).

Durability: PostgreSQL's own WAL with ``synchronous_commit`` as configured (``on`` by
default: a commit returns after the WAL is flushed), so :meth:`append` acknowledges
durable data. Live subscriptions wake on ``NOTIFY paipu_log`` (sent inside the append's
transaction, so delivered at commit) and still poll, so a lost notification only delays.

Immutability: triggers refuse ``UPDATE``/``DELETE``/``TRUNCATE`` of ``paipu_events``;
``paipu_streams`` and ``paipu_log`` refuse deletion and any update that does not move a
head forward. Someone with the rights to drop the triggers can still edit; the hash
chains and the stream heads then show it to :mod:`eventlog.verify`.

Tables live in the connection's ``search_path`` schema (``public`` unless the URL says
``?options=-csearch_path%3DNAME``): ``paipu_log`` (schema version, head position and the
log's running hash, :func:`eventlog.hashing.log_hash`),
``paipu_events`` (one row per event, the columns of :data:`~eventlog.store.base.COLUMNS`;
payload and metadata stored as the canonical JSON *text* the hash covers, not ``jsonb``,
which would re-encode it), ``paipu_streams`` (the head of each game).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from eventlog.hashing import GENESIS_HASH, log_hash
from eventlog.store.base import EventStore, heads_page, utc_now
from eventlog.store.errors import CorruptDatabase, StoreClosed, StoreError
from eventlog.store.group import GroupCommit
from eventlog.store.planning import PlannedBatch, plan_group
from eventlog.store.types import COLUMNS, AppendResult, LogHead, Row, StreamHead

__all__ = ["PostgresStore", "SCHEMA_VERSION", "is_postgres_url", "redact_url"]

SCHEMA_VERSION = 2  # 2: paipu_log.log_hash, the log's running hash (1 is upgraded on open)

#: The NOTIFY channel; the payload is the last position of the committed append.
CHANNEL = "paipu_log"

#: Any constant: the advisory lock that serialises schema creation between processes.
_SCHEMA_LOCK = 0x7061697075  # "paipu"

_LOG_FORWARD = """
    CREATE OR REPLACE FUNCTION paipu_log_forward() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.head_position < OLD.head_position OR NEW.schema_version < OLD.schema_version THEN
            RAISE EXCEPTION 'paipu: UPDATE of paipu_log refused: the head only moves forward';
        END IF;
        RETURN NEW;
    END $$
"""

_SCHEMA = (
    """
    CREATE TABLE paipu_log (
        id             smallint PRIMARY KEY CHECK (id = 1),
        schema_version integer  NOT NULL,
        head_position  bigint   NOT NULL, -- last committed global position; 0 when empty
        log_hash       text     NOT NULL  -- running hash of the log up to head_position
    )
    """,
    f"INSERT INTO paipu_log VALUES (1, {SCHEMA_VERSION}, 0, '{GENESIS_HASH}')",
    """
    CREATE TABLE paipu_events (
        position       bigint  PRIMARY KEY,  -- global order from 1, never reused
        game_id        text    NOT NULL,
        seq            bigint  NOT NULL,     -- dense per game from 0
        event_id       text    NOT NULL UNIQUE,
        type           text    NOT NULL,
        schema_version integer NOT NULL,
        payload        text    NOT NULL,     -- canonical JSON text (hashed as stored)
        metadata       text    NOT NULL,
        recorded_at    text    NOT NULL,
        prev_hash      text    NOT NULL,
        hash           text    NOT NULL,
        UNIQUE (game_id, seq)
    )
    """,
    """
    CREATE TABLE paipu_streams (
        game_id        text   PRIMARY KEY,
        version        bigint NOT NULL,
        first_position bigint NOT NULL,
        last_position  bigint NOT NULL,
        last_hash      text   NOT NULL,
        ruleset        text
    )
    """,
    "CREATE INDEX paipu_streams_by_first_position ON paipu_streams (first_position)",
    """
    CREATE FUNCTION paipu_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'paipu: % of % refused: the log is append-only', TG_OP, TG_TABLE_NAME;
    END $$
    """,
    """
    CREATE FUNCTION paipu_stream_forward() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.game_id <> OLD.game_id OR NEW.first_position <> OLD.first_position
           OR NEW.version <= OLD.version OR NEW.last_position <= OLD.last_position
           OR (OLD.ruleset IS NOT NULL AND NEW.ruleset IS DISTINCT FROM OLD.ruleset) THEN
            RAISE EXCEPTION 'paipu: UPDATE of paipu_streams refused: a stream head only moves forward';
        END IF;
        RETURN NEW;
    END $$
    """,
    _LOG_FORWARD,
    "CREATE TRIGGER paipu_events_immutable BEFORE UPDATE OR DELETE ON paipu_events "
    "FOR EACH ROW EXECUTE FUNCTION paipu_refuse()",
    "CREATE TRIGGER paipu_events_no_truncate BEFORE TRUNCATE ON paipu_events "
    "FOR EACH STATEMENT EXECUTE FUNCTION paipu_refuse()",
    "CREATE TRIGGER paipu_streams_no_delete BEFORE DELETE ON paipu_streams "
    "FOR EACH ROW EXECUTE FUNCTION paipu_refuse()",
    "CREATE TRIGGER paipu_streams_no_truncate BEFORE TRUNCATE ON paipu_streams "
    "FOR EACH STATEMENT EXECUTE FUNCTION paipu_refuse()",
    "CREATE TRIGGER paipu_streams_forward BEFORE UPDATE ON paipu_streams "
    "FOR EACH ROW EXECUTE FUNCTION paipu_stream_forward()",
    "CREATE TRIGGER paipu_log_no_delete BEFORE DELETE ON paipu_log "
    "FOR EACH ROW EXECUTE FUNCTION paipu_refuse()",
    "CREATE TRIGGER paipu_log_no_truncate BEFORE TRUNCATE ON paipu_log "
    "FOR EACH STATEMENT EXECUTE FUNCTION paipu_refuse()",
    "CREATE TRIGGER paipu_log_forward BEFORE UPDATE ON paipu_log "
    "FOR EACH ROW EXECUTE FUNCTION paipu_log_forward()",
)

_COLS = ", ".join(COLUMNS)
_INSERT = f"INSERT INTO paipu_events ({_COLS}) VALUES ({', '.join(['%s'] * len(COLUMNS))})"
_UPSERT_HEAD = """
    INSERT INTO paipu_streams (game_id, version, first_position, last_position, last_hash, ruleset)
    VALUES (%s, %s, %s, %s, %s, %s)
    ON CONFLICT (game_id) DO UPDATE SET
        version = excluded.version,
        last_position = excluded.last_position,
        last_hash = excluded.last_hash,
        ruleset = excluded.ruleset
"""
_HEAD_COLS = "game_id, version, first_position, last_position, last_hash, ruleset"
#: SQLSTATEs of a damaged database: data_corrupted, index_corrupted (CorruptDatabase, DATA_LOSS).
_DAMAGED = ("XX001", "XX002")


def is_postgres_url(text: str) -> bool:
    """True for ``postgresql://…`` and ``postgres://…`` (libpq connection URLs)."""
    return text.startswith(("postgresql://", "postgres://"))


def redact_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    head, sep, tail = url.partition("://")
    if "@" in tail:
        cred, _, rest = tail.rpartition("@")
        user = cred.split(":", 1)[0]
        return f"{head}{sep}{user}@{rest}"
    return url


class PostgresStore(EventStore):
    """The PostgreSQL backend. ``url`` is a libpq URL (``postgresql://user@host:5432/db``).

    Creates its tables on first use (under an advisory lock, so concurrent first opens are
    safe); refuses a database whose ``paipu_log`` has a newer schema version.
    ``pool_size``: most connections held at once (readers and writers of this process).
    ``clock``: returns ``recorded_at`` strings (default UTC now).
    Raises :class:`StoreError` when the server cannot be reached, naming the URL without
    its password."""

    def __init__(
        self,
        url: str,
        *,
        pool_size: int = 16,
        clock: Callable[[], str] = utc_now,
    ) -> None:
        try:
            import psycopg
            from psycopg.rows import dict_row
            from psycopg_pool import ConnectionPool
        except ImportError as e:  # the [postgres] extra
            raise StoreError(
                f"the PostgreSQL store needs psycopg: pip install 'paipu[postgres]' ({e})"
            ) from None
        self._psycopg = psycopg
        self.url = url
        self._clock = clock
        self._closed = False
        self._committed = threading.Condition()
        self._last_committed = 0
        self._listener: threading.Thread | None = None
        self._group = GroupCommit(self._commit_batches)  # concurrent appends (_append_batch)
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=max(1, pool_size),
            kwargs={"autocommit": True, "row_factory": dict_row},
            open=False,
            name="paipu",
        )
        try:
            # One direct connection first: an unreachable server fails at once, with
            # libpq's reason, instead of after the pool's retries.
            with self._translated(), psycopg.connect(
                url, autocommit=True, row_factory=dict_row
            ) as conn:
                self._init_schema(conn)
            with self._translated():
                self._pool.open(wait=True, timeout=30)
        except BaseException:
            self._close()
            raise

    # ---- plumbing ----------------------------------------------------------------------

    @contextlib.contextmanager
    def _translated(self) -> Iterator[None]:
        """No psycopg exception leaves this module: they become :class:`StoreError` —
        :class:`CorruptDatabase` (DATA_LOSS) when the server says data or an index is corrupted."""
        try:
            yield
        except self._psycopg.Error as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            if getattr(e, "sqlstate", None) in _DAMAGED:
                raise CorruptDatabase(redact_url(self.url), f"postgresql: {first}") from e
            raise StoreError(f"postgresql ({redact_url(self.url)}): {first}") from e
        except Exception as e:  # psycopg_pool.PoolTimeout and friends
            if type(e).__module__.startswith("psycopg"):
                raise StoreError(f"postgresql ({redact_url(self.url)}): {e}") from e
            raise

    @contextlib.contextmanager
    def _conn(self) -> Iterator[Any]:
        if self._closed:
            raise StoreClosed("the event store is closed")
        with self._translated(), self._pool.connection() as conn:
            yield conn

    def _init_schema(self, conn: Any) -> None:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            exists = conn.execute("SELECT to_regclass('paipu_log') IS NOT NULL AS e").fetchone()["e"]
            if not exists:
                for statement in _SCHEMA:
                    conn.execute(statement)
                return
            version = conn.execute("SELECT schema_version FROM paipu_log WHERE id = 1").fetchone()
            if version is None:
                raise StoreError(f"{redact_url(self.url)}: paipu_log has no row: not a paipu log")
            if version["schema_version"] > SCHEMA_VERSION:
                raise StoreError(
                    f"{redact_url(self.url)}: schema version {version['schema_version']} is newer "
                    f"than this paipu understands ({SCHEMA_VERSION})"
                )
            if version["schema_version"] == 1:  # add the running log hash, computed once
                conn.execute("SELECT head_position FROM paipu_log WHERE id = 1 FOR UPDATE")
                conn.execute(_LOG_FORWARD)
                conn.execute("ALTER TABLE paipu_log ADD COLUMN log_hash text")
                running = GENESIS_HASH
                for row in conn.execute("SELECT position, hash FROM paipu_events ORDER BY position"):
                    running = log_hash(running, row["position"], row["hash"])
                conn.execute("UPDATE paipu_log SET log_hash = %s, schema_version = %s WHERE id = 1",
                             (running, SCHEMA_VERSION))
                conn.execute("ALTER TABLE paipu_log ALTER COLUMN log_hash SET NOT NULL")

    def _is_closed(self) -> bool:
        return self._closed

    def _close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with self._committed:
            self._committed.notify_all()
        with contextlib.suppress(Exception):
            self._pool.close()
        if self._listener is not None:
            self._listener.join(timeout=5)

    # ---- append ----------------------------------------------------------------------

    def _append_batch(self, batch: PlannedBatch) -> AppendResult:
        """Group commit (:class:`~eventlog.store.group.GroupCommit`, as SQLite's): the appends
        this process makes while one of its transactions holds the log's lock are committed
        together in the next (:meth:`_commit_batches`), each with the outcome it would get
        alone — one wait for the lock and one WAL flush for all of them."""
        return self._group.append(batch)

    def _commit_batches(self, batches: Sequence[PlannedBatch]) -> list[AppendResult | BaseException]:
        """Append ``batches`` in one transaction, in order (one outcome each, see
        :func:`~eventlog.store.planning.plan_group`), under the log's lock: every batch's ids
        and stream records read in one query each, then one insert of all rows, the stream
        records, the log's head. Raises when the transaction fails (nothing acknowledged)."""
        with self._conn() as conn, conn.transaction():
            # The lock that orders every append of every server (module docstring).
            locked = conn.execute(
                "SELECT head_position, log_hash FROM paipu_log WHERE id = 1 FOR UPDATE"
            ).fetchone()
            log = LogHead(locked["head_position"], locked["log_hash"])
            ids = list(dict.fromkeys(i for b in batches for i in b.event_ids))
            stored = conn.execute(f"SELECT {_COLS} FROM paipu_events WHERE event_id = ANY(%s)", (ids,)).fetchall()
            games = list(dict.fromkeys(b.game_id for b in batches))
            heads = {r["game_id"]: StreamHead(**r) for r in conn.execute(
                f"SELECT {_HEAD_COLS} FROM paipu_streams WHERE game_id = ANY(%s)", (games,)).fetchall()}
            group = plan_group(batches, stored, heads, log, self._clock)
            if group.rows:
                records = [(h.game_id, h.version, h.first_position, h.last_position, h.last_hash, h.ruleset)
                           for h in group.heads]
                with conn.cursor() as cur:
                    cur.executemany(_INSERT, [tuple(r[c] for c in COLUMNS) for r in group.rows])
                    if len(records) > 1:
                        cur.executemany(_UPSERT_HEAD, records)
                    else:  # one stream (a lone append): a plain statement, no pipeline
                        cur.execute(_UPSERT_HEAD, records[0])
                last = group.log.position
                conn.execute("UPDATE paipu_log SET head_position = %s, log_hash = %s WHERE id = 1",
                             (last, group.log.log_hash))
                conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, str(last)))
        if group.rows:
            with self._committed:
                self._last_committed = max(self._last_committed, group.log.position)
                self._committed.notify_all()
        return list(group.outcomes)

    @staticmethod
    def _head(conn: Any, game_id: str) -> StreamHead | None:
        row = conn.execute(
            f"SELECT {_HEAD_COLS} FROM paipu_streams WHERE game_id = %s", (game_id,)
        ).fetchone()
        return StreamHead(**row) if row is not None else None

    # ---- reads -----------------------------------------------------------------------

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]:
        with self._conn() as conn:
            return conn.execute(sql, params).fetchall()

    def _fetch_game(self, game_id: str, from_seq: int, n: int, backward: bool) -> list[Row]:
        op, order = ("<=", "DESC") if backward else (">=", "ASC")
        return self._query(
            f"SELECT {_COLS} FROM paipu_events WHERE game_id = %s AND seq {op} %s "
            f"ORDER BY seq {order} LIMIT %s",
            (game_id, from_seq, n),
        )

    def _fetch_all(self, from_position: int, n: int, backward: bool) -> list[Row]:
        op, order = ("<=", "DESC") if backward else (">=", "ASC")
        return self._query(
            f"SELECT {_COLS} FROM paipu_events WHERE position {op} %s ORDER BY position {order} LIMIT %s",
            (from_position, n),
        )

    def _stream_head(self, game_id: str) -> StreamHead | None:
        with self._conn() as conn:
            return self._head(conn, game_id)

    def _stream_heads(self, after: int = 0, limit: int | None = None, ruleset: str | None = None) -> list[StreamHead]:
        where, params = heads_page(after, limit, ruleset, "%s")
        rows = self._query(f"SELECT {_HEAD_COLS} FROM paipu_streams{where}", params)
        return [StreamHead(**r) for r in rows]

    def _log_head(self) -> LogHead:
        row = self._query("SELECT head_position, log_hash FROM paipu_log WHERE id = 1")[0]
        return LogHead(row["head_position"], row["log_hash"])

    # ---- live subscriptions ------------------------------------------------------------

    def _wait_for_commit(self, after_position: int, timeout: float) -> None:
        self._ensure_listener()
        with self._committed:
            if self._last_committed <= after_position and not self._closed:
                self._committed.wait(timeout)

    def _ensure_listener(self) -> None:
        with self._committed:
            if self._listener is None and not self._closed:
                self._listener = threading.Thread(
                    target=self._listen, name="paipu-pg-listen", daemon=True
                )
                self._listener.start()

    def _listen(self) -> None:
        """LISTEN on a connection of its own; every NOTIFY (this or another server's
        commit) wakes the waiting subscriptions. Reconnects after a broken connection."""
        psycopg = self._psycopg
        while not self._closed:
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not self._closed:
                        for note in conn.notifies(timeout=0.5):
                            with self._committed:
                                self._last_committed = max(self._last_committed, int(note.payload))
                                self._committed.notify_all()
            except (psycopg.Error, ValueError):
                if not self._closed:
                    threading.Event().wait(0.5)

    # ---- raw read path -----------------------------------------------------------------

    def iter_raw(self, game_id: str) -> Iterator[Row]:
        rows = self._query(
            f"SELECT {_COLS} FROM paipu_events WHERE game_id = %s ORDER BY position", (game_id,)
        )
        return iter(rows)

    def raw_game_ids(self) -> list[str]:
        with_rows = self._query(
            "SELECT game_id FROM paipu_events GROUP BY game_id ORDER BY MIN(position)"
        )
        recorded = self._query("SELECT game_id FROM paipu_streams ORDER BY first_position")
        ids = [r["game_id"] for r in with_rows]
        seen = set(ids)
        return ids + [r["game_id"] for r in recorded if r["game_id"] not in seen]
