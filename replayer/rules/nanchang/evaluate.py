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
from typing import Literal

from eventlog import tiles as _tiles
from replayer.rules.nanchang import shape_filter as _shape_filter
from replayer.rules.nanchang.jing import JingKinds
from replayer.rules.nanchang.options import NanchangOptions
from replayer.rules.nanchang.settlement import (
    MeldInfo,
    flat_component,
    win_component,
    win_multiplier,
)
from replayer.rules.shared import decompose as _dec
from replayer.rules.shared import shapes as _shapes

__all__ = ["clear_caches", "has_shape", "WinInput", "ScoreItem", "Interpretation", "WinEvaluation", "evaluate",
           "in_jingdiao_state", "jingdiao_tianhu", "winning_shapes", "SHAPES"]

SHAPES = ("standard", "big_seven_pairs", "seven_pairs", "thirteen_rotten", "seven_star_rotten")
CONDITION_ORDER = ("self_drawn", "kong_replacement", "robbed_kong", "jing_fishing", "deguo",
                   "deguo_in_deguo", "deguo_seven_pairs_bonus")
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
}

Source = Literal["self_drawn", "discard", "robbed"]


@dataclass(frozen=True)
class WinInput:
    """A declared win: the winner's ``concealed`` tiles without the winning tile, ``melds``,
    ``win_tile`` and its ``source``; ``kong_replacement`` (杠开), ``heavenly`` (天胡: the
    dealer's 14 dealt tiles), ``earthly`` (地胡); seats: ``seat``, ``dealer``, ``from_seat``
    (discarder or robbed konger)."""

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
    ``fans`` (explained items)."""

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

    @property
    def points(self) -> int:
        """What the winner receives in the win component."""
        return max(self.win)


# --- shape feasibility --------------------------------------------------------------------


def _counts(tiles) -> tuple[int, ...]:
    c = [0] * 34
    for t in tiles:
        c[_tiles.index(t)] += 1
    return tuple(c)


def _minus(c: tuple[int, ...], i: int, n: int) -> tuple[int, ...] | None:
    if n == 0:
        return c
    if c[i] < n:
        return None
    x = list(c)
    x[i] -= n
    return tuple(x)


@lru_cache(maxsize=1 << 18)
def _shape_fill(shape: str, real: tuple[int, ...], wild: int, melds_ok: bool, qixing_wild: str) -> tuple[int, ...] | None:
    """The stand-ins of ``wild`` wildcards making ``real`` into ``shape``, or None. For the
    regular shapes the stand-ins are only computed when asked (see :func:`_standins`);
    feasibility returns ``()``."""
    if shape in ("standard", "big_seven_pairs"):
        ok = _dec.can_complete(real, wildcards=wild, honor_chows=True, chows=shape == "standard")
        return () if ok and melds_ok else None
    if not melds_ok:
        return None
    if shape == "seven_pairs":
        return _shapes.seven_pairs_fill(real, wild)
    if shape == "thirteen_rotten":
        return _shapes.rotten_fill(real, wild)
    if qixing_wild == "none" and wild:
        return None
    return _shapes.rotten_fill(real, wild, min_honors=7, wild_honors=qixing_wild == "any")


def _standins(shape: str, real: tuple[int, ...], wild: int) -> tuple[int, ...]:
    """Tiles the wildcards stand for in a regular shape (one division of the shared
    decomposition; a wild-only set is a pung, a wild-only pair a pair, of the lowest kinds
    absent from the hand)."""
    d = _dec.first_division(real, wildcards=wild, honor_chows=True, chows=shape == "standard")
    if d is None:
        raise AssertionError("no division although the shape was feasible")
    out: list[int] = []
    absent = [t for t in range(34) if real[t] == 0]
    k = 0
    for g in d.sets + (d.pair,):
        if g.kind in ("wild_set", "wild_pair"):
            out += [absent[k]] * (3 if g.kind == "wild_set" else 2)
            k += 1
        else:
            out += list(g.wild)
    return tuple(sorted(out))


def _splits(n1: int, n2: int):
    """(wild 正精, wild 副精) in order of fewer wilds."""
    return sorted(((a, b) for a in range(n1 + 1) for b in range(n2 + 1)), key=lambda ab: (ab[0] + ab[1], ab))


def _shape_options(win_counts: tuple[int, ...], wildable: tuple[int, int], kinds: JingKinds,
                   melds: tuple[MeldInfo, ...], options: NanchangOptions) -> dict:
    """Per enabled shape: the fewest-wild feasible split ``(a, b, stand-ins)`` or None.
    Memoised on the tile-count vector (with the wildable jing, meld kinds and options)."""
    meld_kinds = tuple(sorted(m.kind for m in melds))
    return dict(_shape_options_cached(win_counts, wildable, kinds, meld_kinds, options))


@lru_cache(maxsize=1 << 16)
def _shape_options_cached(win_counts: tuple[int, ...], wildable: tuple[int, int], kinds: JingKinds,
                          meld_kinds: tuple[str, ...], options: NanchangOptions) -> tuple:
    j1, j2 = kinds.indices
    out = {}
    for shape in SHAPES:
        if shape == "thirteen_rotten" and not options.shisanlan:
            continue
        if shape == "seven_star_rotten" and not (options.shisanlan and options.qixing):
            continue
        if shape == "big_seven_pairs":
            melds_ok = "chow" not in meld_kinds
        elif shape == "standard":
            melds_ok = True
        else:
            melds_ok = not meld_kinds
        found = None
        splits = _splits(*wildable)
        if shape != "seven_star_rotten" and len(splits) > 1:
            # a wild can stand for its own kind, so these shapes are monotone in the wilds:
            # when all jing wild cannot make the shape, no split can (§13 pruning)
            a, b = splits[-1]
            real = _minus(_minus(win_counts, j1, a), j2, b)  # type: ignore[arg-type]
            if _shape_fill(shape, real, a + b, melds_ok, options.qixing_wild) is None:
                out[shape] = None
                continue
        for a, b in splits:
            real = _minus(win_counts, j1, a)
            real = _minus(real, j2, b) if real is not None else None
            if real is None:
                continue
            fill = _shape_fill(shape, real, a + b, melds_ok, options.qixing_wild)
            if fill is not None:
                if shape in ("standard", "big_seven_pairs") and a + b:
                    fill = _standins(shape, real, a + b)
                found = (a, b, fill)
                break
        out[shape] = found
    return tuple(out.items())


def winning_shapes(tiles: tuple[str, ...], melds: tuple[MeldInfo, ...], kinds: JingKinds,
                   options: NanchangOptions, wild_tiles: int | None = None) -> dict[str, tuple[int, int, tuple[int, ...]] | None]:
    """The shapes ``tiles`` (concealed + winning tile, all jing among them wildable) make with
    ``melds``: shape → (wild 正精, wild 副精, stand-in indices) with the fewest wilds, or None."""
    c = _counts(tiles)
    j1, j2 = kinds.indices
    return _shape_options(c, (c[j1], c[j2]), kinds, melds, options)


# --- 精钓 (§6.8) ----------------------------------------------------------------------------


@lru_cache(maxsize=1 << 16)
def _jingdiao(counts: tuple[int, ...], j1: int, j2: int, pairs_ok: bool) -> bool:
    for j in (j1, j2):
        if counts[j] == 0:
            continue
        rest = list(counts)
        rest[j] -= 1
        w = rest[j1] + rest[j2]
        rest[j1] = 0
        rest[j2] = 0
        real = tuple(rest)
        if _dec.can_complete(real, wildcards=w, pair=False, honor_chows=True):
            return True
        if pairs_ok and sum(real) + w == 12:
            odd = sum(1 for n in real if n % 2)
            if odd <= w:
                return True
    return False


def in_jingdiao_state(concealed: tuple[str, ...], melds: tuple[MeldInfo, ...], kinds: JingKinds) -> bool:
    """精钓 state (§6.8): the concealed tiles (before a new tile) hold a jing whose removal
    leaves sets only (other jing wild allowed) — or, with no melds and no kong, 6 pairs."""
    j1, j2 = kinds.indices
    return _jingdiao(_counts(concealed), j1, j2, not melds)


def jingdiao_tianhu(tiles14: tuple[str, ...], kinds: JingKinds) -> bool:
    """精钓天胡 (§6.11, A-15): the 14 dealt tiles are sets + a pair of a wild jing and one other
    tile (any tile completes the pair)."""
    c = _counts(tiles14)
    j1, j2 = kinds.indices
    for j in (j1, j2):
        if c[j] == 0:
            continue
        rest = list(c)
        rest[j] -= 1
        for t in range(34):
            if rest[t] == 0:
                continue
            rest[t] -= 1
            w = rest[j1] + rest[j2]
            real = list(rest)
            real[j1] = real[j2] = 0
            ok = _dec.can_complete(tuple(real), wildcards=w, pair=False, honor_chows=True)
            rest[t] += 1
            if ok:
                return True
    return False


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
          options: NanchangOptions, flat: int | None) -> tuple[ScoreItem, ...]:
    items = []
    if flat is not None:
        en, zh = NAMES[shape]
        items.append(ScoreItem(en, zh, flat, tiles=(tiles,), id=shape))
        if conditions:
            en, zh = NAMES["jing_fishing"]
            items.append(ScoreItem(en, zh, flat, tiles=(tiles,), id="jing_fishing"))
        return tuple(items)
    from replayer.rules.nanchang.settlement import SHAPE_FACTORS

    en, zh = NAMES[shape]
    items.append(ScoreItem(en, zh, SHAPE_FACTORS[shape], tiles=(tiles,), id=shape))
    for c in conditions:
        en, zh = NAMES[c]
        f = 4 if c == "deguo_in_deguo" else 2
        if c == "robbed_kong" and options.qianggang_extra_x2:
            f = 4
        wild = tuple(j for j, _ in interp.wild) if interp else ()
        items.append(ScoreItem(en, zh, f, tiles=(wild,) if wild and c == "jing_fishing" else (), id=c))
    return tuple(items)


def _wildable(win: WinInput, kinds: JingKinds) -> tuple[int, int]:
    """(正精, 副精) tiles that may be wild: the concealed jing, and a self-drawn jing (§4.2)."""
    j1, j2 = kinds.indices
    a = sum(1 for t in win.concealed if _tiles.index(t) == j1)
    b = sum(1 for t in win.concealed if _tiles.index(t) == j2)
    if win.source == "self_drawn" and kinds.is_jing(win.win_tile):
        if _tiles.index(win.win_tile) == j1:
            a += 1
        else:
            b += 1
    return (a, b)


def has_shape(win: WinInput, kinds: JingKinds, options: NanchangOptions) -> bool:
    """Whether the declared win's 14 tiles make some enabled shape (§6.1–6.5) in some
    interpretation: when False, :func:`evaluate` returns a ``false_win`` without looking at
    anything else (``nobody_holds_jing`` …). Shares :func:`evaluate`'s memoised shape checks."""
    c = _counts(win.concealed + (win.win_tile,))
    if sum(c) + 3 * len(win.melds) != 14:
        return False
    shapes = _shape_options(c, _wildable(win, kinds), kinds, win.melds, options)
    return any(v is not None for v in shapes.values())


