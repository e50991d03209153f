"""Nanchang win evaluation: every interpretation of a winning hand, and the one that pays the
winner most (shared/rules/nanchang.md §6, §13).

A jing (精) in the winner's concealed hand — or a self-drawn winning tile that is a jing —
may be wild or at face value (§4.2). A discarded or robbed winning tile is face value only,
and jing in declared sets never are wild. Shapes (§6.1–6.5): standard (4 sets incl. wind /
dragon chows + a pair), 大七对 (pungs only), 小七对 (7 pairs, no melds or kongs, two identical
pairs allowed), 十三烂, 七星十三烂. Conditions: 德国 (an interpretation with no wild, §6.6),
德中德 (§6.7), 精钓 state / restriction / credit (§6.8), 杠开 (§6.9), 抢杠 (§6.10), 天胡 / 地胡
(§6.11). The decomposition is the shared one (:mod:`replayer.rules.shared.decompose` with
``wildcards`` and ``honor_chows``); wild feasibility is monotone (a wild can stand for its
own kind), so a shape's best interpretation is found from the all-wild and no-wild checks,
and the reported one uses the fewest wilds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Literal

from eventlog import tiles as _tiles
import replayer.rules.nanchang.shape_filter as _shape_filter
from replayer.rules.nanchang.jing import NO_JING, JingKinds
from replayer.rules.nanchang.options import NanchangOptions
from replayer.rules.nanchang.settlement import (
    MeldInfo,
    condition_factor,
    flat_component,
    shape_factor,
    win_component,
    win_multiplier,
)
from replayer.rules.shared import decompose as _dec
from replayer.rules.shared import shapes as _shapes

__all__ = ["clear_caches", "has_shape", "honor_chows", "pair_tiles", "enabled_shapes", "COUNTS", "SHAPE_SIZE", "WinInput", "ScoreItem", "Interpretation", "WinEvaluation", "evaluate",
           "in_jingdiao_state", "jingdiao_tianhu", "winning_shapes", "SHAPES"]

SHAPES = ("standard", "big_seven_pairs", "seven_pairs", "thirteen_rotten", "seven_star_rotten",
          "luxury_seven_pairs", "thirteen_orphans")
#: Tie-break between shapes paying the same (jiangxi data README "Win value"): the larger.
SHAPE_SIZE = {"standard": 0, "seven_pairs": 1, "thirteen_rotten": 1, "big_seven_pairs": 2,
              "luxury_seven_pairs": 3, "seven_star_rotten": 3, "thirteen_orphans": 3}
CONDITION_ORDER = ("self_drawn", "kong_replacement", "robbed_kong", "jing_fishing", "deguo",
                   "deguo_in_deguo", "deguo_seven_pairs_bonus", "concealed_self_draw", "small_self_draw",
                   "half_flush", "full_flush", "single_fly", "last_tile", "dasanyuan", "dasixi", "single_wait",
                   "capped", "chi3_liability")
#: Count-valued factors (each doubles the win once per unit): 宝, flown jing, set-aside 发.
COUNTS = ("bao", "flown_jing", "fa_flowers")
NAMES = {
    "standard": ("Standard hand", "平胡"),
    "big_seven_pairs": ("Big seven pairs", "大七对"),
    "seven_pairs": ("Seven pairs", "小七对"),
    "thirteen_rotten": ("Thirteen rotten", "十三烂"),
    "seven_star_rotten": ("Seven-star thirteen rotten", "七星十三烂"),
    "heavenly": ("Heavenly hand", "天胡"),
    "earthly": ("Earthly hand", "地胡"),
    "self_drawn": ("Self-drawn", "自摸"),
    "kong_replacement": ("Win on kong replacement", "杠开"),
    "robbed_kong": ("Robbing a kong", "抢杠"),
    "jing_fishing": ("Jing fishing", "精钓"),
    "deguo": ("Deguo (no wild jing)", "德国"),
    "deguo_in_deguo": ("Deguo in deguo", "德中德"),
    "deguo_seven_pairs_bonus": ("Deguo seven pairs bonus", "德国小七对"),
    "luxury_seven_pairs": ("Luxury seven pairs", "豪华七对"),
    "thirteen_orphans": ("Nine-one (thirteen orphans)", "九幺"),
    "concealed_self_draw": ("Concealed self-draw", "门清自摸"),
    "small_self_draw": ("Small self-draw", "小自摸"),
    "half_flush": ("Half flush", "混一色"),
    "full_flush": ("Full flush", "清一色"),
    "single_fly": ("Single fly", "单飞"),
    "last_tile": ("Last tile", "海底捞月"),
    "dasanyuan": ("Big three dragons", "大三元"),
    "dasixi": ("Big four winds", "大四喜"),
    "single_wait": ("Single wait", "单调"),
    "capped": ("Capped", "封顶"),
    "chi3_liability": ("Three-chow liability", "包"),
    "bao": ("Bao", "宝"),
    "flown_jing": ("Flown jing", "飞宝"),
    "fa_flowers": ("Green dragon flowers", "发"),
}

Source = Literal["self_drawn", "discard", "robbed"]


@dataclass(frozen=True)
class WinInput:
    """A declared win: the winner's ``concealed`` tiles without the winning tile, ``melds``,
    ``win_tile`` and its ``source``; ``kong_replacement`` (杠开), ``heavenly`` (天胡: the
    dealer's 14 dealt tiles), ``earthly`` (地胡); seats: ``seat``, ``dealer``, ``from_seat``
    (discarder or robbed konger). Jiangxi options: ``flowers`` (the 发 set aside,
    ``fa_as_flower``), ``discarded`` (every tile the winner discarded, claimed or not: 飞宝),
    ``last_tile`` (the winning tile is the last wall tile)."""

    concealed: tuple[str, ...]
    melds: tuple[MeldInfo, ...]
    win_tile: str
    source: Source
    seat: int
    dealer: int
    from_seat: int | None = None
    kong_replacement: bool = False
    heavenly: bool = False
    earthly: bool = False
    flowers: tuple[str, ...] = ()
    discarded: tuple[str, ...] = ()
    last_tile: bool = False


@dataclass(frozen=True)
class ScoreItem:
    """One line of the explained score, shaped like an MCR fan line so audit, analytics and
    the dashboard show it: ``points`` is the multiplier (×2 → 2) or a flat amount,
    ``tiles`` the tiles it was counted on."""

    name_en: str
    name_zh: str
    points: int
    count: int = 1
    tiles: tuple[tuple[str, ...], ...] = ()
    id: str = ""


@dataclass(frozen=True)
class Interpretation:
    """A shape with each wild jing's stand-in: ``wild`` lists (jing tile, tile it stands
    for); empty for a 德国 reading."""

    shape: str
    wild: tuple[tuple[str, str], ...] = ()

    @property
    def deguo(self) -> bool:
        return not self.wild


@dataclass(frozen=True)
class WinEvaluation:
    """The verdict on a win. ``legal`` False with ``rule_id``/``message`` for a false win
    (诈胡). Otherwise ``shape`` (a §6 shape, or heavenly / earthly), ``conditions`` (in
    :data:`CONDITION_ORDER`), ``multiplier`` M (0 for a flat 天胡/地胡), ``win`` (the win
    component, zero-sum), ``interpretation`` (the chosen reading), ``jingdiao_state``, and
    ``fans`` (explained items), ``counts`` (count-valued factors, :data:`COUNTS`)."""

    legal: bool
    shape: str | None = None
    conditions: tuple[str, ...] = ()
    multiplier: int = 0
    win: tuple[int, int, int, int] = (0, 0, 0, 0)
    interpretation: Interpretation | None = None
    jingdiao_state: bool = False
    fans: tuple[ScoreItem, ...] = ()
    rule_id: str | None = None
    message: str = ""
    counts: tuple[tuple[str, int], ...] = ()

    @property
    def points(self) -> int:
        """What the winner receives in the win component."""
        return max(self.win)


# --- shape feasibility --------------------------------------------------------------------


def _counts(tiles) -> tuple[int, ...]:
    """34-count vector of ``tiles``; flowers (never part of a shape) are left out."""
    c = [0] * 34
    for t in tiles:
        i = _tiles.index(t)
        if i < 34:
            c[i] += 1
    return tuple(c)


def _minus(c: tuple[int, ...] | None, i: int, n: int) -> tuple[int, ...] | None:
    if c is None:
        return None
    if n == 0:
        return c
    if c[i] < n:
        return None
    x = list(c)
    x[i] -= n
    return tuple(x)


def honor_chows(options: NanchangOptions) -> _dec.HonorChows:
    """The decomposition's ``honor_chows`` for option ``honor_chi`` (jiangxi_variants.md §1)."""
    by_option: dict[str, _dec.HonorChows] = {"any_distinct": True, "ordered": _dec.ORDERED_HONOR_CHOWS, "none": False}
    return by_option[options.honor_chi]


