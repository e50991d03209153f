"""Wins (self-drawn, on a discard, robbing a kong; several winners) and the exhaustive draw."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from eventlog import events as ev
from eventlog.seats import distance, next_seat
from replayer.accounting import (
    apply_settlement,
    check_size,
    hidden_of,
    mark_claimed,
    settle,
    wall_empty_for,
)
from replayer.context import Ctx, check_in_hand, check_turn, in_phase, need_game
from replayer.rules.base import PlayRules, WinContext
from replayer.state import (
    PendingKong,
    Settlement,
    TableState,
    Unsettled,
    WinRecord,
    evolve,
    fast_init,
    replace,
)


_S = TypeVar("_S", bound=TableState)  # a frozen state, or the batch replay's working state


@fast_init
@dataclass(frozen=True)
class _WinSource:
    """Where a declared win's tile comes from, as the win context needs it."""

    concealed: tuple[str, ...]  # the winner's concealed tiles without the winning tile
    kong_related: bool = False
    last_of_wall: bool = False
    visible: int = 0  # other copies of the winning tile face up on the table
    discard_seq: int | None = None
    earlier: WinRecord | None = None  # a win already declared on the same discard
    own_discard: bool = False  # the winner is the discarder: not a win (claim_own_discard)
    # the seat the tile is taken from as the table knows it (the discarder, the robbed
    # konger); None: as declared. A declared one that differs is claim_tile_mismatch.
    taken_from: int | None = None


def _self_drawn_source(ctx: Ctx, state: TableState, p: ev.WinDeclared) -> tuple[TableState, _WinSource]:
    seat, st = p.seat, state.seats[p.seat]
    pend = state.pending
    if state.phase == "claims" and pend is not None and pend.owner_may_win and pend.seat == seat:
        # a win on a tile the seat exposed itself (a kong's revealed tiles: 杠上开花)
        if p.tile not in pend.tiles:
            ctx.breach("claim_tile_mismatch", f"seat {seat} wins on {p.tile}; its exposed tiles are "
                                              f"{', '.join(pend.tiles)}", seat)
        state = check_size(ctx, state, seat, 13, "when winning on its exposed tile")
        return state, _WinSource(st.tiles, kong_related=True, last_of_wall=pend.last_of_wall,
                                 visible=state.visible_count(p.tile) - 1, discard_seq=pend.seq)
    if state.phase == "dealing":
        if seat != state.dealer:
            ctx.breach("wrong_seat_to_act", f"seat {seat} declares a self-drawn win during the deal", seat)
    elif in_phase(ctx, state, "a self-drawn win", "discard"):
        check_turn(ctx, state, seat, "declares a self-drawn win")
    state = check_size(ctx, state, seat, 14, "when winning")
    ld = state.last_draw if state.last_draw is not None and state.last_draw.seat == seat else None
    if ld is not None and ld.tile is not None and ld.tile != p.tile:
        ctx.breach("win_tile_not_drawn", f"seat {seat} declares a self-drawn win on {p.tile}, but drew {ld.tile}", seat)
    if p.tile in st.tiles:
        k = st.tiles.index(p.tile)
        concealed = st.tiles[:k] + st.tiles[k + 1:]
    else:
        if st.hidden == 0:
            ctx.breach("tile_not_held", f"seat {seat} does not hold the winning tile {p.tile}", seat)
        concealed = st.tiles
    return state, _WinSource(concealed, kong_related=bool(ld and ld.after_kong),
                             last_of_wall=bool(ld and ld.last_of_wall), visible=state.visible_count(p.tile))


