"""Append planning, backend-neutral: check and encode a batch once (:meth:`Batch.encode`),
then decide inside the backend's write transaction what to write (:meth:`Batch.plan`):
the idempotent-retry rule, the expected-version check, seqs, positions, the hash chain
(:func:`eventlog.hashing.chain_hash`) and the log's running hash
(:func:`eventlog.hashing.log_hash`). A backend only reads what ``plan`` needs and writes
what it returns.

Each payload and metadata object is encoded to canonical JSON exactly once, in
:meth:`Batch.encode`; the chain hash is taken over those texts
(:func:`eventlog.hashing.chain_body_text`, the same bytes as
:func:`~eventlog.hashing.chain_hash` over the objects). A batch holds only texts, so it is
cheap to send from a parsing process to the one that stores (bulk ingest).

A :class:`SealedBatch` is a whole new game whose hash chain is already computed (by the
parsing process of a bulk import, for a ``recorded_at`` the storing process gave it): the
store only assigns positions and the log's running hash, or — when the game id or an
event id is taken — plans it as the :class:`Batch` it is, with the same outcome."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple, Protocol, overload

from pydantic_core import to_jsonable_python

from eventlog.errors import InvalidArgument
from eventlog.events import NewEvent, Payload, StoredEvent
from eventlog.hashing import (
    GENESIS_HASH, canonical_text, chain_body_text, chain_links_logged, link_hash, log_hash, log_hash_run,
)
from eventlog.store.errors import IdempotencyConflict, StreamAlreadyExists, WrongExpectedVersion
from eventlog.store.sizes import check_event_size_columns, check_event_sizes
from eventlog.store.streams import check_log_stream
from eventlog.store.types import (
    COLUMNS,
    NO_STREAM,
    AppendResult,
    ExpectedVersion,
    LogHead,
    Row,
    StreamHead,
    check_game_id,
    normalize_expected,
)

__all__ = ["Batch", "SealedBatch", "SealedRows", "AppendPlan", "PlannedBatch", "GroupPlan", "plan_group", "EncodedEvent",
           "encode_event", "encode_payload", "encode_metadata"]


class EncodedEvent(NamedTuple):
    """One event as the store writes it: its envelope fields and the canonical JSON texts
    of payload and metadata (the bytes its chain hash covers). Made by :meth:`of` from a
    :class:`NewEvent`, or straight from the wire (:func:`eventlog.convert.encoded_from_proto`);
    both go through :func:`encode_event`. A named tuple: one is made per event appended."""

    event_id: str
    type: str
    schema_version: int
    payload: str  # canonical JSON text
    metadata: str  # canonical JSON text
    ruleset: str | None = None  # a game_started payload's ruleset, else None

    @classmethod
    def of(cls, ev: NewEvent | StoredEvent) -> EncodedEvent:
        return encode_event(ev.event_id, ev.type, ev.schema_version, ev.payload, ev.metadata)


def encode_event(event_id: str, type_: str, schema_version: int, payload: Payload,
                 metadata: dict[str, Any]) -> EncodedEvent:
    """The one encoding of a validated event's parts (the bytes every hash covers):
    :func:`encode_payload` and :func:`encode_metadata`."""
    text, ruleset = encode_payload(type_, payload)
    return EncodedEvent(event_id, type_, schema_version, text, encode_metadata(metadata), ruleset)


def encode_payload(type_: str, payload: Payload) -> tuple[str, str | None]:
    """``(text, ruleset)``: the canonical JSON text (:func:`~eventlog.hashing.canonical_text`)
    of the payload's JSON form (``payload.model_dump(mode="json")``), and the ruleset a
    ``game_started`` payload names (else None)."""
    data = type(payload).__pydantic_serializer__.to_python(payload, mode="json")  # = model_dump(mode="json")
    ruleset = data.get("ruleset") if type_ == "game_started" else None
    return canonical_text(data), ruleset if isinstance(ruleset, str) else None


def encode_metadata(metadata: dict[str, Any]) -> str:
    """The canonical JSON text of an event's metadata (its ``to_jsonable_python`` form)."""
    return canonical_text(to_jsonable_python(metadata))


_Encoded = EncodedEvent  # the name before the wire path used it


