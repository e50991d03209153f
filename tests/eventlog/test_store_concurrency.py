"""Concurrent writers and a tailing reader (DESIGN.md §5): with an exact expected
version exactly one of the conflicting batches wins; with ANY nothing is lost or
doubled and each batch stays contiguous; a reader tailing the log never sees a gap or a
position out of order. Threads run against every backend; processes (spawned, each
with its own store object) against the SQLite file.
"""

from __future__ import annotations

import itertools
import multiprocessing
import threading
from collections import Counter
from collections.abc import Callable

from eventlog.events import NewEvent, TileDiscarded
from eventlog.store import (
    NO_STREAM,
    AppendResult,
    CaughtUp,
    EventStore,
    IdempotencyConflict,
    SqliteStore,
    StreamAlreadyExists,
    WrongExpectedVersion,
)
from eventlog.verify import verify_all

WORKERS = 3
ROUNDS = 6
RACE_BATCH = 2
ANY_BATCHES = 15
ANY_BATCH = 3
GAMES = ("g0", "g1")


def _batch(tag: str, n: int) -> list[NewEvent]:
    return [
        NewEvent.of(TileDiscarded(seat=i % 4, tile="T5"), metadata={"tag": tag, "i": i})
        for i in range(n)
    ]


def _race(store: EventStore, worker: int, wait: Callable[[], object]) -> list[tuple]:
    """ROUNDS rounds; in round r every worker appends RACE_BATCH events expecting the
    version the stream has after r won rounds (none for r = 0)."""
    outcomes = []
    for r in range(ROUNDS):
        expected = NO_STREAM if r == 0 else RACE_BATCH * r - 1
        batch = _batch(f"w{worker}r{r}", RACE_BATCH)
        wait()  # everyone starts the round together
        try:
            res = store.append("race", batch, expected)
            outcomes.append((r, "won", worker, res.first_seq, res.last_seq))
        except WrongExpectedVersion as e:
            outcomes.append((r, "lost", worker, type(e).__name__, e.current))
    return outcomes


def _write_any(store: EventStore, worker: int) -> None:
    for b in range(ANY_BATCHES):
        store.append(GAMES[b % len(GAMES)], _batch(f"w{worker}b{b}", ANY_BATCH))


def _process_race(path: str, worker: int, barrier, out) -> None:
    store = SqliteStore(path)
    try:
        out.put(_race(store, worker, lambda: barrier.wait(timeout=60)))
    finally:
        store.close()


def _process_write_any(path: str, worker: int, barrier) -> None:
    store = SqliteStore(path)
    try:
        barrier.wait(timeout=60)  # all started and connected: the writes overlap
        _write_any(store, worker)
    finally:
        store.close()


def _process_write_until_killed(path: str, going) -> None:
    store = SqliteStore(path)
    for b in itertools.count():
        store.append(GAMES[b % len(GAMES)], _batch(f"k{b}", ANY_BATCH))
        if b == 5:
            going.set()


# ---- checks (what the rules say must hold afterwards) ---------------------------------


def check_race(store: EventStore, outcomes: list[tuple]) -> None:
    by_round: dict[int, list[tuple]] = {}
    for o in outcomes:
        by_round.setdefault(o[0], []).append(o)
    assert sorted(by_round) == list(range(ROUNDS))
    winners = {}
    for r, results in by_round.items():
        won = [o for o in results if o[1] == "won"]
        lost = [o for o in results if o[1] == "lost"]
        assert len(won) == 1, f"round {r}: {results}"
        assert won[0][3:] == (RACE_BATCH * r, RACE_BATCH * r + 1)
        losing_error = "StreamAlreadyExists" if r == 0 else "WrongExpectedVersion"
        assert sorted(o[3:] for o in lost) == [(losing_error, RACE_BATCH * r + 1)] * (WORKERS - 1)
        winners[r] = won[0][2]
    events = list(store.read_game("race"))
    assert [e.seq for e in events] == list(range(ROUNDS * RACE_BATCH))
    assert [e.metadata["tag"] for e in events] == [
        f"w{winners[r]}r{r}" for r in range(ROUNDS) for _ in range(RACE_BATCH)
    ]


