"""The eight worked examples of docs/reference/rules/competition.md §A11 at settlement level,
and the rules of §A5–A8 they rest on. Seats: E 0 (dealer), S 1, W 2, N 3. Every expected
number is the spec's (or computed by hand from §A6.4/§A7 in the comment beside it).
Whole hands replayed in strict mode: tests/replayer/test_cjm_hands.py."""

from __future__ import annotations

import pytest

from replayer.rules.base import WinContext, WinScore, get_ruleset
from replayer.rules.cjm_chips import settlement as pay
from replayer.rules.cjm_chips.options import PROVISIONAL_FAN_VALUES, CjmOptions
from replayer.rules.cjm_chips.patterns import CjmScore, ScoreItem
from replayer.state import HandResult, TableState

FULL = (100, 100, 100, 100)


def changes(payments, chips=FULL):
    return pay.capped(chips, payments).changes


def test_example_1_self_drawn():
    """S self-draws 混一色 6 + 门清 8 + 1 flower 2 + single wait 4: T = 20; E, W, N pay 20."""
    assert changes(pay.win_payments(1, 20, self_drawn=True, discarder=None)) == (-20, 60, -20, -20)


def test_example_2_discard():
    """W discards into N's 清一色 24 + 2 flowers 4: T = 28; W pays 2T = 56."""
    assert changes(pay.win_payments(3, 28, self_drawn=False, discarder=2)) == (0, 0, -56, 56)


def test_example_3_robbing_a_kong():
    """N adds a kong; E robs with 清龙 16 + single wait 4: T = 20; N pays 3T = 60; no kong payment."""
    assert changes(pay.win_payments(0, 20, self_drawn=False, discarder=3, robbed_konger=3)) == (60, 0, 0, -60)


def test_example_4_doubled_for_the_continuing_dealer():
    """倍打: E won the previous hand and deals again; E self-draws T = 20: each pays 40."""
    rs = get_ruleset("cjm_chips")
    state = TableState(dealer=0, hands=(HandResult(0, 0, "F1", (0,), False, (60, -20, -20, -20)),))
    assert rs.multiplier(state) == 2
    assert changes(pay.win_payments(0, 20, self_drawn=True, discarder=None, multiplier=2)) == (120, -40, -40, -40)
    # had S won instead, S would receive ×2 too (and the deal would pass)
    assert changes(pay.win_payments(1, 20, self_drawn=True, discarder=None, multiplier=rs.multiplier(state))) == (
        -40, 120, -40, -40)
    # never ×4: a third dealer hand is still ×2
    state3 = TableState(dealer=0, hands=state.hands + (HandResult(1, 0, "F1", (0,), False, (0, 0, 0, 0)),))
    assert rs.multiplier(state3) == 2
    # the hand that started the continuation is not doubled (A-Amb-2) unless the option says so
    fresh = TableState(dealer=0, hands=())
    assert rs.multiplier(fresh, winner=0) == 1
    assert get_ruleset("cjm_chips", {"beida_includes_trigger_hand": True}).multiplier(fresh, winner=0) == 2


def test_example_5_kongs():
    """S 补杠 (E, W, N −4; S +12); W 点杠 on N's discard (N −12, W +12); N 暗杠 (E, S, W −6;
    N +18). Net: E −10, S +6, W +2, N +2."""
    chips = list(FULL)
    for payments in (pay.kong_payments(1, "added", None), pay.kong_payments(2, "melded", 3),
                     pay.kong_payments(3, "concealed", None)):
        chips = [c + d for c, d in zip(chips, changes(payments, chips))]
    assert tuple(c - 100 for c in chips) == (-10, 6, 2, 2)


def test_example_6_chase():
    """追牌: E, S, W, N discard B9 in a row → E pays 4 to each: E −12, S/W/N +4."""
    assert changes(pay.chase_payments(0)) == (-12, 4, 4, 4)


def test_example_7_liability():
    """包牌: S has claimed from E three times in a row; S self-draws T = 20 → E alone pays 60."""
    assert changes(pay.win_payments(1, 20, self_drawn=True, discarder=None, liable=0)) == (-60, 60, 0, 0)
    # A-Amb-4: on a discard the liable player pays 3T too (option: 2T)
    assert changes(pay.win_payments(1, 20, self_drawn=False, discarder=2, liable=0)) == (-60, 60, 0, 0)
    assert changes(pay.win_payments(1, 20, self_drawn=False, discarder=2, liable=0,
                                    liable_discard_amount="2T")) == (-40, 40, 0, 0)


def test_example_8_chip_cap_and_the_zero_chip_rule():
    """W has 15 chips and discards into T = 28 (owes 56): W pays 15 and drops to 0; from then
    on nobody may win on W's discards."""
    chips = (100, 100, 15, 185)
    s = pay.capped(chips, pay.win_payments(3, 28, self_drawn=False, discarder=2))
    assert s.changes == (0, 0, -15, 15)
    after = tuple(c + d for c, d in zip(chips, s.changes))
    assert after[2] == 0
    rs = get_ruleset("cjm_chips")
    win = WinContext(seat=1, tile="W1", self_drawn=False, from_seat=2, robbing_kong=False, kong_related=False,
                     last_of_wall=False, visible_copies=0,
                     concealed=tuple("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 W1".split()), melds=(),
                     seat_wind="F2", prevalent_wind="F1", flowers=())
    verdict = rs.score_win(TableState(dealer=0, seats=TableState().seats), win)  # scores 0: W has nothing
    assert not verdict.legal and verdict.rule_id == "win_on_zero_chip_discard"


