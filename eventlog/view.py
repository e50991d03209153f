"""One seat's view of an event: what seat ``seat`` may see of it (DESIGN.md §6, replay with a
seat view). Every reader that shows an event from one seat's side — ``paipu replay --seat``
(table, words, ``--json``), the stepper, the dashboard's replay page — passes it through
:func:`seat_view` first, so no concealed tile of another seat leaks through the event line,
its words or its payload.

Withheld from another seat's events: the tiles dealt to it, the tile it draws (from the wall,
after a kong, for a flower), the tile of its concealed kong, the tiles of its lost claim; a
``hand_started`` loses its wall, seed and metadata (the wall order is nobody's to see).
Discards, claims and revealed tiles stay visible. Same rules as the gRPC replay service's
seat view (services/replay_service.py)."""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["seat_view"]

_E = TypeVar("_E")


def _hidden_update(event: Any, seat: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(payload fields to clear, envelope fields to clear), or None when nothing is hidden."""
    t = event.type
    p = event.payload
    other = getattr(p, "seat", seat) != seat
    if t == "tiles_dealt" and other and p.tiles:
        return {"tiles": []}, {}
    if t == "tile_drawn" and other and p.tile is not None:
        return {"tile": None}, {}
    if t == "hand_started" and (p.wall or p.seed is not None or event.metadata):
        return {"wall": [], "seed": None}, {"metadata": {}}
    if t == "kong" and other and p.kind == "concealed" and p.tile is not None:
        return {"tile": None}, {}
    if t == "pass" and other and p.tiles:
        return {"tiles": []}, {}
    return None


def seat_view(event: _E, seat: int | None) -> _E:
    """``event`` (a stored or new event) as seat ``seat`` (0..3) sees it: the same event when
    nothing is hidden or ``seat`` is None (all hands shown), else a copy with another seat's
    concealed tiles removed (``tile`` None, ``tiles`` empty; see the module doc). The hash
    fields are kept as they were: the copy is for showing, never for storing."""
    if seat is None:
        return event
    upd = _hidden_update(event, seat)
    if upd is None:
        return event
    payload_upd, env_upd = upd
    p = event.payload  # type: ignore[attr-defined]
    return event.model_copy(update={"payload": p.model_copy(update=payload_upd), **env_upd})  # type: ignore[attr-defined]