@dataclass(frozen=True)
class AppendPlan:
    """What a backend writes for one append: ``rows`` (empty for a duplicate), the
    stream's and the log's new heads (None for a duplicate), and the result to return
    after commit."""

    result: AppendResult
    rows: tuple[Row, ...]
    head: StreamHead | None
    log: LogHead | None  # the log's new head (None for a duplicate)


class PlannedBatch(Protocol):
    """What a backend's ``_append_batch`` writes in its one write transaction: a
    :class:`Batch` of new events, or rows copied from another store
    (:class:`eventlog.store.copy.StoredBatch`)."""

    @property
    def game_id(self) -> str: ...

    @property
    def event_ids(self) -> list[str]: ...

    def plan(self, stored: Sequence[Row], head: StreamHead | None, log: LogHead, recorded_at: str) -> AppendPlan: ...


@dataclass(frozen=True)
class Batch:
    """A checked, encoded batch for one stream. Backends call :meth:`plan` inside their
    write transaction with what they read there."""

    game_id: str
    expected: ExpectedVersion
    events: tuple[EncodedEvent, ...]

    @classmethod
    def encode(cls, game_id: str, events: Sequence[NewEvent], expected_version: Any) -> Batch:
        """Raises :class:`~eventlog.errors.InvalidArgument` (a ValueError) for an empty batch, a non-event, a repeated event id or a bad
        game id / expected version; :class:`~eventlog.store.streams.LogStreamRefused` for an event
        a ``paipu:`` stream does not hold (a game event in the log's own stream);
        :class:`~eventlog.store.sizes.EventTooLarge` for an event over 1 MiB."""
        check_game_id(game_id)
        expected = normalize_expected(expected_version)
        if isinstance(events, (NewEvent, StoredEvent)) or not isinstance(events, Sequence):
            raise InvalidArgument("events must be a sequence of NewEvent", "events")
        if not events:
            raise InvalidArgument("an append needs at least one event", "events")
        encoded = []
        seen: set[str] = set()
        for i, ev in enumerate(events):
            if not isinstance(ev, (NewEvent, StoredEvent)):
                raise InvalidArgument(f"events[{i}] is a {type(ev).__name__}, not a NewEvent", f"events[{i}]")
            if ev.event_id in seen:
                raise InvalidArgument(f"events[{i}]: event_id {ev.event_id} appears twice in the batch", f"events[{i}]")
            seen.add(ev.event_id)
            encoded.append(EncodedEvent.of(ev))
        check_log_stream(game_id, (e.type for e in encoded))  # paipu:… streams hold their own types only
        check_event_sizes((e.payload, e.metadata) for e in encoded)  # at most 1 MiB an event: every gRPC client can read it back
        return cls(game_id, expected, tuple(encoded))

    @classmethod
    def of_encoded(cls, game_id: str, events: Sequence[EncodedEvent], expected_version: Any) -> Batch:
        """A batch of events already encoded (the gRPC path: :func:`eventlog.convert.encoded_from_proto`).
        Raises :class:`~eventlog.errors.InvalidArgument` like :meth:`encode`: a bad game id or
        expected version, an empty batch, a repeated event id, an event the log's own stream
        does not hold, an event over 1 MiB."""
        check_game_id(game_id)
        expected = normalize_expected(expected_version)
        if not events:
            raise InvalidArgument("an append needs at least one event", "events")
        _check_unique([e.event_id for e in events])
        check_log_stream(game_id, (e.type for e in events))  # paipu:… streams hold their own types only
        check_event_sizes((e.payload, e.metadata) for e in events)  # at most 1 MiB an event: every gRPC client can read it back
        return cls(game_id, expected, tuple(events))

    def with_first_metadata(self, metadata: dict[str, Any]) -> Batch:
        """This batch with the first event's metadata replaced (encoded like :meth:`encode`)."""
        first = self.events[0]._replace(metadata=encode_metadata(metadata))
        return replace(self, events=(first, *self.events[1:]))

    @property
    def event_ids(self) -> list[str]:
        return [e.event_id for e in self.events]

    def plan(
        self,
        stored: Sequence[Row],
        head: StreamHead | None,
        log: LogHead,
        recorded_at: str,
    ) -> AppendPlan:
        """Decide the append, given ``stored`` (the stored rows whose event_id is in this
        batch, any order), the stream's ``head`` (None: no stream) and the log's head
        (its last position and running hash). Raises :class:`IdempotencyConflict`,
        :class:`WrongExpectedVersion`."""
        next_position = log.position + 1
        if stored:
            return self._duplicate(stored, head)
        current = head.version if head is not None else -1
        if self.expected == NO_STREAM and head is not None:
            raise StreamAlreadyExists(self.game_id, self.expected, current)
        if isinstance(self.expected, int) and self.expected != current:
            raise WrongExpectedVersion(self.game_id, self.expected, current)
        prev = head.last_hash if head is not None else GENESIS_HASH
        ruleset = head.ruleset if head is not None else None
        rows: list[Row] = []
        for i, e in enumerate(self.events):
            seq = current + 1 + i
            h = link_hash(
                prev,
                chain_body_text(
                    game_id=self.game_id,
                    seq=seq,
                    event_id=e.event_id,
                    type_=e.type,
                    schema_version=e.schema_version,
                    payload_text=e.payload,
                    metadata_text=e.metadata,
                    recorded_at=recorded_at,
                ),
            )
            rows.append(
                {
                    "position": next_position + i,
                    "game_id": self.game_id,
                    "seq": seq,
                    "event_id": e.event_id,
                    "type": e.type,
                    "schema_version": e.schema_version,
                    "payload": e.payload,
                    "metadata": e.metadata,
                    "recorded_at": recorded_at,
                    "prev_hash": prev,
                    "hash": h,
                }
            )
            if ruleset is None and e.type == "game_started":
                ruleset = e.ruleset
            prev = h
        running = log.log_hash
        for r in rows:
            running = log_hash(running, r["position"], r["hash"])
        last = rows[-1]
        new_log = LogHead(last["position"], running)
        new_head = StreamHead(
            game_id=self.game_id,
            version=last["seq"],
            first_position=head.first_position if head is not None else next_position,
            last_position=last["position"],
            last_hash=last["hash"],
            ruleset=ruleset,
        )
        result = AppendResult(
            game_id=self.game_id,
            first_seq=rows[0]["seq"],
            last_seq=last["seq"],
            first_position=rows[0]["position"],
            last_position=last["position"],
            version=last["seq"],
            duplicate=False,
        )
        return AppendPlan(result, tuple(rows), new_head, new_log)

    def _duplicate(self, stored: Sequence[Row], head: StreamHead | None) -> AppendPlan:
        by_id = {r["event_id"]: r for r in stored}
        missing = [e.event_id for e in self.events if e.event_id not in by_id]
        if missing:
            first_stored = next(e.event_id for e in self.events if e.event_id in by_id)
            raise IdempotencyConflict(
                self.game_id,
                first_stored,
                f"the batch partly overlaps stored events ({len(by_id)} of "
                f"{len(self.events)} ids are stored; first new id {missing[0]})",
            )
        rows = [by_id[e.event_id] for e in self.events]
        for e, r in zip(self.events, rows):
            if r["game_id"] != self.game_id:
                raise IdempotencyConflict(
                    self.game_id, e.event_id, f"the id is already stored in game {r['game_id']!r}"
                )
            if (r["type"], r["schema_version"], r["payload"], r["metadata"]) != (
                e.type,
                e.schema_version,
                e.payload,
                e.metadata,
            ):
                raise IdempotencyConflict(
                    self.game_id,
                    e.event_id,
                    f"the id is already stored (seq {r['seq']}) with other content",
                )
        seqs = [r["seq"] for r in rows]
        if seqs != list(range(seqs[0], seqs[0] + len(seqs))):
            raise IdempotencyConflict(
                self.game_id,
                self.events[0].event_id,
                f"the ids are stored, but at seqs {seqs}, not as one run in this order",
            )
        version = head.version if head is not None else seqs[-1]
        result = AppendResult(
            game_id=self.game_id,
            first_seq=seqs[0],
            last_seq=seqs[-1],
            first_position=rows[0]["position"],
            last_position=rows[-1]["position"],
            version=version,
            duplicate=True,
        )
        return AppendPlan(result, (), None, None)


