"""Changsha (长沙麻将) play rules: the ruleset object the replayer uses
(docs/reference/rules/changsha.md).

* 108 tiles (万 筒 条 1–9 ×4), no honors, flowers or wildcards; dealer 14 tiles, others 13
  (§1). Chow only from the discarder's 下家; pung and kong from anyone; win > pung/kong > chow.
* Several winners on one discard (通炮, §5.2); only an added kong may be robbed (§3.3 #11).
* A win is a small win (4 sets + a 2-5-8 pair) or one or more big wins (§3); its context
  (天胡, 地胡, 海底, 抢杠) is read from the table state.
* 漏胡 (§4): a seat that could win on a discard and did not may not win on a discard of that
  tile kind until its next draw. 海底 (§4): the last tile drawn from the wall is exposed, not
  exchanged — the taker "discards" exactly that tile and only wins may claim it; a last tile
  taken as a kong replacement loses its 海底 function.
* Payments at once: the win with its birds (§5, §5.1; the birds are the next wall tiles, known
  when the wall is recorded), kong money (§4). Next dealer by §2 A–G; the spec is silent on the
  length of a game: by default the log's game_ended ends it (never over before), or option
  ``hands_per_game`` fixes a number of hands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache, partial
from typing import Any

from eventlog import events as ev
from eventlog import tiles as _tiles
from replayer.explained import ScoreLine, Vec4
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
from replayer.rules.changsha.dealer import NextDealer, next_dealer
from replayer.rules.changsha.evaluate import WinEvaluation, WinInput, evaluate_win
from replayer.rules.changsha.options import ChangshaOptions, parse_options
from replayer.rules.changsha.settlement import Vec, settle_winner
from replayer.rules.shared import decompose as _dec
from replayer.rules.shared import shapes as _shapes
from replayer.rules.shared.decompose import PAIR_258
from replayer.rules.shared.winning_shapes import RegularShape, WinningShapes, suits_tiles
from replayer.state import DeclaredMeld, Payment, Settlement, TableState, WinRecord, replace

__all__ = ["SOURCES", "ChangshaRuleset", "ChangshaScore", "ComponentParts", "ScoreItem", "build"]

RULESET_ID = "changsha"
_SPEC = "docs/reference/rules/changsha.md"

SOURCES: dict[str, str] = {
    "tile_count_exceeded": f"{_SPEC} §1 (108 tiles: 万 筒 条 1-9 x4)",
    "wall_mismatch": f"{_SPEC} §1 (108 tiles, no honors, no flowers)",
    "chow_wrong_seat": f"{_SPEC} §1 (chi: only the 下家 of the discarder)",
    "chow_not_allowed": f"{_SPEC} §1",
    "claim_priority": f"{_SPEC} §1 (pon beats chi; win beats everything)",
    "kong_not_robbable": f"{_SPEC} §3.3 #11 (明杠 only; 暗杠 cannot be robbed)",
    "not_a_winning_hand": f"{_SPEC} §3",
    "pair_not_258": f"{_SPEC} §3.1, §8.3 (二五八做将)",
    "wrong_tile_count": f"{_SPEC} §1, §3",
    "false_win": f"{_SPEC} §3",
    "passed_win": f"{_SPEC} §4 (漏胡: no discard win on the passed tile kind until the next draw)",
    "haidi_exchanged": f"{_SPEC} §4 (海底漫游: the taker who cannot win exposes the 海底 tile)",
    "haidi_claimed": f"{_SPEC} §4 (海底漫游: the exposed 海底 tile can only be won on)",
    "dealer_rotation": f"{_SPEC} §2 (dealer rules A-G)",
    "game_over": f"{_SPEC} §2 (dealer rotation; the spec is silent on the length of a game: option hands_per_game)",
    "exhaustive_draw_with_tiles_left": f"{_SPEC} §4 (海底: the hand is drawn when nobody wins the last tile)",
    "flowers_not_used": f"{_SPEC} §1 (no flowers)",
    "wildcards_not_used": f"{_SPEC} §1 (no wildcards)",
    "opening_not_proved": f"{_SPEC} §3.2, §8.5 (起手小胡: the shown tiles prove each win)",
    "opening_out_of_phase": f"{_SPEC} §3.2 (起手小胡: after the deal, before the dealer's first discard, once)",
    "opening_dice_missing": f"{_SPEC} §5.1, §8.11 (opening_bird = dice)",
    "haidi_not_offered": f"{_SPEC} §4 (海底漫游: when exactly one tile remains)",
    "haidi_passer": f"{_SPEC} §4, §8.17 (may a player who passed the 海底 win on it once exposed: option haidi_passer_may_win)",
    "birds_out_of_phase": f"{_SPEC} §5.1 (扎鸟: after a win)",
    "wrong_birds": f"{_SPEC} §5.1, §8.10 (the next wall tiles; the 海底 tile after a 海底 win)",
    "birds_not_turned": f"{_SPEC} §5.1 (扎鸟: after a win the bird tiles are turned)",
    "kaigang_out_of_phase": f"{_SPEC} §4 (开杠: right after the kong, instead of its replacement)",
    "kaigang_not_ready": f"{_SPEC} §4 (开杠 only when ready)",
    "wrong_kong_tiles": f"{_SPEC} §4 (开杠: the d-th stack from the tail, the last stack when d exceeds them)",
    "kaigang_self_first": f"{_SPEC} §4 (if either tile completes the konger's hand: 杠上开花)",
    "kaigang_claimed": f"{_SPEC} §4 (开杠 tiles: others may win on them)",
    "locked_after_kaigang": f"{_SPEC} §4 (after 开杠 the hand is locked: draw and discard only)",
}


# --- explained score ------------------------------------------------------------------------

@dataclass(frozen=True)
class ScoreItem:
    """One unit of a win explained: ``id``, ``name_en``, ``name_zh``, ``points`` (what one
    such unit is worth before the dealer surcharge and birds: X small, 6X big), ``count``,
    ``tiles`` it counts and its rule ``source``."""

    id: str
    name_en: str
    name_zh: str
    points: int
    count: int
    tiles: tuple[str, ...]
    source: str


@dataclass(frozen=True)
class ComponentParts:
    """The settlement of one win by component: ``parts`` = (("win", vec),)."""

    parts: tuple[tuple[str, Vec], ...]


@dataclass(frozen=True)
class ChangshaScore:
    """The explained score of a Changsha win: ``category`` (small | big), ``fans`` (the units
    as :class:`ScoreItem`), ``unit_count``, ``components`` (the win vector; the birds come
    with ``birds_turned``), ``evaluation``."""

    category: str
    fans: tuple[ScoreItem, ...]
    unit_count: int
    components: ComponentParts
    evaluation: WinEvaluation

    # the explained-score interface (replayer/explained.py)
    def lines(self) -> tuple[ScoreLine, ...]:
        """The small or big units (§3) with what one unit is worth."""
        return tuple(ScoreLine(i.id, i.name_en, i.name_zh, points=i.points, count=i.count,
                               tiles=(i.tiles,) if i.tiles else ()) for i in self.fans)

    def excluded(self) -> tuple[ScoreLine, ...]:
        return ()

    def settlement_parts(self) -> tuple[tuple[str, Vec4], ...]:
        """win and bird changes per seat (§5, §5.1)."""
        return tuple((name, (v[0], v[1], v[2], v[3])) for name, v in self.components.parts)


# --- memory across events -------------------------------------------------------------------

_EMPTY4: tuple[tuple[str, ...], ...] = ((), (), (), ())


@dataclass(frozen=True)
class HandMemory:
    """What a hand remembers: ``discards`` made, ``claimed`` (a chow/pung/kong happened),
    ``blocked`` (漏胡: tile kinds each seat may not win on by discard until its next draw),
    ``haidi_taker`` (drew the last wall tile), ``last_replacement`` (drew the last tile as a
    kong replacement: no 海底), ``dice`` (the dealer's dice sum), ``declared``/``openings``
    (opening small wins declared and their settlement), ``start_bird`` (the rank of the bird at
    the start of the hand for dealer rule G), ``birds`` (bird tiles turned; None before),
    ``first_offered``/``decliners`` (海底漫游), ``kaigang`` (the open 开杠 reveal: seat, tiles,
    event), ``locked`` (seats that made a 开杠: draw and discard only), ``tail_odd`` (an odd
    number of tiles taken singly from the tail: its last stack has lost its top, §4)."""

    discards: int = 0
    claimed: bool = False
    blocked: tuple[tuple[str, ...], ...] = _EMPTY4
    haidi_taker: int | None = None
    last_replacement: int | None = None
    dice: int | None = None
    declared: tuple[int, ...] = ()
    openings: tuple[Any, ...] = ()
    start_bird: int | None = None
    birds: tuple[str, ...] | None = None
    first_offered: int | None = None
    decliners: tuple[int, ...] = ()
    kaigang: tuple[int, tuple[str, ...], int] | None = None
    locked: tuple[int, ...] = ()
    tail_odd: bool = False


@dataclass(frozen=True)
class ChangshaMemory:
    """``hand``: the hand in progress; ``next_dealers``: the §2 decision after each finished
    hand."""

    hand: HandMemory = HandMemory()
    next_dealers: tuple[NextDealer, ...] = ()


def _set(t: tuple, i: int, v: Any) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


@dataclass(frozen=True)
class ChangshaRuleset(RulesetDefaults):
    """Changsha bound to its options (:class:`ChangshaOptions`)."""

    options: ChangshaOptions
    raw_options: tuple[tuple[str, Any], ...] = ()
    id: str = RULESET_ID

    @property
    def event_handlers(self) -> Mapping[str, Any]:
        """The table events Changsha plays (replayer/rules/changsha/table.py)."""
        from replayer.rules.changsha.table import HANDLERS  # the module: not the package (a cycle)

        return HANDLERS

    @cached_property
    def play(self) -> PlayRules:
        return PlayRules(
            tile_copies=standard_tile_copies(flowers=False, honors=False),
            dealer_tiles=14,
            other_tiles=13,
            dead_wall=0,
            chow="previous_seat",
            winners_per_discard=3,
            robbable_kongs=("added",),
            hand_end="first_win",
            wildcards=False,
        )

    def options_dict(self) -> dict[str, Any]:
        return dict(self.raw_options)

    def rule_source(self, rule_id: str) -> str:
        return SOURCES.get(rule_id) or MECHANICS_SOURCES.get(rule_id) or f"{_SPEC} §2-§5"

    def winning_shapes(self, state: TableState, seat: int) -> WinningShapes:
        """§3 as data: four sets and a 2-5-8 pair (小胡); the shape big wins that lift the
        2-5-8 rule — 碰碰胡 (pungs, any pair), 清一色 (one suit, any pair), 全求人 (four
        declared sets, any pair), 七小对 — and 将将胡 (every tile 2, 5 or 8)."""
        melds = len(state.seats[seat].melds)
        regular = [RegularShape(pair_tiles=PAIR_258), RegularShape(chows=False)]
        regular += [RegularShape(tiles=suits_tiles(s)) for s in range(3)]
        if melds == 4:
            regular.append(RegularShape())
        return WinningShapes(regular=tuple(regular), special=("seven_pairs", "all_258"),
                             sources=(f"{_SPEC} §3 (small and big wins; what lifts the 2-5-8 pair rule)",))

    def could_win(self, counts: tuple[int, ...], melds: int) -> bool:
        """Any winning shape of §3 (the 2-5-8 pair is left to :meth:`score_win`): a regular
        shape with any pair, seven pairs, 将将胡 (all tiles 2/5/8, melds not seen here)."""
        return _could_win(counts, melds)

    # -- seats, dealer, end of game ------------------------------------------------------------

    def seat_wind(self, seat: int, dealer: int) -> str:
        return _tiles.WINDS[(seat - dealer) % 4]

    def next_hand(self, state: TableState) -> HandPlan | None:
        """§2: the first dealer from the log (A), then the decision of B–G recorded at the end
        of each hand; no prevalent wind in Changsha (F1 throughout). None after
        ``hands_per_game`` hands when that option is set; by default never (the spec gives no
        game length: the log's game_ended ends the game)."""
        limit = self.options.hands_per_game
        if limit is not None and len(state.hands) >= limit:
            return None
        mem = self._memory(state)
        if not state.hands or not mem.next_dealers:
            dealer = state.first_dealer if state.first_dealer is not None else 0
            if state.hands:
                dealer = state.hands[-1].dealer
        else:
            dealer = mem.next_dealers[-1].seat
        return HandPlan(dealer=dealer, prevalent_wind="F1")

    # -- wins --------------------------------------------------------------------------------

    def memory(self, state: TableState) -> ChangshaMemory:
        """What the ruleset remembers in ``state`` (:class:`ChangshaMemory`)."""
        m = state.rule_memory
        return m if isinstance(m, ChangshaMemory) else ChangshaMemory()

    _memory = memory

    def with_hand(self, state: TableState, hand: HandMemory) -> TableState:
        """``state`` remembering ``hand``."""
        return replace(state, rule_memory=replace(self.memory(state), hand=hand))

    def _context(self, state: TableState, win: WinContext) -> str:
        hand = self._memory(state).hand
        if win.robbing_kong:
            return "robbed_kong"
        haidi = win.last_of_wall and hand.last_replacement is None and not win.kong_related
        kg = hand.kaigang
        if win.kong_reveal is not None:  # said by the caller (paipu score), else read from the table
            if win.kong_reveal:
                return "kaigang"
        elif kg is not None and (win.seat == kg[0] if win.self_drawn else win.from_seat == kg[0]) \
                and win.tile in kg[1]:
            return "kaigang"
        said = win.first_draw  # said by the caller (paipu score), else read from the table
        if win.self_drawn:
            if (said if said is not None else state.phase == "dealing" and hand.discards == 0) \
                    and win.seat == state.dealer and not win.melds:
                return "heavenly"
            return "haidi" if haidi else "plain"
        if haidi:
            return "haidi"
        if win.from_seat == state.dealer and (said and not win.melds if said is not None
                                              else hand.discards == 1 and not hand.claimed):
            return "earthly"
        return "plain"

    def evaluate(self, state: TableState, win: WinContext) -> WinEvaluation:
        """The units of a declared win in its table context (§3)."""
        context = self._context(state, win)
        hand = self.memory(state).hand
        earthly_too = (context == "kaigang" and not win.self_drawn and self.options.kaigang_reveal_earthly
                       and win.from_seat == state.dealer and hand.discards == 0)
        wi = WinInput(tuple(win.concealed), tuple(win.melds), win.tile, win.self_drawn,
                      context, earthly_too)  # type: ignore[arg-type]
        return evaluate_win(wi, self.options)

    def score_win(self, state: TableState, win: WinContext) -> WinScore:
        ev_ = self.evaluate(state, win)
        if not ev_.legal:
            return WinScore(False, 0, None, None, ev_.rule_id, ev_.message)
        return WinScore(True, ev_.unit_count, self._explain(state, win, ev_), ev_)

    def _explain(self, state: TableState, win: WinContext, ev_: WinEvaluation) -> ChangshaScore:
        """The win without its birds: they are turned after the win(s) (``birds_turned``,
        settled as the ``bird`` component, replayer/rules/changsha/table.py)."""
        res = settle_winner(win.seat, ev_, discarder=None if win.self_drawn else win.from_seat,
                            dealer=state.dealer or 0, birds=(), options=self.options)
        value = self.options.unit * (6 if ev_.category == "big" else 1)
        items = tuple(ScoreItem(u.id, u.kind.name, u.kind.chinese, value, u.count, u.tiles, u.kind.source)
                      for u in ev_.units)
        return ChangshaScore(ev_.category or "small", items, ev_.unit_count, ComponentParts((("win", res.win),)), ev_)

    # -- settlement --------------------------------------------------------------------------

    def haidi(self, state: TableState, win: WinRecord) -> bool:
        """Was ``win`` (legal) a 海底 win (§3.3 #6, #7)? An unscored win (its hand hidden in
        the record) is read from its table context — the last tile — as the units would."""
        if win.unscored:
            return win.context is not None and self._context(state, win.context) == "haidi"
        return any(f.id in ("last_tile_draw", "last_tile_claim") for f in self.win_score(win).fans)

    @staticmethod
    def win_score(win: WinRecord) -> ChangshaScore:
        """The explained score of a legal win (:meth:`score_win` explains each with a
        :class:`ChangshaScore`); AssertionError for anything else."""
        assert isinstance(win.score, ChangshaScore)
        return win.score

    def settle_win(self, state: TableState, win: WinContext, score: WinScore) -> Settlement:
        ex = score.explained
        assert isinstance(ex, ChangshaScore)
        pays: list[Payment] = []
        for name, vec in ex.components.parts:
            for s in range(4):
                if s != win.seat and vec[s] < 0:
                    pays.append(Payment(s, win.seat, -vec[s], f"{name} ({_SPEC} §5)", f"{_SPEC} §5"))
        return Settlement.from_payments(pays)

    def settle_kong(self, state: TableState, seat: int, meld: DeclaredMeld) -> Settlement | None:
        kind = meld.kong_kind or "melded"
        amount = self.options.kong_pay.an if kind == "concealed" else self.options.kong_pay.ming
        if not amount:
            return None
        return Settlement.from_payments([Payment(s, seat, amount, f"kong money ({_SPEC} §4)", f"{_SPEC} §4") for s in range(4) if s != seat])

    def settle_exhaustive_draw(self, state: TableState) -> Settlement | None:
        return None  # nothing is paid at an exhaustive draw (kong money stays, §8.14)

    def false_win_penalty(self, state: TableState, seat: int) -> Settlement | None:
        return None  # the spec names no penalty: a finding only

    # -- hooks: legality before an event, memory after it ------------------------------------

    def check_event(self, state: TableState, p: Any) -> list[Breach]:
        """Changsha breaches of an event about to be applied."""
        out: list[Breach] = []
        hand = self._memory(state).hand
        ld = state.last_draw
        haidi_drawn = (ld is not None and ld.last_of_wall and ld.source == "wall"
                       and hand.last_replacement is None)
        locked = getattr(p, "seat", None) in hand.locked
        if isinstance(p, ev.TileDiscarded):
            if haidi_drawn and ld is not None and ld.seat == p.seat and ld.tile is not None and p.tile != ld.tile:
                msg = f"seat {p.seat} took the 海底 tile {ld.tile} and discards {p.tile}: the 海底 tile is exposed as it is"
                out.append(Breach("haidi_exchanged", msg, p.seat))
            elif locked and ld is not None and ld.seat == p.seat and ld.tile is not None and p.tile != ld.tile:
                out.append(Breach("locked_after_kaigang", (f"seat {p.seat} discards {p.tile}, not the {ld.tile} it drew: "
                                                    "after its 开杠 the hand is locked"), p.seat))
        elif isinstance(p, (ev.Chow, ev.Pung, ev.Kong)) and locked:
            out.append(Breach("locked_after_kaigang", (f"seat {p.seat} declares a {type(p).__name__.lower()} after its 开杠: "
                                                "the hand is locked (draw and discard only)"), p.seat))
        elif isinstance(p, (ev.Chow, ev.Pung, ev.Kong)) and getattr(p, "discard_seq", None) is not None:
            pend = state.pending
            if pend is not None and pend.owner_may_win:
                out.append(Breach("kaigang_claimed", (f"seat {p.seat} claims a 开杠 tile by {type(p).__name__.lower()}: "
                                               "only a win may take it"), p.seat))
            elif pend is not None and pend.last_of_wall and hand.last_replacement is None:
                out.append(Breach("haidi_claimed", f"seat {p.seat} claims the exposed 海底 tile by {type(p).__name__.lower()}: only a win may",
                            p.seat))
        elif isinstance(p, ev.WinDeclared) and not p.self_drawn and not p.robbing_kong:
            kg = hand.kaigang
            if kg is not None and p.from_seat == kg[0] and set(self.winning_tiles(state.seats[kg[0]])) & set(kg[1]):
                out.append(Breach("kaigang_self_first", (f"seat {p.seat} wins on seat {kg[0]}'s 开杠 tiles, but they complete "
                                                  f"seat {kg[0]}'s own hand (杠上开花 first)"), p.seat))
            if p.tile in hand.blocked[p.seat]:
                msg = f"seat {p.seat} wins on {p.tile} after passing a win on {p.tile} without drawing since (漏胡)"
                out.append(Breach("passed_win", msg, p.seat))
            pend = state.pending
            if (not self.options.haidi_passer_may_win and pend is not None and pend.last_of_wall
                    and p.seat in hand.decliners):
                out.append(Breach("haidi_passer", (f"seat {p.seat} declined the 海底 and may not win on it "
                                            "(option haidi_passer_may_win)"), p.seat))
        return out

    # -- the simulator's table policy for Changsha's own procedures ---------------------------

    def pending_events(self, state: TableState, rng: Any) -> tuple[Any, ...]:
        """What the table does now without a bot's choice (replayer/simulate/engine.py): after
        the deal every seat declares every opening small win it holds (§3.2; free points); with
        one tile left, a seat that is not ready declines the 海底 (it cannot win on it and would
        pay a 海底炮, §4); after the win(s) the birds are turned (§5.1)."""
        hand = self.memory(state).hand
        ph = state.phase
        if ph == "dealing":
            if not all(s.dealt for s in state.seats) or hand.discards or hand.claimed or state.last_draw is not None:
                return ()
            from replayer.rules.changsha.evaluate import shown_opening_wins

            out = []
            for k in range(4):
                seat = ((state.dealer or 0) + k) % 4
                st = state.seats[seat]
                if seat in hand.declared or st.hidden or st.melds:
                    continue
                wins = shown_opening_wins(st.tiles)
                if wins:
                    out.append(ev.OpeningWinsDeclared(seat=seat, wins=[ev.OpeningWin(kind=kd, tiles=ts) for kd, ts in wins]))
            return tuple(out)
        pk = state.pending_kong
        if ph in ("replacement", "robbing") and pk is not None and pk.seat == state.turn and state.wall is not None \
                and state.seats[pk.seat].replacements_due > 0 and self.ready_to_win(state.seats[pk.seat]):
            if ph == "robbing":
                from replayer.actions import legal_actions

                if any(a.kind != "pass" for a in legal_actions(state, self)):
                    return ()  # a robber may take the kong first
            from replayer.rules.changsha.table import kaigang_stack

            dice = [rng.randint(1, 6), rng.randint(1, 6)]
            tiles = [state.wall[i] for i in kaigang_stack(len(state.wall), sum(dice), hand.tail_odd)]
            return (ev.KongTilesRevealed(seat=pk.seat, dice=dice, tiles=tiles),)  # a ready seat opens its kong
        pend = state.pending
        if ph == "claims" and pend is not None and pend.owner_may_win:
            winning = [t for t in pend.tiles if t in self.winning_tiles(state.seats[pend.seat])]
            if winning:
                return (ev.WinDeclared(seat=pend.seat, tile=winning[0], self_drawn=True),)  # 杠上开花
            return ()
        if ph == "claims" and state.wall_remaining == 1 and state.seat_walls is None and state.turn is not None:
            drawer = state.turn
            if drawer in hand.decliners or self._ready(state.seats[drawer]):
                return ()
            if state.pending is not None:
                from replayer.actions import legal_actions

                if any(a.kind != "pass" for a in legal_actions(state, self)):
                    return ()  # the claims on the last discard come first
            return (ev.LastTileDeclined(seat=drawer),)
        if ph == "hand_over" and hand.birds is None and any(w.legal for w in state.wins):
            from replayer.rules.changsha.table import expected_birds

            n, want = expected_birds(self, state)
            if n and want is not None:
                return (ev.BirdsTurned(tiles=list(want)),)
        return ()

    def winning_tiles(self, st: Any) -> tuple[str, ...]:
        """The tiles that would complete the seat's hand (13 tiles with its sets) into a legal
        win of §3 (2-5-8 pair or a shape big win); () for a hand with hidden tiles."""
        if st.unseen:
            return ()
        concealed = tuple(t for t in st.tiles if not _tiles.is_flower(t))
        counts = list(st.counts[:34])
        out = []
        for i in range(27):
            counts[i] += 1
            ok = self.could_win(tuple(counts), len(st.melds))
            counts[i] -= 1
            if ok and evaluate_win(WinInput(concealed, st.melds, _tiles.code(i), False), self.options).legal:
                out.append(_tiles.code(i))
        return tuple(out)

    def ready_to_win(self, st: Any) -> bool:
        """听牌: some tile completes the seat's hand into a legal win (§4: 开杠 only when ready)."""
        return bool(self.winning_tiles(st))

    def _ready(self, st: Any) -> bool:
        return st.hidden > 0 or self.ready_to_win(st)

    def observe(self, before: TableState, p: Any, after: TableState) -> tuple[TableState, list[Breach]]:
        """Update :class:`ChangshaMemory` after an event."""
        after, found = self._observe(before, p, after)
        return after, [Breach(*b) for b in found]

    def _observe(self, before: TableState, p: Any, after: TableState) -> tuple[TableState, list[tuple[str, str, int | None]]]:
        mem = self._memory(before)
        hand = mem.hand
        if isinstance(p, ev.GameStarted):
            return replace(after, rule_memory=ChangshaMemory()), []
        if isinstance(p, ev.HandStarted):
            dice = sum(p.dice) if len(p.dice) == 2 else None
            start_bird = dice if self.options.opening_bird == "dice" else None
            return replace(after, rule_memory=replace(mem, hand=HandMemory(dice=dice, start_bird=start_bird))), []
        if isinstance(p, ev.HandEnded):
            found: list[tuple[str, str, int | None]] = []
            if before.phase == "hand_over" and hand.birds is None:
                from replayer.rules.changsha.table import expected_birds

                n, _ = expected_birds(self, before)
                if n:
                    found.append(("birds_not_turned", (f"hand {p.hand_number} ends without its {n} bird tile(s) "
                                                      "turned after the win (扎鸟)"), None))
            nd = self._decide_dealer(before, hand)
            return replace(after, rule_memory=replace(mem, next_dealers=mem.next_dealers + (nd,))), found
        if isinstance(p, ev.TileDiscarded):
            hand = replace(hand, discards=hand.discards + 1)
        elif isinstance(p, ev.Pass):
            pend = before.pending
            if pend is not None and p.claim == "win":
                hand = self._block(hand, p.seat, pend.tile)
        elif isinstance(p, (ev.Chow, ev.Pung, ev.Kong)):
            hand = self._close_discard(before, hand, taker=p.seat)
            hand = replace(hand, claimed=True)
        elif isinstance(p, ev.TileDrawn):
            if p.source == "wall":
                hand = self._close_discard(before, hand, taker=None)
            hand = replace(hand, blocked=_set(hand.blocked, p.seat, ()), kaigang=None,
                           tail_odd=hand.tail_odd != (p.source != "wall"))  # a 补张 takes one tail tile
            if after.wall_remaining == 0 and after.seat_walls is None:
                if p.source == "wall":
                    hand = replace(hand, haidi_taker=p.seat)
                else:
                    hand = replace(hand, last_replacement=p.seat)
        if hand is not mem.hand:
            return replace(after, rule_memory=replace(mem, hand=hand)), []
        return after, []

    def _block(self, hand: HandMemory, seat: int, tile: str) -> HandMemory:
        if tile in hand.blocked[seat]:
            return hand
        return replace(hand, blocked=_set(hand.blocked, seat, hand.blocked[seat] + (tile,)))

    def _close_discard(self, before: TableState, hand: HandMemory, taker: int | None) -> HandMemory:
        """A discard closes without a win: every other seat that could have won on it passed
        the win (漏胡, §4)."""
        pend = before.pending
        if pend is None or before.phase != "claims":
            return hand
        for tile in pend.tiles:  # a 开杠 exposes two tiles "as if discarded" (§4)
            for s in range(4):
                if s == pend.seat or s == taker or tile in hand.blocked[s]:
                    continue
                st = before.seats[s]
                if st.hidden:
                    continue
                counts = list(st.counts[:34])
                counts[_tiles.index(tile)] += 1
                if not self.could_win(tuple(counts), len(st.melds)):
                    continue
                wi = WinInput(tuple(t for t in st.tiles if not _tiles.is_flower(t)), st.melds, tile, False, "plain")
                if evaluate_win(wi, self.options).legal:
                    hand = self._block(hand, s, tile)
        return hand

    def _decide_dealer(self, state: TableState, hand: HandMemory) -> NextDealer:
        """§2 A–G at the end of a hand (G: §8.12)."""
        dealer = state.dealer or 0
        wins = [w for w in state.wins if w.legal]
        winners = [w.seat for w in wins]
        discarder = next((w.from_seat for w in wins if not w.self_drawn), None)
        start = set(hand.declared)
        if any(u.id == "heavenly" for w in wins if not w.unscored for u in self.win_score(w).evaluation.units):
            start.add(dealer)
        decide = partial(next_dealer, dealer=dealer, start_winners=start, start_bird_rank=hand.start_bird)
        if winners:
            return decide(winners=winners, discarder=discarder)
        if hand.decliners and len(set(hand.decliners)) >= 4:
            return decide(winners=[], discarder=None, haidi_first_offered=hand.first_offered)
        if hand.haidi_taker is not None:
            first = hand.first_offered if hand.first_offered is not None else hand.haidi_taker
            return decide(winners=[], discarder=None, haidi_first_offered=first, haidi_taker=hand.haidi_taker)
        if hand.last_replacement is not None:
            return decide(winners=[], discarder=None, last_replacement=hand.last_replacement)
        if len(start) >= 2 and hand.start_bird is not None:
            return decide(winners=[], discarder=None, last_replacement=dealer)
        return NextDealer(dealer, "B")  # a hand ended without a win or a drawn wall (a ruling): dealer stays


_NOT_258 = tuple(i for i in range(34) if not (i < 27 and i % 9 in (1, 4, 7)))


@lru_cache(maxsize=1 << 16)
def _could_win(counts: tuple[int, ...], melds: int) -> bool:
    if _dec.is_complete(counts) or (melds == 0 and _shapes.is_seven_pairs(counts)):
        return True
    return not any(counts[i] for i in _NOT_258)


def build(raw: Mapping[str, Any]) -> ChangshaRuleset:
    """A bound :class:`ChangshaRuleset` from game_started ``ruleset_options``. Raises
    :class:`replayer.findings.RulesetError` for a bad option."""
    return ChangshaRuleset(options=parse_options(raw), raw_options=tuple(sorted(raw.items())))

