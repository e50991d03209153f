"""The gRPC event-log service ``paipu.v1.EventLogService`` over an :class:`EventStore`
(proto/paipu/v1/event_log_service.proto; shared/DESIGN.md §5, §9).

* :class:`EventLogServicer` — Append / ReadGame / ListGames / Subscribe, each a thin
  translation between the contract (eventlog/convert.py) and the store; store errors
  become gRPC status codes with rich details (:data:`ERROR_DOMAIN`, see :func:`status_for`).
* :func:`build_server` — a ``grpc.Server`` with the service, IngestService
  (services/ingest_service.py), ReplayService (services/replay_service.py), health checking
  (``grpc.health.v1.Health``: SERVING) and server reflection, bound to a loopback port by
  default. Returned unstarted.
* access control (shared/DESIGN.md §9), off unless tokens are given: bearer tokens with
  the roles viewer (read), recorder (append), referee (rulings); :func:`load_tokens`.
* :func:`serve` — open the store in a data directory and serve until SIGINT/SIGTERM, then
  shut down cleanly (health NOT_SERVING, in-flight calls get a grace period,
  subscriptions end, the store is closed).

Every Append is acknowledged only after the store has made it durable (the store's
``append`` returns only then). Each open ReadGame stream holds one worker thread for
its duration, each Subscribe one worker thread (``max_workers``) plus one pump thread.
Both send events in batches (:data:`BATCH_EVENTS`, :data:`BATCH_BYTES`).
"""

from __future__ import annotations

import hmac
import queue
import re
import signal
import sys
import threading
from collections.abc import Iterator, Mapping
from concurrent import futures
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from grpc_status import rpc_status

from eventlog.convert import from_proto, to_proto
from eventlog.events import EventError, StoredEvent
from eventlog.store.base import (
    ANY,
    NO_STREAM,
    CaughtUp,
    CorruptEvent,
    EventStore,
    GameNotFound,
    IdempotencyConflict,
    StoreClosed,
    StoreError,
    StreamAlreadyExists,
    WrongExpectedVersion,
)
from paipu.v1 import event_log_service_pb2 as pb
from paipu.v1 import event_log_service_pb2_grpc as pb_grpc

__all__ = [
    "SERVICE_NAME",
    "ERROR_DOMAIN",
    "ROLES",
    "load_tokens",
    "MAX_MESSAGE_BYTES",
    "EventLogServicer",
    "Access",
    "BadArgument",
    "abort",
    "status_for",
    "build_server",
    "is_loopback",
    "serve",
]

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["EventLogService"].full_name  # paipu.v1.EventLogService
#: ``google.rpc.ErrorInfo.domain`` of every error this service reports.
ERROR_DOMAIN = "paipu.v1"
#: Largest request or response message (an Append batch of a long game fits easily).
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
#: Most events, and about the most bytes, in one ReadGame / Subscribe message: a message
#: per event would cost more than the event (gRPC Python sends ~5k messages/s).
BATCH_EVENTS = 256
BATCH_BYTES = 1024 * 1024
#: Seconds in-flight calls get to finish on shutdown.
SHUTDOWN_GRACE = 5.0

# A store ValueError names its argument first ("game_id must be ...", "events[2]: ...").
_ARG_FIELD = re.compile(r"^(game_id|expected_version|from_seq|limit|from_position|events(\[\d+\])?)\b")


# ----------------------------------------------------------------------------- errors
def _error_info(reason: str, **metadata: Any) -> error_details_pb2.ErrorInfo:
    return error_details_pb2.ErrorInfo(
        reason=reason, domain=ERROR_DOMAIN, metadata={k: str(v) for k, v in metadata.items()}
    )


def _bad_request(field: str, description: str) -> error_details_pb2.BadRequest:
    return error_details_pb2.BadRequest(
        field_violations=[error_details_pb2.BadRequest.FieldViolation(field=field, description=description)]
    )


