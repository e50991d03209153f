"""The worked examples of docs/reference/rules/competition.md §A11 as whole hands replayed in
strict mode under ``cjm_chips`` (provisional pattern values). Seats: E 0 (dealer), S 1, W 2,
N 3; each player starts with 100 chips (§A5). Every T is counted by hand in the docstring
from §A6.2/§A6.3, every payment from §A6.4/§A7/§A8."""

from __future__ import annotations

from replay_builder import GameBuilder
from replay_hands import HEAVENLY, OTHERS
from replayer.replay import run
from replayer.rules.base import get_ruleset

CHIPS = [100, 100, 100, 100]


def game(options: dict | None = None) -> GameBuilder:
    return GameBuilder(ruleset="cjm_chips", options=options, initial_scores=CHIPS)


def replay(g: GameBuilder, options: dict | None = None):
    return run(g.events(), mode="strict", ruleset=get_ruleset("cjm_chips", options)).state


def test_example_1_self_drawn():
    """S self-draws W9 onto W234 W567 F1F1F1 F2F2F2 W9 with one flower: 混一色 6 + 门清 8 +
    flower 2 + single wait 4 = 20 → E, W, N pay 20 each: S +60."""
    g = game()
    g.hand(0, dealer=0)
    g.deal(0, "T1 T2 T3 T4 T5 T6 T7 T8 T9 B1 B2 B3 B4 J1")
    g.deal(1, "W2 W3 W4 W5 W6 W7 F1 F1 F1 F2 F2 F2 H1")
    g.deal(2, "B5 B6 B7 B8 B9 T1 T2 T3 T4 T5 T6 T7 T8")
    g.deal(3, "W1 W1 W1 W8 W8 W8 J3 J3 J3 B5 B6 B7 F4")
    g.flower(1, "H1", "W9")
    g.discard(0, "J1")
    g.draw(1, "W9")
    g.win(1, "W9")
    g.end(0)
    st = replay(g)
    (w,) = st.wins
    assert w.points == 20 and w.score.provisional_values
    assert st.scores == (80, 160, 80, 80)


def test_example_2_discard():
    """W discards T9 into N's T555 (claimed) T123 T666 T22 T78: 清一色 24 + 2 flowers 4 = 28
    (T6/T9 two-sided: no single wait; a claimed set: no 门清) → W pays 56."""
    g = game()
    g.hand(0, dealer=0)
    g.deal(0, "T5 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 F1")
    g.deal(1, "B4 B5 B6 B7 B8 B9 F2 F2 F3 F3 J2 J2 J3")
    g.deal(2, "W1 W2 W3 W4 W5 W6 F4 F4 F4 J3 J3 B1 B1")
    g.deal(3, "T5 T5 T1 T2 T3 T6 T6 T6 T2 T2 T7 H2 H3")
    g.flower(3, "H2", "T8")
    g.flower(3, "H3", "J1")
    d = g.discard(0, "T5")
    g.pung(3, "T5", d)
    g.discard(3, "J1")
    g.draw(0, "W9")
    g.discard(0, "W9")
    g.draw(1, "B1")
    g.discard(1, "B1")
    g.draw(2, "T9")
    d2 = g.discard(2, "T9")
    g.win(3, "T9", from_seat=2, dseq=d2)
    g.end(0)
    st = replay(g)
    assert st.wins[0].points == 28
    assert st.scores == (100, 100, 44, 156)


def test_example_3_robbing_a_kong():
    """N adds the fourth B8 to its pung; E (B1–B7 B9, T5 T5, claimed J1 pung) robs it: 清龙 16
    + single (closed) wait 4 = 20 (no 夹绝张 when robbing) → N pays 3T = 60; the robbed kong
    is not paid."""
    g = game()
    g.hand(0, dealer=0)
    g.deal(0, "B1 B2 B3 B4 B5 B6 B7 B9 T5 T5 J1 J1 W1 W2")
    g.deal(1, "J1 B8 T1 T1 T1 T2 T2 T2 T3 T3 T3 F1 F1")
    g.deal(2, "W4 W4 W4 W5 W5 W5 W6 W6 W6 F2 F2 F2 J3")
    g.deal(3, "B8 B8 T7 T7 T7 T8 T8 T8 T9 T9 T9 F3 F3")
    g.discard(0, "W2")
    g.draw(1, "F4")
    d = g.discard(1, "J1")
    g.pung(0, "J1", d)
    g.discard(0, "W1")
    g.draw(1, "F4")
    d = g.discard(1, "B8")
    g.pung(3, "B8", d)
    g.discard(3, "F3")
    g.draw(0, "W3")
    g.discard(0, "W3")
    g.draw(1, "W7")
    g.discard(1, "W7")
    g.draw(2, "W8")
    g.discard(2, "W8")
    g.draw(3, "B8")
    k = g.kong(3, "added", "B8")
    g.win(0, "B8", from_seat=3, dseq=k, robbing=True)
    g.end(0)
    st = replay(g)
    assert st.wins[0].points == 20
    assert st.scores == (160, 100, 100, 40)


