"""Tiles moving: the deal, draws (wall, kong and flower replacements), flowers set aside, discards, the wildcard indicator."""

from __future__ import annotations

from typing import Any

from eventlog import events as ev
from eventlog import tiles as _tiles
from eventlog.seats import next_seat
from replayer.accounting import (
    check_size,
    count_seen,
    kong_payment,
    receive,
    seat_wall_minus,
    seat_wall_take,
    seen_plus,
    take,
    wall_empty,
    wall_empty_for,
    wall_minus,
    with_seat,
)
from replayer.context import Ctx, check_in_hand, check_turn, in_phase, in_place, need_game
from replayer.handlers.wins import left_after_false_win
from replayer.state import (
    Discard,
    LastDraw,
    PendingDiscard,
    PendingKong,
    TableState,
    WorkingState,
    evolve,
    replace,
)


@in_place
def tiles_dealt(ctx: Ctx, state: WorkingState, p: ev.TilesDealt) -> TableState:
    """A deal: the seat's tiles and the tile accounting change in place (a working state)."""
    if not need_game(ctx, state) or not in_phase(ctx, state, "tiles_dealt", "dealing"):
        return state
    play = ctx.play
    st = state.seat_now(p.seat)
    if st.dealt:
        ctx.breach("deal_mismatch", f"seat {p.seat} is dealt twice", p.seat)
    if not p.tiles:
        return _hidden_deal(ctx, state, p.seat)
    allowed = {play.dealer_tiles, play.other_tiles} if p.seat == state.dealer else {play.other_tiles}
    if len(p.tiles) not in allowed:
        want = " or ".join(str(n) for n in sorted(allowed))
        ctx.breach("deal_mismatch", f"seat {p.seat} is dealt {len(p.tiles)} tiles, expected {want}", p.seat)
    if state.deal_pool is not None:
        pool = list(state.deal_pool)
        outside = []  # one finding for the deal, every tile the dealt part lacks named in it
        for t in p.tiles:
            i = _tiles.index(t)
            if pool[i] > 0:
                pool[i] -= 1
            else:
                outside.append(t)
        if outside:
            which = "which is" if len(outside) == 1 else "which are"
            ctx.breach("wall_mismatch", f"seat {p.seat} is dealt {' '.join(outside)}, {which} not in the dealt "
                                        "part of the wall", p.seat)
        state = evolve(state, deal_pool=tuple(pool))
    elif state.wall is not None and state.seat_walls is not None:
        given, wall = seat_wall_take(state, p.seat, len(p.tiles))
        extra, missing = _tiles_apart(p.tiles, given), _tiles_apart(given, p.tiles)
        if extra or missing:
            ctx.breach("wall_mismatch", f"seat {p.seat} is dealt {' '.join(extra)} where its own wall gives "
                                        f"{' '.join(missing) or 'nothing'}", p.seat)
        state = evolve(state, wall=wall)
    left = state.seat_walls[p.seat] if state.seat_walls is not None else state.wall_remaining
    if len(p.tiles) > left:
        ctx.breach("wall_exhausted", f"seat {p.seat} is dealt {len(p.tiles)} tiles, the wall has "
                                     f"{left} left", p.seat)
    seen = state.change_seen()
    for t in p.tiles:
        count_seen(ctx, seen, t, p.seat)
    held = state.change_seat(p.seat)
    for t in p.tiles:
        receive(held, t)
    held.dealt = True
    return evolve(state, wall_remaining=wall_minus(state.wall_remaining, len(p.tiles)),
                  seat_walls=seat_wall_minus(state.seat_walls, p.seat, len(p.tiles)))


