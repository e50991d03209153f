"""MCR fan calculation: every reading of the hand is scored with the fan table and the
exclusions (不计) written beside each fan; the highest total wins (就高不就低).

Tie-breaking follows the reference calculator (MahjongGB 1.4.0): among regular readings of
equal total the first one met is kept, except that a reading with Pure Triple Chow or Triple
Pung, or any reading of a hand that is also seven pairs, replaces an earlier equal one.

Speed: a fan that declares the context fields it reads (:attr:`.base.Fan.reads`) is looked
up per value of those fields, with the other fans of the same field group; on a miss the
group is evaluated on a probe context holding only those fields, so a predicate that reads
an undeclared field fails instead of being cached wrongly. The exclusions are memoised on
the fans found. Fans are handled by table number; names and tiles are only produced for the
reading that wins (the whole hand's tiles once, for every fan counted on them). Upstream
(:mod:`.context`): a hand shape's divisions are taken apart once (memoised on the concealed
counts), the irregular shapes are tested on the bit mask of tile kinds, the single-wait test
is memoised on the hand, and the shared decomposition answers "is this suit complete" from a
table instead of enumerating. Every memo is a bounded ``lru_cache`` (thread-safe); the suit
table is built once under a lock. benchmarks/mcr_fans.py measures it,
benchmarks/mcr_differential.py compares it with the reference on random hands.
"""

from __future__ import annotations

from functools import lru_cache
from operator import attrgetter

from ..options import DEFAULT_OPTIONS, McrOptions
from ..situation import FanItem, FanResult, WinSituation
from .registry import FAN_BY_ID, FANS
from .base import Fan, Tiles, WinContext, all_tiles
from .context import McrInputError, prepare, readings

__all__ = ["score", "McrInputError", "evaluate"]

_NUMBER = {f.id: f.number for f in FANS}
_BY_NUMBER = {f.number: f for f in FANS}
_CHICKEN = FAN_BY_ID["chicken_hand"]
_FLOWERS = FAN_BY_ID["flower_tiles"]
_TIE_BREAKERS = frozenset({FAN_BY_ID["pure_triple_chow"].number, FAN_BY_ID["triple_pung"].number})
_SCORED = tuple(f for f in FANS if not f.residual and f.id != "flower_tiles" and not f.combination)
# a context whose fields are all None, filled in with the fields a group of fans reads
_PROBE: tuple[None, ...] = (None,) * len(WinContext._fields)


def _group(fields: tuple[str, ...], fans: tuple[Fan, ...]):
    """(fields, key of a reading, memoised (fan number, count) pairs of ``fans`` for a key)."""

    where = tuple(WinContext._fields.index(name) for name in fields)

    @lru_cache(maxsize=1 << 14)
    def found(key: tuple) -> tuple[tuple[int, int], ...]:
        fields: list[object] = list(_PROBE)  # only the fields in the key are set: a fan reading others fails
        for i, value in zip(where, key):
            fields[i] = value
        probe = WinContext._make(fields)
        return tuple((f.number, n) for f in fans if (n := f.count(probe)))

    return fields, attrgetter(*fields), found


#: Fans memoised per group of the context fields they read (Fan.reads), in first-met order.
_GROUPS = tuple(
    _group(fields, tuple(f for f in _SCORED if f.reads == fields))
    for fields in dict.fromkeys(f.reads for f in _SCORED if f.reads is not None)
)
#: Fans called on every reading.
_DIRECT = tuple((f.number, f.count) for f in _SCORED if f.reads is None)


#: fan number -> its exclusions as (fan number, instances not counted; 0 = all of them)
_EXCLUDES = {
    f.number: tuple((_NUMBER[ex], 0) if isinstance(ex, str) else (_NUMBER[ex[0]], ex[1]) for ex in f.excludes)
    for f in FANS if f.excludes
}
_ITEM = {f.number: (f.name_en, f.name_zh, f.on) for f in FANS}  # what a FanItem needs


@lru_cache(maxsize=None)
def _points(table_id: str) -> dict[int, int]:
    """Fan number -> points of every fan that fan table ``table_id`` has (:mod:`.tables`)."""
    from .tables import table

    t = table(table_id)
    return {f.number: p for f in FANS if (p := t.points(f.id)) is not None}


@lru_cache(maxsize=None)
def _table_excludes(table_id: str) -> dict[int, tuple[tuple[int, int], ...]]:
    """:data:`_EXCLUDES` without the pairs fan table ``table_id`` readmits."""
    from .tables import table

    readmits = {(_NUMBER[a], _NUMBER[b]) for a, b in table(table_id).readmits}
    return {num: tuple(e for e in ex if (num, e[0]) not in readmits) for num, ex in _EXCLUDES.items()}