def test_example_4_doubled_for_the_continuing_dealer():
    """Hand 0: E is dealt W1–W9 J1J1J1 F2F2 and wins on F2 (清龙 16 + 混一色 6 + 门清 8 +
    single 4 = 34, each pays 34). Hand 1 is dealt by E again (倍打): E self-draws W9 onto
    W234 W567 F1F1F1 F2F2F2 W9 with one flower: T = 20, doubled → each pays 40: E +120."""
    g = game()
    g.hand(0, dealer=0)
    g.deal(0, HEAVENLY)
    for k, tiles in enumerate(OTHERS):
        g.deal(1 + k, tiles)
    g.win(0, "F2")
    g.end(0)
    g.hand(1, dealer=0)
    g.deal(0, "W2 W3 W4 W5 W6 W7 F1 F1 F1 F2 F2 F2 H1 J3")
    g.deal(1, "T1 T2 T3 T4 T5 T6 T7 T8 T9 B1 B2 B3 B4")
    g.deal(2, "B5 B6 B7 B8 B9 T1 T2 T3 T4 T5 T6 T7 T8")
    g.deal(3, "W1 W1 W1 W8 W8 W8 J1 J1 J1 B5 B6 B7 F4")
    g.flower(0, "H1", "W9")
    g.discard(0, "J3")
    for seat, tile in ((1, "F3"), (2, "F3"), (3, "F4")):
        g.draw(seat, tile)
        g.discard(seat, tile)
    g.draw(0, "W9")
    g.win(0, "W9")
    g.end(1)
    st = replay(g)
    assert [h.changes for h in st.hands] == [(102, -34, -34, -34), (120, -40, -40, -40)]
    assert st.scores == (322, 26, 26, 26)


def test_example_5_kongs():
    """S pungs E's T1 and later adds the drawn fourth (补杠: E, W, N −4); W kongs N's
    discarded J2 (点杠: N −12); N declares a concealed kong of B9 (暗杠: E, S, W −6).
    Net E −10, S +6, W +2, N +2."""
    g = game()
    g.hand(0, dealer=0)
    g.deal(0, "T1 W1 W1 W1 W2 W2 W2 W3 W3 W3 F1 F1 F2 F2")
    g.deal(1, "T1 T1 T2 T3 T4 T5 T6 T7 T8 F3 J1 J1 J3")
    g.deal(2, "J2 J2 J2 B1 B2 B3 B4 B5 B6 B7 B8 F4 F4")
    g.deal(3, "B9 B9 B9 J2 W4 W5 W6 W7 W8 W9 T9 T9 F3")
    d = g.discard(0, "T1")
    g.pung(1, "T1", d)
    g.discard(1, "F3")
    g.draw(2, "W4")
    g.discard(2, "W4")
    g.draw(3, "W4")
    d2 = g.discard(3, "J2")
    g.kong(2, "melded", "J2", d2)
    g.draw(2, "T9", "kong_replacement")
    g.discard(2, "T9")
    g.draw(3, "B9")
    g.kong(3, "concealed", "B9")
    g.draw(3, "W4", "kong_replacement")
    g.discard(3, "W4")
    g.draw(0, "F2")
    g.discard(0, "F2")
    g.draw(1, "T1")
    g.kong(1, "added", "T1")
    g.draw(1, "J3", "kong_replacement")
    g.discard(1, "J3")
    st = replay(g)
    assert tuple(s - 100 for s in st.scores) == (-10, 6, 2, 2)


