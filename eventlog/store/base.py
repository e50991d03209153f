"""The event store interface (shared/DESIGN.md §5), backend-neutral.

One *stream* per game. Every event gets, at commit:

* ``seq`` — dense per game, 0, 1, 2 … The *version* of a stream is the seq of its
  last event; an absent stream has version ``-1``.
* ``position`` — global, from 1, dense and strictly increasing in commit order and never
  reused, so a reader tailing the log (:meth:`EventStore.read_all`,
  :meth:`EventStore.subscribe`) never sees a gap or a position out of order.
* ``recorded_at`` — ISO-8601 UTC commit time (``2026-11-29T16:34:36.123456Z``); a
  :class:`~eventlog.store.planning.SealedBatch` carries its own (the bulk import's and a
  gRPC AppendStream's: the store's clock when the game was sealed, before its transaction
  began); metadata only, replay never reads it.
* ``prev_hash`` / ``hash`` — the SHA-256 chain of :func:`eventlog.hashing.chain_hash`;
  the ``prev_hash`` of seq 0 is :data:`eventlog.hashing.GENESIS_HASH`.

The log as a whole has a head (:class:`LogHead`: last position and a running hash over
every event, :func:`eventlog.hashing.log_hash`), kept in the append transaction; it
anchors the set of games and the log's length.

Guarantees every backend gives (the conformance suite in ``tests/eventlog`` checks
them against each one):

* :meth:`EventStore.append` writes a batch to one stream atomically (all or nothing)
  and returns only once the batch is durable.
* Expected version: :data:`ANY`, :data:`NO_STREAM` or an exact version ``n`` (``-1``
  means the same as :data:`NO_STREAM`). A mismatch raises
  :class:`WrongExpectedVersion` carrying the current version.
* Idempotent retry keyed by ``event_id``: appending a batch whose every event is
  already stored (same game, same content, consecutive, in the same order) succeeds
  with ``duplicate=True`` and writes nothing — whatever the expected version says,
  since the first attempt may have committed before its acknowledgement got lost.
  A batch that only partly overlaps stored events, or reuses an id with other
  content or in another game, raises :class:`IdempotencyConflict`.
* Nothing is ever updated or deleted.
* Nothing missing or corrupt is served as good data: every read re-computes each
  event's own hash (:class:`CorruptEvent`), and checks that seqs (per game) and
  positions (log) are consecutive, that ``prev_hash`` links, and that an unbounded read
  reaches the head the store recorded (:class:`MissingEvents`); a game's read also that
  its positions rise with seq within its stream record's ``first_position`` …
  ``last_position`` (a row moved elsewhere: :class:`CorruptEvent`). Whole-store checks are
  :mod:`eventlog.verify`'s, through the raw read path (:meth:`EventStore.iter_raw`,
  :meth:`EventStore.iter_raw_log`, :meth:`EventStore.raw_game_ids`,
  :meth:`EventStore.stream_head`, :meth:`EventStore.log_head`) that trusts nothing.
* Position and seq arguments outside 0..2^63-1 raise :class:`PositionOutOfRange` (a
  ValueError), never reach a backend.

A backend implements the small ``_``-prefixed primitives below (a transaction for
:meth:`EventStore._append_batch`, paged row fetches, stream and log heads); the public
methods, argument checks, idempotency, hash-chain and continuity rules live here and in
:mod:`.planning` / :mod:`.rows`, once. Value types are in :mod:`.types`, errors in
:mod:`.errors`; :func:`eventlog.store.open_store` (in :mod:`.opener`) picks a backend.
"""

from __future__ import annotations

import json
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timezone
from typing import Any

from eventlog.errors import InvalidArgument
from eventlog.events import NewEvent, StoredEvent
from eventlog.hashing import canonical_text
from eventlog.store.errors import (
    CorruptEvent,
    GameNotFound,
    IdempotencyConflict,
    LogTruncated,
    MissingEvents,
    NotAStore,
    PositionOutOfRange,
    StoreClosed,
    StoreError,
    StoreNotFound,
    StreamAlreadyExists,
    WrongExpectedVersion,
)
from eventlog.store.planning import AppendPlan, Batch, PlannedBatch
from eventlog.store.rows import GameLinks, LogLinks, inspect_row, inspect_run, inspect_values
from eventlog.store.types import (
    ANY,
    COLUMNS,
    MAX_POSITION,
    NO_STREAM,
    AppendResult,
    CaughtUp,
    ExpectedVersion,
    GameInfo,
    LogHead,
    Row,
    StreamHead,
    check_limit,
)

