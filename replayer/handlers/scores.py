"""Scores reported by the source, penalties and referee rulings."""

from __future__ import annotations

from eventlog import events as ev
from replayer.accounting import (
    apply_settlement,
    seats_words,
)
from replayer.context import Ctx, need_game
from replayer.itemized import deciding_sources, entries_settled, settlement_words
from replayer.state import (
    ReportedScore,
    ScoreEntry,
    SettledPayment,
    Settlement,
    TableState,
    Unsettled,
    WinRecord,
    replace,
)


def score_reported(ctx: Ctx, state: TableState, p: ev.ScoreReported) -> TableState:
    """The source's score (DESIGN.md §4) compared with the computed one: a disagreement is
    ``reported_score_mismatch``. A win's reported changes are its whole settlement
    (``WinRecord.changes``: with what its hand settles for it after the win, such as
    Changsha's birds; docs/events.md ``score_reported``). What reads tiles the record hides (``TableState.unsettled``:
    a win whose hand is hidden, a settlement component or a score that reads another hidden
    hand — one seat's view, §8) cannot be computed: that part is ``reported_score_unverifiable``
    — the rest is still compared — and the reported changes are what the table settles for it
    (the win is taken as reported)."""
    if not need_game(ctx, state):
        return state
    legal = [w for w in state.wins if w.legal]
    if p.winner is not None:
        legal = [w for w in legal if w.seat == p.winner]
    winners = {w.seat for w in legal}
    hand = state.hand_number
    covered = [u for u in state.unsettled if u.hand_number == hand and u.winner is not None and u.winner in winners]
    # with no winner named, the hand's exhaustive draw settles its part too (docs/events.md
    # score_reported: "the exhaustive draw's"; e.g. sichuan.md §7 查花猪 / 查大叫)
    with_draw = state.exhaustive_draw and p.winner is None
    drawn = [u for u in state.unsettled if u.hand_number == hand and u.winner is None] if with_draw else []
    comp_changes: tuple[int, int, int, int] | None = None
    comp_total: int | None = None
    paid: list[SettledPayment] = []  # the computed changes, payment by payment (replayer/itemized.py)
    if legal or with_draw:
        ch = [0, 0, 0, 0]
        for w in legal:  # a win's whole settlement: what the rules settle for it later too
            whole = w.changes
            if whole is not None:
                for i in range(4):
                    ch[i] += whole[i]
                if w.settlement is not None:
                    paid += [SettledPayment(w.seq, "win", q) for q in w.settlement.payments]
                paid += w.later_payments
        if with_draw:
            drawn_changes, drawn_paid = entries_settled(draw_entries(state))
            for i in range(4):
                ch[i] += drawn_changes[i]
            paid += drawn_paid
        comp_changes = (ch[0], ch[1], ch[2], ch[3])
        if len(legal) == 1:
            comp_total = legal[0].points
    elif p.winner is None and state.phase != "hand_over":
        # a hand cut short by an offence (a false win, a penalty): what it settled so far
        ch4 = tuple(a - b for a, b in zip(state.scores, state.hand_start_scores))
        comp_changes = (ch4[0], ch4[1], ch4[2], ch4[3])
    changes_unknown = [u for u in covered if u.part != "score"] + drawn
    total_unknown = [u for u in covered if u.part != "settlement"]
    cannot: list[str] = []
    if changes_unknown:
        comp_changes = None
    if total_unknown:
        comp_total = None
    if changes_unknown and total_unknown == changes_unknown and p.total is not None:
        cannot.append(f"score changes and total cannot be checked: {_reads(changes_unknown)}")
    else:
        if changes_unknown:
            cannot.append(f"score changes cannot be checked: {_reads(changes_unknown)}")
        if total_unknown and p.total is not None:
            cannot.append(f"total cannot be checked: {_reads(total_unknown)}")
    problems = []
    penalised = _false_win_penalty(state, p.winner) if p.winner is not None and not legal else None
    if penalised is not None:
        # a declared win that is none, whose false win the ruleset penalises (cjm_chips §A5:
        # a win on a zero-chip player's discard): what the table settled for it is the penalty
        false_win, comp_changes, penalty_paid = penalised
        comp_total = false_win.points
        paid = list(penalty_paid)
        what = (f"(seat {p.winner}'s win at event {false_win.seq} is not legal: the table settles its "
                f"false-win penalty)")
        if p.score_changes is not None and tuple(p.score_changes) != comp_changes:
            problems.append(f"score changes reported {list(p.score_changes)}, computed {list(comp_changes)} {what}")
        if p.total is not None and comp_total is not None and p.total != comp_total:
            problems.append(f"total reported {p.total}, computed {comp_total} {what}")
    elif p.winner is not None and not legal:
        # nothing computed to compare: the one reason, with what was reported
        said = [f"score changes {list(p.score_changes)}"] if p.score_changes is not None else []
        said += [f"total {p.total}"] if p.total is not None else []
        problems.append(f"reported winner seat {p.winner}, but the replay has no legal win by that seat, so it "
                        "computes no score to compare" + (f" (reported: {', '.join(said)})" if said else ""))
    else:
        if p.score_changes is not None and not changes_unknown and tuple(p.score_changes) != comp_changes:
            problems.append(f"score changes reported {list(p.score_changes)}, "
                            + (f"computed {list(comp_changes)}" if comp_changes is not None
                               else f"not computed ({_why_not_computed(state, legal)})"))
        if p.total is not None and not total_unknown and p.total != comp_total:
            problems.append(f"total reported {p.total}, "
                            + (f"computed {comp_total}" if comp_total is not None
                               else f"not computed ({_why_not_computed(state, legal)})"))
    rec = ReportedScore(
        seq=ctx.seq,
        winner=p.winner,
        score_changes=tuple(p.score_changes) if p.score_changes is not None else None,  # type: ignore[arg-type]
        total=p.total,
        fans=tuple((f.name, f.points, f.count) for f in p.fans),
        computed_changes=comp_changes,
        computed_total=comp_total,
        agrees=not problems,
        unverifiable="; ".join(cannot),
        computed_payments=tuple(paid) if comp_changes is not None else (),
    )
    if problems:
        # the computed changes by rule item, so the finding names the rules that decide it
        words = settlement_words(rec)
        ctx.breach("reported_score_mismatch", "; ".join(problems + cannot) + (f"; computed {words}" if words else "")
                   + _scoring_note(state, p), p.winner, also="; ".join(deciding_sources(rec)))
    elif cannot:
        ctx.breach("reported_score_unverifiable", "; ".join(cannot), p.winner)
    if covered:
        state = _take_reported(ctx, state, covered, p.score_changes, p.winner)
    return replace(state, reported=state.reported + (rec,))