def test_example_6_chase():
    """追牌: E, S, W, N discard B9 in a row → E pays 4 to each: E −12, S/W/N +4."""
    g = game()
    g.hand(0, dealer=0)
    g.deal(0, "B9 W1 W1 W1 W2 W2 W2 W3 W3 W3 F1 F1 F2 F2")
    g.deal(1, "B9 T1 T1 T2 T3 T4 T5 T6 T7 T8 F3 J1 J1")
    g.deal(2, "B9 J2 J2 J2 B1 B2 B3 B4 B5 B6 B7 F4 F4")
    g.deal(3, "B9 B8 B8 J3 W4 W5 W6 W7 W8 W9 T9 T9 F3")
    g.discard(0, "B9")
    for seat in (1, 2, 3):
        g.draw(seat, "W4" if seat < 3 else "J3")
        g.discard(seat, "B9")
    st = replay(g)
    assert st.scores == (88, 104, 104, 104)


def _three_chows(doubled_flush: bool = False) -> GameBuilder:
    g = game()
    g.hand(0, dealer=0)
    g.deal(0, "W1 W4 W7 T1 T1 T1 T2 T2 T2 B1 B1 B1 B2 B2")
    g.deal(1, "W2 W3 W5 W6 W8 W9 W5 W5 F1 F1 J1 J2 J3")
    g.deal(2, "T3 T3 T3 T4 T4 T4 B5 B5 B5 B6 B6 B6 F2")
    g.deal(3, "T5 T5 T5 T6 T6 T6 T7 T7 T7 T8 T8 T8 T9")
    steps = (("W1", "W1 W2 W3", "J1", "B3"), ("W4", "W4 W5 W6", "J2", "B4"), ("W7", "W7 W8 W9", "J3", None))
    fillers = iter([("F3", "F4"), ("F3", "F4"), ("J1", "J2")])
    for tile, chow, junk, next_draw in steps:
        d = g.discard(0, tile)
        g.chow(1, chow, tile, d)
        g.discard(1, junk)
        w, n = next(fillers)
        g.draw(2, w)
        g.discard(2, w)
        g.draw(3, n)
        g.discard(3, n)
        g.draw(0, next_draw or "B5")
    g.discard(0, "B5")
    g.draw(1, "F1")
    g.win(1, "F1")
    g.end(0)
    return g


def test_example_7_liability_after_three_claims():
    """包牌: S chows E's W1, W4 and W7 in a row, then self-draws F1 (W123 W456 W789 claimed,
    F1F1F1, W5W5): 清龙 16 + 混一色 6 = 22 (a two-tile wait: no single wait; claimed: no
    门清) → E alone pays 3T = 66."""
    st = replay(_three_chows())
    assert st.wins[0].points == 22
    assert st.scores == (34, 166, 100, 100)


def test_zero_chip_session_end():
    """局结 with two (here three) players at 0 chips (§A10, A-Amb-1). Hand 0: E's heavenly
    win, T = 34, each pays 34 → 66 left. Hand 1 is dealt by E again (倍打): the same win owes
    68 each, capped at 66 (§A5) → S, W, N at 0: the 局 is over (E first, so the win may end it)."""
    g = game()
    for n in (0, 1):
        g.hand(n, dealer=0)
        g.deal(0, HEAVENLY)
        for k, tiles in enumerate(OTHERS):
            g.deal(1 + k, tiles)
        g.win(0, "F2")
        g.end(n)
    rs = get_ruleset("cjm_chips")
    st = run(g.events(), mode="strict", ruleset=rs).state
    assert st.scores == (400, 0, 0, 0)
    assert st.hands[1].changes == (198, -66, -66, -66)
    assert st.game_over and rs.next_hand(st) is None


def test_no_hand_after_the_session_ended():
    g = game()
    for n in (0, 1, 2):
        g.hand(n, dealer=0)
        g.deal(0, HEAVENLY)
        for k, tiles in enumerate(OTHERS):
            g.deal(1 + k, tiles)
        g.win(0, "F2")
        g.end(n)
    result = run(g.events(), mode="audit", ruleset=get_ruleset("cjm_chips"))
    assert "game_over" in {f.rule_id for f in result.findings}