def _hidden_deal(ctx: Ctx, state: TableState, seat: int) -> TableState:
    """A deal the record does not show (``tiles`` empty: another seat's, in one seat's view —
    docs/events.md ``tiles_dealt``): the seat holds as many hidden tiles as every seat is
    dealt (``other_tiles``). The dealer's further tiles (``dealer_tiles`` − ``other_tiles``:
    the 14th, taken after the others' 13 and before its first discard — nanchang.md §3.2
    "莊家在打出牌前應再摸一張") come with its draw when the source records one during the deal
    (Botzone deals 13 and the dealer draws), else with its first action
    (:func:`settle_hidden_deal`: the source dealt them with the 13). Nothing is counted out of
    the wall (tile accounting counts only the tiles the record shows); the wall is as many
    tiles shorter."""
    play = ctx.play
    n = play.other_tiles
    left = state.seat_walls[seat] if state.seat_walls is not None else state.wall_remaining
    if n > left:
        ctx.breach("wall_exhausted", f"seat {seat} is dealt {n} tiles, the wall has {left} left", seat)
    state = _hide(state, seat, n)
    if seat == state.dealer and play.dealer_tiles > n:
        state = evolve(state, deal_owed=play.dealer_tiles - n)
    return state


def _hide(state: TableState, seat: int, n: int) -> TableState:
    """``seat`` holds ``n`` more hidden tiles taken from the wall (its own, per-seat walls)."""
    if state.wall is not None and state.seat_walls is not None:  # the seat's own wall, known: kept in step
        state = evolve(state, wall=seat_wall_take(state, seat, n)[1])
    st = state.seats[seat]
    st = replace(st, hidden=st.hidden + n, dealt=True)
    return evolve(state, seats=with_seat(state.seats, seat, st), wall_remaining=wall_minus(state.wall_remaining, n),
                  seat_walls=seat_wall_minus(state.seat_walls, seat, n))


def settle_hidden_deal(ctx: Ctx, state: TableState, p: Any) -> TableState:
    """Before an event of the deal (``state.phase`` "dealing"): when it is the dealer's
    action other than a draw from the wall and its deal, hidden, still owes tiles
    (``TableState.deal_owed``, :func:`_hidden_deal`), they were dealt with the 13: it holds
    them now, as many more taken from the wall. Its draw from the wall in the deal is the
    owed tile itself (nothing more owed). ``state`` itself otherwise."""
    owed = state.deal_owed
    seat = getattr(p, "seat", None)
    if not owed or seat is None or seat != state.dealer:
        return state
    if isinstance(p, ev.TileDrawn) and p.source == "wall":
        return evolve(state, deal_owed=0)  # the source deals 13 and the dealer draws: this is it
    return evolve(_hide(state, seat, owed), deal_owed=0)


def _tiles_apart(tiles: tuple[str, ...] | list[str], other: tuple[str, ...] | list[str]) -> list[str]:
    """The tiles of ``tiles`` that ``other`` does not hold (as multisets), in their order."""
    left = list(other)
    out = []
    for t in tiles:
        if t in left:
            left.remove(t)
        else:
            out.append(t)
    return out