def check_any(store: EventStore) -> None:
    total = WORKERS * ANY_BATCHES * ANY_BATCH
    events = list(store.read_all())
    assert [e.position for e in events] == list(range(1, total + 1))
    tags = Counter(e.metadata["tag"] for e in events)
    assert tags == {f"w{w}b{b}": ANY_BATCH for w in range(WORKERS) for b in range(ANY_BATCHES)}
    for game in GAMES:
        mine = list(store.read_game(game))
        assert [e.seq for e in mine] == list(range(len(mine)))
        # A batch is contiguous in its stream and in the log: its events are i = 0, 1, 2.
        assert [e.metadata["i"] for e in mine] == [0, 1, 2] * (len(mine) // ANY_BATCH)
    assert [r.ok for r in verify_all(store)] == [True, True]


def tail(store: EventStore, total: int, stop: threading.Event, seen: list) -> None:
    for item in store.subscribe(stop=stop, poll_interval=0.005):
        if isinstance(item, CaughtUp):
            continue
        seen.append(item.position)
        if len(seen) == total:
            return


# ---- threads ---------------------------------------------------------------------------


def test_threads_racing_on_an_exact_version_have_one_winner_per_round(store):
    barrier = threading.Barrier(WORKERS)
    results: list[list[tuple]] = [[] for _ in range(WORKERS)]

    def run(w: int) -> None:
        results[w] = _race(store, w, lambda: barrier.wait(timeout=60))

    threads = [threading.Thread(target=run, args=(w,)) for w in range(WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    check_race(store, [o for r in results for o in r])


def test_threads_appending_with_any_lose_nothing_while_a_reader_tails(store):
    total = WORKERS * ANY_BATCHES * ANY_BATCH
    stop = threading.Event()
    seen: list[int] = []
    reader = threading.Thread(target=tail, args=(store, total, stop, seen))
    reader.start()
    writers = [threading.Thread(target=_write_any, args=(store, w)) for w in range(WORKERS)]
    for t in writers:
        t.start()
    for t in writers:
        t.join(timeout=120)
    reader.join(timeout=30)
    stop.set()
    assert seen == list(range(1, total + 1))
    check_any(store)


def test_appends_made_at_once_each_get_the_outcome_they_would_get_alone(store):
    """Issue 19: appends made while another commits are committed together (SQLite: one
    transaction, one sync); each still gets its own outcome, whatever the others do."""
    taken = store.append("taken", _batch("taken", 2), NO_STREAM)
    kinds = ("new", "new", "new", "new", "exists", "retry", "elsewhere", "stale")
    barrier = threading.Barrier(len(kinds))
    outcomes: dict[tuple[int, int], object] = {}

    def run(w: int) -> None:
        for r in range(4):
            kind = kinds[w]
            game, batch, expected = {
                "new": (f"n{r}-{w}", _batch(f"n{r}-{w}", 1 + w), NO_STREAM),
                "exists": ("taken", _batch(f"x{r}", 2), NO_STREAM),
                "retry": ("taken", first, 0),  # an idempotent retry of the stored batch
                "elsewhere": (f"e{r}", first, NO_STREAM),  # its ids in another game
                "stale": ("taken", _batch(f"s{r}", 1), 7),
            }[kind]
            barrier.wait(timeout=60)
            try:
                outcomes[w, r] = store.append(game, batch, expected)
            except (WrongExpectedVersion, IdempotencyConflict) as e:
                outcomes[w, r] = e

    first = list(store.read_game("taken"))
    threads = [threading.Thread(target=run, args=(w,)) for w in range(len(kinds))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert len(outcomes) == 4 * len(kinds)
    for (w, r), out in sorted(outcomes.items()):
        kind = kinds[w]
        if kind == "new":
            assert isinstance(out, AppendResult) and (out.first_seq, out.last_seq, out.duplicate) == (0, w, False)
            assert [e.metadata["tag"] for e in store.read_game(f"n{r}-{w}")] == [f"n{r}-{w}"] * (1 + w)
        elif kind == "exists":
            assert isinstance(out, StreamAlreadyExists) and out.current == 1
        elif kind == "retry":
            assert isinstance(out, AppendResult) and out.duplicate
            assert (out.first_position, out.last_position) == (taken.first_position, taken.last_position)
        elif kind == "elsewhere":
            assert isinstance(out, IdempotencyConflict)
        else:
            assert isinstance(out, WrongExpectedVersion) and not isinstance(out, StreamAlreadyExists)
            assert out.current == 1
    assert store.version("taken") == 1
    assert all(r.ok for r in verify_all(store))


# ---- processes (SQLite: the file is the only thing they share) -----------------------------


def test_processes_racing_on_an_exact_version_have_one_winner_per_round(tmp_path):
    path = str(tmp_path / "race.sqlite")
    SqliteStore(path).close()  # create the schema once
    ctx = multiprocessing.get_context("spawn")
    barrier, out = ctx.Barrier(WORKERS), ctx.Queue()
    procs = [ctx.Process(target=_process_race, args=(path, w, barrier, out)) for w in range(WORKERS)]
    for p in procs:
        p.start()
    outcomes = [o for _ in procs for o in out.get(timeout=120)]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    store = SqliteStore(path)
    try:
        check_race(store, outcomes)
    finally:
        store.close()


def test_processes_appending_with_any_lose_nothing_while_a_reader_tails(tmp_path):
    path = str(tmp_path / "any.sqlite")
    store = SqliteStore(path)
    total = WORKERS * ANY_BATCHES * ANY_BATCH
    stop = threading.Event()
    seen: list[int] = []
    reader = threading.Thread(target=tail, args=(store, total, stop, seen))
    reader.start()
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(WORKERS)
    procs = [ctx.Process(target=_process_write_any, args=(path, w, barrier)) for w in range(WORKERS)]
    try:
        for p in procs:
            p.start()
        for p in procs:
            p.join(timeout=120)
            assert p.exitcode == 0
        reader.join(timeout=30)
        assert seen == list(range(1, total + 1))
        check_any(store)
    finally:
        stop.set()
        store.close()


def test_a_writer_killed_mid_stream_leaves_only_whole_batches(tmp_path):
    path = str(tmp_path / "killed.sqlite")
    SqliteStore(path).close()
    ctx = multiprocessing.get_context("spawn")
    going = ctx.Event()
    proc = ctx.Process(target=_process_write_until_killed, args=(path, going))
    proc.start()
    assert going.wait(timeout=60)
    proc.kill()  # SIGKILL, most likely inside an append
    proc.join(timeout=60)
    store = SqliteStore(path)
    try:
        events = list(store.read_all())
        assert len(events) >= 6 * ANY_BATCH and len(events) % ANY_BATCH == 0
        assert [e.position for e in events] == list(range(1, len(events) + 1))
        assert [e.metadata["tag"] for e in events] == [
            f"k{b}" for b in range(len(events) // ANY_BATCH) for _ in range(ANY_BATCH)
        ]
        assert [r.ok for r in verify_all(store)] == [True, True]
        assert store.append("after", _batch("after", 1)).last_position == len(events) + 1
    finally:
        store.close()
