"""The event store interface (shared/DESIGN.md §5), backend-neutral.

One *stream* per game. Every event gets, at commit:

* ``seq`` — dense per game, 0, 1, 2 … The *version* of a stream is the seq of its
  last event; an absent stream has version ``-1``.
* ``position`` — global, from 1, strictly increasing in commit order and never
  reused, so a reader tailing the log (:meth:`EventStore.read_all`,
  :meth:`EventStore.subscribe`) never sees a gap or a position out of order.
* ``recorded_at`` — ISO-8601 UTC commit time (``2026-11-29T16:34:36.123456Z``);
  metadata only, replay never reads it.
* ``prev_hash`` / ``hash`` — the SHA-256 chain of :func:`eventlog.events.chain_hash`;
  the ``prev_hash`` of seq 0 is :data:`eventlog.events.GENESIS_HASH`.

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
* Corruption is never served as good data: every read re-computes the event's own
  hash and raises :class:`CorruptEvent` on a mismatch. Whole-chain checks (links,
  dense seqs, stream heads) are :mod:`eventlog.verify`'s, through the raw read path
  (:meth:`EventStore.iter_raw`, :meth:`EventStore.raw_game_ids`,
  :meth:`EventStore.stream_head`) that trusts nothing it reads.

A backend implements the small ``_``-prefixed primitives below (a transaction for
:meth:`EventStore._append_batch`, paged row fetches, stream heads); the public
methods, argument checks, idempotency and hash-chain rules live here, once.

Rows: the storage form of an event is a plain ``dict`` with the keys of
:data:`COLUMNS`; ``payload`` and ``metadata`` are canonical JSON text
(:func:`eventlog.events.canonical_bytes`). No backend type leaves a backend.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal, Union

from pydantic import ValidationError
from pydantic_core import to_jsonable_python

from eventlog.errors import InvalidArgument, PaipuError
from eventlog.events import (
    GENESIS_HASH,
    EventError,
    NewEvent,
    StoredEvent,
    canonical_bytes,
    chain_hash,
    parse_payload,
)

__all__ = [
    "ANY",
    "NO_STREAM",
    "COLUMNS",
    "ExpectedVersion",
    "AppendResult",
    "GameInfo",
    "CaughtUp",
    "StreamHead",
    "StoreError",
    "WrongExpectedVersion",
    "StreamAlreadyExists",
    "IdempotencyConflict",
    "GameNotFound",
    "CorruptEvent",
    "StoreClosed",
    "Batch",
    "AppendPlan",
    "EventStore",
    "inspect_row",
    "utc_now",
    "open_store",
]

ANY = "any"
NO_STREAM = "no_stream"
ExpectedVersion = Union[Literal["any", "no_stream"], int]

#: The columns of a stored row, in storage order.
COLUMNS: tuple[str, ...] = (
    "position",
    "game_id",
    "seq",
    "event_id",
    "type",
    "schema_version",
    "payload",
    "metadata",
    "recorded_at",
    "prev_hash",
    "hash",
)

Row = dict[str, Any]

#: Rows fetched per round trip by the paged readers.
PAGE_SIZE = 500


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class AppendResult:
    """What :meth:`EventStore.append` stored (or found already stored).

    ``version`` is the stream's version after the call. ``duplicate`` is True when the
    whole batch was already stored (an idempotent retry): nothing was written and the
    seqs/positions are those of the stored events."""

    game_id: str
    first_seq: int
    last_seq: int
    first_position: int
    last_position: int
    version: int
    duplicate: bool


@dataclass(frozen=True)
class GameInfo:
    """One stream. ``ruleset`` comes from its first ``game_started`` payload, if any."""

    game_id: str
    version: int
    event_count: int
    first_position: int
    last_position: int
    ruleset: str | None


@dataclass(frozen=True)
class CaughtUp:
    """Yielded once by :meth:`EventStore.subscribe` when history is exhausted.

    ``position`` is the last position delivered before it (``from_position - 1``
    when history was empty)."""

    position: int


@dataclass(frozen=True)
class StreamHead:
    """The store's own record of a stream's end (kept in the append transaction)."""

    game_id: str
    version: int
    first_position: int
    last_position: int
    last_hash: str
    ruleset: str | None


# --------------------------------------------------------------------------- errors


class StoreError(PaipuError):
    """Base of every event-store error (gRPC INTERNAL unless a subclass says otherwise)."""

    grpc_code = "INTERNAL"

    def __reduce__(self):  # keep the attributes across pickling (processes, executors)
        return (_rebuild_error, (type(self), self.args, self.__dict__))


def _rebuild_error(cls: type[StoreError], args: tuple, attrs: dict) -> StoreError:
    err = StoreError.__new__(cls)
    err.args = args
    err.__dict__.update(attrs)
    return err


class WrongExpectedVersion(StoreError):
    """The stream's version is not the one the append expected.

    ``expected`` is what the caller passed (normalised: ``"any"``, ``"no_stream"`` or an
    int), ``current`` the stream's version at the time (-1: no stream)."""

    grpc_code = "ABORTED"
    fields = ("game_id", "expected", "current")
    wire_names = {"expected": "expected_version", "current": "current_version"}

    def __init__(self, game_id: str, expected: ExpectedVersion, current: int) -> None:
        shown = "no stream" if expected == NO_STREAM else f"version {expected}"
        now = "does not exist" if current < 0 else f"is at version {current}"
        super().__init__(f"game {game_id!r}: expected {shown}, but the stream {now}")
        self.game_id = game_id
        self.expected = expected
        self.current = current


