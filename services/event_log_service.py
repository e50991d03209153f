"""The gRPC event-log service ``paipu.v1.EventLogService`` over an :class:`EventStore`
(proto/paipu/v1/event_log_service.proto; docs/reference/DESIGN.md §5, §9): Append / AppendStream /
ReadGame / ListGames / Subscribe, each a thin translation between the contract (eventlog/convert.py)
and the store.

Append and AppendStream take the events of a request from their protobuf messages straight
to the texts the store writes (:func:`eventlog.convert.encoded_events_from_proto`: validated
once, encoded once, the bytes ``Batch.encode`` would make), never building the pydantic
event; an AppendStream commits its batches many per durable transaction
(:data:`STREAM_GROUP_BATCHES`), a new game's batch sealed before (hash-chained in one pass:
:meth:`SealedBatch.seal <eventlog.store.planning.SealedBatch.seal>`, as the bulk import seals).
Every Append is acknowledged only after the store has made it durable (the store's
``append_batch`` returns only then). Each open ReadGame stream holds one worker thread for
its duration, each Subscribe one worker thread plus one pump thread. Both send events in
batches (:data:`BATCH_EVENTS`, :data:`BATCH_BYTES`).
"""

from __future__ import annotations

import base64
import json
import queue
import threading
from collections.abc import Iterator
from typing import Any

import grpc

from eventlog.convert import encoded_events_from_proto, to_proto
from eventlog.events import EventError, StoredEvent
from eventlog.errors import InvalidArgument
from eventlog.store.base import (
    ANY,
    NO_STREAM,
    AppendResult,
    CaughtUp,
    EventStore,
    StoreClosed,
    StoreError,
    StreamAlreadyExists,
    WrongExpectedVersion,
)
from eventlog.store.planning import Batch, PlannedBatch, SealedBatch
from eventlog.store.streams import PLAYERS_STREAM, LogStreamRefused, check_log_stream, is_log_stream
from eventlog.players import check_alias_batch
from paipu.v1 import event_log_service_pb2 as pb
from paipu.v1 import event_log_service_pb2_grpc as pb_grpc
from services.verify_reply import REPLY_BYTES

__all__ = ["SERVICE_NAME", "MAX_PAGE_SIZE", "LIST_REPLY_BYTES", "BATCH_EVENTS", "BATCH_BYTES", "STREAM_GROUP_BATCHES", "STREAM_GROUP_EVENTS", "EventLogServicer"]

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["EventLogService"].full_name  # paipu.v1.EventLogService
#: Most events, and about the most bytes, in one ReadGame / Subscribe message: a message
#: per event would cost more than the event (gRPC Python sends ~5k messages/s).
BATCH_EVENTS = 256
BATCH_BYTES = 1024 * 1024
#: An AppendStream commits its batches in groups of at most this many batches or events
#: (one durable transaction each: EventStore.append_batches).
STREAM_GROUP_BATCHES = 200
STREAM_GROUP_EVENTS = 20_000
#: Most games in one ListGames reply (page_size 0 or more is read as this).
MAX_PAGE_SIZE = 10_000
#: The default byte limit of a ListGames reply: 4 MiB (a gRPC client's default receive
#: limit) less 64 KiB, as Verify's (services/verify_reply.py). A game's GameInfo is at most
#: ~900 bytes (a 200-character id of 4-byte characters), so a page of the 10,000 short ids of a
#: Botzone log (~45 bytes each) is far below it; long ids end the page early, with
#: next_page_token set.
LIST_REPLY_BYTES = REPLY_BYTES