__all__ = [
    "EventStore",
    "BulkAppend",
    "utc_now",
    "PAGE_SIZE",
    "LINK_COLUMNS",
    # re-exported for callers of the former one-module store
    "ANY",
    "NO_STREAM",
    "COLUMNS",
    "ExpectedVersion",
    "AppendResult",
    "GameInfo",
    "CaughtUp",
    "StreamHead",
    "LogHead",
    "Row",
    "StoreError",
    "WrongExpectedVersion",
    "StreamAlreadyExists",
    "IdempotencyConflict",
    "GameNotFound",
    "PositionOutOfRange",
    "CorruptEvent",
    "MissingEvents",
    "LogTruncated",
    "StoreNotFound",
    "NotAStore",
    "StoreClosed",
    "Batch",
    "AppendPlan",
    "inspect_row",
]

#: Rows fetched per round trip by the paged readers.
PAGE_SIZE = 500
#: The columns that link a row into its game's chain and the log (:meth:`EventStore.iter_log_links`).
LINK_COLUMNS: tuple[str, ...] = ("position", "game_id", "seq", "prev_hash", "hash")
#: Rows per page of :meth:`EventStore.iter_log_links` (five short columns a row).
LINK_PAGE_SIZE = 5000
#: Where columns sit in a row read as a tuple (:data:`COLUMNS` order).
_POSITION, _SEQ, _PREV_HASH, _HASH = (COLUMNS.index(c) for c in ("position", "seq", "prev_hash", "hash"))


def utc_now() -> str:
    """The commit clock: ISO-8601 UTC with microseconds and a ``Z``."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _check_position(name: str, value: Any, lowest: int) -> int:
    """An int argument in ``lowest``..2^63-1; :class:`PositionOutOfRange` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionOutOfRange(name, f"must be an int, got {type(value).__name__}")
    if value < lowest or value > MAX_POSITION:
        low = "0 (or -1 backward)" if lowest == -1 else str(lowest)
        raise PositionOutOfRange(name, f"must be from {low} to {MAX_POSITION}, got {value}")
    return value



def heads_page(after: int, limit: int | None, ruleset: str | None, mark: str) -> tuple[str, tuple[Any, ...]]:
    """The ``WHERE … ORDER BY … LIMIT`` tail of a page of stream records (:meth:`EventStore.list_games`)
    for a SQL backend whose parameter mark is ``mark`` (``?``, ``%s``), and its parameters: read
    along the index on first_position."""
    sql = f" WHERE first_position > {mark}"
    params: list[Any] = [after]
    if ruleset is not None:
        sql += f" AND ruleset = {mark}"
        params.append(ruleset)
    sql += " ORDER BY first_position"
    if limit is not None:
        sql += f" LIMIT {mark}"
        params.append(limit)
    return sql, tuple(params)