def test_dead_hand_may_not_claim():
    """相公 (§A9): after a false win (诈和) S's hand is dead; its later pung is a finding."""
    g = game()
    g.hand(0, dealer=0)
    g.deal(0, "B9 W1 W1 W1 W2 W2 W2 W3 W3 W3 F1 F1 F2 F2")
    g.deal(1, "B9 B9 T1 T2 T3 T4 T5 T6 T7 T8 F3 J1 J1")
    g.deal(2, "J2 J2 J2 B1 B2 B3 B4 B5 B6 B7 F4 F4 B8")
    g.deal(3, "B8 B8 J3 W4 W5 W6 W7 W8 W9 T9 T9 F3 W4")
    d = g.discard(0, "B9")
    false = g.win(1, "B9", from_seat=0, dseq=d)
    pung = g.pung(1, "B9", d)
    result = run(g.events(), mode="audit", ruleset=get_ruleset("cjm_chips"))
    assert [(f.seq, f.rule_id) for f in result.findings] == [(false, "false_win"), (pung, "xianggong")]


def test_false_win_is_not_dead_without_a_win_declared():
    """The same pung without the false win is legal."""
    g = game()
    g.hand(0, dealer=0)
    g.deal(0, "B9 W1 W1 W1 W2 W2 W2 W3 W3 W3 F1 F1 F2 F2")
    g.deal(1, "B9 B9 T1 T2 T3 T4 T5 T6 T7 T8 F3 J1 J1")
    g.deal(2, "J2 J2 J2 B1 B2 B3 B4 B5 B6 B7 F4 F4 B8")
    g.deal(3, "B8 B8 J3 W4 W5 W6 W7 W8 W9 T9 T9 F3 W4")
    d = g.discard(0, "B9")
    g.pung(1, "B9", d)
    assert not run(g.events(), mode="audit", ruleset=get_ruleset("cjm_chips")).findings


def _w_at_15() -> GameBuilder:
    """Hand 0 (dealer E), options EXAMPLE_8: S self-draws T2 onto W1–W9 T1T1T1 T2 (waits
    T2/T3: no single wait): 清龙 77 + 门清 8 = 85 → E, W, N pay 85 each: (15, 355, 15, 15);
    the deal passes to S."""
    g = game(EXAMPLE_8)
    g.hand(0, dealer=0)
    g.deal(0, "B1 B2 B3 B4 B5 B6 B7 B8 B9 J1 J1 J2 J2 J3")
    g.deal(1, "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 T2")
    g.deal(2, "B1 B2 B3 B4 B5 B6 B7 B8 B9 F1 F1 F2 F2")
    g.deal(3, "W1 W2 W3 W4 W5 W6 W7 W8 W9 F3 F3 F4 F4")
    g.discard(0, "J3")
    g.draw(1, "T2")
    g.win(1, "T2")
    g.end(0)
    return g


def _w_at_zero() -> GameBuilder:
    """Hands 0–1 of example 8: (15, 355, 0, 30) after them; the next dealer is W."""
    g = _w_at_15()
    # Hand 1 (dealer S, not continuing: no 倍打) — example 2's tiles with S dealing: W discards
    # T9 into N's 清一色 24 + 2 flowers 4 = 28, owes 2T = 56, has 15: pays 15 and is at 0.
    g.hand(1, dealer=1)
    g.deal(1, "T5 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 F1")
    g.deal(2, "W1 W2 W3 W4 W5 W6 F4 F4 F4 J3 J3 B1 B1")
    g.deal(3, "T5 T5 T1 T2 T3 T6 T6 T6 T2 T2 T7 H2 H3")
    g.deal(0, "B4 B5 B6 B7 B8 B9 F2 F2 F3 F3 J2 J2 J3")
    g.flower(3, "H2", "T8")
    g.flower(3, "H3", "J1")
    d = g.discard(1, "T5")
    g.pung(3, "T5", d)
    g.discard(3, "J1")
    g.draw(0, "W9")
    g.discard(0, "W9")
    g.draw(1, "B1")
    g.discard(1, "B1")
    g.draw(2, "T9")
    d2 = g.discard(2, "T9")
    g.win(3, "T9", from_seat=2, dseq=d2)
    g.end(1)
    return g


