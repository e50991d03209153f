"""The deterministic replayer: table state after every event, with findings (DESIGN.md §6).

``apply(state, event, ruleset, mode)`` is a pure function: the same state and event give
the same new state and findings, with no clock, randomness or unordered iteration.
``replay(events)`` folds it over a game's events; ``state_at(events, seq)`` jumps to one
event using cached snapshots.

The ruleset comes from the game_started event (``ruleset`` + ``ruleset_options``) unless
one is given (``ruleset=``: re-score the same game under another ruleset — what-if and
dispute review).

Modes (replayer.findings): **audit** applies every event as it happened and reports each
breach as a :class:`Finding`; **strict** raises :class:`ReplayError` at the first breach
and leaves the state as it was before the refused event.

There is one handler per event type (``_HANDLERS``, checked at import against
``eventlog.events.EVENT_TYPES``) and no catch-all branch.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from eventlog import events as ev
from eventlog import tiles as _tiles
from replayer.findings import MODES, Finding, Mode, ReplayError
from replayer.rules.base import MECHANICS_SOURCES, Ruleset, WinContext, get_ruleset
from replayer.state import (
    DeclaredMeld,
    Discard,
    HandResult,
    LastDraw,
    PendingDiscard,
    PendingKong,
    ReportedScore,
    ScoreEntry,
    SeatState,
    Settlement,
    TableState,
    WinRecord,
    fast_init,
    replace,
)

__all__ = ["ReplayStep", "ReplayResult", "apply", "replay", "run", "state_at", "clear_snapshot_cache"]

SNAPSHOT_EVERY = 64


@fast_init
@dataclass(frozen=True)
class ReplayStep:
    """One replayed event: the event, the state after it, and its findings."""

    event: Any
    state: TableState
    findings: tuple[Finding, ...]


@fast_init
@dataclass(frozen=True)
class ReplayResult:
    """A whole replay: the final state and every finding in event order."""

    state: TableState
    findings: tuple[Finding, ...]


# ----------------------------------------------------------------------------------------
# public functions


def apply(
    state: TableState, event: Any, ruleset: Ruleset | None = None, mode: Mode = "audit"
) -> tuple[TableState, tuple[Finding, ...]]:
    """Apply one event to ``state``.

    ``event``: a StoredEvent / NewEvent (or a dict parsed with eventlog.events.parse_event);
    its ``seq`` is taken from the envelope when present, else ``state.seq + 1``.
    ``ruleset``: None → the game's own (from game_started). Returns the new state and the
    findings of this event. Raises :class:`ReplayError` (strict mode) at a breach,
    :class:`replayer.findings.RulesetError` for an unknown ruleset / bad options,
    ValueError for an unknown mode."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if isinstance(event, (dict, str)):
        seq_hint = event.get("seq") if isinstance(event, dict) else None
        event = ev.parse_event(event)
        seq = seq_hint if isinstance(seq_hint, int) else state.seq + 1
    else:
        seq = getattr(event, "seq", None)
        if seq is None:
            seq = state.seq + 1
    payload = event.payload
    rs = ruleset or _ruleset_for(state, payload)
    ctx = _Ctx(seq, state, rs, mode)
    if seq != state.seq + 1:
        ctx.breach("event_out_of_order", f"event seq {seq} follows seq {state.seq}")
    # Optional ruleset hooks (duck-typed, see replayer/rules/nanchang/play.py): check_event
    # names ruleset-specific breaches before the shared handler runs; observe updates what
    # the ruleset remembers (TableState.rule_memory) once the event is applied. Both are
    # methods of the ruleset's class (looked up once per class).
    has_check, has_observe = _hooks(type(rs))
    if has_check:
        check = rs.check_event  # type: ignore[union-attr]
        for rule_id, message, seat in check(state, payload):
            ctx.breach(rule_id, message, seat)
    new_state = _HANDLERS[event.type](ctx, state, payload)
    if has_observe:
        new_state, later = rs.observe(state, payload, new_state)  # type: ignore[union-attr]
        for rule_id, message, seat in later:
            ctx.breach(rule_id, message, seat)
    game_id = getattr(event, "game_id", None) or new_state.game_id
    return replace(new_state, seq=seq, game_id=game_id), tuple(ctx.findings)


def replay(
    events: Iterable[Any], *, mode: Mode = "audit", ruleset: Ruleset | None = None
) -> Iterator[ReplayStep]:
    """Replay a game's events in order, yielding a :class:`ReplayStep` per event.
    Raises :class:`ReplayError` in strict mode at the first breach."""
    state = TableState()
    for e in events:
        state, findings = apply(state, e, ruleset, mode)
        yield ReplayStep(e, state, findings)


def run(events: Iterable[Any], *, mode: Mode = "audit", ruleset: Ruleset | None = None) -> ReplayResult:
    """Replay a whole game: the final state and all findings (what ``paipu verify`` needs)."""
    state = TableState()
    found: list[Finding] = []
    for e in events:
        state, findings = apply(state, e, ruleset, mode)
        if findings:
            found.extend(findings)
    return ReplayResult(state, tuple(found))


_SNAPSHOTS: OrderedDict[tuple[Any, ...], TableState] = OrderedDict()
_SNAPSHOT_LIMIT = 512


def clear_snapshot_cache() -> None:
    _SNAPSHOTS.clear()


def state_at(
    events: Sequence[Any],
    seq: int,
    *,
    mode: Mode = "audit",
    ruleset: Ruleset | None = None,
    every: int = SNAPSHOT_EVERY,
) -> TableState:
    """The state right after the event ``seq`` of a game (``events`` in seq order).

    Snapshots are kept every ``every`` events in a process-wide LRU cache keyed by game id
    and the chain hash of the event (StoredEvent.hash; for events without a hash, a
    SHA-256 chain over their canonical encoding), so a changed history never hits a stale
    snapshot. Raises KeyError when no event has ``seq``."""
    idx = next((i for i, e in enumerate(events) if _seq_of(e, i) == seq), None)
    if idx is None:
        raise KeyError(f"no event with seq {seq}")
    rs_key: Any = None
    try:
        hash(ruleset)
        rs_key = ruleset
    except TypeError:
        pass
    cacheable = ruleset is None or rs_key is not None
    digests = _digests(events, idx)
    game_id = getattr(events[0], "game_id", "") if events else ""
    base = (game_id, mode, rs_key if ruleset is not None else None)

    start, state = 0, TableState()
    if cacheable:
        k = idx
        while k >= 0:
            if (k + 1) % every == 0:
                hit = _SNAPSHOTS.get(base + (k, digests[k]))
                if hit is not None:
                    _SNAPSHOTS.move_to_end(base + (k, digests[k]))
                    start, state = k + 1, hit
                    break
            k -= 1
    rs = ruleset
    for i in range(start, idx + 1):
        state, _ = apply(state, events[i], rs, mode)
        if cacheable and (i + 1) % every == 0:
            _SNAPSHOTS[base + (i, digests[i])] = state
            if len(_SNAPSHOTS) > _SNAPSHOT_LIMIT:
                _SNAPSHOTS.popitem(last=False)
    return state


