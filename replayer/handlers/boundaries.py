"""Game and hand boundaries: game started, hand started (the wall, seat winds, dealer rotation), hand ended, game ended."""

from __future__ import annotations

from eventlog import events as ev
from eventlog import tiles as _tiles
from eventlog.seats import ALL_IN
from replayer.accounting import seats_words
from replayer.context import Ctx, need_game
from replayer.itemized import final_scores_words
from replayer.state import (
    HandResult,
    SeatState,
    TableState,
    replace,
)


def game_started(ctx: Ctx, state: TableState, p: ev.GameStarted) -> TableState:
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
        initial_scores=tuple(p.initial_scores),
        phase="idle",
        seats=seats,
    )


def hand_started(ctx: Ctx, state: TableState, p: ev.HandStarted) -> TableState:
    if not need_game(ctx, state):
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
        if play.wall_layout == "shared":
            pc = [0] * 42
            for t in p.wall[:deal_total]:
                pc[_tiles.index(t)] += 1
            pool = tuple(pc)
            wall = tuple(p.wall[deal_total:])
        elif total % 4 == 0:  # per-seat: the four seats' walls one after another, each in take order
            wall = tuple(p.wall)
        else:
            ctx.breach("wall_mismatch", f"a wall of {total} tiles is not four seat walls of one size; "
                                        "deals and draws are not checked against it")
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
        seats=seats,
        wall=wall,
        wall_remaining=total,
        seat_walls=(total // 4,) * 4 if play.wall_layout == "per_seat" else None,
        deal_pool=pool,
        seen=(0,) * 42,
        turn=p.dealer,
        pending=None,
        pending_kong=None,
        last_draw=None,
        wins=(),
        false_win=False,
        exhaustive_draw=False,
        void_hand=False,
        reported=(),
        wildcard_indicator=None,
        hand_start_scores=state.scores,
        hand_start_seq=ctx.seq,
        in_hand=ALL_IN,
        deal_owed=0,
    )


def hand_ended(ctx: Ctx, state: TableState, p: ev.HandEnded) -> TableState:
    if not need_game(ctx, state):
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
        void=state.void_hand,
        changes=changes,  # type: ignore[arg-type]
        start_seq=state.hand_start_seq,
        reported=state.reported,
    )
    new = replace(state, phase="idle", hands=state.hands + (result,), turn=None, pending=None,
                  pending_kong=None, last_draw=None)
    return replace(new, game_over=ctx.ruleset.next_hand(new) is None)


def game_ended(ctx: Ctx, state: TableState, p: ev.GameEnded) -> TableState:
    if not need_game(ctx, state):
        return state
    if state.phase not in ("idle",):
        ctx.breach("hand_not_finished", f"game_ended in phase {state.phase!r}")
    if p.final_scores is not None and state.unsettled:
        # score changes no report gave read tiles the record hides (one seat's view, §8)
        ctx.breach("reported_score_unverifiable",
                   f"reported final scores {list(p.final_scores)} cannot be checked: " + "; ".join(
                       f"{u.what} (hand {u.hand_number}) read{'s' if ' components ' not in u.what else ''} "
                       f"hidden tiles of {seats_words(u.seats)}" for u in state.unsettled))
    elif p.final_scores is not None and tuple(p.final_scores) != state.scores:
        # where it disagrees: the hands' own reports that disagree, else the game by hand and
        # rule item (replayer/itemized.py), as a hand's reported-score mismatch names its rules
        words, sources = final_scores_words(state)
        ctx.breach("reported_score_mismatch",
                   f"reported final scores {list(p.final_scores)}, computed {list(state.scores)}"
                   + (f"; {words}" if words else ""), also="; ".join(sources))
    # the game is over when the log says so, whether or not the ruleset's schedule ran out
    # (a real game may stop early): game_over follows phase game_over
    return replace(state, phase="game_over", game_over=True, turn=None, pending=None, pending_kong=None)
