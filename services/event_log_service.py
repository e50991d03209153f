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

__all__ = ["SERVICE_NAME", "BATCH_EVENTS", "BATCH_BYTES", "STREAM_GROUP_BATCHES", "STREAM_GROUP_EVENTS", "EventLogServicer"]

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["EventLogService"].full_name  # paipu.v1.EventLogService
#: Most events, and about the most bytes, in one ReadGame / Subscribe message: a message
#: per event would cost more than the event (gRPC Python sends ~5k messages/s).
BATCH_EVENTS = 256
BATCH_BYTES = 1024 * 1024
#: An AppendStream commits its batches in groups of at most this many batches or events
#: (one durable transaction each: EventStore.append_batches).
STREAM_GROUP_BATCHES = 200
STREAM_GROUP_EVENTS = 20_000


class EventLogServicer(pb_grpc.EventLogServiceServicer):
    """``paipu.v1.EventLogService`` over ``store`` (any EventStore backend; shared, the
    store is thread-safe). ``poll_interval`` (s) is how often an idle Subscribe checks for
    cancellation. :meth:`close` ends every open subscription. Access control, request limits
    and error statuses are the server's interceptors (services/auth.py, services/calls.py):
    a handler raises, the interceptor answers with the status the exception names."""

    def __init__(
        self,
        store: EventStore,
        *,
        poll_interval: float = 0.05,
    ) -> None:
        self._store = store
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
        games = self._store.list_games()
        return pb.ListGamesResponse(
            games=[
                pb.GameInfo(
                    game_id=g.game_id,
                    version=g.version,
                    event_count=g.event_count,
                    first_position=g.first_position,
                    last_position=g.last_position,
                    ruleset=g.ruleset or "",
                )
                for g in games
            ]
        )

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
