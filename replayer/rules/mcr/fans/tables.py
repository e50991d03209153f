"""Fan tables over the one set of MCR fan records: which fans a table has and their points.

A fan that exists in several tables is one record (:class:`.base.Fan`: its predicate, its
exclusions 不计, the tiles it is counted on); a table only says whether the fan is in it and
what it is worth there. Two tables:

* ``"mcr"`` — the current MCR table, the reference calculator's (tests/data/mcr/README.md):
  every record, at :attr:`.base.Fan.points`.
* ``"mcr1998"`` — the 1998 table as seed 001 prints it (docs/reference/rules/competition.md
  §B3): 73 of the 82 records (flowers included). It has no 连六, 自摸, 组合龙, 三风刻, 三同刻, 三暗刻, 三杠, 四杠 and
  no 明暗杠 (a concealed and a melded kong are 暗杠 2 + 明杠 1); 平和 and 断幺, used by the
  seed's examples but missing from its table, are 2 each (§B3 "B-Amb-1"). A knitted straight
  with a set and a pair (组合龙) is therefore no winning shape in this table; 全不靠 and
  七星不靠 are.

The exclusions (不计) are the records'; a table may *readmit* a pair the records exclude.
The 1998 table counts 无字 beside 断幺, 平和 and 全双刻: §B3 lists the exclusions of those
fans without 无字 (全双刻 "not 碰碰和, 断幺"), and the seed's worked examples count them
together (D1 平和 + 无字, D2 全双刻 + 无字, D4 断幺 + 无字; §B4 finds them consistent).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Mapping

from .registry import FAN_BY_ID, FANS

#: The 1998 table, competition.md §B3 (seed 001), by points: fan ids.
_MCR1998_BY_POINTS: dict[int, tuple[str, ...]] = {
    1: ("no_honors", "edge_wait", "closed_wait", "one_voided_suit", "single_wait", "melded_kong",
        "pung_of_terminals_or_honors", "two_terminal_chows", "mixed_double_chow", "pure_double_chow",
        "flower_tiles"),
    2: ("concealed_kong", "dragon_pung", "prevalent_wind", "seat_wind", "double_pung",
        "two_concealed_pungs", "concealed_hand", "tile_hog",
        "all_chows", "all_simples"),  # 平和, 断幺: B-Amb-1
    4: ("fully_concealed_hand", "outside_hand", "last_tile", "two_melded_kongs"),
    6: ("two_concealed_kongs", "two_dragons_pungs", "half_flush", "all_pungs", "melded_hand",
        "all_types", "mixed_shifted_chows"),
    8: ("mixed_straight", "chicken_hand", "reversible_tiles", "robbing_the_kong",
        "out_with_replacement_tile", "last_tile_draw", "last_tile_claim", "mixed_shifted_pungs",
        "mixed_triple_chow"),
    12: ("lower_four", "upper_four", "lesser_honors_and_knitted_tiles"),
    16: ("pure_straight", "all_five", "pure_shifted_chows", "three_suited_terminal_chows"),
    24: ("lower_tiles", "middle_tiles", "upper_tiles", "seven_pairs", "all_even_pungs", "full_flush",
         "pure_triple_chow", "pure_shifted_pungs", "greater_honors_and_knitted_tiles"),
    32: ("all_terminals_and_honors", "four_pure_shifted_chows"),
    48: ("quadruple_chow", "four_pure_shifted_pungs"),
    64: ("all_terminals", "all_honors", "little_four_winds", "little_three_dragons",
         "four_concealed_pungs", "pure_terminal_chows"),
    88: ("thirteen_orphans", "seven_shifted_pairs", "all_green", "big_three_dragons",
         "big_four_winds", "nine_gates"),
}


@dataclass(frozen=True)
class FanTable:
    """One fan table: ``values`` maps the id of each fan the table has to its points there;
    ``shapes``: the special hand shapes that may win (besides sets + a pair and seven pairs);
    ``source``: where the table is written; ``readmits``: (fan, excluded fan) pairs of the
    records' exclusions that this table does not apply."""

    id: str
    values: Mapping[str, int]
    shapes: frozenset[str]
    source: str
    readmits: frozenset[tuple[str, str]] = frozenset()

    def __post_init__(self) -> None:
        unknown = sorted(set(self.values) - set(FAN_BY_ID))
        unknown += sorted(f for pair in self.readmits for f in pair if f not in FAN_BY_ID)
        if unknown:
            raise ValueError(f"fan table {self.id}: unknown fan ids {unknown}")

    def points(self, fan_id: str) -> int | None:
        """Points of ``fan_id`` in this table, None when the table does not have it."""
        return self.values.get(fan_id)

    @property
    def absent(self) -> frozenset[str]:
        """Ids of the fan records this table does not have."""
        return frozenset(f.id for f in FANS if f.id not in self.values)


_ALL_SHAPES = frozenset({"thirteen_orphans", "honors_knitted", "knitted_straight"})

TABLES: dict[str, FanTable] = {
    "mcr": FanTable(
        "mcr", MappingProxyType({f.id: f.points for f in FANS}), _ALL_SHAPES,
        "tests/data/mcr/README.md (the reference calculator's table)",
    ),
    "mcr1998": FanTable(
        "mcr1998",
        MappingProxyType({fid: pts for pts, ids in _MCR1998_BY_POINTS.items() for fid in ids}),
        frozenset({"thirteen_orphans", "honors_knitted"}),
        "docs/reference/rules/competition.md §B3 (seed 001)",
        frozenset({("all_simples", "no_honors"), ("all_chows", "no_honors"), ("all_even_pungs", "no_honors")}),
    ),
}

assert sum(map(len, _MCR1998_BY_POINTS.values())) == len(TABLES["mcr1998"].values), "a fan twice in §B3"


@lru_cache(maxsize=None)
def table(table_id: str) -> FanTable:
    """The fan table ``table_id``; raises ValueError naming the known tables."""
    try:
        return TABLES[table_id]
    except KeyError:
        raise ValueError(f"unknown fan table {table_id!r} (known: {', '.join(TABLES)})") from None
