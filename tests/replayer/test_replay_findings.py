"""Each illegal action → the right finding in audit mode and ReplayError in strict mode.

Every case is the legal hand of replay_hands.legal_hand cut at one event, with an illegal
event put in its place; the finding must name that event's seq, the rule and a source."""

from __future__ import annotations

import pytest

from eventlog import events as ev
from replay_hands import legal_hand
from replayer.findings import ReplayError
from replayer.replay import run

G, S = legal_hand()
W, _ = legal_hand(wall=True)
D_W3, D_T9, D_J1, D_J3, K_J2 = S["d_w3"], S["d_t9"], S["d_j1"], S["d_j3"], S["k_j2"]
FIRST_DRAW_2 = D_T9 + 1  # seat 2's first draw (H5)
KONG_B9 = D_T9 + 4  # seat 2's concealed kong of B9
DRAW_W2 = KONG_B9 + 3  # seat 3 draws W2

CASES = [
    # (case, game, seq of the illegal event, the event, rule id)
    ("fifth-copy", G, DRAW_W2, ev.TileDrawn(seat=3, tile="B9"), "tile_count_exceeded"),
    ("discard-not-held", G, D_T9, ev.TileDiscarded(seat=1, tile="T8"), "tile_not_held"),
    ("claim-already-claimed", G, FIRST_DRAW_2,
     ev.Pung(seat=2, tile="W3", discard_seq=D_W3), "discard_already_claimed"),
    ("claim-not-latest", G, D_J1 + 1, ev.Pung(seat=1, tile="T9", discard_seq=D_T9), "claim_not_latest_discard"),
    ("wrong-seat-draws", G, FIRST_DRAW_2, ev.TileDrawn(seat=3, tile="H5"), "wrong_seat_to_act"),
    ("chow-not-from-previous-seat", G, D_W3 + 1,
     ev.Chow(seat=2, tiles=["W1", "W2", "W3"], claimed_tile="W3", discard_seq=D_W3), "chow_wrong_seat"),
    ("rob-concealed-kong", G, KONG_B9 + 1,
     ev.WinDeclared(seat=3, tile="B9", self_drawn=False, from_seat=2, robbing_kong=True), "kong_not_robbable"),
    ("false-win", G, D_J3 + 1,
     ev.WinDeclared(seat=1, tile="J3", self_drawn=False, from_seat=0, discard_seq=D_J3), "false_win"),
    ("wall-mismatch", W, DRAW_W2, ev.TileDrawn(seat=3, tile="W1"), "wall_mismatch"),
    ("deal-short", G, 4, ev.TilesDealt(seat=2, tiles=["B9", "B9", "B9"]), "deal_mismatch"),
    ("draw-on-own-turn-twice", G, D_W3, ev.TileDrawn(seat=0, tile="W5"), "event_out_of_phase"),
    ("exhaustive-draw-early", G, S["win"], ev.ExhaustiveDraw(), "exhaustive_draw_with_tiles_left"),
]


@pytest.mark.parametrize("case,game,seq,bad,rule", CASES, ids=[c[0] for c in CASES])
def test_illegal_action_audit_and_strict(mcr, case, game, seq, bad, rule):
    events = game.truncated(seq, bad).events()
    result = run(events, mode="audit", ruleset=mcr)
    first = result.findings[0]
    assert (first.seq, first.rule_id) == (seq, rule), result.findings
    assert first.source and first.message
    with pytest.raises(ReplayError) as err:
        run(events, mode="strict", ruleset=mcr)
    assert (err.value.finding.seq, err.value.finding.rule_id) == (seq, rule)
    # strict mode refuses the event: the replay of the legal prefix is clean
    assert run(events[:-1], mode="strict", ruleset=mcr).findings == ()


def test_claim_priority_pung_passed_over_for_chow(mcr):
    """Seat 3 claimed W3 by pung (recorded as a pass that lost) and seat 1's chow was taken:
    pung beats chow (seed 001 碰牌比吃牌优先; competition.md §B1)."""
    events = G.truncated(D_W3 + 1, ev.Pass(seat=3, discard_seq=D_W3, claim="pung"),
                         ev.Chow(seat=1, tiles=["W1", "W2", "W3"], claimed_tile="W3", discard_seq=D_W3)).events()
    result = run(events, mode="audit", ruleset=mcr)
    assert [(f.seq, f.rule_id, f.seat) for f in result.findings] == [(D_W3 + 2, "claim_priority", 1)]
    assert "competition.md §B1" in result.findings[0].source