def test_zero_chip_penalty_amounts():
    """§A5: a win on a zero-chip discard anyway: the winner pays the would-be score (2T) to
    the zero-chip player and 10 to each of the three others (seed 000: 向三家各赔付10分) —
    S wins 2T = 40 on W's discard: S −(40 + 3×10) = −70, W +40 +10, E and N +10."""
    assert changes(pay.zero_chip_penalty(1, 2, 40, 10)) == (10, -70, 50, 10)


def test_session_end_and_first_place():
    """局结 needs two players at 0 (A-Amb-1) and 禁止非胜式局结 asks who is first after."""
    assert not pay.ends_session((100, 100, 10, 190), (0, 0, -10, 10), 2)
    assert pay.ends_session((0, 100, 10, 190), (0, 0, -10, 10), 2)
    assert pay.ends_session((100, 100, 10, 190), (0, 0, -10, 10), 1)
    assert pay.first_after((0, 100, 10, 190), (0, 0, -10, 10), 3)
    assert not pay.first_after((0, 100, 10, 190), (0, 10, -10, 0), 1)


def test_provisional_values_are_the_1998_equivalents_and_an_option():
    """§A6.2: the default values are provisional and flagged; a federation's values replace them."""
    o = CjmOptions()
    assert o.provisional and o.fan_value("three_dragon_pungs") == (88, True)
    assert PROVISIONAL_FAN_VALUES["full_flush"] == 24 and PROVISIONAL_FAN_VALUES["closed_last_tile"] == 4
    confirmed = CjmOptions(cjm_fan_values=dict.fromkeys(PROVISIONAL_FAN_VALUES, 10))
    assert not confirmed.provisional and confirmed.fan_value("full_flush") == (10, False)
    with pytest.raises(ValueError):
        CjmOptions(cjm_fan_values={"tenhou": 1})


def test_settle_win_uses_the_ruleset_amounts():
    rs = get_ruleset("cjm_chips")
    res = CjmScore((ScoreItem("full_flush", "清一色", 24, provisional=True),
                    ScoreItem("flower", "花牌", 2, 2, kind="bonus")), 28, 1, True)
    win = WinContext(seat=3, tile="T9", self_drawn=False, from_seat=2, robbing_kong=False, kong_related=False,
                     last_of_wall=False, visible_copies=0, concealed=(), melds=(), seat_wind="F4",
                     prevalent_wind="F1", flowers=("H2", "H3"))
    state = TableState(dealer=0, seats=tuple(s.__class__(score=100) for s in TableState().seats))
    assert rs.settle_win(state, win, WinScore(True, 28, res)).changes == (0, 0, -56, 56)


def test_a_win_that_ends_the_session_with_the_winner_not_first_is_refused():
    """禁止非胜式局结 (§A10): E already at 0; S wins on W's discard (W has 10): W pays 10 and
    is at 0 too — two players at 0 end the 局 — but S (110) is not first (N 290)."""
    from replayer.state import SeatState

    rs = get_ruleset("cjm_chips")
    state = TableState(dealer=0, seats=tuple(SeatState(score=c) for c in (0, 100, 10, 290)))
    win = WinContext(seat=1, tile="W9", self_drawn=False, from_seat=2, robbing_kong=False, kong_related=False,
                     last_of_wall=False, visible_copies=0,
                     concealed=tuple("W2 W3 W4 W5 W6 W7 F1 F1 F1 F2 F2 F2 W9".split()), melds=(),
                     seat_wind="F2", prevalent_wind="F1", flowers=())
    verdict = rs.score_win(state, win)
    assert not verdict.legal and verdict.rule_id == "non_winning_session_end"
    richer = TableState(dealer=0, seats=tuple(SeatState(score=c) for c in (0, 300, 10, 90)))
    assert rs.score_win(richer, win).legal


def test_score_shows_the_zero_chip_penalty_a5():
    """``paipu score`` of a win on a zero-chip player's discard (seat 3 holds 0): not a legal
    win (§A5, §A6.1.3), and the penalty if it is declared all the same: T = 清一色 24 + 门清 8
    = 32 (§A6.2 provisional, §A6.3), would-be score 2T = 64 (§A6.4) to seat 3, and 10 to each
    of the three others — seat 0 −94, seats 1, 2 +10, seat 3 +74."""
    import json

    from tests.cli_run import run as cli

    args = ["score", "--ruleset", "cjm_chips", "--hand", "B1 B1 B1 B2 B2 B3 B3 B4 B6 B7 B8 B9 B9", "--win", "B4",
            "--context", "scores=134,133,133,0"]
    res = cli(*args)
    assert res.exit_code == 1
    assert "not a legal win" in res.output and "§A5" in res.output
    assert "score changes (seats 0-3): [-94, 10, 10, 74]" in res.output
    out = json.loads(cli(*args, "--json").output)
    assert out["legal"] is False and out["penalty"]["changes"] == [-94, 10, 10, 74]
    assert {(p["payee"], p["amount"]) for p in out["penalty"]["payments"]} == {(3, 64), (1, 10), (2, 10), (3, 10)}
