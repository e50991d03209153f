"""A ruleset's winning shapes as data, and the exact distance of a hand to them (向听数).

Every ruleset states which shapes win through one hook,
:meth:`replayer.rules.base.Ruleset.winning_shapes` → :class:`WinningShapes`; the distance
of a hand to those shapes is computed here, once, for every ruleset (the decision review,
replayer/review.py). The data a ruleset supplies:

* ``regular``: one or more :class:`RegularShape` — ``4 − melds`` sets and a pair, with the
  sets it allows (chows or pungs only, honor chows of Nanchang), the kinds the pair may be
  (2-5-8 将 of Pingxiang / Changsha, shared/rules/jiangxi_variants.md §10,
  docs/reference/rules/changsha.md §3) and the kinds the whole hand may hold (Sichuan 定缺 /
  缺一门: the two other suits, docs/reference/rules/sichuan.md §2; a one-suit hand);
* ``special``: the concealed irregular shapes it knows — ``seven_pairs`` (七对),
  ``thirteen_orphans`` (十三幺 / 九幺), ``honors_and_knitted`` (MCR 全不靠 / 七星不靠),
  ``knitted_straight`` (MCR 组合龙 + a set + a pair, one declared set allowed), ``rotten``
  (Nanchang 十三烂), ``all_258`` (Changsha 将将胡, declared sets included);
* ``wildcards``: the tile kinds that are wild (Nanchang 精: 正精 and 副精), each able to stand
  for any tile.

**Distance.** The distance ``d`` of a hand to a shape is the fewest tiles a winning hand of
that shape holds that the hand does not — ``min |H − hand|`` over the winning hands ``H``
(multiset difference). The shanten number (向听数) is ``d − 1``: −1 for a complete hand,
0 for a ready hand (听牌) of 13 tiles or for 14 tiles one exchange from a win. A wild tile
matches any tile of ``H``, so with ``w`` wilds held the shanten is ``d(real tiles) − w − 1``.
A winning hand may hold at most 4 of a kind; tiles the hand lacks are assumed obtainable
(as usual, the copies left in play are counted separately: improving tiles and their unseen
copies, replayer/review.py).

The regular distance is found block by block (each suit, the winds, the dragons: no set or
pair crosses a block): for each block's counts, the most of its tiles ``k`` sets and ``p``
pairs of that block can use (``k`` 0..4, ``p`` 0..1), memoised on the block's counts; the
blocks are then combined so that they hold ``4 − melds`` sets and one pair in all.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations
from operator import itemgetter

from replayer.rules.shared.shapes import KNITTED_STRAIGHTS, ROTTEN_RANK_SETS, THIRTEEN_ORPHANS

__all__ = [
    "RegularShape",
    "WinningShapes",
    "SPECIAL_SHAPES",
    "STANDARD_SHAPES",
    "UNREACHABLE",
    "shanten",
    "shape_distances",
    "suits_tiles",
]

#: The irregular shapes :class:`WinningShapes` may name (concealed hands only).
SPECIAL_SHAPES = ("seven_pairs", "thirteen_orphans", "honors_and_knitted", "knitted_straight", "rotten",
                  "all_258")
#: A shanten no hand reaches (the shape is impossible, e.g. a declared set in the void suit).
UNREACHABLE = 99

_BLOCKS: tuple[tuple[int, int], ...] = ((0, 9), (9, 18), (18, 27), (27, 31), (31, 34))
_ALL = tuple(range(34))
_PAIR_258 = tuple(9 * s + r for s in range(3) for r in (1, 4, 7))
_ALL_WIND_CHOWS = tuple(combinations(range(27, 31), 3))


def suits_tiles(*suits: int, honors: bool = False) -> tuple[int, ...]:
    """The dense indices of the suits given (0 W 万, 1 T 条, 2 B 饼), plus the honors."""
    out = [9 * s + r for s in sorted(suits) for r in range(9)]
    return tuple(out + (list(range(27, 34)) if honors else []))


@dataclass(frozen=True)
class RegularShape:
    """``4 − melds`` sets and a pair.

    ``chows``: sets may be chows (False: pungs/kongs only, e.g. Changsha 碰碰胡);
    ``honor_chows``: also "chows" of three different winds and of 中发白 (True: any three
    winds; or the allowed triples, dense indices ascending, e.g. Ganzhou's 东南西, 南西北,
    中发白); ``pair_tiles``: the kinds the pair may be (None: any); ``tiles``: the kinds the
    hand — declared sets included — may hold (None: any; Sichuan 定缺: the two other suits)."""

    chows: bool = True
    honor_chows: bool | tuple[tuple[int, int, int], ...] = False
    pair_tiles: tuple[int, ...] | None = None
    tiles: tuple[int, ...] | None = None


@dataclass(frozen=True)
class WinningShapes:
    """The winning shapes of a ruleset for one seat at one moment (see the module doc).

    ``regular``: the regular shapes (any of them wins); ``special``: names from
    :data:`SPECIAL_SHAPES`; ``special_tiles``: the kinds the special shapes may hold (None:
    any); ``wildcards``: wild kinds (dense indices); ``max_suits``: a winning hand holds at
    most that many suits (Sichuan 缺一门 before a void suit is declared: 2; every shape is then
    measured under each choice of suits and the nearest counts); ``sources``: where the shapes
    are written (shown beside a review)."""

    regular: tuple[RegularShape, ...] = (RegularShape(),)
    special: tuple[str, ...] = ()
    special_tiles: tuple[int, ...] | None = None
    wildcards: tuple[int, ...] = ()
    max_suits: int | None = None
    sources: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        bad = [s for s in self.special if s not in SPECIAL_SHAPES]
        if bad:
            raise ValueError(f"unknown special shape(s) {bad}: expected some of {SPECIAL_SHAPES}")


#: Regular shape, seven pairs and thirteen orphans: what most rulesets share.
STANDARD_SHAPES = WinningShapes(special=("seven_pairs", "thirteen_orphans"))


# --- the regular shape, block by block --------------------------------------------------------

_NEG = -(10 ** 6)
_Table = tuple[tuple[int, int], ...]  # [k][p] → most tiles used; k 0..4, p 0..1


@lru_cache(maxsize=1 << 16)
def _block_table(counts: tuple[int, ...], lo: int, chows: tuple[tuple[int, ...], ...],
                 pairs: tuple[bool, ...], open_: bool) -> _Table:
    """The most real tiles of one block (``counts``: its kinds from dense index ``lo``) that
    ``k`` sets and ``p`` pairs inside the block can use. ``chows``: the chow triples (local
    indices); ``pairs``: which kinds may be the pair; ``open_``: the block may hold sets at all
    (sets using no real tile may always be added in an open block)."""
    if not open_:
        return tuple((0, _NEG) if k == 0 else (_NEG, _NEG) for k in range(5))
    i = next((j for j, c in enumerate(counts) if c), None)
    if i is None:
        any_pair = any(pairs)
        return tuple((0, 0 if any_pair else _NEG) for _ in range(5))
    best = [[_NEG, _NEG] for _ in range(5)]

    def take(removed: dict[int, int], dk: int, dp: int, *, unused: bool = False) -> None:
        c = list(counts)
        used = 0
        for j, n in removed.items():
            m = min(n, c[j])
            c[j] -= m
            used += 0 if unused else m
        sub = _block_table(tuple(c), lo, chows, pairs, open_)
        for k in range(5 - dk):
            for p in range(2 - dp):
                v = sub[k][p]
                if v > _NEG and v + used > best[k + dk][p + dp]:
                    best[k + dk][p + dp] = v + used

    take({i: 1}, 0, 0, unused=True)  # one copy of the lowest tile is not used
    take({i: 3}, 1, 0)  # a pung of it (tiles it lacks are added)
    if pairs[i]:
        take({i: 2}, 0, 1)
    for tri in chows:
        if i in tri:
            take({j: 1 for j in tri}, 1, 0)
    return tuple((best[k][0], best[k][1]) for k in range(5))


def _chow_triples(shape: RegularShape, lo: int, hi: int) -> tuple[tuple[int, ...], ...]:
    allowed = set(shape.tiles) if shape.tiles is not None else None
    out: list[tuple[int, ...]] = []
    if lo < 27:
        if shape.chows:
            out = [(r, r + 1, r + 2) for r in range(7)]
    elif shape.chows and shape.honor_chows is not False:
        triples: tuple[tuple[int, ...], ...] = (
            tuple(_ALL_WIND_CHOWS) + ((31, 32, 33),) if shape.honor_chows is True else shape.honor_chows)
        out = [tuple(t - lo for t in tri) for tri in triples if all(lo <= t < hi for t in tri)]
    if allowed is not None:
        out = [tri for tri in out if all(lo + t in allowed for t in tri)]
    return tuple(out)


@lru_cache(maxsize=256)
def _shape_blocks(shape: RegularShape) -> tuple[tuple[tuple[int, int, tuple[int, ...] | None, tuple, tuple[bool, ...]], ...],
                                                bool, bool]:
    """(the open blocks as (lo, hi, allowed local kinds or None, chow triples, pair kinds),
    any open block, a pair placeable in some open block)."""
    allowed = set(shape.tiles) if shape.tiles is not None else None
    pair_ok = set(shape.pair_tiles) if shape.pair_tiles is not None else set(_ALL)
    out = []
    any_pair = False
    for lo, hi in _BLOCKS:
        keep = None if allowed is None else tuple(j for j in range(hi - lo) if lo + j in allowed)
        if keep is not None and not keep:
            continue  # a closed block: its tiles are never part of the hand (as if discarded)
        pairs = tuple(t in pair_ok and (allowed is None or t in allowed) for t in range(lo, hi))
        any_pair = any_pair or any(pairs)
        out.append((lo, hi, keep, _chow_triples(shape, lo, hi), pairs))
    return tuple(out), bool(out), any_pair


@lru_cache(maxsize=1 << 18)
def _regular_distance(real: tuple[int, ...], melds: int, shape: RegularShape) -> int:
    """Fewest tiles missing for ``4 − melds`` sets and a pair (see the module doc). Only the
    open blocks holding tiles are combined; sets (and the pair) using no tile of the hand
    can always be added in an open block."""
    need = 4 - melds
    blocks, any_open, any_pair = _shape_blocks(shape)
    if not any_open:
        return UNREACHABLE + 1
    rng = range(need + 1)
    t0 = [0] + [_NEG] * need  # no pair yet: most tiles used by k sets
    t1 = [_NEG] * (need + 1)  # with the pair
    for lo, hi, keep, chows, pairs in blocks:
        part = real[lo:hi]
        if keep is not None:
            part = tuple(part[j] if j in keep else 0 for j in range(hi - lo))
        if not any(part):
            continue
        table = _block_table(part, lo, chows, pairs, True)
        b0 = [table[k][0] for k in rng]
        b1 = [table[k][1] for k in rng]
        n0 = [_NEG] * (need + 1)
        n1 = [_NEG] * (need + 1)
        for k in rng:
            a0 = t0[k]
            a1 = t1[k]
            for j in range(need + 1 - k):
                if a0 > _NEG:
                    v = a0 + b0[j]
                    if v > n0[k + j]:
                        n0[k + j] = v
                    v = a0 + b1[j]
                    if v > n1[k + j]:
                        n1[k + j] = v
                if a1 > _NEG:
                    v = a1 + b0[j]
                    if v > n1[k + j]:
                        n1[k + j] = v
        t0, t1 = n0, n1
    used = max(t1)
    if any_pair:
        used = max(used, max(t0))
    return UNREACHABLE + 1 if used <= _NEG // 2 else 3 * need + 2 - used


# --- the irregular shapes ------------------------------------------------------------------------


def _allowed(real: tuple[int, ...], tiles: tuple[int, ...] | None) -> tuple[int, ...]:
    if tiles is None:
        return real
    keep = set(tiles)
    return tuple(c if t in keep else 0 for t, c in enumerate(real))


def _seven_pairs_distance(real: tuple[int, ...]) -> int:
    pairs = min(7, sum(c // 2 for c in real))  # four of a kind: two pairs
    singles = sum(1 for c in real if c % 2)
    return 14 - 2 * pairs - min(singles, 7 - pairs)


def _orphans_distance(real: tuple[int, ...]) -> int:
    kinds = sum(1 for t in THIRTEEN_ORPHANS if real[t])
    pair = any(real[t] >= 2 for t in THIRTEEN_ORPHANS)
    return 14 - kinds - (1 if pair else 0)


def _knitted_distance(real: tuple[int, ...]) -> int:
    honors = sum(1 for t in range(27, 34) if real[t])
    return 14 - min(14, max(honors + sum(1 for t in seq if real[t]) for seq in KNITTED_STRAIGHTS))


def _knitted_straight_distance(real: tuple[int, ...], melds: int) -> int:
    if melds > 1:
        return UNREACHABLE + 1
    best = UNREACHABLE + 1
    for seq in KNITTED_STRAIGHTS:
        missing = sum(1 for t in seq if not real[t])
        if missing >= best:
            continue
        rest = list(real)
        for t in seq:
            if rest[t]:
                rest[t] -= 1
        best = min(best, missing + _regular_distance(tuple(rest), 3 + melds, RegularShape()))
    return best


def _rotten_distance(real: tuple[int, ...]) -> int:
    used = sum(1 for t in range(27, 34) if real[t])
    for s in range(3):
        have = {r for r in range(9) if real[9 * s + r]}
        used += max(len(have & set(r)) for r in ROTTEN_RANK_SETS)
    return 14 - min(14, used)


def _all_258_distance(real: tuple[int, ...], melds: int) -> int:
    return 3 * (4 - melds) + 2 - min(3 * (4 - melds) + 2, sum(real[t] for t in _PAIR_258))


def _melds_fit(meld_tiles: tuple[tuple[int, ...], ...], shape: RegularShape) -> bool:
    for m in meld_tiles:
        if shape.tiles is not None and any(t not in shape.tiles for t in m):
            return False
        if not shape.chows and len(set(m)) > 1:
            return False
    return True


def _meet(a: tuple[int, ...] | None, b: tuple[int, ...]) -> tuple[int, ...]:
    return b if a is None else tuple(t for t in a if t in set(b))


def shape_distances(counts: tuple[int, ...], meld_tiles: tuple[tuple[int, ...], ...],
                    shapes: WinningShapes) -> dict[str, int]:
    """The shanten of the concealed tiles ``counts`` (34-count vector, wilds included) with
    the declared sets ``meld_tiles`` (dense indices of each set) for each shape of ``shapes``:
    ``{"regular": n, "seven_pairs": n, …}`` (regular: the best of the regular shapes);
    :data:`UNREACHABLE` for a shape the hand cannot reach. Raises ValueError for a vector
    that is not 34 long or more than four declared sets."""
    if len(counts) != 34:
        raise ValueError(f"a count vector has 34 entries, got {len(counts)}")
    melds = len(meld_tiles)
    if melds > 4:
        raise ValueError(f"at most 4 declared sets, got {melds}")
    if shapes.max_suits is not None and shapes.max_suits < 3:
        best: dict[str, int] = {}
        for suits in combinations(range(3), shapes.max_suits):
            keep = suits_tiles(*suits, honors=True)
            one = replace(
                shapes, max_suits=None,
                regular=tuple(replace(r, tiles=_meet(r.tiles, keep)) for r in shapes.regular),
                special_tiles=_meet(shapes.special_tiles, keep),
            )
            for k, v in shape_distances(counts, meld_tiles, one).items():
                best[k] = min(best.get(k, UNREACHABLE), v)
        return best
    wild_kinds = set(shapes.wildcards)
    w = sum(counts[t] for t in wild_kinds)
    real = tuple(0 if t in wild_kinds else c for t, c in enumerate(counts))

    def sh(d: int) -> int:
        return UNREACHABLE if d > UNREACHABLE else max(-1, d - w - 1)

    out: dict[str, int] = {}
    reg = [_regular_distance(real, melds, s) for s in shapes.regular if _melds_fit(meld_tiles, s)]
    out["regular"] = sh(min(reg)) if reg else UNREACHABLE
    special_real = _allowed(real, shapes.special_tiles)
    for name in shapes.special:
        if name == "all_258":
            if all(t in _PAIR_258 for m in meld_tiles for t in m):
                out[name] = sh(_all_258_distance(real, melds))
            else:
                out[name] = UNREACHABLE
            continue
        if name == "knitted_straight":
            out[name] = sh(_knitted_straight_distance(special_real, melds))
            continue
        if melds:
            out[name] = UNREACHABLE
            continue
        d = {"seven_pairs": _seven_pairs_distance, "thirteen_orphans": _orphans_distance,
             "honors_and_knitted": _knitted_distance, "rotten": _rotten_distance}[name](special_real)
        out[name] = sh(d)
    return out


_KNIT_GETTERS = tuple(itemgetter(*seq) for seq in KNITTED_STRAIGHTS)


@lru_cache(maxsize=256)
def _without_knitted_straight(shapes: WinningShapes) -> WinningShapes:
    return replace(shapes, special=tuple(x for x in shapes.special if x != "knitted_straight"))


@lru_cache(maxsize=1 << 18)
def shanten(counts: tuple[int, ...], meld_tiles: tuple[tuple[int, ...], ...], shapes: WinningShapes) -> int:
    """The smallest shanten over every shape of ``shapes`` (as :func:`shape_distances`; the
    组合龙 shape is measured only when its lower bound — the knitted tiles missing — could
    beat the others)."""
    if "knitted_straight" not in shapes.special or shapes.max_suits is not None:
        return min(shape_distances(counts, meld_tiles, shapes).values())
    best = min(shape_distances(counts, meld_tiles, _without_knitted_straight(shapes)).values())
    wild_kinds = set(shapes.wildcards)
    w = sum(counts[t] for t in wild_kinds)
    real = _allowed(tuple(0 if t in wild_kinds else c for t, c in enumerate(counts)), shapes.special_tiles)
    bound = 9 - max(sum(map(bool, get(real))) for get in _KNIT_GETTERS) - w - 1
    if bound >= best or len(meld_tiles) > 1:
        return best
    d = _knitted_straight_distance(real, len(meld_tiles))
    return min(best, UNREACHABLE if d > UNREACHABLE else max(-1, d - w - 1))