class EventStore(ABC):
    """An append-only log of game streams. Safe to share between threads.

    Use as a context manager or call :meth:`close`. Backends: :class:`SqliteStore`
    (embedded default), :class:`MemoryStore` (reference model, tests); get one with
    :func:`eventlog.store.open_store`."""

    #: ``recorded_at`` of an append: the backends take it in their constructor (tests fix it).
    _clock: Callable[[], str] = staticmethod(utc_now)

    # ---- public API -------------------------------------------------------------

    def now(self) -> str:
        """What this store's clock says now: the ``recorded_at`` an append would get (the
        bulk import reads it for the games it seals, :class:`~eventlog.store.planning.SealedBatch`)."""
        return self._clock()

    def append(
        self,
        game_id: str,
        events: Sequence[NewEvent],
        expected_version: ExpectedVersion = ANY,
    ) -> AppendResult:
        """Append ``events`` to the stream ``game_id`` atomically; return once durable.

        Raises :class:`WrongExpectedVersion` (:class:`StreamAlreadyExists` for
        ``NO_STREAM``), :class:`IdempotencyConflict`, ValueError for a malformed call
        (empty batch, id repeated within the batch, bad expected version),
        :class:`LogTruncated` when the log lost committed events."""
        return self.append_batch(Batch.encode(game_id, events, expected_version))

    def append_batch(self, batch: Batch) -> AppendResult:
        """:meth:`append` of a batch already checked and encoded (:meth:`Batch.encode`, or
        :meth:`Batch.of_encoded` from the wire: services/event_log_service.py). Raises like
        :meth:`append`."""
        self._check_open()
        return self._append_batch(batch)

    def append_batches(self, batches: Sequence[PlannedBatch]) -> list[AppendResult | StoreError]:
        """Append many games' batches (each from :meth:`Batch.encode`, or a new game's
        :class:`~eventlog.store.planning.SealedBatch`) — the bulk path of ``paipu ingest``.
        Each batch is all or nothing, exactly as :meth:`append`; a batch refused by the
        version or idempotency rules (:class:`WrongExpectedVersion`,
        :class:`IdempotencyConflict`) is left out and its error returned in its place,
        the others are written. Returns one result per batch, in order, once all the
        written ones are durable. A backend may commit them in one transaction (SQLite:
        one commit and one checkpoint sync for all); an interruption then leaves none of
        them. Raises like :meth:`append` for a failure of the store itself (nothing of
        the call is acknowledged then)."""
        self._check_open()
        out: list[AppendResult | StoreError] = []
        for batch in batches:
            try:
                out.append(self._append_batch(batch))
            except (WrongExpectedVersion, IdempotencyConflict) as e:
                out.append(e)
        return out

    def bulk_append(self) -> BulkAppend:
        """Batches for one durable transaction, given a few at a time
        (:meth:`BulkAppend.write`) and committed together (:meth:`BulkAppend.commit`: the
        outcomes of :meth:`append_batches` of all of them, in order) — what a bulk import
        writes while it parses the next games. Nothing is acknowledged before the commit;
        :meth:`BulkAppend.close` (or leaving the ``with`` block) without it leaves nothing
        of them. This generic one keeps the batches and appends them at the commit; SQLite
        writes each at once into an open write transaction."""
        self._check_open()
        return BulkAppend(self)

    def read_game(
        self,
        game_id: str,
        from_seq: int = 0,
        limit: int | None = None,
        backward: bool = False,
    ) -> Iterator[StoredEvent]:
        """The events of one game by seq: forward from ``from_seq`` up, or backward from
        ``from_seq`` down to 0 (``from_seq=-1``: from the last event). At most ``limit``.

        Raises :class:`GameNotFound` at call time for an unknown game, ValueError for bad
        arguments (:class:`PositionOutOfRange` for a seq outside 0..2^63-1); the
        iterator raises :class:`CorruptEvent` on a damaged row (also one at a position not
        rising with seq or outside the stream's record) and
        :class:`MissingEvents` on a hole (a missing seq, a broken link, or a stream that
        stops before the head the store recorded for it)."""
        from eventlog.store.types import check_game_id

        check_game_id(game_id)
        limit = check_limit(limit)
        _check_position("from_seq", from_seq, -1)
        if from_seq == -1 and not backward:
            raise InvalidArgument("from_seq=-1 (the end) is only meaningful with backward=True", "from_seq")
        self._check_open()
        head = self._stream_head(game_id)
        if head is None:
            raise GameNotFound(game_id)
        return self._read_game(game_id, head, from_seq, limit, backward)

    def read_all(
        self,
        from_position: int = 1,
        limit: int | None = None,
        backward: bool = False,
    ) -> Iterator[StoredEvent]:
        """All events by global position, ``from_position`` inclusive: forward up, or
        backward down to 1 (``from_position=-1``: from the head). At most ``limit``.

        The iterator raises :class:`MissingEvents` on a hole (a skipped position, a broken
        link within a game, or a log that ends before its recorded head)."""
        limit = check_limit(limit)
        _check_position("from_position", from_position, -1)
        if from_position == -1 and not backward:
            raise InvalidArgument("from_position=-1 (the head) is only meaningful with backward=True", "from_position")
        self._check_open()
        return self._read_all(from_position, limit, backward)

    def version(self, game_id: str) -> int:
        """The stream's version (seq of its last event); -1 for an absent stream."""
        from eventlog.store.types import check_game_id

        check_game_id(game_id)
        self._check_open()
        head = self._stream_head(game_id)
        return head.version if head is not None else -1

    def list_games(self, *, after: int = 0, limit: int | None = None, ruleset: str | None = None) -> list[GameInfo]:
        """The streams ordered by first position: every one by default; ``after``: only those
        whose first position is greater (a page's start: a stream's first position never
        changes and a new stream's is greater than every stored one's); ``limit``: at most
        that many; ``ruleset``: only the streams recorded under that ruleset id. A page is
        read by the backend's index on the first position, not by listing every stream.
        Raises InvalidArgument for a negative ``after`` or ``limit``."""
        if after < 0:
            raise InvalidArgument(f"after must be >= 0, got {after}", "after")
        if limit is not None and limit < 0:
            raise InvalidArgument(f"limit must be >= 0, got {limit}", "limit")
        self._check_open()
        if limit == 0:
            return []
        return [
            GameInfo(
                game_id=h.game_id,
                version=h.version,
                event_count=h.version + 1,
                first_position=h.first_position,
                last_position=h.last_position,
                ruleset=h.ruleset,
            )
            for h in self._stream_heads(after, limit, ruleset)
        ]

    def games_by_fingerprint(self, fingerprints: Sequence[str]) -> dict[str, list[tuple[str, str, str]]]:
        """Every stored game carrying each fingerprint (the ingest load sets it: :func:`eventlog.ingest.base.fingerprint`):
        fingerprint → ``(game id, payload text, metadata text)`` of each game's first event
        (canonical JSON texts), by position, for those that are stored. A fingerprint leaves
        out what is not the deal, actions and results
        (:func:`eventlog.ingest.base.fingerprint`), so several games may share one (the
        tables of a duplicate MCR session play one deal). This generic version reads each
        game's first event; backends with an index override it."""
        self._check_open()
        wanted = set(fingerprints)
        found: dict[str, list[tuple[str, str, str]]] = {}
        if not wanted:
            return found
        for info in self.list_games():
            rows = self._fetch_game(info.game_id, 0, 1, False)
            fp = _metadata_fingerprint(rows[0]) if rows else None
            if fp is not None and fp in wanted:
                found.setdefault(fp, []).append((info.game_id, _text(rows[0]["payload"]), _text(rows[0]["metadata"])))
        return found

    def head_position(self) -> int:
        """The last committed global position; 0 when the log is empty."""
        self._check_open()
        return self._log_head().position

    def log_head(self) -> LogHead:
        """The log's recorded head: last position and running hash (see :class:`LogHead`)."""
        self._check_open()
        return self._log_head()

    def checkpoint(self) -> LogHead | None:
        """The durable checkpoint kept outside the database (SQLite: the
        ``events.sqlite-checkpoint`` file), or None for a backend without one."""
        return None

    def subscribe(
        self,
        from_position: int = 1,
        *,
        stop: threading.Event | None = None,
        poll_interval: float = 0.05,
    ) -> Iterator[StoredEvent | CaughtUp]:
        """Catch-up subscription: every event from ``from_position`` on, then one
        :class:`CaughtUp`, then live events as they commit (each exactly once, in
        position order, no gaps), until ``stop`` is set (checked at least every
        ``poll_interval`` seconds while idle). Without ``stop`` it runs until the
        consumer stops iterating.

        Raises :class:`PositionOutOfRange` at call time when ``from_position`` is past
        the next position to be written (head + 1): nothing could ever be delivered in
        order from there. The iterator raises :class:`MissingEvents` on a hole."""
        _check_position("from_position", from_position, 0)
        if poll_interval <= 0:
            raise InvalidArgument("poll_interval must be > 0", "poll_interval")
        self._check_open()
        head = self._log_head().position
        if from_position > head + 1:
            raise PositionOutOfRange(
                "from_position",
                f"{from_position} is past the end of the log (the last position is {head}; "
                f"subscribe from at most {head + 1} to receive the next event)",
            )
        return self._subscription(max(from_position, 1), stop, poll_interval)

    def close(self) -> None:
        """Release the backend's resources; later calls raise :class:`StoreClosed`."""
        self._close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- raw read path (verification: trusts nothing) ---------------------------

    @abstractmethod
    def iter_raw(self, game_id: str) -> Iterator[Row]:
        """Every stored row of ``game_id`` as a plain dict (keys :data:`COLUMNS`, values as
        stored, unchecked), in position order. Empty for an unknown game."""

    def iter_raw_values(self, game_id: str) -> Iterator[tuple[Any, ...]]:
        """:meth:`iter_raw` with each row as a tuple of its columns in :data:`COLUMNS` order
        (what :func:`~eventlog.store.rows.inspect_values` takes): the same rows, unchecked,
        without a dict per row. Backends that can fetch tuples directly override it."""
        return (tuple(row.get(c) for c in COLUMNS) for row in self.iter_raw(game_id))

    def iter_raw_log(self, from_position: int = 1) -> Iterator[Row]:
        """Every stored row by position, unchecked (what :func:`eventlog.verify.verify_log`
        walks)."""
        self._check_open()
        cursor = from_position
        while True:
            rows = self._fetch_all(cursor, PAGE_SIZE, False)
            yield from rows
            if len(rows) < PAGE_SIZE:
                return
            cursor = rows[-1]["position"] + 1

    def iter_log_links(self, from_position: int = 1) -> Iterator[tuple[Any, ...]]:
        """Every stored row by position as its link columns only, :data:`LINK_COLUMNS`
        (position, game_id, seq, prev_hash, hash), unchecked: what
        :func:`eventlog.verify.verify_log` walks (positions dense, each game's links, the
        running log hash) without reading payloads."""
        self._check_open()
        cursor = from_position
        while True:
            rows = self._fetch_log_links(cursor, LINK_PAGE_SIZE)
            yield from rows
            if len(rows) < LINK_PAGE_SIZE or not isinstance(rows[-1][0], int):
                return
            cursor = rows[-1][0] + 1

    def _fetch_log_links(self, from_position: int, n: int) -> list[tuple[Any, ...]]:
        """Up to ``n`` rows from ``from_position`` on, ascending, as :data:`LINK_COLUMNS`
        tuples. Backends that can select those columns alone override it."""
        return [tuple(row.get(c) for c in LINK_COLUMNS) for row in self._fetch_all(from_position, n, False)]

    @abstractmethod
    def raw_game_ids(self) -> list[str]:
        """Every game id found in the stored rows or in the stream records (first the
        ones with rows, by first position; then any that have a record but no rows)."""

    def stream_head(self, game_id: str) -> StreamHead | None:
        """The store's own record of the stream's end (version, last hash), or None."""
        self._check_open()
        return self._stream_head(game_id)

    # ---- backend primitives ------------------------------------------------------

    @abstractmethod
    def _append_batch(self, batch: PlannedBatch) -> AppendResult:
        """In one write transaction: read the rows with the batch's ids, the stream head
        and the log head; ``batch.plan(...)``; write its rows, stream head and log head;
        commit durably. Positions must be assigned while holding the write lock."""

    @abstractmethod
    def _fetch_game(self, game_id: str, from_seq: int, n: int, backward: bool) -> list[Row]:
        """Up to ``n`` rows of the game, seq ≥ from_seq ascending (or ≤, descending)."""

    def _fetch_game_values(self, game_id: str, from_seq: int, n: int, backward: bool) -> list[tuple[Any, ...]]:
        """:meth:`_fetch_game` with each row as a tuple in :data:`COLUMNS` order (the read
        path: :func:`~eventlog.store.rows.inspect_values`). Backends that can fetch tuples
        directly override it."""
        return [tuple(row.get(c) for c in COLUMNS) for row in self._fetch_game(game_id, from_seq, n, backward)]

    @abstractmethod
    def _fetch_all(self, from_position: int, n: int, backward: bool) -> list[Row]:
        """Up to ``n`` rows, position ≥ from_position ascending (or ≤, descending)."""

    @abstractmethod
    def _stream_head(self, game_id: str) -> StreamHead | None: ...

    @abstractmethod
    def _stream_heads(self, after: int = 0, limit: int | None = None, ruleset: str | None = None) -> list[StreamHead]:
        """The stream heads ordered by first position: those whose first position is greater
        than ``after``, recorded under ``ruleset`` when given, at most ``limit`` (None: all)."""

    @abstractmethod
    def _log_head(self) -> LogHead:
        """The log head recorded with the last commit."""

    @abstractmethod
    def _close(self) -> None: ...

    @abstractmethod
    def _is_closed(self) -> bool: ...

    def _wait_for_commit(self, after_position: int, timeout: float) -> None:
        """Block until a position > ``after_position`` may exist, or ``timeout`` passes."""
        time.sleep(timeout)

    # ---- shared machinery ---------------------------------------------------------

    def _check_open(self) -> None:
        if self._is_closed():
            raise StoreClosed("the event store is closed")

    def _read_game(
        self, game_id: str, head: StreamHead, from_seq: int, limit: int | None, backward: bool
    ) -> Iterator[StoredEvent]:
        start = head.version if from_seq == -1 else from_seq
        anchor: str | None = None
        before: StoredEvent | None = None
        if backward:
            start = min(start, head.version)
            anchor = head.last_hash if start == head.version else None
        elif 0 < start <= head.version:
            rows = self._fetch_game(game_id, start - 1, 1, False)
            if not rows or rows[0].get("seq") != start - 1:
                raise MissingEvents(game_id, start - 1, None, f"seq {start - 1} is missing")
            before = inspect_row(rows[0])
            anchor = before.hash
        links = GameLinks(game_id, start, backward, anchor, (head.first_position, head.last_position, head.version))
        if before is not None:  # the anchor too lies within the stream's record; the read goes on past it
            links.check_position(before.seq, before.position)
        delivered = 0
        for page in self._pages(lambda c, n: self._fetch_game_values(game_id, c, n, backward), start, limit,
                                backward, _SEQ):
            i = 0
            while i < len(page):
                if not backward and links.link is not None:  # the common rows of a forward read, in one loop
                    run: list[StoredEvent] = []
                    i = inspect_run(page, i, game_id, links.expected, links.link, run, links.position)
                    if run:
                        at_head = head.version - run[0].seq  # the run's seqs are consecutive
                        last = min(at_head, len(run) - 1)  # the run's last event within the record
                        if last >= 0 and run[last].position > head.last_position:  # they rise: one comparison a run
                            k = next(j for j, e in enumerate(run) if e.position > head.last_position)
                            yield from run[:k]
                            if k:
                                links.position = run[k - 1].position
                            links.check_position(run[k].seq, run[k].position)  # raises: outside the record
                        links.expected += len(run)
                        links.link = run[-1].hash
                        links.position = run[-1].position
                        if 0 <= at_head < len(run) and run[at_head].hash != head.last_hash:
                            yield from run[:at_head]
                            raise _not_the_head(game_id, run[at_head])
                        delivered += len(run)
                        yield from run
                    if i == len(page):
                        break
                row = page[i]  # a row off the common path (or of a backward read), judged on its own
                i += 1
                links.check_values(row[_SEQ], row[_POSITION], row[_PREV_HASH], row[_HASH])
                event = inspect_values(row)
                if event.seq == head.version and event.hash != head.last_hash:
                    raise _not_the_head(game_id, event)
                delivered += 1
                yield event
        if limit is not None and delivered >= limit:
            return
        if backward:
            if start >= 0 and links.expected >= 0:
                raise MissingEvents(game_id, links.expected, None,
                                    f"seq {links.expected} is missing (the stream stops before seq 0)")
        elif links.expected <= head.version:
            raise MissingEvents(
                game_id, links.expected, None,
                f"seq {links.expected} is missing: the stream's record says version {head.version}, "
                f"the stored events stop at seq {links.expected - 1}",
            )

    def _read_all(self, from_position: int, limit: int | None, backward: bool) -> Iterator[StoredEvent]:
        head = self._log_head().position
        if from_position == -1:
            start = head
        else:
            start = min(from_position, head) if backward else max(from_position, 1)
        links = LogLinks(start, backward)
        delivered = 0
        for row in self._paged(lambda c, n: self._fetch_all(c, n, backward), start, limit, backward,
                               "position"):
            links.check(row)
            event = inspect_row(row)
            delivered += 1
            yield event
        if limit is not None and delivered >= limit:
            return
        if backward:
            if links.expected >= 1:
                raise MissingEvents(None, None, links.expected, "",
                                    message=f"the log has a hole: position {links.expected} is missing")
        elif links.expected <= head:
            raise MissingEvents(
                None, None, links.expected, "",
                message=f"the log has a hole: position {links.expected} is missing (the log's "
                        f"recorded head is position {head})",
            )

    def _paged(
        self,
        fetch: Callable[[int, int], list[Any]],
        start: int,
        limit: int | None,
        backward: bool,
        key: str | int,
    ) -> Iterator[Any]:
        """The rows ``fetch(cursor, n)`` gives, one by one (:meth:`_pages`)."""
        for rows in self._pages(fetch, start, limit, backward, key):
            yield from rows

    def _pages(
        self,
        fetch: Callable[[int, int], list[Any]],
        start: int,
        limit: int | None,
        backward: bool,
        key: str | int,
    ) -> Iterator[list[Any]]:
        """The rows ``fetch(cursor, n)`` gives, page by page; ``key``: the column the pages
        go by (a dict row's key, or a tuple row's index)."""
        remaining = limit
        cursor = start
        while (remaining is None or remaining > 0) and cursor >= 0:
            n = PAGE_SIZE if remaining is None else min(PAGE_SIZE, remaining)
            rows = fetch(cursor, n)
            yield rows
            if len(rows) < n:
                return
            if remaining is not None:
                remaining -= len(rows)
            last = rows[-1][key] if isinstance(key, int) else rows[-1].get(key)
            if not isinstance(last, int):
                return  # the row's own check reports it
            cursor = last - 1 if backward else last + 1

    def _subscription(
        self, next_position: int, stop: threading.Event | None, poll_interval: float
    ) -> Iterator[StoredEvent | CaughtUp]:
        caught_up = False
        links = LogLinks(next_position, False)
        while stop is None or not stop.is_set():
            rows = self._fetch_all(next_position, PAGE_SIZE, False)
            for row in rows:
                if stop is not None and stop.is_set():
                    return
                links.check(row)
                event = inspect_row(row)
                next_position = event.position + 1
                yield event
            if len(rows) < PAGE_SIZE:
                if not rows and self._log_head().position >= next_position:
                    # The recorded head is further on. Read again (after the head, so a
                    # commit seen there is seen here): still nothing means a hole.
                    if not self._fetch_all(next_position, 1, False):
                        links.check({"position": None})
                if not caught_up:
                    caught_up = True
                    yield CaughtUp(next_position - 1)
                if not rows:
                    self._wait_for_commit(next_position - 1, poll_interval)