def _example_8() -> tuple[GameBuilder, int]:
    """Hands 0–1 of example 8 and hand 2 up to W's first discard; returns the builder and
    that discard's seq. Options: 清龙 confirmed at 77, so that hand 0 leaves W with 15 chips."""
    g = _w_at_zero()
    # Hand 2 (dealer W, the deal passed): W discards W9, which completes S's W234 W567
    # F1F1F1 F2F2F2 W9 (混一色 6 + 门清 8 + single wait 4 = 18) — but W has no chips.
    g.hand(2, dealer=2)
    g.deal(2, "W9 T1 T2 T3 T4 T5 T6 T7 T8 B1 B2 B3 B4 J1")
    g.deal(3, "B5 B6 B7 B8 B9 T1 T2 T3 T4 T5 T6 T7 T8")
    g.deal(0, "W1 W1 W1 W8 W8 W8 J3 J3 J3 B5 B6 B7 F4")
    g.deal(1, "W2 W3 W4 W5 W6 W7 F1 F1 F1 F2 F2 F2 W9")
    return g, g.discard(2, "W9")


EXAMPLE_8 = {"cjm_fan_values": {"pure_straight": 77}}


def test_example_8_chip_cap_whole_hands():
    """§A11 example 8 / §A5: W has 15 chips and discards into T = 28 (owes 56) → W pays 15 and
    drops to 0; from then on nobody may win on W's discards (no win is offered on them, and
    one declared anyway is a finding: the winner pays the would-be score 2T = 36 to W and 10
    to each of the three others — seed 000 §38)."""
    from replayer.actions import legal_actions
    from replayer.replay import run as run_

    g, d = _example_8()
    rs = get_ruleset("cjm_chips", EXAMPLE_8)
    st = run_(g.events(), mode="strict", ruleset=rs).state
    assert [h.changes for h in st.hands] == [(-85, 255, -85, -85), (0, 0, -15, 15)]
    assert st.scores == (15, 355, 0, 30) and not st.game_over  # one player at 0: no 局结 (A-Amb-1)
    assert not [a for a in legal_actions(st, rs) if a.is_win]
    g.win(1, "W9", from_seat=2, dseq=d)
    res = run_(g.events(), mode="audit", ruleset=rs)
    assert [f.rule_id for f in res.findings] == ["win_on_zero_chip_discard"]
    assert res.state.scores == (15 + 10, 355 - 36 - 30, 0 + 36 + 10, 30 + 10)


def _zero_chip_win_reported(changes: list[int]):
    """Example 8's table, S wins on W's discard all the same (T = 混一色 6 + 门清 8 + single
    wait 4 = 18), and the table reports ``changes`` for it."""
    from eventlog import events as ev

    g, d = _example_8()
    g.win(1, "W9", from_seat=2, dseq=d)
    g.add(ev.ScoreReported(winner=1, score_changes=changes))
    return run(g.events(), mode="audit", ruleset=get_ruleset("cjm_chips", EXAMPLE_8))


def test_a_reported_zero_chip_penalty_agrees_a5():
    """§A5: the win is not legal, and what the table settles for it is the penalty — 2T = 36
    to W, the zero-chip player, and 10 to each of the three others: E +10, S −66, W +46, N +10.
    A report of exactly that agrees: the one finding is the win's."""
    res = _zero_chip_win_reported([10, -66, 46, 10])
    assert [f.rule_id for f in res.findings] == ["win_on_zero_chip_discard"]
    rep = res.state.reported[-1]
    assert rep.agrees and rep.computed_changes == (10, -66, 46, 10)


def test_a_reported_zero_chip_penalty_that_differs_is_a_mismatch_a5():
    """A report of the would-be win (2T = 36 from W) instead of the §A5 penalty disagrees,
    and the finding names the penalty's changes."""
    res = _zero_chip_win_reported([0, 36, -36, 0])
    bad = [f for f in res.findings if f.rule_id == "reported_score_mismatch"]
    assert len(bad) == 1 and "computed [10, -66, 46, 10]" in bad[0].message


