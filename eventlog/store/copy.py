"""Copying a log between stores, keeping every event as it is (``paipu migrate``).

A normal append stamps ``recorded_at`` and chains new hashes; a copy must not: the event
ids, seqs, ``recorded_at``, ``prev_hash`` and ``hash`` of every event stay exactly as they
were, so the copy verifies to the same result and the chains prove it is the same log.
Only the global position is the target's own (the hash does not cover it): copied into an
empty store, positions come out the same too, because games are copied in source position
order.

Resumable: a stream already in the target is continued after its last event (checked: the
target's last hash must be the source's hash at that seq), and an identical batch that is
already stored is a duplicate, not an error — so an interrupted copy is simply run again.
Every copied row is checked like a read (:func:`~eventlog.store.base.inspect_row`): a
damaged source row stops the copy *of its game* at that row — nothing of that game from
the run holding it on is copied, what was copied before stays whole — and the copy goes on
with the other games; each damaged game's :class:`CorruptEvent` (game, seq, why) is in
:attr:`CopyProgress.damaged` at the end. A damaged *target* still stops the whole copy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from eventlog.events import GameStarted
from eventlog.hashing import GENESIS_HASH, log_hash
from eventlog.store.base import EventStore
from eventlog.store.errors import CorruptEvent, IdempotencyConflict
from eventlog.store.planning import AppendPlan
from eventlog.store.rows import inspect_row
from eventlog.store.types import COLUMNS, AppendResult, LogHead, Row, StreamHead

__all__ = ["CopyProgress", "StoredBatch", "copy_log"]

#: Events per copy transaction (one game's consecutive events at most).
COPY_BATCH = 500


@dataclass(frozen=True)
class StoredBatch:
    """Rows of one game already stored elsewhere, consecutive by seq, to be written as they
    are. Has the ``game_id`` / ``event_ids`` / ``plan`` of :class:`~eventlog.store.base.Batch`,
    so every backend's ``_append_batch`` writes it in its one write transaction."""

    game_id: str
    rows: tuple[Row, ...]

    @property
    def event_ids(self) -> list[str]:
        return [r["event_id"] for r in self.rows]

    def plan(self, stored: Sequence[Row], head: StreamHead | None, log: LogHead, recorded_at: str) -> AppendPlan:
        """Raises :class:`IdempotencyConflict` when the rows do not continue the target's
        stream (another seq or last hash) or are partly stored already."""
        first, last = self.rows[0], self.rows[-1]
        next_position = log.position + 1
        if stored:
            mine = {r["event_id"]: r["hash"] for r in self.rows}
            same = len(stored) == len(self.rows) and all(mine.get(r["event_id"]) == r["hash"] for r in stored)
            if not same:
                raise IdempotencyConflict(
                    self.game_id, first["event_id"],
                    f"{len(stored)} of the {len(self.rows)} events being copied are already in the "
                    "target with other content or as part of another run",
                )
            by_id = {r["event_id"]: r for r in stored}
            a, b = by_id[first["event_id"]], by_id[last["event_id"]]
            result = AppendResult(self.game_id, a["seq"], b["seq"], a["position"], b["position"],
                                  head.version if head else b["seq"], True)
            return AppendPlan(result, (), None, None)
        version = head.version if head is not None else -1
        prev = head.last_hash if head is not None else GENESIS_HASH
        if first["seq"] != version + 1 or first["prev_hash"] != prev:
            raise IdempotencyConflict(
                self.game_id, first["event_id"],
                f"the target's stream is at version {version}; the copy continues at seq "
                f"{first['seq']} with another chain — the target holds a different game under this id",
            )
        rows = tuple({**r, "position": next_position + i} for i, r in enumerate(self.rows))
        ruleset = head.ruleset if head is not None else None
        if ruleset is None:
            for r in rows:
                if r["type"] == "game_started":
                    started = inspect_row(r).payload  # already checked: parses
                    if isinstance(started, GameStarted):
                        ruleset = started.ruleset
                    break
        new_head = StreamHead(
            game_id=self.game_id, version=last["seq"],
            first_position=head.first_position if head is not None else next_position,
            last_position=rows[-1]["position"], last_hash=last["hash"], ruleset=ruleset,
        )
        result = AppendResult(self.game_id, first["seq"], last["seq"], next_position,
                              rows[-1]["position"], last["seq"], False)
        running = log.log_hash
        for r in rows:
            running = log_hash(running, r["position"], r["hash"])
        return AppendPlan(result, rows, new_head, LogHead(rows[-1]["position"], running))