def pair_tiles(options: NanchangOptions) -> tuple[int, ...] | None:
    """The decomposition's ``pair_tiles`` for option ``pair_258`` (2, 5, 8 of a suit)."""
    return _dec.PAIR_258 if options.pair_258 else None


def enabled_shapes(options: NanchangOptions) -> tuple[str, ...]:
    """The shapes the options allow, in :data:`SHAPES` order: 十三烂 / 七星 with ``shisanlan``
    (or ``lanhu``), 豪华七对 with ``win_scoring = xinyu``, 九幺 with ``jiuyao_factor``."""
    rotten = options.shisanlan or options.lanhu
    out = []
    for shape in SHAPES:
        if shape == "thirteen_rotten" and not rotten:
            continue
        if shape == "seven_star_rotten" and not (rotten and options.qixing):
            continue
        if shape == "luxury_seven_pairs" and options.win_scoring != "xinyu":
            continue
        if shape == "thirteen_orphans" and options.jiuyao_factor is None:
            continue
        out.append(shape)
    return tuple(out)


@lru_cache(maxsize=1 << 18)
def _shape_fill(shape: str, real: tuple[int, ...], wild: int, melds_ok: bool, qixing_wild: str,
                hc: _dec.HonorChows = True, pt: tuple[int, ...] | None = None) -> tuple[int, ...] | None:
    """The stand-ins of ``wild`` wildcards making ``real`` into ``shape``, or None. For the
    regular shapes the stand-ins are only computed when asked (see :func:`_standins`);
    feasibility returns ``()``."""
    if shape in ("standard", "big_seven_pairs"):
        ok = _dec.can_complete(real, wildcards=wild, honor_chows=hc, chows=shape == "standard", pair_tiles=pt)
        return () if ok and melds_ok else None
    if not melds_ok:
        return None
    if shape == "seven_pairs":
        return _shapes.seven_pairs_fill(real, wild)
    if shape == "luxury_seven_pairs":
        fill = _shapes.seven_pairs_fill(real, wild)
        if fill is None:
            return None
        full = list(real)
        for t in fill:
            full[t] += 1
        return fill if any(n == 4 for n in full) else None
    if shape == "thirteen_orphans":
        return _shapes.thirteen_orphans_fill(real, wild)
    if shape == "thirteen_rotten":
        return _shapes.rotten_fill(real, wild)
    if qixing_wild == "none" and wild:
        return None
    return _shapes.rotten_fill(real, wild, min_honors=7, wild_honors=qixing_wild == "any")


