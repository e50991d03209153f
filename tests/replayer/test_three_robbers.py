"""Robbing one added kong with two and three seats (seed 003: "若有两家成和牌按补杠者以下家→对门→
上家为顺序，排前者应先得此牌成和若三家都可“抢”此牌成和，则按“平盘”处理均不得和牌，庄家重坐一次庄并且
不作连庄论"; competition.md §B1), replayed under ``mcr1998``.

Seat 2 pungs B5 from seat 1 and later adds the drawn fourth B5. Seat 3 (W1–W9, B4 _ B6),
seat 0 (T1 T9 F1 pungs, B4 _ B6) and seat 1 (B1 B2 F3 pungs, B3 B4 + J2 pair) all wait on B5.
Turn order after the konger: 3, 0, 1.
"""

from __future__ import annotations

from replay_builder import GameBuilder
from replayer.replay import run
from replayer.rules.base import get_ruleset


def three_robbers(robbers: tuple[int, ...], options: dict | None = None) -> tuple[GameBuilder, dict[str, int]]:
    g = GameBuilder(ruleset="mcr1998", options=options)
    s: dict[str, int] = {}
    g.hand(0, dealer=0, wind="F1")
    g.deal(0, "T1 T1 T1 T9 T9 T9 F1 F1 F1 B4 B6 J3 J3 T5")
    g.deal(1, "B5 B1 B1 B1 B2 B2 B2 B3 B4 F3 F3 F3 J2")
    g.deal(2, "B5 B5 B7 B7 B7 B8 B8 B8 T3 T3 T3 T4 T4")
    g.deal(3, "W1 W2 W3 W4 W5 W6 W7 W8 W9 B4 B6 T2 T2")
    g.discard(0, "T5")
    g.draw(1, "F2")
    s["d_b5"] = g.discard(1, "B5")
    g.pung(2, "B5", s["d_b5"])
    g.discard(2, "T4")
    g.draw(3, "J1")
    g.discard(3, "J1")
    g.draw(0, "W1")
    g.discard(0, "W1")
    g.draw(1, "J2")
    g.discard(1, "F2")
    g.draw(2, "B5")
    s["kong"] = g.kong(2, "added", "B5")
    for seat in robbers:
        s[f"win{seat}"] = g.win(seat, "B5", from_seat=2, dseq=s["kong"], robbing=True)
    g.end(0)
    return g, s


def test_three_robbers_void_the_hand():
    g, s = three_robbers((3, 0, 1))
    result = run(g.events(), mode="strict", ruleset=get_ruleset("mcr1998"))
    st = result.state
    assert st.scores == (0, 0, 0, 0)
    (hand,) = st.hands
    assert hand.void and hand.winners == () and hand.changes == (0, 0, 0, 0)
    plan = get_ruleset("mcr1998").next_hand(st)
    assert plan is not None and plan.dealer == 0 and plan.prevalent_wind == "F1"


def test_three_robbers_void_is_no_continuation():
    """Under 连庄 too, the void hand neither keeps nor passes a continuation: the same
    dealer deals again."""
    g, _ = three_robbers((3, 0, 1), {"dealer_rotation": "dealer_continues"})
    rs = get_ruleset("mcr1998", {"dealer_rotation": "dealer_continues"})
    st = run(g.events(), mode="strict", ruleset=rs).state
    assert st.hands[0].void and rs.next_hand(st).dealer == 0


def test_two_robbers_the_nearest_after_the_konger_wins():
    g, s = three_robbers((3, 0))
    result = run(g.events(), mode="audit", ruleset=get_ruleset("mcr1998"))
    assert not result.findings
    st = result.state
    assert [w.seat for w in st.wins if w.legal] == [3]
    assert not st.hands[0].void and st.hands[0].winners == (3,)


def test_a_farther_robber_cannot_take_the_win():
    g, s = three_robbers((0, 3))
    result = run(g.events(), mode="audit", ruleset=get_ruleset("mcr1998"))
    assert [(f.seq, f.rule_id) for f in result.findings] == [(s["win3"], "one_winner_per_discard")]


def test_first_wins_option_keeps_the_first_robber():
    g, s = three_robbers((3, 0, 1), {"three_robbers": "first_wins"})
    rs = get_ruleset("mcr1998", {"three_robbers": "first_wins"})
    result = run(g.events(), mode="audit", ruleset=rs)
    assert [w.seat for w in result.state.wins if w.legal] == [3]
    assert not result.state.hands[0].void
