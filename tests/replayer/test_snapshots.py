"""The snapshot cache (issue 13 item 3): an object its user owns, safe to share between
threads while it evicts; state_at equals a full replay with or without it."""

from __future__ import annotations

import random
import threading

import pytest

from replay_hands import dealer_win_game, legal_hand
from replayer.replay import replay
from replayer.snapshots import SnapshotCache, state_at


def test_sixteen_threads_with_forced_evictions(mcr):
    """16 threads share one tiny cache (4 snapshots, one every 3 events) over three games:
    every answer equals the full replay, nothing raises, and entries were evicted."""
    games = [legal_hand()[0].events(), dealer_win_game().events(), dealer_win_game(5).events()]
    full = [[s.state for s in replay(g, ruleset=mcr)] for g in games]
    cache = SnapshotCache(limit=4, every=3)
    errors: list[BaseException] = []
    wrong: list[tuple[int, int]] = []
    start = threading.Barrier(16)

    def worker(k: int) -> None:
        rng = random.Random(k)
        try:
            start.wait()
            for _ in range(40):
                g = rng.randrange(len(games))
                seq = rng.randrange(len(games[g]))
                if state_at(games[g], seq, ruleset=mcr, cache=cache) != full[g][seq]:
                    wrong.append((g, seq))
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and not wrong
    assert cache.evictions > 0 and len(cache) <= 4


def test_without_a_cache_and_unknown_seq(mcr):
    events = legal_hand()[0].events()
    full = [s.state for s in replay(events, ruleset=mcr)]
    assert state_at(events, len(events) - 1, ruleset=mcr) == full[-1]
    with pytest.raises(KeyError):
        state_at(events, len(events) + 5, ruleset=mcr, cache=SnapshotCache())


def test_bounds_refused():
    with pytest.raises(ValueError):
        SnapshotCache(limit=0)
    with pytest.raises(ValueError):
        SnapshotCache(every=0)