@in_place
def tile_drawn(ctx: Ctx, state: WorkingState, p: ev.TileDrawn) -> TableState:
    """A draw: the seat's tiles and the tile accounting change in place (a working state)."""
    if not need_game(ctx, state):
        return state
    play = ctx.play
    if p.source == "wall":  # the table let a false winner leave (血战): play goes on without it
        state = left_after_false_win(state, play, p.seat)
    check_in_hand(ctx, state, p.seat, "draws a tile")
    seat = p.seat
    st = state.seat_now(seat)
    replacement = p.source != "wall"
    ph = state.phase
    after_kong = False
    close_kong: PendingKong | None = None
    if replacement:
        if ph in ("replacement", "robbing"):
            check_turn(ctx, state, seat, f"draws a {p.source.replace('_', ' ')}")
            if ph == "robbing" or (state.pending_kong and state.pending_kong.seat == seat):
                close_kong = state.pending_kong
        elif ph != "dealing":
            in_phase(ctx, state, f"a {p.source.replace('_', ' ')} draw", "replacement", "robbing", "dealing")
        if st.replacements_due <= 0:
            ctx.breach("unexpected_replacement",
                       f"seat {seat} draws a {p.source.replace('_', ' ')} without a kong or flower to replace", seat)
        else:
            state.change_seat(seat).replacements_due -= 1
        ld = state.last_draw
        after_kong = p.source == "kong_replacement" or (
            ld is not None and ld.seat == seat and ld.after_kong and ph != "dealing"
        )
    else:
        if ph == "claims":
            check_turn(ctx, state, seat, "draws from the wall")
        elif ph == "dealing":
            if seat != state.dealer or st.concealed_size != play.other_tiles:
                ctx.breach("event_out_of_phase", f"seat {seat} draws from the wall during the deal", seat)
        else:
            in_phase(ctx, state, "a draw from the wall", "claims")
        if st.replacements_due > 0:
            ctx.breach("replacement_missing",
                       f"seat {seat} draws from the wall while a replacement draw is due", seat)
        if ph != "dealing":
            check_size(ctx, state, seat, 13, "before drawing")  # a working state: changed in place
    # the wall
    tile = p.tile
    if wall_empty_for(state, play, seat):
        ctx.breach("wall_exhausted", f"seat {seat} draws from an empty wall", seat)
    wall = state.wall
    pool = state.deal_pool
    if wall is not None and state.seat_walls is not None:
        # per-seat walls: every tile a seat takes is the next of its own wall
        given, wall = seat_wall_take(state, seat, 1)
        if given and tile is None:
            tile = given[0]
        elif given and given[0] != tile:
            ctx.breach("wall_mismatch", f"seat {seat} draws {tile}, its own wall gives {given[0]} next", seat)
    elif wall is not None:
        expected: str | None = None
        if not replacement and ph == "dealing" and pool is not None and sum(pool) > 0:
            # the dealer's 14th tile drawn as a draw: it comes from the dealt part
            pc = list(pool)
            if tile is not None and pool[_tiles.index(tile)] > 0:
                pc[_tiles.index(tile)] -= 1
            elif tile is not None:
                ctx.breach("wall_mismatch", f"seat {seat} draws {tile}, which is not in the dealt part of the wall", seat)
            pool = tuple(pc)
            expected = tile
        elif wall:
            expected = wall[-1] if replacement else wall[0]
            wall = wall[:-1] if replacement else wall[1:]
        if tile is None:
            tile = expected
        elif expected != tile:
            ctx.breach("wall_mismatch", f"seat {seat} draws {tile}, the wall has {expected} there", seat)
    if tile is not None:
        count_seen(ctx, state.change_seen(), tile, seat)
        if _tiles.is_flower(tile) and not play.flowers and not play.copies(tile):
            ctx.breach("flowers_not_used", f"seat {seat} draws flower {tile}; the ruleset has no flowers", seat)
    wall_remaining = wall_minus(state.wall_remaining, 1)
    seat_walls = seat_wall_minus(state.seat_walls, seat, 1)
    held = state.change_seat(seat)
    receive(held, tile)
    phase = "dealing" if ph == "dealing" else (
        "replacement" if replacement and ph in ("replacement", "robbing") and held.replacements_due > 0 else "discard")
    last = LastDraw(ctx.seq, seat, tile, p.source, after_kong=after_kong,
                    last_of_wall=wall_empty(seat_walls, wall_remaining, play, next_seat(seat, state.in_hand)))
    settled: TableState = state
    if close_kong is not None and close_kong.kind == "added":
        # the kong's payment is settled on the table with the replacement drawn
        evolve(state, wall_remaining=wall_remaining, seat_walls=seat_walls)
        settled = kong_payment(ctx, state, close_kong.seat, close_kong.tile)
    return evolve(
        settled,
        wall_remaining=wall_remaining,
        seat_walls=seat_walls,
        wall=wall,
        deal_pool=pool,
        phase=phase,
        turn=settled.dealer if ph == "dealing" else seat,
        pending=None,
        pending_kong=None,
        last_draw=last,
    )