@dataclass(frozen=True)
class GroupPlan:
    """What a backend writes for a group of appends committed in one transaction
    (:func:`plan_group`): ``outcomes``, one per batch in order (its :class:`AppendResult`,
    or the exception it raises, nothing of it written); ``rows``, every row written, by
    position; ``heads``, the stream records to write (each stream's last, in the order
    the streams were first written to); ``log``, the log's head after them (the one given
    when nothing is written)."""

    outcomes: tuple[AppendResult | Exception, ...]
    rows: tuple[Row, ...]
    heads: tuple[StreamHead, ...]
    log: LogHead


def plan_group(
    batches: Sequence[PlannedBatch],
    stored: Iterable[Row],
    heads: Mapping[str, StreamHead],
    log: LogHead,
    clock: Callable[[], str],
) -> GroupPlan:
    """Plan ``batches`` as the same appends made one after the other in this order would be
    planned, for one write transaction (group commit): each batch's ``plan`` sees the rows
    and the stream head that the batches before it in the group write, besides ``stored``
    (the stored rows whose event_id is in any of the batches) and ``heads`` (the stored
    stream records of their games), and gets its own ``clock()`` reading. A batch whose
    ``plan`` raises (:class:`WrongExpectedVersion`, :class:`IdempotencyConflict` …) writes
    nothing — a plan is decided before anything is written — and has its exception as
    its outcome; the others are planned as if it had not been made. So the rows, positions,
    hash chains and the log's running hash are those of the sequential appends, byte for
    byte."""
    by_id = {r["event_id"]: r for r in stored}
    current = dict(heads)
    written: dict[str, StreamHead] = {}
    outcomes: list[AppendResult | Exception] = []
    rows: list[Row] = []
    for batch in batches:
        found = [by_id[i] for i in batch.event_ids if i in by_id]
        try:
            plan = batch.plan(found, current.get(batch.game_id), log, clock())
        except Exception as e:  # noqa: BLE001 - the batch's own outcome: raised in its caller's thread
            outcomes.append(e)
            continue
        if plan.rows:
            assert plan.head is not None and plan.log is not None
            rows += plan.rows
            for r in plan.rows:
                by_id[r["event_id"]] = r
            current[batch.game_id] = written[batch.game_id] = plan.head
            log = plan.log
        outcomes.append(plan.result)
    return GroupPlan(tuple(outcomes), tuple(rows), tuple(written.values()), log)


