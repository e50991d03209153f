"""MCR fan calculation: every reading of the hand is scored with the fan table and the
exclusions (不计) written beside each fan; the highest total wins (就高不就低).

Tie-breaking follows the reference calculator (MahjongGB 1.4.0): among regular readings of
equal total the first one met is kept, except that a reading with Pure Triple Chow or Triple
Pung, or any reading of a hand that is also seven pairs, replaces an earlier equal one.
"""

from __future__ import annotations

from functools import lru_cache

from ..options import DEFAULT_OPTIONS, McrOptions
from ..situation import FanItem, FanResult, WinSituation
from . import FAN_BY_ID, FANS
from .base import WinContext
from .context import McrInputError, prepare, readings

__all__ = ["score", "McrInputError", "evaluate"]

_SCORED = tuple(
    f for f in FANS if not f.residual and f.id != "flower_tiles" and not f.combination and not f.tiles_only
)
_TILES_ONLY = tuple(f for f in FANS if f.tiles_only)
_POINTS = {f.id: f.points for f in FANS}
_NUMBER = {f.id: f.number for f in FANS}
_CHICKEN = FAN_BY_ID["chicken_hand"]
_FLOWERS = FAN_BY_ID["flower_tiles"]
# a context whose only meaningful fields are facts and shape, for the tiles-only fans
_PROBE = WinContext(*([None] * len(WinContext._fields)))
_PREDICATES = tuple((f.id, f.count) for f in _SCORED)
_EXCLUDES = {f.id: f.excludes for f in FANS if f.excludes}


@lru_cache(maxsize=1 << 12)
def _tiles_only_fans(facts, shape: str) -> tuple[tuple[str, int], ...]:
    """The fans that depend only on which tiles occur and the shape (Fan.tiles_only)."""
    probe = _PROBE._replace(facts=facts, shape=shape)
    return tuple((f.id, n) for f in _TILES_ONLY if (n := f.count(probe)))


def evaluate(ctx: WinContext) -> dict[str, int]:
    """Fan id → count for one reading, after exclusions, without flowers. Chicken Hand when
    nothing else counts."""
    found: dict[str, int] = {}
    for fid, _ in ctx.combos:  # the combination fans (Fan.combination) read this allocation
        found[fid] = found.get(fid, 0) + 1
    for fid, n in _tiles_only_fans(ctx.facts, ctx.shape):
        found[fid] = n
    for fid, count in _PREDICATES:
        n = count(ctx)
        if n:
            found[fid] = n
    # exclusions in table order: a fan that is itself excluded excludes nothing
    for fid in sorted(found, key=_NUMBER.__getitem__):
        if fid not in found or fid not in _EXCLUDES:
            continue
        for ex in _EXCLUDES[fid]:
            if isinstance(ex, str):
                found.pop(ex, None)
            else:  # (fan id, how many of its instances are not counted)
                target, k = ex
                left = found.get(target, 0) - k
                if left > 0:
                    found[target] = left
                else:
                    found.pop(target, None)
    if not found:
        found[_CHICKEN.id] = 1
    return found


def _total(found: dict[str, int]) -> int:
    return sum(_POINTS[fid] * n for fid, n in found.items())


def score(situation: WinSituation, options: McrOptions | None = None) -> FanResult:
    """Score a win under MCR (Chinese Official, 国标; shared/rules/competition.md Part B).

    Returns a :class:`FanResult` with the fans in table order, each with the tiles it was
    counted on; ``total`` includes flowers, ``meets_minimum`` is ``total_without_flowers >= 8``.
    A hand that is no winning shape gives ``is_win=False`` and ``error``. Raises
    :class:`McrInputError` (a ``ValueError``) for a malformed situation.
    """
    options = options or DEFAULT_OPTIONS
    hand = prepare(situation)
    special, regular = readings(hand, options)
    best_ctx: WinContext | None = None
    best: dict[str, int] = {}
    best_total = 0
    seven_pairs = False
    if special is not None:
        best_ctx, best = special, evaluate(special)
        best_total = _total(best)
        seven_pairs = special.shape == "seven_pairs" and special.detail != "shifted"
    for ctx in regular:
        found = evaluate(ctx)
        total = _total(found)
        if total > best_total or (
            total == best_total
            and (seven_pairs or "pure_triple_chow" in found or "triple_pung" in found)
        ):
            best_ctx, best, best_total = ctx, found, total
    if best_ctx is None:
        return FanResult(
            fans=(), total=0, total_without_flowers=0, is_win=False, meets_minimum=False,
            error=f"not a winning hand: {' '.join(situation.hand)} + {situation.win_tile}"
            + (f" with {len(situation.melds)} melds" if situation.melds else ""),
        )
    if hand.flowers:
        best = {**best, _FLOWERS.id: hand.flowers}
    items = []
    for fid in sorted(best, key=_NUMBER.__getitem__):  # table order
        fan = FAN_BY_ID[fid]
        items.append(FanItem(fan.name_en, fan.name_zh, fan.points, best[fid], fan.on(best_ctx)))
    total = best_total + hand.flowers
    return FanResult(
        fans=tuple(items), total=total, total_without_flowers=best_total,
        meets_minimum=best_total >= 8,
    )
