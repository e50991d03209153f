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

from replayer.rules.nanchang.jing import JingHolding, JingKinds, jing_kinds, jing_points
from replayer.rules.nanchang.options import NanchangOptions

if TYPE_CHECKING:
    from replayer.rules.nanchang.evaluate import WinEvaluation

__all__ = [
    "MeldInfo", "PlayerTiles", "HandSituation", "Components", "COMPONENT_ORDER",
    "win_multiplier", "win_component", "flat_component", "holdings", "nobody_holds_jing",
    "settle_hand",
]

Vec = tuple[int, int, int, int]
ZERO: Vec = (0, 0, 0, 0)
COMPONENT_ORDER = ("jing", "gangjing", "kong", "chaozhuang", "win", "penalty")


@dataclass(frozen=True)
class MeldInfo:
    """A declared set: ``kind`` chow/pung/kong, ``kong_kind`` concealed/melded/added for a
    kong, ``tiles`` (codes), ``from_seat`` the seat the claimed tile came from (None for a
    concealed kong)."""

    kind: Literal["chow", "pung", "kong"]
    tiles: tuple[str, ...]
    kong_kind: Literal["concealed", "melded", "added"] | None = None
    from_seat: int | None = None


@dataclass(frozen=True)
class PlayerTiles:
    """One player at the end of the hand: ``concealed`` (without a winner's winning tile),
    ``melds``, ``unclaimed_discards`` (their discards nobody took)."""

    concealed: tuple[str, ...] = ()
    melds: tuple[MeldInfo, ...] = ()
    unclaimed_discards: tuple[str, ...] = ()


@dataclass(frozen=True)
class HandSituation:
    """The end of a hand as settlement needs it (nanchang.md §9 "Input").

    ``outcome``: "win", "draw" (流局) or "false_win" (诈胡 by ``offender``, then 流局).
    For a win: ``winner``, ``win_tile``, ``discarder`` (None for self-draw and 抢杠),
    ``robbed_from`` (抢杠), ``kong_replacement`` (杠开), ``heavenly`` (天胡), ``earthly`` (地胡).
    ``chaozhuang``: the first four discards triggered 抄庄 (§9.4). Optional §11 inputs:
    ``lower_indicator`` (下精 indicator), ``dealt`` (each seat's dealt tiles, for 上下翻精 and
    回头一笑), ``previous_indicator`` (the previous hand's indicator, for 回头一笑)."""

    indicator: str
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

    @property
    def kinds(self) -> JingKinds:
        return jing_kinds(self.indicator)

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

_FACTORS = (
    ("self_drawn", 2), ("kong_replacement", 2), ("robbed_kong", 2), ("jing_fishing", 2),
    ("deguo", 2), ("deguo_in_deguo", 4), ("deguo_seven_pairs_bonus", 2),
)
SHAPE_FACTORS = {"standard": 1, "big_seven_pairs": 2, "seven_pairs": 2, "thirteen_rotten": 2,
                 "seven_star_rotten": 4}


def win_multiplier(shape: str, conditions: Sequence[str], options: NanchangOptions) -> int:
    """M of §9.5 (b): ``win_base`` × 2 per condition (self-drawn incl. 杠开/抢杠, 杠开, 精钓,
    德国, 德国小七对 bonus; 德中德 ×4) × the shape factor (大七对/小七对/十三烂 ×2, 七星 ×4).
    ``robbed_kong`` counts as the self-draw ×2 (A-7), twice with ``qianggang_extra_x2``."""
    m = options.win_base * SHAPE_FACTORS[shape]
    for name, f in _FACTORS:
        if name in conditions:
            m *= f
    if "robbed_kong" in conditions and options.qianggang_extra_x2:
        m *= 2
    return m


def win_component(m: int, *, winner: int, dealer: int, discarder: int | None, robbed_from: int | None,
                  deguo: bool, options: NanchangOptions) -> Vec:
    """The win component of §9.5 (b): pay_p = M × F_p × G_p + B_p with F_p = 2 for the
    discarder, G_p = 2 when the winner or p is the dealer, B_p = 5 for 德国/德中德 paid by
    everyone on a self-draw (杠开, 抢杠) and by the discarder only on a discard (A-5: +5 after
    the doubling). ``qianggang_payer = konger_pays_all``: the robbed player pays all three
    shares."""
    pays = [0, 0, 0, 0]
    for p in range(4):
        if p == winner:
            continue
        f = 2 if p == discarder else 1
        g = 2 if dealer in (winner, p) else 1
        b = 5 if deguo and (discarder is None or p == discarder) else 0
        pays[p] = m * f * g + b
    if robbed_from is not None and options.qianggang_payer == "konger_pays_all":
        total = sum(pays)
        pays = [0, 0, 0, 0]
        pays[robbed_from] = total
    out = [-x for x in pays]
    out[winner] = sum(pays)
    return (out[0], out[1], out[2], out[3])


def flat_component(amount: int, winner: int) -> Vec:
    """天胡 / 地胡 (§9.5 a): each other player pays ``amount``."""
    out = [-amount] * 4
    out[winner] = 3 * amount
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


def _is_gangjing(m: MeldInfo, kinds: JingKinds) -> bool:
    return m.kind == "kong" and len(set(m.tiles)) == 1 and kinds.is_jing(m.tiles[0])


def holdings(sit: HandSituation, options: NanchangOptions, kinds: JingKinds | None = None) -> tuple[JingHolding, ...]:
    """Each seat's jing points n_i (§9.1 step 1) under ``kinds`` (default: the hand's jing)."""
    kinds = kinds or sit.kinds
    out = []
    for seat in range(4):
        tiles, kongs = _held_tiles(sit, seat, discards=options.count_discarded_jing)
        loose = sum(kinds.value(t) for t in tiles)
        in_kongs = sum(kinds.value(t) for m in kongs for t in m.tiles)
        extra = 10 * sum(1 for m in kongs if _is_gangjing(m, kinds)) if options.gangjing_in_chongguan else 0
        n = loose + in_kongs + extra
        bawang = n > 0 and (loose > 0 or not options.bawang_excludes_kong_jing)
        out.append(JingHolding(n, bawang))
    return tuple(out)


def nobody_holds_jing(sit: HandSituation, options: NanchangOptions) -> bool:
    """德中德's condition (§6.7, A-3): no player (winner included) has an attributed jing
    outside declared kongs; unclaimed discards count with ``dezhongde_counts_discards``."""
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
            if _is_gangjing(m, kinds):
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


def settle_hand(sit: HandSituation, options: NanchangOptions, evaluation: WinEvaluation | None = None) -> Components:
    """All components of a hand (§9.6). ``evaluation`` is required for a win (its
    ``win`` vector is the win component). Raises ValueError for an inconsistent situation."""
    if sit.outcome == "win":
        if evaluation is None or not evaluation.legal:
            raise ValueError("a win is settled with a legal win evaluation")
        win = evaluation.win
    else:
        win = ZERO
    gangjing, kong = _kong_parts(sit, options)
    parts: list[tuple[str, Vec]] = [
        ("jing", jing_points(holdings(sit, options))),
        ("gangjing", gangjing),
        ("kong", kong),
        ("chaozhuang", _dealer_pays(sit.dealer, 5) if sit.chaozhuang else ZERO),
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