def _standins(shape: str, real: tuple[int, ...], wild: int, hc: _dec.HonorChows = True,
              pt: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """Tiles the wildcards stand for in a regular shape (one division of the shared
    decomposition; a wild-only set is a pung, a wild-only pair a pair, of the lowest kinds
    absent from the hand — for the pair, the lowest allowed kind)."""
    d = _dec.first_division(real, wildcards=wild, honor_chows=hc, chows=shape == "standard", pair_tiles=pt)
    if d is None:
        raise AssertionError("no division although the shape was feasible")
    out: list[int] = []
    absent = [t for t in range(34) if real[t] == 0]
    k = 0
    for g in d.sets + (d.pair,):
        if g.kind == "wild_set":
            out += [absent[k]] * 3
            k += 1
        elif g.kind == "wild_pair":
            pool = [t for t in absent[k:] if pt is None or t in pt] or list(pt or absent)
            out += [pool[0]] * 2
        else:
            out += list(g.wild)
    return tuple(sorted(out))


def _splits(wildable: tuple[int, ...]) -> list[tuple[int, ...]]:
    """How many of each jing kind are wild, in order of fewer wilds."""
    return sorted(product(*(range(n + 1) for n in wildable)), key=lambda sp: (sum(sp), sp))


def _real(counts: tuple[int, ...], jidx: tuple[int, ...], split: tuple[int, ...]) -> tuple[int, ...] | None:
    out: tuple[int, ...] | None = counts
    for j, n in zip(jidx, split):
        out = _minus(out, j, n)
    return out


def _shape_options(win_counts: tuple[int, ...], wildable: tuple[int, ...], kinds: JingKinds,
                   melds: tuple[MeldInfo, ...], options: NanchangOptions) -> dict:
    """Per enabled shape: the fewest-wild feasible ``(split, stand-ins)`` or None (split: wild
    tiles of each jing kind). Memoised on the tile-count vector (with the wildable jing, meld
    kinds and options)."""
    meld_kinds = tuple(sorted(m.kind for m in melds))
    return dict(_shape_options_cached(win_counts, wildable, kinds.indices, meld_kinds, options))


@lru_cache(maxsize=1 << 16)
def _shape_options_cached(win_counts: tuple[int, ...], wildable: tuple[int, ...], jidx: tuple[int, ...],
                          meld_kinds: tuple[str, ...], options: NanchangOptions) -> tuple:
    hc, pt = honor_chows(options), pair_tiles(options)
    out: dict[str, tuple[tuple[int, ...], tuple[int, ...]] | None] = {}
    splits = _splits(wildable)
    for shape in enabled_shapes(options):
        if shape == "big_seven_pairs":
            melds_ok = "chow" not in meld_kinds
        elif shape == "standard":
            melds_ok = True
        else:
            melds_ok = not meld_kinds
        found = None
        if shape not in ("seven_star_rotten", "luxury_seven_pairs") and len(splits) > 1:
            # a wild can stand for its own kind, so these shapes are monotone in the wilds:
            # when all jing wild cannot make the shape, no split can (§13 pruning)
            top = splits[-1]
            real = _real(win_counts, jidx, top)
            if real is None or _shape_fill(shape, real, sum(top), melds_ok, options.qixing_wild, hc, pt) is None:
                out[shape] = None
                continue
        for split in splits:
            real = _real(win_counts, jidx, split)
            if real is None:
                continue
            wild = sum(split)
            fill = _shape_fill(shape, real, wild, melds_ok, options.qixing_wild, hc, pt)
            if fill is not None:
                if shape in ("standard", "big_seven_pairs") and wild:
                    fill = _standins(shape, real, wild, hc, pt)
                found = (split, fill)
                break
        out[shape] = found
    return tuple(out.items())


def winning_shapes(tiles: tuple[str, ...], melds: tuple[MeldInfo, ...], kinds: JingKinds,
                   options: NanchangOptions) -> dict[str, tuple[tuple[int, ...], tuple[int, ...]] | None]:
    """The shapes ``tiles`` (concealed + winning tile, all jing among them wildable) make with
    ``melds``: shape → (wild tiles per jing kind, stand-in indices) with the fewest wilds, or
    None."""
    c = _counts(tiles)
    return _shape_options(c, tuple(c[j] for j in kinds.indices), kinds, melds, options)


# --- 精钓 (§6.8) ----------------------------------------------------------------------------


@lru_cache(maxsize=1 << 16)
def _jingdiao(counts: tuple[int, ...], jidx: tuple[int, ...], pairs_ok: bool, hc: _dec.HonorChows = True) -> bool:
    for j in jidx:
        if counts[j] == 0:
            continue
        rest = list(counts)
        rest[j] -= 1
        w = sum(rest[k] for k in jidx)
        for k in jidx:
            rest[k] = 0
        real = tuple(rest)
        if _dec.can_complete(real, wildcards=w, pair=False, honor_chows=hc):
            return True
        if pairs_ok and sum(real) + w == 12:
            odd = sum(1 for n in real if n % 2)
            if odd <= w:
                return True
    return False


def in_jingdiao_state(concealed: tuple[str, ...], melds: tuple[MeldInfo, ...], kinds: JingKinds,
                      options: NanchangOptions | None = None) -> bool:
    """精钓 state (§6.8): the concealed tiles (before a new tile) hold a jing whose removal
    leaves sets only (other jing wild allowed) — or, with no melds and no kong, 6 pairs.
    Never without jing (``jing_mode = none``)."""
    if not kinds.tiles:
        return False
    hc = honor_chows(options) if options is not None else True
    return _jingdiao(_counts(concealed), kinds.indices, not melds, hc)


def jingdiao_tianhu(tiles14: tuple[str, ...], kinds: JingKinds, options: NanchangOptions | None = None) -> bool:
    """精钓天胡 (§6.11, A-15): the 14 dealt tiles are sets + a pair of a wild jing and one other
    tile (any tile completes the pair)."""
    c = _counts(tiles14)
    jidx = kinds.indices
    hc = honor_chows(options) if options is not None else True
    for j in jidx:
        if c[j] == 0:
            continue
        rest = list(c)
        rest[j] -= 1
        for t in range(34):
            if rest[t] == 0:
                continue
            rest[t] -= 1
            w = sum(rest[k] for k in jidx)
            real = list(rest)
            for k in jidx:
                real[k] = 0
            ok = _dec.can_complete(tuple(real), wildcards=w, pair=False, honor_chows=hc)
            rest[t] += 1
            if ok:
                return True
    return False


# --- patterns of the Jiangxi presets (jiangxi data README "Pattern options") -----------------

_DRAGONS = (31, 32, 33)
_WINDS = (27, 28, 29, 30)


def _meld_kind_index(m: MeldInfo) -> int | None:
    if m.kind == "chow" or len(set(m.tiles)) != 1:
        return None
    i = _tiles.index(m.tiles[0])
    return i if i < 34 else None


def _pungs_of(kinds_needed: tuple[int, ...], real: tuple[int, ...], wild: int, melds: tuple[MeldInfo, ...],
              shape: str, options: NanchangOptions) -> bool:
    """A division of ``real`` + ``wild`` (with ``melds``) into ``shape`` in which every kind of
    ``kinds_needed`` is a pung or kong (melded, or concealed with wilds filling)."""
    melded = {_meld_kind_index(m) for m in melds}
    c = list(real)
    w = wild
    for k in kinds_needed:
        if k in melded:
            continue
        r = min(3, c[k])
        c[k] -= r
        w -= 3 - r
        if w < 0:
            return False
    return _dec.can_complete(tuple(c), wildcards=w, honor_chows=honor_chows(options), chows=shape == "standard",
                             pair_tiles=pair_tiles(options))


def _flush(win: WinInput) -> str | None:
    """"full" (清一色: one suit, no honor), "half" (混一色: one suit and honors) or None; 宝
    (flower) melds are left out."""
    tiles = [t for t in win.concealed + (win.win_tile,) if not _tiles.is_flower(t)]
    for m in win.melds:
        tiles += [t for t in m.tiles if not _tiles.is_flower(t)]
    idx = [_tiles.index(t) for t in tiles]
    suits = {i // 9 for i in idx if i < 27}
    if len(suits) != 1:
        return None
    return "full" if all(i < 27 for i in idx) else "half"


def _single_wait(win: WinInput, options: NanchangOptions) -> bool:
    """单调 (jiangxi data README): the only kind completing the concealed tiles at face value
    is the winning kind, and that kind forms the pair."""
    c0 = list(_counts(win.concealed))
    w = _tiles.index(win.win_tile)
    hc, pt = honor_chows(options), pair_tiles(options)
    for t in range(34):
        c0[t] += 1
        ok = _dec.can_complete(tuple(c0), honor_chows=hc, pair_tiles=pt)
        c0[t] -= 1
        if ok != (t == w):
            return False
    if c0[w] < 1:
        return False
    c0[w] -= 1
    return _dec.can_complete(tuple(c0), pair=False, honor_chows=hc)


def _patterns(shape: str, real: tuple[int, ...], wild: int, win: WinInput, options: NanchangOptions) -> list[str]:
    """The pattern conditions of a ``win_scoring = nanchang`` interpretation: 大三元, 大四喜,
    单调, 清一色 (each only when its factor option is set)."""
    out = []
    regular = shape in ("standard", "big_seven_pairs")
    if options.dasanyuan_factor is not None and regular and _pungs_of(_DRAGONS, real, wild, win.melds, shape, options):
        out.append("dasanyuan")
    if options.dasixi_factor is not None and regular:
        wind_kongs = {_meld_kind_index(m) for m in win.melds if m.kind == "kong"}
        if all(k in wind_kongs for k in _WINDS):
            out.append("dasixi")
    if options.dandiao_factor is not None and regular and _single_wait(win, options):
        out.append("single_wait")
    if options.qingyise_factor is not None and _flush(win) == "full":
        out.append("full_flush")
    return out


def _chi3_feeder(win: WinInput, options: NanchangOptions) -> int | None:
    """``chi3_liability``: the winner's 上家 when the winner chowed 3 times from it (all
    chows; ``chi_same_suit``: 3 of one suit, honor chows one group), else None."""
    if options.chi3_liability == "off":
        return None
    feeder = (win.seat - 1) % 4
    groups: dict[int, int] = {}
    for m in win.melds:
        if m.kind != "chow" or m.from_seat not in (None, feeder):
            continue
        i = _tiles.index(m.tiles[0])
        g = 0 if options.chi3_liability == "chi_from_same_player" else min(i // 9, 3)
        groups[g] = groups.get(g, 0) + 1
    return feeder if any(n >= 3 for n in groups.values()) else None


def _xinyu_value(shape: str, win: WinInput, options: NanchangOptions, fa: int) -> tuple[int, tuple[str, ...], dict[str, int]]:
    """``win_scoring = xinyu`` (jiangxi_variants.md §4 [prov.], data README "Xinyu"): V = the
    highest base — 门清自摸 4 (no pung, no melded or added kong) or 小自摸 2, 碰碰和 4, 七对 4,
    豪华七对 8 — × 2 混一色/清一色, × 2 单飞 (碰碰和 with four melds), × 2 海底捞月, × 2 杠上花,
    × 2^发. Returns (V, conditions, factor of each condition)."""
    menqing = all(m.kind == "chow" or (m.kind == "kong" and m.kong_kind == "concealed") for m in win.melds)
    grade = "concealed_self_draw" if menqing else "small_self_draw"
    base = max(4 if menqing else 2, {"big_seven_pairs": 4, "seven_pairs": 4, "luxury_seven_pairs": 8}.get(shape, 0))
    conds = ["self_drawn", grade]
    factors = {"self_drawn": 1, grade: base}
    flush = _flush(win)
    if flush:
        conds.append(f"{flush}_flush")
        factors[f"{flush}_flush"] = 2
    if shape == "big_seven_pairs" and len(win.melds) == 4:
        conds.append("single_fly")
        factors["single_fly"] = 2
    if win.last_tile:
        conds.append("last_tile")
        factors["last_tile"] = 2
    if win.kong_replacement:
        conds.append("kong_replacement")
        factors["kong_replacement"] = 2
    v = base
    for c in conds[2:]:
        v *= factors[c]
    return v << fa, tuple(x for x in CONDITION_ORDER if x in conds), factors


# --- the evaluation -------------------------------------------------------------------------


def clear_caches() -> None:
    """Forget every memoised shape check (the evaluator's and the shared decomposition's
    count-vector caches): for cold-cache benchmarks."""
    _shape_fill.cache_clear()
    _shape_options_cached.cache_clear()
    _jingdiao.cache_clear()
    _shape_filter.clear_caches()
    _dec._feasible.cache_clear()
    _dec.decompose.cache_clear()
    _dec._wild_split.cache_clear()
    _shapes.rotten_fill.cache_clear()


def _fans(shape: str, conditions: tuple[str, ...], tiles: tuple[str, ...], interp: Interpretation | None,
          options: NanchangOptions, flat: int | None, counts: tuple[tuple[str, int], ...] = (),
          factors: dict[str, int] | None = None) -> tuple[ScoreItem, ...]:
    items = []
    if flat is not None:
        en, zh = NAMES[shape]
        items.append(ScoreItem(en, zh, flat, tiles=(tiles,), id=shape))
        if conditions:
            en, zh = NAMES["jing_fishing"]
            items.append(ScoreItem(en, zh, flat, tiles=(tiles,), id="jing_fishing"))
    else:
        en, zh = NAMES[shape]
        items.append(ScoreItem(en, zh, shape_factor(shape, options) if factors is None else 1, tiles=(tiles,), id=shape))
        wild = tuple(j for j, _ in interp.wild) if interp else ()
        for c in conditions:
            en, zh = NAMES[c]
            f = condition_factor(c, options) if factors is None else factors.get(c, 1)
            items.append(ScoreItem(en, zh, f, tiles=(wild,) if wild and c == "jing_fishing" else (), id=c))
    for name, n in counts:
        en, zh = NAMES[name]
        items.append(ScoreItem(en, zh, 2, count=n, id=name))
    return tuple(items)


def _wildable(win: WinInput, kinds: JingKinds) -> tuple[int, ...]:
    """Tiles of each jing kind that may be wild: the concealed jing, and a self-drawn jing
    (§4.2)."""
    out = []
    for j in kinds.tiles:
        n = sum(1 for t in win.concealed if t == j)
        if win.source == "self_drawn" and win.win_tile == j:
            n += 1
        out.append(n)
    return tuple(out)


def has_shape(win: WinInput, kinds: JingKinds, options: NanchangOptions) -> bool:
    """Whether the declared win's 14 tiles make some enabled shape (§6.1–6.5) in some
    interpretation: when False, :func:`evaluate` returns an illegal win without looking at
    anything else (``nobody_holds_jing`` …). Shares :func:`evaluate`'s memoised shape checks."""
    hand = win.concealed + (win.win_tile,)
    if any(_tiles.is_flower(t) for t in hand):
        return False
    c = _counts(hand)
    if sum(c) + 3 * len(win.melds) != 14:
        return False
    shapes = _shape_options(c, _wildable(win, kinds), kinds, win.melds, options)
    return any(v is not None for v in shapes.values())


def _illegal(rule_id: str, message: str, state: bool = False) -> WinEvaluation:
    return WinEvaluation(False, rule_id=rule_id, message=message, jingdiao_state=state)


def _count_factors(win: WinInput, kinds: JingKinds, options: NanchangOptions) -> dict[str, int]:
    """The count-valued factors (:data:`COUNTS`): 宝 (``flower_bao``: flowers in the winner's
    melds, plus the flowers it flew with ``fly_bao_doubling``), flown jing (``fly_bao_doubling``
    with jing), 发 set aside (``fa_as_flower``)."""
    out = {}
    if options.flower_bao:
        b = sum(1 for m in win.melds for t in m.tiles if _tiles.is_flower(t))
        if options.fly_bao_doubling:
            b += sum(1 for t in win.discarded if _tiles.is_flower(t))
        out["bao"] = b
    elif options.fly_bao_doubling:
        out["flown_jing"] = sum(1 for t in win.discarded if kinds.is_jing(t))
    if options.fa_as_flower:
        out["fa_flowers"] = sum(1 for t in win.flowers if t == "J2")
    return {k: v for k, v in out.items() if v}


def evaluate(win: WinInput, kinds: JingKinds, options: NanchangOptions, *, nobody_holds_jing: bool = False,
             blocked: tuple[str, str] | None = None) -> WinEvaluation:
    """Evaluate a declared win (§6, jiangxi_variants.md) and price it (§9.5); the
    interpretation paying the winner most is chosen, ties to 德国, then fewer wilds, then the
    larger shape (:data:`SHAPE_SIZE`).

    ``nobody_holds_jing``: no player holds an attributed jing outside kongs (德中德's
    condition, computed by the caller from the whole table, §6.7). ``blocked``: (rule_id,
    message) when play rules already forbid this win (弃胡 …): the win is then illegal.
    Returns an illegal evaluation rather than raising; rule ids in the order they are checked
    (jiangxi data README "Illegal wins"): ``flower_bao``, ``discard_win_allowed``,
    ``last_draw_no_discard``, ``pair_258``, ``false_win`` (no winning shape),
    ``discard_win_max_jing``, ``jingdiao_discard_win`` — or the blocked one."""
    if blocked is not None:
        return _illegal(blocked[0], blocked[1])
    if options.jing_mode == "none":
        kinds = NO_JING  # the option decides: no wild, no 德国, whatever indicator the caller knew
    concealed = win.concealed
    hand = concealed + (win.win_tile,)
    discard = win.source == "discard"
    if options.flower_bao and any(_tiles.is_flower(t) for t in hand):
        return _illegal("flower_bao", "a 宝 (flower) is never part of a winning hand: it is flown, or melded as a "
                                      "宝 pung (jiangxi_variants.md §8)")
    if discard and not options.discard_win_allowed:
        return _illegal("discard_win_allowed", "self-draw only: no win on a discard (option discard_win_allowed)")
    if discard and win.last_tile and options.last_draw_no_discard:
        return _illegal("last_draw_no_discard", "the player who draws the last tile does not discard it, so "
                                                "nobody wins on it (option last_draw_no_discard)")
    c = _counts(hand)
    tiles_sorted = tuple(_tiles.sort_tiles(list(hand)))
    if sum(c) + 3 * len(win.melds) != 14 or any(_tiles.is_flower(t) for t in hand):
        return _illegal("false_win", f"{len(hand)} concealed tiles with {len(win.melds)} sets is not a 14-tile hand")
    wildable = _wildable(win, kinds)
    shapes = _shape_options(c, wildable, kinds, win.melds, options)
    feasible = {s: v for s, v in shapes.items() if v is not None}
    if not feasible:
        if options.pair_258 and any(v is not None for v in _shape_options(
                c, wildable, kinds, win.melds, options.model_copy(update={"pair_258": False})).values()):
            return _illegal("pair_258", f"{' '.join(tiles_sorted)} wins only with a pair that is not a suited 2, 5 "
                                        "or 8 (option pair_258)")
        return _illegal("false_win", f"{' '.join(tiles_sorted)} with {len(win.melds)} sets is no winning shape "
                                     "(nanchang.md §6)")
    has_jing = bool(kinds.tiles)
    state = in_jingdiao_state(concealed, win.melds, kinds, options)
    counts = _count_factors(win, kinds, options)
    fa = counts.get("fa_flowers", 0)
    counts_t = tuple((k, counts[k]) for k in COUNTS if k in counts)
    flat_kind = "heavenly" if win.heavenly else "earthly" if win.earthly else None
    if flat_kind:
        if flat_kind == "heavenly":
            fishing = has_jing and jingdiao_tianhu(hand, kinds, options)
        else:
            fishing = state
            if state and not options.dihu_jingdiao_allowed:
                return _illegal("jingdiao_discard_win", "a hand in 精钓 state may not win 地胡 (option "
                                                        "dihu_jingdiao_allowed)", True)
        amount = (options.jingdiao_tianhu_amount if fishing else options.tianhu_amount) << fa
        flat_conds: tuple[str, ...] = ("jing_fishing",) if fishing else ()
        shape, (split, fill) = next(iter(feasible.items()))
        interp = _interpretation(shape, split, fill, kinds)
        flat_counts = tuple((k, n) for k, n in counts_t if k == "fa_flowers")
        return WinEvaluation(True, flat_kind, flat_conds, 0, flat_component(amount, win.seat), interp, state,
                             _fans(flat_kind, flat_conds, tiles_sorted, interp, options, amount, flat_counts),
                             counts=flat_counts)
    selfish = win.source == "self_drawn"
    robbed = win.source == "robbed"
    credit = state and (selfish or (robbed and options.qianggang_is_zimo_for_jingdiao))
    discard_like = discard or (robbed and not options.qianggang_is_zimo_for_jingdiao)
    deguo_only = False
    if state and discard_like:
        if options.jingdiao_discard_win == "never":
            return _illegal("jingdiao_discard_win", "a hand in 精钓 state may win by self-draw only (nanchang.md §6.8)",
                            True)
        deguo_only = options.jingdiao_discard_win == "deguo_only"
    k = options.discard_win_max_jing
    limited = k is not None and discard and not state and sum(1 for t in concealed if kinds.is_jing(t)) > k
    liable = _chi3_feeder(win, options)
    xinyu = options.win_scoring == "xinyu"
    best = None
    dropped = False
    for shape, (split, fill) in feasible.items():
        deguo = has_jing and sum(split) == 0
        if deguo_only and not deguo:
            continue
        if limited and shape == "standard":
            dropped = True
            continue
        factors = None
        if xinyu:
            m, conds_t, factors = _xinyu_value(shape, win, options, fa)
            deguo = False
        else:
            conds: list[str] = []
            if selfish:
                conds.append("self_drawn")
                if win.kong_replacement:
                    conds.append("kong_replacement")
            if robbed:
                conds.append("robbed_kong")
            if credit:
                conds.append("jing_fishing")
            if deguo:
                conds.append("deguo_in_deguo" if nobody_holds_jing else "deguo")
                if shape == "seven_pairs" and options.de_qidui_bonus:
                    conds.append("deguo_seven_pairs_bonus")
            real = _real(c, kinds.indices, split)
            assert real is not None
            conds += _patterns(shape, real, sum(split), win, options)
            base = 2 << counts.get("bao", 0) if options.win_scoring == "yingtan" else None
            m = win_multiplier(shape, conds, options, base=base, doublings=counts.get("flown_jing", 0) + fa)
            if options.bao_cap is not None and m > options.bao_cap:
                m = options.bao_cap
                conds.append("capped")
            conds_t = tuple(x for x in CONDITION_ORDER if x in conds)
        if liable is not None:
            conds_t = conds_t + ("chi3_liability",)
        vec = win_component(m, winner=win.seat, dealer=win.dealer,
                            discarder=win.from_seat if discard else None,
                            robbed_from=win.from_seat if robbed else None, deguo=deguo, options=options,
                            liable=liable)
        key = (vec[win.seat], deguo, -sum(split), SHAPE_SIZE[shape])
        if best is None or key > best[0]:
            best = (key, shape, conds_t, m, vec, _interpretation(shape, split, fill, kinds), factors)
    if best is None:
        if dropped:
            return _illegal("discard_win_max_jing",
                            f"holding more than {k} jing, a plain hand may not win on a discard: only a self-draw or a "
                            "bigger hand (option discard_win_max_jing)")
        return _illegal("jingdiao_discard_win", "a hand in 精钓 state may win on a discard only as 德国 (no wild jing); "
                                                "this one needs a wild jing (nanchang.md §6.8)", True)
    _, shape, conds_t, m, vec, interp, factors = best
    return WinEvaluation(True, shape, conds_t, m, vec, interp, state,
                         _fans(shape, conds_t, tiles_sorted, interp, options, None, counts_t, factors), counts=counts_t)


def _interpretation(shape: str, split: tuple[int, ...], fill: tuple[int, ...], kinds: JingKinds) -> Interpretation:
    jings = [j for j, n in zip(kinds.tiles, split) for _ in range(n)]
    return Interpretation(shape, tuple(zip(jings, (_tiles.code(t) for t in fill))))
