"""Group commit (issue 19), backend-neutral: appends made by several threads while one of
them commits are committed together, in the next transaction — one ``BEGIN`` … ``COMMIT``
and one sync of the log for all of them — and each caller still gets exactly the outcome
it would get alone.

How (leader and followers): an append joins the queue; when no commit is under way its
thread becomes the *leader*: it takes every append queued at that moment (its own among
them) and hands the batches to the backend's ``commit`` (one transaction:
:func:`eventlog.store.planning.plan_group` plans them in arrival order, each seeing the
ones before it). The others (*followers*) sleep, each on a lock of its own, until the
leader has its outcome: the leader first hands the lead to the oldest append that queued
meanwhile (so the next transaction starts at once, while the answers go out), then wakes
each follower of its group — one wake-up per append, none for an append still waiting.

Outcomes: ``commit`` returns one per batch (an :class:`~eventlog.store.types.AppendResult`,
or the exception the batch raises — :class:`WrongExpectedVersion`,
:class:`IdempotencyConflict` …: nothing of it is written, the others are). When the
transaction itself fails (``commit`` raises: a disk error, a damaged record read for one
of them), each batch is committed again alone, in order, for its own outcome. An
append is answered only after its transaction's commit returned, i.e. once it is durable.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from eventlog.store.errors import StoreError
from eventlog.store.planning import PlannedBatch
from eventlog.store.types import AppendResult

__all__ = ["GroupCommit", "Outcome"]

#: One append's outcome: its result, or the exception its caller gets.
Outcome = AppendResult | BaseException


class _Waiting:
    """One append in the queue: its batch, its outcome once decided, whether it was handed
    the lead, and the lock its thread sleeps on (held from the start; released to wake it)."""

    __slots__ = ("batch", "outcome", "lead", "_wake")

    def __init__(self, batch: PlannedBatch) -> None:
        self.batch = batch
        self.outcome: Outcome | None = None
        self.lead = False
        self._wake = threading.Lock()
        self._wake.acquire()

    def sleep(self) -> None:
        self._wake.acquire()

    def wake(self) -> None:
        self._wake.release()

    def result(self) -> AppendResult:
        outcome = self.outcome
        if isinstance(outcome, BaseException):
            raise outcome
        assert outcome is not None
        return outcome


class GroupCommit:
    """Commits the batches given to :meth:`append` by concurrent threads in groups (module
    doc). ``commit(batches)``: the backend's one transaction for the batches, returning one
    :data:`Outcome` per batch in order once they are durable, raising when the transaction
    failed (then nothing of it may be acknowledged)."""

    def __init__(self, commit: Callable[[Sequence[PlannedBatch]], Sequence[Outcome]]) -> None:
        self._commit = commit
        self._lock = threading.Lock()
        self._queue: list[_Waiting] = []
        self._leading = False
        #: The most batches committed in one transaction so far; how many groups (leaders'
        #: transactions, before any retry alone) and batches there were: their ratio is the
        #: mean group (benchmarks/grpc_append.py prints it).
        self.largest = 0
        self.groups = 0
        self.batches = 0

    @property
    def busy(self) -> bool:
        """Whether a group is being committed (or the lead is being handed on)."""
        with self._lock:
            return self._leading

    @property
    def queued(self) -> int:
        """How many appends wait for the next group (taken when the commit under way ends)."""
        with self._lock:
            return len(self._queue)

    def append(self, batch: PlannedBatch) -> AppendResult:
        """Commit ``batch`` (alone, or with the appends made meanwhile); its result once
        durable. Raises what the batch raises alone."""
        me = _Waiting(batch)
        with self._lock:
            self._queue.append(me)
            lead = not self._leading
            self._leading = True
        if not lead:
            try:
                me.sleep()  # until the outcome is in, or the lead is handed over
            except BaseException:  # interrupted (KeyboardInterrupt in the main thread)
                self._abandon(me)
                raise
            if not me.lead:
                return me.result()
        self._lead(me)
        return me.result()

    def _abandon(self, me: _Waiting) -> None:
        """``me``'s thread stops waiting: still queued, its batch is taken out (never
        committed); handed the lead, it commits the group all the same (the others wait
        for it); taken by a leader, it is committed, unanswered."""
        with self._lock:
            if me in self._queue and not me.lead:
                self._queue.remove(me)
                return
            lead = me.lead
        if lead:
            self._lead(me)

    def _lead(self, me: _Waiting) -> None:
        with self._lock:
            group, self._queue = self._queue, []
        self.largest = max(self.largest, len(group))
        self.groups += 1
        self.batches += len(group)
        try:
            outcomes = self._outcomes([w.batch for w in group])
            for w, outcome in zip(group, outcomes, strict=True):
                w.outcome = outcome
        finally:
            for w in group:  # an interruption (KeyboardInterrupt …) leaves none waiting forever
                if w.outcome is None and w is not me:
                    w.outcome = StoreError("the append was interrupted before it committed")
            with self._lock:
                following = self._queue[0] if self._queue else None
                if following is None:
                    self._leading = False
                else:
                    following.lead = True
            if following is not None:
                following.wake()
            for w in group:
                if w is not me:
                    w.wake()

    def _outcomes(self, batches: list[PlannedBatch]) -> list[Outcome]:
        if len(batches) > 1:
            try:
                return list(self._commit(batches))
            except Exception:  # noqa: BLE001 - the transaction failed: each alone, for its own outcome
                pass
        out: list[Outcome] = []
        for batch in batches:
            try:
                out += self._commit([batch])
            except Exception as e:  # noqa: BLE001 - the append's own outcome, raised in its thread
                out.append(e)
        return out
