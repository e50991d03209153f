"""One wrong tile count is one finding, and the seat is 相公 (a dead hand) for the rest of
the hand.

The rules (docs/reference/rules/competition.md §A9; seed 000 二十五 多张、少张: "手牌数多于或少于
规定数量该情况不得和牌，处理为相公并机械出牌"; seed 003 大相公/小相公 "鈈得和牌"): a player holding
more or fewer tiles than the rules give is 相公 — the player plays on, drawing and
discarding, but may not claim and may not win. So one illegal discard is one fault of one
seat in one hand: reported once, when it happens; the seat's later draws and discards are
what a seat with that many tiles does (no fault); a claim or a win by that seat is a fault
of its own; the next hand starts with every seat live.

A ruleset whose text names no 相公 (here the test ruleset ``blood_test``,
tests/replayer/continuing_ruleset.py: ``PlayRules.dead_hand_faults`` empty) still reports
the wrong count once; its seat stays live and a win it declares is judged by the ruleset.
"""

from __future__ import annotations

import continuing_ruleset  # noqa: F401 - registers blood_test
from replay_builder import GameBuilder
from replay_hands import HEAVENLY, OTHERS

from replayer.audit import audit_game
from replayer.replay import run
from replayer.state import to_dict

# the tiles drawn, each discarded at once by its drawer: five go-arounds of seats 2, 3, 0, 1
DRAWS = ("W2 W3 W4 W5 W6 W7 W8 B2 B3 B4 B5 B6 B7 B8 T2 T3 T4 T5 T6 T7 T8 W2 W3 W4 W5 W6 W7 W8 "
         "B2 B3").split()


def _deal_hand_0(g: GameBuilder) -> None:
    """Hand 0 (dealer 0): the four deals, then the dealer discards J1 (seat 1 is next)."""
    g.hand(0, dealer=0)
    g.deal(0, "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9 J1")
    g.deal(1, "T1 T1 T1 T2 T3 T4 T5 T6 T7 T8 T9 T9 T9")
    g.deal(2, "B1 B1 B1 B2 B3 B4 B5 B6 B7 B8 B9 B9 B9")
    g.deal(3, "F1 F1 F1 F2 F2 F2 F3 F3 F3 F4 F4 F4 J2")
    g.discard(0, "J1")


def _dead_seat_1(g: GameBuilder) -> int:
    """Hand 0 (dealer 0): the dealer discards J1, seat 1 discards T2 without drawing first
    (13 tiles where a discard needs 14: 少张), then five go-arounds in which every seat draws
    a tile and discards it. Returns the seq of seat 1's illegal discard."""
    _deal_hand_0(g)
    bad = g.discard(1, "T2")
    tiles = iter(DRAWS)
    for _ in range(5):
        for seat in (2, 3, 0, 1):
            t = next(tiles)
            g.draw(seat, t)
            g.discard(seat, t)
    return bad


def _seat_findings(findings, seat: int) -> list[tuple[int, str, int | None]]:
    return [(f.seq, f.rule_id, f.hand_number) for f in findings if f.seat == seat]


def test_one_illegal_discard_is_one_finding_and_a_dead_hand():
    g = GameBuilder()
    bad = _dead_seat_1(g)
    result = run(g.events(), mode="audit")
    # seat 1's ten later draws and discards are no faults: one finding, at the discard
    assert _seat_findings(result.findings, 1) == [(bad, "wrong_tile_count", 0)]
    assert "相公" in result.findings[-1].message and "competition.md §A9" in result.findings[-1].source
    seat1 = result.state.seats[1]
    assert seat1.dead_hand == bad  # the status, and the event that made it
    assert seat1.miscount == -1 and seat1.hand_size == 12  # one tile short between turns
    assert all(st.dead_hand is None and st.miscount == 0 for i, st in enumerate(result.state.seats) if i != 1)
    # the status is in the state's JSON form for the dead seat only
    seats = to_dict(result.state)["seats"]
    assert (seats[1]["dead_hand"], seats[1]["miscount"]) == (bad, -1)
    assert "dead_hand" not in seats[0] and "miscount" not in seats[0]


def test_a_dead_hand_may_not_win():
    """Seat 1 draws T2 (its 13 tiles with it: T1 T1 T1 T2-T8 T9 T9 T9 — the nine gates, one
    tile short) and declares a self-drawn win: a 相公 may not win — one finding, the win not
    legal, nothing paid (no false-win penalty in MCR's defaults)."""
    g = GameBuilder()
    bad = _dead_seat_1(g)
    for seat in (2, 3, 0):
        g.draw(seat, "J3")
        g.discard(seat, "J3")
    g.draw(1, "T2")
    win = g.win(1, "T2")
    audit = audit_game(g.events())
    assert _seat_findings(audit.findings, 1) == [(bad, "wrong_tile_count", 0), (win, "xianggong", 0)]
    (w,) = audit.wins
    assert (w.seat, w.legal, w.changes) == (1, False, None)
    assert audit.state.scores == (0, 0, 0, 0)