@dataclass(frozen=True)
class CopyProgress:
    """Reported after each batch: events seen of ``total`` in the source, copied (new in the
    target) and skipped (already there); ``damaged``: one :class:`CorruptEvent` for each
    game whose copy stopped at a damaged source event so far (source position order)."""

    seen: int
    total: int
    copied: int
    skipped: int
    damaged: tuple[CorruptEvent, ...] = ()


def _checked_runs(source: EventStore, game_id: str, from_seq: int) -> Iterator[tuple[Row, ...]]:
    """The game's rows from ``from_seq`` on, checked (own hash, parse, dense seqs, links), in
    runs of at most :data:`COPY_BATCH`."""
    run: list[Row] = []
    expected_seq, prev = None, None
    for row in source.iter_raw(game_id):
        if row.get("seq", -1) < from_seq:
            prev, expected_seq = row.get("hash"), row.get("seq", -1) + 1
            continue
        inspect_row(row)  # raises CorruptEvent naming game, seq, position
        clean = {c: row[c] for c in COLUMNS}
        if expected_seq is not None and (clean["seq"] != expected_seq or clean["prev_hash"] != prev):
            raise CorruptEvent(game_id, clean["seq"], clean["position"],
                               f"the source chain is broken here (expected seq {expected_seq} linked to the previous hash)")
        expected_seq, prev = clean["seq"] + 1, clean["hash"]
        run.append(clean)
        if len(run) == COPY_BATCH:
            yield tuple(run)
            run = []
    if run:
        yield tuple(run)


def copy_log(
    source: EventStore,
    target: EventStore,
    *,
    games: Sequence[str] | None = None,
    progress: Callable[[CopyProgress], None] | None = None,
) -> CopyProgress:
    """Copy every game of ``source`` (or ``games``) into ``target``, keeping ids, seqs,
    ``recorded_at`` and hashes; resumable (see the module doc). Returns the final counts.

    A damaged source row stops its game's copy there and is returned in ``damaged``; the
    other games are copied (the caller reports the damage: ``paipu migrate`` exits 3).
    Raises :class:`IdempotencyConflict` when the target holds a different game under the
    same id, and the target's own errors (a damaged target is :class:`CorruptEvent` too);
    what was copied before stays."""
    heads = {h.game_id: h for h in source._stream_heads()} if games is None else None
    ids = list(heads) if heads is not None else list(games or [])
    total = sum(h.version + 1 for h in heads.values()) if heads is not None else sum(
        source.version(g) + 1 for g in ids)
    existing = {g.game_id: g.version for g in target.list_games()}
    seen = copied = skipped = 0
    damaged: list[CorruptEvent] = []
    for game_id in ids:
        done = existing.get(game_id, -1)
        source_version = source.version(game_id)
        if done >= 0:
            # Resume after the target's last event, if it is the same chain.
            target_head = target.stream_head(game_id)
            at = next((r for r in source.iter_raw(game_id) if r.get("seq") == done), None)
            if target_head is None or at is None or at.get("hash") != target_head.last_hash:
                raise IdempotencyConflict(
                    game_id, str(at.get("event_id") if at else "?"),
                    f"the target already has a game {game_id!r} whose chain differs from the source's",
                )
        skipped += min(done + 1, source_version + 1)
        seen += min(done + 1, source_version + 1)
        runs = _checked_runs(source, game_id, done + 1)
        while True:
            try:  # only the source's reading: a damaged target stops everything
                run = next(runs, None)
            except CorruptEvent as e:
                damaged.append(e)
                break
            if run is None:
                break
            target._check_open()
            result = target._append_batch(StoredBatch(game_id, run))
            seen += len(run)
            if result.duplicate:
                skipped += len(run)
            else:
                copied += len(run)
            if progress is not None:
                progress(CopyProgress(seen, total, copied, skipped, tuple(damaged)))
    final = CopyProgress(seen, total, copied, skipped, tuple(damaged))
    if progress is not None:
        progress(final)
    return final