def draw_entries(state: TableState) -> tuple[ScoreEntry, ...]:
    """What this hand's exhaustive draw settled (``ScoreEntry`` of kind ``exhaustive_draw``
    since ``state.hand_start_seq``, in order): the ruleset's ``settle_exhaustive_draw``, the
    part of it a record that hides hands cannot compute left out (``state.unsettled``)."""
    start = state.hand_start_seq
    return tuple(e for e in state.score_log if e.kind == "exhaustive_draw" and e.seq > start)


def _false_win_penalty(state: TableState, winner: int) -> tuple[WinRecord, tuple[int, int, int, int],
                                                                  tuple[SettledPayment, ...]] | None:
    """``winner``'s latest declared win this hand that is not legal, with the false-win
    penalty the ruleset settled for it at that event (``Ruleset.false_win_penalty``:
    ``ScoreEntry`` kind penalty — the changes and the payments); None when it has none."""
    for w in reversed(state.wins):
        if w.seat != winner or w.legal:
            continue
        entries = tuple(e for e in state.score_log if e.seq == w.seq and e.kind == "penalty")
        if not entries:
            return None
        changes, paid = entries_settled(entries)
        return w, changes, paid
    return None


def _why_not_computed(state: TableState, legal: list) -> str:
    """Why a reported score change or total has no computed value to compare, in words."""
    if len(legal) > 1:
        return f"the hand has {len(legal)} legal wins and the report names no winner; a total is one win's"
    if state.exhaustive_draw:
        return "the hand ended in an exhaustive draw, which has no total"
    if state.phase == "hand_over":
        return "the replay has no legal win in this hand"
    return "the hand has no win"


def other_scoring(state: TableState) -> str | None:
    """The scoring format the source says it used (``TableState.source_scoring``) when it is
    not the game's ruleset (``MCR`` for ``mcr`` or a preset over it is the same); else None."""
    scoring = state.source_scoring
    if not scoring or not state.ruleset_id:
        return None
    from replayer.rules.base import base_of

    same = {state.ruleset_id.lower(), base_of(state.ruleset_id).lower()}
    return None if scoring.lower() in same else scoring


def _scoring_note(state: TableState, p: ev.ScoreReported) -> str:
    """A word on the source's own scoring format, when it names another than the ruleset's
    (a duplicate format's results need not sum to zero): its reported result may differ from
    the ruleset's settlement without a breach at the table. ``""`` otherwise."""
    scoring = other_scoring(state)
    if scoring is None:
        return ""
    total = sum(p.score_changes) if p.score_changes is not None else 0
    return (f"; the source says its scoring is {scoring!r} (game_started metadata scoring), not "
            f"{state.ruleset_id}'s settlement: a result of another format may differ"
            + (f" (these changes sum to {total:+d}, not 0)" if total else ""))


