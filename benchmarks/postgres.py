"""The event store on PostgreSQL beside SQLite, measured in the same run (issue 20, docs/deploy.md).

    python benchmarks/postgres.py [--events N] [--batch B] [--singles S] [--writers W]

Starts a throwaway PostgreSQL 15 (tests/pg_server.py: Debian's binaries, a temporary
directory, fsync on, ``synchronous_commit=on``) and, on the same machine and disk, a SQLite
store, then prints for each:

* batch append: N events (default 20 000) in batches of B (default 100), one writer;
* single-event append: S appends of one event (default 500), p50 / p99 latency;
* concurrent append: W writer processes (default 2) appending N/W events each in batches
  of B to one log — what several ``paipu serve`` on one database do;
* catch-up read: ``read_all`` of the whole log (what a new subscriber does first).

Everything is removed afterwards. Nothing here is a test: the numbers go to docs/deploy.md.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "tests"))  # pg_server (the throwaway PostgreSQL of the tests)

import pg_server

from eventlog.events import NewEvent, TileDiscarded
from eventlog.store import open_store

TILES = ("W1", "W2", "T3", "B4", "F1", "J2")
GAMES = 10


def _batches(n: int, batch: int, tag: str) -> list[tuple[str, list[NewEvent]]]:
    out = []
    for b in range(0, n, batch):
        events = [
            NewEvent.of(TileDiscarded(seat=i % 4, tile=TILES[i % len(TILES)]), metadata={"w": tag, "i": i})
            for i in range(b, min(n, b + batch))
        ]
        out.append((f"{tag}-g{(b // batch) % GAMES}", events))
    return out


def _append_all(location: str, batches) -> None:
    store = open_store(location)
    try:
        for game, events in batches:
            store.append(game, events)
    finally:
        store.close()


def _writer(location: str, n: int, batch: int, tag: str, barrier) -> None:
    batches = _batches(n, batch, tag)
    barrier.wait(timeout=120)
    _append_all(location, batches)


def measure(name: str, location: str, args) -> dict[str, float]:
    result: dict[str, float] = {}
    batches = _batches(args.events, args.batch, "one")
    t = time.perf_counter()
    _append_all(location, batches)
    result["batch append ev/s"] = args.events / (time.perf_counter() - t)

    store = open_store(location)
    try:
        latencies = []
        for i in range(args.singles):
            ev = [NewEvent.of(TileDiscarded(seat=i % 4, tile="B5"), metadata={"single": i})]
            t = time.perf_counter()
            store.append("singles", ev)
            latencies.append((time.perf_counter() - t) * 1000)
        latencies.sort()
        result["single append p50 ms"] = statistics.median(latencies)
        result["single append p99 ms"] = latencies[int(0.99 * (len(latencies) - 1))]
    finally:
        store.close()

    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(args.writers + 1)
    per = args.events // args.writers
    procs = [ctx.Process(target=_writer, args=(location, per, args.batch, f"w{w}", barrier)) for w in range(args.writers)]
    for p in procs:
        p.start()
    barrier.wait(timeout=120)
    t = time.perf_counter()
    for p in procs:
        p.join()
        assert p.exitcode == 0
    result[f"{args.writers} writers ev/s"] = per * args.writers / (time.perf_counter() - t)

    store = open_store(location)
    try:
        t = time.perf_counter()
        n = sum(1 for _ in store.read_all())
        result["catch-up read ev/s"] = n / (time.perf_counter() - t)
    finally:
        store.close()
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=20_000)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--singles", type=int, default=500)
    ap.add_argument("--writers", type=int, default=2)
    args = ap.parse_args()
    server = pg_server.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            rows = {
                "sqlite": measure("sqlite", str(Path(tmp) / "events.sqlite"), args),
                "postgresql": measure("postgresql", server.new_database("bench"), args),
            }
    finally:
        server.stop()
    keys = list(rows["sqlite"])
    print(f"{'':24} {'SQLite':>12} {'PostgreSQL':>12} {'PG/SQLite':>10}")
    for k in keys:
        a, b = rows["sqlite"][k], rows["postgresql"][k]
        print(f"{k:24} {a:12,.1f} {b:12,.1f} {b / a:10.2f}")


if __name__ == "__main__":
    main()
