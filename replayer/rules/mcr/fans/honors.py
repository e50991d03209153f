"""Fans of wind and dragon pungs (风刻, 箭刻) and Pung of Terminals or Honors (幺九刻).

Winds are dense indices 27..30 (East South West North), dragons 31..33 (Red Green White).
A wind pung that scores Prevalent or Seat Wind, or belongs to three or four wind pungs, is not
also a Pung of Terminals or Honors (不重复原则, shared/rules/competition.md Part B2).
"""

from __future__ import annotations

from .base import ON_PUNGS, Fan, WinContext, codes, combo_count, combo_tiles, sets_where


def _winds(ctx: WinContext) -> list[int]:
    return [t for t in ctx.pungs if 27 <= t <= 30]


def _dragons(ctx: WinContext) -> list[int]:
    return [t for t in ctx.pungs if t >= 31]


def _terminal_or_honor_pungs(ctx: WinContext) -> int:
    """Pungs of 1/9 plus wind pungs that score nothing else."""
    if not ctx.pungs:
        return 0
    terminals = sum(1 for t in ctx.pungs if t < 27 and t % 9 in (0, 8))
    winds = _winds(ctx)
    if len(winds) >= 3:
        return terminals
    free = sum(1 for t in winds if t != ctx.seat_wind and t != ctx.prevalent_wind)
    return terminals + free


def _little_four_winds(ctx: WinContext) -> bool:
    return len(_winds(ctx)) == 3 and 27 <= ctx.pair <= 30


def _little_three_dragons(ctx: WinContext) -> bool:
    return len(_dragons(ctx)) == 2 and ctx.pair >= 31


_wind_sets = sets_where(lambda kind, tiles: kind != "chow" and 27 <= tiles[0] <= 30)
_dragon_sets = sets_where(lambda kind, tiles: kind != "chow" and tiles[0] >= 31)
def _to_sets(ctx: WinContext):
    """The sets 幺九刻 counts (:func:`_terminal_or_honor_pungs`): pungs of 1/9, and wind
    pungs only when they score no wind fan and are fewer than three; never dragons (箭刻)."""
    winds = _winds(ctx)
    out = []
    for kind, tiles in ctx.sets:
        t = tiles[0]
        if kind == "chow":
            continue
        if t < 27 and t % 9 in (0, 8):
            out.append(codes(tiles))
        elif 27 <= t <= 30 and len(winds) < 3 and t != ctx.seat_wind and t != ctx.prevalent_wind:
            out.append(codes(tiles))
    return tuple(out)


def _wind_on(attr: str):
    """Tiles of the pung of the prevalent (or seat) wind."""

    def on(ctx: WinContext):
        t = getattr(ctx, attr)
        return tuple(codes(tiles) for kind, tiles in ctx.sets if kind != "chow" and tiles[0] == t)

    return on


def _with_pair(sets_on):
    def on(ctx: WinContext):
        return sets_on(ctx) + ((codes((ctx.pair, ctx.pair)),) if ctx.pair >= 0 else ())

    return on


FANS = (
    Fan(1, "big_four_winds", "Big Four Winds", "大四喜", 88,
        combo_count("big_four_winds"), combo_tiles("big_four_winds"), combination=True,
        excludes=("big_three_winds", "little_four_winds", "all_pungs", "prevalent_wind", "seat_wind",
                  "pung_of_terminals_or_honors")),
    Fan(2, "big_three_dragons", "Big Three Dragons", "大三元", 88,
        combo_count("big_three_dragons"), combo_tiles("big_three_dragons"), combination=True,
        excludes=("two_dragons_pungs", "dragon_pung")),
    Fan(9, "little_four_winds", "Little Four Winds", "小四喜", 64,
        lambda c: int(_little_four_winds(c)), _with_pair(_wind_sets),
        excludes=("big_three_winds", "pung_of_terminals_or_honors"), reads=ON_PUNGS),
    Fan(10, "little_three_dragons", "Little Three Dragons", "小三元", 64,
        lambda c: int(_little_three_dragons(c)), _with_pair(_dragon_sets),
        excludes=("two_dragons_pungs", "dragon_pung"), reads=ON_PUNGS),
    Fan(38, "big_three_winds", "Big Three Winds", "三风刻", 12,
        combo_count("big_three_winds"), combo_tiles("big_three_winds"), combination=True),
    Fan(54, "two_dragons_pungs", "Two Dragons Pungs", "双箭刻", 6,
        combo_count("two_dragons_pungs"), combo_tiles("two_dragons_pungs"), excludes=("dragon_pung",),
        combination=True),
    Fan(59, "dragon_pung", "Dragon Pung", "箭刻", 2, lambda c: len(_dragons(c)), _dragon_sets, reads=ON_PUNGS),
    Fan(60, "prevalent_wind", "Prevalent Wind", "圈风刻", 2,
        lambda c: int(c.prevalent_wind in c.pungs),
        _wind_on("prevalent_wind"), reads=ON_PUNGS),
    Fan(61, "seat_wind", "Seat Wind", "门风刻", 2, lambda c: int(c.seat_wind in c.pungs),
        _wind_on("seat_wind"), reads=ON_PUNGS),
    Fan(73, "pung_of_terminals_or_honors", "Pung of Terminals or Honors", "幺九刻", 1,
        _terminal_or_honor_pungs, _to_sets, reads=ON_PUNGS),
)

