"""Per-game batch work spread over processes or a Dask cluster, results in game order.

``paipu export`` and ``paipu verify`` replay every game; each game is independent, so the
work is split by game and the results are taken back **in the order of the game ids**
whatever finished first — which is what keeps their output (Parquet files, reports) byte
for byte the same with 1 worker, N local processes or a cluster (issue 20).

* ``workers <= 1`` (or too few games to be worth starting processes): in this process.
* ``workers > 1``: that many local processes (``spawn``), each opening the store once.
* ``cluster="tcp://host:8786"``: the workers of that Dask distributed scheduler
  (``pip install 'paipu[cluster]'``). Each worker opens the store by its location — a
  SQLite file every worker can read (a shared disk) or a PostgreSQL URL — so an in-memory
  store cannot be sent to a cluster.

Either way games go in chunks and a bounded window of chunks is in flight (sent and not yet
taken back): results wait for the caller in this window only, so memory does not grow with
the number of games however slowly the caller takes them (issue 19).

``fn(store, game_id)`` must be a top-level function (or a :func:`functools.partial` of one)
so that it can be pickled; its result must pickle too.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from eventlog.errors import PaipuError
from eventlog.store.base import EventStore

__all__ = ["ClusterError", "store_location", "map_games", "default_workers", "PARALLEL_GAMES", "fewer_collections"]

T = TypeVar("T")

#: Games per task sent to a local process or a cluster worker.
CHUNK = 16
#: From this many games on, :func:`default_workers` uses every core.
PARALLEL_GAMES = 500
#: Chunks in flight per local worker process: enough to keep it busy while the caller is
#: busy elsewhere (an export writing its Parquet files), few enough to bound the results held.
WINDOW_PER_WORKER = 8


#: The cyclic garbage collector's first threshold (container objects allocated, net, before a
#: young collection) while games are read and replayed in bulk (:func:`fewer_collections`).
BULK_GC_THRESHOLD = 20_000


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """While in the block, the cyclic garbage collector runs a young collection after
    :data:`BULK_GC_THRESHOLD` net container allocations instead of Python's 700 (never fewer
    than it was set to); its other thresholds and everything else stay, and all are restored
    after. Reading and replaying a game allocates thousands of short-lived containers (its
    events, their metadata dicts, the working state's lists) that die by reference
    counting; with the default threshold the collector runs every few games and, every tenth
    young collection, a full one over everything alive — the imported modules and the parsed
    payloads the store shares (eventlog/store/rows.py): about 8 % of the CPU of ``paipu
    export --rebuild`` on 10,000 MCR games (seven times fewer full collections with this)."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], BULK_GC_THRESHOLD), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


def default_workers(games: int) -> int:
    """Worker processes for replaying ``games`` games when none are asked for (``paipu
    export``, ``paipu verify``): every core (``os.cpu_count()``) from
    :data:`PARALLEL_GAMES` games on, else 1 (starting the processes costs about a second)."""
    return max(1, os.cpu_count() or 1) if games >= PARALLEL_GAMES else 1


class ClusterError(PaipuError):
    """The work cannot be spread as asked (no store location, no scheduler, no extra).
    ``cluster``: the scheduler address asked for. The CLI prints it as one line (exit 2);
    over gRPC it would be FAILED_PRECONDITION."""

    fields = ("cluster",)

    def __init__(self, message: str, cluster: str | None = None) -> None:
        super().__init__(message)
        self.cluster = cluster


def store_location(store: EventStore) -> str | None:
    """What another process opens to reach the same log (:func:`eventlog.store.open_store`):
    a SQLite file's path or a PostgreSQL URL; None for a store only this process has."""
    from eventlog.store.postgres import PostgresStore
    from eventlog.store.sqlite import SqliteStore

    if isinstance(store, SqliteStore):
        return str(store.path)
    if isinstance(store, PostgresStore):
        return store.url
    return None


_WORKER_STORES: dict[tuple[str, bool], EventStore] = {}  # per worker process: (location, salvage) -> store


def _worker_store(location: str, salvage: bool = False) -> EventStore:
    """The store at ``location``, opened once per worker process. Never created: a worker
    that cannot see the file (no shared disk) gets :class:`StoreNotFound`, not a new empty
    store with no games (issue 12 item 4). ``salvage``: the caller opened a log that lost
    events (``paipu verify``), so the worker opens it the same way."""
    store = _WORKER_STORES.get((location, salvage))
    if store is None:
        from eventlog.store import open_store

        store = _WORKER_STORES[(location, salvage)] = open_store(location, create=False, salvage=salvage)
    return store


def _run_chunk(
    fn: Callable[[EventStore, str], T], location: str, game_ids: Sequence[str], salvage: bool = False
) -> list[T]:
    store = _worker_store(location, salvage)
    return [fn(store, g) for g in game_ids]


def _salvaged(store: EventStore) -> bool:
    """Whether ``store`` was opened in salvage mode over a log that lost events."""
    return getattr(store, "damage", None) is not None


def _chunks(ids: Sequence[str], size: int) -> list[list[str]]:
    return [list(ids[i : i + size]) for i in range(0, len(ids), size)]


@contextlib.contextmanager
def map_games(
    store: EventStore,
    game_ids: Sequence[str],
    fn: Callable[[EventStore, str], T],
    *,
    workers: int = 1,
    cluster: str | None = None,
    chunk: int = CHUNK,
) -> Iterator[Iterator[T]]:
    """``with map_games(store, ids, fn, workers=…, cluster=…) as results:`` — an iterator of
    ``fn(store, id)`` for each id, in the order of ``game_ids`` (see the module doc).

    Raises :class:`ClusterError` when ``cluster`` is given but the store has no location
    other processes can open, dask.distributed is not installed, or the scheduler does not
    answer."""
    ids = list(game_ids)
    if cluster:
        location = _location_or_fail(store, "a Dask cluster", cluster)
        with _dask_results(cluster, location, ids, fn, chunk, _salvaged(store)) as results:
            yield results
        return
    local = store_location(store)
    if workers <= 1 or local is None or len(ids) < 2 * workers:
        with fewer_collections():  # the games are replayed here, as the caller takes them
            yield (fn(store, g) for g in ids)
        return
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers, initializer=_start_worker) as pool, fewer_collections():
        call = _ChunkCall(fn, local, _salvaged(store))
        yield _in_order(lambda part: pool.apply_async(call, (part,)).get, _chunks(ids, chunk),
                        WINDOW_PER_WORKER * workers)


