"""One handler per event type (DESIGN.md §6), dispatched by type: ``HANDLERS[event.type]``.

A handler takes the event's :class:`~replayer.context.Ctx`, the state before the event and
the payload, and returns the state after it; breaches go to the context. There is no
catch-all: the import fails unless every event type of ``eventlog.events`` has exactly one
handler.
"""

from __future__ import annotations

from eventlog import events as ev
from replayer.context import Handler
from replayer.handlers.boundaries import (
    game_ended,
    game_started,
    hand_ended,
    hand_started,
)
from replayer.handlers.claims import chow, kong, pass_, pung
from replayer.handlers.ruleset import RULESET_EVENT_TYPES, ruleset_event
from replayer.handlers.scores import penalty, player_aliased, referee_ruling, score_reported
from replayer.handlers.tiles import (
    flower_replaced,
    tile_discarded,
    tile_drawn,
    tiles_dealt,
    wildcard_indicator_revealed,
)
from replayer.handlers.wins import exhaustive_draw, win_declared

__all__ = ["HANDLERS"]

HANDLERS: dict[str, Handler] = {
    "game_started": game_started,
    "hand_started": hand_started,
    "tiles_dealt": tiles_dealt,
    "wildcard_indicator_revealed": wildcard_indicator_revealed,
    "flower_replaced": flower_replaced,
    "tile_drawn": tile_drawn,
    "tile_discarded": tile_discarded,
    "chow": chow,
    "pung": pung,
    "kong": kong,
    "pass": pass_,
    "win_declared": win_declared,
    "exhaustive_draw": exhaustive_draw,
    "score_reported": score_reported,
    "penalty": penalty,
    "referee_ruling": referee_ruling,
    "hand_ended": hand_ended,
    "game_ended": game_ended,
    "player_aliased": player_aliased,
    **{t: ruleset_event for t in RULESET_EVENT_TYPES},
}
if set(HANDLERS) != set(ev.EVENT_TYPES):  # one handler per event type, no catch-all
    raise ImportError(f"replayer handlers out of step with event types: "
                      f"{sorted(set(HANDLERS) ^ set(ev.EVENT_TYPES))}")