@lru_cache(maxsize=1 << 14)
def _exclude(found: tuple[tuple[int, int], ...], table_id: str = "mcr") -> tuple[tuple[tuple[int, int], ...], int]:
    """Apply the exclusions to ``found`` ((fan number, count) in table order): fans the table
    ``table_id`` does not have are dropped first (they exclude nothing); then, in table
    order, a fan that is itself excluded excludes nothing; Chicken Hand when nothing is left.
    Returns (what counts, its total without flowers, in the table's points)."""
    points = _points(table_id)
    excludes = _EXCLUDES if table_id == "mcr" else _table_excludes(table_id)
    left = {num: n for num, n in found if num in points}
    for num, _ in found:
        if num not in left or num not in excludes:
            continue
        for target, k in excludes[num]:
            n = left.get(target, 0) - k
            if k and n > 0:
                left[target] = n
            else:
                left.pop(target, None)
    if not left:
        left[_CHICKEN.number] = 1
    return tuple(sorted(left.items())), sum(points[num] * n for num, n in left.items())


_LOOKUPS = tuple((key, found) for _, key, found in _GROUPS)


def found_before_exclusions(ctx: WinContext) -> tuple[tuple[int, int], ...]:
    """(fan number, count) of every fan that counts on one reading, in table order, before
    exclusions and without Chicken Hand and flowers — the same as calling every ``Fan.count``
    on ``ctx``, from the memoised groups."""
    found: list[tuple[int, int]] = []  # the groups and the direct fans hold different fans
    for key, fans in _LOOKUPS:
        found += fans(key(ctx))
    for num, count in _DIRECT:
        n = count(ctx)
        if n:
            found.append((num, n))
    combos = ctx.combos
    if combos:  # the combination fans (Fan.combination) read this allocation
        if len(combos) == 1:
            found.append((_NUMBER[combos[0][0]], 1))
        else:
            nums = [_NUMBER[fid] for fid, _ in combos]
            found += [(num, nums.count(num)) for num in dict.fromkeys(nums)]
    found.sort()
    return tuple(found)


def _evaluate(ctx: WinContext, table_id: str = "mcr") -> tuple[tuple[tuple[int, int], ...], int]:
    """(fan number, count) in table order after exclusions, and their total, for one reading."""
    return _exclude(found_before_exclusions(ctx), table_id)


def evaluate(ctx: WinContext, table_id: str = "mcr") -> dict[str, int]:
    """Fan id → count for one reading in fan table ``table_id``, after exclusions, without
    flowers. Chicken Hand when nothing else counts."""
    return {_BY_NUMBER[num].id: n for num, n in _evaluate(ctx, table_id)[0]}


def score(situation: WinSituation, options: McrOptions | None = None) -> FanResult:
    """Score a win under MCR (Chinese Official, 国标; shared/rules/competition.md Part B).

    Returns a :class:`FanResult` with the fans in table order, each with the tiles it was
    counted on; ``total`` includes flowers, ``meets_minimum`` is ``total_without_flowers >= 8``.
    ``options.fan_table`` chooses the fan table (:mod:`.tables`): the fans it has and their
    points.
    A hand that is no winning shape gives ``is_win=False`` and ``error``. Raises
    :class:`McrInputError` (a ``ValueError``) for a malformed situation.
    """
    options = options or DEFAULT_OPTIONS
    table_id = options.fan_table
    points = _points(table_id)
    hand = prepare(situation)
    special, regular = readings(hand, options)
    best_ctx: WinContext | None = None
    best: tuple[tuple[int, int], ...] = ()
    best_total = 0
    seven_pairs = False
    if special is not None:
        best_ctx = special
        best, best_total = _exclude(found_before_exclusions(special), table_id)
        seven_pairs = special.shape == "seven_pairs" and special.detail != "shifted"
    for ctx in regular:
        found, total = _exclude(found_before_exclusions(ctx), table_id)
        if total > best_total or (
            total == best_total
            and (seven_pairs or any(num in _TIE_BREAKERS for num, _ in found))
        ):
            best_ctx, best, best_total = ctx, found, total
    if best_ctx is None:
        return FanResult(
            fans=(), total=0, total_without_flowers=0, is_win=False, meets_minimum=False,
            error=f"not a winning hand: {' '.join(situation.hand)} + {situation.win_tile}"
            + (f" with {len(situation.melds)} melds" if situation.melds else ""),
        )
    if hand.flowers:
        best = tuple(sorted(best + ((_FLOWERS.number, hand.flowers),)))
    items = []
    whole: Tiles | None = None  # the whole hand, which many fans are counted on
    before: dict[int, int] | None = None  # counts before the exclusions, read when one is partial
    for num, n in best:  # table order
        name_en, name_zh, on = _ITEM[num]
        if on is all_tiles:
            if whole is None:
                whole = all_tiles(best_ctx)
            tiles = whole
        else:
            tiles = on(best_ctx)
            if len(tiles) > n:
                if before is None:
                    before = dict(found_before_exclusions(best_ctx))
                if before.get(num) == len(tiles):  # one group per instance, some excluded (九莲宝灯's
                    tiles = tiles[len(tiles) - n:]  # 幺九刻 1): the groups left are the ones that count
        items.append(FanItem(name_en, name_zh, points[num], n, tiles))
    return FanResult(tuple(items), best_total + hand.flowers, best_total, True, None, best_total >= 8)