def test_a_dead_hand_may_not_claim():
    """Seat 1 pungs the dealer's T9 after its fault: a 相公 may not claim — one finding."""
    g = GameBuilder()
    bad = _dead_seat_1(g)
    g.draw(2, "J3")
    g.discard(2, "J3")
    g.draw(3, "J3")
    g.discard(3, "J3")
    g.draw(0, "T9")
    d = g.discard(0, "T9")
    pung = g.pung(1, "T9", d)
    g.discard(1, "T8")
    result = run(g.events(), mode="audit")
    assert _seat_findings(result.findings, 1) == [(bad, "wrong_tile_count", 0), (pung, "xianggong", 0)]


def test_the_next_hand_starts_clean():
    """Hand 0 ends after seat 1's false win; in hand 1 (dealer 1: seat 1 is dealt a complete
    hand, 清龙 混一色 箭刻 …) seat 1 wins at once, legally, with no finding."""
    g = GameBuilder()
    _dead_seat_1(g)
    g.draw(2, "J3")
    g.discard(2, "J3")
    g.draw(3, "J3")
    g.discard(3, "J3")
    g.draw(0, "J3")
    g.discard(0, "J3")
    g.draw(1, "T2")
    g.win(1, "T2")
    g.end(0)
    start = g.hand(1, dealer=1)
    g.deal(1, HEAVENLY)
    for k, tiles in enumerate(OTHERS):
        g.deal((1 + 1 + k) % 4, tiles)
    g.win(1, "F2")
    audit = audit_game(g.events())
    assert [f for f in audit.findings if f.seq > start] == []
    assert audit.wins[-1].seat == 1 and audit.wins[-1].legal
    assert all(st.dead_hand is None and st.miscount == 0 for st in audit.state.seats)


def test_a_ruleset_without_dead_hands_reports_the_count_once():
    """``blood_test`` names no 相公: the wrong count is one finding; the seat stays live, and
    the win it declares one tile short is judged by the ruleset (not a winning hand)."""
    g = GameBuilder("blood", ruleset="blood_test")
    _deal_hand_0(g)
    bad = g.discard(1, "T2")
    for seat, t in ((2, "W2"), (3, "W3"), (0, "W4"), (1, "W5")):
        g.draw(seat, t)
        g.discard(seat, t)
    for seat in (2, 3, 0):
        g.draw(seat, "J3")
        g.discard(seat, "J3")
    g.draw(1, "T2")
    win = g.win(1, "T2")
    result = run(g.events(), mode="audit")
    found = _seat_findings(result.findings, 1)
    assert found[0] == (bad, "wrong_tile_count", 0)
    assert [f for f in found[1:] if f[1] == "wrong_tile_count"] == []
    assert [f[0] for f in found[1:]] == [win] and found[1][1] != "xianggong"
    assert result.state.seats[1].dead_hand is None and result.state.seats[1].miscount == -1



def _live_seat_1(g: GameBuilder) -> None:
    """Hand 0 as in :func:`_dead_seat_1`, but seat 1 draws before it discards (J3, at once)."""
    _deal_hand_0(g)
    g.draw(1, "J3")
    g.discard(1, "J3")


def test_a_dead_hand_is_offered_no_claim():
    """The legal actions at the dealer's T9 (seat 1 holds three): the pung and the kong for
    a live seat 1, nothing for a dead one."""
    from replayer.actions import legal_actions
    from replayer.rules.base import get_ruleset

    def seat_1_actions(hand) -> set[str]:
        g = GameBuilder()
        hand(g)
        g.draw(2, "J3")
        g.discard(2, "J3")
        g.draw(3, "J3")
        g.discard(3, "J3")
        g.draw(0, "T9")
        g.discard(0, "T9")
        state = run(g.events(), mode="audit").state
        return {a.kind for a in legal_actions(state, get_ruleset("mcr")) if a.seat == 1}

    assert seat_1_actions(_live_seat_1) >= {"pung", "melded_kong"}
    assert seat_1_actions(_dead_seat_1) == set()


def test_the_status_is_on_the_wire_in_every_seat_view():
    """The replay service's TableState carries it for every view: a referee declares 相公 at
    the table, so it is no seat's secret (the concealed tiles stay hidden)."""
    from services.replay_service import table_state_message

    g = GameBuilder()
    bad = _dead_seat_1(g)
    events = g.events()
    state = run(events, mode="audit").state
    for seat in (None, 0, 1):
        msg = table_state_message(state, events[-1], seat=seat)
        assert (msg.seats[1].HasField("dead_hand"), msg.seats[1].dead_hand, msg.seats[1].miscount) == (True, bad, -1)
        assert not msg.seats[0].HasField("dead_hand") and msg.seats[0].miscount == 0