def _reads(unknown: list[Unsettled]) -> str:
    """``the jing, kong components of event 47 read hidden tiles of seats 0, 2``; several
    joined."""
    return "; ".join(f"{u.what} {'read' if ' components ' in u.what else 'reads'} hidden tiles of {seats_words(u.seats)}"
                     for u in unknown)


def _take_reported(ctx: Ctx, state: TableState, covered: list[Unsettled], reported: list[int] | None,
                   winner: int | None) -> TableState:
    """The report settles what could not be computed: with reported changes, the table's
    scores move by them less what the covered wins' events already settled. The covered
    parts are then no longer unsettled (a score's points only: always)."""
    owed = [u for u in covered if u.part != "score"]
    if reported is None:
        covered = [u for u in covered if u.part == "score"]
    elif owed:
        seqs = {u.seq for u in owed}
        done = [0, 0, 0, 0]
        for e in state.score_log:
            if e.seq in seqs and e.kind == "win":
                for i in range(4):
                    done[i] += e.changes[i]
        rest = (reported[0] - done[0], reported[1] - done[1], reported[2] - done[2], reported[3] - done[3])
        if any(rest):
            who = f"seat {winner}'s win" if winner is not None else "the hand's wins"
            state = apply_settlement(state, ctx.seq, "win", Settlement(rest, zero_sum=False),
                                     f"{who} as reported: {', '.join(u.what for u in owed)} read hidden tiles")
    return replace(state, unsettled=tuple(u for u in state.unsettled if u not in covered))


def penalty(ctx: Ctx, state: TableState, p: ev.Penalty) -> TableState:
    if not need_game(ctx, state):
        return state
    s = Settlement(tuple(p.score_changes), zero_sum=False)  # type: ignore[arg-type]
    return apply_settlement(state, ctx.seq, "penalty", s, p.reason or p.rule or f"penalty on seat {p.seat}")


def referee_ruling(ctx: Ctx, state: TableState, p: ev.RefereeRuling) -> TableState:
    """A referee's ruling on event ``ref_seq`` (an earlier event of this game): score changes
    apply as they are given (a penalty may be awarded or removed from play); ``void_win``
    also undoes the settlement the win at ``ref_seq`` made, with what the rules settled for
    it at later events (``WinRecord.later_changes``: Changsha's birds, which a voided win no
    longer earns); ``dead_hand`` makes ``seat`` 相公
    for the rest of the hand (``SeatState.dead_hand``: it may not claim or win — docs/events.md
    ``referee_ruling``, competition.md §A9 "after certain penalties"). The ruled event must
    exist and come before the ruling."""
    if not need_game(ctx, state):
        return state
    if p.ref_seq >= ctx.seq:
        ctx.breach("ruling_refers_to_no_event",
                   f"the ruling refers to event {p.ref_seq}; a ruling follows the event it rules on")
        return state
    what = f"ruling on event {p.ref_seq}" + (f" ({p.rule})" if p.rule else "") + f": {p.ruling}"
    if p.kind == "void_win":
        won = [e for e in state.score_log if e.seq == p.ref_seq and e.kind == "win"]
        if not won:
            ctx.breach("ruling_refers_to_no_event", f"void_win: event {p.ref_seq} settled no win")
        for e in won:
            back = Settlement(tuple(-c for c in e.changes), zero_sum=False)  # type: ignore[arg-type]
            state = apply_settlement(state, ctx.seq, "ruling", back, f"{what} — win voided")
        for w in state.wins:  # what the rules settled for it at later events (Changsha's birds) goes too
            if w.seq == p.ref_seq and any(w.later_changes):
                back = Settlement(tuple(-c for c in w.later_changes), zero_sum=False)  # type: ignore[arg-type]
                state = apply_settlement(state, ctx.seq, "ruling", back, f"{what} — its later payments voided")
        state = replace(state, wins=tuple(replace(w, legal=False, later_changes=(0, 0, 0, 0), later_payments=())
                                          if w.seq == p.ref_seq else w for w in state.wins))
    if p.kind == "dead_hand" and p.seat is None:
        ctx.breach("ruling_refers_to_no_event", "dead_hand: the ruling names no seat")
    elif p.kind == "dead_hand" and p.seat is not None and state.seats[p.seat].dead_hand is None:
        state = state.with_seat(p.seat, replace(state.seats[p.seat], dead_hand=ctx.seq))
    if p.score_changes is None:
        return state
    s = Settlement(tuple(p.score_changes), zero_sum=False)  # type: ignore[arg-type]
    return apply_settlement(state, ctx.seq, "ruling", s, what)


def player_aliased(ctx: Ctx, state: TableState, p: ev.PlayerAliased) -> TableState:
    """A player alias belongs to the log's own stream ``paipu:players`` (eventlog/players.py),
    not to a game: in a game it is a finding and changes nothing."""
    ctx.breach("player_alias_in_game", f"player_aliased ({p.alias!r} → {p.player!r}) in a game; "
                                       "aliases live in the stream paipu:players")
    return state