def _robbing_source(ctx: Ctx, state: TableState, p: ev.WinDeclared) -> tuple[TableState, _WinSource]:
    seat, play = p.seat, ctx.ruleset.play
    pk = state.pending_kong
    discard_seq = p.discard_seq
    earlier = next((w for w in state.wins if w.robbing_kong and w.legal
                    and (discard_seq is None or w.discard_seq == discard_seq)), None)
    if earlier is not None and (state.phase == "hand_over" or (
            state.phase == "claims" and pk is not None and pk.seq == earlier.discard_seq)):
        # a second seat robs the same kong (seed 003: the nearest after the konger wins);
        # the first robbery already took the tile off the kong
        state = check_size(ctx, state, seat, 13, "when robbing a kong")
        return state, _WinSource(state.seats[seat].tiles, kong_related=True, visible=state.visible_count(p.tile),
                                 discard_seq=earlier.discard_seq, earlier=earlier, taken_from=earlier.from_seat)
    konger: int | None = None
    if pk is None or state.phase not in ("robbing", "replacement"):
        ctx.breach("event_out_of_phase", f"seat {seat} robs a kong, but no kong is open to robbing", seat)
    else:
        konger = pk.seat
        if pk.kind not in play.robbable_kongs:
            ctx.breach("kong_not_robbable", f"seat {seat} robs seat {pk.seat}'s {pk.kind} kong; only "
                                            f"{', '.join(play.robbable_kongs)} kongs may be robbed", seat)
        if p.from_seat != pk.seat or p.tile != pk.tile:
            ctx.breach("claim_tile_mismatch", f"seat {seat} robs {p.tile} from seat {p.from_seat}, the kong is "
                                              f"seat {pk.seat}'s {pk.tile}", seat)
        if discard_seq is not None and discard_seq != pk.seq:
            ctx.breach("claim_not_latest_discard", f"seat {seat} robs the kong of event {discard_seq}, the open "
                                                   f"kong is event {pk.seq}", seat)
        discard_seq = pk.seq
    state = check_size(ctx, state, seat, 13, "when robbing a kong")
    # the robbed tile itself lies on the konger's kong: not one of the "other" copies
    return state, _WinSource(state.seats[seat].tiles, kong_related=True, visible=state.visible_count(p.tile) - 1,
                             discard_seq=discard_seq, taken_from=konger)


def _discard_source(ctx: Ctx, state: TableState, p: ev.WinDeclared) -> tuple[TableState, _WinSource]:
    seat, play = p.seat, ctx.ruleset.play
    pend = state.pending
    target = p.discard_seq if p.discard_seq is not None else (pend.seq if pend else None)
    earlier = next((w for w in state.wins if w.discard_seq is not None and w.discard_seq == target), None)
    discarder: int | None
    if earlier is not None and (state.phase == "hand_over" or (
            state.phase == "claims" and pend is not None and pend.seq == target and earlier.legal)):
        # a further winner on a discard already won on (several winners; the hand may go on)
        discarder, tile, discard_seq = earlier.from_seat, earlier.tile, earlier.discard_seq
        if pend is not None and pend.seq == discard_seq and p.tile in pend.tiles:
            tile = p.tile  # several exposed tiles: each winner names the one it takes
        last = pend.last_of_wall if pend is not None else False
        visible = state.visible_count(p.tile)  # the discard is marked taken: not counted
    elif state.phase == "claims" and pend is not None:
        if p.discard_seq is not None and p.discard_seq != pend.seq:
            found = state.find_discard(p.discard_seq)
            rule = "discard_already_claimed" if found and found[2].claimed_by is not None else "claim_not_latest_discard"
            ctx.breach(rule, f"seat {seat} wins on discard {p.discard_seq}; the latest open discard is {pend.seq}", seat)
        discarder, tile, discard_seq, last = pend.seat, pend.tile, pend.seq, pend.last_of_wall
        if p.tile in pend.also:
            tile = p.tile
        nearer = [other for other, claimed in pend.passed
                  if claimed == "win" and distance(other, discarder) < distance(seat, discarder)]
        if play.winners_per_discard == 1:
            for other in nearer:
                ctx.breach("one_winner_per_discard",
                           f"seat {other} also claimed the win and is nearer in turn order to the discarder "
                           f"(seat {discarder}): only the first wins (截和)", seat)
        elif len(nearer) >= play.winners_per_discard:
            ctx.breach("too_many_winners",
                       f"seats {nearer} also claimed the win and are nearer in turn order to the discarder "
                       f"(seat {discarder}): at most {play.winners_per_discard} seats win on one discard", seat)
        visible = state.visible_count(p.tile) - 1  # the winning discard still lies in the river
        earlier = None
    else:
        in_phase(ctx, state, "a win on a discard", "claims")
        discarder, tile, discard_seq, last = p.from_seat, p.tile, p.discard_seq, False
        visible = state.visible_count(p.tile)
        earlier = None
    if discarder is not None and p.from_seat != discarder:
        ctx.breach("claim_tile_mismatch", f"seat {seat} wins on seat {p.from_seat}'s discard, the discard is "
                                          f"seat {discarder}'s", seat)
    if tile != p.tile:
        ctx.breach("claim_tile_mismatch", f"seat {seat} wins on {p.tile}, the discard is {tile}", seat)
    own = seat == discarder
    if own:
        ctx.breach("claim_own_discard", f"seat {seat} declares a win on {p.tile}, its own discard (event "
                                        f"{discard_seq}): a win on a discard takes another player's tile", seat)
    state = check_size(ctx, state, seat, 13, "when winning on a discard")
    return state, _WinSource(state.seats[seat].tiles, last_of_wall=last, visible=visible, discard_seq=discard_seq,
                             earlier=earlier, own_discard=own, taken_from=discarder)