def _seq_of(e: Any, i: int) -> int:
    s = getattr(e, "seq", None)
    return s if isinstance(s, int) else i


def _digests(events: Sequence[Any], upto: int) -> list[str]:
    out: list[str] = []
    prev = ev.GENESIS_HASH
    for i in range(upto + 1):
        e = events[i]
        h = getattr(e, "hash", "") or ""
        if not h:
            body = ev.canonical_bytes({"type": e.type, "payload": e.payload.model_dump(mode="json"),
                                       "event_id": getattr(e, "event_id", "")})
            h = hashlib.sha256(prev.encode() + b"\n" + body).hexdigest()
        out.append(h)
        prev = h
    return out


@lru_cache(maxsize=None)
def _hooks(ruleset_type: type) -> tuple[bool, bool]:
    """Whether a ruleset class has the optional ``check_event`` / ``observe`` hooks."""
    return (getattr(ruleset_type, "check_event", None) is not None,
            getattr(ruleset_type, "observe", None) is not None)


@lru_cache(maxsize=64)
def _cached_ruleset(ruleset_id: str, options_json: str) -> Ruleset:
    return get_ruleset(ruleset_id, json.loads(options_json))


def _ruleset_for(state: TableState, payload: ev.Payload) -> Ruleset | None:
    if isinstance(payload, ev.GameStarted):
        return _cached_ruleset(payload.ruleset, json.dumps(payload.ruleset_options, sort_keys=True))
    if state.ruleset_id is None:
        return None
    # A game's states share one ruleset_options tuple (copy-on-write), so the last lookup
    # is reused while the same tuple object comes back (held here: its id cannot be reused).
    global _last_ruleset
    last = _last_ruleset
    if last is not None and last[1] is state.ruleset_options and last[0] == state.ruleset_id:
        return last[2]
    rs = _cached_ruleset(state.ruleset_id, json.dumps(dict(state.ruleset_options), sort_keys=True))
    _last_ruleset = (state.ruleset_id, state.ruleset_options, rs)
    return rs


_last_ruleset: tuple[str, tuple[tuple[str, Any], ...], Ruleset] | None = None


# ----------------------------------------------------------------------------------------
# per-event context


class _Ctx:
    """Collects the findings of one event; raises at the first one in strict mode."""

    __slots__ = ("seq", "state", "rs", "mode", "findings")

    def __init__(self, seq: int, state: TableState, ruleset: Ruleset | None, mode: Mode) -> None:
        self.seq = seq
        self.state = state
        self.rs = ruleset
        self.mode = mode
        self.findings: list[Finding] = []

    @property
    def ruleset(self) -> Ruleset:
        assert self.rs is not None  # guarded by _need_game
        return self.rs

    def breach(self, rule_id: str, message: str, seat: int | None = None) -> None:
        source = self.rs.rule_source(rule_id) if self.rs else MECHANICS_SOURCES.get(rule_id, "docs/reference/DESIGN.md §4")
        f = Finding(self.seq, rule_id, message, source, seat, self.state.hand_number)
        if self.mode == "strict":
            raise ReplayError(f)
        self.findings.append(f)


Handler = Callable[[_Ctx, TableState, Any], TableState]


def _need_game(ctx: _Ctx, state: TableState) -> bool:
    if state.phase == "pregame" or ctx.rs is None:
        ctx.breach("game_not_started", "no game_started event before this event")
        return False
    return True


def _in_phase(ctx: _Ctx, state: TableState, what: str, *phases: str) -> bool:
    if state.phase not in phases:
        ctx.breach("event_out_of_phase", f"{what} is not possible in phase {state.phase!r} "
                                         f"(expected {' or '.join(phases)})")
        return False
    return True


def _check_turn(ctx: _Ctx, state: TableState, seat: int, what: str) -> None:
    if state.turn is not None and seat != state.turn:
        ctx.breach("wrong_seat_to_act", f"seat {seat} {what}, but it is seat {state.turn}'s turn", seat)


# ----------------------------------------------------------------------------------------
# tile helpers


def _seen_plus(ctx: _Ctx, seen: tuple[int, ...], tile: str, seat: int | None) -> tuple[int, ...]:
    """``seen`` with one more copy of ``tile`` counted out of the wall (tile accounting);
    a copy beyond the tile set is a ``tile_count_exceeded`` finding."""
    i = _tiles.index(tile)
    nth = seen[i] + 1
    copies = ctx.ruleset.play.tile_copies[i]
    if nth > copies:
        ctx.breach("tile_count_exceeded",
                   f"copy #{nth} of {tile} appears, the tile set has {copies}", seat)
    return seen[:i] + (nth,) + seen[i + 1:]


def _with_seat(seats: tuple[SeatState, ...], i: int, st: SeatState) -> tuple[SeatState, ...]:
    return seats[:i] + (st,) + seats[i + 1:]


def _add_tile(seat_state: SeatState, tile: str | None) -> SeatState:
    if tile is None:
        return replace(seat_state, hidden=seat_state.hidden + 1)
    i = _tiles.index(tile)
    counts = seat_state.counts
    if i < 34:
        counts = counts[:i] + (counts[i] + 1,) + counts[i + 1:]
    return replace(seat_state, counts=counts, tiles=seat_state.tiles + (tile,))


