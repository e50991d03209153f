"""The audit of a one-seat record (one seat's own view: the other seats' concealed tiles are
hidden — eventlog.view.seat_view of a full record, replayed as a game of its own).

The rule, from the texts (not the code under test):

* docs/reference/DESIGN.md §4: a reported score that disagrees with the computed one is a
  finding (``reported_score_mismatch``); §8 one seat's view: another seat's concealed tiles
  are not seen. A settlement that reads a hand the record hides cannot be computed from it, so
  the report cannot be checked against it — that is a finding of its own,
  ``reported_score_unverifiable``, never a mismatch; the parts that read only what the record
  shows are still checked.
* nanchang.md §9.1: the jing bonus of every hand reads every player's jing (§4.3: concealed,
  melded, discarded); §9.5 the win score of a plain non-dealer win on a non-dealer's discard
  is 2 + 2 + 1 = 5 子 ("Smallest win"), read from the winner's hand only.
* sichuan.md §7: 查花猪 / 查大叫 at an exhaustive draw read the hands of the players still in;
  §4, §5.4: a winner leaves the hand, play resumes from the seat after it, and a later
  self-drawn win is paid by the players still in; §1: the first winner deals next.
* changsha.md §5.1: the bird tiles are turned face up after the win; §2: the winner deals next.
* A win by a hand the record hides cannot be scored (``unverifiable_win``), but the record says
  it happened: the table goes on as after a win, and the win's score is the reported one.

The records are simulated games (the source's reports are in them); each expectation below
is the rules text's, cited beside it.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

from eventlog import tiles as T
from eventlog.ingest import ImportedGame, parse_file
from eventlog.view import seat_view
from paipu.samples import SAMPLES_DIR
from replayer.audit import audit_game
from replayer.replay import replay_game, run
from replayer.simulate.engine import SimulationConfig, simulate
from replayer.view import seat_state_view

#: findings a one-seat record of a game that holds together must not have: the cascade of an
#: unscored win (the table not moved on) and a hidden settlement reported as a mismatch
CASCADE = {"hand_not_finished", "wrong_seat_to_act", "event_out_of_phase", "dealer_rotation",
           "birds_out_of_phase", "reported_score_mismatch", "play_after_hand_end"}


@cache
def _game(ruleset: str, seed: int = 0, **options) -> tuple:
    cfg = SimulationConfig(ruleset=ruleset, options=dict(options), seed=seed, hands_per_game=2)
    return tuple(next(iter(simulate(cfg, 1))).events)


@cache
def _game_hands(ruleset: str, seed: int, hands: int) -> tuple:
    cfg = SimulationConfig(ruleset=ruleset, options={}, seed=seed, hands_per_game=hands)
    return tuple(next(iter(simulate(cfg, 1))).events)


def _view(events, seat: int) -> list:
    return [seat_view(e, seat) for e in events]


def _findings(events, seat: int):
    return run(_view(events, seat)).findings


def _seq(events, type_: str, **payload) -> int:
    return next(i for i, e in enumerate(events)
                if e.type == type_ and all(getattr(e.payload, k) == v for k, v in payload.items()))


# --- 1. a settlement that reads hidden hands cannot be checked; the rest still is ------------

def test_nanchang_jing_of_hidden_hands_cannot_be_checked_but_the_win_score_is():
    events = _game("nanchang")
    win = _seq(events, "win_declared", seat=1)
    p = events[win].payload
    # the record: hand 1, seat 1 (not the dealer, seat 0) wins a plain hand on seat 3's discard
    assert (p.self_drawn, p.from_seat, events[_seq(events, "hand_started", hand_number=1)].payload.dealer) == (False, 3, 0)
    report = events[win + 1].payload
    assert report.total == 2 + 2 + 1  # §9.5 smallest win: the source's total is the rules'
    found = _findings(events, 1)
    assert not {f.rule_id for f in found} & CASCADE, found
    (unv,) = [f for f in found if f.seq == win + 1]
    assert unv.rule_id == "reported_score_unverifiable"
    assert "hidden tiles of seats 0, 2, 3" in unv.message and "jing" in unv.message
    audit = run(_view(events, 1)).state.reported[-1]
    assert audit.computed_total == 5 and audit.unverifiable  # the total checked, the changes not


def test_the_checkable_part_is_still_checked():
    """The same report with a wrong total: the win score reads only seat 1's own hand (shown
    in its record), so the total is a mismatch even though the changes cannot be checked."""
    events = list(_game("nanchang"))
    win = _seq(events, "win_declared", seat=1)
    rep = events[win + 1]
    events[win + 1] = rep.model_copy(update={"payload": rep.payload.model_copy(update={"total": 6})})
    found = [f for f in _findings(events, 1) if f.seq == win + 1]
    assert [f.rule_id for f in found] == ["reported_score_mismatch"]
    assert "total reported 6, computed 5" in found[0].message
    assert "cannot be checked" in found[0].message


def test_nanchang_deguo_in_deguo_reads_every_hand():
    """§6.7 德中德: a 德国 win where no player holds a jing — the win score itself reads every
    hand, so in the winner's own record neither its total nor its changes can be checked."""
    events = _game("nanchang", 80)
    rep = next(i for i, e in enumerate(events) if e.type == "score_reported"
               and any(f.name == "Deguo in deguo" for f in e.payload.fans))
    winner = events[rep].payload.winner
    found = [f for f in _findings(events, winner) if f.seq == rep]
    assert [f.rule_id for f in found] == ["reported_score_unverifiable"]
    others = ", ".join(str(s) for s in range(4) if s != winner)
    assert f"total cannot be checked: the score of seat {winner}'s win" in found[0].message
    assert f"hidden tiles of seats {others}" in found[0].message


