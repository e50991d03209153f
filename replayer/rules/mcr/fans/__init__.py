"""The MCR fan table: 81 fans plus the extra 明暗杠, one record each, in the reference's table
order (tests/data/mcr/README.md). ``score`` is in :mod:`.calculator`."""

from __future__ import annotations

from . import chows, composition, honors, misc, pungs, shapes, waits
from .base import Fan, WinContext

FANS: tuple[Fan, ...] = tuple(
    sorted(
        chows.FANS + composition.FANS + honors.FANS + misc.FANS + pungs.FANS + shapes.FANS + waits.FANS,
        key=lambda f: f.number,
    )
)
FAN_BY_ID: dict[str, Fan] = {f.id: f for f in FANS}

assert [f.number for f in FANS] == list(range(1, 83)), "fan table must hold rows 1..82 once each"
for _fan in FANS:
    for _ex in _fan.excludes:
        assert (_ex if isinstance(_ex, str) else _ex[0]) in FAN_BY_ID, f"{_fan.id} excludes unknown {_ex}"

__all__ = ["FANS", "FAN_BY_ID", "Fan", "WinContext"]
