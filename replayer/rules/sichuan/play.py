"""Sichuan / Chengdu 血战到底 play rules: the ruleset object the replayer uses
(docs/reference/rules/sichuan.md; seed 002 second half).

* data (:class:`PlayRules`): 108 tiles — three suits, no honors, no flowers (§1); dealer 14,
  others 13; no dead wall; no chow (§2, §10); win > kong = pung; every winner on one discard
  wins (一炮多响, §5); only a 补杠 may be robbed (§5.3); the hand goes on after a win in
  ``xuezhan`` mode (§4).
* memory (:class:`SichuanMemory` in ``TableState.rule_memory``, kept by ``observe``): the
  hand's :class:`~replayer.rules.sichuan.settlement.Ledger` — who is still in, each kong's
  income (退税, 呼叫转移), the 过水不胡 fan each seat passed since its last draw —, the
  declared void suits (定缺), the first go-around (天胡 / 地胡), the discard made right
  after a kong replacement (杠上炮), and the next dealer (§1).
* legality (``check_event`` before an event, ``observe`` after it), each breach naming its
  section: 过水不胡 and a false win (§5.2, §5.1, through ``score_win``); 后4张必胡 — a seat
  that could win on a tile with ≤ 4 tiles left in the wall and did not (§5.2, §12.14);
  定缺: a win holding the declared suit (§2), ``must_discard_void_first`` (§2), a pung/kong of
  one's own void suit with ``void_suit_melds = forbidden`` (§12.20, ours).
* settlement, as it happens (§8): ``settle_kong`` pays a kong at once (§3), ``settle_win``
  each winner and 呼叫转移 (§5.4, §3), ``settle_exhaustive_draw`` 查花猪 / 查大叫 / 退税 (§7);
  each settlement's ``parts`` name its §8 components (kong, win, hujiao_zhuanyi, huazhu,
  chajiao, tuishui), which the export writes per event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from eventlog import events as ev
from eventlog import tiles as _tiles
from replayer.findings import Breach
from replayer.rules.base import (
    MECHANICS_SOURCES,
    HandPlan,
    PlayRules,
    RulesetDefaults,
    WinContext,
    WinScore,
    standard_tile_copies,
)
from replayer.rules.shared import decompose as _dec
from replayer.rules.shared.winning_shapes import RegularShape, WinningShapes, suits_tiles
from replayer.rules.sichuan.evaluate import SUIT_LETTERS, WinValue, ready_waits
from replayer.rules.sichuan.events import VoidSuitDeclared
from replayer.rules.sichuan.options import SPEC, SichuanOptions, parse_options
from replayer.rules.sichuan.settlement import (
    DrawOcc,
    KongOcc,
    Ledger,
    LedgerError,
    Meld,
    PassOcc,
    SeatHand,
    WinOcc,
)
from replayer.state import DeclaredMeld, Reading, Settlement, TableState, replace

__all__ = ["RULESET_ID", "SOURCES", "HandMemory", "SichuanMemory", "SichuanRuleset", "build"]

RULESET_ID = "sichuan"

#: the components of the exhaustive draw (§7): each reads the hands of the players still in
_DRAW_COMPONENTS = ("huazhu", "chajiao", "tuishui")

_SHAPE_SOURCES = ("docs/reference/rules/sichuan.md §2 (缺一门, 定缺), §5.1 (winning shapes: four sets and a pair, 七对)",)

SOURCES: dict[str, str] = {
    "tile_count_exceeded": f"{SPEC} §1 (108 tiles: three suits × 9 × 4, no honors, no flowers)",
    "flowers_not_used": f"{SPEC} §1 (no flowers)",
    "wildcards_not_used": f"{SPEC} §1 (no wildcards, 无赖子)",
    "deal_mismatch": f"{SPEC} §1 (dealer 14 tiles, others 13)",
    "wall_exhausted": f"{SPEC} §1 (the hand is exhausted when the wall is empty)",
    "exhaustive_draw_with_tiles_left": f"{SPEC} §1, §4 (exhaustion: the wall is empty)",
    "chow_not_allowed": f"{SPEC} §2, §10 (no chi)",
    "chow_wrong_seat": f"{SPEC} §2, §10 (no chi)",
    "claim_priority": f"{SPEC} §2 (win > kong = pon)",
    "one_winner_per_discard": f"{SPEC} §2, §5 (一炮多响: every winner on one discard wins)",
    "void_suit": f"{SPEC} §2 (定缺: a winning hand holds no tile of the declared suit)",
    "void_suit_not_declared": f"{SPEC} §2 (定缺 before the dealer's first discard, option dingque_declared)",
    "void_suit_declared_twice": f"{SPEC} §2 (each player declares one void suit, once)",
    "void_suit_out_of_phase": f"{SPEC} §2 (定缺 after the deal, before the dealer's first discard)",
    "void_suit_not_in_options": f"{SPEC} §2, §9 (定缺 is declared only with option dingque_declared)",
    "declarations_not_in_options": f"{SPEC} §5.2, §9 (唱歌/跳舞 only with option declarations)",
    "declaration_not_ready": f"{SPEC} §5.2 (唱歌/跳舞 announce a ready hand; 跳舞 shows its waits)",
    "dancer_wait_discarded": f"{SPEC} §5.2 (a player who has not sung or danced may not discard a dancer's winning tile)",
    "must_discard_void_first": f"{SPEC} §2 (option must_discard_void_first)",
    "void_suit_meld": f"{SPEC} §12.20 (option void_suit_melds = forbidden: no pung/kong of one's void suit)",
    "kong_not_robbable": f"{SPEC} §5.3 (only a 补杠 may be robbed)",
    "false_win": f"{SPEC} §5.1, §2 (sets + pair or 七对, at most two suits)",
    "guoshui_bu_hu": f"{SPEC} §5.2, §12.13 (过水不胡: no discard win after a pass until the next draw, unless for more fan)",
    "hou4zhang_bihu": f"{SPEC} §5.2, §12.14 (后4张必胡: with 4 or fewer tiles left a ready player must win)",
    "wrong_seat_to_act": f"{SPEC} §1, §4 (play order E→S→W→N over the players still in; after a win play resumes "
                         "from the seat after the (last) winner)",
    "too_many_winners": f"{SPEC} §2, §5 (一炮多响: every other player still in may win on one discard)",
    "wrong_tile_count": f"{SPEC} §1 (dealer 14 tiles, others 13; a kong takes one replacement)",
    "replacement_missing": f"{SPEC} §1 (a kong's replacement is drawn from the tail)",
    "unexpected_replacement": f"{SPEC} §1 (a kong's replacement is drawn from the tail; no flowers)",
    "hand_not_finished": f"{SPEC} §4 (the hand ends when three players have won or the wall is exhausted)",
    "play_after_hand_end": f"{SPEC} §4 (the hand ends when three players have won or the wall is exhausted; "
                           "with mode standard at the first win event)",
    "seat_out": f"{SPEC} §4 (a player who has won takes no further part)",
    "seat_out_of_hand": f"{SPEC} §4 (a player who has won takes no further part; seed 002 五.4)",
    "winner_already_won": f"{SPEC} §4 (a player who has won takes no further part)",
    "dealer_rotation": f"{SPEC} §1 (the first winner deals; after 一炮多响 the discarder)",
    "game_over": f"{SPEC} §1 (next dealer; the spec gives no game length: it comes from the log)",
    "settlement": f"{SPEC} §3, §5.4, §7, §8",
}


@dataclass(frozen=True)
class HandMemory:
    """What the ruleset remembers during a hand: the ``ledger``; ``voids`` declared void
    suits (0 W, 1 T, 2 B; None = not declared); ``discards``: 1 once a discard was made; ``melded`` (a pung
    or kong has been made: no 地胡 after it); ``draws`` wall draws per seat (up to 2);
    ``kong_discard`` the seq of a discard made right after the discarder's kong replacement
    (杠上炮); ``last_win_discard`` the discard (or robbed kong) seq of the latest win, so a
    further winner on it joins the same 一炮多响 occurrence; ``declared`` per seat: None, or
    the waits it showed when it announced a ready hand (唱歌: (), 跳舞: its waits; §5.2)."""

    ledger: Ledger
    voids: tuple[int | None, int | None, int | None, int | None] = (None, None, None, None)
    declared: tuple[tuple[str, ...] | None, ...] = (None, None, None, None)
    discards: int = 0
    melded: bool = False
    draws: tuple[int, int, int, int] = (0, 0, 0, 0)
    kong_discard: int | None = None
    last_win_discard: int | None = None


@dataclass(frozen=True)
class SichuanMemory:
    """``hand`` (None between hands) and ``next_dealer`` from the last finished hand (§1)."""

    hand: HandMemory | None = None
    next_dealer: int | None = None


def _set(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


def _melds(melds: tuple[DeclaredMeld, ...]) -> tuple[Meld, ...]:
    """The declared sets as the ledger reads them; a concealed kong the record does not show
    (no tiles: one seat's view of another seat's 暗杠) is left out, as the seat's hidden
    tiles are (SeatState.hidden)."""
    return tuple(Meld("kong" if m.kind == "kong" else "pung", m.tiles[0], m.kong_kind, m.from_seat)
                 for m in melds if m.tiles)


def seat_hand(state: TableState, seat: int, *, without: str | None = None) -> SeatHand:
    """A seat's concealed tiles (minus one ``without``) and melds as the ledger reads them."""
    st = state.seats[seat]
    tiles = list(st.tiles)
    if without is not None and without in tiles:
        tiles.remove(without)
    return SeatHand(seat, tuple(tiles), _melds(st.melds))


