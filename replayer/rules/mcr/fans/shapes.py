"""Fans that are a whole winning shape: Nine Gates, the seven-pairs family, Thirteen Orphans,
the honors-and-knitted family and Knitted Straight.

Shapes are recognised by :mod:`replayer.rules.shared.shapes`; the context says which one a
reading is (``ctx.shape``, ``ctx.detail``). Source: shared/rules/competition.md Part B3.
"""

from __future__ import annotations

from .base import ON_TILES, Fan, WinContext, all_tiles, codes

_CONCEALED = ("concealed_hand", "fully_concealed_hand")


def _knitted_on(ctx: WinContext):
    return (codes(ctx.knitted),) if ctx.knitted else all_tiles(ctx)


def _knitted_straight(ctx: WinContext) -> int:
    if ctx.shape == "knitted_straight":
        return 1
    # 全不靠 with all nine knitted tiles also scores 组合龙
    return int(ctx.shape == "honors_knitted" and ctx.detail == "lesser" and len(ctx.knitted) == 9)


FANS = (
    Fan(4, "nine_gates", "Nine Gates", "九莲宝灯", 88,
        lambda c: int(c.detail == "nine_gates"), all_tiles,
        # 1112345678999 + X read as sets: the pung of 1s or 9s it needs is not a 幺九刻
        excludes=("full_flush", *_CONCEALED, "one_voided_suit", "no_honors",
                  ("pung_of_terminals_or_honors", 1)), reads=ON_TILES),
    Fan(6, "seven_shifted_pairs", "Seven Shifted Pairs", "连七对", 88,
        lambda c: int(c.shape == "seven_pairs" and c.detail == "shifted"), all_tiles,
        excludes=("seven_pairs", "full_flush", *_CONCEALED, "single_wait", "one_voided_suit",
                  "no_honors"), reads=ON_TILES),
    Fan(7, "thirteen_orphans", "Thirteen Orphans", "十三幺", 88,
        lambda c: int(c.shape == "thirteen_orphans"), all_tiles,
        excludes=("all_types", *_CONCEALED, "single_wait"), reads=ON_TILES),
    Fan(19, "seven_pairs", "Seven Pairs", "七对", 24,
        lambda c: int(c.shape == "seven_pairs" and c.detail != "shifted"), all_tiles,
        excludes=(*_CONCEALED, "single_wait"), reads=ON_TILES),
    Fan(20, "greater_honors_and_knitted_tiles", "Greater Honors and Knitted Tiles", "七星不靠", 24,
        lambda c: int(c.shape == "honors_knitted" and c.detail == "greater"), all_tiles,
        excludes=("lesser_honors_and_knitted_tiles", "all_types", *_CONCEALED), reads=ON_TILES),
    Fan(34, "lesser_honors_and_knitted_tiles", "Lesser Honors and Knitted Tiles", "全不靠", 12,
        lambda c: int(c.shape == "honors_knitted" and c.detail == "lesser"), all_tiles,
        excludes=("all_types", *_CONCEALED), reads=ON_TILES),
    Fan(35, "knitted_straight", "Knitted Straight", "组合龙", 12, _knitted_straight, _knitted_on, reads=ON_TILES),
)