class StreamAlreadyExists(WrongExpectedVersion):
    """The append expected :data:`NO_STREAM` but the stream exists."""

    grpc_code = "ALREADY_EXISTS"


class IdempotencyConflict(StoreError):
    """A batch partly overlaps stored events, or reuses an event id with other content,
    in another order or in another game. ``event_id`` names the first offending id."""

    grpc_code = "FAILED_PRECONDITION"
    fields = ("game_id", "event_id", "reason")

    def __init__(self, game_id: str, event_id: str, reason: str) -> None:
        super().__init__(f"game {game_id!r}: event {event_id}: {reason}")
        self.game_id = game_id
        self.event_id = event_id
        self.reason = reason


class GameNotFound(StoreError):
    grpc_code = "NOT_FOUND"
    fields = ("game_id",)

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no such game: {game_id!r}")
        self.game_id = game_id


class CorruptEvent(StoreError):
    """A stored row does not match its own hash or no longer parses; never served."""

    grpc_code = "DATA_LOSS"
    fields = ("game_id", "seq", "position", "reason")

    def __init__(self, game_id: Any, seq: Any, position: Any, reason: str) -> None:
        super().__init__(f"game {game_id!r} seq {seq} (position {position}): {reason}")
        self.game_id = game_id
        self.seq = seq
        self.position = position
        self.reason = reason


class StoreClosed(StoreError):
    """The store was closed."""

    grpc_code = "UNAVAILABLE"


# --------------------------------------------------------------------------- helpers


