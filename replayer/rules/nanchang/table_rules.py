"""What the options allow on the table, as data: the tile set, which tiles are flowers, which
chows exist, six-pair shows and winners per discard (shared/rules/jiangxi_variants.md §1,
tests/data/jiangxi/README.md "Illegal wins").

Used by the play rules (tile accounting, chow claims) and by the settlement vectors (a
situation that breaks one of these rules is refused with the rule's id). The order of
:func:`check_situation` is the order of the data README's table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from eventlog import tiles as _tiles
from replayer.rules.base import standard_tile_copies
from replayer.rules.nanchang.options import NanchangOptions
from replayer.rules.shared import decompose as _dec

__all__ = ["tile_copies", "flower_tiles", "chow_rule", "check_situation"]

_WINDS = range(27, 31)
#: 发 (Green dragon), set aside like a flower under ``fa_as_flower`` (九江).
FA = "J2"


def tile_copies(options: NanchangOptions) -> tuple[int, ...]:
    """Copies of each tile (42 dense indices) of option ``tileset``: 136 (no flowers),
    120_no_winds (九江: 东南西北 removed), 144_flowers (鹰潭: the eight flowers 春夏秋冬梅兰竹菊)."""
    copies = list(standard_tile_copies(flowers=options.tileset == "144_flowers"))
    if options.tileset == "120_no_winds":
        for i in _WINDS:
            copies[i] = 0
    return tuple(copies)


def flower_tiles(options: NanchangOptions) -> tuple[str, ...] | None:
    """Tiles set aside when drawn and replaced from the tail (``PlayRules.flower_tiles``): 发
    under ``fa_as_flower``; none under ``flower_bao`` (the flowers of ``144_flowers`` are then
    宝: kept, flown and melded, never set aside); otherwise None (the flowers of the tile set)."""
    if options.fa_as_flower:
        return (FA,)
    return () if options.flower_bao else None


def chow_rule(tiles: Sequence[str], options: NanchangOptions) -> str | None:
    """The rule a chow of ``tiles`` breaks, or None: ``chi_allowed`` (no chows at all),
    ``honor_chi`` (an honor sequence the option does not allow: ordered = 东南西 / 南西北 /
    中发白 only, none = no honor chow). Whether the tiles form a sequence at all is the play
    rules' ``chow_not_a_sequence``."""
    if not options.chi_allowed:
        return "chi_allowed"
    idx = tuple(sorted(_tiles.index(t) for t in tiles))
    if idx and idx[0] >= 27:
        if options.honor_chi == "none":
            return "honor_chi"
        if options.honor_chi == "ordered" and idx not in _dec.ORDERED_HONOR_CHOWS:
            return "honor_chi"
    return None


def check_situation(players: Sequence, winners: Sequence[int], discarder: int | None, win_tile: str | None,
                    options: NanchangOptions, extra_tiles: Iterable[str] = ()) -> tuple[str, str] | None:
    """The first table rule an end-of-hand situation breaks, as (rule id, message), or None.
    ``players``: four :class:`~replayer.rules.nanchang.settlement.PlayerTiles`;
    ``extra_tiles``: other tiles of the situation (indicator, first discards)."""
    copies = tile_copies(options)
    every: list[tuple[int, str]] = []
    for seat, p in enumerate(players):
        every += [(seat, t) for t in p.concealed + p.unclaimed_discards + p.flowers]
        every += [(seat, t) for m in p.melds for t in m.tiles]
    if win_tile is not None:
        every.append((-1, win_tile))
    every += [(-1, t) for t in extra_tiles]
    for seat, t in every:
        if not copies[_tiles.index(t)]:
            return "tileset", f"{t} is not in the {options.tileset} tile set" + (f" (seat {seat})" if seat >= 0 else "")
    for seat, p in enumerate(players):
        if options.fa_as_flower:
            held = p.concealed + p.unclaimed_discards + tuple(t for m in p.melds for t in m.tiles)
            if FA in held or (win_tile == FA and seat in winners):
                return "fa_as_flower", f"seat {seat} holds, melds or discards 发: it is set aside when drawn"
            bad = [t for t in p.flowers if t != FA]
            if bad:
                return "fa_as_flower", f"seat {seat} set aside {' '.join(bad)}: only 发 is set aside"
        elif p.flowers:
            return "fa_as_flower", f"seat {seat} set aside {' '.join(p.flowers)} but 发 is not a flower here"
    if win_tile == FA and options.fa_as_flower:
        return "fa_as_flower", "the winning tile is 发, which is set aside when drawn"
    for seat, p in enumerate(players):
        for m in p.melds:
            if m.kind == "chow":
                rule = chow_rule(m.tiles, options)
                if rule is not None:
                    return rule, f"seat {seat} chowed {'-'.join(m.tiles)}, which option {rule} does not allow"
    for seat, p in enumerate(players):
        if not p.early_show:
            continue
        if not options.qidui_early_show:
            return "qidui_early_show", f"seat {seat} showed six pairs but the option qidui_early_show is off"
        if p.melds:
            return "qidui_early_show", f"seat {seat} showed six pairs with declared sets"
        counts: dict[str, int] = {}
        for t in p.concealed:
            counts[t] = counts.get(t, 0) + 1
        if sum(n // 2 for n in counts.values()) < 6:
            return "qidui_early_show", f"seat {seat} showed six pairs without holding six pairs"
    if len(winners) > options.multiple_winners:
        return "multiple_winners", (f"{len(winners)} winners on one discard; at most {options.multiple_winners} "
                                    "(option multiple_winners)")
    if len(winners) > 1 and discarder is None:
        return "multiple_winners", "several winners need one discard to win on"
    return None
