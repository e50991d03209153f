"""Robbing a kong, several winners on one discard, false wins and the 8-fan minimum.

Fan totals are worked out from the MCR fan table (seed 001, with the official 平和 = 2,
不计无字; competition.md §B3 B-Amb-1) and scored in the tests by the reference calculator
(mcr_oracle); settlements follow seed 001 (competition.md §B2)."""

from __future__ import annotations

import pytest

from eventlog import events as ev
from replay_builder import GameBuilder
from replay_hands import robbing_hand, two_winners_hand
from replayer.findings import ReplayError
from replayer.replay import run


def test_robbing_an_added_kong(mcr):
    g, s = robbing_hand()
    result = run(g.events(), mode="strict", ruleset=mcr)
    st = result.state
    (win,) = st.wins
    # 清龙 16 + 抢杠和 8 + 门前清 2 + 平和 2 + 喜相逢 1 + 坎张 1 = 30 (抢杠和 不计和绝张)
    assert win.points == 30 and win.robbing_kong and win.discard_seq == s["kong"]
    assert win.situation.kong_related and not win.situation.self_drawn
    assert win.situation.last_tile  # the three other B5 are on seat 2's kong
    # the konger pays as the discarder: 8 + 30; the two others pay 8
    assert st.scores == (-8, -8, -38, 54)
    # the robbed tile leaves the kong: seat 2 is back to a pung of B5
    assert [(m.kind, m.tiles, m.kong_kind) for m in st.seats[2].melds] == [("pung", ("B5",) * 3, None)]
    assert st.phase == "hand_over"


def test_kong_replacement_closes_the_robbing_window(mcr):
    g, s = robbing_hand()
    events = g.truncated(s["win"], ev.TileDrawn(seat=2, tile="W1", source="kong_replacement"),
                         ev.WinDeclared(seat=3, tile="B5", self_drawn=False, from_seat=2, robbing_kong=True)).events()
    with pytest.raises(ReplayError) as err:
        run(events, mode="strict", ruleset=mcr)
    assert err.value.finding.rule_id == "event_out_of_phase"


def test_several_winners_first_only(mcr):
    """截和 (seed 001; competition.md §B1): only the first winner in turn order from the
    discarder counts. Seat 1: 清龙 16 + 门前清 2 + 平和 2 + 喜相逢 1 + 坎张 1 = 22."""
    g, s = two_winners_hand()
    result = run(g.events(), mode="audit", ruleset=mcr)
    (f,) = result.findings
    assert (f.seq, f.rule_id, f.seat) == (s["win3"], "one_winner_per_discard", 3)
    assert result.state.scores == (-30, 46, -8, -8)
    assert [(w.seat, w.legal) for w in result.state.wins] == [(1, True), (3, False)]


def test_several_winners_recorded_out_of_turn_order(mcr):
    g, s = two_winners_hand(order=(3, 1))
    (f,) = run(g.events(), mode="audit", ruleset=mcr).findings
    assert f.rule_id == "one_winner_per_discard" and "seat 1 is nearer" in f.message


def test_several_winners_all(mcr_with):
    """multiple_winners = all: the discarder pays each winner. Seat 3: 清龙 16 + 门前清 2 +
    平和 2 = 20. Seat 0 pays 30 + 28; seat 1 +46 − 8; seat 2 −8 − 8; seat 3 +44 − 8."""
    g, _ = two_winners_hand({"multiple_winners": "all"})
    result = run(g.events(), mode="strict", ruleset=mcr_with(multiple_winners="all"))
    assert result.state.scores == (-58, 38, -16, 36)
    assert [w.points for w in result.state.wins] == [22, 20]


