"""Legal actions and claim resolution (replayer/actions.py) on hand-written MCR hands.

Expected actions follow the rules text: chow only by the discarder's next seat, pung and
kong by anyone (competition.md §B1; seed 001), win > pung/kong > chow, one winner per
discard — the nearest in turn order from the discarder — unless ``multiple_winners`` is
"all" (seed 001 截和; seed 003), only an added kong may be robbed (seed 003 抢杠)."""

from __future__ import annotations

import pytest

from eventlog import events as ev
from replay_builder import GameBuilder
from replay_hands import robbing_hand, two_winners_hand
from replayer.actions import Action, legal_actions, resolve_claims
from replayer.replay import run
from replayer.rules.base import get_ruleset


def state_after(g: GameBuilder, upto: int | None = None, options: dict | None = None):
    events = g.events()
    if upto is not None:
        events = events[: upto + 1]
    rs = get_ruleset("mcr", options or {})
    return run(events, mode="strict", ruleset=rs).state, rs


def kinds(actions, seat=None):
    return sorted((a.seat, a.kind, a.tile) + ((a.tiles,) if a.tiles else ()) for a in actions
                  if seat is None or a.seat == seat)


def test_robbing_an_added_kong_is_offered_to_the_waiting_seat():
    g, s = robbing_hand()
    state, rs = state_after(g, s["kong"])
    assert state.phase == "robbing"
    acts = legal_actions(state, rs)
    # seat 3 waits on B5 (B4 _ B6): it may rob or pass; nobody else wins on B5
    assert kinds(acts) == [(3, "pass", None), (3, "rob_kong", "B5")]
    rob = next(a for a in acts if a.kind == "rob_kong")
    assert rob.to_payload() == ev.WinDeclared(seat=3, tile="B5", self_drawn=False, from_seat=2,
                                             discard_seq=s["kong"], robbing_kong=True)
    # 清龙 16 + 抢杠和 8 + 门前清 2 + 平和 2 + 喜相逢 1 + 坎张 1 = 30 (test_replay_wins.py)
    assert rob.score.points == 30


def test_added_kong_offered_after_drawing_the_fourth_tile():
    g, s = robbing_hand()
    state, rs = state_after(g, s["kong"] - 1)  # seat 2 just drew the fourth B5
    acts = legal_actions(state, rs)
    assert {a.seat for a in acts} == {2}
    assert (2, "added_kong", "B5") in kinds(acts)
    assert not any(a.kind in ("concealed_kong", "self_drawn_win") for a in acts)
    # discards: one per distinct held tile
    held = sorted({t for t in state.seats[2].tiles})
    assert sorted(a.tile for a in acts if a.kind == "discard") == held


def test_two_seats_win_on_one_discard():
    g, s = two_winners_hand()
    state, rs = state_after(g, s["d_b5"])
    acts = legal_actions(state, rs)
    wins = [a for a in acts if a.kind == "win"]
    assert [a.seat for a in wins] == [1, 3]
    # seat 1: 清龙 16 + 门前清 2 + 平和 2 + 喜相逢 1 + 坎张 1 = 22 (test_replay_wins.py)
    assert wins[0].score.points == 22
    taken, lost = resolve_claims([wins[1], wins[0]], 0, rs.play)
    assert [a.seat for a in taken] == [1] and [a.seat for a in lost] == [3]
    assert lost[0].lost_claim() == ev.Pass(seat=3, discard_seq=s["d_b5"], claim="win")
    rs_all = get_ruleset("mcr", {"multiple_winners": "all"})
    taken, lost = resolve_claims(wins, 0, rs_all.play)
    assert [a.seat for a in taken] == [1, 3] and lost == []


def test_chow_only_by_the_next_seat_and_pung_by_anyone():
    g = GameBuilder()
    g.hand(0, dealer=0)
    g.deal(0, "W5 F1 F1 F1 F2 F2 F2 F3 F3 F3 J1 J1 J1 J2")
    g.deal(1, "W3 W4 W6 W7 T1 T2 T3 T4 T5 T6 B1 B2 B3")
    g.deal(2, "W5 W5 W4 W6 T7 T8 T9 B7 B8 B9 B4 B5 J3")  # could chow W4 W5 W6 but is not next
    g.deal(3, "W8 W9 T7 T8 T9 B7 B8 B9 B4 B5 B6 J3 J3")
    d = g.discard(0, "W5")
    state, rs = state_after(g)
    acts = legal_actions(state, rs)
    assert kinds(acts) == [
        (1, "chow", "W5", ("W3", "W4", "W5")),
        (1, "chow", "W5", ("W4", "W5", "W6")),
        (1, "chow", "W5", ("W5", "W6", "W7")),
        (1, "pass", None),
        (2, "pass", None),
        (2, "pung", "W5"),
    ]
    chows = [a for a in acts if a.kind == "chow"]
    pung = next(a for a in acts if a.kind == "pung")
    taken, lost = resolve_claims([chows[0], pung], 0, rs.play)
    assert taken == [pung] and lost == [chows[0]]
    assert pung.to_payload() == ev.Pung(seat=2, tile="W5", discard_seq=d)
    assert chows[1].to_payload() == ev.Chow(seat=1, tiles=["W4", "W5", "W6"], claimed_tile="W5", discard_seq=d)


def test_flowers_come_first_and_dealer_acts_after_the_deal():
    g = GameBuilder()
    g.hand(0, dealer=1, wind="F1")
    g.deal(1, "H2 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B1 B1")
    g.deal(2, "T1 T1 T1 T2 T2 T2 T3 T3 T3 T4 T4 T4 T5")
    g.deal(3, "H7 B2 B2 B2 B3 B3 B3 B4 B4 B4 B5 B5 B5")
    g.deal(0, "F1 F1 F1 F2 F2 F2 F3 F3 F3 F4 F4 F4 J1")
    state, rs = state_after(g)
    # the dealer (seat 1) sets H2 aside first, then seat 3 its H7 (turn order from the dealer)
    assert kinds(legal_actions(state, rs)) == [(1, "flower", "H2")]
    g.flower(1, "H2", "J2")
    state, rs = state_after(g)
    assert kinds(legal_actions(state, rs)) == [(3, "flower", "H7")]
    g.flower(3, "H7", "J3")
    state, rs = state_after(g)
    acts = legal_actions(state, rs)
    assert {a.seat for a in acts} == {1}
    assert (1, "concealed_kong", "B1") in kinds(acts)
    assert not any(a.kind == "self_drawn_win" for a in acts)  # W1-W9 B1x4 J2: not a winning hand


def test_resolve_claims_refuses_two_claims_of_one_seat():
    a = Action(1, "pung", "W1", discard_seq=5)
    b = Action(1, "chow", "W1", ("W1", "W2", "W3"), discard_seq=5)
    with pytest.raises(ValueError):
        resolve_claims([a, b], 0, get_ruleset("mcr").play)
    with pytest.raises(ValueError):
        resolve_claims([Action(0, "pung", "W1", discard_seq=5)], 0, get_ruleset("mcr").play)