def win_declared(ctx: Ctx, state: TableState, p: ev.WinDeclared) -> TableState:
    if not need_game(ctx, state):
        return state
    rs, play, seat = ctx.ruleset, ctx.ruleset.play, p.seat
    if any(w.seat == seat and w.legal for w in state.wins):
        ctx.breach("winner_already_won", f"seat {seat} has already won this hand", seat)
    else:
        check_in_hand(ctx, state, seat, f"declares a win on {p.tile}")
    if p.self_drawn:
        state, src = _self_drawn_source(ctx, state, p)
    elif p.robbing_kong:
        state, src = _robbing_source(ctx, state, p)
    else:
        state, src = _discard_source(ctx, state, p)

    def unsettled() -> WinRecord:
        return WinRecord(ctx.seq, seat, p.tile, p.self_drawn, p.from_seat, p.robbing_kong, False,
                         discard_seq=src.discard_seq)

    taken_from = None if p.self_drawn else src.taken_from if src.taken_from is not None else p.from_seat
    if not src.own_discard and not p.self_drawn and taken_from == seat:  # a kong robbed from oneself
        ctx.breach("claim_own_discard", f"seat {seat} robs its own kong of {p.tile}: a win robbing a kong "
                                        "takes another player's tile", seat)
    if src.own_discard or (not p.self_drawn and taken_from == seat):
        # found above; recorded as declared, neither settled nor taking the tile
        return replace(state, wins=state.wins + (unsettled(),))
    if src.earlier is not None and p.robbing_kong and play.robbers_void:
        robbers = [w for w in state.wins if w.robbing_kong and w.discard_seq == src.discard_seq]
        if len(robbers) + 1 >= play.robbers_void:
            return _void_hand(ctx, state, robbers + [unsettled()])
        first, konger = src.earlier, src.earlier.from_seat if src.earlier.from_seat is not None else 0
        if play.winners_per_discard == 1 and distance(seat, konger) > distance(first.seat, konger):
            return replace(state, wins=state.wins + (unsettled(),))  # a farther robber: a lost claim
    if src.earlier is not None:
        already = [w.seat for w in state.wins if w.discard_seq == src.discard_seq and not w.self_drawn]
        if len(already) >= play.winners_per_discard:
            first = src.earlier
            fd = first.from_seat if first.from_seat is not None else 0
            if play.winners_per_discard == 1:
                nearer = distance(seat, fd) < distance(first.seat, fd)
                why = (f"; seat {seat} is nearer in turn order to the discarder and should have won instead of "
                       f"seat {first.seat}") if nearer else ""
                ctx.breach("one_winner_per_discard",
                           f"seat {seat} also wins on discard {src.discard_seq}, already won by seat {first.seat}: "
                           f"only one winner per discard (截和){why}", seat)
            else:
                ctx.breach("too_many_winners",
                           f"seat {seat} also wins on discard {src.discard_seq}, already won by seats {already}: "
                           f"at most {play.winners_per_discard} seats win on one discard", seat)
            return replace(state, wins=state.wins + (unsettled(),))

    st = state.seats[seat]
    wc = WinContext(
        seat=seat,
        tile=p.tile,
        self_drawn=p.self_drawn,
        from_seat=taken_from,
        robbing_kong=p.robbing_kong,
        kong_related=src.kong_related,
        last_of_wall=src.last_of_wall,
        visible_copies=max(src.visible, 0),
        concealed=tuple(t for t in src.concealed if not play.is_flower(t)),
        melds=st.melds,
        seat_wind=st.wind or rs.seat_wind(seat, state.dealer or 0),
        prevalent_wind=state.prevalent_wind or "F1",
        flowers=st.flowers,
    )
    if st.dead_hand is not None:
        return _dead_hand_win(ctx, state, p, src, wc)
    if st.unseen:
        # one seat's view of another's win (docs/reference/DESIGN.md §8): the record says the
        # win happened, so the table goes on as after a win; its score is the reported one
        what = f"{st.hidden} hidden tiles" if st.hidden else "a concealed kong the log does not show"
        ctx.breach("unverifiable_win", f"seat {seat}'s hand has {what}; the win cannot be scored, "
                                       "it is taken as declared and its reported score as settled", seat)
        rec = WinRecord(ctx.seq, seat, p.tile, p.self_drawn, p.from_seat, p.robbing_kong, True,
                        discard_seq=src.discard_seq, context=wc, unscored=True)
        owed = Unsettled(ctx.seq, state.hand_number, (seat,), f"the win of seat {seat} (event {ctx.seq})", seat, "win")
        state = replace(state, wins=state.wins + (rec,), unsettled=state.unsettled + (owed,))
        return _taken(state, play, p, src)
    score = rs.score_win(state, wc)
    if not score.legal:
        ctx.breach(score.rule_id or "false_win", f"seat {seat} declares a win on {p.tile}: {score.message}", seat)
        rec = WinRecord(ctx.seq, seat, p.tile, p.self_drawn, p.from_seat, p.robbing_kong, False,
                        score.situation, score.explained, score.points, None, src.discard_seq, wc)
        if "false_win" in play.dead_hand_faults:  # 诈和 → 相公 (the ruleset's PlayRules)
            state = state.with_seat(seat, replace(st, dead_hand=ctx.seq))
        return _false_win(ctx, state, rec)

    settlement = rs.settle_win(state, wc, score)
    rec = WinRecord(ctx.seq, seat, p.tile, p.self_drawn, p.from_seat, p.robbing_kong, True,
                    score.situation, score.explained, score.points, settlement, src.discard_seq, wc)
    state = settle(ctx, state, "win", settlement, f"win by seat {seat}", winner=seat)
    hidden = hidden_of(state, score.reads)
    if hidden:  # the score itself reads a hidden hand (WinScore.reads): its points cannot be checked
        owed = Unsettled(ctx.seq, state.hand_number, hidden, f"the score of seat {seat}'s win (event {ctx.seq})", seat, "score")
        state = replace(state, unsettled=state.unsettled + (owed,))
    state = replace(state, wins=state.wins + (rec,))
    return _taken(state, play, p, src)