def utc_now() -> str:
    """The commit clock: ISO-8601 UTC with microseconds and a ``Z``."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _canonical_text(obj: Any) -> str:
    return canonical_bytes(obj).decode()


def normalize_expected(expected: Any) -> ExpectedVersion:
    """``ANY`` | ``NO_STREAM`` | int ≥ -1 (-1 → ``NO_STREAM``). Raises ValueError."""
    if expected == ANY or expected == NO_STREAM:
        return expected
    if isinstance(expected, int) and not isinstance(expected, bool):
        if expected == -1:
            return NO_STREAM
        if expected >= 0:
            return expected
    raise InvalidArgument(
        f"expected_version must be {ANY!r}, {NO_STREAM!r} or a version >= -1, got {expected!r}",
        "expected_version",
    )


#: Longest game id accepted (source ids are far shorter: site + match or session/board).
MAX_GAME_ID = 200


def _check_game_id(game_id: Any) -> str:
    """A game id is 1..200 printable characters without outer spaces (no tabs, newlines or
    other control characters: ids appear in file names, URLs and one-line messages)."""
    if not isinstance(game_id, str) or not game_id or game_id != game_id.strip():
        raise InvalidArgument(f"game_id must be a non-empty string without outer spaces, got {game_id!r}", "game_id")
    if len(game_id) > MAX_GAME_ID:
        raise InvalidArgument(f"game_id is {len(game_id)} characters long; at most {MAX_GAME_ID} are allowed", "game_id")
    if not game_id.isprintable():
        raise InvalidArgument(f"game_id must not contain control characters (tab, newline …), got {game_id!r}", "game_id")
    return game_id


def _check_limit(limit: Any) -> int | None:
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise InvalidArgument(f"limit must be None or an int >= 0, got {limit!r}", "limit")
    return limit


#: A string as canonical JSON (what :func:`eventlog.events.canonical_bytes` writes for it).
_json_text = json.JSONEncoder(ensure_ascii=False).encode

#: What NewEvent stores as event_id: str(uuid.UUID(...)), lower-case hex with hyphens.
_CANONICAL_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

#: Parsed payloads by (type, stored payload text): draws and discards repeat constantly.
_PAYLOAD_CACHE_SIZE = 50_000
_payload_cache: dict[tuple[str, str], Any] = {}


def _hash_of_stored_text(row: Row) -> str:
    """:func:`chain_hash` of a row built straight from its stored JSON texts: the store
    writes payload and metadata as canonical JSON, so they need no decoding and
    re-encoding. Only a match is trusted; any other row is checked the slow way."""
    text = _json_text
    body = (f'{{"event_id":{text(row["event_id"])},"game_id":{text(row["game_id"])},'
            f'"metadata":{row["metadata"]},"payload":{row["payload"]},'
            f'"recorded_at":{text(row["recorded_at"])},'
            f'"schema_version":{int(row["schema_version"])},"seq":{int(row["seq"])},'
            f'"type":{text(row["type"])}}}')
    return hashlib.sha256(row["prev_hash"].encode() + b"\n" + body.encode()).hexdigest()


def _parsed_payload(type_: str, text: str, value: dict[str, Any]) -> Any:
    key = (type_, text)
    payload = _payload_cache.get(key)
    if payload is None:
        payload = parse_payload(type_, value)
        if len(_payload_cache) >= _PAYLOAD_CACHE_SIZE:
            _payload_cache.clear()
        _payload_cache[key] = payload
    return payload


def inspect_row(row: Row) -> StoredEvent:
    """Turn a stored row into a :class:`StoredEvent`, trusting nothing.

    Checks the column types, that ``payload``/``metadata`` are JSON objects, that
    ``hash`` equals :func:`chain_hash` over the row as stored (not as re-encoded by
    today's models, so a later schema change cannot break old chains), and that the
    event parses. Raises :class:`CorruptEvent` saying what is wrong. Links between
    rows (``prev_hash``, dense seqs) are :mod:`eventlog.verify`'s.

    Fast path (every reader: replay, verify, export): the hash is first computed from
    the stored texts as they are, and parsed payloads are reused for identical texts."""
    gid, seq, pos = row.get("game_id"), row.get("seq"), row.get("position")

    def bad(reason: str) -> CorruptEvent:
        return CorruptEvent(gid, seq, pos, reason)

    for col, typ in (
        ("position", int),
        ("game_id", str),
        ("seq", int),
        ("event_id", str),
        ("type", str),
        ("schema_version", int),
        ("payload", str),
        ("metadata", str),
        ("recorded_at", str),
        ("prev_hash", str),
        ("hash", str),
    ):
        if not isinstance(row.get(col), typ):
            raise bad(f"column {col} holds {type(row.get(col)).__name__}, not {typ.__name__}")
    decoded: dict[str, dict[str, Any]] = {}
    cached = _payload_cache.get((row["type"], row["payload"]))  # this text parsed before
    for col in ("payload", "metadata"):
        if col == "payload" and cached is not None:
            continue
        try:
            value = json.loads(row[col])
        except ValueError as e:
            raise bad(f"{col} is not JSON: {e}") from None
        if not isinstance(value, dict):
            raise bad(f"{col} is not a JSON object")
        decoded[col] = value
    if _hash_of_stored_text(row) != row["hash"]:
        if "payload" not in decoded:
            decoded["payload"] = json.loads(row["payload"])
        computed = chain_hash(
            row["prev_hash"],
            game_id=gid,
            seq=seq,
            event_id=row["event_id"],
            type_=row["type"],
            schema_version=row["schema_version"],
            payload=decoded["payload"],
            metadata=decoded["metadata"],
            recorded_at=row["recorded_at"],
        )
        if computed != row["hash"]:
            raise bad(f"hash mismatch: stored {row['hash'][:16]}…, content hashes to {computed[:16]}…")
    try:
        payload = cached if cached is not None else _parsed_payload(row["type"], row["payload"], decoded["payload"])
        if not _CANONICAL_UUID.fullmatch(row["event_id"]):
            raise EventError(f"event_id is not a canonical UUID: {row['event_id']!r}", "event_id")
    except (EventError, ValidationError, ValueError) as e:
        raise bad(f"does not parse: {e}") from None
    # Every field is checked above (types, JSON objects, hash, UUID, payload model), so the
    # envelope is assembled without a second validation pass.
    return StoredEvent.model_construct(
        event_id=row["event_id"], type=row["type"], payload=payload, metadata=decoded["metadata"],
        schema_version=row["schema_version"], game_id=gid, seq=seq, position=pos,
        recorded_at=row["recorded_at"], prev_hash=row["prev_hash"], hash=row["hash"],
    )


# --------------------------------------------------------------------------- append planning


@dataclass(frozen=True)
class _Encoded:
    event_id: str
    type: str
    schema_version: int
    payload: str  # canonical JSON text
    metadata: str  # canonical JSON text
    payload_obj: dict[str, Any]
    metadata_obj: dict[str, Any]


@dataclass(frozen=True)
class AppendPlan:
    """What a backend writes for one append: ``rows`` (empty for a duplicate) and the
    stream's new head (None for a duplicate), and the result to return after commit."""

    result: AppendResult
    rows: tuple[Row, ...]
    head: StreamHead | None


@dataclass(frozen=True)
class Batch:
    """A checked, encoded batch for one stream. Backends call :meth:`plan` inside their
    write transaction with what they read there."""

    game_id: str
    expected: ExpectedVersion
    events: tuple[_Encoded, ...]

    @classmethod
    def encode(cls, game_id: str, events: Sequence[NewEvent], expected_version: Any) -> Batch:
        """Raises ValueError for an empty batch, a non-event, a repeated event id or a bad
        game id / expected version."""
        _check_game_id(game_id)
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
            payload = ev.payload_json()
            metadata = to_jsonable_python(ev.metadata)
            encoded.append(
                _Encoded(
                    event_id=ev.event_id,
                    type=ev.type,
                    schema_version=ev.schema_version,
                    payload=_canonical_text(payload),
                    metadata=_canonical_text(metadata),
                    payload_obj=payload,
                    metadata_obj=metadata,
                )
            )
        return cls(game_id, expected, tuple(encoded))

    @property
    def event_ids(self) -> list[str]:
        return [e.event_id for e in self.events]

    def plan(
        self,
        stored: Sequence[Row],
        head: StreamHead | None,
        next_position: int,
        recorded_at: str,
    ) -> AppendPlan:
        """Decide the append, given ``stored`` (the stored rows whose event_id is in this
        batch, any order), the stream's ``head`` (None: no stream) and the next global
        position. Raises :class:`IdempotencyConflict`, :class:`WrongExpectedVersion`."""
        if stored:
            return self._duplicate(stored, head)
        current = head.version if head is not None else -1
        if self.expected == NO_STREAM and head is not None:
            raise StreamAlreadyExists(self.game_id, self.expected, current)
        if isinstance(self.expected, int) and self.expected != current:
            raise WrongExpectedVersion(self.game_id, self.expected, current)
        prev = head.last_hash if head is not None else GENESIS_HASH
        ruleset = head.ruleset if head is not None else None
        rows = []
        for i, e in enumerate(self.events):
            seq = current + 1 + i
            h = chain_hash(
                prev,
                game_id=self.game_id,
                seq=seq,
                event_id=e.event_id,
                type_=e.type,
                schema_version=e.schema_version,
                payload=e.payload_obj,
                metadata=e.metadata_obj,
                recorded_at=recorded_at,
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
                ruleset = e.payload_obj.get("ruleset")
            prev = h
        last = rows[-1]
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
        return AppendPlan(result, tuple(rows), new_head)

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
        return AppendPlan(result, (), None)


# --------------------------------------------------------------------------- the interface


class EventStore(ABC):
    """An append-only log of game streams. Safe to share between threads.

    Use as a context manager or call :meth:`close`. Backends: :class:`SqliteStore`
    (embedded default), :class:`MemoryStore` (reference model, tests); get one with
    :func:`open_store`."""

    # ---- public API -------------------------------------------------------------

    def append(
        self,
        game_id: str,
        events: Sequence[NewEvent],
        expected_version: ExpectedVersion = ANY,
    ) -> AppendResult:
        """Append ``events`` to the stream ``game_id`` atomically; return once durable.

        Raises :class:`WrongExpectedVersion` (:class:`StreamAlreadyExists` for
        ``NO_STREAM``), :class:`IdempotencyConflict`, ValueError for a malformed call
        (empty batch, id repeated within the batch, bad expected version)."""
        batch = Batch.encode(game_id, events, expected_version)
        self._check_open()
        return self._append_batch(batch)

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
        arguments; the iterator raises :class:`CorruptEvent` on a damaged row."""
        _check_game_id(game_id)
        limit = _check_limit(limit)
        if isinstance(from_seq, bool) or not isinstance(from_seq, int) or from_seq < -1:
            raise InvalidArgument(f"from_seq must be an int >= 0 (or -1 backward), got {from_seq!r}", "from_seq")
        if from_seq == -1 and not backward:
            raise InvalidArgument("from_seq=-1 (the end) is only meaningful with backward=True", "from_seq")
        self._check_open()
        head = self._stream_head(game_id)
        if head is None:
            raise GameNotFound(game_id)
        start = head.version if from_seq == -1 else from_seq

        def fetch(cursor: int, n: int) -> list[Row]:
            return self._fetch_game(game_id, cursor, n, backward)

        return self._paged(fetch, start, limit, backward, "seq")

    def read_all(
        self,
        from_position: int = 1,
        limit: int | None = None,
        backward: bool = False,
    ) -> Iterator[StoredEvent]:
        """All events by global position, ``from_position`` inclusive: forward up, or
        backward down to 1 (``from_position=-1``: from the head). At most ``limit``."""
        limit = _check_limit(limit)
        if isinstance(from_position, bool) or not isinstance(from_position, int) or from_position < -1:
            raise InvalidArgument(f"from_position must be an int >= 0 (or -1 backward), got {from_position!r}", "from_position")
        if from_position == -1 and not backward:
            raise InvalidArgument("from_position=-1 (the head) is only meaningful with backward=True", "from_position")
        self._check_open()
        if from_position == -1:
            start = self._head_position()
        else:
            start = from_position if backward else max(from_position, 1)
        return self._paged(
            lambda cursor, n: self._fetch_all(cursor, n, backward), start, limit, backward, "position"
        )

    def version(self, game_id: str) -> int:
        """The stream's version (seq of its last event); -1 for an absent stream."""
        _check_game_id(game_id)
        self._check_open()
        head = self._stream_head(game_id)
        return head.version if head is not None else -1

    def list_games(self) -> list[GameInfo]:
        """Every stream, ordered by its first position."""
        self._check_open()
        return [
            GameInfo(
                game_id=h.game_id,
                version=h.version,
                event_count=h.version + 1,
                first_position=h.first_position,
                last_position=h.last_position,
                ruleset=h.ruleset,
            )
            for h in self._stream_heads()
        ]

    def game_with_fingerprint(self, fingerprint: str) -> str | None:
        """The id of the stored game whose first event carries ``fingerprint`` in its
        metadata (a game's content identity, set by the ingest load:
        :func:`eventlog.ingest.base.fingerprint`), or None. The first such game by
        position. This generic version reads each game's first event; backends with an
        index override it."""
        self._check_open()
        for info in self.list_games():
            rows = self._fetch_game(info.game_id, 0, 1, False)
            if rows and _metadata_fingerprint(rows[0]) == fingerprint:
                return info.game_id
        return None

    def head_position(self) -> int:
        """The last committed global position; 0 when the log is empty."""
        self._check_open()
        return self._head_position()

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
        consumer stops iterating."""
        if isinstance(from_position, bool) or not isinstance(from_position, int) or from_position < 0:
            raise InvalidArgument(f"from_position must be an int >= 0, got {from_position!r}", "from_position")
        if poll_interval <= 0:
            raise InvalidArgument("poll_interval must be > 0", "poll_interval")
        self._check_open()
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
    def _append_batch(self, batch: Batch) -> AppendResult:
        """In one write transaction: read the rows with the batch's ids, the stream head
        and the next position; ``batch.plan(...)``; write its rows and head; commit
        durably. Positions must be assigned while holding the write lock."""

    @abstractmethod
    def _fetch_game(self, game_id: str, from_seq: int, n: int, backward: bool) -> list[Row]:
        """Up to ``n`` rows of the game, seq ≥ from_seq ascending (or ≤, descending)."""

    @abstractmethod
    def _fetch_all(self, from_position: int, n: int, backward: bool) -> list[Row]:
        """Up to ``n`` rows, position ≥ from_position ascending (or ≤, descending)."""

    @abstractmethod
    def _stream_head(self, game_id: str) -> StreamHead | None: ...

    @abstractmethod
    def _stream_heads(self) -> list[StreamHead]:
        """All stream heads ordered by first position."""

    @abstractmethod
    def _head_position(self) -> int: ...

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

    def _paged(
        self,
        fetch: Callable[[int, int], list[Row]],
        start: int,
        limit: int | None,
        backward: bool,
        key: str,
    ) -> Iterator[StoredEvent]:
        remaining = limit
        cursor = start
        while (remaining is None or remaining > 0) and cursor >= 0:
            n = PAGE_SIZE if remaining is None else min(PAGE_SIZE, remaining)
            rows = fetch(cursor, n)
            for row in rows:
                yield inspect_row(row)
            if len(rows) < n:
                return
            if remaining is not None:
                remaining -= len(rows)
            cursor = rows[-1][key] - 1 if backward else rows[-1][key] + 1

    def _subscription(
        self, next_position: int, stop: threading.Event | None, poll_interval: float
    ) -> Iterator[StoredEvent | CaughtUp]:
        caught_up = False
        while stop is None or not stop.is_set():
            rows = self._fetch_all(next_position, PAGE_SIZE, False)
            for row in rows:
                if stop is not None and stop.is_set():
                    return
                event = inspect_row(row)
                next_position = event.position + 1
                yield event
            if len(rows) < PAGE_SIZE:
                if not caught_up:
                    caught_up = True
                    yield CaughtUp(next_position - 1)
                if not rows:
                    self._wait_for_commit(next_position - 1, poll_interval)


def _metadata_fingerprint(row: Row) -> str | None:
    try:
        meta = json.loads(row["metadata"]) if isinstance(row["metadata"], str) else row["metadata"]
    except ValueError:
        return None
    fp = meta.get("fingerprint") if isinstance(meta, dict) else None
    return fp if isinstance(fp, str) else None


def open_store(path_or_url: str | Path) -> EventStore:
    """Open an event store.

    * ``"memory:"`` — a new, empty :class:`~eventlog.store.memory.MemoryStore`.
    * a path ending in ``.sqlite``, ``.sqlite3`` or ``.db`` (optionally prefixed
      ``sqlite:``), or an existing file — that SQLite file.
    * any other path — a directory (created if missing) holding ``events.sqlite``.

    * ``postgresql://…`` / ``postgres://…`` — a :class:`~eventlog.store.postgres.PostgresStore`
      (the ``[postgres]`` extra).

    Raises :class:`StoreError` for an unsupported URL scheme or an unreachable server."""
    text = str(path_or_url)
    if text == "memory:":
        from eventlog.store.memory import MemoryStore

        return MemoryStore()
    if text.startswith(("postgresql://", "postgres://")):
        from eventlog.store.postgres import PostgresStore

        return PostgresStore(text)
    if "://" in text and not text.startswith("sqlite:"):
        raise StoreError(
            f"unsupported event store URL: {text!r} (use a path, 'memory:' or 'postgresql://…')"
        )
    if text.startswith("sqlite:"):
        text = text[len("sqlite:") :]
        if text.startswith("///"):
            text = text[2:]
    from eventlog.store.sqlite import SqliteStore

    path = Path(text)
    if path.suffix in (".sqlite", ".sqlite3", ".db") or path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        return SqliteStore(path)
    path.mkdir(parents=True, exist_ok=True)
    return SqliteStore(path / "events.sqlite")