class BadArgument(ValueError):
    """A request field the services refuse: INVALID_ARGUMENT with a ``google.rpc.BadRequest``
    naming ``field`` (e.g. ``"seq"``, ``"header.format"``)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


def status_for(exc: Exception) -> status_pb2.Status:
    """The ``google.rpc.Status`` reporting ``exc`` (a store error, EventError or ValueError).

    | exception             | code                | details                                            |
    |-----------------------|---------------------|----------------------------------------------------|
    | StreamAlreadyExists   | ALREADY_EXISTS      | ErrorInfo STREAM_ALREADY_EXISTS {game_id, expected_version, current_version} |
    | WrongExpectedVersion  | ABORTED             | ErrorInfo WRONG_EXPECTED_VERSION {same}            |
    | GameNotFound          | NOT_FOUND           | ErrorInfo GAME_NOT_FOUND {game_id}                 |
    | IdempotencyConflict   | FAILED_PRECONDITION | ErrorInfo IDEMPOTENCY_CONFLICT {game_id, event_id} |
    | CorruptEvent          | DATA_LOSS           | ErrorInfo CORRUPT_EVENT {game_id, seq, position}   |
    | StoreClosed           | UNAVAILABLE         |                                                    |
    | EventError/BadArgument/ValueError | INVALID_ARGUMENT | BadRequest, one FieldViolation (the field path) |
    | other                 | INTERNAL            |                                                    |
    """
    detail: Any = None
    if isinstance(exc, WrongExpectedVersion):
        is_exists = isinstance(exc, StreamAlreadyExists)
        code = code_pb2.ALREADY_EXISTS if is_exists else code_pb2.ABORTED
        detail = _error_info(
            "STREAM_ALREADY_EXISTS" if is_exists else "WRONG_EXPECTED_VERSION",
            game_id=exc.game_id,
            expected_version=exc.expected,
            current_version=exc.current,
        )
    elif isinstance(exc, GameNotFound):
        code, detail = code_pb2.NOT_FOUND, _error_info("GAME_NOT_FOUND", game_id=exc.game_id)
    elif isinstance(exc, IdempotencyConflict):
        code = code_pb2.FAILED_PRECONDITION
        detail = _error_info("IDEMPOTENCY_CONFLICT", game_id=exc.game_id, event_id=exc.event_id)
    elif isinstance(exc, CorruptEvent):
        code = code_pb2.DATA_LOSS
        detail = _error_info("CORRUPT_EVENT", game_id=exc.game_id, seq=exc.seq, position=exc.position)
    elif isinstance(exc, StoreClosed):
        code = code_pb2.UNAVAILABLE
    elif isinstance(exc, (EventError, BadArgument)):
        code, detail = code_pb2.INVALID_ARGUMENT, _bad_request(exc.field, str(exc))
    elif isinstance(exc, ValueError):
        m = _ARG_FIELD.match(str(exc))
        code, detail = code_pb2.INVALID_ARGUMENT, _bad_request(m.group(1) if m else "", str(exc))
    else:
        code = code_pb2.INTERNAL
    status = status_pb2.Status(code=code, message=str(exc) or type(exc).__name__)
    if detail is not None:
        packed = any_pb2.Any()
        packed.Pack(detail)
        status.details.append(packed)
    return status


def abort(context: grpc.ServicerContext, exc: Exception) -> None:
    """End the call with the status of ``exc`` (:func:`status_for`; raises, as
    context.abort does). Used by every paipu service."""
    context.abort_with_status(rpc_status.to_status(status_for(exc)))


# ----------------------------------------------------------------------------- access
#: Roles (shared/DESIGN.md §9), each allowed what the ones before it are: a viewer reads
#: (ReadGame, ListGames, Subscribe, every ReplayService call), a recorder also appends
#: (Append, IngestService.IngestLog), a referee also appends ``referee_ruling`` events.
ROLES: tuple[str, ...] = ("viewer", "recorder", "referee")


def load_tokens(path: str | Path) -> dict[str, str]:
    """Read a token file: one ``ROLE TOKEN`` per line (ROLE in :data:`ROLES`), ``#``
    comments and blank lines ignored. Returns ``{token: role}``. Raises ValueError naming
    the file and line of a bad entry."""
    tokens: dict[str, str] = {}
    for lineno, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2 or parts[0] not in ROLES:
            raise ValueError(f"{path}:{lineno}: expected 'ROLE TOKEN' with ROLE one of {', '.join(ROLES)}")
        role, token = parts
        if token in tokens:
            raise ValueError(f"{path}:{lineno}: token given twice")
        tokens[token] = role
    return tokens


class Access:
    """Bearer-token check (``authorization: Bearer TOKEN`` call metadata); ``tokens`` None =
    open (the loopback default)."""

    def __init__(self, tokens: Mapping[str, str] | None) -> None:
        if tokens is not None:
            bad = sorted(r for r in tokens.values() if r not in ROLES)
            if bad:
                raise ValueError(f"unknown role(s) {bad}; roles are {', '.join(ROLES)}")
        self._tokens = (
            None if tokens is None else sorted((t.encode(), r) for t, r in tokens.items())
        )

    def require(self, context: grpc.ServicerContext, role: str, action: str) -> None:
        """Abort with UNAUTHENTICATED (no or unknown token) or PERMISSION_DENIED (a role
        below ``role``) unless the call may do ``action``."""
        if self._tokens is None:
            return
        auth = dict(context.invocation_metadata()).get("authorization", "")
        if not auth.startswith("Bearer "):
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "this server needs a token (authorization: Bearer TOKEN)")
        given = auth[len("Bearer ") :].encode()
        found = None
        for token, r in self._tokens:  # compare with every token, in constant time each
            if hmac.compare_digest(token, given):
                found = r
        if found is None:
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "unknown token")
        if ROLES.index(found) < ROLES.index(role):
            context.abort(grpc.StatusCode.PERMISSION_DENIED, f"a {found} may not {action} (needs {role})")


# ----------------------------------------------------------------------------- service
class EventLogServicer(pb_grpc.EventLogServiceServicer):
    """``paipu.v1.EventLogService`` over ``store`` (any EventStore backend; shared, the
    store is thread-safe). ``poll_interval`` (s) is how often an idle Subscribe checks for
    cancellation. ``tokens`` (``{token: role}``, see :data:`ROLES`) turns on access
    control; None leaves the service open. :meth:`close` ends every open subscription."""

    def __init__(
        self,
        store: EventStore,
        *,
        poll_interval: float = 0.05,
        tokens: Mapping[str, str] | None = None,
    ) -> None:
        self._store = store
        self._access = Access(tokens)
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
        if any(m.WhichOneof("payload") == "referee_ruling" for m in request.events):
            self._access.require(context, "referee", "append a referee_ruling")
        else:
            self._access.require(context, "recorder", "append")
        try:
            if not request.events:
                raise EventError("an append needs at least one event", "events")
            events = []
            for i, msg in enumerate(request.events):
                try:
                    events.append(from_proto(msg))
                except EventError as e:
                    path = f"events[{i}].{e.field}" if e.field else f"events[{i}]"
                    raise EventError(f"events[{i}]: {e}", path) from None
            res = self._store.append(request.game_id, events, _expected(request))
        except (StoreError, ValueError) as e:
            abort(context, e)
        return pb.AppendResponse(
            first_seq=res.first_seq,
            last_seq=res.last_seq,
            first_position=res.first_position,
            last_position=res.last_position,
            version=res.version,
            duplicate=res.duplicate,
        )

    # ---- ReadGame ---------------------------------------------------------------
    def ReadGame(
        self, request: pb.ReadGameRequest, context: grpc.ServicerContext
    ) -> Iterator[pb.ReadGameResponse]:
        self._access.require(context, "viewer", "read")
        if request.HasField("from_seq"):
            from_seq = request.from_seq
        else:
            from_seq = -1 if request.backward else 0
        try:
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
        except (StoreError, ValueError) as e:
            abort(context, e)

    # ---- ListGames --------------------------------------------------------------
    def ListGames(self, request: pb.ListGamesRequest, context: grpc.ServicerContext) -> pb.ListGamesResponse:
        self._access.require(context, "viewer", "read")
        try:
            games = self._store.list_games()
        except StoreError as e:
            abort(context, e)
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
        self._access.require(context, "viewer", "read")
        stop = threading.Event()
        with self._lock:
            if self._closed:
                abort(context, StoreClosed("the server is shutting down"))
            self._subscriptions.add(stop)
        context.add_callback(stop.set)  # runs when the client cancels or the call ends
        try:
            items = self._store.subscribe(
                max(request.from_position, 1), stop=stop, poll_interval=self._poll_interval
            )
        except (StoreError, ValueError) as e:
            with self._lock:
                self._subscriptions.discard(stop)
            abort(context, e)
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
        except (StoreError, ValueError) as e:
            abort(context, e)
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
    """The RecordedEvent of a stored event; a stored value the contract cannot carry (an
    integer beyond its 64 bits, appended locally) is a server-side failure (INTERNAL)."""
    try:
        return to_proto(ev)
    except EventError as e:
        raise StoreError(f"game {ev.game_id!r} seq {ev.seq} cannot be sent over gRPC: {e}") from None


def _expected(request: pb.AppendRequest) -> Any:
    case = request.WhichOneof("expected_version")
    if case == "no_stream":
        return NO_STREAM
    if case == "exact":
        return request.exact
    return ANY  # "any" or unset


# ----------------------------------------------------------------------------- server
def _address(host: str, port: int) -> str:
    if ":" in host and not host.startswith("["):  # an IPv6 literal
        host = f"[{host}]"
    return f"{host}:{port}"


def is_loopback(host: str) -> bool:
    """True when ``host`` names only the loopback interface: ``localhost`` or a loopback
    IPv4/IPv6 literal (brackets allowed). Any other name or address (``0.0.0.0``, ``::``, a
    hostname) counts as reachable from outside (shared/DESIGN.md §9)."""
    import ipaddress

    h = host.strip().strip("[]")
    if h.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False


class _Server(grpc.Server):
    """The ``grpc.Server`` build_server returns: delegates to grpc's, except that ``stop``
    first flips health to NOT_SERVING and ends open subscriptions, so a stop with a grace
    period does not wait on streams that never end by themselves."""

    def __init__(self, server: grpc.Server, servicer: EventLogServicer, health_servicer: Any) -> None:
        self._server = server
        self.servicer = servicer
        self.health = health_servicer

    def stop(self, grace: float | None) -> threading.Event:
        self.health.enter_graceful_shutdown()
        self.servicer.close()
        return self._server.stop(grace)

    def start(self) -> None:
        self._server.start()

    def add_generic_rpc_handlers(self, generic_rpc_handlers: Any) -> None:
        self._server.add_generic_rpc_handlers(generic_rpc_handlers)

    def add_insecure_port(self, address: str) -> int:
        return self._server.add_insecure_port(address)

    def add_secure_port(self, address: str, server_credentials: Any) -> int:
        return self._server.add_secure_port(address, server_credentials)

    def wait_for_termination(self, timeout: float | None = None) -> bool:
        return self._server.wait_for_termination(timeout)

    def __getattr__(self, name: str) -> Any:  # e.g. add_registered_method_handlers
        return getattr(self._server, name)


def build_server(
    store: EventStore,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    max_workers: int = 32,
    poll_interval: float = 0.05,
    tokens: Mapping[str, str] | None = None,
) -> tuple[grpc.Server, int]:
    """A gRPC server over ``store`` with EventLogService, IngestService
    (services/ingest_service.py) and ReplayService (services/replay_service.py), health
    (SERVING for ``""`` and each of the three services) and reflection, bound to
    ``host:port`` (insecure; loopback by default; port 0 picks a free port).

    ``tokens`` (``{token: role}``, :func:`load_tokens`) requires a bearer token on every
    call of the three services (health and reflection stay open): ReplayService and the
    reads need a viewer, IngestLog and Append a recorder; None (default) leaves them open,
    which is why the default host is loopback.

    Returns ``(server, bound_port)``; the server is NOT started: call ``server.start()``,
    and ``server.stop(grace)`` when done (it also ends open subscriptions). The store stays
    the caller's to close. Raises OSError when the address cannot be bound."""
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="paipu-grpc"),
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
            ("grpc.so_reuseport", 0),  # a busy port must fail, not be shared
        ],
    )
    from services.ingest_service import SERVICE_NAME as INGEST_SERVICE_NAME, IngestServicer
    from services.replay_service import SERVICE_NAME as REPLAY_SERVICE_NAME, ReplayServicer
    from paipu.v1 import ingest_service_pb2_grpc, replay_service_pb2_grpc

    servicer = EventLogServicer(store, poll_interval=poll_interval, tokens=tokens)
    pb_grpc.add_EventLogServiceServicer_to_server(servicer, server)
    access = Access(tokens)
    ingest_service_pb2_grpc.add_IngestServiceServicer_to_server(IngestServicer(store, access=access), server)
    replay_service_pb2_grpc.add_ReplayServiceServicer_to_server(ReplayServicer(store, access=access), server)
    services = (SERVICE_NAME, INGEST_SERVICE_NAME, REPLAY_SERVICE_NAME)
    health_servicer = health.HealthServicer(experimental_non_blocking=True)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in ("", *services):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection(
        (*services, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME),
        server,
    )
    address = _address(host, port)
    try:
        bound = server.add_insecure_port(address)
    except RuntimeError as e:  # grpcio raises when it cannot bind
        raise OSError(f"cannot listen on {address}: {e}") from None
    if bound == 0:
        raise OSError(f"cannot listen on {address}")
    return _Server(server, servicer, health_servicer), bound


