"""Each Changsha play rule is a finding in audit mode and an error in strict mode, naming its
section of docs/reference/rules/changsha.md (§1 tiles and claims, §3 winning hands, §4 漏胡 and
海底, §2 dealer and end of game), and the win's context (天胡, 地胡, 海底, 抢杠) is read from
the table."""

from __future__ import annotations

import pytest

from eventlog import events as ev
from replayer.findings import ReplayError
from replayer.replay import run

from .game import as_events, new_game, scripted_hand

N_HAND = "W4 W6 T5 T5 B1 B2 B3 B7 B8 B9 T6 T7 T8"  # waits on 5m (4-6 + 55s pair)
S_HAND = "W1 W2 W3 W5 T2 T3 T4 T7 T8 T9 B4 B5 B6"  # waits on 5m (pair 55m)


def replay(turns, *, hands, birds=(), dealer=0, options=None, mode="audit", extra=(), turned=None):
    payloads = new_game(options)
    payloads += scripted_hand(start=len(payloads), hand_number=0, dealer=dealer, hands=hands, turns=turns,
                              birds=list(birds), end=not extra, turned=turned)
    payloads += list(extra)
    return run(as_events(payloads), mode=mode)


def rules(res):
    return [(f.rule_id, f.source) for f in res.findings]


def test_passed_win_blocks_the_same_tile_until_the_next_draw():
    # N passes a win on E's 5m; S discards another 5m before N draws: N may not win on it (漏胡 §4)
    turns = [("turn", 0, None, "W5"), ("pass", 3, "win"), ("turn", 1, "W5", "W5"), ("win", 3, "W5", 1)]
    res = replay(turns, hands={0: "W5", 3: N_HAND}, birds=["B3"])
    assert [r for r, _ in rules(res)] == ["passed_win"] and "changsha.md §4" in res.findings[0].source
    with pytest.raises(ReplayError, match="passed_win"):
        replay(turns, hands={0: "W5", 3: N_HAND}, birds=["B3"], mode="strict")
    # after N's own draw the block is gone
    ok = [("turn", 0, None, "W5"), ("pass", 3, "win"), ("turn", 1, None, None), ("turn", 2, None, None),
          ("turn", 3, "T1", "T1"), ("turn", 0, "W5", "W5"), ("win", 3, "W5", 0)]
    res = replay(ok, hands={0: "W5", 3: N_HAND}, birds=["B3"])
    assert res.findings == ()


def test_a_win_passed_silently_also_blocks():
    # N could win on E's 5m and nobody claims it: S draws; then S's 5m cannot be won on by N
    turns = [("turn", 0, None, "W5"), ("turn", 1, "W5", "W5"), ("win", 3, "W5", 1)]
    assert [r for r, _ in rules(replay(turns, hands={0: "W5", 3: N_HAND}, birds=["B3"]))] == ["passed_win"]


def test_small_win_needs_a_258_pair_in_play():
    # S wins on a 3m with a 3m pair: a shape, but not 2/5/8 and no big win (§3.1)
    hand = "W1 W2 W3 W3 T2 T3 T4 T7 T8 T9 B4 B5 B6"
    res = replay([("turn", 0, None, None), ("turn", 1, None, None), ("turn", 2, "W3", "W3"), ("win", 1, "W3", 2)],
                 hands={1: hand})
    assert [r for r, _ in rules(res)] == ["pair_not_258"]
    assert "changsha.md §3.1" in res.findings[0].source


def test_chow_only_from_the_previous_seat():
    # N (seat 3) chows E's discard? E is N's 下家, not 上家: only S may chow E's tiles (§1)
    res = replay([("turn", 0, "W3", "W3"), ("chow", 2, "W2 W3 W4", "W3")], hands={2: "W2 W4 B1 B1 B1 T9 T9 T9 W9 W9 W9 B9 B9"})
    assert "chow_wrong_seat" in [r for r, _ in rules(res)]
    assert any("changsha.md §1" in s for r, s in rules(res) if r == "chow_wrong_seat")


def test_haidi_tile_is_exposed_not_exchanged_and_only_won_on():
    # play down to the last tile: the 海底 taker must expose the tile it drew
    turns = [("turn", 0, None, None)] + [("turn", s % 4, None, None) for s in range(1, 55)]
    # 54 draws after the deal: 108 - 53 - 54 = 1 tile left; the next seat takes the 海底
    last = 55 % 4
    good = replay(turns + [("turn", last, "W9", "W9"), ("exhaustive_draw",)], hands={})
    assert good.findings == ()
    bad = replay(turns + [("turn", last, "W9", "T1")], hands={last: "T1"})
    assert "haidi_exchanged" in [r for r, _ in rules(bad)]


