"""Referee rulings as events that count (competition.md §A9): a penalty with its rule, a
voided win, points removed from play, 相公 — each refers to an earlier event, changes the
scores from there on, and leaves history as it was."""

from __future__ import annotations

from eventlog import events as ev
from replay_hands import robbing_hand
from replayer.replay import run
from replayer.rules.base import get_ruleset


def test_void_win_undoes_its_settlement(mcr):
    """The robbing win of replay_hands (seat 3 +54; seat 2 −38; seats 0, 1 −8) is voided."""
    g, s = robbing_hand()
    before = run(g.events(), mode="strict", ruleset=mcr).state.scores
    assert before == (-8, -8, -38, 54)
    g.add(ev.RefereeRuling(ref_seq=s["win"], ruling="the kong could not be robbed", kind="void_win",
                           rule="competition.md §B1"))
    st = run(g.events(), mode="strict", ruleset=mcr).state
    assert st.scores == (0, 0, 0, 0)
    assert [w.legal for w in st.wins] == [False]
    assert st.score_log[-1].kind == "ruling" and "§B1" in st.score_log[-1].reason


def test_points_removed_leave_play(mcr):
    g, s = robbing_hand()
    g.add(ev.RefereeRuling(ref_seq=s["win"], ruling="slow play", kind="points_removed",
                           rule="competition.md §A9", score_changes=[0, -10, 0, 0]))
    st = run(g.events(), mode="strict", ruleset=mcr).state
    assert st.scores == (-8, -18, -38, 54) and sum(st.scores) == -10


def test_a_ruling_must_follow_the_event_it_rules_on(mcr):
    g, s = robbing_hand()
    g.add(ev.RefereeRuling(ref_seq=999, ruling="?", kind="note"))
    findings = run(g.events(), mode="audit", ruleset=mcr).findings
    assert [f.rule_id for f in findings] == ["ruling_refers_to_no_event"]


def test_void_win_needs_a_win(mcr):
    g, s = robbing_hand()
    g.add(ev.RefereeRuling(ref_seq=s["kong"], ruling="?", kind="void_win"))
    assert [f.rule_id for f in run(g.events(), mode="audit", ruleset=mcr).findings] == ["ruling_refers_to_no_event"]


def test_dead_hand_ruling_in_the_chip_format():
    """相公 by a ruling (kind dead_hand, seat 1): seat 1's later pung is a finding."""
    from replay_builder import GameBuilder

    g = GameBuilder(ruleset="cjm_chips", initial_scores=[100] * 4)
    g.hand(0, dealer=0)
    g.deal(0, "B9 W1 W1 W1 W2 W2 W2 W3 W3 W3 F1 F1 F2 F2")
    g.deal(1, "B9 B9 T1 T2 T3 T4 T5 T6 T7 T8 F3 J1 J1")
    g.deal(2, "J2 J2 J2 B1 B2 B3 B4 B5 B6 B7 F4 F4 B8")
    g.deal(3, "B8 B8 J3 W4 W5 W6 W7 W8 W9 T9 T9 F3 W4")
    deal = 1
    g.add(ev.RefereeRuling(ref_seq=deal, ruling="相公: 14 tiles", kind="dead_hand", seat=1, rule="competition.md §A9"))
    d = g.discard(0, "B9")
    pung = g.pung(1, "B9", d)
    result = run(g.events(), mode="audit", ruleset=get_ruleset("cjm_chips"))
    assert [(f.seq, f.rule_id) for f in result.findings] == [(pung, "xianggong")]
