"""Nanchang (南昌麻将) play rules: the ruleset object the replayer uses.

Source: shared/rules/nanchang.md (the spec; seeds 004, 002, 000). What the shared replayer
does not know, this ruleset adds through its hooks:

* data (:class:`PlayRules`): 136 tiles, no flowers (§1); dealer 14, others 13 (§3.2); no dead
  wall by default (§3.3, A-6); chow from the previous seat only (§5.3); win > pung = kong >
  chow; one winner, the first in turn order from the discarder (§7.1); only an added kong
  may be robbed (§5.4, §6.10); a wildcard indicator (§4.1).
* ``check_event`` (before the shared handler): chows must be sequences at face value —
  suited, three different winds or 中发白 (§5.2); a jing is never wild in a chow, pung or
  kong, nor when discarded (§4.2, §12.1–3); after the wall is empty only wins may claim
  (§3.3, §12.10); 弃碰 with option ``qipeng`` (§5.3); the indicator is revealed once, after
  the deal, before the first discard (§4.1).
* ``observe`` (after it, keeping :class:`NanchangMemory` in ``TableState.rule_memory``):
  弃胡 (§7.2), 抄庄 (§9.4), the first discards and intakes (天胡 / 地胡, §6.11), the dealt
  hands and the 下精 indicator (§11), the indicator position when the wall and dice are
  known (§3.1, §4.1). With ``indicator_removed`` the replayer itself takes the indicator out
  of the wall (PlayRules.indicator_leaves_wall) at :meth:`indicator_position`.
* ``score_win``: :func:`.evaluate.evaluate` (shapes, jing as wild or face value, 精钓, 德国 …)
  priced by :mod:`.settlement`; an illegal win (弃胡, 精钓 on a discard, no winning shape) is
  a 诈胡 (§7.3, §8.3). ``settle_win`` / ``settle_exhaustive_draw`` / ``false_win_penalty``
  pay every component of §9 at the end of the hand (jing, 杠精, kongs, 抄庄, win, penalties).
* ``next_hand``: the dealer keeps the deal only after winning a hand without 抄庄 (§2); the
  game length comes from the log (never over).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from eventlog import events as ev
from eventlog import tiles as _tiles
from eventlog.seats import seats_after
from replayer.explained import ScoreLine, Vec4
from replayer.findings import Breach
from replayer.rules.base import MECHANICS_SOURCES, HandPlan, PlayRules, RulesetDefaults, WinContext, WinScore
from replayer.rules.nanchang.events import BaoFlown, BaoPung, SixPairsShown
from replayer.rules.nanchang.evaluate import COUNTS, ScoreItem, WinEvaluation, WinInput, evaluate, has_shape
from replayer.rules.nanchang.jing import NO_JING, JingKinds, jing_kinds
from replayer.rules.shared.decompose import ORDERED_HONOR_CHOWS, PAIR_258
from replayer.rules.shared.winning_shapes import RegularShape, WinningShapes
from replayer.rules.nanchang.options import NanchangOptions, parse_options
from replayer.rules.nanchang.shape_filter import could_win_any_jing, could_win_shape
from replayer.rules.nanchang.table_rules import FA, chow_rule, flower_tiles, tile_copies
from replayer.rules.nanchang.settlement import (
    Components,
    HandSituation,
    MeldInfo,
    PlayerTiles,
    nobody_holds_jing,
    settle_hand,
)
from replayer.state import (  # replace: the fast copy of a frozen dataclass
    DeclaredMeld,
    Payment,
    Reading,
    Settlement,
    TableState,
    replace,
)

RULESET_ID = "nanchang"
SPEC = "docs/reference/rules/nanchang.md"
JX = "docs/reference/rules/jiangxi_variants.md"

SOURCES: dict[str, str] = {
    "tile_count_exceeded": f"{SPEC} §1 (136 tiles, 4 of each kind)",
    "flowers_not_used": f"{SPEC} §1 (no flowers, no seasons)",
    "deal_mismatch": f"{SPEC} §3.2 (4+4+4+1: dealer 14, others 13)",
    "wall_exhausted": f"{SPEC} §3.3 (摸完即流局)",
    "exhaustive_draw_with_tiles_left": f"{SPEC} §3.3 (流局 when the wall is used up; no 海底)",
    "claim_after_wall_empty": f"{SPEC} §3.3, §12.10 (after the wall is empty: win claims only)",
    "kong_without_replacement": f"{SPEC} §3.3 (a kong needing a replacement from an empty wall is illegal)",
    "indicator_missing": f"{SPEC} §4.1 (the jing indicator is turned up after the deal)",
    "indicator_out_of_phase": f"{SPEC} §4.1 (after all players have their dealt tiles, once per hand)",
    "indicator_position": f"{SPEC} §3.1, §4.1 (top tile of stack #s counted from the tail; the 下精 indicator under it)",
    "jing_wild_in_meld": f"{SPEC} §4.2, §12.1 (jing in chi/pon/kong only at face value; 可以代替任何一張牌（槓除外）)",
    "discarded_jing_face_value": f"{SPEC} §4.2, §12.3 (a discarded jing is only its own kind)",
    "chow_not_a_sequence": f"{SPEC} §5.2, §12.2 (suited run, three different winds, or 中发白)",
    "chow_wrong_seat": f"{SPEC} §5.3, §12.2 (chi only by the discarder's 下家)",
    "chow_not_allowed": f"{SPEC} §5.3",
    "claim_priority": f"{SPEC} §5.3 (win > pon = kong > chi)",
    "qipeng": f"{SPEC} §5.3 (option qipeng: 不能棄先碰後)",
    "kong_not_robbable": f"{SPEC} §5.4, §6.10, §12.9 (搶槓只能發生在加槓動作中)",
    "false_win": f"{SPEC} §6, §7.3, §8.3 (诈胡)",
    "jingdiao_discard_win": f"{SPEC} §6.8, §12.6 (精钓 wins by self-draw only, or 德国 on a discard)",
    "one_winner_per_discard": f"{SPEC} §7.1, §12.8 (截胡: the first in turn order from the discarder)",
    "qihu": f"{SPEC} §7.2, §12.7 (弃胡 until the player's next draw, chi, pon or kong)",
    "dealer_rotation": f"{SPEC} §2 (连庄 only after a dealer win without 抄庄)",
    "game_over": f"{SPEC} §2 (game length from the log)",
    "settlement": f"{SPEC} §9",
    "tileset": f"{JX} §1, §6, §8 (tileset: 136; 120 without the winds, 九江; 144 with the eight flowers, 鹰潭)",
    "bao_must_fly": f"{JX} §8 (must-fly: a player holding exactly one 宝 discards it at the first opportunity [prov.])",
    "fa_as_flower": f"{JX} §6, §13.18 (fa_as_flower: 发 is set aside when drawn and replaced, never played)",
    "not_a_flower": f"{JX} §1, §6 (only 发, under fa_as_flower, is set aside)",
    "chi_allowed": f"{JX} §1 (chi_allowed: no chow claims)",
    "honor_chi": f"{JX} §1, §13.5 (honor_chi: which wind sequences may be chowed)",
    "discard_win_allowed": f"{JX} §1, §13.9 (discard_win_allowed: self-draw only)",
    "discard_win_max_jing": f"{JX} §1, §13.4 (discard_win_max_jing)",
    "last_draw_no_discard": f"{JX} §1, §13.16 (last_draw_no_discard)",
    "pair_258": f"{JX} §1, §13.14 (pair_258: the pair is a suited 2, 5 or 8)",
    "flower_bao": f"{JX} §8, §13.17 (宝 are flown or melded, never part of a winning hand)",
    "too_many_winners": f"{JX} §1, §5, §13.11 (multiple_winners: at most that many winners on one discard)",
    "qidui_early_show": f"{JX} §5, §13.12 (六对摊牌: six pairs shown at one's own turn with no sets; the hand is then locked)",
}


# --- what the ruleset remembers ----------------------------------------------------------


@dataclass(frozen=True)
class QihuBlock:
    """A passed win (弃胡, §7.2): the tile passed and what the win would have paid the player."""

    tile: str
    points: int


@dataclass(frozen=True)
class HandMemory:
    """One hand: ``first_discards`` (while no chow/pung/kong happened), ``claimed`` (any
    chow/pung/kong so far), ``discards`` (count), ``draws`` (wall draws per seat),
    ``chaozhuang``, ``qihu`` / ``qipeng`` per seat, ``dealt`` tiles per seat,
    ``indicator_seen``, ``lower_indicator`` (the 下精 indicator of the reveal event, §11.1 /
    §11.2; None when the log does not give it), ``shown``: the six pairs each seat laid down
    (六对摊牌, ``nanchang.six_pairs_shown``; empty when none)."""

    first_discards: tuple[str, ...] = ()
    claimed: bool = False
    discards: int = 0
    draws: tuple[int, int, int, int] = (0, 0, 0, 0)
    chaozhuang: bool = False
    qihu: tuple[QihuBlock | None, ...] = (None, None, None, None)
    qipeng: tuple[tuple[str, ...], ...] = ((), (), (), ())
    dealt: tuple[tuple[str, ...], ...] = ((), (), (), ())
    indicator_seen: bool = False
    lower_indicator: str | None = None
    shown: tuple[tuple[str, ...], ...] = ((), (), (), ())


@dataclass(frozen=True)
class NanchangMemory:
    """``hand``: this hand; ``chaozhuang_hands``: hand numbers with 抄庄 (dealer rotation, §2);
    ``previous_indicator``: the last hand's indicator (回头一笑, §11.3)."""

    hand: HandMemory = HandMemory()
    chaozhuang_hands: tuple[int, ...] = ()
    previous_indicator: str | None = None


