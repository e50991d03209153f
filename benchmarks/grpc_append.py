"""Append, read and subscribe rates of EventLogService over loopback (events/s).

Usage: ``python benchmarks/grpc_append.py [--events N] [--batches 1,10,100,1000]
[--clients 1,4] [--latency N] [--data DIR]``

For each batch size: the same events appended (a) directly to the SQLite store, (b) over
gRPC by one client, one Append per batch, waiting for each acknowledgement, and (c) by
several client threads at once, each to its own game. Then ReadGame and a Subscribe
catch-up over everything written. Each run uses a fresh SQLite store (WAL, synchronous
FULL: an acknowledged append is durable, so small batches are bounded by the disk's
fsync rate). Then ``--streamed`` events as 110-event games through one client-streamed
AppendStream call beside ``store.append_batches`` directly, and ``--latency`` single-event
appends one at a time: p50/p99/max directly and over gRPC. Prints one line per measurement; numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import threading
import time
from pathlib import Path

from services.client import EventLogClient
from eventlog.events import NewEvent, TileDiscarded, TileDrawn
from services.server import build_server
from eventlog.store import open_store
from eventlog.store.base import NO_STREAM, CaughtUp

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


def streamed(n: int, base: Path, per_game: int = 110) -> None:
    """Client-streamed append (AppendStream): ``n`` events as games of ``per_game`` events
    (a Botzone hand), one call, beside the same batches through ``store.append_batches``
    directly (the floor: the same grouped durable commits, no gRPC). Target: >= 50,000
    events/s."""
    games = [(f"s{g}", make_events(f"s{g}", per_game), NO_STREAM) for g in range(max(1, n // per_game))]
    total = sum(len(e) for _g, e, _x in games)
    with open_store(base / "stream-direct") as store:
        from eventlog.store.planning import Batch

        t = time.perf_counter()
        encoded = [Batch.encode(g, e, x) for g, e, x in games]
        for i in range(0, len(encoded), 200):
            store.append_batches(encoded[i : i + 200])
        print(f"games of {per_game}  store.append_batches direct {rate(total, time.perf_counter() - t)}")
    with open_store(base / "stream-grpc") as store:
        server, port = build_server(store, port=0)
        server.start()
        try:
            with EventLogClient(f"127.0.0.1:{port}") as client:
                t = time.perf_counter()
                results = client.append_stream(games)
                seconds = time.perf_counter() - t
                assert len(results) == len(games)
                print(f"games of {per_game}  gRPC AppendStream, 1 call   {rate(total, seconds)}  (target >= 50,000 events/s)")
        finally:
            server.stop(None)


def latency(n: int, base: Path) -> None:
    """Single-event appends, one client, each waiting for its acknowledgement (durable):
    p50/p99/max in ms beside the same appends made directly to the store (the floor: one
    durable SQLite commit and checkpoint sync each). Target (issue 19): p99 <= 5 ms."""
    events = make_events("lat", n)

    def pct(xs: list[float]) -> str:
        xs = sorted(xs)
        return (f"p50 {xs[len(xs) // 2] * 1e3:6.2f} ms  p99 {xs[min(len(xs) - 1, int(len(xs) * 0.99))] * 1e3:6.2f} ms"
                f"  max {xs[-1] * 1e3:6.2f} ms")

    with open_store(base / "lat-direct") as store:
        times = []
        for e in events:
            t = time.perf_counter()
            store.append("lat", [e])
            times.append(time.perf_counter() - t)
        print(f"single-event append, store directly       {pct(times)}  ({n} appends)")
    with open_store(base / "lat-grpc") as store:
        server, port = build_server(store, port=0)
        server.start()
        try:
            with EventLogClient(f"127.0.0.1:{port}") as client:
                client.append("warm", make_events("warm", 1))
                times = []
                for e in events:
                    t = time.perf_counter()
                    client.append("lat", [e])
                    times.append(time.perf_counter() - t)
                print(f"single-event append, gRPC over loopback  {pct(times)}  ({n} appends; target p99 <= 5 ms)")
        finally:
            server.stop(None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=2000, help="events per measurement")
    ap.add_argument("--batches", default="1,10,100,1000", help="batch sizes, comma separated")
    ap.add_argument("--clients", default="1,4", help="concurrent client threads, comma separated")
    ap.add_argument("--data", type=Path, default=None, help="directory for the stores (default: a temp dir)")
    ap.add_argument("--latency", type=int, default=500, help="single-event appends timed one by one (0: skip)")
    ap.add_argument("--streamed", type=int, default=22000, help="events sent by one AppendStream call (0: skip)")
    args = ap.parse_args()
    base = args.data or Path(tempfile.mkdtemp(prefix="paipu-bench-"))
    try:
        run(args.events, [int(x) for x in args.batches.split(",")], [int(x) for x in args.clients.split(",")], base)
        if args.streamed:
            streamed(args.streamed, base)
        if args.latency:
            latency(args.latency, base)
    finally:
        if args.data is None:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
