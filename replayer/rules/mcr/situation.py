"""The input and output of MCR fan scoring: one frozen win situation, one explained result.

The situation mirrors the schema of the shared MCR fan vectors (tests/data/mcr/README.md,
copied from shared/data/mcr/README.md), so a vector line, a replayed win and a hand typed
on the command line all become the same object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from replayer.explained import ScoreLine, Vec4

MeldType = Literal["chow", "pung", "kong"]
WindLetter = Literal["E", "S", "W", "N"]


@dataclass(frozen=True)
class Meld:
    """A declared set. ``claimed_from`` is relative to the owner: 1 = previous player (上家),
    2 = opposite (对家), 3 = next player (下家); None for a concealed kong.
    ``concealed`` is True only for a concealed kong (暗杠)."""

    type: MeldType
    tiles: tuple[str, ...]
    concealed: bool = False
    claimed_from: int | None = None
    claimed_tile: str | None = None


@dataclass(frozen=True)
class WinSituation:
    """A winning situation to score.

    ``hand``: concealed tiles *without* the winning tile (13 − 3 × len(melds) tiles).
    ``kong_related``: with ``self_drawn``, out on a kong replacement (杠上开花); without it,
    robbing a kong (抢杠和). ``last_tile``: 和绝张. ``last_of_wall``: 妙手回春 / 海底捞月.
    ``flowers``: number of flower tiles (1 point each, not counted toward the 8-fan minimum).
    """

    hand: tuple[str, ...]
    win_tile: str
    melds: tuple[Meld, ...] = ()
    self_drawn: bool = False
    last_tile: bool = False
    kong_related: bool = False
    last_of_wall: bool = False
    seat_wind: WindLetter = "E"
    prevalent_wind: WindLetter = "E"
    flowers: int = 0


@dataclass(frozen=True)
class FanItem:
    """One fan in a result: names, points for one instance, how often it counts, and the
    tiles (or sets) it was counted on."""

    name_en: str
    name_zh: str
    points: int
    count: int = 1
    tiles: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class FanResult:
    """The explained score of a win. ``total`` includes flowers; ``total_without_flowers``
    is what the 8-fan minimum (起和番) is checked against."""

    fans: tuple[FanItem, ...]
    total: int
    total_without_flowers: int
    is_win: bool = True
    error: str | None = None
    meets_minimum: bool = field(default=True)

    # the explained-score interface (replayer/explained.py)
    def lines(self) -> tuple[ScoreLine, ...]:
        """One line per fan: its MCR id (replayer/rules/mcr/fans/names.py), names, points
        of one instance, count and the tiles or sets it was counted on."""
        from replayer.rules.mcr.fans.names import fan_id

        return tuple(ScoreLine(fan_id(f.name_zh) or f.name_en, f.name_en, f.name_zh, points=f.points,
                               count=f.count, tiles=f.tiles) for f in self.fans)

    def excluded(self) -> tuple[ScoreLine, ...]:
        return ()  # the calculator applies 不计 without keeping the excluded fans

    def settlement_parts(self) -> tuple[tuple[str, Vec4], ...]:
        return ()