def _false_win(ctx: Ctx, state: TableState, rec: WinRecord) -> TableState:
    """A declared win that is none (诈和): recorded (``rec``, not legal), the hand's
    ``false_win`` set, and the ruleset's false-win penalty settled, if any. Not a win: the
    phase is unchanged (play may go on, or a ruling ends the hand)."""
    state = replace(state, wins=state.wins + (rec,), false_win=True)
    pen = ctx.ruleset.false_win_penalty(state, rec.seat)
    if pen is not None:
        state = settle(ctx, state, "penalty", pen, f"false win by seat {rec.seat}")
    return state


def left_after_false_win(state: _S, play: PlayRules, seat: int) -> _S:
    """The table after a false win (诈胡, a win that is not legal) in a hand that winners
    leave (``PlayRules.hand_end`` other than first_win: 血战), as the record shows it: the
    declaration does not remove the seat (it has not won), but when the next draw from the
    wall is by ``seat``, the seat after the false winner as though it had left (the turn it
    would take after a legal win, :func:`_after_win`) — not the seat whose turn it is — the
    table took the win: the false winner leaves the hand, without a settlement, and play is
    judged from there. One mistake is one finding (the false win's): not one
    ``wrong_seat_to_act`` at every later draw. A seat whose hand is dead (相公) plays on;
    anything else: ``state`` unchanged."""
    if play.hand_end == "first_win" or not state.wins:
        return state
    w = state.wins[-1]
    if w.legal or w.seat == seat or not state.in_hand[w.seat] or state.seats[w.seat].dead_hand is not None:
        return state
    if w.self_drawn:
        if state.phase != "discard" or state.turn != w.seat:
            return state
    elif state.phase != "claims" or state.pending is None or state.pending.seq != w.discard_seq:
        return state
    flags = list(state.in_hand)
    flags[w.seat] = False
    in_hand = (flags[0], flags[1], flags[2], flags[3])
    if seat == state.turn or seat != next_seat(w.seat, in_hand) or not in_hand[seat]:
        return state
    return evolve(state, in_hand=in_hand, phase="claims", turn=seat, last_draw=None,
                  pending=None if w.self_drawn else state.pending)


