"""Append, read and subscribe rates of EventLogService over loopback (events/s).

Usage: ``python benchmarks/grpc_append.py [--events N] [--batches 1,10,100,1000]
[--clients 1,4] [--streamed N] [--latency N] [--latency-clients 1,4] [--data DIR]``

For each batch size: the same events appended (a) directly to the SQLite store, (b) over
gRPC by one client, one Append per batch, waiting for each acknowledgement, and (c) by
several client threads at once, each to its own game. Then ReadGame and a Subscribe
catch-up over everything written. Each run uses a fresh SQLite store (WAL, synchronous
FULL: an acknowledged append is durable, so small batches are bounded by the disk's
fsync rate). Then ``--streamed`` events as 110-event games through one client-streamed
AppendStream call beside its floor (``store.append_batches`` directly) and its peer (a gRPC
echo of the same messages), and ``--latency`` single-event appends by 1 and by several
concurrent clients: p50/p99/max over gRPC beside the store directly and a gRPC echo.
Prints one line per measurement; numbers depend on the machine (and its load: compare
lines of one run, never runs).
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import grpc

from eventlog.convert import to_proto
from eventlog.events import NewEvent, TileDiscarded, TileDrawn
from eventlog.store import open_store
from eventlog.store.base import ANY, NO_STREAM, AppendResult, CaughtUp
from paipu.v1 import event_log_service_pb2 as pb
from paipu.v1 import event_log_service_pb2_grpc as pb_grpc
from services.client import EventLogClient
from services.event_log_service import STREAM_GROUP_BATCHES
from services.server import build_server

TILES = [f"{s}{r}" for s in "WTB" for r in range(1, 10)]


def make_events(tag: str, n: int) -> list[NewEvent]:
    """``n`` draw/discard events with deterministic ids (seeded by ``tag``)."""
    out = []
    for i in range(n):
        seat, tile = i // 2 % 4, TILES[i % len(TILES)]
        payload = TileDrawn(seat=seat, tile=tile) if i % 2 == 0 else TileDiscarded(seat=seat, tile=tile)
        out.append(NewEvent.of(payload, id_seed=f"{tag}/{i}", metadata={"bench": tag, "i": i}))
    return out


def batches(events: list[NewEvent], size: int) -> list[list[NewEvent]]:
    return [events[i : i + size] for i in range(0, len(events), size)]


def rate(n: int, seconds: float) -> str:
    return f"{n / seconds:10,.0f} events/s  ({n} events in {seconds:.2f} s)"


def cpu_seconds() -> float:
    """CPU seconds (user + system) this process has used: its every thread — the server's
    and, in :func:`streamed`, the client's."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def cpu_rate(n: int, cpu: float) -> str:
    """CPU per event: less sensitive than events/s to what else the machine runs."""
    return f"cpu {cpu / n * 1e6:5.1f} us/event"


