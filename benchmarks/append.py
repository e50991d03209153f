"""Append throughput: the event store against raw ``sqlite3.executemany``.

    python benchmarks/append.py [--events N] [--batch B]

Appends N events (default 100 000) in batches of B (default 100) through
:class:`eventlog.store.SqliteStore` — one durable transaction per batch — and, in the
same run, inserts the equivalent rows with plain ``sqlite3.executemany`` into a
comparable table under the same pragmas (WAL, ``synchronous=FULL``, one
``BEGIN IMMEDIATE`` … ``COMMIT`` per batch). The raw rows are encoded before the clock
starts, so the ratio is the whole cost of the store (pydantic → canonical JSON,
SHA-256 chain, idempotency and version checks, stream head) over bare SQLite. The
in-memory backend is timed as well: the same per-event work without SQLite; and the
store with its writer checkpoint file switched off, to show what the checkpoint (a write
and a ``fdatasync`` per commit, issue 12; the sync off the acknowledgement path since issue
19) costs per append in the same run.

Each benchmark is a function ``(batches, directory) -> Rate`` registered in
:data:`BENCHMARKS`; another transport (e.g. a streamed gRPC append) adds itself there
with the same signature and is printed with the others. Everything lives in a
temporary directory that is removed afterwards.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from eventlog.events import NewEvent, TileDiscarded, canonical_bytes
from eventlog.store import MemoryStore, SqliteStore
from eventlog.store.checkpoint import AnchorSync

TILES = ("W1", "W2", "T3", "B4", "F1", "J2")
GAMES = 10  # batches go round-robin to this many games


@dataclass(frozen=True)
class Rate:
    name: str
    events: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.events / self.seconds


Batches = list[tuple[str, list[NewEvent]]]


def make_batches(n: int, batch_size: int) -> Batches:
    """``n`` tile_discarded events with deterministic ids, in batches of ``batch_size``,
    each batch for one of :data:`GAMES` games (round-robin)."""
    events = [
        NewEvent.of(
            TileDiscarded(seat=i % 4, tile=TILES[i % len(TILES)]),
            id_seed=f"bench-{i}",
            metadata={"source": "bench", "line": i},
        )
        for i in range(n)
    ]
    return [
        (f"game-{(k // batch_size) % GAMES}", events[k : k + batch_size])
        for k in range(0, n, batch_size)
    ]


#: Appending threads (``--threads``): each takes every THREADS-th batch.
THREADS = {"n": 1}


def _timed_appends(store, batches: Batches) -> float:
    n = THREADS["n"]
    t = time.perf_counter()
    if n <= 1:
        for game, batch in batches:
            store.append(game, batch)
    else:
        import threading

        def work(k: int) -> None:
            for game, batch in batches[k::n]:
                store.append(game, batch)

        threads = [threading.Thread(target=work, args=(k,)) for k in range(n)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    return time.perf_counter() - t


def bench_store_append(batches: Batches, directory: Path) -> Rate:
    store = SqliteStore(directory / "store.sqlite")
    try:
        seconds = _timed_appends(store, batches)
    finally:
        store.close()
    return Rate("SqliteStore.append", sum(len(b) for _, b in batches), seconds)


class _NoCheckpointFile:
    """Stands in for the writer checkpoint file: no lock, nothing read or written."""

    def locked(self):
        import contextlib

        return contextlib.nullcontext()

    def read(self):
        return None

    def write(self, checkpoint) -> None:
        pass

    def put(self, checkpoint) -> None:
        pass

    def sync(self) -> None:
        pass

    def close(self) -> None:
        pass


def bench_store_append_without_checkpoint(batches: Batches, directory: Path) -> Rate:
    """The same store with its checkpoint file switched off (the pre-issue-12 cost: no
    flock, no checkpoint read, no extra fdatasync per append)."""
    store = SqliteStore(directory / "store.sqlite")
    store._anchor.close()
    store._ckpt.close()
    store._ckpt = _NoCheckpointFile()  # type: ignore[assignment]
    store._anchor = AnchorSync(store._ckpt)  # type: ignore[arg-type]
    try:
        seconds = _timed_appends(store, batches)
    finally:
        store.close()
    return Rate("SqliteStore.append, no checkpoint file", sum(len(b) for _, b in batches), seconds)


def bench_memory_append(batches: Batches, directory: Path) -> Rate:
    store = MemoryStore()
    t = time.perf_counter()
    for game, batch in batches:
        store.append(game, batch)
    seconds = time.perf_counter() - t
    store.close()
    return Rate("MemoryStore.append (no SQLite)", sum(len(b) for _, b in batches), seconds)


_RAW_TABLE = """
CREATE TABLE events (
    position INTEGER PRIMARY KEY, game_id TEXT NOT NULL, seq INTEGER NOT NULL,
    event_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, schema_version INTEGER NOT NULL,
    payload TEXT NOT NULL, metadata TEXT NOT NULL, recorded_at TEXT NOT NULL,
    prev_hash TEXT NOT NULL, hash TEXT NOT NULL, UNIQUE (game_id, seq))
