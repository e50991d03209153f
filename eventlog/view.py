"""One seat's view of an event: what seat ``seat`` may see of it (docs/reference/DESIGN.md §6
replay, §8 "one seat's view"). Every reader that shows an event from one seat's side —
``paipu replay --seat`` (table, words, ``--json``), the stepper, the dashboard's replay page,
the gRPC replay service's ``GetState``/``StepThrough`` with ``seat`` (services/replay_service.py,
which converts the result to protobuf) — passes it through :func:`seat_view` first, so no
concealed tile of another seat leaks through the event line, its words or its payload. The
table after the event is withheld the same way, once, by ``replayer.view.seat_state_view``.

The rule is one, declared by the data: each payload class says what of it is private
(:attr:`eventlog.events.Payload.PRIVATE`, ``PRIVATE_METADATA`` and the hook
:meth:`~eventlog.events.Payload.withheld_from`), so a ruleset's own event type declares its
private fields the same way and needs nothing here. The core's declarations withhold from
another seat's events: the tiles dealt to it, the tile it draws (from the wall, after a kong,
for a flower), the tile of its concealed kong, the tiles of its lost claim; a ``hand_started``
loses its wall, seed and metadata for every seat (the wall order is nobody's to see).
Discards, claims and revealed tiles stay visible."""

from __future__ import annotations

import copy
from typing import Any, TypeVar

__all__ = ["seat_view"]

_E = TypeVar("_E")


def seat_view(event: _E, seat: int | None) -> _E:
    """``event`` (a stored or new event, core or a ruleset's type) as seat ``seat`` (0..3)
    sees it: the same object when nothing is hidden from it or ``seat`` is None (all hands
    shown), else a copy whose payload fields withheld from ``seat`` hold the value declared
    in their place (``tile`` None, ``tiles`` ``[]``; the payload's ``withheld_from(seat)``)
    and, where the payload class says so, whose ``metadata`` is ``{}``. The hash fields are
    kept as they were: the copy is for showing, never for storing."""
    if seat is None:
        return event
    e: Any = event
    p = e.payload
    withheld = p.withheld_from(seat)
    if not withheld:
        return event
    metadata = type(p).PRIVATE_METADATA and bool(getattr(e, "metadata", None))
    if not metadata and all(getattr(p, name) == shown for name, shown in withheld.items()):
        return event  # nothing there to hide (e.g. a draw the source already hid)
    payload = p.model_copy(update={name: copy.copy(shown) for name, shown in withheld.items()})
    update: dict[str, Any] = {"payload": payload}
    if metadata:
        update["metadata"] = {}
    return e.model_copy(update=update)