def _remove(ctx: _Ctx, st: SeatState, seen: tuple[int, ...], seat: int, tile: str, n: int,
            **also: Any) -> tuple[SeatState, tuple[int, ...]]:
    """(seat state, seen vector) after removing ``n`` copies of ``tile`` (see :func:`_take`)
    and setting the seat fields ``also``. ``st`` itself when nothing changes."""
    tiles, counts, hidden = st.tiles, st.counts, st.hidden
    for _ in range(n):
        if tile in tiles:
            k = tiles.index(tile)
            tiles = tiles[:k] + tiles[k + 1:]
            i = _tiles.index(tile)
            if i < 34:
                counts = counts[:i] + (counts[i] - 1,) + counts[i + 1:]
        elif hidden > 0:
            hidden -= 1
            seen = _seen_plus(ctx, seen, tile, seat)
        else:
            ctx.breach("tile_not_held", f"seat {seat} does not hold {tile}", seat)
            break
    if tiles is st.tiles and hidden == st.hidden and not also:
        return st, seen
    return replace(st, tiles=tiles, counts=counts, hidden=hidden, **also), seen


def _take(ctx: _Ctx, state: TableState, seat: int, tile: str, n: int = 1) -> TableState:
    """Remove ``n`` copies of ``tile`` from ``seat``'s concealed tiles. A copy not known to be
    held comes from the seat's hidden tiles (and is then counted out of the wall); with
    none left, it is a ``tile_not_held`` finding."""
    old = state.seats[seat]
    st, seen = _remove(ctx, old, state.seen, seat, tile, n)
    if st is old:
        return state
    return replace(state, seats=_with_seat(state.seats, seat, st), seen=seen)


def _wall_empty_for(state: TableState, play: Any, seat: int) -> bool:
    """True when ``seat`` has nothing left to draw: the shared wall is down to its dead
    part, or (per-seat walls) the seat's own wall is empty."""
    return _wall_empty(state.seat_walls, state.wall_remaining, play, seat)


def _wall_empty(seat_walls: tuple[int, ...] | None, wall_remaining: int, play: Any, seat: int) -> bool:
    if seat_walls is not None:
        return seat_walls[seat] <= 0
    return wall_remaining <= play.dead_wall


def _seat_wall_minus(walls: tuple[int, int, int, int] | None, seat: int, n: int) -> tuple[int, int, int, int] | None:
    if walls is None:
        return None
    w = list(walls)
    w[seat] -= n
    return (w[0], w[1], w[2], w[3])


def _check_size(ctx: _Ctx, state: TableState, seat: int, expected: int, when: str) -> None:
    size = state.seats[seat].hand_size
    if size != expected:
        ctx.breach("wrong_tile_count",
                   f"seat {seat} holds {size} tiles {when} (sets count 3), expected {expected}", seat)


def _apply_settlement(state: TableState, seq: int, kind: str, s: Settlement, reason: str) -> TableState:
    seats = tuple(replace(st, score=st.score + s.changes[i]) for i, st in enumerate(state.seats))
    entry = ScoreEntry(seq, kind, s.changes, reason)  # type: ignore[arg-type]
    return replace(state, seats=seats, score_log=state.score_log + (entry,))  # type: ignore[arg-type]


# ----------------------------------------------------------------------------------------
# game and hand boundaries


def _game_started(ctx: _Ctx, state: TableState, p: ev.GameStarted) -> TableState:
    if state.phase != "pregame":
        ctx.breach("event_out_of_phase", "a second game_started in one game stream")
    rs = ctx.ruleset
    seats = tuple(SeatState(score=p.initial_scores[i]) for i in range(4))
    return replace(
        TableState(),
        game_id=state.game_id,
        ruleset_id=rs.id,
        ruleset_options=tuple(sorted(rs.options_dict().items())),
        players=tuple(p.players),
        initial_scores=tuple(p.initial_scores),  # type: ignore[arg-type]
        phase="idle",
        seats=seats,  # type: ignore[arg-type]
    )