def serve(
    data_dir: str | Path,
    host: str = "127.0.0.1",
    port: int = 50051,
    *,
    max_workers: int = 32,
    ready: threading.Event | None = None,
    stop: threading.Event | None = None,
    tokens: Mapping[str, str] | None = None,
    insecure: bool = False,
) -> None:
    """Serve the event store in ``data_dir`` (see :func:`eventlog.store.open_store`) on
    ``host:port`` until SIGINT or SIGTERM (or ``KeyboardInterrupt``), then shut down
    cleanly: health NOT_SERVING, subscriptions end, in-flight calls get
    :data:`SHUTDOWN_GRACE` seconds, the store is closed. Prints one line to stderr when
    listening (``paipu serve: listening on HOST:PORT ...``) and one when stopped. ``ready``
    is set once listening; setting ``stop`` (for embedding) stops it like a signal. Signal handlers are installed only when called from the main
    thread. ``tokens`` as in :func:`build_server`. Raises OSError when the address cannot
    be bound. A ``host`` that is not loopback (:func:`is_loopback`) without ``tokens`` would
    let anyone on the network write: ValueError unless ``insecure``, which prints a warning
    instead (shared/DESIGN.md §9: loopback unless told otherwise, writes need a token)."""
    from eventlog.store import open_store
    from eventlog.store.postgres import redact_url

    if tokens is None and not is_loopback(host):
        if not insecure:
            raise ValueError(
                f"refusing to listen on {host} without tokens: anyone who can reach it could write "
                "(give --tokens FILE, listen on 127.0.0.1, or pass --insecure)"
            )
        print(
            f"paipu serve: WARNING: listening on {host} with NO TOKENS (--insecure): anyone who "
            "can reach this port can append, ingest and read every game",
            file=sys.stderr,
            flush=True,
        )
    store = open_store(data_dir)
    try:
        server, bound = build_server(store, host, port, max_workers=max_workers, tokens=tokens)
        server.start()
        print(
            f"paipu serve: listening on {_address(host, bound)} (data: {redact_url(str(data_dir))}; "
            f"{SERVICE_NAME}, IngestService, ReplayService, health, reflection; "
            f"{'token required' if tokens is not None else 'no token required'})",
            file=sys.stderr,
            flush=True,
        )
        done = stop if stop is not None else threading.Event()
        previous: dict[int, Any] = {}
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                previous[sig] = signal.signal(sig, lambda *_: done.set())
        if ready is not None:
            ready.set()
        try:
            while not done.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
        finally:
            server.stop(SHUTDOWN_GRACE).wait()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        print("paipu serve: stopped", file=sys.stderr, flush=True)
    finally:
        store.close()