def _dead_hand_win(ctx: Ctx, state: TableState, p: ev.WinDeclared, src: _WinSource, wc: WinContext) -> TableState:
    """A win declared by a seat whose hand is dead (``SeatState.dead_hand``, 相公): the
    ``xianggong`` finding, and a false win (诈和) whatever its tiles — "a 相公 player may not
    win" (docs/reference/rules/competition.md §A9; seed 000 "不得和牌", "不符合规定条件而宣布和牌
    … 罚分"; seed 003 大相公/小相公 "鈈得和牌"). The hand is scored when the record shows it,
    for the record's sake (what it would have been)."""
    seat, st = p.seat, state.seats[p.seat]
    ctx.breach("xianggong", f"seat {seat} declares a win on {p.tile}, but its hand is dead (相公 since "
                            f"event {st.dead_hand}): a dead hand may not win", seat)
    score = None if st.unseen else ctx.ruleset.score_win(state, wc)
    rec = WinRecord(ctx.seq, seat, p.tile, p.self_drawn, p.from_seat, p.robbing_kong, False,
                    score.situation if score else None, score.explained if score else None,
                    score.points if score else None, None, src.discard_seq, wc)
    return _false_win(ctx, state, rec)


def _taken(state: TableState, play: PlayRules, p: ev.WinDeclared, src: _WinSource) -> TableState:
    """A legal win takes its tile — off the robbed kong, or the discard — and the table goes
    on (:func:`_after_win`)."""
    if p.robbing_kong and state.pending_kong is not None and src.earlier is None:
        state = _unrob(state, state.pending_kong, play.kong_replacements)
    elif not p.self_drawn and src.discard_seq is not None:
        state = mark_claimed(state, src.discard_seq, p.seat)
    return _after_win(state, play, p, src)