class EventLogServicer(pb_grpc.EventLogServiceServicer):
    """``paipu.v1.EventLogService`` over ``store`` (any EventStore backend; shared, the
    store is thread-safe). ``poll_interval`` (s) is how often an idle Subscribe checks for
    cancellation; ``list_reply_bytes`` the largest ListGames reply (bytes; a page ends before it,
    but always holds at least one game). :meth:`close` ends every open subscription. Access control, request limits
    and error statuses are the server's interceptors (services/auth.py, services/calls.py):
    a handler raises, the interceptor answers with the status the exception names."""

    def __init__(
        self,
        store: EventStore,
        *,
        poll_interval: float = 0.05,
        list_reply_bytes: int = LIST_REPLY_BYTES,
    ) -> None:
        self._store = store
        self._list_reply_bytes = list_reply_bytes
        self._poll_interval = poll_interval
        self._lock = threading.Lock()
        self._subscriptions: set[threading.Event] = set()
        self._closed = False

    def close(self) -> None:
        """Stop every open subscription (their streams end normally) and refuse new ones."""
        with self._lock:
            self._closed = True
            for stop in self._subscriptions:
                stop.set()

    # ---- Append -----------------------------------------------------------------
    def Append(self, request: pb.AppendRequest, context: grpc.ServicerContext) -> pb.AppendResponse:
        if not request.events:
            raise EventError("an append needs at least one event", "events")
        events = encoded_events_from_proto(request.events)
        batch = Batch.of_encoded(request.game_id, events, _expected(request))  # refuses a game event in paipu:…
        if is_log_stream(request.game_id):
            _check_log_stream_append(self._store, request)
        res = self._store.append_batch(batch)
        return _appended(res)

    # ---- AppendStream -----------------------------------------------------------
    def AppendStream(self, request_iterator: Iterator[pb.AppendRequest], context: grpc.ServicerContext) -> pb.AppendStreamResponse:
        # A new game's batch (expected no_stream) is sealed here — hash-chained at the
        # group's recorded_at, the store's clock when the group began — so the store writes
        # a run of them with one insert (planning.SealedBatch, as the bulk import does); any
        # other batch, or a sealed one whose game or ids turn out to be stored, is planned
        # by the store as usual, with the same outcome.
        results: list[pb.AppendStreamResult] = []
        group: list[PlannedBatch] = []
        events_in_group = 0
        recorded_at = ""

        def commit() -> None:
            nonlocal events_in_group
            if group:
                results.extend(_stream_result(r) for r in self._store.append_batches(group))
                group.clear()
                events_in_group = 0

        for n, request in enumerate(request_iterator):
            try:
                events = encoded_events_from_proto(request.events, f"requests[{n}].")
            except EventError:
                _refuse_referee_events(request.events, n)  # checked first, as it always was
                raise
            if not _REFEREE_TYPES.isdisjoint([e.type for e in events]):
                _refuse_referee_events(request.events, n)
            if is_log_stream(request.game_id):  # the log's own streams: through Append, by a referee
                check_log_stream(request.game_id, (e.type for e in events), f"requests[{n}].events")
                raise LogStreamRefused(f"requests[{n}]: {request.game_id!r} is the log's own stream: write it "
                                       "through Append (it needs the referee role), not AppendStream",
                                       f"requests[{n}].game_id", request.game_id)
            try:
                batch = Batch.of_encoded(request.game_id, events, _expected(request))
                if not group:
                    recorded_at = self._store.now()
                group.append(SealedBatch.seal(batch, recorded_at) if batch.expected == NO_STREAM else batch)
            except InvalidArgument as e:  # the same error (class, fields), placed in request n
                e.args = (f"requests[{n}]: {e}",)
                e.field = f"requests[{n}]" + (f".{e.field}" if e.field else "")
                raise e from None
            events_in_group += len(events)
            if len(group) >= STREAM_GROUP_BATCHES or events_in_group >= STREAM_GROUP_EVENTS:
                commit()
        commit()
        return pb.AppendStreamResponse(results=results)

    # ---- ReadGame ---------------------------------------------------------------
    def ReadGame(
        self, request: pb.ReadGameRequest, context: grpc.ServicerContext
    ) -> Iterator[pb.ReadGameResponse]:
        if request.HasField("from_seq"):
            from_seq = request.from_seq
        else:
            from_seq = -1 if request.backward else 0
        events = self._store.read_game(
            request.game_id, from_seq=from_seq, limit=request.limit or None, backward=request.backward
        )
        batch = pb.ReadGameResponse()
        size = 0
        for ev in events:
            msg = _recorded(ev)
            batch.events.append(msg)
            size += msg.ByteSize()
            if len(batch.events) >= BATCH_EVENTS or size >= BATCH_BYTES:
                if not context.is_active():
                    return
                yield batch
                batch, size = pb.ReadGameResponse(), 0
        if batch.events:
            yield batch

    # ---- ListGames --------------------------------------------------------------
    def ListGames(self, request: pb.ListGamesRequest, context: grpc.ServicerContext) -> pb.ListGamesResponse:
        # One page (AIP-158): the games after the token's first position, in first-position
        # order, until page_size games or the reply limit. The token holds no snapshot: a
        # game's first position never changes and a new game's is larger than every stored
        # one, so a token stays valid while games are appended.
        if request.page_size < 0:
            raise InvalidArgument(f"page_size must be >= 0 (0: the server's default, {MAX_PAGE_SIZE}), "
                                  f"got {request.page_size}", "page_size")
        if len(request.ruleset) > MAX_RULESET_CHARS:
            raise InvalidArgument(f"ruleset is {len(request.ruleset)} characters long; a ruleset id has at most "
                                  f"{MAX_RULESET_CHARS}", "ruleset")
        size = min(request.page_size or MAX_PAGE_SIZE, MAX_PAGE_SIZE)
        after = _page_after(request.page_token, request.ruleset)
        # one more than the page holds: whether another page follows (the store reads the page
        # along its index on first_position, not every game)
        games = self._store.list_games(after=after, limit=size + 1, ruleset=request.ruleset or None)
        reply = pb.ListGamesResponse()
        room = self._list_reply_bytes - _token_room(request.ruleset)
        last: int | None = None
        for g in games:
            if len(reply.games) >= size:
                reply.next_page_token = _page_token(last, request.ruleset)  # type: ignore[arg-type]
                break
            info = pb.GameInfo(game_id=g.game_id, version=g.version, event_count=g.event_count,
                               first_position=g.first_position, last_position=g.last_position,
                               ruleset=g.ruleset or "")
            cost = _field_cost(info)
            if cost > room and reply.games:
                reply.next_page_token = _page_token(last, request.ruleset)  # type: ignore[arg-type]
                break
            room -= cost
            reply.games.append(info)
            last = g.first_position
        return reply

    # ---- Subscribe --------------------------------------------------------------
    def Subscribe(
        self, request: pb.SubscribeRequest, context: grpc.ServicerContext
    ) -> Iterator[pb.SubscribeResponse]:
        # A pump thread runs the store's subscription into a bounded queue; this handler
        # sends whatever is queued as one batch, so history travels in large messages and
        # a live event leaves as soon as it is committed.
        stop = threading.Event()
        with self._lock:
            if self._closed:
                raise StoreClosed("the server is shutting down")
            self._subscriptions.add(stop)
        context.add_callback(stop.set)  # runs when the client cancels or the call ends
        try:
            items = self._store.subscribe(
                max(request.from_position, 1), stop=stop, poll_interval=self._poll_interval
            )
        except Exception:
            with self._lock:
                self._subscriptions.discard(stop)
            raise
        pump = _Pump(items, stop)
        try:
            while True:
                item = pump.get()
                batch: list[Any] = []
                size = 0
                while isinstance(item, StoredEvent):
                    msg = _recorded(item)
                    batch.append(msg)
                    size += msg.ByteSize()
                    if len(batch) >= BATCH_EVENTS or size >= BATCH_BYTES:
                        break
                    item = pump.get_nowait()
                if batch:
                    yield pb.SubscribeResponse(events=pb.RecordedEventBatch(events=batch))
                    if isinstance(item, StoredEvent):  # the batch was full: item is in it
                        continue
                if item is None:  # nothing more queued right now
                    continue
                if isinstance(item, CaughtUp):
                    yield pb.SubscribeResponse(caught_up=pb.CaughtUp(position=item.position))
                elif isinstance(item, Exception):
                    raise item
                else:  # _END: the store's subscription ended (stop was set)
                    break
            if self._closed and context.is_active():  # ended by shutdown, not by the client
                raise StoreClosed("the server is shutting down")
        finally:
            stop.set()
            pump.close()
            with self._lock:
                self._subscriptions.discard(stop)