def run(n_events: int, batch_sizes: list[int], clients: list[int], base: Path) -> None:
    for size in batch_sizes:
        n = max(size, n_events // size * size)
        events = make_events(f"b{size}", n)

        d = base / f"direct-{size}"
        with open_store(d) as store:
            t = time.perf_counter()
            for b in batches(events, size):
                store.append(f"direct-{size}", b)
            print(f"batch {size:5d}  store.append direct      {rate(n, time.perf_counter() - t)}")

        for k in clients:
            d = base / f"grpc-{size}-{k}"
            with open_store(d) as store:
                server, port = build_server(store, port=0)
                server.start()
                try:
                    per = [make_events(f"b{size}c{c}", n // k) for c in range(k)]
                    with EventLogClient(f"127.0.0.1:{port}") as client:

                        def work(c: int) -> None:
                            for b in batches(per[c], size):
                                client.append(f"g{c}", b)

                        threads = [threading.Thread(target=work, args=(c,)) for c in range(k)]
                        t = time.perf_counter()
                        for th in threads:
                            th.start()
                        for th in threads:
                            th.join()
                        total = sum(len(p) for p in per)
                        print(f"batch {size:5d}  gRPC Append, {k} client(s)  {rate(total, time.perf_counter() - t)}")

                        if k == clients[0]:
                            t = time.perf_counter()
                            got = sum(1 for _ in client.read_game("g0"))
                            print(f"batch {size:5d}  gRPC ReadGame             {rate(got, time.perf_counter() - t)}")
                            stop = threading.Event()
                            t = time.perf_counter()
                            seen = 0
                            for item in client.subscribe(1, stop=stop):
                                if isinstance(item, CaughtUp):
                                    stop.set()
                                    break
                                seen += 1
                            print(f"batch {size:5d}  gRPC Subscribe catch-up   {rate(seen, time.perf_counter() - t)}")
                finally:
                    server.stop(None)


ECHO_SERVICE = "paipu.bench.Echo"


def _echo_service(store: object, server: grpc.Server) -> str:
    """The peer: a service on the same server (same interceptors, same thread pool) that
    receives the same AppendRequest messages and only counts their events."""

    def stream(requests: Iterator[pb.AppendRequest], context: grpc.ServicerContext) -> pb.AppendStreamResponse:
        sum(len(r.events) for r in requests)
        return pb.AppendStreamResponse()

    def unary(request: pb.AppendRequest, context: grpc.ServicerContext) -> pb.AppendResponse:
        return pb.AppendResponse(first_seq=0, last_seq=len(request.events) - 1)

    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(ECHO_SERVICE, {
        "AppendStream": grpc.stream_unary_rpc_method_handler(
            stream, request_deserializer=pb.AppendRequest.FromString,
            response_serializer=pb.AppendStreamResponse.SerializeToString),
        "Append": grpc.unary_unary_rpc_method_handler(
            unary, request_deserializer=pb.AppendRequest.FromString,
            response_serializer=pb.AppendResponse.SerializeToString),
    }),))
    return ECHO_SERVICE


def _request(game_id: str, events: list[NewEvent], expected: object = ANY) -> pb.AppendRequest:
    request = pb.AppendRequest(game_id=game_id, events=[to_proto(e) for e in events])
    if expected == NO_STREAM:
        request.no_stream.SetInParent()
    return request


def streamed(n: int, base: Path, per_game: int = 110) -> None:
    """Client-streamed append (AppendStream): ``n`` events as games of ``per_game`` events
    (a Botzone hand), one call. The client's messages are built before the clock (a client
    in any language sends these bytes): what is timed is the server taking them in. Beside
    it, in the same run: the floor, the same batches (encoded and sealed beforehand, as the
    server seals a new game's batch) straight into ``store.append_batches`` in the server's
    groups (the durable commits alone), and the
    peer, the same messages streamed to an echo service on the same server that only counts
    them (gRPC alone). Last, the same games through :meth:`EventLogClient.append_stream`
    from pydantic events (the Python client's conversion, in this process, included).
    Beside the rates, the CPU time per event of this process (server and client threads:
    the machine's other load moves it less than the rates). Target: >= 50,000 events/s."""
    from eventlog.store.planning import Batch, SealedBatch

    games = [(f"s{g}", make_events(f"s{g}", per_game)) for g in range(max(1, n // per_game))]
    total = sum(len(e) for _g, e in games)
    requests = [_request(g, e, NO_STREAM) for g, e in games]
    with open_store(base / "stream-direct") as store:
        now = store.now()
        encoded = [SealedBatch.seal(Batch.encode(g, e, NO_STREAM), now) for g, e in games]
        t, c = time.perf_counter(), cpu_seconds()
        for i in range(0, len(encoded), STREAM_GROUP_BATCHES):
            store.append_batches(encoded[i : i + STREAM_GROUP_BATCHES])
        print(f"games of {per_game}  floor: store.append_batches   {rate(total, time.perf_counter() - t)}  "
              f"{cpu_rate(total, cpu_seconds() - c)}")
    with open_store(base / "stream-grpc") as store:
        server, port = build_server(store, port=0, extra_services=[_echo_service])
        server.start()
        try:
            with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
                echo = channel.stream_unary(f"/{ECHO_SERVICE}/AppendStream",
                                            request_serializer=pb.AppendRequest.SerializeToString,
                                            response_deserializer=pb.AppendStreamResponse.FromString)
                echo(iter(requests[:10]))  # warm the connection
                t, c = time.perf_counter(), cpu_seconds()
                echo(iter(requests))
                print(f"games of {per_game}  peer: gRPC echo stream      {rate(total, time.perf_counter() - t)}  "
                      f"{cpu_rate(total, cpu_seconds() - c)}")
                stub = pb_grpc.EventLogServiceStub(channel)
                t, c = time.perf_counter(), cpu_seconds()
                response = stub.AppendStream(iter(requests))
                seconds, cpu = time.perf_counter() - t, cpu_seconds() - c
                assert len(response.results) == len(games)
                assert all(r.WhichOneof("outcome") == "appended" for r in response.results)
                print(f"games of {per_game}  gRPC AppendStream, 1 call   {rate(total, seconds)}  {cpu_rate(total, cpu)}  "
                      "(target >= 50,000 events/s)")
        finally:
            server.stop(None)
    with open_store(base / "stream-client") as store:
        server, port = build_server(store, port=0)
        server.start()
        try:
            with EventLogClient(f"127.0.0.1:{port}") as client:
                fresh = [(f"c{g}", e, NO_STREAM) for g, e in games]
                t = time.perf_counter()
                assert all(isinstance(r, AppendResult) for r in client.append_stream(fresh))
                print(f"games of {per_game}  EventLogClient.append_stream {rate(total, time.perf_counter() - t)}  "
                      "(pydantic events: the Python client's conversion included, in this process)")
        finally:
            server.stop(None)


def _pct(xs: list[float]) -> str:
    xs = sorted(xs)
    return (f"p50 {xs[len(xs) // 2] * 1e3:6.2f} ms  p99 {xs[min(len(xs) - 1, int(len(xs) * 0.99))] * 1e3:6.2f} ms"
            f"  max {xs[-1] * 1e3:6.2f} ms")


def latency(n: int, base: Path, clients: list[int]) -> None:
    """Single-event appends, each client waiting for each acknowledgement (durable):
    p50/p99/max in ms. Beside them, in the same run: the store directly (one durable append
    each, no gRPC) and the peer, the same AppendRequest to an echo method on the same server
    (the gRPC round trip alone). With several clients, each appends to its own game at once
    (the store commits concurrent appends together). The clients run in a process of their
    own; beside each line, the CPU time the server's process spent per append (with several
    clients the server's threads share one interpreter: its CPU per append bounds the rate,
    and the queue behind it the latency). Target (issue 19): p99 <= 5 ms."""
    events = make_events("lat", n)
    with open_store(base / "lat-direct") as store:
        times = []
        for e in events:
            t = time.perf_counter()
            store.append("lat", [e])
            times.append(time.perf_counter() - t)
        print(f"single-event append, store directly       {_pct(times)}  ({n} appends)")
    with open_store(base / "lat-grpc") as store:
        server, port = build_server(store, port=0, extra_services=[_echo_service])
        server.start()
        try:
            # The clients run in a process of their own (as a table's client would): in this
            # one their threads would take turns with the server's for the GIL.
            with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
                for k in clients:
                    per = [[_request(f"lat{k}-{c}", [e]).SerializeToString() for e in make_events(f"lat{k}-{c}", n // k)]
                           for c in range(k)]
                    for name, method in (("peer: gRPC echo", f"/{ECHO_SERVICE}/Append"),
                                         ("gRPC Append", "/paipu.v1.EventLogService/Append")):
                        c, groups = cpu_seconds(), _groups(store)
                        times, wall = pool.submit(_timed_calls, port, method, per).result()
                        server_cpu = (cpu_seconds() - c) / len(times) * 1e6
                        target = "; target p99 <= 5 ms" if name == "gRPC Append" else ""
                        after = _groups(store)
                        if name == "gRPC Append" and after[0] > groups[0]:
                            target += f"; {(after[1] - groups[1]) / (after[0] - groups[0]):.2f} appends a commit"
                        print(f"single-event append, {k} client(s), {name:16s} {_pct(times)}  "
                              f"({len(times)} appends, {len(times) / wall:,.0f}/s, server cpu {server_cpu:,.0f} us "
                              f"each{target})")
        finally:
            server.stop(None)


def _groups(store: object) -> tuple[int, int]:
    """The store's group commits so far: (groups, batches) — 0, 0 for a store without."""
    group = getattr(store, "_group", None)
    return (getattr(group, "groups", 0), getattr(group, "batches", 0))


def _timed_calls(port: int, method: str, per_client: list[list[bytes]]) -> tuple[list[float], float]:
    """In the client process: one thread per list of serialized AppendRequests, each call
    timed until its answer; returns every call's seconds and the wall time of all."""
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.unary_unary(method, request_serializer=None, response_deserializer=None)
        call(per_client[0][0])  # warm the connection (an idempotent retry for the store)
        times: list[float] = []

        def work(requests: list[bytes]) -> None:
            mine = []
            for request in requests:
                t = time.perf_counter()
                call(request)
                mine.append(time.perf_counter() - t)
            times.extend(mine)

        threads = [threading.Thread(target=work, args=(r,)) for r in per_client]
        t0 = time.perf_counter()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        return times, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=2000, help="events per measurement")
    ap.add_argument("--batches", default="1,10,100,1000", help="batch sizes, comma separated")
    ap.add_argument("--clients", default="1,4", help="concurrent client threads, comma separated")
    ap.add_argument("--data", type=Path, default=None, help="directory for the stores (default: a temp dir)")
    ap.add_argument("--latency", type=int, default=500, help="single-event appends timed one by one (0: skip)")
    ap.add_argument("--streamed", type=int, default=22000, help="events sent by one AppendStream call (0: skip)")
    ap.add_argument("--latency-clients", default="1,4", help="concurrent single-event appenders, comma separated")
    args = ap.parse_args()
    base = args.data or Path(tempfile.mkdtemp(prefix="paipu-bench-"))
    try:
        run(args.events, [int(x) for x in args.batches.split(",")], [int(x) for x in args.clients.split(",")], base)
        if args.streamed:
            streamed(args.streamed, base)
        if args.latency:
            latency(args.latency, base, [int(x) for x in args.latency_clients.split(",")])
    finally:
        if args.data is None:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