def _after_win(state: TableState, play: PlayRules, p: ev.WinDeclared, src: _WinSource) -> TableState:
    """The table after a legal win (PlayRules.hand_end): the hand is over, or the winner
    leaves it and the seat after the last winner in turn order from the discarder (after a
    self-drawn win: after the winner) draws next, while the discard (or robbed kong) stays
    open to the further winners ``winners_per_discard`` allows."""
    in_hand = state.in_hand
    if play.hand_end != "first_win":
        flags = list(in_hand)
        flags[p.seat] = False
        in_hand = (flags[0], flags[1], flags[2], flags[3])
    winners = sum(1 for w in state.wins if w.legal)
    if play.hand_over_after_win(winners, sum(in_hand)):
        return replace(state, phase="hand_over", turn=None, pending_kong=None, in_hand=in_hand,
                       pending=state.pending if play.winners_per_discard > 1 else None)
    if p.self_drawn:
        last = p.seat
    else:
        origin = p.from_seat if p.from_seat is not None else p.seat
        last = max((w.seat for w in state.wins if w.legal and w.discard_seq == src.discard_seq and not w.self_drawn),
                   key=lambda s: distance(s, origin), default=p.seat)
    return replace(state, in_hand=in_hand, phase="claims", turn=next_seat(last, in_hand), last_draw=None,
                   pending=state.pending if not p.self_drawn and not p.robbing_kong else None,
                   pending_kong=state.pending_kong if p.robbing_kong else None)


def _void_hand(ctx: Ctx, state: TableState, robbers: list[WinRecord]) -> TableState:
    """平盘 (PlayRules.robbers_void): every robbery of the kong is undone — the settled one's
    score changes are reversed — and the hand ends void; the next hand has the same dealer."""
    for w in robbers:
        if w.settlement is not None:
            back = Settlement(tuple(-c for c in w.settlement.changes))  # type: ignore[arg-type]
            state = apply_settlement(state, ctx.seq, "win", back,
                                     f"{len(robbers)} seats rob one kong: hand void (平盘), win by seat {w.seat} undone")
    kept = tuple(w for w in state.wins if w not in robbers)
    void = tuple(replace(w, legal=False, settlement=None) for w in robbers)
    return replace(state, wins=kept + void, void_hand=True, phase="hand_over", turn=None,
                   pending=None, pending_kong=None)


def _unrob(state: TableState, pk: PendingKong, replacements: int) -> TableState:
    """The robbed tile leaves the added kong: it is a pung again (seed 003 抢杠), and no
    replacement is due."""
    kst = state.seats[pk.seat]
    melds = tuple(
        replace(m, kind="pung", tiles=m.tiles[:3], kong_kind=None, added_seq=None)
        if m.kind == "kong" and m.kong_kind == "added" and m.tiles[0] == pk.tile else m
        for m in kst.melds
    )
    return state.with_seat(pk.seat, replace(kst, melds=melds, replacements_due=max(kst.replacements_due - replacements, 0)))


def exhaustive_draw(ctx: Ctx, state: TableState, p: ev.ExhaustiveDraw) -> TableState:
    if not need_game(ctx, state):
        return state
    in_phase(ctx, state, "an exhaustive draw", "claims", "discard")
    drawer = state.turn if state.phase == "claims" and state.turn is not None else None
    if drawer is None and state.turn is not None:
        drawer = state.next_seat(state.turn)
    if not wall_empty_for(state, ctx.ruleset.play, drawer if drawer is not None else 0):
        left = state.wall_remaining if state.seat_walls is None else state.seat_walls[drawer or 0]
        where = "the wall" if state.seat_walls is None else f"seat {drawer}'s wall"
        ctx.breach("exhaustive_draw_with_tiles_left",
                   f"exhaustive draw with {left} tiles left in {where}")
    s = ctx.ruleset.settle_exhaustive_draw(state)
    if s is not None:
        state = settle(ctx, state, "exhaustive_draw", s, "exhaustive draw")
    return replace(state, phase="hand_over", exhaustive_draw=True, turn=None, pending=None,
                   pending_kong=None)
