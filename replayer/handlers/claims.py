"""Claims on a discard (chow, pung, melded kong), kongs of a seat’s own tiles, and passes.

All are declared :func:`~replayer.context.in_place`: they change the replay's working state
through the evolve-like helpers (:func:`~replayer.accounting.take`,
:func:`~replayer.accounting.claimed_as_found`, :func:`add_meld`,
:func:`~replayer.state.evolve_seat`, :func:`~replayer.state.evolve`), which copy a frozen
state instead (a ruleset's own claim calling :func:`claim_discard` and :func:`add_meld`)."""

from __future__ import annotations

from eventlog import events as ev
from replayer.accounting import (
    check_size,
    claimed_as_found,
    kong_payment,
    take,
    take_hidden,
)
from replayer.context import Ctx, check_in_hand, check_turn, in_phase, in_place, need_game
from replayer.state import (
    DeclaredMeld,
    PendingKong,
    TableState,
    evolve,
    evolve_seat,
    replace,
)


def claim_discard(ctx: Ctx, state: TableState, seat: int, discard_seq: int, tile: str, kind: str) -> tuple[TableState, int | None]:
    """Checks shared by chow, pung, melded kong (and a ruleset's own claims, e.g. Yingtan's
    宝 pung): the claimant's hand is not dead (``xianggong``: 相公 may not claim,
    competition.md §A9), the claim takes the latest discard, still open, of another seat, of
    the named tile, and nothing of higher priority was passed over. Marks the discard claimed. Returns
    (state, discarder seat or None). Like :func:`~replayer.state.evolve`: a working state is
    changed in place and returned."""
    pend = state.pending
    found = state.find_discard(discard_seq)
    discarder: int | None = None
    dead = state.seat_now(seat).dead_hand
    if dead is not None:
        ctx.breach("xianggong", f"seat {seat} claims discard {discard_seq} by {kind}, but its hand is dead "
                                f"(相公 since event {dead}): a dead hand may not claim", seat)
    if state.phase == "claims" and pend is not None and pend.seq == discard_seq:
        discarder = pend.seat
    elif found is not None and found[2].claimed_by is not None:
        ctx.breach("discard_already_claimed",
                   f"seat {seat} claims discard {discard_seq} ({found[2].tile}), already taken by seat "
                   f"{found[2].claimed_by}", seat)
        discarder = found[0]
    else:
        latest = f"the latest open discard is {pend.seq}" if pend and state.phase == "claims" else "no discard is open to claims"
        ctx.breach("claim_not_latest_discard",
                   f"seat {seat} claims discard {discard_seq} by {kind}; {latest}", seat)
        if found is not None:
            discarder = found[0]
    if discarder is None:
        return state, None
    if discarder == seat:
        ctx.breach("claim_own_discard", f"seat {seat} claims its own discard {discard_seq}", seat)
    if found is not None and found[2].tile != tile:
        ctx.breach("claim_tile_mismatch",
                   f"seat {seat} claims {tile} but discard {discard_seq} is {found[2].tile}", seat)
    play = ctx.play
    if pend is not None and pend.seq == discard_seq:
        for other, claimed in pend.passed:
            if claimed is not None and play.priority(claimed) > play.priority(kind):
                ctx.breach("claim_priority",
                           f"seat {seat}'s {kind} was taken over seat {other}'s {claimed}, which has priority", seat)
    state = check_size(ctx, state, seat, 13, f"when claiming by {kind}")
    return claimed_as_found(state, found, seat), discarder


def add_meld(state: TableState, seat: int, meld: DeclaredMeld) -> TableState:
    """``state`` with ``meld`` declared by ``seat`` (like :func:`~replayer.state.evolve`)."""
    return evolve_seat(state, seat, melds=state.seat_now(seat).melds + (meld,))


@in_place
def chow(ctx: Ctx, state: TableState, p: ev.Chow) -> TableState:
    if not need_game(ctx, state):
        return state
    check_in_hand(ctx, state, p.seat, "chows")
    play = ctx.ruleset.play
    if play.chow == "none":
        ctx.breach("chow_not_allowed", f"seat {p.seat} chows; the ruleset has no chow", p.seat)
    state, discarder = claim_discard(ctx, state, p.seat, p.discard_seq, p.claimed_tile, "chow")
    if discarder is not None and p.seat != state.next_seat(discarder):
        ctx.breach("chow_wrong_seat",
                   f"seat {p.seat} chows seat {discarder}'s discard; only seat {state.next_seat(discarder)} "
                   "(the next player) may chow it", p.seat)
    rest = list(p.tiles)
    rest.remove(p.claimed_tile)
    for t in rest:
        state = take(ctx, state, p.seat, t)
    meld = DeclaredMeld("chow", tuple(p.tiles), ctx.seq, p.claimed_tile, discarder, p.discard_seq)
    state = add_meld(state, p.seat, meld)
    return evolve(state, phase="discard", turn=p.seat, pending=None, last_draw=None)


