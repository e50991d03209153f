"""The scoring units of Changsha (docs/reference/rules/changsha.md §3): the opening small wins
(起手小胡, §3.2), the small win (小胡 / 平胡, §3.1) and the big wins (大胡, §3.3), each with its
English id (the reference data's name) and its Chinese name, in the spec's canonical order.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["OPENING_UNITS", "SHAPE_UNITS", "UNIT_BY_ID", "WIN_UNITS", "UnitKind", "unit_kind"]


@dataclass(frozen=True)
class UnitKind:
    """One kind of unit: ``id`` (English, as in the reference data), ``name`` (English),
    ``chinese``, ``category`` (``"opening"``, ``"small"`` or ``"big"``), ``order`` (the spec's
    canonical order within its table) and ``source`` (spec section)."""

    id: str
    name: str
    chinese: str
    category: str
    order: int
    source: str


OPENING_UNITS: tuple[UnitKind, ...] = (
    UnitKind("four_identical", "four identical tiles", "大四喜 (四喜)", "opening", 1, "docs/reference/rules/changsha.md §3.2"),
    UnitKind("no_258", "no 2, 5 or 8", "板板胡", "opening", 2, "docs/reference/rules/changsha.md §3.2"),
    UnitKind("missing_suit", "a suit missing", "缺一色", "opening", 3, "docs/reference/rules/changsha.md §3.2"),
    UnitKind("two_pungs", "two pungs", "六六顺", "opening", 4, "docs/reference/rules/changsha.md §3.2"),
)

WIN_UNITS: tuple[UnitKind, ...] = (
    UnitKind("small_win", "small win (2-5-8 pair)", "小胡 / 平胡", "small", 0, "docs/reference/rules/changsha.md §3.1"),
    UnitKind("heavenly", "heavenly win", "天胡", "big", 1, "docs/reference/rules/changsha.md §3.3 #1"),
    UnitKind("earthly", "earthly win", "地胡", "big", 2, "docs/reference/rules/changsha.md §3.3 #2"),
    UnitKind("all_pungs", "all pungs", "碰碰胡", "big", 3, "docs/reference/rules/changsha.md §3.3 #3"),
    UnitKind("all_258", "all 2, 5 and 8", "将将胡", "big", 4, "docs/reference/rules/changsha.md §3.3 #4, §8.2"),
    UnitKind("full_flush", "full flush", "清一色", "big", 5, "docs/reference/rules/changsha.md §3.3 #5, §8.4"),
    UnitKind("last_tile_draw", "last tile self-drawn", "海底捞月", "big", 6, "docs/reference/rules/changsha.md §3.3 #6, §4"),
    UnitKind("last_tile_claim", "win on the exposed last tile", "海底炮", "big", 7, "docs/reference/rules/changsha.md §3.3 #7, §4"),
    UnitKind("seven_pairs", "seven pairs", "七小对", "big", 8, "docs/reference/rules/changsha.md §3.3 #8"),
    UnitKind("luxury_seven_pairs", "luxury seven pairs", "豪华七小对", "big", 9, "docs/reference/rules/changsha.md §3.3 #9, §8.6"),
    UnitKind("kong_replacement_win", "win on an open-kong reveal", "杠上开花", "big", 10, "docs/reference/rules/changsha.md §3.3 #10, §4, §8.8"),
    UnitKind("robbing_the_kong", "robbing the kong", "抢杠胡", "big", 11, "docs/reference/rules/changsha.md §3.3 #11, §8.9"),
    UnitKind("kong_reveal_claim", "win on another's open-kong reveal", "杠上炮", "big", 12, "docs/reference/rules/changsha.md §3.3 #12, §4"),
    UnitKind("all_melded", "all melded", "全求人", "big", 13, "docs/reference/rules/changsha.md §3.3 #13, §8.7"),
)

#: Big wins that are shapes: they lift the 2-5-8 pair rule (§8.3).
SHAPE_UNITS: frozenset[str] = frozenset(
    {"all_pungs", "all_258", "full_flush", "seven_pairs", "luxury_seven_pairs", "all_melded"})

UNIT_BY_ID: dict[str, UnitKind] = {u.id: u for u in OPENING_UNITS + WIN_UNITS}


def unit_kind(unit_id: str) -> UnitKind:
    """The :class:`UnitKind` of ``unit_id``; raises KeyError for an unknown id."""
    return UNIT_BY_ID[unit_id]
