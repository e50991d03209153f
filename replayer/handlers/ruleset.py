"""Table events of one ruleset (docs/events.md "Table events of one ruleset": opening wins
declared, kong tiles revealed, last tile declined, birds turned …): each is handed to the
game's ruleset, which declares the types it plays in ``event_handlers`` (type → handler with the
core's handler signature, replayer/context.py ``Handler``). A ruleset that does not play the
type gets an ``event_not_in_ruleset`` finding and the state is unchanged."""

from __future__ import annotations

from typing import Any

from replayer.context import Ctx, need_game
from replayer.state import TableState

__all__ = ["RULESET_EVENT_TYPES", "ruleset_event"]

#: The event types the core hands to the ruleset.
RULESET_EVENT_TYPES: tuple[str, ...] = (
    "opening_wins_declared", "kong_tiles_revealed", "last_tile_declined", "birds_turned",
)


def ruleset_event(ctx: Ctx, state: TableState, p: Any) -> TableState:
    if not need_game(ctx, state):
        return state
    handler = ctx.ruleset.event_handlers.get(p.TYPE)
    if handler is None:
        ctx.breach("event_not_in_ruleset", f"{p.TYPE} is not an event of ruleset {ctx.ruleset.id!r}")
        return state
    return handler(ctx, state, p)