#: A sealed row: :data:`~eventlog.store.types.COLUMNS` without ``position`` (the store's).
SealedRow = tuple[str, int, str, str, int, str, str, str, str, str]


class SealedRows(Sequence[SealedRow]):
    """A sealed game's rows (:data:`SealedRow` each, seq 0, 1, … chained from
    ``prev_hash``, one ``recorded_at``), kept as the columns that differ from row to row:
    ``event_ids``, ``types``, ``versions`` (schema versions), ``payloads``, ``metadata``
    (canonical JSON texts) and ``hashes``. A row is made when it is read — iterating
    makes each as the one before is let go (the store's insert reads them so), and a
    game goes between processes as these few columns instead of ten fields a row. Equal
    to any sequence of the same rows."""

    __slots__ = ("game_id", "recorded_at", "prev_hash", "event_ids", "types", "versions", "payloads", "metadata",
                 "hashes")

    def __init__(self, game_id: str, recorded_at: str, prev_hash: str, event_ids: Sequence[str],
                 types: Sequence[str], versions: Sequence[int], payloads: Sequence[str], metadata: Sequence[str],
                 hashes: Sequence[str]) -> None:
        self.game_id, self.recorded_at, self.prev_hash = game_id, recorded_at, prev_hash
        self.event_ids, self.types, self.versions = event_ids, types, versions
        self.payloads, self.metadata, self.hashes = payloads, metadata, hashes

    def columns(self) -> tuple[Any, ...]:
        """Everything this holds, in the order :meth:`__init__` takes it."""
        return (self.game_id, self.recorded_at, self.prev_hash, self.event_ids, self.types, self.versions,
                self.payloads, self.metadata, self.hashes)

    def __len__(self) -> int:
        return len(self.hashes)

    def __iter__(self) -> Iterator[SealedRow]:
        n = len(self.hashes)
        return zip(itertools.repeat(self.game_id, n), range(n), self.event_ids, self.types, self.versions,
                   self.payloads, self.metadata, itertools.repeat(self.recorded_at, n),
                   (self.prev_hash, *self.hashes[:-1]), self.hashes)

    @overload
    def __getitem__(self, i: int) -> SealedRow: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[SealedRow, ...]: ...

    def __getitem__(self, i: int | slice) -> SealedRow | tuple[SealedRow, ...]:
        if isinstance(i, slice):
            return tuple(self)[i]
        n = len(self.hashes)
        k = i + n if i < 0 else i
        if not 0 <= k < n:
            raise IndexError("sealed row index out of range")
        return (self.game_id, k, self.event_ids[k], self.types[k], self.versions[k], self.payloads[k],
                self.metadata[k], self.recorded_at, self.hashes[k - 1] if k else self.prev_hash, self.hashes[k])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SealedRows):
            return self.columns()[:3] == other.columns()[:3] and all(
                list(a) == list(b) for a, b in zip(self.columns()[3:], other.columns()[3:]))
        if isinstance(other, (tuple, list)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"SealedRows({list(self)!r})"


@dataclass(frozen=True)
class SealedBatch:
    """A whole game appended as a new stream (expected version ``NO_STREAM``), encoded
    and hash-chained before the store sees it: ``rows`` are
    ``(game_id, seq, event_id, type, schema_version, payload, metadata, recorded_at,
    prev_hash, hash)`` from seq 0, chained from :data:`~eventlog.hashing.GENESIS_HASH`
    over ``recorded_at`` (:func:`eventlog.hashing.chain_rows`: the same chain a
    :class:`Batch` of these events planned at that ``recorded_at`` gets). Only tuples of
    strings and ints: cheap to send between processes. ``ruleset``: the
    ``game_started`` payload's ruleset (the stream's), else None.

    :meth:`plan` writes the rows as they are when neither the stream nor any of its event
    ids is stored; otherwise it answers exactly as :meth:`Batch.plan` of the same events
    (a duplicate, :class:`StreamAlreadyExists`, :class:`IdempotencyConflict`) — nothing
    is then written, so the store's own ``recorded_at`` is never needed.

    ``log``: ``(position, before, after)`` — written right after a log whose head is at
    ``position`` with running hash ``before``, these rows make the log's running hash
    ``after`` (:meth:`after_log`: worked out where the batch is sealed, by a bulk import's
    parsing process that expects its games to be stored one after the other). The store
    takes ``after`` only when it finds the log exactly there (:meth:`log_hash_after`), so
    it need not hash every row again; anywhere else the hash is computed as always."""

    game_id: str
    rows: SealedRows
    ruleset: str | None = None
    log: tuple[int, str, str] | None = None

    @classmethod
    def seal(cls, batch: Batch, recorded_at: str) -> SealedBatch:
        """``batch`` (a new stream's, expected ``NO_STREAM``) chained at ``recorded_at``.
        Raises :class:`~eventlog.errors.InvalidArgument` for a batch that does not create
        its stream."""
        if batch.expected != NO_STREAM:
            raise InvalidArgument("only a new stream's batch (expected no_stream) is sealed", "expected_version")
        return cls.of(batch.game_id, batch.events, recorded_at, _ruleset_of(batch.events))

    @classmethod
    def of(cls, game_id: str, events: Iterable[tuple[str, str, int, str, str] | EncodedEvent], recorded_at: str,
           ruleset: str | None, log: tuple[int, str] | None = None) -> SealedBatch:
        """From ``(event_id, type, schema_version, payload_text, metadata_text)`` per event
        (canonical JSON texts, read once: an iterator will do; an :class:`EncodedEvent`
        will do too, its ``ruleset`` is not read), checked like :meth:`Batch.encode` checks
        them (a game id, events, ids unique, the log's own streams, event sizes) and chained (:func:`~eventlog.hashing.chain_rows`).
        ``log``: ``(position, running)`` — the :attr:`log` worked out in the same pass (what
        :meth:`after_log` gives)."""
        check_game_id(game_id)
        events = events if isinstance(events, (list, tuple)) else list(events)
        if not events:
            raise InvalidArgument("an append needs at least one event", "events")
        ids, types, versions, payloads, metadata = tuple(zip(*events))[:5]
        return cls.of_columns(game_id, ids, types, versions, payloads, metadata, recorded_at, ruleset, log)

    @classmethod
    def of_columns(cls, game_id: str, event_ids: Sequence[str], types: Sequence[str], versions: Sequence[int],
                   payloads: Sequence[str], metadata: Sequence[str], recorded_at: str, ruleset: str | None,
                   log: tuple[int, str] | None = None, canonical_ids: bool = False) -> SealedBatch:
        """:meth:`of` of the events given as columns (one sequence per field, seq order, of
        one length): what a builder that keeps its events as records hands over without making
        a tuple per event (:meth:`eventlog.ingest.builder.BuiltEvents.sealed`). The same
        checks, the same rows. ``canonical_ids``: the caller vouches for canonical UUIDs and
        int versions (:func:`~eventlog.hashing.chain_links_logged`)."""
        check_game_id(game_id)
        if not event_ids:
            raise InvalidArgument("an append needs at least one event", "events")
        _check_unique(event_ids)
        check_log_stream(game_id, types)  # as Batch.encode: an importer's game never lands in paipu:…
        check_event_size_columns(payloads, metadata)
        hashes, after = chain_links_logged(GENESIS_HASH, game_id=game_id, recorded_at=recorded_at,
                                           events=zip(event_ids, types, versions, payloads, metadata), log=log,
                                           canonical_ids=canonical_ids)
        rows = SealedRows(game_id, recorded_at, GENESIS_HASH, event_ids, types, versions, payloads, metadata, hashes)
        return cls(game_id, rows, ruleset, None if log is None or after is None else (log[0], log[1], after))

    def after_log(self, position: int, running: str) -> SealedBatch:
        """This batch with its :attr:`log`: the log's running hash
        (:func:`~eventlog.hashing.log_hash_run`) after these rows if they follow a log at
        ``position`` whose running hash is ``running``."""
        return replace(self, log=(position, running, log_hash_run(running, position + 1, self.rows.hashes)))

    def log_hash_after(self, log: LogHead) -> str:
        """The log's running hash once these rows are written right after ``log``: the
        :attr:`log` worked out beforehand when it starts where ``log`` is, else computed."""
        if self.log is not None and self.log[0] == log.position and self.log[1] == log.log_hash:
            return self.log[2]
        return log_hash_run(log.log_hash, log.position + 1, self.rows.hashes)

    @property
    def event_ids(self) -> list[str]:
        return list(self.rows.event_ids)

    @property
    def events(self) -> tuple[EncodedEvent, ...]:
        """The events as :meth:`Batch.encode` holds them."""
        return tuple(
            EncodedEvent(event_id=r[2], type=r[3], schema_version=r[4], payload=r[5], metadata=r[6],
                     ruleset=self.ruleset if r[3] == "game_started" else None)
            for r in self.rows
        )

    def plan(self, stored: Sequence[Row], head: StreamHead | None, log: LogHead, recorded_at: str) -> AppendPlan:
        """See the class doc; ``recorded_at`` is not used (the rows carry their own)."""
        if stored or head is not None:
            return Batch(self.game_id, NO_STREAM, self.events).plan(stored, head, log, recorded_at)
        first = log.position + 1
        rows: list[Row] = [dict(zip(COLUMNS, (first + i, *r))) for i, r in enumerate(self.rows)]
        last = rows[-1]
        new_head = StreamHead(self.game_id, last["seq"], first, last["position"], last["hash"], self.ruleset)
        result = AppendResult(self.game_id, 0, last["seq"], first, last["position"], last["seq"], False)
        return AppendPlan(result, tuple(rows), new_head, LogHead(last["position"], self.log_hash_after(log)))


def _check_unique(event_ids: Sequence[str]) -> None:
    """Raise :class:`~eventlog.errors.InvalidArgument` naming the first event id of a batch
    that appears in it a second time."""
    if len(set(event_ids)) != len(event_ids):
        seen: set[str] = set()
        for i, event_id in enumerate(event_ids):
            if event_id in seen:
                raise InvalidArgument(f"events[{i}]: event_id {event_id} appears twice in the batch", f"events[{i}]")
            seen.add(event_id)


def _ruleset_of(events: Sequence[EncodedEvent]) -> str | None:
    return next((e.ruleset for e in events if e.type == "game_started" and e.ruleset is not None), None)
