"""Group commit (issue 19, eventlog/store/group.py): appends made while another commits
are committed together in the next transaction, and each caller still gets exactly what
the same appends made one after the other would give it — its own result or error, the
same rows, positions, hash chains and running hash, byte for byte — and is answered only
once its transaction is durable.

A group is formed for certain here, not by chance: the test holds the store's checkpoint
lock (the ``flock`` a writer of any process takes before ``BEGIN IMMEDIATE``), so the first
append commits nothing until it is let go, and the next appends queue behind it, one at a
time, in a known order; they are then committed as one group.
"""

from __future__ import annotations

import fcntl
import os
import signal
import threading
import time
from collections.abc import Callable

import pytest

from eventlog.store import (
    ANY,
    NO_STREAM,
    AppendResult,
    CorruptDatabase,
    EventStore,
    IdempotencyConflict,
    SqliteStore,
    StreamAlreadyExists,
    WrongExpectedVersion,
)
from eventlog.store.sqlite import checkpoint_path
from eventlog.verify import verify_all

from damaged_store import shell

#: Every append's recorded_at (a fixed clock: the grouped and the one-by-one stores must write the same bytes).
CLOCK = "2026-12-01T12:00:00.000000Z"


def _wait_for(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, "the appends did not queue"
        time.sleep(0.001)


def _outcome(store: EventStore, call: tuple) -> object:
    try:
        return store.append(*call)
    except Exception as e:
        return e


def grouped(store: SqliteStore, calls: list[tuple]) -> list[object]:
    """Make ``calls`` (``(game_id, events, expected)``) each on a thread of its own: the first
    commits alone, the others queue behind it in this order and are committed as one group.
    Returns each call's result or exception."""
    outcomes: list[object] = [None] * len(calls)
    group = store._group  # the store's GroupCommit

    def run(i: int) -> None:
        outcomes[i] = _outcome(store, calls[i])

    fd = os.open(checkpoint_path(store.path), os.O_RDWR)
    threads = []
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # no transaction can begin
        for i in range(len(calls)):
            t = threading.Thread(target=run, args=(i,))
            t.start()
            threads.append(t)
            if i == 0:
                _wait_for(lambda: group.busy and group.queued == 0)  # it took its group: itself
            else:
                _wait_for(lambda i=i: group.queued == i)
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
        for t in threads:
            t.join(timeout=60)
    assert group.largest == len(calls) - 1
    return outcomes


def _same(a: object, b: object) -> bool:
    if isinstance(a, AppendResult) or isinstance(b, AppendResult):
        return a == b
    return type(a) is type(b) and str(a) == str(b)


def test_a_group_writes_what_the_same_appends_one_after_another_write(tmp_path, discards):
    """Refused appends in the group (a stale version, a stream that exists, ids stored in
    another game) leave nothing and change nothing for the others; a batch continuing a
    stream created earlier in the same group, and a retry of a batch written earlier in
    it, are answered as they would be one after the other."""
    a1, a2, b1 = discards(2, tag="a1"), discards(3, tag="a2"), discards(1, tag="b1")
    calls = [
        ("z", discards(1, tag="z"), NO_STREAM),  # commits alone, the rest queue behind it
        ("a", a1, NO_STREAM),
        ("b", b1, NO_STREAM),
        ("a", a2, 1),  # continues a, created in this group
        ("a", discards(1, tag="stale"), 1),  # stale: a is at version 4 now
        ("b", discards(2, tag="again"), NO_STREAM),  # b exists
        ("c", a1, NO_STREAM),  # a1's ids, in another game
        ("a", a1, NO_STREAM),  # a retry of a1 (written in this group): a duplicate
        ("b", discards(2, tag="b2"), ANY),
        ("z", discards(1, tag="z2"), 0),
    ]
    grouped_store = SqliteStore(tmp_path / "grouped.sqlite", clock=lambda: CLOCK)
    one_by_one = SqliteStore(tmp_path / "sequential.sqlite", clock=lambda: CLOCK)
    try:
        got = grouped(grouped_store, calls)
        expected = [_outcome(one_by_one, call) for call in calls]
        assert [type(o).__name__ for o in got] == [
            "AppendResult", "AppendResult", "AppendResult", "AppendResult", "WrongExpectedVersion",
            "StreamAlreadyExists", "IdempotencyConflict", "AppendResult", "AppendResult", "AppendResult",
        ]
        assert got[7].duplicate and (got[7].first_position, got[7].last_position) == (2, 3)
        assert isinstance(got[4], WrongExpectedVersion) and got[4].current == 4
        assert isinstance(got[5], StreamAlreadyExists) and isinstance(got[6], IdempotencyConflict)
        assert all(_same(g, e) for g, e in zip(got, expected, strict=True)), (got, expected)
        assert list(grouped_store.iter_raw_log()) == list(one_by_one.iter_raw_log())
        assert grouped_store.log_head() == one_by_one.log_head()
        assert grouped_store.checkpoint() == one_by_one.checkpoint() == grouped_store.log_head()
        assert grouped_store.list_games() == one_by_one.list_games()
        assert all(r.ok for r in verify_all(grouped_store))
    finally:
        grouped_store.close()
        one_by_one.close()
    with SqliteStore(tmp_path / "grouped.sqlite", create=False) as reopened:  # the checkpoint names the head
        assert [e.metadata["tag"] for e in reopened.read_game("a")] == ["a1"] * 2 + ["a2"] * 3


def test_a_group_whose_transaction_fails_commits_each_append_alone(tmp_path, discards):
    """A damaged stream record fails the read of the whole group's transaction: each append
    is then committed alone — the others are written, the one on the damaged game gets the
    error it gets alone."""
    with SqliteStore(tmp_path / "events.sqlite") as store:
        store.append("bad", discards(1, tag="bad"))
        shell(store, "DROP TRIGGER streams_only_forward", "UPDATE streams SET version = 'x' WHERE game_id = 'bad'")
        got = grouped(store, [("z", discards(1, tag="z"), ANY), ("g", discards(2, tag="g"), NO_STREAM),
                              ("bad", discards(1, tag="more"), ANY), ("h", discards(1, tag="h"), NO_STREAM)])
        assert isinstance(got[0], AppendResult) and isinstance(got[1], AppendResult)
        assert isinstance(got[2], CorruptDatabase)
        assert isinstance(got[3], AppendResult)
        assert (got[1].first_position, got[1].last_position, got[3].first_position) == (3, 4, 5)
        assert [e.metadata["tag"] for e in store.read_game("h")] == ["h"]
        assert store.checkpoint() == store.log_head()


def test_a_grouped_append_is_committed_when_it_is_answered(tmp_path, discards):
    """Each caller of a group is answered only after the group's commit: another store
    object on the file (another connection) sees its events and the checkpoint its
    position as soon as its append returns."""
    path = tmp_path / "events.sqlite"
    with SqliteStore(path) as store, SqliteStore(path, create=False) as reader:
        seen: dict[str, list[str]] = {}
        calls = [(f"g{i}", discards(1 + i % 2, tag=f"g{i}"), NO_STREAM) for i in range(5)]

        def append_then_look(call: tuple) -> None:
            result = store.append(*call)
            seen[call[0]] = [e.metadata["tag"] for e in reader.read_game(call[0])]
            assert reader.checkpoint().position >= result.last_position

        threads = [threading.Thread(target=append_then_look, args=(c,)) for c in calls]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert seen == {g: [g] * len(events) for g, events, _ in calls}


@pytest.mark.parametrize("threads", [8])
def test_threads_appending_to_their_own_streams_and_to_one_shared_stream_each_get_their_own_result(
        store, discards, threads):
    """Every backend: many threads at once, each appending with exact versions to a stream
    of its own and with ANY to one shared stream; every result names exactly the caller's
    events (their seqs and positions), and the log verifies."""
    rounds = 6
    results: dict[tuple[int, int, str], AppendResult] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(threads)

    def run(w: int) -> None:
        try:
            barrier.wait(timeout=60)
            for r in range(rounds):
                mine = store.append(f"own{w}", discards(1 + r % 2, tag=f"own{w}-{r}"),
                                    NO_STREAM if r == 0 else results[w, r - 1, "own"].version)
                results[w, r, "own"] = mine
                results[w, r, "shared"] = store.append("shared", discards(1 + w % 3, tag=f"s{w}-{r}"), ANY)
        except BaseException as e:
            errors.append(e)

    workers = [threading.Thread(target=run, args=(w,)) for w in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join(timeout=120)
    assert not errors
    by_position = {e.position: e for e in store.read_all()}
    for (w, r, kind), res in results.items():
        tag = f"own{w}-{r}" if kind == "own" else f"s{w}-{r}"
        game = f"own{w}" if kind == "own" else "shared"
        events = [by_position[p] for p in range(res.first_position, res.last_position + 1)]
        assert [(e.game_id, e.metadata["tag"]) for e in events] == [(game, tag)] * len(events)
        assert [e.seq for e in events] == list(range(res.first_seq, res.last_seq + 1))
        assert len(events) == (1 + r % 2 if kind == "own" else 1 + w % 3)
    assert sorted(by_position) == list(range(1, len(by_position) + 1))
    assert all(r.ok for r in verify_all(store))


def test_an_append_interrupted_while_it_waits_for_a_group_leaves_nothing_and_blocks_no_one(tmp_path, discards):
    """Ctrl-C in a thread waiting for its group (the main thread, as in a script): the
    append is taken out of the queue — never committed — and the appends behind it go on.
    Ctrl-C is Python's own for the test: a run started with SIGINT ignored (a background job,
    e.g. a merge train) would never see it and wait forever."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _interrupted_append(tmp_path, discards)
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupted_append(tmp_path, discards) -> None:
    with SqliteStore(tmp_path / "events.sqlite") as store:
        group = store._group
        fd = os.open(checkpoint_path(store.path), os.O_RDWR)
        first: list[object] = []
        leader = threading.Thread(target=lambda: first.append(_outcome(store, ("a", discards(1, tag="a"), ANY))))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)  # the first append holds the lead, waiting for it
            leader.start()
            _wait_for(lambda: group.busy and group.queued == 0)

            def interrupt() -> None:
                _wait_for(lambda: group.queued == 1)  # the main thread waits for its group
                signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

            threading.Thread(target=interrupt).start()
            with pytest.raises(KeyboardInterrupt):
                store.append("b", discards(1, tag="b"), ANY)
            assert group.queued == 0
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
            leader.join(timeout=60)
        assert isinstance(first[0], AppendResult)
        assert store.append("c", discards(1, tag="c")).last_position == 2  # nothing waits forever
        assert [g.game_id for g in store.list_games()] == ["a", "c"]
