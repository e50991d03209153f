"""The 中国竞技麻将 chip format (docs/reference/rules/competition.md Part A): the ruleset object.

* Tiles, claims, flowers (§A1–A3): 144 tiles with 8 flowers, chow from the 上家 only, pung
  and kong beat chow; several winners on one discard (§A6.5; option ``multiple_winners``).
* Scoring (§A6): :mod:`.patterns` (T = patterns + bonuses, a pattern needed to win);
  payments (§A6.4), 倍打, caps (§A5): :mod:`.settlement`.
* Instant payments (§A7: kongs, 花杠, 追牌) are made by :meth:`CjmRuleset.observe` as the
  events happen, doubled under 倍打, capped by the payer's chips; a payment that would end
  the 局 (two players at 0) while its receiver would not be first is held off the table
  (禁止非胜式局结, §A10) and paid (capped) when the last hand of the 局 ends. A penalty
  (a ``penalty`` event or a ruling's score changes) that would end the 局 is held off the
  table too and counted as given when the 局 ends ("杠牌和处罚的得失分只能挂于盘外局结后累积得分").
* 罚分 (§A9): units of 10, at most 50 per decision (×2 under 倍打): finding ``penalty_units``.
* 包牌 (§A8): three consecutive claims between the same two players (either way), the
  清一色 display after three claims, and the hung tile of 全求独钓: the liable player pays
  3T alone.
* 相公 (§A9): a wrong tile count (多张/少张) or a false win (诈和) makes the seat's hand dead
  (``PlayRules.dead_hand_faults``), as does a referee's ``dead_hand`` ruling; the replayer
  keeps the status (``SeatState.dead_hand``) and reports a dead hand's claim or win
  (finding ``xianggong``).
* Zero chips (§A5): no win on a zero-chip player's discard; such a win is a finding and the
  winner pays the would-be score to that player and 10 to each of the three others; a
  further winner on a discard that emptied the discarder's chips still wins (§A6.5).
* 局结 (§A10): the game (one 局) ends after the scheduled 圈 or when ``jujie_zero_players``
  players are at 0 chips; a win that would end it while the winner would not be first is a
  finding (``non_winning_session_end``). The dealer continues only after a dealer win.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pydantic import ValidationError

from eventlog import events as ev
from eventlog import tiles as _tiles
from replayer.accounting import apply_settlement
from eventlog.errors import validation_line
from replayer.findings import Breach, RulesetError
from replayer.rules.base import (
    MECHANICS_SOURCES,
    HandPlan,
    PlayRules,
    RulesetDefaults,
    WinContext,
    WinScore,
    get_spec,
    standard_tile_copies,
)
from replayer.rules.shared.winning_shapes import WinningShapes
from replayer.state import DeclaredMeld, Settlement, TableState, replace

from .settlement import capped, chase_payments, ends_session, first_after, flower_kong_payments, kong_payments, win_payments, zero_chip_penalty
from .options import CjmOptions
from .patterns import SECTIONS, CjmScore, WinFlags, score

RULESET_ID = "cjm_chips"
_SHAPES = WinningShapes(special=("seven_pairs", "honors_and_knitted", "knitted_straight"),
                        sources=("docs/reference/rules/competition.md §A6.1 (the winning shapes of the chip format)",))
_SPEC = "docs/reference/rules/competition.md"

SOURCES: dict[str, str] = {
    "no_pattern": f"{_SPEC} §A6.1 (无番禁和牌); seed 000",
    "false_win": f"{_SPEC} §A6.1, §A9 (诈和); seed 000",
    "xianggong": f"{_SPEC} §A9 (相公: a dead hand may not win or claim); seed 000",
    "win_on_zero_chip_discard": f"{_SPEC} §A5 (盘面无分者点炮，禁止和牌); seed 000",
    "non_winning_session_end": f"{_SPEC} §A10 (禁止非胜式局结); seed 000",
    "dealer_rotation": f"{_SPEC} §A2 (除此之外庄家一律移庄; 荒牌移庄); seed 000",
    "game_over": f"{_SPEC} §A10 (局结: the scheduled 圈, or two players at 0 chips); seed 000",
    "chow_wrong_seat": f"{_SPEC} §A3 (chi only from the 上家)",
    "claim_priority": f"{_SPEC} §A3 (pon beats chi)",
    "settlement": f"{_SPEC} §A6.4, §A7, §A8",
    "chip_stacks": f"{_SPEC} §A5 (each player starts each 局 with 100 points of chips: 每人每局开始持有100分筹码)",
    "penalty_units": f"{_SPEC} §A9 (罚分限定为10分一个单位限于50分以内), §A6.4 (倍打 doubles penalties)",
}

_FLOWER_SETS = (("H1", "H2", "H3", "H4"), ("H5", "H6", "H7", "H8"))


def _set(t: tuple, i: int, v: Any) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


@dataclass(frozen=True)
class HandMemory:
    """What one hand's rules need beyond the table: claims (claimer, feeder) in order, the
    liabilities established (包牌), hung tiles (全求独钓; "" once swapped), the run of equal
    discards (追牌), the flower sets paid (花杠). (The dead hands, 相公, are the table's:
    ``SeatState.dead_hand``.)"""

    claims: tuple[tuple[int, int], ...] = ()
    liable: tuple[tuple[int, int], ...] = ()  # (claimer, feeder): three consecutive claims
    flush_liable: tuple[tuple[int, int], ...] = ()  # (claimer, feeder): those claims left a 清一色 display
    hung: tuple[str | None, ...] = (None,) * 4
    run: tuple[str, tuple[int, ...]] | None = None
    flower_kongs: tuple[tuple[int, int], ...] = ()
    zero_chip_win: tuple[int, int, int] | None = None  # (winner, zero-chip seat, would-be T)


@dataclass(frozen=True)
class CjmMemory:
    hand: HandMemory = field(default_factory=HandMemory)
    #: off-table (盘外) payments (payer, payee, amount, reason), paid (capped) at the end of the 局
    held: tuple[tuple[int, int, int, str, str], ...] = ()
    #: off-table penalties (score changes, reason): added as they are when the 局 ends
    held_penalties: tuple[tuple[tuple[int, int, int, int], str], ...] = ()


@dataclass(frozen=True)
class CjmRuleset(RulesetDefaults):
    """The chip format bound to its options (:class:`CjmOptions`)."""

    options: CjmOptions
    raw_options: tuple[tuple[str, Any], ...] = ()
    id: str = RULESET_ID

    @cached_property
    def play(self) -> PlayRules:
        return PlayRules(
            tile_copies=standard_tile_copies(flowers=True),
            winners_per_discard=3 if self.options.multiple_winners == "all" else 1,
            robbable_kongs=("added",),
            hand_end="first_win",
            # 多张/少张 and 诈和 → 相公: no win, no claim, draws and discards mechanically
            # (competition.md §A9; seed 000 二十五 "不得和牌，处理为相公并机械出牌", "不符合规定条件
            # 而宣布和牌 … 罚分处理为相公")
            dead_hand_faults=("wrong_tile_count", "false_win"),
        )

    @cached_property
    def _mcr(self) -> Any:
        return get_spec("mcr").build({})  # its situation(): the MCR reading of a declared win

    def options_dict(self) -> dict[str, Any]:
        return dict(self.raw_options)

    def winning_shapes(self, state: TableState, seat: int) -> WinningShapes:
        """Four sets and a pair, 七对, 组合龙 and 大乱 (全不靠); not 十三幺, which is no shape
        of this format (competition.md §A6.1)."""
        return _SHAPES

    def initial_scores(self) -> tuple[int, int, int, int]:
        """Each player starts each 局 with ``chips`` (§A5: 100)."""
        c = self.options.chips
        return (c, c, c, c)

    # -- seats, dealer, end of the 局 ---------------------------------------------------

    def seat_wind(self, seat: int, dealer: int) -> str:
        return _tiles.WINDS[(seat - dealer) % 4]

    def next_hand(self, state: TableState) -> HandPlan | None:
        first = state.first_dealer if state.first_dealer is not None else 0
        start = 4 * _tiles.WINDS.index(state.first_prevalent_wind or "F1")
        passes = sum(1 for h in state.hands if h.dealer not in h.winners and not h.void)
        k = start + passes
        if k >= 4 * self.options.rounds:
            return None
        if state.hands and sum(1 for s in state.scores if s <= 0) >= self.options.jujie_zero_players:
            return None  # 局结: two players at 0 chips (A-Amb-1)
        return HandPlan(dealer=(first + passes) % 4, prevalent_wind=_tiles.WINDS[k // 4])

    def multiplier(self, state: TableState, winner: int | None = None) -> int:
        """2 in a hand dealt by a continuing dealer (倍打, §A6.4), else 1 — never 4. With
        ``beida_includes_trigger_hand`` a dealer's own win is doubled too."""
        played = [h for h in state.hands if not h.void]
        if played and played[-1].dealer == state.dealer and state.dealer in played[-1].winners:
            return 2
        if self.options.beida_includes_trigger_hand and winner is not None and winner == state.dealer:
            return 2
        return 1

    # -- wins -----------------------------------------------------------------------

    def _memory(self, state: TableState) -> CjmMemory:
        m = state.rule_memory
        return m if isinstance(m, CjmMemory) else CjmMemory()

    def _flags(self, state: TableState, win: WinContext) -> WinFlags:
        ld = state.last_draw
        drew = ld is not None and ld.seat == win.seat and win.self_drawn
        if self.options.last_tile_bonus_scope == "last_tile":
            last = win.last_of_wall
        else:
            last = state.wall_remaining <= 3 and not win.robbing_kong
        return WinFlags(
            flower_replacement=drew and ld.source == "flower_replacement" and not ld.after_kong,  # type: ignore[union-attr]
            kong_replacement=win.self_drawn and win.kong_related,
            last_go_around=last,
        )

    def _explain(self, state: TableState, win: WinContext) -> tuple[Any, CjmScore]:
        sit = self._mcr.situation(win)
        return sit, score(sit, self.options, self._flags(state, win))

    def _liable(self, state: TableState, win: WinContext, res: CjmScore) -> tuple[int | None, bool]:
        """The seat that pays alone (包牌, §A8), or None; and whether it pays for all three
        whatever the win (the hung tile §A8.2, the 清一色 display §A8.1a) rather than the
        ``baopai_discard_amount`` of three claims on a discard (A-Amb-4)."""
        mem = self._memory(state).hand
        w = win.seat
        hung = mem.hung[w]
        if (hung and not win.self_drawn and not win.robbing_kong and win.from_seat is not None
                and len(win.concealed) == 1 and win.concealed[0] == hung and _near(win.tile, hung)):
            return win.from_seat, True
        if any(i.id == "full_flush" for i in res.fans):
            for c, f in mem.flush_liable:
                if c == w:
                    return f, True
        for c, f in mem.liable:
            if c == w:
                return f, False
            if f == w:
                return c, False
        return None, False

    def _payments(self, state: TableState, win: WinContext, total: int, res: CjmScore) -> list:
        liable, all_three = self._liable(state, win, res)
        return win_payments(
            win.seat, total, self_drawn=win.self_drawn,
            discarder=None if win.self_drawn else win.from_seat,
            robbed_konger=win.from_seat if win.robbing_kong else None,
            liable=liable,
            liable_discard_amount="3T" if all_three else self.options.baopai_discard_amount,
            multiplier=self.multiplier(state, win.seat),
        )

    def score_win(self, state: TableState, win: WinContext) -> WinScore:
        try:
            sit, res = self._explain(state, win)
        except ValueError as e:
            return WinScore(False, 0, None, None, "false_win", f"not a winning hand: {e}")
        if not res.is_win:
            rule = "no_pattern" if res.fans else "false_win"
            return WinScore(False, res.total, res, sit, rule, res.error)
        if not win.self_drawn and win.from_seat is not None and self._chips_at_discard(state, win.from_seat) <= 0:
            return WinScore(False, res.total, res, sit, "win_on_zero_chip_discard",
                            f"seat {win.from_seat} has no chips: no one may win on its discard (T = {res.total})")
        s = capped(state.scores, self._payments(state, win, res.total, res))
        if (self.options.hold_off_table and ends_session(state.scores, s.changes, self.options.jujie_zero_players)
                and not first_after(state.scores, s.changes, win.seat)):
            return WinScore(False, res.total, res, sit, "non_winning_session_end",
                            f"the win would end the 局 with seat {win.seat} not first (禁止非胜式局结)")
        return WinScore(True, res.total, res, sit)

    @staticmethod
    def _chips_at_discard(state: TableState, discarder: int) -> int:
        """The discarder's chips when it discarded (§A5 is about those): a further winner on
        the same discard (§A6.5) is paid from what the earlier winners left, maybe nothing,
        but still wins. The hand ends at its first discard win (``hand_end`` first_win), so
        the hand's earlier legal discard wins from this seat are on this discard."""
        paid = sum(-w.settlement.changes[discarder] for w in state.wins
                   if w.legal and w.settlement is not None and not w.self_drawn and w.from_seat == discarder)
        return state.scores[discarder] + paid

    def settle_win(self, state: TableState, win: WinContext, score: WinScore) -> Settlement:
        explained = score.explained
        assert isinstance(explained, CjmScore)  # score_win explains every win with a CjmScore
        return capped(state.scores, self._payments(state, win, score.points, explained))

    def false_win_penalty(self, state: TableState, seat: int) -> Settlement | None:
        last = state.wins[-1] if state.wins else None
        if last is None or last.seat != seat or last.from_seat is None or last.self_drawn:
            return None
        if self._chips_at_discard(state, last.from_seat) > 0 or last.points is None:
            return None  # 诈和: the referee decides the penalty (§A9), the hand is dead (observe)
        m = self.multiplier(state)
        return capped(state.scores, zero_chip_penalty(
            seat, last.from_seat, 2 * last.points, self.options.zero_chip_penalty, m))

    def settle_kong(self, state: TableState, seat: int, meld: DeclaredMeld) -> Settlement | None:
        return None  # paid by observe (instant payments, held off-table when needed)

    def settle_exhaustive_draw(self, state: TableState) -> Settlement | None:
        return None  # 荒牌: nothing is paid; the deal passes (§A2)

    def rule_source(self, rule_id: str) -> str:
        """The section of a rule id; a pattern or bonus id gives its row (§A6.2 #n, §A6.3)."""
        if rule_id in SECTIONS:
            return f"{_SPEC} {SECTIONS[rule_id]}"
        return SOURCES.get(rule_id) or MECHANICS_SOURCES.get(rule_id) or f"{_SPEC} Part A"

    # -- the hooks: chip stacks, penalty units, and what the rules remember ---------------

    def check_event(self, state: TableState, p: Any) -> Sequence[Breach]:
        if isinstance(p, ev.GameStarted) and tuple(p.initial_scores) != self.initial_scores():
            return [Breach("chip_stacks", f"the 局 starts with {list(p.initial_scores)} chips; each player "
                                          f"starts with {self.options.chips} (§A5)")]
        if isinstance(p, ev.Penalty) or (isinstance(p, ev.RefereeRuling) and p.kind in ("penalty", "points_removed")):
            m = self.multiplier(state)
            bad = [c for c in (p.score_changes or ()) if c < 0 and (c % (10 * m) or c < -50 * m)]
            if bad:
                return [Breach("penalty_units", f"a penalty of {bad[0]}: 罚分 is in units of {10 * m}, at most "
                                                f"{50 * m} per decision (§A9{', ×2 倍打' if m > 1 else ''})")]
        return []

    def _instant(self, before: TableState, after: TableState, mem: CjmMemory, payments: list,
                 receiver: int, what: str) -> tuple[TableState, CjmMemory]:
        s = capped(after.scores, payments)
        if not any(s.changes):
            return after, mem
        if (self.options.hold_off_table and ends_session(after.scores, s.changes, self.options.jujie_zero_players)
                and not first_after(after.scores, s.changes, receiver)):
            held = mem.held + tuple((q.payer, q.payee, q.amount, f"{q.reason} (held 盘外)", q.source) for q in s.payments)
            return after, replace(mem, held=held)
        return apply_settlement(after, before.seq + 1, "kong", s, what), mem

    def observe(self, before: TableState, p: Any, after: TableState) -> tuple[TableState, Sequence[Breach]]:
        mem = self._memory(before)
        if isinstance(p, ev.GameStarted):
            return replace(after, rule_memory=CjmMemory()), []
        if isinstance(p, ev.HandStarted):
            return replace(after, rule_memory=replace(mem, hand=HandMemory())), []
        if isinstance(p, ev.HandEnded) and after.game_over:
            if mem.held:  # the 局 is over: what was held off the table is paid now
                s = capped(after.scores, list(mem.held))
                after = apply_settlement(after, before.seq + 1, "kong", s, "held off the table (盘外), paid at the end of the 局")
                mem = replace(mem, held=())
            for changes, why in mem.held_penalties:  # "局结后累积得分" (seed 000 §32)
                after = apply_settlement(after, before.seq + 1, "penalty", Settlement(changes, zero_sum=False),
                                         f"{why}: held off the table (盘外), counted at the end of the 局")
            return replace(after, rule_memory=replace(mem, held_penalties=())), []
        if (isinstance(p, (ev.Penalty, ev.RefereeRuling)) and p.score_changes and self.options.hold_off_table
                and not after.game_over):
            sc = p.score_changes  # four ints (FourInts)
            changes = (sc[0], sc[1], sc[2], sc[3])
            was = tuple(a - c for a, c in zip(after.scores, changes))
            if ends_session(was, changes, self.options.jujie_zero_players):
                # 禁止非胜式局结 (§A10): a penalty that would end the 局 is held off the table
                why = (p.reason or p.rule or "penalty") if isinstance(p, ev.Penalty) else (p.ruling or p.rule)
                back = Settlement((-changes[0], -changes[1], -changes[2], -changes[3]), zero_sum=False)
                after = apply_settlement(after, before.seq + 1, "penalty", back,
                                         f"{why}: would end the 局 (禁止非胜式局结): held off the table (盘外)")
                mem = replace(mem, held_penalties=mem.held_penalties + ((changes, why),))
        hand = mem.hand
        m = self.multiplier(after)
        if isinstance(p, (ev.Chow, ev.Pung)) or (isinstance(p, ev.Kong) and p.kind == "melded"):
            feeder = before.pending.seat if before.pending is not None else None
            if feeder is not None:
                hand = self._claimed(after, hand, p.seat, feeder, isinstance(p, ev.Kong))
            hand = replace(hand, run=None)
        if isinstance(p, ev.Kong) and p.kind in ("melded", "concealed"):
            feeder = before.pending.seat if (p.kind == "melded" and before.pending is not None) else None
            # a damaged log: a kong on a discard with no open discard (the replayer's
            # claim_not_latest_discard finding) or on its own has nobody to pay it
            if p.kind == "concealed" or (feeder is not None and feeder != p.seat):
                mem = replace(mem, hand=hand)
                after, mem = self._instant(before, after, mem, kong_payments(p.seat, p.kind, feeder, m),
                                           p.seat, f"kong of {p.tile or 'an unseen tile'} by seat {p.seat}")
                hand = mem.hand
        elif (isinstance(p, ev.TileDrawn) and p.source == "kong_replacement" and before.pending_kong is not None
              and before.pending_kong.kind == "added"):
            pk = before.pending_kong  # the robbing window closed: the added kong is paid
            mem = replace(mem, hand=hand)
            after, mem = self._instant(before, after, mem, kong_payments(pk.seat, "added", None, m),
                                       pk.seat, f"added kong of {pk.tile} by seat {pk.seat}")
            hand = mem.hand
        elif isinstance(p, ev.FlowerReplaced):
            flowers = set(after.seats[p.seat].flowers)
            for k, group in enumerate(_FLOWER_SETS):
                if (p.seat, k) not in hand.flower_kongs and flowers.issuperset(group):
                    hand = replace(hand, flower_kongs=hand.flower_kongs + ((p.seat, k),))
                    mem = replace(mem, hand=hand)
                    after, mem = self._instant(before, after, mem, flower_kong_payments(p.seat, m),
                                               p.seat, f"花杠 by seat {p.seat}")
                    hand = mem.hand
        elif isinstance(p, ev.TileDiscarded):
            run = hand.run
            if run is not None and run[0] == p.tile and p.seat == (run[1][-1] + 1) % 4:
                run = (p.tile, run[1] + (p.seat,))
            else:
                run = (p.tile, (p.seat,))
            if len(run[1]) == 4:
                first = run[1][0]
                mem = replace(mem, hand=replace(hand, run=None))
                after, mem = self._instant(before, after, mem, chase_payments(first, m), first,
                                           f"追牌: four {p.tile} in a row, seat {first} first")
                hand, run = mem.hand, None
            hand = replace(hand, run=run, hung=self._hang(after, hand, p.seat))
        if hand is mem.hand and after.rule_memory is mem:
            return after, []
        return replace(after, rule_memory=replace(mem, hand=hand)), []

    def _claimed(self, after: TableState, hand: HandMemory, claimer: int, feeder: int, kong: bool) -> HandMemory:
        claims = hand.claims + ((claimer, feeder),)
        liable = hand.liable
        mine = [f for c, f in claims if c == claimer]
        fed = [c for c, f in claims if f == feeder]
        if (len(mine) >= 3 and set(mine[-3:]) == {feeder}) or (len(fed) >= 3 and set(fed[-3:]) == {claimer}):
            if (claimer, feeder) not in liable:
                liable = liable + ((claimer, feeder),)
        # §A8.1a: the three claims of §A8.1 (``liable`` now) leave a 清一色 display
        flush = hand.flush_liable
        open_sets = [m for m in after.seats[claimer].melds if m.from_seat is not None]
        if len(open_sets) >= 3 and len({t[0] for m in open_sets for t in m.tiles}) == 1 \
                and open_sets[0].tiles[0][0] in "WTB" and (claimer, feeder) in liable \
                and (claimer, feeder) not in flush:
            flush = flush + ((claimer, feeder),)
        return replace(hand, claims=claims, liable=liable, flush_liable=flush)

    def _hang(self, after: TableState, hand: HandMemory, seat: int) -> tuple[str | None, ...]:
        """全求独钓 (§A8.2): the one concealed tile of a seat with four claimed sets is hung;
        once the seat holds another tile instead, the liability ends ("")."""
        st = after.seats[seat]
        open_sets = sum(1 for m in st.melds if m.from_seat is not None)
        if open_sets < 4 or len(st.tiles) != 1 or st.hidden:
            return hand.hung
        now = hand.hung[seat]
        if now is None:
            return _set(hand.hung, seat, st.tiles[0])
        if now and now != st.tiles[0]:
            return _set(hand.hung, seat, "")
        return hand.hung


def _near(tile: str, hung: str) -> bool:
    """Within ±2 ranks in the same suit; any wind for a wind, any dragon for a dragon (§A8.2)."""
    if tile[0] != hung[0]:
        return False
    if tile[0] in "WTB":
        return abs(int(tile[1]) - int(hung[1])) <= 2
    return True


def build(raw: Mapping[str, Any]) -> CjmRuleset:
    """A bound :class:`CjmRuleset` from game_started ``ruleset_options``. Raises
    :class:`RulesetError` naming the bad option."""
    try:
        opts = CjmOptions.model_validate(dict(raw))
    except ValidationError as e:
        raise RulesetError(validation_line(e, "cjm_chips option ", unknown="no such option")) from None
    return CjmRuleset(options=opts, raw_options=tuple(sorted(raw.items())))