def test_sichuan_chajiao_of_hidden_hands_cannot_be_checked():
    """Hand 0: seats 3 and 1 win, then the wall runs out with seats 0 and 2 still in (§7 查叫
    reads both hands). In seat 0's record seat 2's hand is hidden: the final scores cannot be
    checked — not a mismatch."""
    events = _game("sichuan")
    draw = _seq(events, "exhaustive_draw")
    assert [e.payload.seat for e in events[:draw] if e.type == "win_declared"] == [3, 1]
    found = _findings(events, 0)
    assert not {f.rule_id for f in found} & CASCADE, found
    end = _seq(events, "game_ended")
    (unv,) = [f for f in found if f.seq == end]
    assert unv.rule_id == "reported_score_unverifiable" and "seat 2" in unv.message


# --- 2. an unscored win moves the table on ------------------------------------------------------

def test_sichuan_after_another_seats_unscored_win_the_table_goes_on():
    """Seat 1's record: seat 3 wins (hand hidden), play resumes after it (§4), and seat 1's own
    self-drawn plain win is paid by the two players still in, 1 each (§5.4) — the reported
    [-1, 2, -1, 0] agrees."""
    events = _game("sichuan")
    own = _seq(events, "win_declared", seat=1)
    report = _seq(events, "score_reported", winner=1)
    assert events[own].payload.self_drawn and own < report < _seq(events, "hand_ended")
    assert list(events[report].payload.score_changes) == [-1, 2, -1, 0]  # the source's report
    found = _findings(events, 1)
    assert not {f.rule_id for f in found} & CASCADE, found
    assert not [f for f in found if f.seq == report]  # checked, and it agrees
    state = run(_view(events, 1)).state
    assert state.hands[0].winners == (3, 1)
    assert events[_seq(events, "hand_started", hand_number=1)].payload.dealer == 3  # §1: the first winner


@pytest.mark.parametrize("ruleset", ["nanchang", "sichuan", "changsha"])
def test_no_cascade_after_an_unscored_win(ruleset):
    for seed in range(3):
        events = _game(ruleset, seed)
        for seat in range(4):
            found = _findings(events, seat)
            assert not {f.rule_id for f in found} & CASCADE, (seed, seat, [f for f in found if f.rule_id in CASCADE])


def test_an_unscored_win_is_taken_as_reported():
    """Seat 0's record of the Nanchang game: seat 1's hand-1 win is hidden; its reported score
    changes are what the table settles, so the game's reported final scores agree."""
    events = _game("nanchang")
    state = run(_view(events, 0)).state
    final = events[_seq(events, "game_ended")].payload.final_scores
    assert list(state.scores) == list(final)