def _hung_single(*, swap: bool) -> GameBuilder:
    """S claims four sets from E, W, N, E (never three in a row from one player: no 包牌 by
    claims) and is left with J1 alone, which is hung (全求独钓, §A8.2). Without ``swap`` W then
    discards J1 into S's win; with ``swap`` S first draws W9 and discards J1 (the hung tile is
    swapped), and W discards W9 into the win."""
    g = game()
    g.hand(0, dealer=0)
    g.deal(0, "W3 W6 T1 T2 T3 T7 T8 T9 B1 B2 B3 F1 F2 F3")
    g.deal(1, "W1 W2 T5 T5 B7 B7 W4 W5 J1 F4 F4 J3 J3")
    g.deal(2, "T5 B4 B5 B6 B8 B9 T4 T6 F1 F2 J2 J2 J2")
    g.deal(3, "B7 W7 W8 W9 T7 T8 F3 F3 F4 B5 B6 B4 W1")
    d = g.discard(0, "W3")
    g.chow(1, "W1 W2 W3", "W3", d)
    g.discard(1, "F4")
    g.draw(2, "T1")
    d = g.discard(2, "T5")
    g.pung(1, "T5", d)
    g.discard(1, "F4")
    g.draw(2, "T2")
    g.discard(2, "T2")
    g.draw(3, "T3")
    d = g.discard(3, "B7")
    g.pung(1, "B7", d)
    g.discard(1, "J3")
    for seat, t in ((2, "B1"), (3, "B2")):
        g.draw(seat, t)
        g.discard(seat, t)
    g.draw(0, "B3")
    d = g.discard(0, "W6")
    g.chow(1, "W4 W5 W6", "W6", d)
    g.discard(1, "J3")  # S holds J1 alone: it is hung
    win_tile = "J1"
    if swap:
        for seat, t in ((2, "T1"), (3, "T2"), (0, "T3")):
            g.draw(seat, t)
            g.discard(seat, t)
        g.draw(1, "W9")
        g.discard(1, "J1")  # S swaps the hung tile: the liability ends
        win_tile = "W9"
    g.draw(2, win_tile)
    d = g.discard(2, win_tile)
    g.win(1, win_tile, from_seat=2, dseq=d)
    g.end(0)
    return g


def test_hung_tile_of_a_melded_single_wait_makes_the_discarder_pay_for_all_three():
    """§A8.2: S (W123 T555 B777 W456 claimed) waits on the hung J1; W discards J1 into it:
    全求独钓 6 + single wait 4 = 10 (no 门清, no flowers) → W pays 3T = 30 instead of 2T."""
    st = replay(_hung_single(swap=False))
    (w,) = st.wins
    assert w.points == 10 and [line.name_zh for line in w.score.lines()] == ["全求独钓", "单张和牌"]
    assert st.scores == (100, 130, 70, 100)


def test_after_the_hung_tile_is_swapped_a_discard_into_the_win_is_ordinary():
    """§A8.2 "挂牌方换牌后点炮方不再包牌，仅处理为点炮": the same win on W9 after S swapped J1
    for W9: T = 10, W pays 2T = 20."""
    st = replay(_hung_single(swap=True))
    assert st.wins[0].points == 10
    assert st.scores == (100, 120, 80, 100)


def test_flower_kong_is_paid_at_once():
    """§A7 花杠: E is dealt the four seasons 春夏秋冬 (H1–H4) and replaces them: a complete set,
    each of the three others pays 8 at once → E +24. The four plants come to N one by one
    in play: paid when the fourth is replaced (N +24)."""
    g = game()
    g.hand(0, dealer=0)
    g.deal(0, "H1 H2 H3 H4 W1 W2 W3 W4 W5 W6 W7 W8 W9 J1")
    g.deal(1, "T1 T2 T3 T4 T5 T6 T7 T8 T9 B1 B2 B3 B4")
    g.deal(2, "T1 T2 T3 T4 T5 T6 T7 T8 T9 B1 B2 B3 B4")
    g.deal(3, "H5 H6 H7 B5 B6 B7 B8 B9 F1 F2 F3 F4 J2")
    for flower, tile in (("H1", "J3"), ("H2", "J3"), ("H3", "J3"), ("H4", "F1")):
        g.flower(0, flower, tile)
    for flower, tile in (("H5", "F2"), ("H6", "F3"), ("H7", "F4")):
        g.flower(3, flower, tile)
    assert replay(g).scores == (124, 92, 92, 92)
    g.discard(0, "J1")
    g.draw(1, "W1")
    g.discard(1, "W1")
    g.draw(2, "W2")
    g.discard(2, "W2")
    g.draw(3, "H8")
    g.flower(3, "H8", "J2")
    assert replay(g).scores == (116, 84, 84, 116)


