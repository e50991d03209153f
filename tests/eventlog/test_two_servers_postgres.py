"""Several servers, one log (issue 20 item 2): two real ``paipu --store postgresql://… serve``
processes on one PostgreSQL database. Clients append through both at once while a subscriber
on each server receives every event exactly once, in global order; an expected-version
conflict across servers is refused exactly as on one server (ABORTED with the current
version, rebuilt by the client as WrongExpectedVersion)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from eventlog.events import NewEvent, TileDiscarded
from eventlog.store import NO_STREAM, CaughtUp, WrongExpectedVersion
from services.client import EventLogClient

ROOT = Path(__file__).resolve().parents[2]
WRITERS_PER_SERVER = 2
BATCHES = 12
BATCH = 3


def _batch(tag: str) -> list[NewEvent]:
    return [NewEvent.of(TileDiscarded(seat=i, tile="T7"), metadata={"tag": tag, "i": i}) for i in range(BATCH)]


def _start_server(url: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "paipu", "--store", url, "serve", "--port", "0"],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stderr is not None
    line = proc.stderr.readline()
    m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
    if not m:
        proc.kill()
        raise AssertionError(f"server did not start: {line}{proc.stderr.read()}")
    assert "postgresql://" in line
    return proc, f"127.0.0.1:{m.group(1)}"


@pytest.fixture
def two_servers(postgres):
    url = postgres.new_schema()
    started = [_start_server(url), _start_server(url)]
    yield [target for _, target in started]
    for proc, _ in started:
        proc.terminate()
        try:
            assert proc.wait(timeout=30) == 0
        finally:
            if proc.poll() is None:
                proc.kill()


def _subscribe(target: str, total: int, stop: threading.Event, seen: list[tuple[int, str, int]]) -> None:
    with EventLogClient(target, timeout=None) as client:
        for item in client.subscribe(1, stop=stop):
            if isinstance(item, CaughtUp):
                continue
            seen.append((item.position, item.game_id, item.seq))
            if len(seen) == total:
                return


def _write(target: str, writer: str) -> None:
    with EventLogClient(target) as client:
        for b in range(BATCHES):
            client.append(f"game-{b % 3}", _batch(f"{writer}-{b}"))


def test_appends_through_two_servers_reach_both_subscribers_once_in_order(two_servers):
    total = 2 * WRITERS_PER_SERVER * BATCHES * BATCH
    stop = threading.Event()
    seen = {t: [] for t in two_servers}
    readers = [threading.Thread(target=_subscribe, args=(t, total, stop, seen[t])) for t in two_servers]
    writers = [
        threading.Thread(target=_write, args=(t, f"s{i}w{w}"))
        for i, t in enumerate(two_servers)
        for w in range(WRITERS_PER_SERVER)
    ]
    try:
        for th in readers + writers:
            th.start()
        for th in writers:
            th.join(timeout=120)
        for th in readers:
            th.join(timeout=60)
    finally:
        stop.set()
    a, b = (seen[t] for t in two_servers)
    assert [p for p, _, _ in a] == list(range(1, total + 1))  # every position once, in order
    assert a == b  # both servers serve the same log
    per_game: dict[str, list[int]] = {}
    for _, game, seq in a:
        per_game.setdefault(game, []).append(seq)
    assert sorted(per_game) == ["game-0", "game-1", "game-2"]
    for seqs in per_game.values():
        assert seqs == list(range(len(seqs)))


def test_an_expected_version_conflict_across_servers_is_refused(two_servers):
    first, second = two_servers
    with EventLogClient(first) as a, EventLogClient(second) as b:
        a.append("g", _batch("a0"), NO_STREAM)
        with pytest.raises(WrongExpectedVersion) as lost:
            b.append("g", _batch("b0"), NO_STREAM)
        assert lost.value.current == BATCH - 1
        b.append("g", _batch("b1"), BATCH - 1)  # b now knows the version: wins
        with pytest.raises(WrongExpectedVersion) as stale:
            a.append("g", _batch("a1"), BATCH - 1)  # a's view is stale
        assert stale.value.current == 2 * BATCH - 1
        assert [e.metadata["tag"] for e in a.read_game("g")] == ["a0"] * BATCH + ["b1"] * BATCH
