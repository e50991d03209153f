"""One seat's view of the table: what seat ``seat`` may see of a :class:`TableState`
(docs/reference/DESIGN.md §6 replay, §8 "one seat's view") — the state-level counterpart of
the event-level rule :func:`eventlog.view.seat_view`.

Every reader that shows the table from one seat's side — ``paipu replay --seat`` (table,
``--json``), the stepper, the dashboard's replay page, the gRPC replay service's
``GetState``/``StepThrough`` with ``seat`` — passes the state through :func:`seat_state_view`
once, and shows what it returns; so no reader can forget a field.

座位视角: 他家手牌、他家刚摸的牌、牌墙、规则的记忆与各张牌的计数都不给看; ``seen`` 只计这个座位看得见的、
已离开牌墙的牌 (牌河、副露、亮出的花牌、翻出的鸟、自己的手牌; 留在牌墙上的精牌指示牌不计)."""

from __future__ import annotations

from eventlog import tiles as T
from replayer.state import EMPTY_COUNTS, DeclaredMeld, SeatState, TableState, replace

__all__ = ["seat_state_view", "visible_counts"]


def _face_down(m: DeclaredMeld) -> DeclaredMeld:
    return replace(m, tiles=()) if m.concealed else m


def _other(st: SeatState) -> SeatState:
    return replace(
        st,
        counts=EMPTY_COUNTS,
        tiles=(),
        hidden=st.concealed_size,
        melds=tuple(_face_down(m) for m in st.melds),
    )


def visible_counts(state: TableState, seat: int) -> tuple[int, ...]:
    """The 42-count vector (index per eventlog.tiles) of the tiles of this hand that seat
    ``seat`` (0..3) sees out of the wall: the table's tile accounting (``state.seen``, every
    tile identified as out of the wall — docs/reference/DESIGN.md §4) less what only another
    seat sees — its concealed tiles and the tiles of its concealed kongs (face down, §8). So
    every tile the accounting counts that lies face up is seen: rivers, declared sets,
    flowers set aside, tiles turned from the wall (Changsha's birds, changsha.md §5.1; an
    indicator that leaves the wall, ``PlayRules.indicator_leaves_wall``), and a tile that
    stays in the wall is not (Nanchang's face-up indicator, nanchang.md §4.1). The one count
    of what a seat sees: the seat view's ``seen`` — the same count as the tile accounting of
    that seat's own record (eventlog.view.seat_view of every event, replayed) — and the
    review's unseen copies (replayer/review.py) read it."""
    n = list(state.seen)
    for i, st in enumerate(state.seats):
        if i == seat:
            continue
        for t in st.tiles:
            n[T.index(t)] -= 1
        for m in st.melds:
            if m.concealed:
                for t in m.tiles:
                    n[T.index(t)] -= 1
    return tuple(k if k > 0 else 0 for k in n)  # never below 0 (a damaged log's state)


def seat_state_view(state: TableState, seat: int | None) -> TableState:
    """``state`` as seat ``seat`` (0..3) sees it; ``state`` itself when ``seat`` is None (all
    hands shown). The copy withholds: every other seat's concealed tiles (``tiles`` empty,
    ``counts`` zero, ``hidden`` their number) and the tiles of its concealed kongs
    (``tiles`` empty), another seat's last drawn tile (``last_draw.tile`` None), the wall
    and the dealt part not yet dealt (``wall``, ``deal_pool`` None), the ruleset's memory
    (``rule_memory`` None: it may hold what was dealt to every seat, e.g. Nanchang's; the
    public notes drawn from it, ``Ruleset.seat_notes``, are read from the whole table);
    ``seen`` counts only the tiles the seat sees (:func:`visible_counts`). Discards, declared
    sets, flowers, scores, wins and counts of tiles stay. A copy for showing, never for
    replaying on."""
    if seat is None:
        return state
    if not 0 <= seat < len(state.seats):
        raise ValueError(f"seat {seat} is not 0..{len(state.seats) - 1}")
    seats = tuple(st if i == seat else _other(st) for i, st in enumerate(state.seats))
    last = state.last_draw
    if last is not None and last.seat != seat and last.tile is not None:
        last = replace(last, tile=None)
    return replace(
        state,
        seats=seats,
        wall=None,
        deal_pool=None,
        last_draw=last,
        rule_memory=None,
        seen=visible_counts(state, seat),
    )
