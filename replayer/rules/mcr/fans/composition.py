"""Fans about what the hand is made of: suits, honors, terminals, rank ranges, and fans that
every set and the pair must satisfy (全带幺, 全带五, 全双刻, 平和).

Tile-kind properties come from :func:`.base.facts_of` (memoised per set of kinds).
Source: shared/rules/competition.md Part B3.
"""

from __future__ import annotations

from dataclasses import replace

from .base import ON_PUNGS, ON_TILES, Fan, WinContext, all_tiles

_SETS_AND_PAIR = ("regular",)
_PUNG_SHAPES = ("regular", "seven_pairs")  # 由刻子(杠)、将组成: the pure-tile hands need sets or pairs


# chows by their lowest tile, pungs and pairs by their tile
_TERMINAL_CHOWS = frozenset(t for t in range(27) if t % 9 in (0, 6))  # 123, 789
_TERMINAL_OR_HONOR = frozenset(t for t in range(34) if t >= 27 or t % 9 in (0, 8))
_FIVE_CHOWS = frozenset(t for t in range(27) if t % 9 in (2, 3, 4))  # 345, 456, 567
_FIVES = frozenset(t for t in range(27) if t % 9 == 4)


def _outside(ctx: WinContext) -> bool:
    """全带幺: each set and the pair holds a terminal or an honor."""
    return (
        ctx.shape == "regular" and not ctx.facts.all_simples and ctx.pair in _TERMINAL_OR_HONOR
        and _TERMINAL_CHOWS.issuperset(ctx.chows) and _TERMINAL_OR_HONOR.issuperset(ctx.pungs)
    )


def _all_five(ctx: WinContext) -> bool:
    """全带五: each set and the pair holds a 5."""
    return (
        ctx.shape == "regular" and not ctx.facts.has_honors and ctx.pair in _FIVES
        and _FIVE_CHOWS.issuperset(ctx.chows) and _FIVES.issuperset(ctx.pungs)
    )


def _all_even_pungs(ctx: WinContext) -> bool:
    """全双刻: four pungs and the pair, all of 2, 4, 6 or 8."""
    return (
        ctx.shape == "regular"
        and len(ctx.pungs) == 4
        and all(t < 27 and t % 9 in (1, 3, 5, 7) for t in (*ctx.pungs, ctx.pair))
    )


def _all_chows(ctx: WinContext) -> bool:
    """平和: only chows and a pair of a suit."""
    return ctx.shape in ("regular", "knitted_straight") and not ctx.pungs and 0 <= ctx.pair < 27


def _range(name: str):
    def count(ctx: WinContext) -> int:
        return int(ctx.shape in _PUNG_SHAPES and ctx.facts.rank_range == name)

    return count


_FANS = (
    Fan(3, "all_green", "All Green", "绿一色", 88, lambda c: int(c.facts.all_green), all_tiles,
        excludes=("half_flush", "one_voided_suit")),
    Fan(8, "all_terminals", "All Terminals", "清幺九", 64,
        lambda c: int(c.shape in _PUNG_SHAPES and c.facts.all_terminals), all_tiles,
        excludes=("all_terminals_and_honors", "all_pungs", "outside_hand", "pung_of_terminals_or_honors",
                  "no_honors", "double_pung")),
    Fan(11, "all_honors", "All Honors", "字一色", 64,
        lambda c: int(c.shape in _PUNG_SHAPES and c.facts.all_honors), all_tiles,
        excludes=("all_terminals_and_honors", "all_pungs", "outside_hand", "pung_of_terminals_or_honors",
                  "one_voided_suit")),
    Fan(18, "all_terminals_and_honors", "All Terminals and Honors", "混幺九", 32,
        lambda c: int(c.shape in _PUNG_SHAPES and c.facts.all_terminals_or_honors), all_tiles,
        excludes=("all_pungs", "outside_hand", "pung_of_terminals_or_honors")),
    Fan(21, "all_even_pungs", "All Even Pungs", "全双刻", 24, lambda c: int(_all_even_pungs(c)), all_tiles,
        excludes=("all_pungs", "all_simples", "no_honors")),
    Fan(22, "full_flush", "Full Flush", "清一色", 24,
        lambda c: int(c.facts.suits == 1 and not c.facts.has_honors), all_tiles,
        excludes=("one_voided_suit", "no_honors")),
    Fan(25, "upper_tiles", "Upper Tiles", "全大", 24, _range("upper_tiles"), all_tiles,
        excludes=("upper_four", "no_honors")),
    Fan(26, "middle_tiles", "Middle Tiles", "全中", 24, _range("middle_tiles"), all_tiles,
        excludes=("all_simples", "no_honors")),
    Fan(27, "lower_tiles", "Lower Tiles", "全小", 24, _range("lower_tiles"), all_tiles,
        excludes=("lower_four", "no_honors")),
    Fan(31, "all_five", "All Five", "全带五", 16, lambda c: int(_all_five(c)), all_tiles,
        excludes=("all_simples", "no_honors")),
    Fan(36, "upper_four", "Upper Four", "大于五", 12, _range("upper_four"), all_tiles, excludes=("no_honors",)),
    Fan(37, "lower_four", "Lower Four", "小于五", 12, _range("lower_four"), all_tiles, excludes=("no_honors",)),
    Fan(40, "reversible_tiles", "Reversible Tiles", "推不倒", 8, lambda c: int(c.facts.all_reversible),
        all_tiles, excludes=("one_voided_suit",)),
    Fan(49, "half_flush", "Half Flush", "混一色", 6,
        lambda c: int(c.facts.suits == 1 and c.facts.has_honors), all_tiles, excludes=("one_voided_suit",)),
    Fan(51, "all_types", "All Types", "五门齐", 6,
        lambda c: int(c.facts.suits == 3 and c.facts.has_winds and c.facts.has_dragons), all_tiles),
    Fan(55, "outside_hand", "Outside Hand", "全带幺", 4, lambda c: int(_outside(c)), all_tiles),
    Fan(63, "all_chows", "All Chows", "平和", 2, lambda c: int(_all_chows(c)), all_tiles,
        excludes=("no_honors",)),
    Fan(68, "all_simples", "All Simples", "断幺", 2, lambda c: int(c.facts.all_simples), all_tiles,
        excludes=("no_honors",)),
    Fan(75, "one_voided_suit", "One Voided Suit", "缺一门", 1, lambda c: int(c.facts.suits == 2), all_tiles),
    Fan(76, "no_honors", "No Honors", "无字", 1, lambda c: int(not c.facts.has_honors), all_tiles),
)

# These read only the kinds of tiles and the shape.
_TILES_ONLY = {"all_green", "all_terminals", "all_honors", "all_terminals_and_honors", "full_flush", "upper_tiles", "middle_tiles", "lower_tiles", "upper_four", "lower_four", "reversible_tiles", "half_flush", "all_types", "all_simples", "one_voided_suit", "no_honors"}
# Outside Hand and All Five read every set: cheap enough to test on each reading
_READS = {"all_even_pungs": ON_PUNGS, "all_chows": ON_PUNGS, "outside_hand": None, "all_five": None}
FANS = tuple(replace(f, reads=ON_TILES if f.id in _TILES_ONLY else _READS[f.id]) for f in _FANS)