def test_penalties_are_in_units_of_ten_at_most_fifty():
    """§A9 罚分: units of 10, at most 50 per decision. −30 (10 to each other) and a ruling
    removing 50 from play (死分) stand; −60 and −15 are findings."""
    from eventlog import events as ev

    def findings(changes: list[int], kind: str = "penalty") -> list[str]:
        g = game()
        g.hand(0, dealer=0)
        g.deal(0, "T1 T2 T3 T4 T5 T6 T7 T8 T9 B1 B2 B3 B4 J1")
        d = g.deal(1, "W2 W3 W4 W5 W6 W7 F1 F1 F1 F2 F2 F2 B9")
        g.deal(2, "B5 B6 B7 B8 B9 T1 T2 T3 T4 T5 T6 T7 T8")
        g.deal(3, "W1 W1 W1 W8 W8 W8 J3 J3 J3 B5 B6 B7 F4")
        if kind == "event":
            g.add(ev.Penalty(seat=1, score_changes=changes, rule="competition.md §A9"))
        else:
            g.add(ev.RefereeRuling(ref_seq=d, ruling="slow play", kind=kind, seat=1, score_changes=changes,
                                   rule="competition.md §A9"))
        return [f.rule_id for f in run(g.events(), mode="audit", ruleset=get_ruleset("cjm_chips")).findings]

    assert findings([10, -30, 10, 10]) == []
    assert findings([0, -50, 0, 0], "points_removed") == []
    assert findings([20, -60, 20, 20]) == ["penalty_units"]
    assert findings([5, -15, 5, 5], "event") == ["penalty_units"]


def test_a_second_winner_on_a_discard_that_emptied_the_stack_still_wins():
    """§A6.5: several win on one discard, the discarder pays them in turn order from its 下家
    until its chips run out; the zero-chip rule (§A5) is about a discarder with no chips *when
    it discards*. W (15 chips) discards W9 into N's 混一色 6 + 门清 8 + single wait 4 = 18
    (owes 36: pays 15, now 0) and E's 对对和 6 + 混一色 6 + 门清 8 + single wait 4 = 24 (owes 48:
    nothing left) — both wins are legal. (Simulated game 124 of seed "competition" found it.)"""
    g = _w_at_15()
    g.hand(1, dealer=1)
    g.deal(1, "T1 T2 T3 T4 T5 T6 T7 T8 T9 B1 B2 B3 B4 J2")
    g.deal(2, "B5 B6 B7 B8 B9 T1 T2 T3 T4 T5 T6 T7 T8")
    g.deal(3, "W2 W3 W4 W5 W6 W7 F1 F1 F1 F2 F2 F2 W9")
    g.deal(0, "W1 W1 W1 W3 W3 W3 W5 W5 W5 J1 J1 J1 W9")
    g.discard(1, "J2")
    g.draw(2, "W9")
    d = g.discard(2, "W9")
    g.win(3, "W9", from_seat=2, dseq=d)
    g.win(0, "W9", from_seat=2, dseq=d)
    g.end(1)
    st = replay(g, EXAMPLE_8)
    assert [(w.seat, w.legal, w.points) for w in st.wins] == [(3, True, 18), (0, True, 24)]
    assert st.scores == (15, 355, 0, 30)