def test_audit_keeps_going_after_a_finding(mcr):
    """Audit applies the event as it happened: the wrong seat's draw is in its hand and
    the hand goes on from there."""
    events = G.truncated(FIRST_DRAW_2, ev.TileDrawn(seat=3, tile="H5")).events()
    st = run(events, mode="audit", ruleset=mcr).state
    assert "H5" in st.seats[3].tiles and st.turn == 3 and st.phase == "discard"


def test_reported_score_mismatch(mcr):
    g, _ = legal_hand()
    g.add(ev.ScoreReported(winner=1, score_changes=[-36, 108, -36, -36], total=28))
    g.add(ev.ScoreReported(winner=1, score_changes=[-35, 105, -35, -35], total=27))
    result = run(g.events(), mode="audit", ruleset=mcr)
    (f,) = result.findings
    assert f.rule_id == "reported_score_mismatch" and f.seq == len(g.payloads) - 2
    assert "[-36, 108, -36, -36]" in f.message and "[-35, 105, -35, -35]" in f.message
    bad, good = result.state.reported
    assert (bad.agrees, good.agrees) == (False, True)
    assert good.computed_changes == (-35, 105, -35, -35) and good.computed_total == 27


def test_final_scores_mismatch(mcr):
    g, _ = legal_hand()
    g.end(0)
    g.add(ev.GameEnded(final_scores=[0, 0, 0, 0]))
    (f,) = run(g.events(), mode="audit", ruleset=mcr).findings
    assert f.rule_id == "reported_score_mismatch" and "[-35, 105, -35, -35]" in f.message


def test_event_before_game_started(mcr):
    events = G.events()[1:3]
    result = run(events, mode="audit", ruleset=mcr)
    assert [f.rule_id for f in result.findings][:2] == ["event_out_of_order", "game_not_started"]


def test_a_deal_outside_the_dealt_part_of_the_wall_is_one_finding(mcr):
    """A deal is one event: the tiles the wall's dealt part (its first 53 tiles: DESIGN.md §4,
    hand started: the wall when known) lacks are named in one finding — a tile dealt twice
    twice — not one line per tile, two of them alike. Seat 3 is dealt W8 W8 where the wall
    gives it J2 W9; the dealt part's one W8 went to seat 1."""
    deal = ev.TilesDealt(seat=3, tiles="T5 T5 T5 J1 T6 T7 B2 B3 F1 F1 J2 W8 W8".split())
    found = run(W.truncated(5, deal).events(), mode="audit", ruleset=mcr).findings
    assert [(f.seq, f.message) for f in found if f.rule_id == "wall_mismatch"] == [
        (5, "seat 3 is dealt W8 W8, which are not in the dealt part of the wall")]


def test_a_win_naming_the_winner_as_discarder_is_judged_on_the_real_discard(mcr):
    """Seat 1 wins on the dealer's B5 but the record names seat 1 itself as the discarder:
    a claim_tile_mismatch, and the win is the win on the dealer's discard (docs/events.md
    ``win_declared``: ``from_seat`` is the discarder) — the replay once crashed settling it
    (ValueError: a win on a discard needs a discarder other than the winner)."""
    from replay_hands import two_winners_hand

    g, s = two_winners_hand(order=())
    g.add(ev.WinDeclared(seat=1, tile="B5", self_drawn=False, from_seat=1, discard_seq=s["d_b5"]))
    result = run(g.events(), mode="audit", ruleset=mcr)
    assert [(f.rule_id, f.seat) for f in result.findings] == [("claim_tile_mismatch", 1)]
    (w,) = result.state.wins
    # each non-winner pays the 8 base, the discarder P more (competition.md §B2, discard)
    assert w.legal and w.settlement is not None
    assert w.settlement.changes[0] == -(8 + w.points) and w.settlement.changes[2:] == (-8, -8)