def flower_replaced(ctx: Ctx, state: TableState, p: ev.FlowerReplaced) -> TableState:
    if not need_game(ctx, state):
        return state
    check_in_hand(ctx, state, p.seat, f"sets aside flower {p.flower}")
    if not ctx.ruleset.play.flowers:
        ctx.breach("flowers_not_used", f"seat {p.seat} sets aside {p.flower}; the ruleset has no flowers", p.seat)
    elif not ctx.ruleset.play.is_flower(p.flower):
        ctx.breach("not_a_flower", f"seat {p.seat} sets aside {p.flower}, which is not a flower of the ruleset", p.seat)
    ph = state.phase
    if ph == "discard":
        check_turn(ctx, state, p.seat, f"sets aside flower {p.flower}")
    elif ph != "dealing":
        in_phase(ctx, state, "a flower replacement", "dealing", "discard")
    state = take(ctx, state, p.seat, p.flower)
    st = state.seats[p.seat]
    st = replace(st, flowers=st.flowers + (p.flower,), replacements_due=st.replacements_due + 1)
    state = state.with_seat(p.seat, st)
    if ph == "dealing":
        return state
    return replace(state, phase="replacement", turn=p.seat)


@in_place
def tile_discarded(ctx: Ctx, state: WorkingState, p: ev.TileDiscarded) -> TableState:
    """A discard: the seat's tiles and river change in place (a working state)."""
    if not need_game(ctx, state):
        return state
    seat, tile = p.seat, p.tile
    what = f"discards {tile}"
    check_in_hand(ctx, state, seat, what)
    ph = state.phase
    if ph == "dealing":
        if seat != state.dealer:
            ctx.breach("wrong_seat_to_act", f"seat {seat} discards first, the dealer is seat {state.dealer}", seat)
        undealt = [i for i in range(4) if not state.seat_now(i).dealt]
        if undealt:
            ctx.breach("deal_mismatch", f"the dealer discards before seats {undealt} were dealt", seat)
    elif ph == "discard" or in_phase(ctx, state, "a discard", "discard"):
        check_turn(ctx, state, seat, what)
    if state.seat_now(seat).replacements_due > 0:
        ctx.breach("replacement_missing", f"seat {seat} discards while a replacement draw is due", seat)
    check_size(ctx, state, seat, 14, "before discarding")  # a working state: changed in place
    take(ctx, state, seat, tile)
    state.change_seat(seat).discards.append(Discard(ctx.seq, tile))
    turn = next_seat(seat, state.in_hand)
    return evolve(
        state,
        phase="claims",
        turn=turn,
        pending=PendingDiscard(ctx.seq, seat, tile, last_of_wall=wall_empty_for(state, ctx.play, turn)),
        pending_kong=None,
        last_draw=None,
    )


def wildcard_indicator_revealed(ctx: Ctx, state: TableState, p: ev.WildcardIndicatorRevealed) -> TableState:
    """The indicator is turned up; with ``PlayRules.indicator_leaves_wall`` it leaves the
    wall (at the ruleset's :meth:`indicator_position`, else the last copy of it in the known
    wall) and is counted out of the wall."""
    if not need_game(ctx, state):
        return state
    play = ctx.ruleset.play
    if not play.wildcards:
        ctx.breach("wildcards_not_used", f"wildcard indicator {p.indicator} revealed; the ruleset has no wildcards")
    state = replace(state, wildcard_indicator=p.indicator)
    if not play.indicator_leaves_wall:
        return state
    wall = state.wall
    if wall is not None and state.seat_walls is None:
        pos = ctx.ruleset.indicator_position(state, p)
        if pos is None or not 0 <= pos < len(wall) or wall[pos] != p.indicator:
            pos = max((i for i, t in enumerate(wall) if t == p.indicator), default=None)
        if pos is not None:
            wall = wall[:pos] + wall[pos + 1:]
    return replace(state, wall=wall, wall_remaining=wall_minus(state.wall_remaining, 1),
                   seen=seen_plus(ctx, state.seen, p.indicator, None))
