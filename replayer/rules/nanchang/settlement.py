"""Nanchang settlement, component by component (shared/rules/nanchang.md §9, §8.2, §8.3, §11).

Input: a :class:`HandSituation` (the end of a hand: indicator, dealer, every player's
concealed tiles, melds with their sources and unclaimed discards, the 抄庄 flag and how the
hand ended) and, for a win, the win evaluation of :mod:`.evaluate`. Output:
:class:`Components` — a zero-sum 4-vector per component in the spec's order: jing (§9.1),
gangjing 杠精 (§9.2), kong (§9.3), chaozhuang 抄庄 (§9.4), win (§9.5), penalty (§8.2 draw
penalty, §8.3 诈胡), plus lower_jing (§11.1 / §11.2) and look_back (§11.3) when those
options are on. All amounts are integers in 子; nothing is rounded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from replayer.rules.nanchang.jing import JingHolding, JingKinds, JingMode, jing_kinds, jing_points, jing_scores
from replayer.rules.nanchang.options import NanchangOptions

if TYPE_CHECKING:
    from replayer.rules.nanchang.evaluate import WinEvaluation

__all__ = [
    "MeldInfo", "PlayerTiles", "HandSituation", "Components", "COMPONENT_ORDER",
    "CONDITION_FACTORS", "SHAPE_FACTORS", "condition_factor", "shape_factor",
    "win_multiplier", "win_component", "flat_component", "early_show_component", "holdings",
    "jing_component", "nobody_holds_jing", "settle_hand",
]

Vec = tuple[int, int, int, int]
ZERO: Vec = (0, 0, 0, 0)
COMPONENT_ORDER = ("jing", "gangjing", "kong", "chaozhuang", "early_show", "win", "penalty")


@dataclass(frozen=True)
class MeldInfo:
    """A declared set: ``kind`` chow/pung/kong, ``kong_kind`` concealed/melded/added for a
    kong, ``tiles`` (codes), ``from_seat`` the seat the claimed tile came from (None for a
    concealed kong), ``claimed`` the tile taken from that seat's discard (None when unknown
    or concealed). Under ``flower_bao`` a pung may be three distinct flowers (a 宝 pung)."""

    kind: Literal["chow", "pung", "kong"]
    tiles: tuple[str, ...]
    kong_kind: Literal["concealed", "melded", "added"] | None = None
    from_seat: int | None = None
    claimed: str | None = None


@dataclass(frozen=True)
class PlayerTiles:
    """One player at the end of the hand: ``concealed`` (without a winner's winning tile),
    ``melds``, ``unclaimed_discards`` (their discards nobody took), ``flowers`` (tiles set
    aside and replaced: the 发 under ``fa_as_flower``), ``early_show`` (six pairs laid down,
    ``qidui_early_show``)."""

    concealed: tuple[str, ...] = ()
    melds: tuple[MeldInfo, ...] = ()
    unclaimed_discards: tuple[str, ...] = ()
    flowers: tuple[str, ...] = ()
    early_show: bool = False


@dataclass(frozen=True)
class HandSituation:
    """The end of a hand as settlement needs it (nanchang.md §9 "Input").

    ``outcome``: "win", "draw" (流局) or "false_win" (诈胡 by ``offender``, then 流局).
    For a win: ``winner``, ``win_tile``, ``discarder`` (None for self-draw and 抢杠),
    ``robbed_from`` (抢杠), ``kong_replacement`` (杠开), ``heavenly`` (天胡), ``earthly`` (地胡).
    ``chaozhuang``: the first four discards triggered 抄庄 (§9.4). Optional §11 inputs:
    ``lower_indicator`` (下精 indicator), ``dealt`` (each seat's dealt tiles, for 上下翻精 and
    回头一笑), ``previous_indicator`` (the previous hand's indicator, for 回头一笑).
    ``jing_mode``: the option of that name (None indicator: no jing). ``winners``: all the
    winners of one discard in turn order from the discarder (``multiple_winners``; ``winner``
    is the first of them, who is attributed the winning tile). ``last_tile``: the winning
    tile is the last wall tile. ``unseen_jing``: another player holds jing (outside kongs) that
    ``players`` do not show — said by ``paipu score``, which knows the winner's hand only: no
    德中德 (§6.7), no 霸王 for a player shown (§9.1 step 3), and the unseen jing's points are
    not counted."""

    indicator: str | None
    dealer: int
    players: tuple[PlayerTiles, PlayerTiles, PlayerTiles, PlayerTiles]
    outcome: Literal["win", "draw", "false_win"]
    winner: int | None = None
    win_tile: str | None = None
    discarder: int | None = None
    robbed_from: int | None = None
    kong_replacement: bool = False
    heavenly: bool = False
    earthly: bool = False
    offender: int | None = None
    chaozhuang: bool = False
    lower_indicator: str | None = None
    dealt: tuple[tuple[str, ...], ...] | None = None
    previous_indicator: str | None = None
    jing_mode: JingMode = "zheng_fu"
    winners: tuple[int, ...] = ()
    last_tile: bool = False
    unseen_jing: bool = False

    @property
    def kinds(self) -> JingKinds:
        return jing_kinds(self.indicator, self.jing_mode)

    @property
    def all_winners(self) -> tuple[int, ...]:
        if self.winners:
            return self.winners
        return (self.winner,) if self.outcome == "win" and self.winner is not None else ()

    @property
    def self_drawn(self) -> bool:
        return self.outcome == "win" and self.discarder is None and self.robbed_from is None


@dataclass(frozen=True)
class Components:
    """Per-seat net change of each settlement component (each zero-sum) and the total."""

    parts: tuple[tuple[str, Vec], ...]

    def __post_init__(self) -> None:
        for name, v in self.parts:
            if sum(v) != 0:
                raise AssertionError(f"settlement component {name} is not zero-sum: {v}")

    def as_dict(self) -> dict[str, list[int]]:
        return {name: list(v) for name, v in self.parts}

    @property
    def total(self) -> Vec:
        t = [0, 0, 0, 0]
        for _, v in self.parts:
            for i in range(4):
                t[i] += v[i]
        return (t[0], t[1], t[2], t[3])


# --- win (§9.5) -------------------------------------------------------------------------

#: Factor of each win condition (nanchang.md §9.5 b; jiangxi data README "Win value"): the
#: one place they are defined (evaluation, explained scores and settlement read them here).
#: ``None``: the factor is an option (see :func:`condition_factor`); 1: reported, no factor.
CONDITION_FACTORS: dict[str, int | None] = {
    "self_drawn": 2, "kong_replacement": 2, "robbed_kong": 2, "jing_fishing": 2,
    "deguo": 2, "deguo_in_deguo": 4, "deguo_seven_pairs_bonus": 2,
    "dasanyuan": None, "dasixi": None, "single_wait": None, "full_flush": None,
    "half_flush": 1, "concealed_self_draw": 1, "small_self_draw": 1, "single_fly": 1, "last_tile": 1,
    "capped": 1, "chi3_liability": 1,
}
#: Factor of each shape; ``None``: an option (:func:`shape_factor`).
SHAPE_FACTORS: dict[str, int | None] = {
    "standard": 1, "big_seven_pairs": None, "seven_pairs": 2, "luxury_seven_pairs": 2,
    "thirteen_rotten": 2, "seven_star_rotten": 4, "thirteen_orphans": None,
}
_OPTION_FACTORS = {"dasanyuan": "dasanyuan_factor", "dasixi": "dasixi_factor", "single_wait": "dandiao_factor",
                   "full_flush": "qingyise_factor", "big_seven_pairs": "daqidui_factor",
                   "thirteen_orphans": "jiuyao_factor"}


def condition_factor(name: str, options: NanchangOptions) -> int:
    """The factor of win condition ``name`` under ``options`` (1 for a condition that is only
    reported, or whose factor option is unset). ``robbed_kong`` is the self-draw ×2 (A-7),
    ×4 with ``qianggang_extra_x2``."""
    f = CONDITION_FACTORS.get(name, 1)
    if f is None:
        return getattr(options, _OPTION_FACTORS[name]) or 1
    if name == "robbed_kong" and options.qianggang_extra_x2:
        return 4
    return f


def shape_factor(shape: str, options: NanchangOptions) -> int:
    """The factor of ``shape`` (大七对 ``daqidui_factor``, 九幺 ``jiuyao_factor``)."""
    f = SHAPE_FACTORS[shape]
    return (getattr(options, _OPTION_FACTORS[shape]) or 1) if f is None else f


def win_multiplier(shape: str, conditions: Sequence[str], options: NanchangOptions, *,
                   base: int | None = None, doublings: int = 0) -> int:
    """M of §9.5 (b): ``base`` (default ``win_base``) × the shape factor × every condition's
    factor (:data:`CONDITION_FACTORS`) × 2^``doublings`` (count-valued: 飞宝 / 发 flowers)."""
    m = (options.win_base if base is None else base) * shape_factor(shape, options)
    for name in conditions:
        m *= condition_factor(name, options)
    return m << doublings


def win_component(m: int, *, winner: int, dealer: int, discarder: int | None, robbed_from: int | None,
                  deguo: bool, options: NanchangOptions, liable: int | None = None) -> Vec:
    """The win component of §9.5 (b): pay_p = M × F_p × G_p + B_p with F_p = 2 for the
    discarder, G_p = 2 when the winner or p is the dealer (1 for everyone with
    ``dealer_doubling`` off: 通庄), B_p = 5 for 德国/德中德 paid by everyone on a self-draw
    (杠开, 抢杠) and by the discarder only on a discard (A-5: +5 after the doubling).
    ``qianggang_payer = konger_pays_all``: the robbed player pays all three shares;
    ``liable`` (``chi3_liability``): that seat alone pays what all payers owed."""
    pays = [0, 0, 0, 0]
    for p in range(4):
        if p == winner:
            continue
        f = 2 if p == discarder else 1
        g = 2 if options.dealer_doubling and dealer in (winner, p) else 1
        b = 5 if deguo and (discarder is None or p == discarder) else 0
        pays[p] = m * f * g + b
    payer = robbed_from if robbed_from is not None and options.qianggang_payer == "konger_pays_all" else liable
    if payer is not None:
        total = sum(pays)
        pays = [0, 0, 0, 0]
        pays[payer] = total
    out = [-x for x in pays]
    out[winner] = sum(pays)
    return (out[0], out[1], out[2], out[3])


def flat_component(amount: int, winner: int) -> Vec:
    """天胡 / 地胡 (§9.5 a): each other player pays ``amount``."""
    out = [-amount] * 4
    out[winner] = 3 * amount
    return (out[0], out[1], out[2], out[3])


def early_show_component(sit: HandSituation, options: NanchangOptions) -> Vec:
    """六对摊牌 (``qidui_early_show``, jiangxi_variants.md §5, §13.12): each seat that laid down
    six pairs receives 1 from each other seat, 2 where the shower or the payer is the dealer
    (with ``dealer_doubling``), whatever the outcome."""
    out = [0, 0, 0, 0]
    for s, p in enumerate(sit.players):
        if not p.early_show:
            continue
        for o in range(4):
            if o != s:
                amount = 2 if options.dealer_doubling and sit.dealer in (s, o) else 1
                out[o] -= amount
                out[s] += amount
    return (out[0], out[1], out[2], out[3])


# --- jing (§9.1, §4.3) ------------------------------------------------------------------


def _held_tiles(sit: HandSituation, seat: int, *, discards: bool) -> tuple[list[str], list[MeldInfo]]:
    """Tiles attributed to ``seat`` outside kongs (§4.3: hand, chow/pung melds, winning tile,
    unclaimed discards when ``discards``) and its kong melds."""
    p = sit.players[seat]
    tiles = list(p.concealed)
    kongs = []
    for m in p.melds:
        if m.kind == "kong":
            kongs.append(m)
        else:
            tiles += list(m.tiles)
    if sit.outcome == "win" and seat == sit.winner and sit.win_tile is not None:
        tiles.append(sit.win_tile)
    if discards:
        tiles += list(p.unclaimed_discards)
    return tiles, kongs


def _is_gangjing(m: MeldInfo, kinds: JingKinds, options: NanchangOptions | None = None) -> bool:
    """A kong of four jing (杠精, §9.2); an ordinary kong with ``jing_scoring`` off (§13.21)."""
    if options is not None and not options.jing_scoring:
        return False
    return m.kind == "kong" and len(set(m.tiles)) == 1 and kinds.is_jing(m.tiles[0])


def _provider(sit: HandSituation, seat: int, points: int, kinds: JingKinds) -> int | None:
    """``jing_provider_liability`` (jiangxi_variants.md §3.3, §13.6): the seat that discarded
    ``seat``'s last claimed jing — the last meld (declaration order) whose claimed tile is a
    jing, else its winning discard when that is a jing — when that tile took it to 冲关
    (points − its value ≤ 4 < points); else None."""
    if points < 5:
        return None
    found: tuple[str, int | None] | None = None
    for m in reversed(sit.players[seat].melds):
        if m.claimed is not None and kinds.is_jing(m.claimed):
            found = (m.claimed, m.from_seat)
            break
    if found is None and sit.outcome == "win" and seat in sit.all_winners and sit.discarder is not None \
            and sit.win_tile is not None and kinds.is_jing(sit.win_tile) and seat == sit.winner:
        found = (sit.win_tile, sit.discarder)
    if found is None or found[1] is None or found[1] == seat:
        return None
    return found[1] if points - kinds.value(found[0]) <= 4 else None


def jing_component(sit: HandSituation, options: NanchangOptions) -> Vec:
    """The jing bonus (§9.1): each other player pays s_i to seat i; zero with
    ``jing_scoring`` off or without jing. With ``jing_provider_liability`` the discarder of the
    jing that took seat i to 冲关 pays its 3·s_i alone."""
    kinds = sit.kinds
    if not options.jing_scoring or not kinds.tiles:
        return ZERO
    hs = holdings(sit, options)
    if not options.jing_provider_liability:
        return jing_points(hs, unseen_holder=sit.unseen_jing)
    s = jing_scores(hs, unseen_holder=sit.unseen_jing)
    out = [0, 0, 0, 0]
    for i in range(4):
        if not s[i]:
            continue
        payer = _provider(sit, i, hs[i].points, kinds)
        for j in range(4):
            if j != i and (payer is None or j == payer):
                amount = s[i] if payer is None else 3 * s[i]
                out[j] -= amount
                out[i] += amount
    return (out[0], out[1], out[2], out[3])


def holdings(sit: HandSituation, options: NanchangOptions, kinds: JingKinds | None = None) -> tuple[JingHolding, ...]:
    """Each seat's jing points n_i (§9.1 step 1) under ``kinds`` (default: the hand's jing)."""
    kinds = kinds or sit.kinds
    out = []
    for seat in range(4):
        tiles, kongs = _held_tiles(sit, seat, discards=options.count_discarded_jing)
        loose = sum(kinds.value(t) for t in tiles)
        in_kongs = sum(kinds.value(t) for m in kongs for t in m.tiles)
        extra = 10 * sum(1 for m in kongs if _is_gangjing(m, kinds, options)) if options.gangjing_in_chongguan else 0
        n = loose + in_kongs + extra
        bawang = n > 0 and (loose > 0 or not options.bawang_excludes_kong_jing)
        out.append(JingHolding(n, bawang))
    return tuple(out)


def nobody_holds_jing(sit: HandSituation, options: NanchangOptions) -> bool:
    """德中德's condition (§6.7, A-3): no player (winner included) has an attributed jing
    outside declared kongs; unclaimed discards count with ``dezhongde_counts_discards``;
    never with ``sit.unseen_jing``."""
    if sit.unseen_jing:
        return False
    kinds = sit.kinds
    for seat in range(4):
        tiles, _ = _held_tiles(sit, seat, discards=options.dezhongde_counts_discards)
        if any(kinds.is_jing(t) for t in tiles):
            return False
    return True


def _dealt_holdings(dealt: Sequence[Sequence[str]], kinds: JingKinds) -> tuple[JingHolding, ...]:
    return tuple(JingHolding(sum(kinds.value(t) for t in hand), True) for hand in dealt)


# --- kongs, 抄庄, penalties -----------------------------------------------------------------


def _kong_parts(sit: HandSituation, options: NanchangOptions) -> tuple[Vec, Vec]:
    """(杠精 §9.2, kong §9.3): 杠精 10 from each other player; 暗杠 2, 明杠/加杠 1 from each.
    Ordinary kongs are void on a 流局 with ``kong_void_on_draw`` (A-11)."""
    gj = [0, 0, 0, 0]
    kg = [0, 0, 0, 0]
    kinds = sit.kinds
    void = options.kong_void_on_draw and sit.outcome in ("draw", "false_win")
    for seat, p in enumerate(sit.players):
        for m in p.melds:
            if m.kind != "kong":
                continue
            if _is_gangjing(m, kinds, options):
                if options.gangjing_in_chongguan:
                    continue
                target, amount = gj, 10
            elif void:
                continue
            else:
                target, amount = kg, 2 if m.kong_kind == "concealed" else 1
            for o in range(4):
                target[o] += 3 * amount if o == seat else -amount
    return tuple(gj), tuple(kg)  # type: ignore[return-value]


def _dealer_pays(dealer: int, amount: int) -> Vec:
    out = [amount] * 4
    out[dealer] = -3 * amount
    return (out[0], out[1], out[2], out[3])


def _penalty(sit: HandSituation, options: NanchangOptions) -> Vec:
    if sit.outcome == "false_win":
        if sit.offender is None:
            raise ValueError("a false win needs an offender")
        return _offender_pays(sit.offender, options.zhahu_penalty)
    if sit.outcome == "draw" and options.draw_dealer_pays:
        return _dealer_pays(sit.dealer, options.draw_dealer_pays)
    return ZERO


def _offender_pays(offender: int, amount: int) -> Vec:
    out = [amount] * 4
    out[offender] = -3 * amount
    return (out[0], out[1], out[2], out[3])


# --- the whole hand -----------------------------------------------------------------------


def settle_hand(sit: HandSituation, options: NanchangOptions, evaluation: WinEvaluation | None = None, *,
                evaluations: Sequence[WinEvaluation] = ()) -> Components:
    """All components of a hand (§9.6): jing, gangjing, kong, chaozhuang, early_show (with
    ``qidui_early_show``), win, penalty (+ lower_jing / look_back with the §11 options).
    ``evaluation`` is required for a win (its ``win`` vector is the win component);
    ``evaluations``: one per winner of ``sit.winners`` when several seats win on one discard
    (their win vectors are added). Raises ValueError for an inconsistent situation."""
    if sit.outcome == "win":
        evs = tuple(evaluations) or ((evaluation,) if evaluation is not None else ())
        if not evs or not all(e is not None and e.legal for e in evs):
            raise ValueError("a win is settled with a legal win evaluation")
        w = [0, 0, 0, 0]
        for e in evs:
            for i in range(4):
                w[i] += e.win[i]
        win: Vec = (w[0], w[1], w[2], w[3])
    else:
        win = ZERO
    gangjing, kong = _kong_parts(sit, options)
    parts: list[tuple[str, Vec]] = [
        ("jing", jing_component(sit, options)),
        ("gangjing", gangjing),
        ("kong", kong),
        ("chaozhuang", _dealer_pays(sit.dealer, 5) if sit.chaozhuang else ZERO),
    ]
    if options.qidui_early_show:
        parts.append(("early_show", early_show_component(sit, options)))
    parts += [
        ("win", win),
        ("penalty", _penalty(sit, options)),
    ]
    if (options.shangxia_fanjing or options.maidilei) and sit.lower_indicator is not None:
        lower = jing_kinds(sit.lower_indicator)
        if options.maidilei:
            parts.append(("lower_jing", jing_points(holdings(sit, options, lower))))
        elif sit.dealt is not None:
            parts.append(("lower_jing", jing_points(_dealt_holdings(sit.dealt, lower))))
    if options.huitou_yixiao and sit.previous_indicator is not None and sit.dealt is not None:
        parts.append(("look_back", jing_points(_dealt_holdings(sit.dealt, jing_kinds(sit.previous_indicator)))))
    return Components(tuple(parts))