"""


def bench_raw_executemany(batches: Batches, directory: Path) -> Rate:
    """The floor: pre-encoded rows, one executemany + durable commit per batch."""
    seqs: dict[str, int] = {}
    encoded = []
    position = 0
    for game, batch in batches:
        rows = []
        for e in batch:
            position += 1
            seq = seqs[game] = seqs.get(game, -1) + 1
            rows.append(
                (
                    position, game, seq, e.event_id, e.type, e.schema_version,
                    canonical_bytes(e.payload_json()).decode(), canonical_bytes(e.metadata).decode(),
                    "2026-01-01T00:00:00.000000Z", "0" * 64, "f" * 64,
                )
            )
        encoded.append(rows)
    conn = sqlite3.connect(directory / "raw.sqlite", isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute(_RAW_TABLE)
    sql = f"INSERT INTO events VALUES ({', '.join('?' * 11)})"
    try:
        t = time.perf_counter()
        for rows in encoded:
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany(sql, rows)
            conn.execute("COMMIT")
        seconds = time.perf_counter() - t
    finally:
        conn.close()
    return Rate("raw sqlite3.executemany", position, seconds)


#: name -> benchmark. The first is the reference for the printed ratios.
BENCHMARKS: dict[str, Callable[[Batches, Path], Rate]] = {
    "raw": bench_raw_executemany,
    "store": bench_store_append,
    "store-no-checkpoint": bench_store_append_without_checkpoint,
    "memory": bench_memory_append,
}


def run(n: int, batch_size: int, names: list[str] | None = None) -> list[Rate]:
    """Run the named benchmarks (default: all) on the same batches; return their rates."""
    batches = make_batches(n, batch_size)
    rates = []
    with tempfile.TemporaryDirectory(prefix="paipu-bench-") as tmp:
        for name in names or list(BENCHMARKS):
            directory = Path(tmp) / name
            directory.mkdir()
            rates.append(BENCHMARKS[name](batches, directory))
    return rates


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000, help="events to append (default 100000)")
    parser.add_argument("--batch", type=int, default=100, help="events per batch (default 100)")
    parser.add_argument("--only", nargs="*", choices=list(BENCHMARKS), help="run only these")
    parser.add_argument("--threads", type=int, default=1,
                        help="appending threads for the two SqliteStore runs (default 1)")
    args = parser.parse_args(argv)
    THREADS["n"] = args.threads
    rates = run(args.events, args.batch, args.only)
    reference = rates[0]
    print(f"{args.events} events in batches of {args.batch}"
          + (f", {args.threads} appending threads (SqliteStore runs)" if args.threads > 1 else ""))
    appends = -(-args.events // args.batch)
    for r in rates:
        ratio = reference.per_second / r.per_second
        print(
            f"  {r.name:<40} {r.per_second:>10,.0f} events/s  ({r.seconds:6.2f} s, "
            f"{r.seconds / appends * 1e6:8.0f} µs/append)  {ratio:5.2f}x the time of {reference.name}"
        )
    by = {r.name: r for r in rates}
    with_ck, without = by.get("SqliteStore.append"), by.get("SqliteStore.append, no checkpoint file")
    if with_ck and without:
        extra = (with_ck.seconds - without.seconds) / appends * 1e6
        print(f"  the writer checkpoint costs {extra:+.0f} µs per append "
              f"({with_ck.seconds / without.seconds:.2f}x the time without it)")


if __name__ == "__main__":
    main()
