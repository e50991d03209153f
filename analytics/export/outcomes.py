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

from analytics.facts import GameFacts, game_facts
from eventlog.events import StoredEvent
from eventlog.store.base import EventStore
from eventlog.store.errors import CorruptEvent, GameNotFound
from replayer.findings import RulesetError

__all__ = ["Outcome", "GameOutcome", "game_outcome"]


class Outcome(enum.Enum):
    OK = "ok"  # finished and replayed: ``facts``
    UNFINISHED = "unfinished"  # no game_ended yet
    SKIPPED = "skipped"  # the replayer refused it: ``reason``
    DAMAGED = "damaged"  # the log cannot serve it intact: ``reason``
    EMPTY = "empty"  # no events up to the position


@dataclass(frozen=True)
class GameOutcome:
    """One game's outcome. ``last_position``: the position of its last event read (0 when
    none); ``facts`` for :attr:`Outcome.OK`; ``reason`` for SKIPPED and DAMAGED."""

    game_id: str
    kind: Outcome
    last_position: int = 0
    facts: GameFacts | None = None
    reason: str = ""


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
