"""Hash-chain verification of stored games (shared/DESIGN.md §4 ``prev_hash``/``hash``,
§5 "Verification").

For each game, reading the store's raw rows (:meth:`EventStore.iter_raw`, which trusts
nothing) in position order, every row must:

1. carry the next seq (0, 1, 2 … dense, in commit order);
2. link to the previous row: ``prev_hash`` = the previous row's ``hash``
   (:data:`~eventlog.events.GENESIS_HASH` for seq 0);
3. match its own hash (:func:`~eventlog.events.chain_hash` over the row as stored) and
   still parse as a :class:`~eventlog.events.StoredEvent`
   (:func:`eventlog.store.rows.inspect_row`);

and the chain must end where the store's stream record says (version and last hash),
so a truncated tail or a re-hashed last event is caught too. The rest of the record must
be what the events say: its first and last positions those of seq 0 and of the last
event, its ruleset the one the first ``game_started`` names (a record edited behind the
store's back — its triggers dropped — is named, not served as the game's extent or
ruleset). The first failure is reported with its seq and why; verification never raises
on bad data.

The log as a whole (:func:`verify_log`): walking every stored row by position, its link
columns only (:meth:`EventStore.iter_log_links`; each game's
run of seqs and links checked again as the table holds the rows — a game's rows are found
through an index that can hide a damaged row), the positions must be dense from 1 and the
running log hash
(:func:`eventlog.hashing.log_hash`) must end at the log head the store recorded and at
its checkpoint (SQLite: the ``events.sqlite-checkpoint`` file written after each commit),
so a lost WAL tail, a deleted game (rows and stream record) or a removed row is named.
Games are found from the events themselves, not only from the stream records.

Replaying the games (the other half of ``paipu verify``) is the replayer's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from eventlog.events import StoredEvent
from eventlog.hashing import GENESIS_HASH, log_hash
from eventlog.store.base import EventStore
from eventlog.store.errors import CorruptDatabase, CorruptEvent, GameNotFound
from eventlog.store.rows import inspect_run, inspect_values
from eventlog.store.types import COLUMNS

__all__ = ["ChainReport", "LogReport", "verify_game", "verify_game_events", "verify_all", "verify_log"]


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


def verify_game(store: EventStore, game_id: str, *, listed: bool = False) -> ChainReport:
    """Check one game's chain (see the module doc). Raises :class:`GameNotFound` only
    when the store has neither rows nor a stream record for ``game_id`` — unless ``listed``
    (the id came from the store itself, :meth:`EventStore.raw_game_ids`): then a game the
    store lists but cannot find by its id (a damaged record or index) is a failed report."""
    return verify_game_events(store, game_id, listed=listed)[0]


def verify_game_events(
    store: EventStore, game_id: str, *, listed: bool = False
) -> tuple[ChainReport, list[StoredEvent] | None]:
    """:func:`verify_game`, and the game's events as the check read them (each row
    inspected once: :func:`~eventlog.store.rows.inspect_run`) when the chain is intact,
    else None — so ``paipu verify`` replays what it checked without reading it twice."""
    rows: list[tuple] = []
    damaged: CorruptDatabase | None = None
    head = None
    try:
        head = store.stream_head(game_id)
        rows.extend(store.iter_raw_values(game_id))  # tuples in COLUMNS order
    except CorruptDatabase as e:  # the database cannot read its own file there
        damaged = e
    count = len(rows)
    events: list[StoredEvent] = []
    checked, bad = _check_rows(rows, game_id, events)
    expected_seq = checked
    prev_hash: object = rows[checked - 1][_HASH] if checked else GENESIS_HASH
    if damaged is not None:
        return ChainReport(game_id, False, count, expected_seq if bad is None else bad[0], damaged.reason), None
    first_position = rows[0][_POSITION] if checked else None
    last_position = rows[checked - 1][_POSITION] if checked else None
    ruleset = next((_ruleset_of(row[_PAYLOAD]) for row in rows[:checked] if row[_TYPE] == "game_started"), None)
    if count == 0 and head is None:
        if listed:
            return ChainReport(game_id, False, 0, 0, "the store lists this game but finds neither its events "
                                                     "nor its stream record by its id (a damaged record or index)"), None
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
        elif (head.first_position, head.last_position) != (first_position, last_position):
            bad = (
                0 if head.first_position != first_position else last_seq,
                f"the stream record says positions {head.first_position}..{head.last_position}, "
                f"the events are at {first_position}..{last_position} (the record was edited)",
            )
        elif head.ruleset != ruleset:
            bad = (
                0,
                f"the stream record says ruleset {head.ruleset!r}, the game's first game_started "
                f"says {ruleset!r} (the record was edited)",
            )
    if bad is None:
        return ChainReport(game_id, True, count, None, ""), events
    return ChainReport(game_id, False, count, bad[0], bad[1]), None


_POSITION, _GAME_ID, _SEQ, _TYPE, _PAYLOAD, _PREV_HASH, _HASH = (
    COLUMNS.index(c) for c in ("position", "game_id", "seq", "type", "payload", "prev_hash", "hash"))


def _check_rows(rows: list[tuple], game_id: str, events: list[StoredEvent]) -> tuple[int, tuple[int, str] | None]:
    """Check a game's rows in order (seq, link, own hash, parse) up to the first bad one,
    appending the events of the good ones to ``events``: the common rows in one loop
    (:func:`~eventlog.store.rows.inspect_run`), any other one by :func:`_row_problem`. Returns
    how many rows were checked (the bad one included) and the first problem (seq, why)."""
    i = 0
    while i < len(rows):
        prev_hash = rows[i - 1][_HASH] if i else GENESIS_HASH
        if type(prev_hash) is str:
            i = inspect_run(rows, i, game_id, i, prev_hash, events)
            if i == len(rows):
                break
            prev_hash = rows[i - 1][_HASH] if i else GENESIS_HASH
        bad = _row_problem(rows[i], game_id, i, prev_hash, events)
        i += 1
        if bad is not None:
            return i, bad
    return i, None


def _row_problem(
    row: tuple, game_id: str, expected_seq: int, prev_hash: object, events: list[StoredEvent]
) -> tuple[int, str] | None:
    position = row[_POSITION]
    if row[_GAME_ID] != game_id:
        return (expected_seq, f"position {position} was found for this game but holds game {row[_GAME_ID]!r}")
    if row[_SEQ] != expected_seq:
        return (
            expected_seq,
            f"position {position} holds seq {row[_SEQ]!r} where seq {expected_seq} "
            "was expected (seqs must be dense, in commit order)",
        )
    if row[_PREV_HASH] != prev_hash:
        which = "the genesis hash" if expected_seq == 0 else f"the hash of seq {expected_seq - 1}"
        return (expected_seq, f"prev_hash does not link to {which}")
    try:
        events.append(inspect_values(row))
    except CorruptEvent as e:
        return (expected_seq, e.reason)
    return None


class _GameRuns:
    """Each game's run of rows in a walk of the whole log from position 1: it must start at
    seq 0 from the genesis hash and go on seq by seq, each ``prev_hash`` the previous row's
    ``hash``. No hashing (the game checks re-hash every row); what it adds is that the rows
    are taken as the table holds them, while a game's rows are found through the
    ``(game_id, seq)`` index, which holds its own copy of both: a row whose game id or seq
    was damaged in the table alone looks intact to the game check."""

    def __init__(self) -> None:
        self.frontier: dict[object, tuple[object, object]] = {}  # game -> (seq, hash) of its last row

    def check(self, pos: object, gid: object, seq: object, prev_hash: object, hash_: object) -> str | None:
        """A row by its link columns (:data:`~eventlog.store.base.LINK_COLUMNS`)."""
        seen = self.frontier.get(gid)
        self.frontier[gid] = (seq, hash_)
        want_seq, want_link = (0, GENESIS_HASH) if seen is None else (seen[0] + 1 if isinstance(seen[0], int)
                                                                      else None, seen[1])
        if seq != want_seq:
            return f"position {pos}: game {gid!r} seq {seq!r} where seq {want_seq} comes next in the log"
        if prev_hash != want_link:
            return f"position {pos}: game {gid!r} seq {seq!r} does not link to the game's previous event"
        return None


def _ruleset_of(payload_text: object) -> object:
    """The ``ruleset`` a stored ``game_started`` row's payload text names (what the store
    records for the stream, :mod:`eventlog.store.planning`), or None when it does not say."""
    try:
        payload = json.loads(payload_text or "")  # type: ignore[arg-type]  # anything stored: TypeError caught
    except (TypeError, ValueError, RecursionError):
        return None
    return payload.get("ruleset") if isinstance(payload, dict) else None


def verify_all(store: EventStore) -> list[ChainReport]:
    """:func:`verify_game` for every game the store has rows or a stream record for,
    ordered by first position."""
    return [verify_game(store, g, listed=True) for g in store.raw_game_ids()]


@dataclass(frozen=True)
class LogReport:
    """The verdict on the whole log: ``events`` rows walked, ``head`` the position the
    store recorded, ``checkpoint`` the checkpoint's position (None: the backend keeps
    none), ``problems`` in words (empty when ``ok``)."""

    ok: bool
    events: int
    head: int
    checkpoint: int | None
    problems: tuple[str, ...]


def verify_log(store: EventStore) -> LogReport:
    """Walk every stored row by position (see the module doc); never raises on bad data."""
    problems: list[str] = []
    expected = 1
    running = GENESIS_HASH
    count = 0
    ck = store.checkpoint()
    at_ck = GENESIS_HASH if ck is not None and ck.position == 0 else None
    links = _GameRuns()
    try:
        for pos, gid, seq, prev_hash, hash_ in store.iter_log_links():  # the link columns only
            count += 1
            if pos != expected and len(problems) < 5:
                problems.append(f"position {expected} is missing (the next stored event is at position {pos!r})")
            problem = links.check(pos, gid, seq, prev_hash, hash_)  # as the table holds it: the game reads go through an index
            if problem is not None and len(problems) < 5:
                problems.append(problem)
            if isinstance(pos, int):
                expected = pos + 1
                running = log_hash(running, pos, str(hash_))
                if ck is not None and pos == ck.position:
                    at_ck = running
        head = store.log_head()
    except CorruptDatabase as e:
        problems.append(f"DATA LOSS: the database cannot read the log after position {expected - 1} ({e.reason})")
        return LogReport(False, count, expected - 1, ck.position if ck is not None else None, tuple(problems))
    last = expected - 1
    if head.position > last:
        problems.append(
            f"positions {last + 1}..{head.position} are missing: the log's recorded head is "
            f"position {head.position}, the stored events stop at {last}"
        )
    elif head.position < last:
        problems.append(f"the log's recorded head is position {head.position}, but events go up to {last}")
    elif head.log_hash != running:
        problems.append("the log's running hash differs from the one recorded at commit "
                        "(events or whole games were removed, added or rewritten)")
    if ck is not None:
        if ck.position > last:
            problems.append(
                f"DATA LOSS: the checkpoint records {ck.position} committed events, the log ends at "
                f"position {last}: positions {last + 1}..{ck.position} are lost (a damaged write-ahead log?)"
            )
        elif ck.log_hash != at_ck:
            problems.append(f"DATA LOSS: the log's running hash at position {ck.position} differs from "
                            "its checkpoint (events or whole games were removed or rewritten)")
    return LogReport(not problems, count, head.position, ck.position if ck is not None else None, tuple(problems))