@lru_cache(maxsize=1 << 16)
def _winning_kinds(counts: tuple[int, ...], melds: int) -> frozenset[int]:
    """Kinds completing 3n + 1 concealed ``counts`` into sets + pair (or 七对 with no melds):
    a cheap filter before pricing (memoised on the counts)."""
    return frozenset(_dec.waits(counts, seven_pairs=melds == 0))


@dataclass(frozen=True)
class SichuanRuleset(RulesetDefaults):
    """Sichuan bound to its options (see the module docstring)."""

    options: SichuanOptions
    raw_options: tuple[tuple[str, Any], ...] = ()
    id: str = RULESET_ID

    @cached_property
    def play(self) -> PlayRules:
        return PlayRules(
            tile_copies=standard_tile_copies(flowers=False, honors=False),
            dealer_tiles=14,
            other_tiles=13,
            dead_wall=0,
            chow="none",
            claim_priority=(("win", 3), ("kong", 2), ("pung", 2)),
            winners_per_discard=3,
            robbable_kongs=("added",),
            hand_end="first_win" if self.options.mode == "standard" else "one_seat_left",
            wildcards=False,
            max_suits=2,
            must_win_wall=4,  # 后4张必胡 (§5.2, §12.14)
        )

    def options_dict(self) -> dict[str, Any]:
        return dict(self.raw_options)

    def rule_source(self, rule_id: str) -> str:
        return SOURCES.get(rule_id) or MECHANICS_SOURCES.get(rule_id) or f"{SPEC}"

    # -- seats, dealer, end of game ------------------------------------------------------

    def seat_wind(self, seat: int, dealer: int) -> str:
        return _tiles.WINDS[(seat - dealer) % 4]

    def next_hand(self, state: TableState) -> HandPlan | None:
        """§1: the first hand's dealer is the log's; then the first winner of the previous
        hand, the discarder after a first win with several winners, the same dealer (or the
        next with ``draw_dealer = next``) when nobody won. No prevalent-wind rounds (F1);
        the game length comes from the log (never over)."""
        if not state.hands:
            return HandPlan(state.first_dealer if state.first_dealer is not None else 0, "F1")
        mem = self.memory(state)
        if mem.next_dealer is not None:
            return HandPlan(mem.next_dealer, "F1")
        return HandPlan(state.hands[-1].dealer, "F1")

    # -- memory ------------------------------------------------------------------------

    def memory(self, state: TableState) -> SichuanMemory:
        m = state.rule_memory
        return m if isinstance(m, SichuanMemory) else SichuanMemory()

    def hand_memory(self, state: TableState) -> HandMemory:
        h = self.memory(state).hand
        if h is None:
            h = HandMemory(Ledger(self.options, state.dealer or 0))
        return h

    # -- wins ----------------------------------------------------------------------------

    def win_occurrence(self, state: TableState, win: WinContext) -> WinOcc:
        """The ledger's view of a declared win (§5.4, §6.2 situations)."""
        hm = self.hand_memory(state)
        st = state.seats[win.seat]
        self_drawn = win.self_drawn
        ld = state.last_draw
        discard_seq = state.pending.seq if state.pending is not None else None
        after_kong = (not self_drawn and not win.robbing_kong and hm.kong_discard is not None
                      and (discard_seq == hm.kong_discard or _win_discard(state, win) == hm.kong_discard))
        heavenly = self_drawn and win.seat == state.dealer and hm.discards == 0 and not hm.melded
        earthly = (self_drawn and win.seat != state.dealer and hm.draws[win.seat] == 1 and not hm.melded
                   and not st.melds and ld is not None and ld.seat == win.seat and ld.source == "wall")
        if win.first_draw is not None:  # said by the caller (paipu score): the table is not replayed
            first = win.first_draw and self_drawn and not win.melds
            heavenly, earthly = first and win.seat == state.dealer, first and win.seat != state.dealer
        return WinOcc(
            tile=win.tile,
            winners=(SeatHand(win.seat, tuple(win.concealed), _melds(win.melds)),),
            discarder=None if self_drawn else win.from_seat,
            robbed_kong=win.robbing_kong,
            kong_replacement=self_drawn and win.kong_related,
            after_kong=after_kong,
            heavenly=heavenly,
            earthly=earthly,
            last_tile=self_drawn and win.last_of_wall and not win.kong_related,
        )

    def score_win(self, state: TableState, win: WinContext) -> WinScore:
        """Win check and explained score (§5, §6): a :class:`WinValue` as ``explained``;
        ``points`` = fan before the cap. Illegal: ``false_win``, ``void_suit``,
        ``guoshui_bu_hu``, ``seat_out``."""
        ledger = self.hand_memory(state).ledger
        occ = self.win_occurrence(state, win)
        try:
            value = ledger.check_win(occ.winners[0], occ)
        except LedgerError as e:
            v = ledger.value(occ.winners[0], occ.tile, ledger.win_facts(occ))
            return WinScore(False, v.fan, v, occ, e.illegal.rule, e.illegal.message)
        return WinScore(True, value.fan, value, occ)

    def _joins(self, state: TableState, win: WinContext) -> bool:
        hm = self.hand_memory(state)
        d = _win_discard(state, win)
        return d is not None and hm.last_win_discard == d

    def settle_win(self, state: TableState, win: WinContext, score: WinScore) -> Settlement:
        """§5.4 win payments of this winner (+ 呼叫转移, §3) — only players still in pay."""
        ledger = self.hand_memory(state).ledger
        occ = score.situation if isinstance(score.situation, WinOcc) else self.win_occurrence(state, win)
        new = ledger.win(occ, joins_previous=self._joins(state, win))
        return Settlement.by_reason([p for _, p in new.payments[len(ledger.payments):]])

    def settle_kong(self, state: TableState, seat: int, meld: DeclaredMeld) -> Settlement | None:
        """§3 下雨 / 刮风, paid at once by players still in (a robbed 补杠 is never paid: the
        replayer pays an added kong only when nobody robbed it)."""
        ledger = self.hand_memory(state).ledger
        pays = ledger.kong_payments(KongOcc(seat, meld.kong_kind or "concealed",
                                                  meld.tiles[0] if meld.tiles else None, meld.from_seat))
        return Settlement.by_reason(list(pays)) if pays else None

    def settle_exhaustive_draw(self, state: TableState) -> Settlement | None:
        """§7: 查花猪, 查大叫, 退税 among the players still in."""
        ledger = self.hand_memory(state).ledger
        new = ledger.exhaust(tuple(seat_hand(state, s) for s in ledger.still_in()))
        pays = [p for _, p in new.payments[len(ledger.payments):]]
        still = ledger.still_in()
        if not pays and not any(state.seats[s].unseen for s in still):
            return None  # nothing to pay, and every hand read is known
        # §7: 查花猪 / 查大叫 read the hands of the players still in, and 退税 follows 查叫 — a
        # hand the record hides may make them pay where the known hands alone pay nothing
        s = Settlement.by_reason(pays) if pays else Settlement((0, 0, 0, 0))
        return replace(s, reads=tuple(Reading(name, still, new.component(name)) for name in _DRAW_COMPONENTS))

    def false_win_penalty(self, state: TableState, seat: int) -> Settlement | None:
        return None  # the spec names no penalty: a finding only

    def could_win(self, counts: tuple[int, ...], melds: int) -> bool:
        if any(counts[27:]):
            return False
        return bool(_dec.is_complete(counts)) or (melds == 0 and all(c % 2 == 0 for c in counts) and sum(counts) == 14)

    def ruleset_actions(self, state: TableState) -> tuple[Any, ...]:
        """定缺 (§2, with ``dingque_declared``): after the deal (the dealer holding 14), the
        first seat from the dealer that has not declared chooses W, T or B — listed best first:
        the suit it holds fewest of (ties: W, T, B)."""
        if not self.options.dingque_declared or state.phase != "dealing" or state.dealer is None:
            return ()
        if not all(st.dealt for st in state.seats) or any(st.replacements_due for st in state.seats):
            return ()
        if state.seats[state.dealer].concealed_size < self.play.dealer_tiles:
            return ()
        hm = self.memory(state).hand
        if hm is None:
            return ()
        from replayer.actions import Action  # the core's action type (imported on use)

        for k in range(4):
            seat = (state.dealer + k) % 4
            if hm.voids[seat] is None:
                counts = state.seats[seat].counts
                held = [sum(counts[9 * s: 9 * s + 9]) for s in range(3)]
                order = sorted(range(3), key=lambda s: (held[s], s))
                return tuple(Action(seat, "ruleset", payload=VoidSuitDeclared(seat=seat, suit=SUIT_LETTERS[s]))
                             for s in order)
        return ()

    def winning_shapes(self, state: TableState, seat: int) -> WinningShapes:
        """Four sets and a pair (no honors in the tile set), or 七对 (four alike count as two
        pairs: 龙七对), within two suits (缺一门, §2): the suit ``seat`` declared void (定缺) is
        never part of the hand; before or without a declaration any two suits."""
        void = self.void_suit(state, seat)
        if void is None:
            return WinningShapes(special=("seven_pairs",), max_suits=2, sources=_SHAPE_SOURCES)
        keep = suits_tiles(*(s for s in range(3) if s != void))
        return WinningShapes(regular=(RegularShape(tiles=keep),), special=("seven_pairs",), special_tiles=keep,
                             sources=_SHAPE_SOURCES)

    def void_suit(self, state: TableState, seat: int) -> int | None:
        """The suit ``seat`` declared void this hand (定缺), or None."""
        hm = self.memory(state).hand
        return None if hm is None else hm.voids[seat]

    def seat_notes(self, state: TableState) -> tuple[str, str, str, str]:
        """Each seat's declared void suit (定缺), e.g. ``void T 条``."""
        hm = self.memory(state).hand
        if hm is None:
            return ("", "", "", "")
        names = {0: "W 万", 1: "T 条", 2: "B 筒"}
        n = tuple(f"void {names[v]}" if v is not None else "" for v in hm.voids)
        return (n[0], n[1], n[2], n[3])

    # -- legality and memory -------------------------------------------------------------

    def check_event(self, state: TableState, p: Any) -> list[Breach]:
        return [Breach(*b) for b in self._check_event(state, p)]

    def _check_event(self, state: TableState, p: Any) -> list[tuple[str, str, int | None]]:
        """Sichuan breaches of an event about to be applied: (rule_id, message, seat)."""
        out: list[tuple[str, str, int | None]] = []
        if self.options.declarations and isinstance(p, ev.TileDiscarded):
            out += self._dancer_check(state, p)
        if not self.options.dingque_declared or not isinstance(p, (ev.TileDiscarded, ev.Pung, ev.Kong)):
            return out
        mem = self.memory(state).hand
        if mem is None:
            return out
        seat = p.seat
        voids = mem.voids
        if isinstance(p, ev.TileDiscarded):
            if mem.discards == 0 and seat == state.dealer and None in voids:
                missing = [s for s in range(4) if voids[s] is None]
                out.append(("void_suit_not_declared",
                            f"the dealer discards before seats {missing} declared their void suit (定缺)", seat))
            v = voids[p.seat]
            if self.options.must_discard_void_first and v is not None and _tiles.index(p.tile) // 9 != v:
                held = [t for t in state.seats[p.seat].tiles if _tiles.index(t) // 9 == v]
                if held:
                    out.append(("must_discard_void_first",
                                (f"seat {p.seat} discards {p.tile} while holding {', '.join(held)} of its void suit "
                                f"{SUIT_LETTERS[v]}"), p.seat))
        elif self.options.void_suit_melds == "forbidden":
            v = voids[p.seat]  # a concealed kong the record does not show (tile None) cannot be judged
            if v is not None and p.tile is not None and _tiles.index(p.tile) // 9 == v:
                out.append(("void_suit_meld", (f"seat {p.seat} declares a {'pung' if isinstance(p, ev.Pung) else 'kong'} "
                                              f"of {p.tile}, its declared void suit"), p.seat))
        return out

    def _dancer_check(self, state: TableState, p: ev.TileDiscarded) -> list[tuple[str, str, int | None]]:
        """§5.2 跳舞: a player who has not announced may not discard a dancer's winning tile."""
        hm = self.memory(state).hand
        if hm is None or hm.declared[p.seat] is not None:
            return []
        for s in range(4):
            shown = hm.declared[s]
            if s != p.seat and shown and state.in_hand[s] and p.tile in shown:
                return [("dancer_wait_discarded", f"seat {p.seat} has not announced a ready hand and discards "
                                                  f"{p.tile}, a winning tile seat {s} showed (跳舞)", p.seat)]
        return []

    def declare_void(self, state: TableState, seat: int, suit: str) -> tuple[TableState, list[tuple[str, str, int | None]]]:
        """定缺: ``seat`` declares ``suit`` (W, T or B) void (§2)."""
        out: list[tuple[str, str, int | None]] = []
        hm = self.hand_memory(state)
        if hm.voids[seat] is not None:
            out.append(("void_suit_declared_twice", f"seat {seat} declares a void suit twice", seat))
        if hm.discards:
            out.append(("void_suit_not_declared", f"seat {seat} declares its void suit after the first discard", seat))
        voids = _set(hm.voids, seat, SUIT_LETTERS.index(suit))
        ledger = hm.ledger
        if None not in voids:
            ledger = replace(ledger, void_suits=voids)
        return self._store(state, replace(hm, voids=voids, ledger=ledger)), out

    def declare_ready(self, state: TableState, seat: int, waits: tuple[str, ...]) -> tuple[TableState, list]:
        """唱歌 (no ``waits``) / 跳舞 (``waits`` shown) by ``seat`` (§5.2)."""
        out: list[tuple[str, str, int | None]] = []
        hm = self.hand_memory(state)
        st = state.seats[seat]
        if not state.in_hand[seat]:
            out.append(("seat_out_of_hand", f"seat {seat} has won and declares a ready hand", seat))
        key = seat_hand(state, seat).key()
        real = ready_waits(key[0], key[1], hm.voids[seat]) if st.concealed_size % 3 == 1 and not st.unseen else None
        if real is None:
            out.append(("declaration_not_ready", f"seat {seat} announces a ready hand it does not hold", seat))
        elif waits and tuple(sorted(waits, key=_tiles.index)) != real.tiles:
            out.append(("declaration_not_ready", f"seat {seat} shows waits {', '.join(waits)}; its waits are "
                                                 f"{', '.join(real.tiles)}", seat))
        return self._store(state, replace(hm, declared=_set(hm.declared, seat, tuple(waits)))), out

    def _store(self, state: TableState, hm: HandMemory | None, **more: Any) -> TableState:
        return replace(state, rule_memory=replace(self.memory(state), hand=hm, **more))

    def observe(self, before: TableState, p: Any, after: TableState) -> tuple[TableState, list[Breach]]:
        after, found = self._observe(before, p, after)
        return after, [Breach(*b) for b in found]

    def _observe(self, before: TableState, p: Any, after: TableState) -> tuple[TableState, list[tuple[str, str, int | None]]]:
        """Update :class:`SichuanMemory` after an event; returns the state and any breach."""
        found: list[tuple[str, str, int | None]] = []
        if isinstance(p, ev.GameStarted):
            return replace(after, rule_memory=SichuanMemory()), found
        if isinstance(p, ev.HandStarted):
            return self._store(after, HandMemory(Ledger(self.options, p.dealer))), found
        mem = self.memory(before)
        hm = mem.hand
        if hm is None:
            return after, found
        if isinstance(p, ev.HandEnded):
            return self._store(after, None, next_dealer=hm.ledger.next_dealer()), found
        ledger = hm.ledger
        if isinstance(p, (ev.TileDrawn, ev.Pung, ev.Kong, ev.ExhaustiveDraw)):
            ledger, more = self._close_window(before, hm, ledger, p)
            found += more
        if isinstance(p, ev.TileDrawn):
            if ledger.passed_fan[p.seat] >= 0:
                ledger = ledger.draw(DrawOcc(p.seat))
            if p.source == "wall" and hm.draws[p.seat] < 2:  # counted up to 2 (地胡: the first draw)
                hm = replace(hm, draws=_set(hm.draws, p.seat, hm.draws[p.seat] + 1))
            pk = before.pending_kong
            if pk is not None and pk.kind == "added" and pk.seat == p.seat and p.source == "kong_replacement":
                ledger = self._kong(ledger, KongOcc(pk.seat, "added", pk.tile), found)
        elif isinstance(p, ev.Kong):
            hm = replace(hm, melded=True)
            if p.kind != "added":
                frm = before.pending.seat if p.kind == "melded" and before.pending is not None else None
                ledger = self._kong(ledger, KongOcc(p.seat, p.kind, p.tile, frm), found)
        elif isinstance(p, ev.Pung):
            if not hm.melded:
                hm = replace(hm, melded=True)
            if ledger.last_kong is not None:
                ledger = ledger.other()
        elif isinstance(p, ev.TileDiscarded):
            ld = before.last_draw
            after_kong = ld is not None and ld.seat == p.seat and ld.after_kong
            found += self._self_draw_pass(before, ledger, p)
            pend = after.pending
            kd = pend.seq if after_kong and pend is not None else None
            if hm.discards == 0 or kd != hm.kong_discard:  # discards counted up to 1 (天胡, 定缺)
                hm = replace(hm, discards=1, kong_discard=kd)
            if not after_kong and ledger.last_kong is not None:
                ledger = ledger.other()
        elif isinstance(p, ev.WinDeclared):
            rec = after.wins[-1] if after.wins else None
            if rec is not None and rec.legal and isinstance(rec.situation, WinOcc):
                joins = rec.discard_seq is not None and hm.last_win_discard == rec.discard_seq
                try:
                    ledger = ledger.win(rec.situation, joins_previous=joins)
                except LedgerError as e:  # pragma: no cover - score_win said legal
                    found.append((e.illegal.rule, e.illegal.message, e.illegal.seat))
                hm = replace(hm, last_win_discard=rec.discard_seq if not rec.self_drawn else None)
            elif rec is not None and rec.legal and rec.unscored and rec.seq > before.seq and not ledger.out[rec.seat]:
                joins = rec.discard_seq is not None and hm.last_win_discard == rec.discard_seq
                ledger = ledger.unscored_win(rec.seat, None if rec.self_drawn else rec.from_seat, joins_previous=joins)
                hm = replace(hm, last_win_discard=rec.discard_seq if not rec.self_drawn else None)
        for s in range(4):  # a seat the table let leave after its false win (§4: no longer in the hand)
            if before.in_hand[s] and not after.in_hand[s] and not ledger.out[s]:
                ledger = ledger.leave(s)
        if isinstance(p, ev.ExhaustiveDraw):
            try:
                ledger = ledger.exhaust(tuple(seat_hand(before, s) for s in ledger.still_in()))
            except ValueError:
                pass
        if ledger is hm.ledger and hm is mem.hand:
            return after, found
        return self._store(after, replace(hm, ledger=ledger)), found

    def _kong(self, ledger: Ledger, occ: KongOcc, found: list) -> Ledger:
        try:
            return ledger.kong(occ)
        except LedgerError as e:
            found.append((e.illegal.rule, str(e), occ.seat))
            return ledger

    def _close_window(self, before: TableState, hm: HandMemory, ledger: Ledger, p: Any) -> tuple[Ledger, list]:
        """A discard (or a robbable 补杠 tile) was not won by every seat that could have won
        on it: each such seat passed (过水不胡, §5.2) — with ≤ 4 tiles left that is illegal
        (后4张必胡, §12.14)."""
        found: list[tuple[str, str, int | None]] = []
        if before.phase == "claims" and before.pending is not None:
            pend = before.pending
            tile, offerer, robbed, seq = pend.tile, pend.seat, False, pend.seq
        elif before.phase == "robbing" and before.pending_kong is not None and before.pending_kong.kind == "added" \
                and before.pending_kong.tile is not None:
            pk = before.pending_kong
            tile, offerer, robbed, seq = before.pending_kong.tile, pk.seat, True, pk.seq
        else:
            return ledger, found
        taker = p.seat if isinstance(p, (ev.Pung, ev.Kong)) else None
        for s in range(4):
            if s == offerer or ledger.out[s]:
                continue
            st = before.seats[s]
            if st.hidden or _tiles.index(tile) not in _winning_kinds(st.counts, len(st.melds)):
                continue
            hand = seat_hand(before, s)
            occ = WinOcc(tile, (hand,), offerer, robbed_kong=robbed, after_kong=hm.kong_discard == seq)
            try:
                ledger.check_win(hand, occ)
            except LedgerError:
                continue  # could not win on it (过水不胡, false win): no new pass
            pass_ = PassOcc(s, tile, hand, offerer, before.wall_remaining, robbed, occ.after_kong)
            try:
                ledger = ledger.pass_(pass_)
            except LedgerError as e:
                found.append((e.illegal.rule, e.illegal.message + (f" (it took the tile by {type(p).__name__.lower()})"
                                                                   if s == taker else ""), s))
                ledger = ledger.passed(pass_)  # it passed all the same: 过水不胡 holds until it draws
        return ledger, found

    def _self_draw_pass(self, before: TableState, ledger: Ledger, p: ev.TileDiscarded) -> list:
        """后4张必胡 on a drawn tile: a seat that discards instead of winning on its draw with
        ≤ 4 tiles left breaks §5.2."""
        ld = before.last_draw
        if ld is None or ld.seat != p.seat or ld.tile is None or before.wall_remaining > 4:
            return []
        st = before.seats[p.seat]
        if st.hidden or not self.could_win(st.counts, len(st.melds)):
            return []
        hand = seat_hand(before, p.seat, without=ld.tile)
        occ = WinOcc(ld.tile, (hand,), None)
        try:
            ledger.check_win(hand, occ)
        except LedgerError:
            return []
        return [("hou4zhang_bihu", (f"seat {p.seat} drew its winning tile {ld.tile} with {before.wall_remaining} tiles "
                                   "left in the wall and discarded instead of winning (后4张必胡, §5.2)"), p.seat)]


def _win_discard(state: TableState, win: WinContext) -> int | None:
    """The discard (or robbed kong) seq a declared win takes."""
    if win.self_drawn:
        return None
    if win.robbing_kong:
        return state.pending_kong.seq if state.pending_kong is not None else (
            state.wins[-1].discard_seq if state.wins else None)
    if state.pending is not None:
        return state.pending.seq
    return state.wins[-1].discard_seq if state.wins else None


def explained_value(score: WinScore) -> WinValue | None:
    v = score.explained
    return v if isinstance(v, WinValue) else None


def build(raw: Mapping[str, Any]) -> SichuanRuleset:
    """A bound :class:`SichuanRuleset` from game_started ``ruleset_options``. Raises
    :class:`replayer.findings.RulesetError` for a bad option."""
    return SichuanRuleset(options=parse_options(raw), raw_options=tuple(sorted(raw.items())))

