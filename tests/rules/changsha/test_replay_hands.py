"""The worked examples of docs/reference/rules/changsha.md §7 replayed as whole hands in
strict mode (tiles as in tests/data/changsha, the settlement vectors): the replayed scores
equal the spec's figures, the win's explained score names its units, the birds are the wall
tiles after the hand, and the next dealer follows §2."""

from __future__ import annotations

from eventlog import events as ev
from replayer.replay import run

from .game import as_events, new_game, scripted_hand


def replay(*hands, options=None, mode="strict"):
    payloads = new_game(options)
    for h in hands:
        payloads += h(len(payloads))
    return run(as_events(payloads), mode=mode)


def ex1(start, n=0, dealer=0):
    # W (seat 2) discards 5m, S (seat 1) wins small (5m pair); bird 7p -> W -> W pays 10 x 2
    return scripted_hand(start=start, hand_number=n, dealer=dealer,
                         hands={1: "W1 W2 W3 W5 T2 T3 T4 T7 T8 T9 B4 B5 B6"},
                         turns=[("turn", 0, None, None), ("turn", 1, None, None), ("turn", 2, "W5", "W5"),
                                ("win", 1, "W5", 2)], birds=["B7"])


def test_example_1_small_discard_win_with_a_bird_on_the_discarder():
    res = replay(ex1)
    assert res.findings == ()
    assert res.state.scores == (0, 20, -20, 0)
    [w] = res.state.wins
    assert [(f.id, f.name_zh, f.count) for f in w.score.fans] == [("small_win", "小胡 / 平胡", 1)]
    assert dict(w.score.components.parts) == {"win": (0, 10, -10, 0)}
    birds = [e for e in res.state.score_log if e.kind == "bird"]
    assert [e.changes for e in birds] == [(0, 10, -10, 0)]  # 7p -> 对家 of the dealer = W, the discarder


def test_example_2_dealer_discards_not_first_bird_elsewhere():
    def ex2(start):
        return scripted_hand(start=start, hand_number=0, dealer=0,
                             hands={3: "W2 W3 W4 W6 W7 W8 T5 T5 T7 T8 B1 B2 B3"},
                             turns=[("turn", 0, None, None), ("turn", 1, None, None), ("turn", 2, None, None),
                                    ("turn", 3, None, None), ("turn", 0, "T6", "T6"), ("win", 3, "T6", 0)],
                             birds=["T2"])
    res = replay(ex2)
    assert res.findings == ()
    assert res.state.scores == (-20, 0, 0, 20)


def test_example_3_small_self_draw_bird_on_the_dealer():
    def ex3(start):
        return scripted_hand(start=start, hand_number=0, dealer=0,
                             hands={2: "W3 W4 W5 W8 W8 T1 T2 T3 T6 T6 T6 B7 B9"},
                             turns=[("turn", 0, None, None), ("turn", 1, None, None), ("selfwin", 2, "B8")],
                             birds=["B5"])
    res = replay(ex3)
    assert res.findings == ()
    assert res.state.scores == (-40, -10, 60, -10)


def test_example_4_dealer_self_draws_all_pungs_bird_on_the_winner():
    def ex4(start):
        return scripted_hand(start=start, hand_number=0, dealer=0,
                             hands={0: "W1 W1 W1 W7 W7 W7 T3 T4 T4 T4 B6 B6 W9 T9"},
                             turns=[("turn", 0, None, "W9"), ("turn", 1, None, None), ("turn", 2, "B6", "B6"),
                                    ("pung", 0, "B6"), ("discard", 0, "T9"), ("turn", 1, None, None),
                                    ("turn", 2, None, None), ("turn", 3, None, None), ("selfwin", 0, "T3")],
                             birds=["T9"])
    res = replay(ex4)
    assert res.findings == ()
    assert res.state.scores == (420, -140, -140, -140)
    [w] = res.state.wins
    assert [f.id for f in w.score.fans] == ["all_pungs"] and w.score.category == "big"


def test_example_5_two_big_units_on_the_dealers_discard():
    def ex5(start):
        return scripted_hand(start=start, hand_number=0, dealer=0,
                             hands={1: "T1 T1 T2 T3 T3 T4 T4 T6 T6 T7 T7 T9 T9"},
                             turns=[("turn", 0, None, None), ("turn", 1, None, None), ("turn", 2, None, None),
                                    ("turn", 3, None, None), ("turn", 0, "T2", "T2"), ("win", 1, "T2", 0)],
                             birds=["W6"])
    res = replay(ex5)
    assert res.findings == ()
    assert res.state.scores == (-260, 260, 0, 0)
    [w] = res.state.wins
    assert [(f.id, f.name_zh) for f in w.score.fans] == [("full_flush", "清一色"), ("seven_pairs", "七小对")]


def test_the_winner_deals_next_rule_b():
    # Example 1 (dealer E, S wins) then a second hand: S must deal it (§2 B)
    def hand2(start, dealer):
        return [ev.HandStarted(hand_number=1, prevalent_wind="F1", dealer=dealer)]
    good = replay(ex1, lambda s: hand2(s, 1), mode="audit")
    assert [f.rule_id for f in good.findings] == []
    bad = replay(ex1, lambda s: hand2(s, 0), mode="audit")
    assert [f.rule_id for f in bad.findings] == ["dealer_rotation"]
    assert "changsha.md §2" in bad.findings[0].source


def test_tongpao_two_winners_on_one_discard_discarder_deals_next():
    # 通炮 (§5.2, §2 F): E discards 5m (not its first discard); S and N both win on it
    def h(start):
        return scripted_hand(start=start, hand_number=0, dealer=0,
                             hands={1: "W1 W2 W3 W5 T2 T3 T4 T7 T8 T9 B4 B5 B6",
                                    3: "W4 W6 T5 T5 B1 B2 B3 B7 B8 B9 T6 T7 T8"},
                             turns=[("turn", 0, None, None), ("turn", 1, None, None), ("turn", 2, None, None),
                                    ("turn", 3, None, None), ("turn", 0, "W5", "W5"), ("win", 1, "W5", 0),
                                    ("win", 3, "W5", 0)], birds=["W1"])
    res = replay(h, lambda s: [ev.HandStarted(hand_number=1, prevalent_wind="F1", dealer=0)], mode="audit")
    assert res.findings == ()
    # each winner is settled alone against E: 20 each (dealer discarder); bird 1 -> E = discarder -> x2
    assert res.state.hands[0].changes == (-80, 40, 0, 40)