def test_haidi_win_contexts_and_bird_is_the_haidi_tile():
    # the taker (seat 3) exposes 5m; S wins on it: 海底炮 (big), the bird is the 海底 tile itself
    turns = [("turn", 0, None, None)] + [("turn", s % 4, None, None) for s in range(1, 55)]
    last = 55 % 4
    assert last == 3
    res = replay(turns + [("turn", 3, "W5", "W5"), ("win", 1, "W5", 3)], hands={1: S_HAND}, turned=["W5"])
    assert res.findings == ()
    [w] = res.state.wins
    assert [f.id for f in w.score.fans] == ["last_tile_claim"]
    # rank 5 from the dealer (E) hits E: not the winner nor the discarder -> no double: 60
    assert w.settlement.changes == (0, 60, 0, -60) and res.state.scores == (0, 60, 0, -60)
    # the bird must be the 海底 tile itself
    bad = replay(turns + [("turn", 3, "W5", "W5"), ("win", 1, "W5", 3)], hands={1: S_HAND}, turned=["W1"])
    assert [f.rule_id for f in bad.findings] == ["wrong_birds"]


def test_earthly_win_on_the_dealers_first_discard_and_heavenly_win():
    res = replay([("turn", 0, None, "W5"), ("win", 1, "W5", 0)],
                 hands={0: "W5 W1 W1 W9 W9 T1 T1 T9 T9 B1 B1 B9 B9 T4", 1: S_HAND}, birds=["B2"])
    [w] = res.state.wins
    assert [f.id for f in w.score.fans] == ["earthly"] and res.findings == ()
    # 天胡: the dealer's dealt 14 tiles win (with a 2/5/8 pair)
    hand = "W1 W2 W3 W5 W5 T2 T3 T4 T7 T8 T9 B4 B5 B6"
    payloads = new_game()
    h = scripted_hand(start=1, hand_number=0, dealer=0, hands={0: hand}, turns=[], birds=["B2"], end=False)
    payloads += h + [ev.WinDeclared(seat=0, tile="W5", self_drawn=True), ev.BirdsTurned(tiles=["B2"]),
                     ev.HandEnded(hand_number=0)]
    res = run(as_events(payloads), mode="strict")
    [w] = res.state.wins
    assert [f.id for f in w.score.fans] == ["heavenly"]
    # 1 big unit, dealer self-draw: 70 from each; bird 2 -> S (not the winner): S pays double
    assert w.settlement.changes == (210, -70, -70, -70)
    assert res.state.scores == (280, -140, -70, -70)


def test_robbing_an_added_kong():
    # W pungs 5m from E, later adds the fourth 5m; S robs it (抢杠胡, big)
    turns = [("turn", 0, None, "W5"), ("pung", 2, "W5"), ("discard", 2, "T1"), ("turn", 3, None, None),
             ("turn", 0, None, None), ("turn", 1, None, None), ("draw", 2, "W5"), ("kong", 2, "added", "W5"),
             ("rob", 1, "W5", 2)]
    payloads = new_game()
    payloads += scripted_hand(start=1, hand_number=0, dealer=0,
                              hands={0: "W5", 2: "W5 W5 T1 B1 B1 B1 T9 T9 T9 W9 W9 W9 B9", 1: N_HAND},
                              turns=turns, birds=["B2"])
    res = run(as_events(payloads), mode="audit")
    assert res.findings == ()
    [w] = res.state.wins
    assert [f.id for f in w.score.fans] == ["robbing_the_kong"]


def test_game_over_after_hands_per_game():
    payloads = new_game({"hands_per_game": 1})
    payloads += scripted_hand(start=1, hand_number=0, dealer=0, hands={1: S_HAND},
                              turns=[("turn", 0, None, None), ("turn", 1, None, None), ("turn", 2, "W5", "W5"),
                                     ("win", 1, "W5", 2)], birds=["B7"])
    payloads += [ev.HandStarted(hand_number=1, prevalent_wind="F1", dealer=1)]
    res = run(as_events(payloads), mode="audit")
    assert [f.rule_id for f in res.findings] == ["game_over"]


def _hands_won_in_turn(count: int, options=None):
    """``count`` hands: in hand k the dealer is seat k % 4 and the next seat wins on a discard,
    so it deals the next hand (§2 B)."""
    payloads = new_game(options)
    for k in range(count):
        d = k % 4
        payloads += scripted_hand(start=len(payloads), hand_number=k, dealer=d, hands={(d + 1) % 4: S_HAND},
                                  turns=[("turn", d, None, None), ("turn", (d + 1) % 4, None, None),
                                         ("turn", (d + 2) % 4, "W5", "W5"), ("win", (d + 1) % 4, "W5", (d + 2) % 4)],
                                  birds=["B7"])
    return run(as_events(payloads), mode="audit")


def test_a_game_has_no_fixed_number_of_hands_by_default():
    # changsha.md §2 (and its seed's rules A-G) say who deals next, never how many hands a
    # game has: a real log of nine hands is no breach, and the game is not over before its
    # game_ended
    res = _hands_won_in_turn(9)
    assert res.findings == ()
    assert len(res.state.hands) == 9 and not res.state.game_over


def test_a_table_may_still_fix_the_number_of_hands():
    res = _hands_won_in_turn(9, {"hands_per_game": 8})
    [f] = res.findings  # the ninth hand (hand_number 8) starts after the end
    assert f.rule_id == "game_over" and "hand 8 " in f.message


def test_a_wall_with_honors_is_not_changsha():
    payloads = new_game() + [ev.HandStarted(hand_number=0, prevalent_wind="F1", dealer=0,
                                            wall=["F1"] + ["W1"] * 107)]
    res = run(as_events(payloads), mode="audit")
    assert "wall_mismatch" in [f.rule_id for f in res.findings]