@dataclass(frozen=True)
class NanchangScore:
    """The explained score of a win (``WinRecord.score``): ``fans`` (shape and conditions as
    fan-like items, so audit / analytics / dashboard list them), ``jing`` (the jing bonus
    and other components as items), the ``evaluation`` and all ``components``."""

    fans: tuple[ScoreItem, ...]
    jing: tuple[ScoreItem, ...]
    evaluation: WinEvaluation
    components: Components

    @property
    def total(self) -> int:
        return self.evaluation.points

    # the explained-score interface (replayer/explained.py)
    def lines(self) -> tuple[ScoreLine, ...]:
        """The shape and conditions (德国, 精钓, 小七对 …): a factor of M (§9.5 b: ×2 …,
        ``ScoreLine.factor``), or the flat amount of 天胡 / 地胡 (§9.5 a, ``points``); the
        count-valued factors (宝, 发 …) are factors on either."""
        flat = self.evaluation.multiplier == 0
        amount = [flat and i.id not in COUNTS for i in self.fans]
        return tuple(ScoreLine(i.id or i.name_en, i.name_en, i.name_zh, points=i.points if a else None,
                               factor=None if a else i.points, count=i.count, tiles=i.tiles)
                     for i, a in zip(self.fans, amount))

    def excluded(self) -> tuple[ScoreLine, ...]:
        return ()

    def settlement_parts(self) -> tuple[tuple[str, Vec4], ...]:
        """jing, gangjing, kong, chaozhuang, win, penalty … (§9) as changes per seat."""
        return tuple((str(name), (v[0], v[1], v[2], v[3])) for name, v in self.components.parts)


def _set(t: tuple, i: int, v: Any) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


def _is_sequence(tiles: tuple[str, ...]) -> bool:
    """A face-value sequence (§5.2): three consecutive ranks of one suit, three different
    winds, or 中发白."""
    idx = sorted(_tiles.index(t) for t in tiles)
    if len(idx) != 3 or len(set(idx)) != 3:
        return False
    if idx[2] < 27:
        return idx[0] // 9 == idx[2] // 9 and idx[1] == idx[0] + 1 and idx[2] == idx[0] + 2
    return all(27 <= i < 31 for i in idx) or idx == [31, 32, 33]


# --- the ruleset -------------------------------------------------------------------------


