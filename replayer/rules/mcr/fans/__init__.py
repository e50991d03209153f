"""The MCR fan table: 81 fans plus the extra 明暗杠, one record each, in the reference's table
order (tests/data/mcr/README.md), and ``score``.

    >>> from replayer.rules.mcr.situation import WinSituation
    >>> from replayer.rules.mcr.fans import score
    >>> r = score(WinSituation(hand=tuple("W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9".split()), win_tile="W5"))
    >>> [(f.name_en, f.count) for f in r.fans], r.total
    ([('Nine Gates', 1), ('Two Concealed Pungs', 1), ('Pung of Terminals or Honors', 1)], 91)

Modules: :mod:`.chows`, :mod:`.pungs`, :mod:`.honors`, :mod:`.composition`, :mod:`.shapes`,
:mod:`.waits`, :mod:`.misc` hold the records; :mod:`.combine` applies the combination
principles to sets; :mod:`.context` turns a situation into readings; :mod:`.calculator`
scores them. Interpretations: :class:`replayer.rules.mcr.options.McrOptions`.
"""

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

from .calculator import McrInputError, score  # noqa: E402  (needs FANS above)

__all__ = ["FANS", "FAN_BY_ID", "Fan", "WinContext", "McrInputError", "score"]