def _in_order(submit: Callable[[list[str]], Callable[[], list[T]]], parts: list[list[str]],
              window: int) -> Iterator[T]:
    """The results of every part, in order, with at most ``window`` parts submitted and not yet
    taken: ``submit(part)`` starts one and returns what waits for its results."""
    pending: deque[Callable[[], list[T]]] = deque()
    todo = iter(parts)
    for part in todo:
        pending.append(submit(part))
        if len(pending) >= window:
            break
    while pending:
        done = pending.popleft()()
        nxt = next(todo, None)
        if nxt is not None:
            pending.append(submit(nxt))
        yield from done


def _start_worker() -> None:
    """A worker process: it ignores SIGINT (Ctrl-C reaches the whole process group, and the
    parent, which says "interrupted", ends the pool; a worker's KeyboardInterrupt would print
    a traceback) and replays with :func:`fewer_collections`' threshold (it does nothing else)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], BULK_GC_THRESHOLD), *old[1:])


class _ChunkCall:
    """A picklable ``chunk -> results`` for multiprocessing's imap."""

    def __init__(self, fn: Callable[[EventStore, str], Any], location: str, salvage: bool = False) -> None:
        self.fn, self.location, self.salvage = fn, location, salvage

    def __call__(self, ids: Sequence[str]) -> list[Any]:
        return _run_chunk(self.fn, self.location, ids, self.salvage)


def _location_or_fail(store: EventStore, what: str, cluster: str) -> str:
    location = store_location(store)
    if location is None:
        raise ClusterError(
            f"{what} needs an event store its workers can open (a SQLite file on a shared disk "
            "or a postgresql:// URL), not an in-memory one", cluster
        )
    return location


@contextlib.contextmanager
def _dask_results(
    address: str, location: str, ids: list[str], fn: Callable[[EventStore, str], T], chunk: int,
    salvage: bool = False,
) -> Iterator[Iterator[T]]:
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError("--cluster needs dask.distributed: pip install 'paipu[cluster]'", address) from None
    try:
        client = Client(address, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError) as e:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {e}", address) from None
    try:
        n_workers = max(1, len(client.scheduler_info().get("workers", {})))
        window = 2 * n_workers

        yield _in_order(lambda part: client.submit(_run_chunk, fn, location, part, salvage, pure=False).result,
                        _chunks(ids, chunk), window)
    finally:
        client.close()
