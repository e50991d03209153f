"""Tile accounting and the wall (DESIGN.md §4): every tile that leaves the wall is counted
(``TableState.seen``, at most the ruleset's copies of each tile); seats hold what they were
dealt and drew; the wall — shared, or one per seat — knows when a seat has nothing left to
draw. Also the two table bookkeeping steps several handlers share: a discard taken by a
claim or a win, and a settlement applied to the seats' scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventlog import tiles as _tiles
from replayer.context import Ctx
from replayer.state import (
    Discard,
    ScoreEntry,
    SeatState,
    Settlement,
    TableState,
    Unsettled,
    WorkingSeat,
    WorkingState,
    evolve_seat,
    frozen,
    replace,
)

__all__ = [
    "count_seen", "seen_plus", "seen_plus_all", "with_seat", "receive", "take", "take_hidden",
    "wall_empty_for", "wall_empty", "wall_minus", "seat_wall_minus", "seat_wall_take", "check_size", "apply_settlement",
    "settle", "hidden_of", "seats_words", "mark_claimed", "claimed_as_found", "kong_payment",
]


def count_seen(ctx: Ctx, seen: list[int], tile: str, seat: int | None) -> None:
    """One more copy of ``tile`` counted out of the wall in ``seen`` (tile accounting: 42
    counts, changed in place — a working state's :meth:`~replayer.state.WorkingState.change_seen`);
    a copy beyond the tile set (``ctx.tile_copies``: the ruleset's) is a
    ``tile_count_exceeded`` finding."""
    i = _tiles.index(tile)
    nth = seen[i] = seen[i] + 1
    if nth > ctx.tile_copies[i]:
        _count_exceeded(ctx, tile, nth, seat)


def seen_plus(ctx: Ctx, seen: tuple[int, ...], tile: str, seat: int | None) -> tuple[int, ...]:
    """``seen`` with one more copy of ``tile`` counted out of the wall (:func:`count_seen`)."""
    return seen_plus_all(ctx, seen, (tile,), seat)


def seen_plus_all(ctx: Ctx, seen: tuple[int, ...], tiles: Sequence[str], seat: int | None) -> tuple[int, ...]:
    """:func:`count_seen` of each of ``tiles`` in turn (the same findings, in order), on a
    copy of ``seen``."""
    counted = list(seen)
    for tile in tiles:
        count_seen(ctx, counted, tile, seat)
    return tuple(counted)


def _count_exceeded(ctx: Ctx, tile: str, nth: int, seat: int | None) -> None:
    ctx.breach("tile_count_exceeded",
               f"copy #{nth} of {tile} appears, the tile set has {ctx.tile_copies[_tiles.index(tile)]}", seat)


def with_seat(seats: tuple[SeatState, ...], i: int, st: SeatState) -> tuple[SeatState, ...]:
    return seats[:i] + (st,) + seats[i + 1:]


def receive(st: WorkingSeat, tile: str | None) -> None:
    """The seat (changed in place) holds ``tile`` too, last in ``tiles``; None: a tile the
    record does not show (one more ``hidden``)."""
    if tile is None:
        st.hidden += 1
        return
    i = _tiles.index(tile)
    if i < 34:
        st.counts[i] += 1
    st.tiles.append(tile)


def take(ctx: Ctx, state: TableState, seat: int, tile: str, n: int = 1) -> TableState:
    """Remove ``n`` copies of ``tile`` from ``seat``'s concealed tiles. A copy not known to be
    held comes from the seat's hidden tiles (and is then counted out of the wall); with
    none left, it is a ``tile_not_held`` finding. Like :func:`~replayer.state.evolve`: a
    working state is changed in place and returned; a frozen one is never changed (a copy,
    or ``state`` itself when the seat holds no copy to take)."""
    old = state.seat_now(seat)
    if not old.hidden and tile not in old.tiles:
        ctx.breach("tile_not_held", f"seat {seat} does not hold {tile}", seat)
        return state
    w = state if state.__class__ is WorkingState else WorkingState.of(state)
    st = w.change_seat(seat)
    tiles = st.tiles
    for _ in range(n):
        if tile in tiles:
            tiles.remove(tile)  # the first copy received
            i = _tiles.index(tile)
            if i < 34:
                st.counts[i] -= 1
        elif st.hidden > 0:
            st.hidden -= 1
            count_seen(ctx, w.change_seen(), tile, seat)
        else:
            ctx.breach("tile_not_held", f"seat {seat} does not hold {tile}", seat)
            break
    return w if w is state else w.snapshot()


def take_hidden(ctx: Ctx, state: TableState, seat: int, n: int) -> TableState:
    """Remove ``n`` of ``seat``'s hidden tiles (``SeatState.hidden``): tiles the record does
    not show leave the hand unseen — a concealed kong the recorder cannot see (暗杠, four
    tiles face down; docs/events.md ``kong``). Nothing is counted out of the wall (tile
    accounting counts only the tiles the record shows). Fewer hidden tiles than ``n`` is a
    ``tile_not_held`` finding (the seat's tiles that are shown cannot be the unseen ones),
    and the hidden ones there are are taken."""
    st = state.seat_now(seat)
    if st.hidden < n:
        ctx.breach("tile_not_held", f"seat {seat} sets aside {n} unseen tiles but holds "
                                    f"{st.hidden} the record does not show", seat)
    if st.hidden == 0:
        return state
    return evolve_seat(state, seat, hidden=max(st.hidden - n, 0))


def wall_empty_for(state: TableState, play: Any, seat: int) -> bool:
    """True when ``seat`` has nothing left to draw: the shared wall is down to its dead
    part, or (per-seat walls) the seat's own wall is empty."""
    return wall_empty(state.seat_walls, state.wall_remaining, play, seat)


def wall_empty(seat_walls: tuple[int, ...] | None, wall_remaining: int, play: Any, seat: int) -> bool:
    if seat_walls is not None:
        return seat_walls[seat] <= 0
    return wall_remaining <= play.dead_wall


def wall_minus(remaining: int, n: int) -> int:
    """``TableState.wall_remaining`` after ``n`` more tiles leave the wall: never below 0. A
    log that takes more tiles than its wall holds has its finding where it happens
    (``wall_exhausted``, ``wall_mismatch`` for a short ``hand_started`` wall); the count then
    stays at 0 (a count of tiles, never negative — the replay service sends it unsigned)."""
    return remaining - n if remaining > n else 0


def seat_wall_minus(walls: tuple[int, int, int, int] | None, seat: int, n: int) -> tuple[int, int, int, int] | None:
    """Per-seat walls (``TableState.seat_walls``) after ``seat`` takes ``n`` tiles from its
    own: as :func:`wall_minus`, never below 0. None (a shared wall) stays None."""
    if walls is None:
        return None
    w = list(walls)
    w[seat] = wall_minus(w[seat], n)
    return (w[0], w[1], w[2], w[3])


def seat_wall_take(state: TableState, seat: int, n: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Per-seat walls with the wall known (``state.wall`` and ``state.seat_walls``; layout in
    docs/events.md ``hand_started``): ``(the next n tiles of seat's own wall, the wall
    without them)`` — fewer tiles when
    the seat has fewer left. Every tile a seat takes (deal, draw, kong or flower
    replacement) is the next of its own wall (Botzone's judge; PlayRules.wall_layout)."""
    assert state.wall is not None and state.seat_walls is not None
    start = sum(max(w, 0) for w in state.seat_walls[:seat])
    k = min(n, max(state.seat_walls[seat], 0))
    wall = state.wall
    return wall[start:start + k], wall[:start] + wall[start + k:]


def check_size(ctx: Ctx, state: TableState, seat: int, expected: int, when: str) -> TableState:
    """``seat``'s hand size (:attr:`~replayer.state.SeatState.hand_size`: a set counts 3)
    against ``expected`` (13 between turns, 14 to discard; ``when`` says which move, in
    words) plus the seat's ``miscount``. Another size is a ``wrong_tile_count`` finding (多张 /
    少张) and from then on this hand the seat's moves are judged by the tiles it holds
    (``miscount`` = size − expected): one mistake is one finding, not one at each later draw
    and discard. When the ruleset lists ``wrong_tile_count`` in ``PlayRules.dead_hand_faults``
    the seat is also 相公, a dead hand (``SeatState.dead_hand``: this event's seq) — it
    plays on but may not claim or win (docs/reference/rules/competition.md §A9; seed 000
    二十五 "手牌数多于或少于规定数量该情况不得和牌，处理为相公并机械出牌"). Like
    :func:`~replayer.state.evolve`: a working state is changed in place and returned, a frozen
    one is copied (``state`` itself when the size is right)."""
    st = state.seat_now(seat)
    size = st.hand_size
    if size == expected + st.miscount:
        return state
    miscount = size - expected
    dead = st.dead_hand is None and "wrong_tile_count" in ctx.play.dead_hand_faults
    off = f"{abs(miscount)} too many, 多张" if miscount > 0 else f"{abs(miscount)} short, 少张"
    if not miscount:
        off = "the rules' count again"
    since = f"; {expected + st.miscount} since its earlier wrong count" if st.miscount else ""
    then = ": 相公, a dead hand for the rest of the hand — it may not claim or win" if dead else ""
    ctx.breach("wrong_tile_count", f"seat {seat} holds {size} tiles {when} (sets count 3), expected {expected}"
                                   f"{since} ({off}){then}", seat)
    if dead:
        return evolve_seat(state, seat, miscount=miscount, dead_hand=ctx.seq)
    return evolve_seat(state, seat, miscount=miscount)


def apply_settlement(state: TableState, seq: int, kind: str, s: Settlement, reason: str) -> TableState:
    seats = tuple(replace(st, score=st.score + s.changes[i]) for i, st in enumerate(state.seats))
    entry = ScoreEntry(seq, kind, s.changes, reason, s.parts, s.payments)  # type: ignore[arg-type]
    return replace(state, seats=seats, score_log=state.score_log + (entry,))


def hidden_of(state: TableState, seats: Sequence[int]) -> tuple[int, ...]:
    """Those of ``seats`` (in order, once each) whose tiles the record partly hides
    (``SeatState.unseen``: hidden tiles, or a concealed kong shown face down)."""
    return tuple(s for s in sorted(set(seats)) if state.seats[s].unseen)


def seats_words(seats: Sequence[int]) -> str:
    """``seat 2`` / ``seats 0, 2, 3``."""
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(str(s) for s in seats)


def settle(ctx: Ctx, state: TableState, kind: str, s: Settlement, reason: str, *,
           winner: int | None = None) -> TableState:
    """``state`` after the settlement ``s`` (:func:`apply_settlement`), but for the components
    that read a hand the record hides (``s.reads``, :func:`hidden_of`; one seat's view,
    docs/reference/DESIGN.md §8): their amounts cannot be computed from the record, so they
    are left out of the scores and remembered (``TableState.unsettled``) until the report
    that covers them — the reported score of ``winner``'s win (None: no report does) — gives
    them (handlers/scores.py). A record that shows every hand settles ``s`` as it is."""
    unknown = [(r, h) for r in s.reads if (h := hidden_of(state, r.seats))]
    if not unknown:
        return apply_settlement(state, ctx.seq, kind, s, reason)
    names = [r.component for r, _h in unknown]
    ch = list(s.changes)
    for r, _h in unknown:
        for i in range(4):
            ch[i] -= r.changes[i]
    known = Settlement((ch[0], ch[1], ch[2], ch[3]), zero_sum=False,
                       parts=tuple(part for part in s.parts if part[0] not in names))
    seats = hidden_of(state, [x for _r, h in unknown for x in h])
    what = f"the {', '.join(names)} component{'s' if len(names) > 1 else ''} of event {ctx.seq}"
    state = apply_settlement(state, ctx.seq, kind, known,
                             f"{reason} (without {', '.join(names)}: hidden tiles of {seats_words(seats)})")
    return replace(state, unsettled=state.unsettled + (Unsettled(ctx.seq, state.hand_number, seats, what, winner),))


def mark_claimed(state: TableState, discard_seq: int, seat: int) -> TableState:
    """``state`` with the discard ``discard_seq`` taken by ``seat`` (its ``claimed_by``); the
    state itself when it is not in this hand's rivers or already taken. Like
    :func:`~replayer.state.evolve`: a working state is changed in place and returned."""
    return claimed_as_found(state, state.find_discard(discard_seq), seat)


def claimed_as_found(state: TableState, found: tuple[int, int, Discard] | None, seat: int) -> TableState:
    """:func:`mark_claimed` given ``state.find_discard(discard_seq)`` (``found``)."""
    if found is None or found[2].claimed_by is not None:
        return state
    s, k, d = found
    discards = list(state.seat_now(s).discards)
    discards[k] = replace(d, claimed_by=seat)
    return evolve_seat(state, s, discards=tuple(discards))


def kong_payment(ctx: Ctx, state: TableState, seat: int, tile: str | None) -> TableState:
    """``state`` after the ruleset's payment for ``seat``'s kong of ``tile`` (None: a concealed
    kong the record does not show, its meld face down with no tiles), if any."""
    meld = next((m for m in reversed(state.seat_now(seat).melds)
                 if m.kind == "kong" and (m.tiles[0] == tile if m.tiles else tile is None)), None)
    if meld is None:
        return state
    s = ctx.ruleset.settle_kong(frozen(state), seat, meld)
    if s is None:
        return state
    return settle(ctx, state, "kong", s, f"kong of {tile or 'an unseen tile'} by seat {seat}")