class BulkAppend:
    """:meth:`EventStore.bulk_append`: batches written a few at a time, committed together.
    Used by one thread; a context manager (leaving it closes: what is not committed is
    left out)."""

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self._batches: list[PlannedBatch] = []

    def write(self, batches: Sequence[PlannedBatch]) -> None:
        """Add ``batches`` to the transaction (each all or nothing at the commit, as
        :meth:`EventStore.append_batches`). Raises like :meth:`EventStore.append` for a
        failure of the store itself (the transaction is then left out)."""
        self._batches.extend(batches)

    def commit(self) -> list[AppendResult | StoreError]:
        """Commit what was written since the last commit: one outcome per batch, in order
        (:meth:`EventStore.append_batches`), once the written ones are durable. The next
        :meth:`write` starts another transaction."""
        batches, self._batches = self._batches, []
        return self._store.append_batches(batches) if batches else []

    def close(self) -> None:
        """Leave out what is not committed."""
        self._batches = []

    def __enter__(self) -> BulkAppend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _not_the_head(game_id: str, event: StoredEvent) -> MissingEvents:
    """A read reached the seq the stream's record names as its head, with another hash."""
    return MissingEvents(game_id, event.seq, event.position,
                         f"seq {event.seq} is not the event recorded as the stream's head")


def _text(value: Any) -> str:
    """A payload or metadata column as canonical JSON text (stored as text, or as JSON)."""
    return value if isinstance(value, str) else canonical_text(value)


def _metadata_fingerprint(row: Row) -> str | None:
    try:
        meta = json.loads(row["metadata"]) if isinstance(row["metadata"], str) else row["metadata"]
    except ValueError:
        return None
    fp = meta.get("fingerprint") if isinstance(meta, dict) else None
    return fp if isinstance(fp, str) else None
