"""An explained score: what a ruleset says a win is worth, item by item, in one small
interface every reader shares (audit, export, CLI, dashboard, simulator) without knowing the
ruleset.

A ruleset's explained score (``WinScore.explained``, kept in ``WinRecord.score``) is any
object with the three methods of :class:`ExplainedScore`; each item is a
:class:`ScoreLine`. MCR lists its fans (番种), Nanchang its shape and conditions, Changsha
its units, Sichuan its pattern, 根 and additions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

__all__ = ["ScoreLine", "ExplainedScore", "Vec4", "payment_steps"]

Vec4 = tuple[int, int, int, int]


@dataclass(frozen=True)
class ScoreLine:
    """One item of an explained score.

    ``id``: the ruleset's stable id of the item (an MCR fan id, ``deguo``, ``qingyise`` …);
    ``name_en`` / ``name_zh``: its names as in the ruleset's rules; ``points``: what one
    instance adds (fan points, units, fan of a doubling ruleset) — or ``factor``: what it
    multiplies by (×2); ``count``: how many times it counts; ``tiles``: the tiles it was
    counted on, one group per set or instance (empty for a condition of the win);
    ``provisional``: the value is one the rules text marks unconfirmed (e.g. the pattern
    values of the chip format, docs/reference/rules/competition.md §A6.2) — every view of
    the score says so."""

    id: str
    name_en: str
    name_zh: str
    points: int | None = None
    factor: int | None = None
    count: int = 1
    tiles: tuple[tuple[str, ...], ...] = ()
    provisional: bool = False

    @property
    def note(self) -> str:
        """`` (provisional)`` for a provisional value, else ``""`` — what views print after it."""
        return " (provisional)" if self.provisional else ""

    @property
    def value(self) -> int | None:
        """``points``, else ``factor``: the number shown beside the item."""
        return self.points if self.points is not None else self.factor


@runtime_checkable
class ExplainedScore(Protocol):
    """The common interface of every ruleset's explained score."""

    def lines(self) -> tuple[ScoreLine, ...]:
        """The items that count, in the ruleset's order."""
        ...

    def excluded(self) -> tuple[ScoreLine, ...]:
        """Items the hand has but that do not count (MCR 不计原则); () when none."""
        ...

    def settlement_parts(self) -> tuple[tuple[str, Vec4], ...]:
        """The win's settlement split by component (``("jing", changes per seat)`` …), when
        the ruleset settles in components; () otherwise."""
        ...


def payment_steps(score: object) -> tuple[str, ...]:
    """How an explained score's total becomes what each payer pays, step by step in words
    (a cap 封顶, a base 底金 and its doubling, a self-draw bonus 加底 …), when the ruleset's
    explained score says (an optional ``payment_steps()`` method beside the three of
    :class:`ExplainedScore`); () otherwise — the total is then the payment's own unit."""
    steps = getattr(score, "payment_steps", None)
    return tuple(steps()) if callable(steps) else ()
