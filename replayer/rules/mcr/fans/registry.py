"""The MCR fan table as one tuple: every fan record of the category modules, in the
reference's table order (rows 1..82 once each), and the records by id."""

from __future__ import annotations

from .chows import FANS as _chows
from .composition import FANS as _composition
from .honors import FANS as _honors
from .misc import FANS as _misc
from .pungs import FANS as _pungs
from .shapes import FANS as _shapes
from .waits import FANS as _waits
from .base import Fan

FANS: tuple[Fan, ...] = tuple(
    sorted(
        _chows + _composition + _honors + _misc + _pungs + _shapes + _waits,
        key=lambda f: f.number,
    )
)
FAN_BY_ID: dict[str, Fan] = {f.id: f for f in FANS}

assert [f.number for f in FANS] == list(range(1, 83)), "fan table must hold rows 1..82 once each"
for _fan in FANS:
    for _ex in _fan.excludes:
        assert (_ex if isinstance(_ex, str) else _ex[0]) in FAN_BY_ID, f"{_fan.id} excludes unknown {_ex}"

__all__ = ["FANS", "FAN_BY_ID"]
