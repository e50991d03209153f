"""Changsha's table events (docs/events.md "Table events of one ruleset"), replayed by the
ruleset: opening small wins declared and paid at once (§3.2, §5), the 海底 offered round the
table (海底漫游, §4), bird tiles turned after the win(s) (扎鸟, §5.1). Each handler has the
core's handler signature ``(ctx, state, payload) -> state``; breaches name the spec section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eventlog import events as ev
from eventlog import tiles as _tiles
from replayer.accounting import apply_settlement, kong_payment, seen_plus, wall_minus
from replayer.context import Ctx
from replayer.rules.changsha.evaluate import DeclarationError, check_declarations
from replayer.rules.changsha.settlement import add, settle_opening, settle_winner
from replayer.state import (
    Discard,
    Payment,
    PendingDiscard,
    SettledPayment,
    Settlement,
    TableState,
    Unsettled,
    replace,
)

if TYPE_CHECKING:
    from replayer.rules.changsha.play import ChangshaRuleset

__all__ = ["HANDLERS", "birds_turned", "expected_birds", "kaigang_stack", "kong_tiles_revealed", "last_tile_declined",
           "opening_wins_declared"]

_SPEC = "docs/reference/rules/changsha.md"


def _settlement(vec: tuple[int, int, int, int], seat: int, reason: str, source: str) -> Settlement:
    """``vec`` as payments to and from ``seat`` for ``reason``; ``source``: the rule text."""
    return Settlement.from_payments(
        [Payment(s, seat, -vec[s], reason, source) for s in range(4) if s != seat and vec[s] < 0]
        + [Payment(seat, s, vec[s], reason, source) for s in range(4) if s != seat and vec[s] > 0])


def opening_wins_declared(ctx: Ctx, state: TableState, p: ev.OpeningWinsDeclared) -> TableState:
    """§3.2: after the deal, before the dealer's first discard; the shown tiles prove each
    win and lie in the seat's dealt hand; paid at once as a small self-draw (§5), with the
    opening dice bird when ``opening_bird = dice`` (§8.11)."""
    rs: ChangshaRuleset = ctx.ruleset  # type: ignore[assignment]
    mem = rs.memory(state)
    hand = mem.hand
    seat = p.seat
    if state.phase != "dealing" or not all(s.dealt for s in state.seats) or hand.discards or hand.claimed:
        ctx.breach("opening_out_of_phase", f"seat {seat} declares opening small wins in phase {state.phase!r}: "
                                           "they are shown after the deal, before the dealer's first discard", seat)
        return state
    if seat in hand.declared:
        ctx.breach("opening_out_of_phase", f"seat {seat} declares opening small wins a second time", seat)
        return state
    st = state.seats[seat]
    held = None if st.unseen else [t for t in st.tiles if not _tiles.is_flower(t)]
    try:
        units = check_declarations([(w.kind, w.tiles) for w in p.wins], dealer=seat == state.dealer, hand=held)
    except DeclarationError as e:
        ctx.breach(e.rule_id, f"seat {seat}: {e}", seat)
        return state
    dice = hand.dice if rs.options.opening_bird == "dice" else None
    if rs.options.opening_bird == "dice" and dice is None:
        ctx.breach("opening_dice_missing", "opening_bird = dice needs the dealer's dice in hand_started", seat)
        return state
    res = settle_opening(seat, units, dealer=state.dealer or 0, dice=dice, options=rs.options)
    shown = ", ".join(f"{u.kind.chinese} ×{u.count}" if u.count > 1 else u.kind.chinese for u in units)
    state = apply_settlement(state, ctx.seq, "opening", _settlement(res.opening, seat, f"opening small wins ({_SPEC} §3.2)", f"{_SPEC} §3.2, §5"),
                             f"opening small wins of seat {seat}: {shown}")
    if any(res.opening_bird):
        state = apply_settlement(state, ctx.seq, "opening_bird",
                                 _settlement(res.opening_bird, seat, f"opening dice bird ({_SPEC} §8.11)",
                                             f"{_SPEC} §8.11"),
                                 f"opening dice bird of seat {seat}'s opening wins: dice {dice}→seat {res.bird_seat}")
    hand = replace(hand, declared=hand.declared + (seat,), openings=hand.openings + (res,))
    return rs.with_hand(state, hand)


def kaigang_stack(remaining: int, dice_sum: int, tail_odd: bool = False) -> tuple[int, ...]:
    """Positions (indices into the remaining wall, front = next draw, back = next tail draw) of
    the stack a 开杠 takes (§4): stacks of two counted from the tail, the ``dice_sum``-th; the
    last stack when the dice exceed the stacks left; a stack missing its top tile gives its
    lower one ("如果一墩牌的上面一张不存在则取下面一张", seed 001). ``tail_odd``: an odd number
    of tiles has been taken singly from the tail (补张 replacements), so the tail stack has lost
    its top and is one tile — stack #1 is that lower tile, the whole stacks come after it; the
    front stack is one tile when the head has taken its top."""
    if remaining <= 0:
        return ()
    virtual = remaining + (1 if tail_odd else 0)  # as if the tail stack's top were still there
    stacks = (virtual + 1) // 2
    k = min(dice_sum, stacks)
    lo = virtual - 2 * k
    return tuple(i for i in range(lo, lo + 2) if 0 <= i < remaining)


def kong_tiles_revealed(ctx: Ctx, state: TableState, p: ev.KongTilesRevealed) -> TableState:
    """§4 开杠: right after its kong (instead of the one replacement of 补张) a ready seat
    exposes the stack its dice count from the tail; it may win on either tile (杠上开花, a
    self-draw) and, if it does not, the others may (杠上炮, the konger pays as discarder);
    only the 海底 left: that tile, which loses its 海底 function. The seat is locked after."""
    rs: ChangshaRuleset = ctx.ruleset  # type: ignore[assignment]
    hand = rs.memory(state).hand
    seat = p.seat
    pk = state.pending_kong
    st = state.seats[seat]
    if state.phase not in ("replacement", "robbing") or pk is None or pk.seat != seat or st.replacements_due <= 0:
        ctx.breach("kaigang_out_of_phase", f"seat {seat} reveals kong tiles, but no kong of its own waits for its "
                                           "replacement (开杠 comes right after the kong)", seat)
        return state
    if not st.hidden and not rs.ready_to_win(st):
        ctx.breach("kaigang_not_ready", f"seat {seat} opens a kong (开杠) without being ready", seat)
    tiles = tuple(p.tiles)
    n = state.wall_remaining
    wall = state.wall
    odd = hand.tail_odd
    if wall is not None:
        idx = kaigang_stack(len(wall), sum(p.dice), odd)
        want = tuple(wall[i] for i in idx)
        if tiles != want:
            ctx.breach("wrong_kong_tiles", f"seat {seat} reveals {list(tiles)}; dice {sum(p.dice)} count the stack "
                                           f"{list(want)} from the tail", seat)
        wall = tuple(t for i, t in enumerate(wall) if i not in idx)
    elif len(tiles) != len(kaigang_stack(n, sum(p.dice), odd)):
        # a wall the record does not show (one seat's view): the stack's size is still known —
        # the last stack holds one tile when an odd number is left
        ctx.breach("wrong_kong_tiles", f"seat {seat} reveals {len(tiles)} tiles with {n} left in the wall; dice "
                                       f"{sum(p.dice)} count a stack of {len(kaigang_stack(n, sum(p.dice), odd))}", seat)
    seen = state.seen
    for t in tiles:
        seen = seen_plus(ctx, seen, t, seat)
    st = replace(st, replacements_due=st.replacements_due - 1,
                 discards=st.discards + tuple(Discard(ctx.seq, t) for t in tiles))
    remaining = wall_minus(n, len(tiles))
    state = replace(state.with_seat(seat, st), wall=wall, wall_remaining=remaining, seen=seen)
    if pk.kind == "added":  # an added kong is paid when it can no longer be robbed
        state = kong_payment(ctx, state, seat, pk.tile)
    state = replace(state, phase="claims", turn=state.next_seat(seat), pending_kong=None, last_draw=None,
                    pending=PendingDiscard(ctx.seq, seat, tiles[0], also=tiles[1:], owner_may_win=True)
                    if tiles else None)
    # the lone lower tile at the tail taken: the tail is whole stacks again
    tail_odd = odd and (n - 1) not in kaigang_stack(n, sum(p.dice), odd)
    hand = replace(hand, kaigang=(seat, tiles, ctx.seq), locked=hand.locked + (seat,), tail_odd=tail_odd,
                   last_replacement=seat if remaining == 0 else hand.last_replacement)
    return rs.with_hand(state, hand)


def last_tile_declined(ctx: Ctx, state: TableState, p: ev.LastTileDeclined) -> TableState:
    """§4 海底漫游: with one tile left, the seat due to draw may leave it to the next seat; when
    every seat declined the hand is drawn (dealer rule D)."""
    rs: ChangshaRuleset = ctx.ruleset  # type: ignore[assignment]
    hand = rs.memory(state).hand
    seat = p.seat
    if state.phase != "claims" or state.wall_remaining != 1 or state.seat_walls is not None:
        n = state.wall_remaining
        if n == 1 and state.phase == "replacement":
            why = "it is due as a kong replacement and is no 海底 this hand"
        elif n != 1:
            why = f"{n} tiles are left in the wall (the 海底 is offered when one is left)"
        else:
            why = f"it is offered only when claims on a discard close (phase {state.phase!r})"
        ctx.breach("haidi_not_offered", f"seat {seat} declines the last tile, but {why}", seat)
        return state
    if state.turn is not None and seat != state.turn:
        ctx.breach("wrong_seat_to_act", f"seat {seat} declines the last tile, but it is offered to seat {state.turn}",
                   seat)
    first = hand.first_offered if hand.first_offered is not None else seat
    decliners = hand.decliners + (seat,)
    state = rs.with_hand(state, replace(hand, first_offered=first, decliners=decliners))
    if len(set(decliners)) >= 4:
        return replace(state, phase="hand_over", exhaustive_draw=True, turn=None, pending=None, pending_kong=None)
    return replace(state, turn=state.next_seat(seat), pending=None)


def expected_birds(rs: ChangshaRuleset, state: TableState) -> tuple[int, tuple[str, ...] | None]:
    """How many bird tiles a finished hand turns and, when known, which (§5.1, §8.10): the
    海底 tile after a 海底 win; else the next ``birds`` tiles of the wall (fewer when fewer are
    left; none after a 开杠 that took the last tiles)."""
    wins = [w for w in state.wins if w.legal]
    if not wins:
        return 0, ()
    haidi = [w for w in wins if rs.haidi(state, w)]
    if haidi:
        return 1, (haidi[0].tile,)
    n = min(rs.options.birds, state.wall_remaining)
    if state.wall is None:
        return n, None
    return n, tuple(state.wall[:n])


def birds_turned(ctx: Ctx, state: TableState, p: ev.BirdsTurned) -> TableState:
    """§5.1: after the win(s) the bird tiles are turned; each winner's payers pay the extra
    (several winners share the birds, §5.2). The extra is part of that win's settlement
    (``WinRecord.later_changes``): a win's reported score includes its birds (§7's totals)."""
    rs: ChangshaRuleset = ctx.ruleset  # type: ignore[assignment]
    hand = rs.memory(state).hand
    wins = [w for w in state.wins if w.legal]
    if state.phase != "hand_over" or not wins or hand.birds is not None:
        ctx.breach("birds_out_of_phase", "bird tiles are turned once, after a win (扎鸟)")
        return state
    n, want = expected_birds(rs, state)
    tiles = tuple(p.tiles)
    if len(tiles) != n or (want is not None and tiles != want):
        what = list(want) if want is not None else f"{n} tile(s)"
        ctx.breach("wrong_birds", f"birds {list(tiles)} turned; the rules turn {what}")
    haidi_bird = any(rs.haidi(state, w) for w in wins)
    if not haidi_bird:
        seen = state.seen
        for t in tiles:
            seen = seen_plus(ctx, seen, t, None)
        state = replace(state, seen=seen)
    dealer = state.dealer or 0
    start_bird = hand.start_bird
    for w in wins:
        if w.unscored:  # the birds pay as the hidden hand's win does (§5.1): not known from the record;
            # the win's reported score gives them (it is the whole settlement, docs/events.md)
            owed = Unsettled(ctx.seq, state.hand_number, (w.seat,), f"the birds of seat {w.seat}'s win (event {ctx.seq})",
                             w.seat)
            state = replace(state, unsettled=state.unsettled + (owed,))
            continue
        evaluation = rs.win_score(w).evaluation
        res = settle_winner(w.seat, evaluation, discarder=None if w.self_drawn else w.from_seat,
                            dealer=dealer, birds=tiles, options=rs.options)
        if any(res.bird):
            hits = ", ".join(f"{t}→seat {s}" for t, s in zip(tiles, res.bird_seats))
            birds = _settlement(res.bird, w.seat, f"birds ({_SPEC} §5.1)", f"{_SPEC} §5.1")
            state = apply_settlement(state, ctx.seq, "bird", birds, f"birds of seat {w.seat}'s win: {hits}")
            # part of the win's whole settlement, which its reported score gives
            paid = tuple(SettledPayment(ctx.seq, "bird", q) for q in birds.payments)
            state = replace(state, wins=tuple(replace(x, later_changes=add(x.later_changes, res.bird),
                                                      later_payments=x.later_payments + paid)
                                              if x.seq == w.seq else x for x in state.wins))
        if evaluation.units and any(u.id == "heavenly" for u in evaluation.units) \
                and start_bird is None and tiles:
            start_bird = _tiles.rank_of(tiles[0])  # §8.12: the 天胡's first bird
    return rs.with_hand(state, replace(rs.memory(state).hand, birds=tiles, start_bird=start_bird))


HANDLERS = {
    "opening_wins_declared": opening_wins_declared,
    "kong_tiles_revealed": kong_tiles_revealed,
    "last_tile_declined": last_tile_declined,
    "birds_turned": birds_turned,
}