def evaluate(win: WinInput, kinds: JingKinds, options: NanchangOptions, *, nobody_holds_jing: bool = False,
             blocked: tuple[str, str] | None = None) -> WinEvaluation:
    """Evaluate a declared win (§6) and price it (§9.5); the interpretation paying the winner
    most is chosen, ties to 德国, then fewer wilds, then the earlier shape in :data:`SHAPES`.

    ``nobody_holds_jing``: no player holds an attributed jing outside kongs (德中德's
    condition, computed by the caller from the whole table, §6.7). ``blocked``: (rule_id,
    message) when play rules already forbid this win (弃胡 …): the win is then illegal.
    Returns an illegal evaluation (rule ids ``false_win``, ``jingdiao_discard_win``, or the
    blocked one) rather than raising."""
    if blocked is not None:
        return WinEvaluation(False, rule_id=blocked[0], message=blocked[1])
    j1, j2 = kinds.indices
    concealed = win.concealed
    hand = concealed + (win.win_tile,)
    c = _counts(hand)
    if sum(c) + 3 * len(win.melds) != 14:
        return WinEvaluation(False, rule_id="false_win",
                             message=f"{sum(c)} concealed tiles with {len(win.melds)} sets is not a 14-tile hand")
    shapes = _shape_options(c, _wildable(win, kinds), kinds, win.melds, options)
    feasible = {s: v for s, v in shapes.items() if v is not None}
    tiles_sorted = tuple(_tiles.sort_tiles(list(hand)))
    if not feasible:
        return WinEvaluation(False, rule_id="false_win",
                             message=f"{' '.join(tiles_sorted)} with {len(win.melds)} sets is no winning shape "
                                     "(nanchang.md §6)")
    state = in_jingdiao_state(concealed, win.melds, kinds)
    flat_kind = "heavenly" if win.heavenly else "earthly" if win.earthly else None
    if flat_kind:
        if flat_kind == "heavenly":
            fishing = jingdiao_tianhu(hand, kinds)
        else:
            fishing = state
            if state and not options.dihu_jingdiao_allowed:
                return WinEvaluation(False, rule_id="jingdiao_discard_win", jingdiao_state=True,
                                     message="a hand in 精钓 state may not win 地胡 (option dihu_jingdiao_allowed)")
        amount = options.jingdiao_tianhu_amount if fishing else options.tianhu_amount
        conds = ("jing_fishing",) if fishing else ()
        shape, (a, b, fill) = next(iter(feasible.items()))
        interp = _interpretation(shape, a, b, fill, kinds)
        return WinEvaluation(True, flat_kind, conds, 0, flat_component(amount, win.seat), interp, state,
                             _fans(flat_kind, conds, tiles_sorted, interp, options, amount))
    selfish = win.source == "self_drawn"
    robbed = win.source == "robbed"
    credit = state and (selfish or (robbed and options.qianggang_is_zimo_for_jingdiao))
    discard_like = win.source == "discard" or (robbed and not options.qianggang_is_zimo_for_jingdiao)
    deguo_only = False
    if state and discard_like:
        if options.jingdiao_discard_win == "never":
            return WinEvaluation(False, rule_id="jingdiao_discard_win", jingdiao_state=True,
                                 message="a hand in 精钓 state may win by self-draw only (nanchang.md §6.8)")
        deguo_only = options.jingdiao_discard_win == "deguo_only"
    best = None
    for rank, (shape, (a, b, fill)) in enumerate(feasible.items()):
        deguo = a + b == 0
        if deguo_only and not deguo:
            continue
        conds = []
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
        conds_t = tuple(x for x in CONDITION_ORDER if x in conds)
        m = win_multiplier(shape, conds_t, options)
        vec = win_component(m, winner=win.seat, dealer=win.dealer,
                            discarder=win.from_seat if win.source == "discard" else None,
                            robbed_from=win.from_seat if robbed else None, deguo=deguo, options=options)
        key = (vec[win.seat], deguo, -(a + b), -rank)
        if best is None or key > best[0]:
            best = (key, shape, conds_t, m, vec, _interpretation(shape, a, b, fill, kinds))
    if best is None:
        return WinEvaluation(False, rule_id="jingdiao_discard_win", jingdiao_state=True,
                             message="a hand in 精钓 state may win on a discard only as 德国 (no wild jing); "
                                     "this one needs a wild jing (nanchang.md §6.8)")
    _, shape, conds_t, m, vec, interp = best
    return WinEvaluation(True, shape, conds_t, m, vec, interp, state,
                         _fans(shape, conds_t, tiles_sorted, interp, options, None))


def _interpretation(shape: str, a: int, b: int, fill: tuple[int, ...], kinds: JingKinds) -> Interpretation:
    jings = [kinds.primary] * a + [kinds.secondary] * b
    return Interpretation(shape, tuple(zip(jings, (_tiles.code(t) for t in fill))))