def _weak_hand() -> GameBuilder:
    """Seat 1 wins on the dealer's B8 with 平和 2 + 门前清 2 + 连六 1 = 5 < 8."""
    g = GameBuilder()
    g.hand(0, dealer=0)
    g.deal(0, "B8 F1 F1 F1 F2 F2 F2 F3 F3 F3 J1 J1 J1 J2")
    g.deal(1, "W1 W2 W3 W4 W5 W6 T2 T3 T4 B6 B7 B5 B5")
    g.deal(2, "F4 F4 F4 J3 J3 J3 B1 B1 B1 B2 B2 B2 B9")
    g.deal(3, "T6 T6 T6 T7 T7 T7 T8 T8 T8 W9 W9 W9 T9")
    d = g.discard(0, "B8")
    g.win(1, "B8", from_seat=0, dseq=d)
    return g


def test_below_8_fan_minimum_is_a_false_win(mcr):
    events = _weak_hand().events()
    result = run(events, mode="audit", ruleset=mcr)
    (f,) = result.findings
    assert (f.seq, f.rule_id, f.seat) == (len(events) - 1, "below_8_fan_minimum", 1)
    assert "competition.md §B1" in f.source
    assert result.state.scores == (0, 0, 0, 0) and result.state.false_win
    assert result.state.phase == "claims"  # the declared win is not a win: play could go on
    with pytest.raises(ReplayError):
        run(events, mode="strict", ruleset=mcr)


def test_false_win_penalty_option(mcr_with):
    """With false_win_penalty on, the offender pays 10 to each other player (−30 / +10)."""
    events = _weak_hand().events()
    st = run(events, mode="audit", ruleset=mcr_with(false_win_penalty=True)).state
    assert st.scores == (10, -30, 10, 10)
    assert [(e.kind, e.changes) for e in st.score_log] == [("penalty", (10, -30, 10, 10))]


def _two_robbers() -> GameBuilder:
    """Seat 1 adds B5 to its pung; seat 3 (its 对家) and seat 2 (its 下家) both wait on B5
    (W1-W9 B4 B6 T2 T2 and T1-T9 B4 B6 W5 W5: closed waits). Seat 3's win is recorded
    first, but seat 2 is the nearer after the konger (seed 003 抢杠: 按补杠者以下家→对门→上家)."""
    g = GameBuilder()
    g.hand(0, dealer=0)
    g.deal(0, "B5 F1 F1 F1 F2 F2 F2 F3 F3 F3 J1 J1 J1")
    g.deal(1, "B5 B5 F4 F4 F4 J2 J2 J2 J3 J3 J3 B9 B9")
    g.deal(2, "T1 T2 T3 T4 T5 T6 T7 T8 T9 B4 B6 W5 W5")
    g.deal(3, "W1 W2 W3 W4 W5 W6 W7 W8 W9 B4 B6 T2 T2")
    g.draw(0, "J2")
    d = g.discard(0, "B5")
    g.pung(1, "B5", d)
    g.discard(1, "B9")
    g.draw(2, "B1")
    g.discard(2, "B1")
    g.draw(3, "B1")
    g.discard(3, "B1")
    g.draw(0, "B2")
    g.discard(0, "B2")
    g.draw(1, "B5")
    k = g.kong(1, "added", "B5")
    g.win(3, "B5", from_seat=1, dseq=k, robbing=True)
    g.win(2, "B5", from_seat=1, dseq=k, robbing=True)
    return g


def test_two_seats_rob_one_kong(mcr, mcr_with):
    events = _two_robbers().events()
    result = run(events, mode="audit", ruleset=mcr)
    (f,) = result.findings
    assert f.rule_id == "one_winner_per_discard" and "seat 2 is nearer" in f.message
    # seat 3: 清龙 16 + 抢杠和 8 + 门前清 2 + 平和 2 + 喜相逢 1 + 坎张 1 = 30; seat 1 pays 38
    assert result.state.scores == (-8, -38, -8, 54)
    both = run(events, mode="strict", ruleset=mcr_with(multiple_winners="all")).state
    # seat 2: 清龙 16 + 抢杠和 8 + 门前清 2 + 平和 2 + 喜相逢 1 (T456 B456) + 坎张 1 = 30
    assert [w.points for w in both.wins] == [30, 30]
    assert both.scores == (-16, -2 * 38, 54 - 8, 54 - 8)
