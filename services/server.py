"""The composition root of the gRPC server: :func:`build_server` puts the services, the
interceptors, health checking and reflection together; :func:`serve` runs them on a data
directory (docs/reference/DESIGN.md §5, §9).

The parts, one module each:

==========================  ==============================================================
services/event_log_service  ``paipu.v1.EventLogService``: Append, ReadGame, ListGames, Subscribe
services/ingest_service     ``paipu.v1.IngestService``: upload a log file
services/replay_service     ``paipu.v1.ReplayService``: state at an event, step through, verify
services/status             exceptions → gRPC status codes and rich details
services/auth               tokens, roles and the method → role table (an interceptor)
services/calls              request ids, request limits, error statuses, logging (an interceptor)
services/limits             bounds on request values
services/client             the client, with the store's API
==========================  ==============================================================

:func:`build_server` returns the server unstarted, bound to a loopback port by default.
:func:`serve` opens the store in a data directory and serves until SIGINT/SIGTERM, then shuts
down cleanly (health NOT_SERVING, in-flight calls get a grace period, subscriptions end, the
store is closed).
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent import futures
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from eventlog.store.base import EventStore
from paipu.v1 import event_log_service_pb2_grpc, ingest_service_pb2_grpc, replay_service_pb2_grpc
from services.auth import ROLES, AuthInterceptor, load_tokens
from services.calls import CallInterceptor
from services.event_log_service import LIST_REPLY_BYTES, SERVICE_NAME, EventLogServicer
from services.ingest_service import SERVICE_NAME as INGEST_SERVICE_NAME
from services.ingest_service import IngestServicer
from services.replay_service import SERVICE_NAME as REPLAY_SERVICE_NAME
from services.replay_service import ReplayServicer
from services.status import ERROR_DOMAIN, status_for
from services.verify_reply import REPLY_BYTES as VERIFY_REPLY_BYTES

__all__ = [
    "SERVICE_NAME",
    "ERROR_DOMAIN",
    "ROLES",
    "load_tokens",
    "MAX_MESSAGE_BYTES",
    "SHUTDOWN_GRACE",
    "EventLogServicer",
    "status_for",
    "build_server",
    "is_loopback",
    "serve",
]

#: A service composed in by the caller: ``(store, server) -> full service name`` (it adds
#: its servicer to the server).
ExtraService = Callable[[EventStore, grpc.Server], str]

#: Largest request or response message (an Append batch of a long game fits easily).
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
#: Seconds in-flight calls get to finish on shutdown.
SHUTDOWN_GRACE = 5.0


def _address(host: str, port: int) -> str:
    if ":" in host and not host.startswith("["):  # an IPv6 literal
        host = f"[{host}]"
    return f"{host}:{port}"


def is_loopback(host: str) -> bool:
    """True when ``host`` names only the loopback interface: ``localhost`` or a loopback
    IPv4/IPv6 literal (brackets allowed). Any other name or address (``0.0.0.0``, ``::``, a
    hostname) counts as reachable from outside (docs/reference/DESIGN.md §9)."""
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

    def __init__(self, server: grpc.Server, servicer: EventLogServicer, health_servicer: Any,
                 services: tuple[str, ...] = ()) -> None:
        self._server = server
        self.servicer = servicer
        self.health = health_servicer
        #: The full names of every service served (health and reflection included), as
        #: registered — what the "listening" line lists.
        self.services = services

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
    access_log: bool = False,
    extra_services: Sequence[ExtraService] = (),
    verify_reply_bytes: int = VERIFY_REPLY_BYTES,
    list_reply_bytes: int = LIST_REPLY_BYTES,
    verify_workers: int = 1,
) -> tuple[grpc.Server, int]:
    """A gRPC server over ``store`` with EventLogService, IngestService
    (services/ingest_service.py) and ReplayService (services/replay_service.py), health
    (SERVING for ``""`` and each of the three services) and reflection, bound to
    ``host:port`` (insecure; loopback by default; port 0 picks a free port).

    ``tokens`` (``{token: role}``, :func:`load_tokens`) requires a bearer token on every
    call of the three services (health and reflection stay open): ReplayService and the
    reads need a viewer, IngestLog and Append a recorder; None (default) leaves them open,
    which is why the default host is loopback. ``access_log``: one JSON line per call on the
    ``paipu.access`` logger (services/calls.py); unexpected exceptions are always logged on
    ``paipu.serve`` with a request id.

    ``extra_services``: services of a higher layer composed in by the caller (``paipu serve``
    adds the TournamentService of analytics/tournament_service.py): each is called with the
    store and the grpc server, adds its servicer and returns its full service name (health
    and reflection list it; :data:`services.auth.METHOD_ROLES` must give its methods a role).

    ``verify_reply_bytes``: the largest ReplayService Verify reply / VerifyStream message
    (default 4 MiB less 64 KiB, so that any gRPC client reads it: services/verify_reply.py).
    ``list_reply_bytes``: the largest EventLogService ListGames reply (default 4 MiB less
    64 KiB, so that any gRPC client reads it; a page ends before it, next_page_token set).

    ``verify_workers``: worker processes each ReplayService VerifyLog call checks games in
    (default 1: in the call's own thread, leaving the other cores to the other calls).

    Returns ``(server, bound_port)``; the server is NOT started: call ``server.start()``,
    and ``server.stop(grace)`` when done (it also ends open subscriptions). The store stays
    the caller's to close. Raises OSError when the address cannot be bound."""
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="paipu-grpc"),
        # outermost first: request ids, limits and error statuses around the token check
        interceptors=[CallInterceptor(access_log=access_log), AuthInterceptor(tokens)],
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
            ("grpc.so_reuseport", 0),  # a busy port must fail, not be shared
        ],
    )
    servicer = EventLogServicer(store, poll_interval=poll_interval, list_reply_bytes=list_reply_bytes)
    event_log_service_pb2_grpc.add_EventLogServiceServicer_to_server(servicer, server)
    ingest_service_pb2_grpc.add_IngestServiceServicer_to_server(IngestServicer(store), server)
    replay_service_pb2_grpc.add_ReplayServiceServicer_to_server(
        ReplayServicer(store, verify_reply_bytes, verify_workers=verify_workers), server)
    services = (SERVICE_NAME, INGEST_SERVICE_NAME, REPLAY_SERVICE_NAME,
                *(add(store, server) for add in extra_services))
    health_servicer = health.HealthServicer(experimental_non_blocking=True)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in ("", *services):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    served = (*services, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME)
    reflection.enable_server_reflection(served, server)
    address = _address(host, port)
    try:
        bound = server.add_insecure_port(address)
    except RuntimeError as e:  # grpcio raises when it cannot bind
        raise OSError(f"cannot listen on {address}: {e}") from None
    if bound == 0:
        raise OSError(f"cannot listen on {address}")
    return _Server(server, servicer, health_servicer, served), bound


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
    access_log: bool = False,
    create: bool = False,
    extra_services: Sequence[ExtraService] = (),
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
    instead (docs/reference/DESIGN.md §9: loopback unless told otherwise, writes need a token).
    Unexpected exceptions are logged to stderr with their traceback and request id;
    ``access_log`` adds one JSON line per call (:mod:`services.calls`).
    ``create``: make an empty store when ``data_dir`` has none (else :class:`StoreNotFound`).
    ``extra_services``: as :func:`build_server`."""
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
    _log_to_stderr(access_log)
    store = open_store(data_dir, create=create)  # never an empty store by accident (a --data typo)
    try:
        server, bound = build_server(
            store, host, port, max_workers=max_workers, tokens=tokens, access_log=access_log,
            extra_services=extra_services,
        )
        # Signal handlers before the "listening" line: a client may send SIGTERM as soon as it reads it.
        done = stop if stop is not None else threading.Event()
        previous: dict[signal.Signals, Any] = {}
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                previous[sig] = signal.signal(sig, lambda *_: done.set())
        try:
            server.start()
            print(
                f"paipu serve: listening on {_address(host, bound)} (data: {redact_url(str(data_dir))}; "
                f"{', '.join(getattr(server, 'services', ()))}; "
                f"{'token required' if tokens is not None else 'no token required'})",
                file=sys.stderr,
                flush=True,
            )
            if ready is not None:
                ready.set()
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


def _log_to_stderr(access: bool) -> None:
    """Send the ``paipu.serve`` (errors) and, when ``access``, ``paipu.access`` loggers to
    stderr, once per process."""
    for name, on in (("paipu.serve", True), ("paipu.access", access)):
        logger = logging.getLogger(name)
        if not on or any(getattr(h, "_paipu", False) for h in logger.handlers):
            continue
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
        handler._paipu = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