@in_place
def pung(ctx: Ctx, state: TableState, p: ev.Pung) -> TableState:
    if not need_game(ctx, state):
        return state
    check_in_hand(ctx, state, p.seat, f"pungs {p.tile}")
    state, discarder = claim_discard(ctx, state, p.seat, p.discard_seq, p.tile, "pung")
    state = take(ctx, state, p.seat, p.tile, 2)
    meld = DeclaredMeld("pung", (p.tile,) * 3, ctx.seq, p.tile, discarder, p.discard_seq)
    state = add_meld(state, p.seat, meld)
    return evolve(state, phase="discard", turn=p.seat, pending=None, last_draw=None)


@in_place
def kong(ctx: Ctx, state: TableState, p: ev.Kong) -> TableState:
    if not need_game(ctx, state):
        return state
    check_in_hand(ctx, state, p.seat, f"declares a {p.kind} kong")
    seat = p.seat
    if p.kind == "melded":
        assert p.discard_seq is not None and p.tile is not None  # the payload model requires them
        state, discarder = claim_discard(ctx, state, seat, p.discard_seq, p.tile, "kong")
        state = take(ctx, state, seat, p.tile, 3)
        meld = DeclaredMeld("kong", (p.tile,) * 4, ctx.seq, p.tile, discarder, p.discard_seq, "melded")
        state = add_meld(state, seat, meld)
    else:
        if state.phase == "dealing":
            if seat != state.dealer:
                ctx.breach("wrong_seat_to_act", f"seat {seat} declares a kong before the dealer's first discard", seat)
        elif in_phase(ctx, state, f"a {p.kind} kong", "discard"):
            check_turn(ctx, state, seat, f"declares a {p.kind} kong")
        state = check_size(ctx, state, seat, 14, f"when declaring a {p.kind} kong")
        st = state.seat_now(seat)
        if p.kind == "concealed":
            if p.tile is None:  # 暗杠 the record does not show: four of the seat's hidden tiles, face down
                state = take_hidden(ctx, state, seat, 4)
                meld = DeclaredMeld("kong", (), ctx.seq, kong_kind="concealed")
            else:
                state = take(ctx, state, seat, p.tile, 4)
                meld = DeclaredMeld("kong", (p.tile,) * 4, ctx.seq, kong_kind="concealed")
            state = add_meld(state, seat, meld)
        else:
            assert p.tile is not None  # the payload model requires it of an added kong
            k = next((i for i, m in enumerate(st.melds) if m.kind == "pung" and m.tiles[0] == p.tile), None)
            if k is None:
                ctx.breach("no_such_pung", f"seat {seat} adds {p.tile} to a kong without a pung of {p.tile}", seat)
                state = take(ctx, state, seat, p.tile)
                meld = DeclaredMeld("kong", (p.tile,) * 4, ctx.seq, kong_kind="added", added_seq=ctx.seq)
                state = add_meld(state, seat, meld)
            else:
                state = take(ctx, state, seat, p.tile)
                melds = state.seat_now(seat).melds
                meld = replace(melds[k], kind="kong", tiles=(p.tile,) * 4, kong_kind="added", added_seq=ctx.seq)
                state = evolve_seat(state, seat, melds=melds[:k] + (meld,) + melds[k + 1:])
    state = evolve_seat(state, seat,
                        replacements_due=state.seat_now(seat).replacements_due + ctx.ruleset.play.kong_replacements)
    robbable = p.kind in ctx.ruleset.play.robbable_kongs
    if not robbable:
        state = kong_payment(ctx, state, seat, p.tile)
    return evolve(
        state,
        phase="robbing" if robbable else "replacement",
        turn=seat,
        pending=None,
        pending_kong=PendingKong(ctx.seq, seat, p.tile, p.kind),
        last_draw=None,
    )


@in_place
def pass_(ctx: Ctx, state: TableState, p: ev.Pass) -> TableState:
    if not need_game(ctx, state):
        return state
    check_in_hand(ctx, state, p.seat, "passes a claim")
    pend = state.pending
    if pend is not None and state.phase == "claims" and p.discard_seq in (None, pend.seq):
        return evolve(state, pending=replace(pend, passed=pend.passed + ((p.seat, p.claim),)))
    return state