@dataclass(frozen=True)
class NanchangRuleset(RulesetDefaults):
    """Nanchang bound to its options (:class:`NanchangOptions`). ``shape_filter``: skip the
    evaluation of hands that cannot make a winning shape (:mod:`.shape_filter`; False gives
    the slow reference path — ``could_win`` always True, every 弃胡 check evaluated — with the
    same results)."""

    options: NanchangOptions
    raw_options: tuple[tuple[str, Any], ...] = ()
    id: str = RULESET_ID
    shape_filter: bool = True

    @cached_property
    def play(self) -> PlayRules:
        o = self.options
        return PlayRules(
            tile_copies=tile_copies(o),  # jiangxi_variants.md §1 tileset
            flower_tiles=flower_tiles(o),  # 发 under fa_as_flower (九江); none under flower_bao (鹰潭 宝)
            dealer_tiles=14,
            other_tiles=13,
            dead_wall=o.dead_wall_tiles,
            chow="previous_seat" if o.chi_allowed else "none",
            honor_chows=o.honor_chi != "none",  # 东南西北 any three, 中发白 (§5.2); honor_chi = ordered: check_event
            winners_per_discard=o.multiple_winners,  # 一炮双响 / 三响 (jiangxi_variants.md §5, §13.11)
            robbable_kongs=("added",),
            hand_end="first_win",
            wildcards=o.jing_mode != "none",
            indicator_leaves_wall=self.options.indicator_removed,
        )

    def options_dict(self) -> dict[str, Any]:
        return dict(self.raw_options)

    def pending_events(self, state: TableState, rng: Any) -> tuple[Any, ...]:
        """The simulator's table policy (replayer/simulate/engine.py): with ``flower_bao`` the
        first seat after a flown 宝 that holds two 宝 pungs it (each 宝 in a meld doubles the
        win, jiangxi_variants.md §8); with ``qidui_early_show`` a seat at its own turn that
        holds six pairs and has no declared sets shows them (free points, §5) — its six
        lowest pairs."""
        if self.options.flower_bao:
            pung = self._bao_pung(state)
            if pung is not None:
                return (pung,)
        if not self.options.qidui_early_show:
            return ()
        seat = state.turn if state.phase == "discard" else state.dealer
        if seat is None or not _own_turn(state, seat):
            return ()
        st = state.seats[seat]
        if st.melds or st.hidden or self._memory(state).hand.shown[seat]:
            return ()
        pairs = [_tiles.code(i) for i in range(34) for _ in range(st.counts[i] // 2)]
        if len(pairs) < 6:
            return ()
        return (SixPairsShown(seat=seat, tiles=[t for t in pairs[:6] for _ in (0, 1)]),)

    def _bao_pung(self, state: TableState) -> BaoPung | None:
        pend = state.pending
        if state.phase != "claims" or pend is None or not _tiles.is_flower(pend.tile):
            return None
        for seat in seats_after(pend.seat, state.in_hand):
            held = [t for t in state.seats[seat].tiles if _tiles.is_flower(t)]
            if len(held) >= 2:
                return BaoPung(seat=seat, tiles=sorted([pend.tile, *held[:2]], key=_tiles.index), discard_seq=pend.seq)
        return None

    def ruleset_actions(self, state: TableState) -> tuple[Any, ...]:
        """飞宝 (``flower_bao``, jiangxi_variants.md §8, §13.17) for the seat to discard: a seat
        holding one 宝 flies it (the must-fly rule, ``bao_must_fly``), three or more: one of
        them; two are kept to pung a flown 宝 while more than 20 tiles are left in the wall,
        then flown (the table policy of the simulator's bots: a 宝 held fits no winning hand)."""
        if not self.options.flower_bao:
            return ()
        seat = state.turn if state.phase == "discard" else state.dealer
        if seat is None or not _own_turn(state, seat):
            return ()
        st = state.seats[seat]
        if st.replacements_due or st.hand_size != 14:
            return ()
        held = [t for t in st.tiles if _tiles.is_flower(t)]
        if not held or (len(held) == 2 and state.wall_remaining > 20):
            return ()
        from replayer.actions import Action  # the core's action type (imported on use)

        return (Action(seat, "ruleset", held[0], payload=BaoFlown(seat=seat, tile=held[0])),)

    def seat_notes(self, state: TableState) -> tuple[str, str, str, str]:
        """Table views: a seat that laid down six pairs (六对摊牌) this hand."""
        shown = self._memory(state).hand.shown
        n = tuple("six pairs shown 六对摊牌" if s else "" for s in shown)
        return (n[0], n[1], n[2], n[3])

    def show_six_pairs(self, state: TableState, seat: int, tiles: tuple[str, ...]) -> tuple[TableState, list[Breach]]:
        """六对摊牌 (``nanchang.six_pairs_shown``, jiangxi_variants.md §5, §13.12): with
        ``qidui_early_show``, at the seat's own turn, no declared sets, once per hand, twelve
        tiles held and paired. Remembered for the hand's settlement (component ``early_show``)
        and the lock (:meth:`_check_locked`); otherwise a ``qidui_early_show`` breach and the
        state unchanged."""
        mem = self._memory(state)
        st = state.seats[seat]
        problem = None
        if not self.options.qidui_early_show:
            problem = f"seat {seat} shows six pairs, but option qidui_early_show is off"
        elif not _own_turn(state, seat):
            problem = f"seat {seat} shows six pairs out of its turn (phase {state.phase!r})"
        elif st.melds:
            problem = f"seat {seat} shows six pairs with declared sets"
        elif mem.hand.shown[seat]:
            problem = f"seat {seat} shows six pairs a second time"
        else:
            need: dict[str, int] = {}
            for t in tiles:
                need[t] = need.get(t, 0) + 1
            if any(n % 2 for n in need.values()):
                problem = f"seat {seat} shows {' '.join(tiles)}: not six pairs"
            elif not st.hidden and any(not st.holds(t, n) for t, n in need.items()):
                problem = f"seat {seat} shows {' '.join(tiles)} without holding them"
        if problem is not None:
            return state, [Breach("qidui_early_show", problem, seat)]
        hand = replace(mem.hand, shown=_set(mem.hand.shown, seat, tuple(sorted(tiles, key=_tiles.index))))
        return replace(state, rule_memory=replace(mem, hand=hand)), []

    def rule_source(self, rule_id: str) -> str:
        """Where ``rule_id`` is written; a tile outside the tile set cites option ``tileset``
        when the game does not play Nanchang's 136 tiles (九江 120, 鹰潭 144)."""
        if rule_id in ("tile_count_exceeded", "flowers_not_used") and self.options.tileset != "136":
            return SOURCES["tileset"]
        return SOURCES.get(rule_id) or MECHANICS_SOURCES.get(rule_id) or SPEC

    def could_win(self, counts: tuple[int, ...], melds: int) -> bool:
        """A cheap necessary condition (§6.1–6.5, §4.1): the jing are known only in play, so
        True when under some indicator the hand, every held jing wild, reaches an enabled
        shape (:func:`.shape_filter.could_win_any_jing`); never False for a legal win."""
        return could_win_any_jing(counts, melds, self.options) if self.shape_filter else True

    def winning_shapes(self, state: TableState, seat: int) -> WinningShapes:
        """§6.1–6.5 as data: four sets and a pair with wind / dragon chows (option
        ``honor_chi``) and, with ``pair_258``, a 2-5-8 pair (大七对 is one reading of it);
        小七对; 十三烂 (``shisanlan`` / ``lanhu``; 七星十三烂 is one of them); 九幺 with
        ``jiuyao_factor``. The hand's jing (正精/副精, option ``jing_mode``) are wild (§4.2);
        before the indicator is turned up there are none."""
        o = self.options
        kinds = self._kinds(state) or NO_JING
        honor: bool | tuple[tuple[int, int, int], ...] = (
            ORDERED_HONOR_CHOWS if o.honor_chi == "ordered" else o.honor_chi == "any_distinct")
        special = ["seven_pairs"]
        if o.shisanlan or o.lanhu:
            special.append("rotten")
        if o.jiuyao_factor is not None:
            special.append("thirteen_orphans")
        return WinningShapes(
            regular=(RegularShape(honor_chows=honor, pair_tiles=PAIR_258 if o.pair_258 else None),),
            special=tuple(special),
            wildcards=tuple(sorted(_tiles.index(t) for t in kinds.tiles)),
            sources=(f"{SPEC} §4.1–4.2, §6.1–6.5", "docs/reference/rules/jiangxi_variants.md §1 (honor_chi, "
                     "pair_258, lanhu, jiuyao_factor, jing_mode)"),
        )

    # -- seats, dealer rotation ----------------------------------------------------------

    def seat_wind(self, seat: int, dealer: int) -> str:
        return _tiles.WINDS[(seat - dealer) % 4]

    def next_hand(self, state: TableState) -> HandPlan | None:
        """§2: the dealer keeps the deal after a win of their own unless 抄庄 happened in that
        hand; otherwise (another winner, 流局, 诈胡) it passes to the next seat. The prevalent
        wind advances after four passes (it has no scoring effect)."""
        mem = state.rule_memory if isinstance(state.rule_memory, NanchangMemory) else NanchangMemory()
        dealer = state.first_dealer if state.first_dealer is not None else 0
        passes = 0
        for h in state.hands:
            if h.dealer in h.winners and h.hand_number not in mem.chaozhuang_hands:
                continue
            dealer = (dealer + 1) % 4
            passes += 1
        start = _tiles.WINDS.index(state.first_prevalent_wind or "F1")
        return HandPlan(dealer=dealer, prevalent_wind=_tiles.WINDS[(start + passes // 4) % 4])

    # -- hooks: legality before the event, memory after it -------------------------------

    def _kinds(self, state: TableState) -> JingKinds | None:
        """The hand's jing (option ``jing_mode``); None while a needed indicator is unknown."""
        if self.options.jing_mode == "none":
            return NO_JING
        return jing_kinds(state.wildcard_indicator, self.options.jing_mode) if state.wildcard_indicator else None

    def wild_tiles(self, state: TableState) -> dict[str, str]:
        """The hand's jing for table views (§4.1): 正精 (the indicator) and 副精 (its successor),
        or the successor alone as 精 (``successor_only``); none before the indicator is turned."""
        kinds = self._kinds(state)
        if kinds is None or not kinds.tiles:
            return {}
        if len(kinds.tiles) == 1:
            return {kinds.tiles[0]: "精"}
        return {kinds.tiles[0]: "正精", kinds.tiles[1]: "副精"}

    def _memory(self, state: TableState) -> NanchangMemory:
        m = state.rule_memory
        return m if isinstance(m, NanchangMemory) else NanchangMemory()

    def _wall_empty(self, state: TableState) -> bool:
        return state.wall_remaining <= self.play.dead_wall

    def check_event(self, state: TableState, p: Any) -> list[Breach]:
        """Nanchang breaches of an event about to be applied."""
        return [Breach(*b) for b in self._check_event(state, p)]

    def _check_event(self, state: TableState, p: Any) -> list[tuple[str, str, int | None]]:
        out: list[tuple[str, str, int | None]] = []
        kinds = self._kinds(state)
        out += self._check_locked(state, p)
        if self.options.fa_as_flower:
            out += self._check_fa(p)
        if isinstance(p, ev.WildcardIndicatorRevealed):
            if state.phase != "dealing" or self._memory(state).hand.indicator_seen or \
                    not all(s.dealt for s in state.seats):
                out.append(("indicator_out_of_phase",
                            f"jing indicator {p.indicator} revealed in phase {state.phase!r}; it is revealed once, "
                            "after the deal and before the dealer's first discard", None))
        elif isinstance(p, ev.TileDiscarded):
            if self.options.flower_bao and self.options.bao_must_fly and \
                    [_tiles.is_flower(t) for t in state.seats[p.seat].tiles].count(True) == 1:
                bao = next(t for t in state.seats[p.seat].tiles if _tiles.is_flower(t))
                out.append(("bao_must_fly", f"seat {p.seat} discards {p.tile} holding a single 宝 ({bao}): it must "
                                            "fly it first", p.seat))
            if kinds is None and state.phase in ("dealing", "discard"):
                out.append(("indicator_missing", f"seat {p.seat} discards before the jing indicator was revealed", p.seat))
            if self.options.last_draw_no_discard and state.phase == "discard" and self._wall_empty(state):
                out.append(("last_draw_no_discard",
                            f"seat {p.seat} drew the last wall tile and discards {p.tile}: the last drawer does not "
                            "discard (the hand is drawn unless it wins)", p.seat))
        elif isinstance(p, ev.Chow):
            out += self._check_meld(state, kinds, p.seat, tuple(p.tiles), p.claimed_tile, "chow")
        elif isinstance(p, ev.Pung):
            out += self._check_meld(state, kinds, p.seat, (p.tile,) * 3, p.tile, "pung")
            if self.options.qipeng and p.tile in self._memory(state).hand.qipeng[p.seat]:
                out.append(("qipeng", f"seat {p.seat} pungs {p.tile} after passing a pung of it (弃碰)", p.seat))
        elif isinstance(p, ev.Kong):
            claimed = p.tile if p.kind == "melded" else None
            tiles = (p.tile,) * 4 if p.tile is not None else ()  # () : a concealed kong the record does not show
            out += self._check_meld(state, kinds, p.seat, tiles, claimed, f"{p.kind} kong")
        return out

    def _check_fa(self, p: Any) -> list[tuple[str, str, int | None]]:
        """``fa_as_flower`` (九江, jiangxi_variants.md §6, §13.18; data README): every 发 is set
        aside when drawn and replaced from the tail — never discarded, melded or won on."""
        if isinstance(p, ev.TileDiscarded) and p.tile == FA:
            what = "discards 发"
        elif isinstance(p, ev.Chow) and FA in p.tiles:
            what = "chows with 发"
        elif isinstance(p, (ev.Pung, ev.Kong)) and p.tile == FA:
            what = f"declares a {p.TYPE} of 发"
        elif isinstance(p, ev.WinDeclared) and p.tile == FA:
            what = "wins on 发"
        else:
            return []
        return [("fa_as_flower", f"seat {p.seat} {what}: 发 is set aside when drawn and replaced from the tail", p.seat)]

    def _check_locked(self, state: TableState, p: Any) -> list[tuple[str, str, int | None]]:
        """六对摊牌 locks the hand (jiangxi_variants.md §13.12, tests/data/jiangxi/README.md): the
        seat that showed six pairs makes no meld and keeps its six pairs (it may still win)."""
        seat = getattr(p, "seat", None)
        if not isinstance(seat, int) or not 0 <= seat <= 3:
            return []
        shown = self._memory(state).hand.shown[seat]
        if not shown:
            return []
        if isinstance(p, (ev.Chow, ev.Pung, ev.Kong)):
            return [("qidui_early_show", f"seat {seat} showed six pairs: its hand is locked, no {p.TYPE}", seat)]
        if isinstance(p, ev.TileDiscarded) and not state.seats[seat].hidden and \
                state.seats[seat].counts[_tiles.index(p.tile)] <= shown.count(p.tile):
            return [("qidui_early_show", f"seat {seat} discards {p.tile} from the six pairs it showed", seat)]
        return []

    def _check_meld(self, state: TableState, kinds: JingKinds | None, seat: int, tiles: tuple[str, ...],
                    claimed: str | None, what: str) -> list[tuple[str, str, int | None]]:
        out: list[tuple[str, str, int | None]] = []
        if what == "chow" and _is_sequence(tiles):
            rule = chow_rule(tiles, self.options)
            if rule is not None:
                out.append((rule, f"seat {seat} chows {'-'.join(tiles)}: option {rule} does not allow it", seat))
        if claimed is not None and self._wall_empty(state):
            out.append(("claim_after_wall_empty",
                        f"seat {seat} claims {claimed} by {what} after the wall is empty: only a win may claim", seat))
        if what in ("concealed kong", "added kong") and self._wall_empty(state):
            out.append(("kong_without_replacement",
                        f"seat {seat} declares a {what}{f' of {tiles[0]}' if tiles else ''} with no tile left for "
                        "the replacement", seat))
        jing_involved = kinds is not None and any(kinds.is_jing(t) for t in tiles)
        if what == "chow" and not _is_sequence(tiles):
            if kinds is not None and claimed is not None and kinds.is_jing(claimed):
                out.append(("discarded_jing_face_value",
                            f"seat {seat} chows the discarded jing {claimed} as {'-'.join(tiles)}: a discarded jing "
                            "is only its own kind", seat))
            elif jing_involved:
                out.append(("jing_wild_in_meld",
                            f"seat {seat} chows {'-'.join(tiles)} using a jing as wild: jing in a chow are face value",
                            seat))
            else:
                out.append(("chow_not_a_sequence",
                            f"seat {seat} chows {'-'.join(tiles)}: not a suited run, three different winds or 中发白",
                            seat))
            return out
        # tiles the seat must hold at face value
        need: dict[str, int] = {}
        own = list(tiles)
        if claimed is not None:
            own.remove(claimed)
        if what == "added kong":
            own = [tiles[0]]
        for t in own:
            need[t] = need.get(t, 0) + 1
        st = state.seats[seat]
        if st.hidden:
            return out
        short = [t for t, n in need.items() if not st.holds(t, n)]
        if short and kinds is not None:
            holds_jing = any(st.holds(j) for j in kinds.tiles)
            if claimed is not None and kinds.is_jing(claimed):
                out.append(("discarded_jing_face_value",
                            f"seat {seat} claims the discarded jing {claimed} by {what} without holding "
                            f"{', '.join(short)} at face value", seat))
            elif holds_jing:
                out.append(("jing_wild_in_meld",
                            f"seat {seat} declares a {what} of {tiles[0]} short of {', '.join(short)}: a jing is "
                            "never wild in a chow, pung or kong", seat))
        return out

    def observe(self, before: TableState, p: Any, after: TableState) -> tuple[TableState, list[Breach]]:
        """Update :class:`NanchangMemory` after an event; returns the state and any breach."""
        after, found = self._observe(before, p, after)
        return after, [Breach(*b) for b in found]

    def _observe(self, before: TableState, p: Any, after: TableState) -> tuple[TableState, list[tuple[str, str, int | None]]]:
        # from ``after``'s memory: a table event of Nanchang's own (nanchang.six_pairs_shown)
        # has already written it; the core's handlers never touch rule_memory
        mem = self._memory(after)
        hand = mem.hand
        found: list[tuple[str, str, int | None]] = []
        if isinstance(p, ev.GameStarted):
            return replace(after, rule_memory=NanchangMemory()), found
        if isinstance(p, ev.HandStarted):
            mem = replace(mem, hand=HandMemory(), previous_indicator=before.wildcard_indicator or mem.previous_indicator)
            return replace(after, rule_memory=mem), found
        if isinstance(p, ev.HandEnded):
            if hand.chaozhuang and p.hand_number not in mem.chaozhuang_hands:
                mem = replace(mem, chaozhuang_hands=mem.chaozhuang_hands + (p.hand_number,))
            return replace(after, rule_memory=mem), found
        if isinstance(p, ev.TilesDealt):
            hand = replace(hand, dealt=_set(hand.dealt, p.seat, tuple(p.tiles)))
        elif isinstance(p, ev.WildcardIndicatorRevealed):
            hand = replace(hand, indicator_seen=True, lower_indicator=p.lower_indicator)
            found += self._check_indicator(before, p)
        elif isinstance(p, ev.TileDiscarded):
            n = hand.discards + 1
            first = hand.first_discards + ((p.tile,) if not hand.claimed and n <= 4 else ())
            chao = hand.chaozhuang or (n == 4 and not hand.claimed and len(first) == 4 and len(set(first)) == 1)
            hand = replace(hand, discards=n, first_discards=first, chaozhuang=chao)
        elif isinstance(p, ev.Pass):
            if self.options.qipeng and p.claim == "pung" and before.pending is not None:
                hand = replace(hand, qipeng=_set(hand.qipeng, p.seat, hand.qipeng[p.seat] + (before.pending.tile,)))
        elif isinstance(p, (ev.TileDrawn, ev.Chow, ev.Pung, ev.Kong)):
            hand = self._close_claims(before, p, hand)
            actor = p.seat
            changes: dict[str, Any] = {}
            if hand.qihu[actor] is not None:
                changes["qihu"] = _set(hand.qihu, actor, None)
            if hand.qipeng[actor]:
                changes["qipeng"] = _set(hand.qipeng, actor, ())
            if isinstance(p, ev.TileDrawn):
                if p.source == "wall" and before.phase != "dealing":
                    changes["draws"] = _set(hand.draws, actor, hand.draws[actor] + 1)
            elif not hand.claimed:
                changes["claimed"] = True
            if changes:
                hand = replace(hand, **changes)
        if hand is mem.hand and after.rule_memory is mem:
            return after, found  # nothing to remember (a pass without 弃碰, a win, …)
        return replace(after, rule_memory=replace(mem, hand=hand)), found

    def _indicator_index(self, wall: tuple[str, ...] | None, dice: list[int]) -> int | None:
        """§3.1/§4.1: with a known wall and two dice, the indicator is the top tile of stack
        #s from the tail — tail draws take top then bottom, so it is ``wall[-(2s − 1)]`` (with
        ``wall_layers`` n tiles a stack: ``wall[-(n·s − n + 1)]``; ``wall[-n·s]`` with
        ``tail_draw_order`` bottom first); None when unknown."""
        if wall is None or len(dice) != 2:
            return None
        n = self.options.wall_layers  # tiles per stack (萍乡: 3)
        k = n * sum(dice) - (n - 1) if self.options.tail_draw_order == "top_then_bottom" else n * sum(dice)
        return len(wall) - k if len(wall) >= k else None

    def indicator_position(self, state: TableState, payload: Any) -> int | None:
        """Where the indicator leaves the wall with ``indicator_removed`` (A-1): see
        :meth:`_indicator_index`."""
        return self._indicator_index(state.wall, payload.dice)

    def _check_indicator(self, before: TableState, p: ev.WildcardIndicatorRevealed) -> list[tuple[str, str, int | None]]:
        """The indicator and the 下精 indicator (``lower_indicator``, when given; the bottom
        tile of the same stack, §4.1, §11) where the dice put them in the known wall. With
        ``indicator_removed`` the replayer takes the indicator out of the wall
        (PlayRules.indicator_leaves_wall, :meth:`indicator_position`); the 下精 indicator
        always stays (§11.1)."""
        found: list[tuple[str, str, int | None]] = []
        wall = before.wall
        pos = self._indicator_index(wall, p.dice)
        if wall is not None and pos is not None:
            if wall[pos] != p.indicator:
                found.append(("indicator_position",
                              f"dice {p.dice[0]}+{p.dice[1]}: the indicator is {wall[pos]} in the wall, "
                              f"the log says {p.indicator}", None))
            low = pos - 1 if self.options.tail_draw_order == "top_then_bottom" else pos + 1
            if p.lower_indicator is not None and 0 <= low < len(wall) and wall[low] != p.lower_indicator:
                found.append(("indicator_position",
                              f"dice {p.dice[0]}+{p.dice[1]}: the 下精 indicator (under the indicator) is "
                              f"{wall[low]} in the wall, the log says {p.lower_indicator}", None))
        return found

    def _close_claims(self, before: TableState, p: Any, hand: HandMemory) -> HandMemory:
        """弃胡 (§7.2): when claims on a discard (or an added kong open to robbing) close
        without a win, every other seat that could have won on the tile is blocked."""
        kinds = self._kinds(before)
        if kinds is None:
            return hand
        if before.phase == "claims" and before.pending is not None:
            tile, frm, source = before.pending.tile, before.pending.seat, "discard"
        elif before.phase == "robbing" and before.pending_kong is not None and \
                isinstance(p, ev.TileDrawn) and before.pending_kong.kind == "added" and before.pending_kong.tile is not None:
            tile, frm, source = before.pending_kong.tile, before.pending_kong.seat, "robbed"
        else:
            return hand
        ti = _tiles.index(tile)
        if ti >= 34:
            return hand  # a flown 宝 (flower_bao) completes no hand
        qihu = list(hand.qihu)
        jidx = kinds.indices
        for seat in range(4):
            st = before.seats[seat]
            if seat == frm or st.hidden:
                continue
            # the passed tile (face value, §4.2) cannot complete this hand: no evaluation needed
            c = list(st.counts)
            c[ti] += 1
            if self.shape_filter and not could_win_shape(tuple(c), tuple(st.counts[j] for j in jidx), jidx,
                                                         len(st.melds), self.options):
                continue
            res = self._evaluate(before, seat, tile, source, frm, check_blocks=False)
            if res.legal:
                old = qihu[seat]
                qihu[seat] = QihuBlock(tile, max(res.points, old.points if old else 0))
        return replace(hand, qihu=tuple(qihu)) if qihu != list(hand.qihu) else hand

    # -- wins --------------------------------------------------------------------------

    def _situation(self, state: TableState, *, outcome: str, winner: int | None = None,
                   win: WinInput | None = None, win_discard_seq: int | None = None,
                   offender: int | None = None, kong_replacement: bool = False,
                   heavenly: bool = False, earthly: bool = False, unseen_jing: bool = False) -> HandSituation:
        """The hand as settlement reads it from the table; ``unseen_jing``: another seat holds
        jing the table does not show (WinContext.others_hold_wild, said by paipu score)."""
        mem = self._memory(state)
        robbed = win if win is not None and win.source == "robbed" else None
        robbed_tile = robbed.win_tile if robbed is not None else None
        players = []
        for seat, st in enumerate(state.seats):
            melds = []
            for m in st.melds:
                if robbed is not None and seat == robbed.from_seat and m.kind == "kong" \
                        and m.kong_kind == "added" and m.tiles[0] == robbed_tile:
                    melds.append(MeldInfo("pung", m.tiles[:3], None, m.from_seat))  # the robbed kong is void
                else:
                    melds.append(_meld_info(m))
            concealed = win.concealed if win is not None and seat == winner else tuple(
                t for t in st.tiles if not self.play.is_flower(t))
            discards = tuple(d.tile for d in st.discards if d.claimed_by is None and d.seq != win_discard_seq)
            players.append(PlayerTiles(concealed, tuple(melds), discards, early_show=bool(mem.hand.shown[seat])))
        return HandSituation(
            indicator=state.wildcard_indicator if self.options.jing_mode != "none" else None,
            jing_mode=self.options.jing_mode,
            dealer=state.dealer or 0,
            players=tuple(players),  # type: ignore[arg-type]
            outcome=outcome,  # type: ignore[arg-type]
            winner=winner,
            win_tile=win.win_tile if win is not None else None,
            discarder=win.from_seat if win is not None and win.source == "discard" else None,
            robbed_from=win.from_seat if win is not None and win.source == "robbed" else None,
            kong_replacement=kong_replacement,
            unseen_jing=unseen_jing,
            heavenly=heavenly,
            earthly=earthly,
            offender=offender,
            chaozhuang=mem.hand.chaozhuang,
            lower_indicator=mem.hand.lower_indicator,
            dealt=mem.hand.dealt if any(mem.hand.dealt) else None,
            previous_indicator=mem.previous_indicator if state.hands_started > 1 else None,
        )

    def _win_input(self, state: TableState, seat: int, tile: str, source: str, frm: int | None,
                   concealed: tuple[str, ...] | None = None, kong_replacement: bool = False,
                   first_draw: bool | None = None) -> WinInput:
        """The win as evaluate reads it; 天胡 / 地胡 (§6.11) from the hand's memory, or from
        ``first_draw`` when the caller says it (WinContext.first_draw: paipu score)."""
        st = state.seats[seat]
        mem = self._memory(state).hand
        conc = concealed if concealed is not None else tuple(t for t in st.tiles if not self.play.is_flower(t))
        dealer = state.dealer or 0
        no_kong = all(not s.melds for s in state.seats)
        heavenly = source == "self_drawn" and seat == dealer and mem.discards == 0 and no_kong
        earthly = (source == "discard" and frm == dealer and mem.discards == 1 and not mem.claimed
                   and state.pending is not None and state.pending.seat == dealer)
        if self.options.dihu_includes_first_selfdraw and source == "self_drawn" and seat != dealer \
                and not mem.claimed and mem.draws[seat] == 1 and no_kong:
            earthly = True
        if first_draw is not None:  # the dealt hand, nothing claimed or konged (§6.11)
            first = first_draw and not st.melds
            heavenly = first and source == "self_drawn" and seat == dealer
            earthly = first and ((source == "discard" and frm == dealer) or (
                self.options.dihu_includes_first_selfdraw and source == "self_drawn" and seat != dealer))
        return WinInput(conc, tuple(_meld_info(m) for m in st.melds), tile, source, seat, dealer,  # type: ignore[arg-type]
                        frm, kong_replacement, heavenly, earthly, tuple(t for t in st.flowers),
                        tuple(d.tile for d in st.discards), self._wall_empty(state))

    def _evaluate(self, state: TableState, seat: int, tile: str, source: str, frm: int | None, *,
                  concealed: tuple[str, ...] | None = None, kong_replacement: bool = False,
                  check_blocks: bool = True, win_discard_seq: int | None = None,
                  first_draw: bool | None = None, unseen_jing: bool = False) -> WinEvaluation:
        kinds = self._kinds(state)
        if kinds is None:
            return WinEvaluation(False, rule_id="indicator_missing", message="no jing indicator revealed in this hand")
        win = self._win_input(state, seat, tile, source, frm, concealed, kong_replacement, first_draw)
        nobody = False
        if not self.shape_filter or has_shape(win, kinds, self.options):  # else evaluate never reads it
            sit = self._situation(state, outcome="win", winner=seat, win=win, win_discard_seq=win_discard_seq,
                                  unseen_jing=unseen_jing)
            nobody = nobody_holds_jing(sit, self.options)
        res = evaluate(win, kinds, self.options, nobody_holds_jing=nobody)
        if check_blocks and res.legal and source != "self_drawn":
            block = self._memory(state).hand.qihu[seat]
            if block is not None and (self.options.qihu_scope == "any_tile" or block.tile == tile):
                if not (self.options.qihu_allow_bigger and res.points > block.points):
                    return WinEvaluation(False, rule_id="qihu",
                                         message=f"seat {seat} passed a win on {block.tile} and has not drawn, "
                                                 f"chowed, punged or konged since (弃胡)")
        return res

    def score_win(self, state: TableState, win: WinContext) -> WinScore:
        if win.self_drawn:
            source, frm = "self_drawn", None
        elif win.robbing_kong:
            source, frm = "robbed", win.from_seat
        else:
            source, frm = "discard", win.from_seat
        pend = state.pending.seq if state.pending is not None and source == "discard" else None
        kong_repl = win.self_drawn and win.kong_related
        ld = state.last_draw
        if kong_repl and self.options.fa_as_flower and ld is not None and ld.source == "flower_replacement":
            kong_repl = False  # 九江: a win on the 发's replacement is no 杠开, even after a kong (§13.18)
        # others' jing (§4.3): said by the caller (paipu score: its table shows one hand), else the table's
        unseen = bool(win.others_hold_wild)
        res = self._evaluate(state, win.seat, win.tile, source, frm, concealed=win.concealed,
                             kong_replacement=kong_repl, win_discard_seq=pend, first_draw=win.first_draw,
                             unseen_jing=unseen)
        if not res.legal:
            # a false win has no explained score (readers call ExplainedScore.lines()); the
            # evaluation is kept as the ruleset's own record
            return WinScore(False, 0, None, res, res.rule_id or "false_win", res.message)
        w = self._win_input(state, win.seat, win.tile, source, frm, win.concealed, kong_repl, win.first_draw)
        sit = self._situation(state, outcome="win", winner=win.seat, win=w, win_discard_seq=pend,
                              kong_replacement=w.kong_replacement, heavenly=w.heavenly, earthly=w.earthly,
                              unseen_jing=unseen)
        if pend is not None and any(w.legal and w.discard_seq == pend and not w.self_drawn for w in state.wins):
            # a further winner on the same discard (multiple_winners, jiangxi_variants.md §5): the
            # hand's other components were settled with the first win; this one adds its own win
            comps = Components((("win", res.win),))
        else:
            comps = settle_hand(sit, self.options, res)
        # 德中德 (§6.7): nobody holds a jing — the score reads every other hand
        reads = tuple(s for s in range(4) if s != win.seat) if "deguo_in_deguo" in res.conditions else ()
        return WinScore(True, res.points, _explain(res, comps), sit, reads=reads)

    # -- settlement --------------------------------------------------------------------

    def settle_win(self, state: TableState, win: WinContext, score: WinScore) -> Settlement:
        explained = score.explained
        assert isinstance(explained, NanchangScore)  # score_win explains every legal win with one
        return _settlement(explained.components, _readings(state, explained.components, explained.evaluation))

    def settle_kong(self, state: TableState, seat: int, meld: DeclaredMeld) -> Settlement | None:
        return None  # kongs and 杠精 are paid with the hand's settlement (§9.2, §9.3)

    def settle_exhaustive_draw(self, state: TableState) -> Settlement | None:
        if self._kinds(state) is None:
            return None
        comps = settle_hand(self._situation(state, outcome="draw"), self.options)
        return _settlement(comps, _readings(state, comps))

    def false_win_penalty(self, state: TableState, seat: int) -> Settlement | None:
        """诈胡 (§8.3): the offender pays ``zhahu_penalty`` to each other player and the hand
        is settled as a 流局 (jing, 杠精, kongs, 抄庄)."""
        if self._kinds(state) is None:
            return _settlement(Components((("penalty", _offender_pays(seat, self.options.zhahu_penalty)),)))
        comps = settle_hand(self._situation(state, outcome="false_win", offender=seat), self.options)
        return _settlement(comps, _readings(state, comps))


def _own_turn(state: TableState, seat: int) -> bool:
    """``seat`` is to discard: after its draw or claim, or the dealer's first turn (deal done)."""
    if state.phase == "discard":
        return state.turn == seat
    return state.phase == "dealing" and seat == state.dealer and all(s.dealt for s in state.seats)


def _offender_pays(seat: int, amount: int) -> tuple[int, int, int, int]:
    out = [amount] * 4
    out[seat] = -3 * amount
    return (out[0], out[1], out[2], out[3])


def _meld_info(m: DeclaredMeld) -> MeldInfo:
    return MeldInfo(m.kind, tuple(m.tiles), m.kong_kind, m.from_seat, m.claimed_tile)


#: the rule text behind each component's payments (a payment's ``source``: a disputed score
#: names the rule that decides it, replayer/itemized.py)
_COMPONENT_SOURCES = {
    "jing": f"{SPEC} §9.1 (精牌分: jing bonus, win or draw)", "gangjing": f"{SPEC} §9.2 (杠精)",
    "kong": f"{SPEC} §9.3 (槓牌分: kong bonus)", "chaozhuang": f"{SPEC} §9.4 (抄庄)",
    "early_show": f"{JX} §5, §13.12 (六对摊牌, option qidui_early_show)", "win": f"{SPEC} §9.5 (胡牌分: win score)",
    "penalty": f"{SPEC} §8.2, §8.3 (罚分: the draw penalty draw_dealer_pays, the 诈胡 penalty zhahu_penalty)",
    "lower_jing": f"{SPEC} §11.1, §11.2 (下精)", "look_back": f"{SPEC} §11.3 (回头一笑)",
}
_COMPONENT_NAMES = {
    "jing": ("Jing bonus", "精分"), "gangjing": ("Jing kong", "杠精"), "kong": ("Kong bonus", "杠分"),
    "chaozhuang": ("Dealer copied", "抄庄"), "early_show": ("Six pairs shown", "六对摊牌"), "win": ("Win", "胡牌分"), "penalty": ("Penalty", "罚分"),
    "lower_jing": ("Lower jing", "下精"), "look_back": ("Look back", "回头一笑"),
}


def _explain(res: WinEvaluation, comps: Components) -> NanchangScore:
    items = tuple(
        ScoreItem(_COMPONENT_NAMES[name][0], _COMPONENT_NAMES[name][1], max(v), id=name)
        for name, v in comps.parts if name != "win" and any(v)
    )
    return NanchangScore(res.fans, items, res, comps)


#: components that read the jing every player holds (§4.3: concealed, melded, discarded) —
#: §9.1, §11.1–11.3 — and those that read the tiles of the kongs (§9.2 杠精, §9.3)
_READS_EVERY_HAND = ("jing", "lower_jing", "look_back")
_READS_KONGS = ("gangjing", "kong")


def _readings(state: TableState, comps: Components, evaluation: WinEvaluation | None = None) -> tuple[Reading, ...]:
    """The components of ``comps`` that read concealed tiles (:attr:`Settlement.reads`):
    every hand's jing; the concealed kongs' tiles (a kong of jing is 杠精, §9.2); the win
    component when it is 德中德 (§6.7: nobody holds a jing)."""
    every = (0, 1, 2, 3)
    kongers = tuple(i for i, st in enumerate(state.seats) if any(m.kind == "kong" and m.concealed for m in st.melds))
    out = []
    for name, vec in comps.parts:
        if name in _READS_EVERY_HAND:
            seats: tuple[int, ...] = every
        elif name in _READS_KONGS:
            seats = kongers
        elif name == "win" and evaluation is not None and "deguo_in_deguo" in evaluation.conditions:
            seats = every
        else:
            continue
        if seats:
            out.append(Reading(name, seats, vec))
    return tuple(out)


def _settlement(comps: Components, reads: tuple[Reading, ...] = ()) -> Settlement:
    """A zero-sum :class:`Settlement` whose payments explain each component (who pays whom);
    ``reads``: the components that read concealed tiles (:func:`_readings`)."""
    pays: list[Payment] = []
    for name, vec in comps.parts:
        debt = [[-v, i] for i, v in enumerate(vec) if v < 0]
        credit = [[v, i] for i, v in enumerate(vec) if v > 0]
        for c in credit:
            for d in debt:
                amount = min(c[0], d[0])
                if amount > 0:
                    pays.append(Payment(d[1], c[1], amount, _COMPONENT_NAMES.get(name, (name,))[0],
                                        _COMPONENT_SOURCES.get(name, "")))
                    c[0] -= amount
                    d[0] -= amount
    s = Settlement.from_payments(pays)
    assert s.changes == comps.total
    return replace(s, reads=reads) if reads else s


def build(raw: Mapping[str, Any]) -> NanchangRuleset:
    """A bound :class:`NanchangRuleset` from game_started ``ruleset_options``. Raises
    :class:`replayer.findings.RulesetError` for a bad option."""
    return NanchangRuleset(options=parse_options(raw), raw_options=tuple(sorted(dict(raw).items())))
