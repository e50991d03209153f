"""Fans of how the hand was won and what is declared: win-method fans, concealment, Tile Hog,
Chicken Hand, flowers.

Source: shared/rules/competition.md Part B3 (和绝张 not with 抢杠和; 杠上开花 and 妙手回春
not with 自摸; 全求人 not with 单钓; flowers 1 each, not toward the 8-point minimum).
"""

from __future__ import annotations

from .base import ON_WIN, Fan, WinContext, all_tiles, codes, no_tiles, win_tile


def _tile_hogs(ctx: WinContext) -> int:
    """四归一: all four copies of a tile used without declaring them as a kong (the tile of a
    declared kong is the only other tile held four times)."""
    return ctx.counts.count(4) - ctx.melded_kongs - ctx.concealed_kongs


def _tile_hog_on(ctx: WinContext):
    kongs = {tiles[0] for kind, tiles in ctx.sets if kind == "kong"}
    return tuple(codes((t,) * 4) for t, n in enumerate(ctx.counts) if n == 4 and t not in kongs)


def _concealed(ctx: WinContext) -> bool:
    """No declared meld but concealed kongs (the special shapes are always concealed)."""
    return ctx.open_melds == 0


FANS = (
    Fan(43, "chicken_hand", "Chicken Hand", "无番和", 8, lambda c: 0, all_tiles, residual=True),
    Fan(44, "last_tile_draw", "Last Tile Draw", "妙手回春", 8,
        lambda c: int(c.self_drawn and c.last_of_wall), win_tile, excludes=("self_drawn",), reads=ON_WIN),
    Fan(45, "last_tile_claim", "Last Tile Claim", "海底捞月", 8,
        lambda c: int(not c.self_drawn and c.last_of_wall), win_tile, reads=ON_WIN),
    Fan(46, "out_with_replacement_tile", "Out with Replacement Tile", "杠上开花", 8,
        lambda c: int(c.self_drawn and c.kong_win), win_tile, excludes=("self_drawn",), reads=ON_WIN),
    Fan(47, "robbing_the_kong", "Robbing The Kong", "抢杠和", 8,
        lambda c: int(not c.self_drawn and c.kong_win), win_tile, excludes=("last_tile",), reads=ON_WIN),
    Fan(52, "melded_hand", "Melded Hand", "全求人", 6,
        lambda c: int(c.open_melds == 4 and not c.self_drawn), all_tiles, excludes=("single_wait",), reads=ON_WIN),
    Fan(56, "fully_concealed_hand", "Fully Concealed Hand", "不求人", 4,
        lambda c: int(c.self_drawn and _concealed(c)), all_tiles,
        excludes=("self_drawn", "concealed_hand"), reads=ON_WIN),
    Fan(58, "last_tile", "Last Tile", "和绝张", 4, lambda c: int(c.last_tile), win_tile, reads=ON_WIN),
    Fan(62, "concealed_hand", "Concealed Hand", "门前清", 2,
        lambda c: int(not c.self_drawn and _concealed(c)), all_tiles, reads=ON_WIN),
    Fan(64, "tile_hog", "Tile Hog", "四归一", 2, _tile_hogs, _tile_hog_on),
    Fan(80, "self_drawn", "Self-Drawn", "自摸", 1, lambda c: int(c.self_drawn), win_tile, reads=ON_WIN),
    Fan(81, "flower_tiles", "Flower Tiles", "花牌", 1, lambda c: c.flowers, no_tiles),
)
