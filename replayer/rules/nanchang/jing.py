"""The jing (精): identity from the indicator, attribution, and the jing bonus.

Sources: shared/rules/nanchang.md §1 (succession with wraps), §4.1 (正精 = indicator,
副精 = its successor), §4.3 (who holds a jing tile), §9.1 (正精 2 子, 副精 1 子, 冲关, 霸王),
§11 (上下翻精 / 埋地雷 / 回头一笑 use the same formula on other jing kinds); seed 004 精的相關.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from eventlog import tiles as _tiles

__all__ = ["succ", "JingKinds", "NO_JING", "JingMode", "jing_kinds", "chongguan", "JingHolding", "jing_scores", "jing_points"]


def succ(tile: str) -> str:
    """The successor of ``tile`` (§1): suited rank r → r+1 with 9 → 1; 东南西北 → 南西北东;
    中发白 → 发白中 (:func:`eventlog.tiles.next_in_cycle`). Raises ValueError for a flower or a
    bad code."""
    if _tiles.index(tile) >= 34:
        raise ValueError(f"{tile} has no successor: flowers are not Nanchang tiles")
    return _tiles.next_in_cycle(tile)


@dataclass(frozen=True)
class JingKinds:
    """The jing (wild) kinds of a hand and their points, highest first: Nanchang ``zheng_fu``
    gives 正精 (the indicator, 2) and 副精 (its successor, 1); ``successor_only`` (赣州, 上饶's
    宝) the successor alone at 1 point; ``none`` no kind at all (jiangxi_variants.md §1)."""

    tiles: tuple[str, ...]
    values: tuple[int, ...]

    @property
    def primary(self) -> str | None:
        """正精 (the highest-valued kind), None without jing."""
        return self.tiles[0] if self.tiles else None

    @property
    def secondary(self) -> str | None:
        """副精, None when the family has a single kind (or none)."""
        return self.tiles[1] if len(self.tiles) > 1 else None

    @property
    def indices(self) -> tuple[int, ...]:
        """Dense indices of the jing kinds (0, 1 or 2 of them)."""
        return tuple(_tiles.index(t) for t in self.tiles)

    def is_jing(self, tile: str) -> bool:
        return tile in self.tiles

    def value(self, tile: str) -> int:
        """Jing points of one tile (§9.1 step 1): 正精 2, 副精 1 (successor_only: 1),
        anything else 0."""
        for t, v in zip(self.tiles, self.values):
            if t == tile:
                return v
        return 0


NO_JING = JingKinds((), ())

JingMode = Literal["zheng_fu", "successor_only", "none"]


@lru_cache(maxsize=256)
def jing_kinds(indicator: str | None, mode: JingMode = "zheng_fu") -> JingKinds:
    """The jing of an indicator (§4.1; jiangxi_variants.md §1 ``jing_mode``):
    ``jing_kinds("W9")`` → 正精 W9 (2), 副精 W1 (1); ``jing_kinds("W3", "successor_only")`` →
    W4 (1) only; ``mode="none"`` or no indicator → no jing."""
    if mode == "none" or indicator is None:
        return NO_JING
    if mode == "successor_only":
        return JingKinds((succ(indicator),), (1,))
    return JingKinds((indicator, succ(indicator)), (2, 1))


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


def jing_scores(holdings: Sequence[JingHolding], *, unseen_holder: bool = False) -> tuple[int, ...]:
    """s_i of §9.1 steps 2–3: 冲关 of each seat's points, then 霸王 (exactly one player holding
    jing doubles their score). Each other player pays s_i to seat i. ``unseen_holder``: a
    player holds jing that ``holdings`` do not show (paipu score knows one hand only): no seat
    shown is then the only holder."""
    if len(holdings) != 4:
        raise ValueError(f"four holdings expected, got {len(holdings)}")
    s = [chongguan(h.points) for h in holdings]
    holders = [i for i, h in enumerate(holdings) if h.points > 0 and h.counts_for_bawang]
    if len(holders) == 1 and not unseen_holder:
        s[holders[0]] *= 2
    return tuple(s)


def jing_points(holdings: Sequence[JingHolding], *, unseen_holder: bool = False) -> tuple[int, int, int, int]:
    """The jing component (§9.1 steps 2–4) from four holdings: 冲关, then 霸王 (exactly one
    player holding jing doubles their score), then each receives s_i from each other player:
    net_i = 3·s_i − Σ_{j≠i} s_j. Zero-sum. ``unseen_holder``: as :func:`jing_scores` (the
    unseen jing's own points are not known and not counted)."""
    s = jing_scores(holdings, unseen_holder=unseen_holder)
    total = sum(s)
    net = [4 * si - total for si in s]
    return (net[0], net[1], net[2], net[3])