def test_changsha_birds_of_a_hidden_win_are_taken_as_reported():
    """changsha.md §5.1: the birds pay as the win does, so the birds of a hidden hand's win
    cannot be computed from one seat's record; a win's reported score is its whole
    settlement, birds included (docs/events.md score_reported), so the report settles them
    and every seat's record ends on the game's reported final scores (seed 2: birds double
    a payment; seat 0 sees neither winner's hand)."""
    events = _game("changsha", 2)
    final = list(events[_seq(events, "game_ended")].payload.final_scores)
    full = run(list(events), mode="audit")
    assert any(e.kind == "bird" for e in full.state.score_log)
    for seat in range(4):
        res = run(_view(events, seat), mode="audit")
        assert list(res.state.scores) == final, seat
        assert not [f for f in res.findings if "final scores" in f.message], seat
    audit = audit_game(_view(events, 0))
    assert [w.computed_words for w in audit.wins] == ["no points computed (the winner's hand is hidden in this record)"] * 2


def test_changsha_kaigang_from_the_short_last_stack_in_a_seat_view():
    """§4 开杠: the d-th stack from the tail, the last stack when d exceeds the stacks left;
    its top tile missing, the lower one. Hand 2 of seed 7: 13 tiles left (7 stacks, the last
    holding one), dice 5 + 6 = 11 > 7 → one tile — also where the record hides the wall."""
    events = _game_hands("changsha", 7, 3)
    rev = _seq(events, "kong_tiles_revealed")
    assert sum(events[rev].payload.dice) == 11 and len(events[rev].payload.tiles) == 1
    assert run(events[:rev]).state.wall_remaining == 13
    for seat in range(4):
        assert "wrong_kong_tiles" not in {f.rule_id for f in _findings(events, seat)}, seat


# --- 3. what a seat sees: one count ---------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["changsha", "nanchang", "sichuan", "mcr"])
def test_the_seat_view_counts_what_the_seats_own_record_counts(ruleset):
    """``seat_state_view(full state, seat).seen`` is the tile accounting of the seat's own
    record, at every event (DESIGN.md §4 tile accounting, §8 one seat's view)."""
    events = _game(ruleset)
    full = [s.state.snapshot() for s in replay_game(events)]
    for seat in range(4):
        for i, step in enumerate(replay_game(_view(events, seat))):
            assert seat_state_view(full[i], seat).seen == step.state.seen, (seat, i, events[i].type)


def test_changsha_birds_are_seen_by_every_seat():
    """§5.1: the bird tiles are turned face up from the wall."""
    events = _game("changsha")
    birds = _seq(events, "birds_turned")
    full = [s.state.snapshot() for s in replay_game(events)]
    for seat in range(4):
        before, after = seat_state_view(full[birds - 1], seat).seen, seat_state_view(full[birds], seat).seen
        added = Counter({T.ALL_TILES[i]: b - a for i, (a, b) in enumerate(zip(before, after, strict=True)) if b != a})
        assert added == Counter(events[birds].payload.tiles), seat


@pytest.mark.parametrize("removed", [False, True])
def test_nanchang_indicator_stays_in_the_wall_unless_removed(removed):
    """§4.1: the indicator stays in place face up, an ordinary drawable tile — not out of the
    wall; with ``indicator_removed`` (§14 A-1) it is out of play."""
    events = _game("nanchang", 0, **({"indicator_removed": True} if removed else {}))
    rev = _seq(events, "wildcard_indicator_revealed")
    ind = T.index(events[rev].payload.indicator)
    full = [s.state.snapshot() for s in replay_game(events)]
    for seat in range(4):
        before, after = seat_state_view(full[rev - 1], seat).seen, seat_state_view(full[rev], seat).seen
        assert after[ind] - before[ind] == int(removed), seat


# --- 4. the dealer's hidden deal ---------------------------------------------------------------

def test_a_hidden_dealer_dealt_13_holds_13_until_its_draw():
    """Botzone deals every seat 13 and the dealer draws its 14th (the bundled sample): in
    another seat's record the dealer holds 13 from its deal to that draw, 14 after it."""
    path = SAMPLES_DIR / "botzone-mcr-human-sample" / "sample_16_games.txt"
    events = next(g for g in parse_file(path) if isinstance(g, ImportedGame)).events
    dealer = next(e.payload.dealer for e in events if e.type == "hand_started")
    dealt = next(i for i, e in enumerate(events) if e.type == "tiles_dealt" and e.payload.seat == dealer)
    drawn = next(i for i, e in enumerate(events) if e.type == "tile_drawn" and e.payload.seat == dealer)
    assert len(events[dealt].payload.tiles) == 13
    for seat in set(range(4)) - {dealer}:
        sizes = [s.state.seats[dealer].hand_size for s in replay_game(_view(events, seat))]
        assert sizes[dealt:drawn] == [13] * (drawn - dealt), seat
        assert sizes[drawn] == 14
