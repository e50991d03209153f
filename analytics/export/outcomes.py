"""What reading and replaying one game for the export gave: a typed value.

:func:`game_outcome` reads a game up to a log position through the store's checked read
path (own hashes, dense seqs, ``prev_hash`` links) and replays it
(:func:`analytics.facts.game_facts`). It never raises for one bad game: a game the log
cannot serve intact is :attr:`Outcome.DAMAGED`, one the replayer refuses is
:attr:`Outcome.SKIPPED`, both with the reason — so the other games are still exported.
Outcomes are picklable (they cross process and cluster boundaries).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from analytics.facts import FactsCollector, GameFacts, game_facts
from eventlog.events import StoredEvent
from eventlog.store.base import EventStore
from eventlog.store.errors import CorruptEvent, GameNotFound
from eventlog.verify import verify_game_events
from replayer.audit import AuditCollector, unplayable_audit
from replayer.findings import RulesetError
from replayer.replay import replay_steps

__all__ = ["Outcome", "GameOutcome", "game_outcome", "game_outcome_upto", "verified_outcome"]


class Outcome(enum.Enum):
    OK = "ok"  # finished and replayed: ``facts``
    UNFINISHED = "unfinished"  # no game_ended yet
    SKIPPED = "skipped"  # the replayer refused it: ``reason``
    DAMAGED = "damaged"  # the log cannot serve it intact: ``reason``
    EMPTY = "empty"  # no events up to the position


@dataclass(frozen=True)
class GameOutcome:
    """One game's outcome. ``last_position``: the position of its last event read (0 when
    none); ``facts`` for :attr:`Outcome.OK`; ``reason`` for SKIPPED and DAMAGED;
    ``verdict``: ``(ChainReport, GameAudit | None)`` from :func:`verified_outcome`."""

    game_id: str
    kind: Outcome
    last_position: int = 0
    facts: GameFacts | None = None
    reason: str = ""
    verdict: Any = None


def _game_events(store: EventStore, game_id: str, head: int) -> list[StoredEvent]:
    """The game's events up to log position ``head``, in seq order, checked."""
    out = []
    for event in store.read_game(game_id):
        if event.position > head:
            break
        out.append(event)
    return out


def game_outcome(store: EventStore, game_id: str, head: int) -> GameOutcome:
    """Read and replay one game up to ``head`` (see the module doc)."""
    try:
        events = _game_events(store, game_id, head)
    except (CorruptEvent, GameNotFound) as e:  # the data-loss family: a bad row, a hole, a lost tail
        return GameOutcome(game_id, Outcome.DAMAGED, 0, None, str(e))
    if not events:
        return GameOutcome(game_id, Outcome.EMPTY)
    last = events[-1].position
    try:
        facts = game_facts(events)
    except RulesetError as e:
        return GameOutcome(game_id, Outcome.SKIPPED, last, None, str(e))
    if facts is None:
        return GameOutcome(game_id, Outcome.UNFINISHED, last)
    return GameOutcome(game_id, Outcome.OK, last, facts)


def game_outcome_upto(head: int, store: EventStore, game_id: str) -> GameOutcome:
    """:func:`game_outcome` with the position first (for ``functools.partial`` in
    :func:`eventlog.parallel.map_games`)."""
    return game_outcome(store, game_id, head)


def verified_outcome(head: int, store: EventStore, game_id: str) -> GameOutcome:
    """What ``paipu verify --export`` needs of one game from a single read and a single
    replay: the chain check (:func:`eventlog.verify.verify_game_events`, every row
    inspected once), the audit (:class:`replayer.audit.AuditCollector`) and the export's facts
    (:class:`analytics.facts.FactsCollector`) from the same audit-mode replay — the
    :class:`GameOutcome` of :func:`game_outcome` with ``verdict`` set. A broken chain is
    :attr:`Outcome.DAMAGED` (not replayed)."""
    chain, events = verify_game_events(store, game_id)
    if events is None:
        return GameOutcome(game_id, Outcome.DAMAGED, 0, None, chain.reason, (chain, None))
    upto = [e for e in events if e.position <= head]
    whole = len(upto) == len(events)  # events appended after the export's head are not the export's
    audit_of = AuditCollector()
    facts_of = FactsCollector.start(upto) if whole else None
    try:
        for e, state, found in replay_steps(events, mode="audit"):  # one replay: the audit and the facts
            audit_of.take(e, state, found)
            if facts_of is not None:
                facts_of.take(e, state, found)
    except RulesetError as e:  # reported as the audit's finding naming the event (paipu verify: exit 1)
        audit = unplayable_audit(audit_of, events[min(audit_of.events, len(events) - 1)], e)
        return GameOutcome(game_id, Outcome.SKIPPED, events[-1].position if events else 0, None, str(e),
                           (chain, audit))
    audit = audit_of.result()
    if not upto:
        return GameOutcome(game_id, Outcome.EMPTY, verdict=(chain, audit))
    last = upto[-1].position
    try:  # a game with later events: its facts are those of the events up to the head
        facts = game_facts(upto) if not whole else facts_of.result() if facts_of is not None else None
    except RulesetError as e:
        return GameOutcome(game_id, Outcome.SKIPPED, last, None, str(e), (chain, audit))
    if facts is None:
        return GameOutcome(game_id, Outcome.UNFINISHED, last, verdict=(chain, audit))
    return GameOutcome(game_id, Outcome.OK, last, facts, verdict=(chain, audit))
