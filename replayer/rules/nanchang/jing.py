"""The jing (精): identity from the indicator, attribution, and the jing bonus.

Sources: shared/rules/nanchang.md §1 (succession with wraps), §4.1 (正精 = indicator,
副精 = its successor), §4.3 (who holds a jing tile), §9.1 (正精 2 子, 副精 1 子, 冲关, 霸王),
§11 (上下翻精 / 埋地雷 / 回头一笑 use the same formula on other jing kinds); seed 004 精的相關.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from eventlog import tiles as _tiles

__all__ = ["succ", "JingKinds", "jing_kinds", "chongguan", "JingHolding", "jing_points"]


def succ(tile: str) -> str:
    """The successor of ``tile`` (§1): suited rank r → r+1 with 9 → 1; 东南西北 → 南西北东;
    中发白 → 发白中 (:func:`eventlog.tiles.next_in_cycle`). Raises ValueError for a flower or a
    bad code."""
    if _tiles.index(tile) >= 34:
        raise ValueError(f"{tile} has no successor: flowers are not Nanchang tiles")
    return _tiles.next_in_cycle(tile)


@dataclass(frozen=True)
class JingKinds:
    """正精 ``primary`` (= the indicator) and 副精 ``secondary`` (= its successor), as codes and
    dense indices."""

    primary: str
    secondary: str

    @property
    def indices(self) -> tuple[int, int]:
        return (_tiles.index(self.primary), _tiles.index(self.secondary))

    def is_jing(self, tile: str) -> bool:
        return tile in (self.primary, self.secondary)

    def value(self, tile: str) -> int:
        """Jing points of one tile: 正精 2, 副精 1, anything else 0 (§9.1 step 1)."""
        return 2 if tile == self.primary else 1 if tile == self.secondary else 0


@lru_cache(maxsize=64)
def jing_kinds(indicator: str) -> JingKinds:
    """The jing of an indicator (§4.1): ``jing_kinds("W9")`` → 正精 W9, 副精 W1."""
    return JingKinds(indicator, succ(indicator))


def chongguan(n: int) -> int:
    """冲关 (§9.1 step 2): n if n <= 4, else n × (n − 3) (5→10, 6→18, 7→28, 8→40 …)."""
    if n < 0:
        raise ValueError(f"jing points cannot be negative, got {n}")
    return n if n <= 4 else n * (n - 3)


@dataclass(frozen=True)
class JingHolding:
    """One player's attributed jing (§4.3): ``points`` n_i = 2·P + F (+10 per 杠精 with option
    ``gangjing_in_chongguan``); ``counts_for_bawang``: whether the player "has jing" for 霸王
    (False when all their jing are in kongs and ``bawang_excludes_kong_jing``)."""

    points: int
    counts_for_bawang: bool


def jing_points(holdings: Sequence[JingHolding]) -> tuple[int, int, int, int]:
    """The jing component (§9.1 steps 2–4) from four holdings: 冲关, then 霸王 (exactly one
    player holding jing doubles their score), then each receives s_i from each other player:
    net_i = 3·s_i − Σ_{j≠i} s_j. Zero-sum."""
    if len(holdings) != 4:
        raise ValueError(f"four holdings expected, got {len(holdings)}")
    s = [chongguan(h.points) for h in holdings]
    holders = [i for i, h in enumerate(holdings) if h.points > 0 and h.counts_for_bawang]
    if len(holders) == 1:
        s[holders[0]] *= 2
    total = sum(s)
    net = [4 * si - total for si in s]
    return (net[0], net[1], net[2], net[3])