def test_a_penalty_that_would_end_the_session_is_held_off_the_table():
    """§A10 禁止非胜式局结: "杠牌和处罚的得失分只能挂于盘外局结后累积得分". After example 8's
    hands W is at 0 and E has 15: a penalty of 20 on E (10 to S and N) would bring E to 0 too
    and end the 局 — it is held. S (first) then self-draws 混一色 6 + 门清 8 + single wait 4 =
    18: E pays 15 (all it has), W nothing, N 18 → E and W at 0 end the 局 by a win, and the
    held penalty counts: E −20, S 355 + 33 + 10 = 398, N 30 − 18 + 10 = 22."""
    from eventlog import events as ev

    g = _w_at_zero()
    g.hand(2, dealer=2)
    g.deal(2, "J1 T1 T2 T3 T4 T5 T6 T7 T8 B1 B2 B3 B4 W9")
    g.deal(3, "B5 B6 B7 B8 B9 T1 T2 T3 T4 T5 T6 T7 T8")
    g.deal(0, "W1 W1 W1 W8 W8 W8 J3 J3 J3 B5 B6 B7 F4")
    g.deal(1, "W2 W3 W4 W5 W6 W7 F1 F1 F1 F2 F2 F2 J2")
    g.add(ev.Penalty(seat=0, score_changes=[-20, 10, 0, 10], rule="competition.md §A9", reason="slow play"))
    held = replay(g, EXAMPLE_8)
    assert held.scores == (15, 355, 0, 30) and not held.game_over
    g.discard(2, "J1")
    for seat, t in ((3, "B1"), (0, "B2")):
        g.draw(seat, t)
        g.discard(seat, t)
    g.draw(1, "W9")
    g.discard(1, "J2")
    g.draw(2, "B3")
    g.discard(2, "B3")
    g.draw(3, "B4")
    g.discard(3, "B4")
    g.draw(0, "T9")
    g.discard(0, "T9")
    g.draw(1, "W9")
    g.win(1, "W9")
    g.end(2)
    st = replay(g, EXAMPLE_8)
    assert st.hands[2].winners == (1,) and st.game_over
    assert st.scores == (-20, 398, 0, 22)


def _three_chows_then_a_discard(pair: str) -> GameBuilder:
    """S chows E's W1, W4, W7 (three claims in a row from E: 包牌 §A8.1; the display W123
    W456 W789 is one suit), keeps W5 W5 + ``pair`` ``pair`` and wins on N's ``pair``."""
    g = game()
    g.hand(0, dealer=0)
    g.deal(0, "W1 W4 W7 T1 T1 T1 T2 T2 T2 B1 B1 B1 B2 B2")
    g.deal(1, f"W2 W3 W5 W6 W8 W9 W5 W5 {pair} {pair} J1 J2 J3")
    g.deal(2, "T3 T3 T3 T4 T4 T4 B5 B5 B5 B6 B6 B6 F2")
    g.deal(3, "T5 T5 T5 T6 T6 T6 T7 T7 T7 T8 T8 T8 T9")
    steps = (("W1", "W1 W2 W3", "J1", "B3"), ("W4", "W4 W5 W6", "J2", "B4"), ("W7", "W7 W8 W9", "J3", "B5"))
    for (tile, chow, junk, next_draw), (w, n) in zip(steps, (("F3", "F4"), ("F3", "F4"), ("J1", "J2"))):
        d = g.discard(0, tile)
        g.chow(1, chow, tile, d)
        g.discard(1, junk)
        g.draw(2, w)
        g.discard(2, w)
        g.draw(3, n)
        g.discard(3, n)
        g.draw(0, next_draw)
    g.discard(0, "B5")
    g.draw(1, "J1")
    g.discard(1, "J1")
    g.draw(2, "F3")
    g.discard(2, "F3")
    g.draw(3, pair)
    d = g.discard(3, pair)
    g.win(1, pair, from_seat=3, dseq=d)
    g.end(0)
    return g


LIABLE_2T = {"baopai_discard_amount": "2T", "cjm_fan_values": {"full_flush": 10, "pure_straight": 5}}


def test_flush_display_makes_the_feeder_pay_for_all_three_on_any_discard():
    """§A8.1a: after the three claims S's display is one suit; S wins 清一色 on N's W1:
    清龙 5 + 清一色 10 = 15 (values confirmed by option; W1/W5 two-sided: no single wait).
    E, the feeder, pays for all three (3T = 45) even with baopai_discard_amount = 2T."""
    st = replay(_three_chows_then_a_discard("W1"), LIABLE_2T)
    assert st.wins[0].points == 15
    assert st.scores == (55, 145, 100, 100)


def test_three_claims_on_a_discard_pay_the_option_amount():
    """§A8.1 and A-Amb-4: the same claims, S wins 混一色 on N's F1 (清龙 5 + 混一色 6 = 11):
    E is liable, for 2T = 22 under baopai_discard_amount = 2T (3T = 33 by default)."""
    st = replay(_three_chows_then_a_discard("F1"), LIABLE_2T)
    assert st.wins[0].points == 11 and st.scores == (78, 122, 100, 100)
    default = replay(_three_chows_then_a_discard("F1"), {"cjm_fan_values": {"pure_straight": 5}})
    assert default.scores == (67, 133, 100, 100)
