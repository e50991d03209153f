"""An in-memory event store: the reference model and a second backend for the
conformance suite. Same semantics as the SQLite store, minus durability (nothing
survives the process). One lock serialises appends; readers take it per page.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

from eventlog.store.base import EventStore, utc_now
from eventlog.store.errors import StoreClosed
from eventlog.store.planning import PlannedBatch
from eventlog.store.types import AppendResult, LogHead, Row, StreamHead

__all__ = ["MemoryStore"]


class MemoryStore(EventStore):
    """``clock``: returns ``recorded_at`` strings (default UTC now)."""

    def __init__(self, *, clock: Callable[[], str] = utc_now) -> None:
        self._clock = clock
        self._rows: list[Row] = []  # index = position - 1
        self._positions: dict[str, list[int]] = {}  # game -> positions, index = seq
        self._by_event_id: dict[str, int] = {}  # event_id -> position
        self._heads: dict[str, StreamHead] = {}  # insertion order = first position
        self._log = LogHead()
        self._cond = threading.Condition(threading.RLock())
        self._closed = False

    def _is_closed(self) -> bool:
        return self._closed

    def _close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _guard(self) -> None:
        if self._closed:
            raise StoreClosed("the event store is closed")

    def _append_batch(self, batch: PlannedBatch) -> AppendResult:
        with self._cond:
            self._guard()
            stored = [
                dict(self._rows[self._by_event_id[i] - 1])
                for i in batch.event_ids
                if i in self._by_event_id
            ]
            plan = batch.plan(stored, self._heads.get(batch.game_id), self._log, self._clock())
            if plan.rows:
                positions = self._positions.setdefault(batch.game_id, [])
                for row in plan.rows:
                    self._rows.append(dict(row))
                    positions.append(row["position"])
                    self._by_event_id[row["event_id"]] = row["position"]
                assert plan.head is not None and plan.log is not None
                self._heads[batch.game_id] = plan.head
                self._log = plan.log
                self._cond.notify_all()
            return plan.result

    def _fetch_game(self, game_id: str, from_seq: int, n: int, backward: bool) -> list[Row]:
        with self._cond:
            self._guard()
            positions = self._positions.get(game_id, [])
            if backward:
                end = min(from_seq + 1, len(positions))
                picked = positions[max(0, end - n) : end][::-1]
            else:
                picked = positions[from_seq : from_seq + n]
            return [dict(self._rows[p - 1]) for p in picked]

    def _fetch_all(self, from_position: int, n: int, backward: bool) -> list[Row]:
        with self._cond:
            self._guard()
            if backward:
                end = min(from_position, len(self._rows))
                picked = self._rows[max(0, end - n) : max(0, end)][::-1]
            else:
                start = max(from_position, 1) - 1
                picked = self._rows[start : start + n]
            return [dict(r) for r in picked]

    def _stream_head(self, game_id: str) -> StreamHead | None:
        with self._cond:
            self._guard()
            return self._heads.get(game_id)

    def _stream_heads(self, after: int = 0, limit: int | None = None, ruleset: str | None = None) -> list[StreamHead]:
        with self._cond:
            self._guard()
            heads = sorted(self._heads.values(), key=lambda h: h.first_position)
        picked = [h for h in heads if h.first_position > after and (ruleset is None or h.ruleset == ruleset)]
        return picked if limit is None else picked[:limit]

    def _log_head(self) -> LogHead:
        with self._cond:
            self._guard()
            return self._log

    def _wait_for_commit(self, after_position: int, timeout: float) -> None:
        with self._cond:
            if len(self._rows) <= after_position and not self._closed:
                self._cond.wait(timeout)

    def iter_raw(self, game_id: str) -> Iterator[Row]:
        with self._cond:
            self._guard()
            rows = [dict(r) for r in self._rows if r["game_id"] == game_id]
        return iter(rows)

    def raw_game_ids(self) -> list[str]:
        with self._cond:
            self._guard()
            ids: dict[str, None] = {}
            for r in self._rows:
                ids.setdefault(r["game_id"], None)
            for g in self._heads:
                ids.setdefault(g, None)
            return list(ids)
