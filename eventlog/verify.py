"""Hash-chain verification of stored games (shared/DESIGN.md §4 ``prev_hash``/``hash``,
§5 "Verification").

For each game, reading the store's raw rows (:meth:`EventStore.iter_raw`, which trusts
nothing) in position order, every row must:

1. carry the next seq (0, 1, 2 … dense, in commit order);
2. link to the previous row: ``prev_hash`` = the previous row's ``hash``
   (:data:`~eventlog.events.GENESIS_HASH` for seq 0);
3. match its own hash (:func:`~eventlog.events.chain_hash` over the row as stored) and
   still parse as a :class:`~eventlog.events.StoredEvent`
   (:func:`eventlog.store.base.inspect_row`);

and the chain must end where the store's stream record says (version and last hash),
so a truncated tail or a re-hashed last event is caught too. The first failure is
reported with its seq and why; verification never raises on bad data.

Replaying the games (the other half of ``paipu verify``) is the replayer's.
"""

from __future__ import annotations

from dataclasses import dataclass

from eventlog.events import GENESIS_HASH
from eventlog.store.base import CorruptEvent, EventStore, GameNotFound, inspect_row

__all__ = ["ChainReport", "verify_game", "verify_all"]


@dataclass(frozen=True)
class ChainReport:
    """The verdict on one game's chain.

    ``events``: rows stored for the game. ``first_bad_seq``: the seq where the chain
    first fails (None when ``ok``); for missing trailing events it is the first missing
    seq. ``reason``: why, in words ("" when ``ok``)."""

    game_id: str
    ok: bool
    events: int
    first_bad_seq: int | None
    reason: str


def verify_game(store: EventStore, game_id: str) -> ChainReport:
    """Check one game's chain (see the module doc). Raises :class:`GameNotFound` only
    when the store has neither rows nor a stream record for ``game_id``."""
    head = store.stream_head(game_id)
    count = 0
    expected_seq = 0
    prev_hash = GENESIS_HASH
    bad: tuple[int, str] | None = None
    for row in store.iter_raw(game_id):
        count += 1
        if bad is not None:
            continue
        bad = _row_problem(row, expected_seq, prev_hash)
        prev_hash = row.get("hash")
        expected_seq += 1
    if count == 0 and head is None:
        raise GameNotFound(game_id)
    if bad is None:
        last_seq = expected_seq - 1
        if head is None:
            bad = (last_seq, "the store has events but no stream record for this game")
        elif head.version > last_seq:
            bad = (
                last_seq + 1,
                f"events missing: the stream record says version {head.version}, "
                f"the last stored seq is {last_seq}",
            )
        elif head.version < last_seq:
            bad = (
                head.version + 1,
                f"the stream record says version {head.version}, but seqs go up to {last_seq}",
            )
        elif head.last_hash != prev_hash:
            bad = (
                last_seq,
                "the last event's hash differs from the one recorded at commit "
                "(the event was rewritten and re-hashed)",
            )
    if bad is None:
        return ChainReport(game_id, True, count, None, "")
    return ChainReport(game_id, False, count, bad[0], bad[1])


def _row_problem(row: dict, expected_seq: int, prev_hash: object) -> tuple[int, str] | None:
    position = row.get("position")
    if row.get("seq") != expected_seq:
        return (
            expected_seq,
            f"position {position} holds seq {row.get('seq')!r} where seq {expected_seq} "
            "was expected (seqs must be dense, in commit order)",
        )
    if row.get("prev_hash") != prev_hash:
        which = "the genesis hash" if expected_seq == 0 else f"the hash of seq {expected_seq - 1}"
        return (expected_seq, f"prev_hash does not link to {which}")
    try:
        inspect_row(row)
    except CorruptEvent as e:
        return (expected_seq, e.reason)
    return None


def verify_all(store: EventStore) -> list[ChainReport]:
    """:func:`verify_game` for every game the store has rows or a stream record for,
    ordered by first position."""
    return [verify_game(store, g) for g in store.raw_game_ids()]