def _hand_started(ctx: _Ctx, state: TableState, p: ev.HandStarted) -> TableState:
    if not _need_game(ctx, state):
        return state
    rs = ctx.ruleset
    if state.phase not in ("idle",):
        ctx.breach("hand_not_finished", f"hand_started while the previous hand is in phase {state.phase!r}")
    if state.first_dealer is None:  # the first hand anchors the rotation
        state = replace(state, first_dealer=p.dealer, first_prevalent_wind=p.prevalent_wind)
    plan = rs.next_hand(state)
    if plan is None:
        ctx.breach("game_over", f"hand {p.hand_number} starts after the end of the game "
                                f"({len(state.hands)} hands played)")
    elif (plan.dealer, plan.prevalent_wind) != (p.dealer, p.prevalent_wind):
        ctx.breach("dealer_rotation",
                   f"hand {p.hand_number}: dealer {p.dealer} in prevalent wind {p.prevalent_wind}, "
                   f"expected dealer {plan.dealer} in {plan.prevalent_wind}")
    play = rs.play
    total = play.total_tiles
    deal_total = play.dealer_tiles + 3 * play.other_tiles
    wall: tuple[str, ...] | None = None
    pool: tuple[int, ...] | None = None
    if p.wall:
        counts = [0] * 42
        for t in p.wall:
            counts[_tiles.index(t)] += 1
        if tuple(counts) != play.tile_copies:
            diff = [
                f"{_tiles.code(i)}: {counts[i]} (expected {play.tile_copies[i]})"
                for i in range(42) if counts[i] != play.tile_copies[i]
            ]
            ctx.breach("wall_mismatch", f"the wall is not the ruleset's tile set: {', '.join(diff[:6])}")
        total = len(p.wall)
        if play.wall_layout == "shared":  # per-seat walls: the tile set is checked, not the order
            pc = [0] * 42
            for t in p.wall[:deal_total]:
                pc[_tiles.index(t)] += 1
            pool = tuple(pc)
            wall = tuple(p.wall[deal_total:])
    seats = tuple(
        SeatState(score=st.score, wind=rs.seat_wind(i, p.dealer)) for i, st in enumerate(state.seats)
    )
    return replace(
        state,
        phase="dealing",
        hand_number=p.hand_number,
        hands_started=state.hands_started + 1,
        dealer=p.dealer,
        prevalent_wind=p.prevalent_wind,
        seats=seats,  # type: ignore[arg-type]
        wall=wall,
        wall_remaining=total,
        seat_walls=(total // 4,) * 4 if play.wall_layout == "per_seat" else None,  # type: ignore[arg-type]
        deal_pool=pool,
        seen=(0,) * 42,
        turn=p.dealer,
        pending=None,
        pending_kong=None,
        last_draw=None,
        wins=(),
        false_win=False,
        exhaustive_draw=False,
        reported=(),
        wildcard_indicator=None,
        hand_start_scores=state.scores,
    )


def _hand_ended(ctx: _Ctx, state: TableState, p: ev.HandEnded) -> TableState:
    if not _need_game(ctx, state):
        return state
    if state.phase in ("idle", "game_over", "pregame"):
        ctx.breach("event_out_of_phase", "hand_ended without a hand in progress")
        return state
    if state.phase != "hand_over" and not state.false_win:
        ctx.breach("hand_not_finished", f"hand {p.hand_number} ended in phase {state.phase!r}, "
                                        "without a win or an exhaustive draw")
    if p.hand_number != state.hand_number:
        ctx.breach("hand_number_mismatch",
                   f"hand_ended names hand {p.hand_number}, the hand in progress is {state.hand_number}")
    winners = tuple(w.seat for w in state.wins if w.legal)
    changes = tuple(a - b for a, b in zip(state.scores, state.hand_start_scores))
    result = HandResult(
        hand_number=state.hand_number if state.hand_number is not None else p.hand_number,
        dealer=state.dealer if state.dealer is not None else 0,
        prevalent_wind=state.prevalent_wind or "F1",
        winners=winners,
        exhaustive_draw=state.exhaustive_draw,
        changes=changes,  # type: ignore[arg-type]
    )
    new = replace(state, phase="idle", hands=state.hands + (result,), turn=None, pending=None,
                  pending_kong=None, last_draw=None)
    return replace(new, game_over=ctx.ruleset.next_hand(new) is None)


def _game_ended(ctx: _Ctx, state: TableState, p: ev.GameEnded) -> TableState:
    if not _need_game(ctx, state):
        return state
    if state.phase not in ("idle",):
        ctx.breach("hand_not_finished", f"game_ended in phase {state.phase!r}")
    if p.final_scores is not None and tuple(p.final_scores) != state.scores:
        ctx.breach("reported_score_mismatch",
                   f"reported final scores {list(p.final_scores)}, computed {list(state.scores)}")
    return replace(state, phase="game_over", turn=None, pending=None, pending_kong=None)


# ----------------------------------------------------------------------------------------
# dealing, drawing, flowers, discards


def _tiles_dealt(ctx: _Ctx, state: TableState, p: ev.TilesDealt) -> TableState:
    if not _need_game(ctx, state) or not _in_phase(ctx, state, "tiles_dealt", "dealing"):
        return state
    play = ctx.ruleset.play
    st = state.seats[p.seat]
    if st.dealt:
        ctx.breach("deal_mismatch", f"seat {p.seat} is dealt twice", p.seat)
    allowed = {play.dealer_tiles, play.other_tiles} if p.seat == state.dealer else {play.other_tiles}
    if len(p.tiles) not in allowed:
        want = " or ".join(str(n) for n in sorted(allowed))
        ctx.breach("deal_mismatch", f"seat {p.seat} is dealt {len(p.tiles)} tiles, expected {want}", p.seat)
    if state.deal_pool is not None:
        pool = list(state.deal_pool)
        for t in p.tiles:
            i = _tiles.index(t)
            if pool[i] > 0:
                pool[i] -= 1
            else:
                ctx.breach("wall_mismatch", f"seat {p.seat} is dealt {t}, which is not in the dealt part of the wall", p.seat)
        state = replace(state, deal_pool=tuple(pool))
    seen = state.seen
    st = state.seats[p.seat]
    counts = list(st.counts)
    for t in p.tiles:
        seen = _seen_plus(ctx, seen, t, p.seat)
        i = _tiles.index(t)
        if i < 34:
            counts[i] += 1
    st = replace(st, counts=tuple(counts), tiles=st.tiles + tuple(p.tiles), dealt=True)
    return replace(state, seats=_with_seat(state.seats, p.seat, st), seen=seen,
                   wall_remaining=state.wall_remaining - len(p.tiles),
                   seat_walls=_seat_wall_minus(state.seat_walls, p.seat, len(p.tiles)))


def _tile_drawn(ctx: _Ctx, state: TableState, p: ev.TileDrawn) -> TableState:
    if not _need_game(ctx, state):
        return state
    play = ctx.ruleset.play
    seat = p.seat
    st = state.seats[seat]
    replacement = p.source != "wall"
    ph = state.phase
    after_kong = False
    close_kong: PendingKong | None = None
    if replacement:
        if ph in ("replacement", "robbing"):
            _check_turn(ctx, state, seat, f"draws a {p.source.replace('_', ' ')}")
            if ph == "robbing" or (state.pending_kong and state.pending_kong.seat == seat):
                close_kong = state.pending_kong
        elif ph != "dealing":
            _in_phase(ctx, state, f"a {p.source.replace('_', ' ')} draw", "replacement", "robbing", "dealing")
        if st.replacements_due <= 0:
            ctx.breach("unexpected_replacement",
                       f"seat {seat} draws a {p.source.replace('_', ' ')} without a kong or flower to replace", seat)
        else:
            st = replace(st, replacements_due=st.replacements_due - 1)
        ld = state.last_draw
        after_kong = p.source == "kong_replacement" or (
            ld is not None and ld.seat == seat and ld.after_kong and ph != "dealing"
        )
    else:
        if ph == "claims":
            _check_turn(ctx, state, seat, "draws from the wall")
        elif ph == "dealing":
            if seat != state.dealer or st.concealed_size != play.other_tiles:
                ctx.breach("event_out_of_phase", f"seat {seat} draws from the wall during the deal", seat)
        else:
            _in_phase(ctx, state, "a draw from the wall", "claims")
        if st.replacements_due > 0:
            ctx.breach("replacement_missing",
                       f"seat {seat} draws from the wall while a replacement draw is due", seat)
        if ph != "dealing":
            _check_size(ctx, state, seat, 13, "before drawing")
    # the wall
    tile = p.tile
    if _wall_empty_for(state, play, seat):
        ctx.breach("wall_exhausted", f"seat {seat} draws from an empty wall", seat)
    wall = state.wall
    pool = state.deal_pool
    if wall is not None:
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
    seen = state.seen
    if tile is not None:
        seen = _seen_plus(ctx, seen, tile, seat)
        if _tiles.is_flower(tile) and not play.flowers:
            ctx.breach("flowers_not_used", f"seat {seat} draws flower {tile}; the ruleset has no flowers", seat)
    wall_remaining = state.wall_remaining - 1
    seat_walls = _seat_wall_minus(state.seat_walls, seat, 1)
    seats = _with_seat(state.seats, seat, _add_tile(st, tile))
    last = LastDraw(ctx.seq, seat, tile, p.source, after_kong=after_kong,
                    last_of_wall=_wall_empty(seat_walls, wall_remaining, play, (seat + 1) % 4))
    if close_kong is not None and close_kong.kind == "added":
        state = replace(state, seats=seats, seen=seen, wall_remaining=wall_remaining, seat_walls=seat_walls)
        state = _kong_payment(ctx, state, close_kong.seat, close_kong.tile)
        seats = state.seats
    return replace(
        state,
        seats=seats,
        seen=seen,
        wall_remaining=wall_remaining,
        seat_walls=seat_walls,
        wall=wall,
        deal_pool=pool,
        phase="dealing" if ph == "dealing" else "discard",
        turn=state.dealer if ph == "dealing" else seat,
        pending=None,
        pending_kong=None,
        last_draw=last,
    )


def _flower_replaced(ctx: _Ctx, state: TableState, p: ev.FlowerReplaced) -> TableState:
    if not _need_game(ctx, state):
        return state
    if not ctx.ruleset.play.flowers:
        ctx.breach("flowers_not_used", f"seat {p.seat} sets aside {p.flower}; the ruleset has no flowers", p.seat)
    ph = state.phase
    if ph == "discard":
        _check_turn(ctx, state, p.seat, f"sets aside flower {p.flower}")
    elif ph != "dealing":
        _in_phase(ctx, state, "a flower replacement", "dealing", "discard")
    state = _take(ctx, state, p.seat, p.flower)
    st = state.seats[p.seat]
    st = replace(st, flowers=st.flowers + (p.flower,), replacements_due=st.replacements_due + 1)
    state = state.with_seat(p.seat, st)
    if ph == "dealing":
        return state
    return replace(state, phase="replacement", turn=p.seat)


def _tile_discarded(ctx: _Ctx, state: TableState, p: ev.TileDiscarded) -> TableState:
    if not _need_game(ctx, state):
        return state
    play = ctx.ruleset.play
    seat = p.seat
    if state.phase == "dealing":
        if seat != state.dealer:
            ctx.breach("wrong_seat_to_act", f"seat {seat} discards first, the dealer is seat {state.dealer}", seat)
        undealt = [i for i in range(4) if not state.seats[i].dealt]
        if undealt:
            ctx.breach("deal_mismatch", f"the dealer discards before seats {undealt} were dealt", seat)
    elif _in_phase(ctx, state, "a discard", "discard"):
        _check_turn(ctx, state, seat, f"discards {p.tile}")
    if state.seats[seat].replacements_due > 0:
        ctx.breach("replacement_missing", f"seat {seat} discards while a replacement draw is due", seat)
    _check_size(ctx, state, seat, 14, "before discarding")
    st = state.seats[seat]
    st, seen = _remove(ctx, st, state.seen, seat, p.tile, 1, discards=st.discards + (Discard(ctx.seq, p.tile),))
    return replace(
        state,
        seats=_with_seat(state.seats, seat, st),
        seen=seen,
        phase="claims",
        turn=(seat + 1) % 4,
        pending=PendingDiscard(ctx.seq, seat, p.tile, last_of_wall=_wall_empty_for(state, play, (seat + 1) % 4)),
        pending_kong=None,
        last_draw=None,
    )


# ----------------------------------------------------------------------------------------
# claims


def _claim(ctx: _Ctx, state: TableState, seat: int, discard_seq: int, tile: str, kind: str) -> tuple[TableState, int | None]:
    """Checks shared by chow, pung, melded kong: the claim takes the latest discard, still
    open, of another seat, of the named tile, and nothing of higher priority was passed
    over. Marks the discard claimed. Returns (state, discarder seat or None)."""
    pend = state.pending
    found = state.find_discard(discard_seq)
    discarder: int | None = None
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
    real = state.find_discard(discard_seq)
    if real is not None and real[2].tile != tile:
        ctx.breach("claim_tile_mismatch",
                   f"seat {seat} claims {tile} but discard {discard_seq} is {real[2].tile}", seat)
    play = ctx.ruleset.play
    if pend is not None and pend.seq == discard_seq:
        for other, claimed in pend.passed:
            if claimed is not None and play.priority(claimed) > play.priority(kind):
                ctx.breach("claim_priority",
                           f"seat {seat}'s {kind} was taken over seat {other}'s {claimed}, which has priority", seat)
    _check_size(ctx, state, seat, 13, f"when claiming by {kind}")
    return _mark_claimed(state, discard_seq, seat), discarder


def _add_meld(state: TableState, seat: int, meld: DeclaredMeld) -> TableState:
    st = state.seats[seat]
    return state.with_seat(seat, replace(st, melds=st.melds + (meld,)))


def _chow(ctx: _Ctx, state: TableState, p: ev.Chow) -> TableState:
    if not _need_game(ctx, state):
        return state
    play = ctx.ruleset.play
    if play.chow == "none":
        ctx.breach("chow_not_allowed", f"seat {p.seat} chows; the ruleset has no chow", p.seat)
    state, discarder = _claim(ctx, state, p.seat, p.discard_seq, p.claimed_tile, "chow")
    if discarder is not None and p.seat != (discarder + 1) % 4:
        ctx.breach("chow_wrong_seat",
                   f"seat {p.seat} chows seat {discarder}'s discard; only seat {(discarder + 1) % 4} "
                   "(the next player) may chow it", p.seat)
    rest = list(p.tiles)
    rest.remove(p.claimed_tile)
    for t in rest:
        state = _take(ctx, state, p.seat, t)
    meld = DeclaredMeld("chow", tuple(p.tiles), ctx.seq, p.claimed_tile, discarder, p.discard_seq)
    state = _add_meld(state, p.seat, meld)
    return replace(state, phase="discard", turn=p.seat, pending=None, last_draw=None)


def _pung(ctx: _Ctx, state: TableState, p: ev.Pung) -> TableState:
    if not _need_game(ctx, state):
        return state
    state, discarder = _claim(ctx, state, p.seat, p.discard_seq, p.tile, "pung")
    state = _take(ctx, state, p.seat, p.tile, 2)
    meld = DeclaredMeld("pung", (p.tile,) * 3, ctx.seq, p.tile, discarder, p.discard_seq)
    state = _add_meld(state, p.seat, meld)
    return replace(state, phase="discard", turn=p.seat, pending=None, last_draw=None)


def _kong(ctx: _Ctx, state: TableState, p: ev.Kong) -> TableState:
    if not _need_game(ctx, state):
        return state
    seat = p.seat
    if p.kind == "melded":
        assert p.discard_seq is not None  # the payload model requires it
        state, discarder = _claim(ctx, state, seat, p.discard_seq, p.tile, "kong")
        state = _take(ctx, state, seat, p.tile, 3)
        meld = DeclaredMeld("kong", (p.tile,) * 4, ctx.seq, p.tile, discarder, p.discard_seq, "melded")
        state = _add_meld(state, seat, meld)
    else:
        if state.phase == "dealing":
            if seat != state.dealer:
                ctx.breach("wrong_seat_to_act", f"seat {seat} declares a kong before the dealer's first discard", seat)
        elif _in_phase(ctx, state, f"a {p.kind} kong", "discard"):
            _check_turn(ctx, state, seat, f"declares a {p.kind} kong")
        _check_size(ctx, state, seat, 14, f"when declaring a {p.kind} kong")
        st = state.seats[seat]
        if p.kind == "concealed":
            state = _take(ctx, state, seat, p.tile, 4)
            meld = DeclaredMeld("kong", (p.tile,) * 4, ctx.seq, kong_kind="concealed")
            state = _add_meld(state, seat, meld)
        else:
            k = next((i for i, m in enumerate(st.melds) if m.kind == "pung" and m.tiles[0] == p.tile), None)
            if k is None:
                ctx.breach("no_such_pung", f"seat {seat} adds {p.tile} to a kong without a pung of {p.tile}", seat)
                state = _take(ctx, state, seat, p.tile)
                meld = DeclaredMeld("kong", (p.tile,) * 4, ctx.seq, kong_kind="added", added_seq=ctx.seq)
                state = _add_meld(state, seat, meld)
            else:
                state = _take(ctx, state, seat, p.tile)
                st = state.seats[seat]
                old = st.melds[k]
                meld = replace(old, kind="kong", tiles=(p.tile,) * 4, kong_kind="added", added_seq=ctx.seq)
                state = state.with_seat(seat, replace(st, melds=st.melds[:k] + (meld,) + st.melds[k + 1:]))
    st = state.seats[seat]
    state = state.with_seat(seat, replace(st, replacements_due=st.replacements_due + 1))
    robbable = p.kind in ctx.ruleset.play.robbable_kongs
    if not robbable:
        state = _kong_payment(ctx, state, seat, p.tile)
    return replace(
        state,
        phase="robbing" if robbable else "replacement",
        turn=seat,
        pending=None,
        pending_kong=PendingKong(ctx.seq, seat, p.tile, p.kind),
        last_draw=None,
    )


def _kong_payment(ctx: _Ctx, state: TableState, seat: int, tile: str) -> TableState:
    meld = next((m for m in reversed(state.seats[seat].melds) if m.kind == "kong" and m.tiles[0] == tile), None)
    if meld is None:
        return state
    s = ctx.ruleset.settle_kong(state, seat, meld)
    if s is None:
        return state
    return _apply_settlement(state, ctx.seq, "kong", s, f"kong of {tile} by seat {seat}")


def _pass(ctx: _Ctx, state: TableState, p: ev.Pass) -> TableState:
    if not _need_game(ctx, state):
        return state
    pend = state.pending
    if pend is not None and state.phase == "claims" and p.discard_seq in (None, pend.seq):
        return replace(state, pending=replace(pend, passed=pend.passed + ((p.seat, p.claim),)))
    return state


# ----------------------------------------------------------------------------------------
# wins and the end of a hand


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


def _self_drawn_source(ctx: _Ctx, state: TableState, p: ev.WinDeclared) -> _WinSource:
    seat, st = p.seat, state.seats[p.seat]
    if state.phase == "dealing":
        if seat != state.dealer:
            ctx.breach("wrong_seat_to_act", f"seat {seat} declares a self-drawn win during the deal", seat)
    elif _in_phase(ctx, state, "a self-drawn win", "discard"):
        _check_turn(ctx, state, seat, "declares a self-drawn win")
    _check_size(ctx, state, seat, 14, "when winning")
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
    return _WinSource(concealed, kong_related=bool(ld and ld.after_kong), last_of_wall=bool(ld and ld.last_of_wall),
                      visible=state.visible_count(p.tile))


def _robbing_source(ctx: _Ctx, state: TableState, p: ev.WinDeclared) -> _WinSource:
    seat, play = p.seat, ctx.ruleset.play
    pk = state.pending_kong
    discard_seq = p.discard_seq
    earlier = next((w for w in state.wins if w.robbing_kong and w.legal
                    and (discard_seq is None or w.discard_seq == discard_seq)), None)
    if state.phase == "hand_over" and earlier is not None:
        # a second seat robs the same kong (seed 003: the nearest after the konger wins);
        # the first robbery already took the tile off the kong
        _check_size(ctx, state, seat, 13, "when robbing a kong")
        return _WinSource(state.seats[seat].tiles, kong_related=True, visible=state.visible_count(p.tile),
                          discard_seq=earlier.discard_seq, earlier=earlier)
    if pk is None or state.phase not in ("robbing", "replacement"):
        ctx.breach("event_out_of_phase", f"seat {seat} robs a kong, but no kong is open to robbing", seat)
    else:
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
    _check_size(ctx, state, seat, 13, "when robbing a kong")
    # the robbed tile itself lies on the konger's kong: not one of the "other" copies
    return _WinSource(state.seats[seat].tiles, kong_related=True, visible=state.visible_count(p.tile) - 1,
                      discard_seq=discard_seq)


def _discard_source(ctx: _Ctx, state: TableState, p: ev.WinDeclared) -> _WinSource:
    seat, play = p.seat, ctx.ruleset.play
    pend = state.pending
    target = p.discard_seq if p.discard_seq is not None else (pend.seq if pend else None)
    earlier = next((w for w in state.wins if w.discard_seq is not None and w.discard_seq == target), None)
    discarder: int | None
    if state.phase == "hand_over" and earlier is not None:
        # a further winner on a discard already won on (several winners)
        discarder, tile, discard_seq = earlier.from_seat, earlier.tile, earlier.discard_seq
        last = pend.last_of_wall if pend is not None else False
        visible = state.visible_count(p.tile)  # the discard is marked taken: not counted
    elif state.phase == "claims" and pend is not None:
        if p.discard_seq is not None and p.discard_seq != pend.seq:
            found = state.find_discard(p.discard_seq)
            rule = "discard_already_claimed" if found and found[2].claimed_by is not None else "claim_not_latest_discard"
            ctx.breach(rule, f"seat {seat} wins on discard {p.discard_seq}; the latest open discard is {pend.seq}", seat)
        discarder, tile, discard_seq, last = pend.seat, pend.tile, pend.seq, pend.last_of_wall
        for other, claimed in pend.passed:
            if claimed == "win" and play.multiple_winners == "first_only" and \
                    (other - discarder) % 4 < (seat - discarder) % 4:
                ctx.breach("one_winner_per_discard",
                           f"seat {other} also claimed the win and is nearer in turn order to the discarder "
                           f"(seat {discarder}): only the first wins (截和)", seat)
        visible = state.visible_count(p.tile) - 1  # the winning discard still lies in the river
        earlier = None
    else:
        _in_phase(ctx, state, "a win on a discard", "claims")
        discarder, tile, discard_seq, last = p.from_seat, p.tile, p.discard_seq, False
        visible = state.visible_count(p.tile)
        earlier = None
    if discarder is not None and p.from_seat != discarder:
        ctx.breach("claim_tile_mismatch", f"seat {seat} wins on seat {p.from_seat}'s discard, the discard is "
                                          f"seat {discarder}'s", seat)
    if tile != p.tile:
        ctx.breach("claim_tile_mismatch", f"seat {seat} wins on {p.tile}, the discard is {tile}", seat)
    if seat == discarder:
        ctx.breach("claim_own_discard", f"seat {seat} wins on its own discard", seat)
    _check_size(ctx, state, seat, 13, "when winning on a discard")
    return _WinSource(state.seats[seat].tiles, last_of_wall=last, visible=visible, discard_seq=discard_seq,
                      earlier=earlier)


def _win_declared(ctx: _Ctx, state: TableState, p: ev.WinDeclared) -> TableState:
    if not _need_game(ctx, state):
        return state
    rs, play, seat = ctx.ruleset, ctx.ruleset.play, p.seat
    if any(w.seat == seat and w.legal for w in state.wins):
        ctx.breach("winner_already_won", f"seat {seat} has already won this hand", seat)
    if p.self_drawn:
        src = _self_drawn_source(ctx, state, p)
    elif p.robbing_kong:
        src = _robbing_source(ctx, state, p)
    else:
        src = _discard_source(ctx, state, p)

    def unsettled() -> WinRecord:
        return WinRecord(ctx.seq, seat, p.tile, p.self_drawn, p.from_seat, p.robbing_kong, False,
                         discard_seq=src.discard_seq)

    if src.earlier is not None and play.multiple_winners == "first_only":
        first = src.earlier
        fd = first.from_seat if first.from_seat is not None else 0
        nearer = (seat - fd) % 4 < (first.seat - fd) % 4
        why = (f"; seat {seat} is nearer in turn order to the discarder and should have won instead of "
               f"seat {first.seat}") if nearer else ""
        ctx.breach("one_winner_per_discard",
                   f"seat {seat} also wins on discard {src.discard_seq}, already won by seat {first.seat}: "
                   f"only one winner per discard (截和){why}", seat)
        return replace(state, wins=state.wins + (unsettled(),))

    st = state.seats[seat]
    wc = WinContext(
        seat=seat,
        tile=p.tile,
        self_drawn=p.self_drawn,
        from_seat=None if p.self_drawn else p.from_seat,
        robbing_kong=p.robbing_kong,
        kong_related=src.kong_related,
        last_of_wall=src.last_of_wall,
        visible_copies=max(src.visible, 0),
        concealed=tuple(t for t in src.concealed if not _tiles.is_flower(t)),
        melds=st.melds,
        seat_wind=st.wind or rs.seat_wind(seat, state.dealer or 0),
        prevalent_wind=state.prevalent_wind or "F1",
        flowers=st.flowers,
    )
    if st.hidden > 0:
        ctx.breach("unverifiable_win", f"seat {seat}'s hand has {st.hidden} hidden tiles; the win cannot be scored", seat)
        return replace(state, wins=state.wins + (unsettled(),))
    score = rs.score_win(state, wc)
    if not score.legal:
        ctx.breach(score.rule_id or "false_win", f"seat {seat} declares a win on {p.tile}: {score.message}", seat)
        rec = WinRecord(ctx.seq, seat, p.tile, p.self_drawn, p.from_seat, p.robbing_kong, False,
                        score.situation, score.explained, score.points, None, src.discard_seq, wc)
        state = replace(state, wins=state.wins + (rec,), false_win=True)
        pen = rs.false_win_penalty(state, seat)
        if pen is not None:
            state = _apply_settlement(state, ctx.seq, "penalty", pen, f"false win by seat {seat}")
        return state  # not a win: the phase is unchanged (play may go on, or a ruling ends the hand)

    settlement = rs.settle_win(state, wc, score)
    rec = WinRecord(ctx.seq, seat, p.tile, p.self_drawn, p.from_seat, p.robbing_kong, True,
                    score.situation, score.explained, score.points, settlement, src.discard_seq, wc)
    state = _apply_settlement(state, ctx.seq, "win", settlement, f"win by seat {seat}")
    state = replace(state, wins=state.wins + (rec,))
    if p.robbing_kong and state.pending_kong is not None:
        state = _unrob(state, state.pending_kong)
    elif not p.self_drawn and src.discard_seq is not None:
        state = _mark_claimed(state, src.discard_seq, seat)
    if play.hand_ends_on_win:
        return replace(state, phase="hand_over", turn=None, pending_kong=None,
                       pending=state.pending if play.multiple_winners == "all" else None)
    return state


def _unrob(state: TableState, pk: PendingKong) -> TableState:
    """The robbed tile leaves the added kong: it is a pung again (seed 003 抢杠), and no
    replacement is due."""
    kst = state.seats[pk.seat]
    melds = tuple(
        replace(m, kind="pung", tiles=m.tiles[:3], kong_kind=None, added_seq=None)
        if m.kind == "kong" and m.tiles[0] == pk.tile and m.kong_kind == "added" else m
        for m in kst.melds
    )
    return state.with_seat(pk.seat, replace(kst, melds=melds, replacements_due=max(kst.replacements_due - 1, 0)))


def _mark_claimed(state: TableState, discard_seq: int, seat: int) -> TableState:
    found = state.find_discard(discard_seq)
    if found is None or found[2].claimed_by is not None:
        return state
    s, k, d = found
    st = state.seats[s]
    return state.with_seat(s, replace(st, discards=st.discards[:k] + (replace(d, claimed_by=seat),) + st.discards[k + 1:]))


def _exhaustive_draw(ctx: _Ctx, state: TableState, p: ev.ExhaustiveDraw) -> TableState:
    if not _need_game(ctx, state):
        return state
    _in_phase(ctx, state, "an exhaustive draw", "claims", "discard")
    drawer = state.turn if state.phase == "claims" and state.turn is not None else None
    if drawer is None and state.turn is not None:
        drawer = (state.turn + 1) % 4
    if not _wall_empty_for(state, ctx.ruleset.play, drawer if drawer is not None else 0):
        left = state.wall_remaining if state.seat_walls is None else state.seat_walls[drawer or 0]
        where = "the wall" if state.seat_walls is None else f"seat {drawer}'s wall"
        ctx.breach("exhaustive_draw_with_tiles_left",
                   f"exhaustive draw with {left} tiles left in {where}")
    s = ctx.ruleset.settle_exhaustive_draw(state)
    if s is not None:
        state = _apply_settlement(state, ctx.seq, "exhaustive_draw", s, "exhaustive draw")
    return replace(state, phase="hand_over", exhaustive_draw=True, turn=None, pending=None,
                   pending_kong=None)


def _score_reported(ctx: _Ctx, state: TableState, p: ev.ScoreReported) -> TableState:
    if not _need_game(ctx, state):
        return state
    legal = [w for w in state.wins if w.legal]
    if p.winner is not None:
        legal = [w for w in legal if w.seat == p.winner]
    comp_changes: tuple[int, int, int, int] | None = None
    comp_total: int | None = None
    if legal:
        ch = [0, 0, 0, 0]
        for w in legal:
            assert w.settlement is not None
            for i in range(4):
                ch[i] += w.settlement.changes[i]
        comp_changes = (ch[0], ch[1], ch[2], ch[3])
        if len(legal) == 1:
            comp_total = legal[0].points
    elif state.exhaustive_draw and p.winner is None:
        comp_changes = (0, 0, 0, 0)
    problems = []
    if p.score_changes is not None and tuple(p.score_changes) != comp_changes:
        problems.append(f"score changes reported {list(p.score_changes)}, computed "
                        f"{list(comp_changes) if comp_changes else 'none'}")
    if p.total is not None and p.total != comp_total:
        problems.append(f"total reported {p.total}, computed {comp_total}")
    if p.winner is not None and not legal:
        problems.append(f"reported winner seat {p.winner}, but the replay has no legal win by that seat")
    if problems:
        ctx.breach("reported_score_mismatch", "; ".join(problems), p.winner)
    rec = ReportedScore(
        seq=ctx.seq,
        winner=p.winner,
        score_changes=tuple(p.score_changes) if p.score_changes is not None else None,  # type: ignore[arg-type]
        total=p.total,
        fans=tuple((f.name, f.points, f.count) for f in p.fans),
        computed_changes=comp_changes,
        computed_total=comp_total,
        agrees=not problems,
    )
    return replace(state, reported=state.reported + (rec,))


def _penalty(ctx: _Ctx, state: TableState, p: ev.Penalty) -> TableState:
    if not _need_game(ctx, state):
        return state
    s = Settlement(tuple(p.score_changes), zero_sum=False)  # type: ignore[arg-type]
    return _apply_settlement(state, ctx.seq, "penalty", s, p.reason or p.rule or f"penalty on seat {p.seat}")


def _referee_ruling(ctx: _Ctx, state: TableState, p: ev.RefereeRuling) -> TableState:
    if not _need_game(ctx, state):
        return state
    if p.score_changes is None:
        return state
    s = Settlement(tuple(p.score_changes), zero_sum=False)  # type: ignore[arg-type]
    return _apply_settlement(state, ctx.seq, "ruling", s, f"ruling on event {p.ref_seq}: {p.ruling}")


def _wildcard_indicator_revealed(ctx: _Ctx, state: TableState, p: ev.WildcardIndicatorRevealed) -> TableState:
    if not _need_game(ctx, state):
        return state
    if not ctx.ruleset.play.wildcards:
        ctx.breach("wildcards_not_used", f"wildcard indicator {p.indicator} revealed; the ruleset has no wildcards")
    return replace(state, wildcard_indicator=p.indicator)


_HANDLERS: dict[str, Handler] = {
    "game_started": _game_started,
    "hand_started": _hand_started,
    "tiles_dealt": _tiles_dealt,
    "wildcard_indicator_revealed": _wildcard_indicator_revealed,
    "flower_replaced": _flower_replaced,
    "tile_drawn": _tile_drawn,
    "tile_discarded": _tile_discarded,
    "chow": _chow,
    "pung": _pung,
    "kong": _kong,
    "pass": _pass,
    "win_declared": _win_declared,
    "exhaustive_draw": _exhaustive_draw,
    "score_reported": _score_reported,
    "penalty": _penalty,
    "referee_ruling": _referee_ruling,
    "hand_ended": _hand_ended,
    "game_ended": _game_ended,
}
if set(_HANDLERS) != set(ev.EVENT_TYPES):  # one handler per event type, no catch-all
    raise ImportError(f"replayer handlers out of step with event types: "
                      f"{sorted(set(_HANDLERS) ^ set(ev.EVENT_TYPES))}")