_END = object()

#: What a ListGames page token says, before base64: ``PAGE_TOKEN_PREFIX`` + JSON
#: ``[first position of the page's last game, ruleset filter]``. Opaque to clients.
PAGE_TOKEN_PREFIX = "paipu.ListGames.v1:"
#: Longest ruleset filter ListGames takes (ruleset ids are short words: mcr, nanchang_002 …).
MAX_RULESET_CHARS = 200


def _field_cost(item: Any) -> int:
    """Bytes ``item`` adds to a repeated field numbered below 16: tag, length, body."""
    n = item.ByteSize()
    return 1 + max(1, (n.bit_length() + 6) // 7) + n


def _token_room(ruleset: str) -> int:
    """Bytes a ListGames reply keeps free for its next_page_token: the field of the longest
    token of ``ruleset`` (the largest position; at most ~1,800 bytes for a filter of
    MAX_RULESET_CHARS)."""
    n = len(_page_token(2**63 - 1, ruleset))
    return 1 + max(1, (n.bit_length() + 6) // 7) + n


def _page_token(after: int, ruleset: str) -> str:
    """The opaque ListGames token for the page after the game whose first position is ``after``."""
    text = PAGE_TOKEN_PREFIX + json.dumps([after, ruleset], ensure_ascii=False, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def _page_after(token: str, ruleset: str) -> int:
    """The first position a ListGames ``page_token`` continues after (0 for ""); raises
    InvalidArgument (``page_token``) for a token this server did not give or one given for
    another ``ruleset`` filter (AIP-158: the other fields must stay as they were)."""
    if not token:
        return 0
    try:
        text = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode("utf-8")
        if not text.startswith(PAGE_TOKEN_PREFIX):
            raise ValueError("no prefix")
        after, was = json.loads(text[len(PAGE_TOKEN_PREFIX):])
        if isinstance(after, bool) or not isinstance(after, int) or after < 1 or not isinstance(was, str):
            raise ValueError("bad fields")
    except (ValueError, TypeError, UnicodeDecodeError):
        raise InvalidArgument("page_token is not a next_page_token this server gave (send \"\" for the first "
                              "page)", "page_token") from None
    if was != ruleset:
        raise InvalidArgument(f"page_token was given for ruleset {was!r}, not {ruleset!r}: keep the request's "
                              "other fields as they were while paging", "page_token")
    return after


class _Pump:
    """Runs ``items`` (a store subscription) in a thread into a bounded queue.

    :meth:`get` blocks for the next item; :meth:`get_nowait` returns None when nothing
    is queued. The last item is ``_END``, or the exception the subscription raised.
    ``stop`` ends the subscription (the store checks it between polls)."""

    def __init__(self, items: Iterator[Any], stop: threading.Event, maxsize: int = 4 * 256) -> None:
        self._items = items
        self._stop = stop
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=maxsize)
        self._consumer_gone = threading.Event()
        self._thread = threading.Thread(target=self._run, name="paipu-subscribe", daemon=True)
        self._thread.start()

    def _put(self, item: Any) -> bool:
        while not self._consumer_gone.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _run(self) -> None:
        try:
            for item in self._items:
                if not self._put(item):
                    return
            self._put(_END)
        except Exception as e:  # noqa: BLE001 - handed to the consumer, which reports it
            self._put(e)
        finally:
            close = getattr(self._items, "close", None)
            if close is not None:
                close()

    def get(self) -> Any:
        return self._queue.get()

    def get_nowait(self) -> Any:
        try:
            return self._queue.get_nowait()
        except queue.Empty:
            return None

    def close(self) -> None:
        """The consumer is done: let the thread end (``stop`` must be set too)."""
        self._consumer_gone.set()
        self._thread.join(timeout=5.0)


def _recorded(ev: StoredEvent) -> Any:
    """The RecordedEvent of a stored event; a payload its typed message cannot carry (a
    number beyond 64 bits, stored before the ranges were checked) travels as stored JSON
    text (``RecordedEvent.stored_payload_json``); anything else it cannot carry is a
    server-side failure (INTERNAL) naming the event."""
    try:
        return to_proto(ev)
    except EventError as e:
        raise StoreError(f"game {ev.game_id!r} seq {ev.seq} cannot be sent over gRPC: {e}") from None


def _appended(res: AppendResult) -> pb.AppendResponse:
    return pb.AppendResponse(
        first_seq=res.first_seq, last_seq=res.last_seq, first_position=res.first_position,
        last_position=res.last_position, version=res.version, duplicate=res.duplicate,
    )


def _stream_result(res: AppendResult | StoreError) -> pb.AppendStreamResult:
    if isinstance(res, AppendResult):
        return pb.AppendStreamResult(appended=_appended(res))
    if isinstance(res, StreamAlreadyExists):
        reason = "STREAM_ALREADY_EXISTS"
    elif isinstance(res, WrongExpectedVersion):
        reason = "WRONG_EXPECTED_VERSION"
    else:
        reason = "IDEMPOTENCY_CONFLICT"
    current = getattr(res, "current", None)
    return pb.AppendStreamResult(refused=pb.AppendRefused(
        reason=reason, message=str(res), current_version=current if isinstance(current, int) else 0))


#: The event types an AppendStream refuses: they need the referee role (services/auth.py checks
#: it for Append).
_REFEREE_TYPES = frozenset({"referee_ruling", "penalty"})


def _refuse_referee_events(msgs: Any, n: int) -> None:
    """Raise EventError naming ``requests[n].events[i]``, the first referee_ruling or penalty
    of AppendStream's request ``n`` (none: return)."""
    for i, msg in enumerate(msgs):
        kind = msg.WhichOneof("payload")
        if kind in _REFEREE_TYPES:
            raise EventError(f"requests[{n}].events[{i}]: a {kind} goes through Append (it needs the "
                             "referee role), not AppendStream", f"requests[{n}].events[{i}]")


def _check_log_stream_append(store: EventStore, request: pb.AppendRequest) -> None:
    """An Append to the log's own stream ``paipu:players`` (its events are ``player_aliased``
    only: :meth:`Batch.of_encoded` checked that) must give its expected version (exact or
    no_stream, as ``paipu players alias`` does: two writers cannot interleave) and pass the
    rules ``paipu players alias`` applies (eventlog.players.check_alias_batch: no cycle …);
    raises InvalidArgument naming the field."""
    if request.WhichOneof("expected_version") not in ("exact", "no_stream"):
        raise LogStreamRefused(f"an append to the log's own stream {request.game_id!r} must give its expected "
                               "version (exact or no_stream), so that two writers cannot interleave",
                               "expected_version", request.game_id)
    if request.game_id == PLAYERS_STREAM:
        check_alias_batch(store, [m.player_aliased for m in request.events])


def _expected(request: pb.AppendRequest) -> Any:
    case = request.WhichOneof("expected_version")
    if case == "no_stream":
        return NO_STREAM
    if case == "exact":
        return request.exact
    return ANY  # "any" or unset
