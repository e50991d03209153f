"""Jumping to one event of a game: :func:`state_at`, with an optional :class:`SnapshotCache`.

A cache is an object owned by its user (the replay service keeps one per server; a test or a
script makes its own), never process-wide state. It keeps the state after every ``every``-th
event in a bounded LRU map keyed by game id, mode, ruleset and the chain hash of the event
(``StoredEvent.hash``; for events without one, a SHA-256 chain over their canonical
encoding), so a changed history never hits a stale snapshot. Every read and write of the map
holds the cache's lock: many threads may share one cache (gRPC's thread pool) while entries
are evicted. The states themselves are immutable and safe to share.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from eventlog import events as ev
from replayer.findings import Mode
from replayer.replay import apply
from replayer.rules.base import Ruleset
from replayer.state import TableState

__all__ = ["SNAPSHOT_EVERY", "SnapshotCache", "state_at"]

SNAPSHOT_EVERY = 64

_Key = tuple[Any, ...]


class SnapshotCache:
    """A bounded, thread-safe LRU map of replay snapshots.

    ``limit``: most snapshots kept (the least recently used goes first; ≥ 1); ``every``: a
    snapshot after every ``every``-th event (≥ 1). Raises ValueError for a bound below 1."""

    def __init__(self, limit: int = 512, every: int = SNAPSHOT_EVERY) -> None:
        if limit < 1 or every < 1:
            raise ValueError(f"limit and every must be >= 1, got limit={limit}, every={every}")
        self.limit = limit
        self.every = every
        self._map: OrderedDict[_Key, TableState] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.evictions = 0

    def __len__(self) -> int:
        with self._lock:
            return len(self._map)

    def get(self, key: _Key) -> TableState | None:
        """The snapshot under ``key`` (now the most recently used), or None."""
        with self._lock:
            state = self._map.get(key)
            if state is not None:
                self._map.move_to_end(key)
                self.hits += 1
            return state

    def put(self, key: _Key, state: TableState) -> None:
        """Keep ``state`` under ``key``, evicting the least recently used beyond ``limit``."""
        with self._lock:
            self._map[key] = state
            self._map.move_to_end(key)
            while len(self._map) > self.limit:
                self._map.popitem(last=False)
                self.evictions += 1

    def clear(self) -> None:
        with self._lock:
            self._map.clear()


def state_at(
    events: Sequence[Any],
    seq: int,
    *,
    mode: Mode = "audit",
    ruleset: Ruleset | None = None,
    cache: SnapshotCache | None = None,
) -> TableState:
    """The state right after the event ``seq`` of a game (``events`` in seq order).

    Without ``cache`` the game is replayed from its start; with one, from the latest cached
    snapshot at or before ``seq`` (and new snapshots are kept on the way). A ruleset that
    cannot be hashed is never cached. Raises KeyError when no event has ``seq``;
    :class:`~replayer.findings.ReplayError` in strict mode at a breach."""
    idx = next((i for i, e in enumerate(events) if _seq_of(e, i) == seq), None)
    if idx is None:
        raise KeyError(f"no event with seq {seq}")
    if cache is not None and ruleset is not None:
        try:
            hash(ruleset)
        except TypeError:
            cache = None
    every = cache.every if cache is not None else 0
    digests = _digests(events, idx) if cache is not None else []
    game_id = getattr(events[0], "game_id", "") if events else ""
    base = (game_id, mode, ruleset)

    start, state = 0, TableState()
    if cache is not None:
        for k in range(idx, -1, -1):
            if (k + 1) % every == 0:
                hit = cache.get(base + (k, digests[k]))
                if hit is not None:
                    start, state = k + 1, hit
                    break
    for i in range(start, idx + 1):
        state, _ = apply(state, events[i], ruleset, mode)
        if cache is not None and (i + 1) % every == 0:
            cache.put(base + (i, digests[i]), state)
    return state


def _seq_of(e: Any, i: int) -> int:
    s = getattr(e, "seq", None)
    return s if isinstance(s, int) else i


def _digests(events: Sequence[Any], upto: int) -> list[str]:
    out: list[str] = []
    prev = ev.GENESIS_HASH
    for i in range(upto + 1):
        e = events[i]
        h = getattr(e, "hash", "") or ""
        if not h:
            h = ev.provisional_hash(prev, e, i)
        out.append(h)
        prev = h
    return out
