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

from .base import Fan, WinContext
from .calculator import McrInputError, score
from .registry import FAN_BY_ID, FANS

__all__ = ["FANS", "FAN_BY_ID", "Fan", "WinContext", "McrInputError", "score"]
