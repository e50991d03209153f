"""One test per rule of docs/reference/rules/sichuan.md §1–§7 that a replay can break: in audit
mode the breach is a finding naming the rule and its section, in strict mode the event is
refused (ReplayError). Whole hands are written with tests/rules/sichuan/hands.py."""

from __future__ import annotations

import pytest

from replayer.findings import ReplayError
from replayer.replay import run
from replayer.rules.sichuan.play import build
from tests.rules.sichuan.hands import SichuanHand

# Three-suit hands (花猪: they can never win) for the seats a test does not look at, and S
# (seat 1) ready on B3 / B6 with W123 W456 W789 B45 B88 (平胡 either way, §11 Ex 10).
E_JUNK = "W1 W5 W9 T1 T4 T7 T9 B1 B7 B9 T2 T5 W2 W6"
S_READY = "W1 W2 W3 W4 W5 W6 W7 W8 W9 B4 B5 B8 B8"
W_JUNK = "W1 W5 W9 T1 T4 T7 T9 B1 B7 B9 T2 T5 W3"
N_JUNK = "W1 W5 W9 T1 T4 T7 T9 B1 B7 B9 T3 T6 W4"
# the same without B7 (for hands where S holds three 7p)
E_JUNK2, W_JUNK2 = E_JUNK.replace("B7", "B2"), W_JUNK.replace("B7", "B2")
S_B7 = "B7 B7 B7 W1 W2 W3 T1 T4 T7 T9 B1 B9 W4"


def ex10_hand(**kw) -> SichuanHand:
    return SichuanHand({0: E_JUNK, 1: S_READY, 2: W_JUNK, 3: N_JUNK}, **kw)


def check(h: SichuanHand, rule: str, section: str, options: dict | None = None, seq: int | None = None) -> None:
    """Audit: a finding ``rule`` citing ``section``; strict: refused at the same event."""
    events = h.events()
    rs = build(options or {})
    res = run(events, mode="audit", ruleset=rs)
    hits = [f for f in res.findings if f.rule_id == rule]
    assert hits, [str(f) for f in res.findings]
    assert section in hits[0].source and "sichuan.md" in hits[0].source
    if seq is not None:
        assert hits[0].seq == seq
    with pytest.raises(ReplayError) as err:
        run(events, mode="strict", ruleset=rs)
    assert err.value.finding.rule_id == rule


def clean(h: SichuanHand, options: dict | None = None):
    res = run(h.events(), mode="strict", ruleset=build(options or {}))
    assert res.findings == ()
    return res


def test_no_chow_s2():
    h = ex10_hand()
    d = h.discard(0, "W6")
    h.g.chow(1, "W4 W5 W6", "W6", d)
    check(h, "chow_not_allowed", "§2")


def test_three_suits_is_no_win_s2_s5_1():
    h = SichuanHand({0: E_JUNK, 1: "W1 W2 W3 W4 W5 W6 T7 T8 T9 B4 B5 B8 B8", 2: W_JUNK, 3: N_JUNK}, early="")
    h.discard(0, "W6")
    h.turn(1)
    h.draw(2, "B6")
    d = h.discard(2, "B6")
    h.win(1, "B6", from_seat=2, dseq=d)
    check(h, "false_win", "§5.1", seq=d + 1)


def test_guoshui_bu_hu_s5_2():
    """§11 Ex 10: S passes W's 6p and may not win N's 3p (same fan) before drawing again."""
    h = ex10_hand()
    h.discard(0, "W6")
    h.turn(1)
    h.draw(2, "B6")
    h.discard(2, "B6")  # S could win (平胡) and does not: 过水
    h.draw(3, "B3")
    d = h.discard(3, "B3")
    w = h.win(1, "B3", from_seat=3, dseq=d)
    check(h, "guoshui_bu_hu", "§5.2", seq=w)


def test_guoshui_bu_hu_is_lifted_by_the_next_draw():
    h = ex10_hand()
    h.discard(0, "W6")
    h.turn(1)
    h.draw(2, "B6")
    h.discard(2, "B6")  # S passes
    h.turn(3)
    h.turn(0)
    h.turn(1)  # S draws: the restriction is lifted
    h.draw(2, "B3")
    d = h.discard(2, "B3")
    h.win(1, "B3", from_seat=2, dseq=d)
    res = run(h.events(), mode="strict", ruleset=build({"mode": "standard"}))
    assert res.findings == () and res.state.scores == (0, 1, -1, 0)


def test_hou4zhang_bihu_s5_2():
    """With 4 or fewer tiles left a ready player must win on a discard of its winning tile."""
    h = ex10_hand(early="B3 B3 B3 B6 B6 B6")  # S's waits pass early (more than 4 left: allowed)
    h.discard(0, "W6")
    seat = h.fill(1, until=5)
    while seat != 2:
        h.turn(seat)
        seat = h.next_seat(seat)
    h.draw(2, "B3")
    assert h.wall_left <= 4
    h.discard(2, "B3")  # S does not win with 4 or fewer tiles left
    nxt = h.draw(3, "B6")
    check(h, "hou4zhang_bihu", "§5.2", seq=nxt)


def test_concealed_kong_cannot_be_robbed_s5_3():
    h = SichuanHand({0: E_JUNK2, 1: S_B7, 2: W_JUNK2, 3: "W6 W7 W8 W2 W3 W4 W6 W7 W8 B5 B6 B8 B8"})
    h.discard(0, "W6")
    h.draw(1, "B7")
    k = h.kong(1, "concealed", "B7")
    h.win(3, "B7", from_seat=1, dseq=k, robbing=True)
    check(h, "kong_not_robbable", "§5.3")


def test_kong_payments_at_once_s3():
    """§11 Ex 3: S 暗杠 7p: E, W, N pay 2 each at the kong."""
    h = SichuanHand({0: E_JUNK2, 1: S_B7, 2: W_JUNK2, 3: N_JUNK.replace("B7", "B2")})
    h.discard(0, "W6")
    h.draw(1, "B7")
    k = h.kong(1, "concealed", "B7")
    res = run(h.events()[: k + 1], mode="strict", ruleset=build({}))
    assert res.state.scores == (-2, 6, -2, -2)


def test_dealer_rotation_s1():
    """The first winner deals the next hand (§1)."""
    h = ex10_hand(options={"mode": "standard"})
    h.discard(0, "W6")
    h.turn(1)
    h.draw(2, "B3")
    d = h.discard(2, "B3")
    h.win(1, "B3", from_seat=2, dseq=d)
    h.g.end(0)
    s = h.g.hand(1, 0)  # dealer E again: wrong, S won
    check(h, "dealer_rotation", "§1", {"mode": "standard"}, seq=s)


def test_a_winner_takes_no_further_part_s4():
    """After S wins on W's discard (血战), S drawing again is refused (§4)."""
    h = ex10_hand()
    h.discard(0, "W6")
    h.turn(1)
    h.draw(2, "B3")
    d = h.discard(2, "B3")
    h.win(1, "B3", from_seat=2, dseq=d)
    s = h.draw(1, h.safe_tile(1))  # S is out: play resumed at W, the seat after S
    check(h, "seat_out_of_hand", "§4", seq=s)
