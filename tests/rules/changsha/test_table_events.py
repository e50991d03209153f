"""Changsha's own table events replayed as whole hands (docs/reference/rules/changsha.md):
opening small wins paid at once (§3.2, §7 Ex 6), the 海底 offered round the table with two
winners on the exposed tile (§4, §7 Ex 7), 开杠 with its two revealed tiles (§4, §7 Ex 8:
杠上炮; 杠上开花; the locked hand), birds turned after the win (§5.1), dealer rules D, F and G
(§2) — and a table event under a ruleset that does not play it."""

from __future__ import annotations

import pytest

from eventlog import events as ev
from replayer.findings import ReplayError
from replayer.replay import run

from .game import as_events, new_game, scripted_hand

FILLER_TURNS = [("turn", 0, None, None)] + [("turn", s % 4, None, None) for s in range(1, 55)]  # 1 tile left


def replay(*hands, options=None, mode="audit", ruleset="changsha"):
    payloads = new_game(options)
    if ruleset != "changsha":
        payloads[0] = payloads[0].model_copy(update={"ruleset": ruleset})
    for h in hands:
        payloads += h(len(payloads)) if callable(h) else h
    return run(as_events(payloads), mode=mode)


def next_hand(n, dealer):
    return [ev.HandStarted(hand_number=n, prevalent_wind="F1", dealer=dealer)]


EX6_W = "W1 W3 W3 W3 W5 W6 W9 B2 B4 B7 B7 B7 B8"


def test_example_6_opening_small_wins_paid_at_once_then_haidi_declined_by_all_rule_d():
    turns = [("opening", 2, [("missing_suit", EX6_W), ("two_pungs", "W3 W3 W3 B7 B7 B7")])] + FILLER_TURNS + [
        ("decline", 3), ("decline", 0), ("decline", 1), ("decline", 2)]

    def hand(start):
        return scripted_hand(start=start, hand_number=0, dealer=0, hands={2: EX6_W}, turns=turns)
    res = replay(hand, lambda s: next_hand(1, 3), mode="strict")  # D: the first offered (N) deals
    assert res.state.hands[0].changes == (-30, -20, 70, -20)
    assert [e.kind for e in res.state.score_log] == ["opening"]
    assert res.state.hands[0].exhaustive_draw
    bad = replay(hand, lambda s: next_hand(1, 1))
    assert [f.rule_id for f in bad.findings] == ["dealer_rotation"]


def test_an_unproved_or_late_opening_declaration_is_a_finding():
    def hand(turns):
        return lambda start: scripted_hand(start=start, hand_number=0, dealer=0, hands={2: EX6_W}, turns=turns,
                                           end=False)
    res = replay(hand([("opening", 2, [("no_258", EX6_W)])]))  # 5m, 2p, 8p: not 板板胡
    assert [f.rule_id for f in res.findings] == ["opening_not_proved"]
    assert "changsha.md §3.2" in res.findings[0].source
    res = replay(hand([("turn", 0, None, None), ("opening", 2, [("two_pungs", "W3 W3 W3 B7 B7 B7")])]))
    assert [f.rule_id for f in res.findings] == ["opening_out_of_phase"]
    with pytest.raises(ReplayError, match="opening_not_proved"):
        replay(hand([("opening", 2, [("two_pungs", "W3 W3 W3 W1 W1 W1")])]), mode="strict")


E_EX7 = "W5 W5 T2 T3 T4 W6 W7 W8 T6 T7 T8 B4 B5"
N_EX7 = "W2 W3 W4 T5 T6 T7 T9 T9 T9 W8 W8 B1 B2"


def ex7(start):
    # one tile left: N, E and S decline it, W takes 3p and cannot win: exposed; N and E win (海底炮)
    turns = FILLER_TURNS + [("decline", 3), ("decline", 0), ("decline", 1), ("turn", 2, "B3", "B3"),
                            ("win", 3, "B3", 2), ("win", 0, "B3", 2)]
    return scripted_hand(start=start, hand_number=0, dealer=0, hands={0: E_EX7, 3: N_EX7}, turns=turns,
                         turned=["B3"])


def ex7_spec(start):
    # as §7 Ex 7: S is the first offered the 海底 and passes; W takes 3p, cannot win, exposes it;
    # N and E win on it. (S pungs N's 9p early so that S is due to draw when one tile is left.)
    turns = [("turn", 0, None, None), ("turn", 1, None, None), ("turn", 2, None, None), ("turn", 3, "B9", "B9"),
             ("pung", 1, "B9"), ("discard", 1, "T1")] + [("turn", s % 4, None, None) for s in range(2, 53)] + [
             ("decline", 1), ("turn", 2, "B3", "B3"), ("win", 3, "B3", 2), ("win", 0, "B3", 2)]
    return scripted_hand(start=start, hand_number=0, dealer=0, hands={0: E_EX7, 1: "B9 B9 T1", 3: N_EX7},
                         turns=turns, turned=["B3"])


def test_example_7_as_the_spec_tells_it():
    res = replay(ex7_spec, lambda s: next_hand(1, 2), mode="strict")  # F: 通炮, the taker deals
    assert res.state.hands[0].changes == (140, 0, -260, 120)
    res = replay(ex7_spec, mode="strict")
    assert [[f.id for f in w.score.fans] for w in res.state.wins] == [["last_tile_claim"], ["last_tile_claim"]]
    assert [w.settlement.changes for w in res.state.wins] == [(0, 0, -60, 60), (70, 0, -70, 0)]  # before birds


def test_example_7_haidi_with_two_winners_bird_is_the_haidi_tile():
    res = replay(ex7, lambda s: next_hand(1, 2), mode="strict")  # F: 通炮, the taker deals
    assert res.state.hands[0].changes == (140, 0, -260, 120)
    res = replay(ex7, mode="strict")
    assert [[f.id for f in w.score.fans] for w in res.state.wins] == [["last_tile_claim"], ["last_tile_claim"]]
    # with haidi_passer_may_win off, N and E (who declined the 海底) may not win on it
    res = replay(ex7, options={"haidi_passer_may_win": False})
    assert [f.rule_id for f in res.findings] == ["haidi_passer", "haidi_passer"]


N_EX8 = "T7 T7 T7 W1 W1 W1 B1 B1 B1 T2 T3 T5 T5"  # after the kong: waits 1s / 4s, pair 55s
S_EX8 = "W2 W3 W4 W7 W8 T1 T2 T3 B5 B5 B6 B7 B8"


def ex8(start, reveal="B3 W9", after=(("win", 1, "W9", 3),), birds=("T4",), options_end=True):
    turns = [("turn", 0, None, None), ("turn", 1, None, None), ("turn", 2, "T7", "T7"), ("kong", 3, "melded", "T7"),
             ("reveal", 3, (3, 5), reveal), *after]
    return scripted_hand(start=start, hand_number=0, dealer=0, hands={1: S_EX8, 3: N_EX8}, turns=turns,
                         birds=list(birds), end=options_end)


def test_example_8_open_kong_and_a_win_on_its_revealed_tile():
    res = replay(ex8, mode="strict")
    assert res.state.hands[0].changes == (0, 120, 0, -120)
    [w] = res.state.wins
    assert [(f.id, f.name_zh) for f in w.score.fans] == [("kong_reveal_claim", "杠上炮")]
    assert w.from_seat == 3 and not w.self_drawn


def test_kong_replacement_win_on_the_open_kongs_own_tile():
    # the reveal holds 4s: N wins with it (杠上开花, self-drawn, big); bird 2m -> S pays double
    payloads = new_game()
    hand = ex8(1, reveal="T4 B9", after=(), birds=("W2",), options_end=False)
    payloads += hand + [ev.WinDeclared(seat=3, tile="T4", self_drawn=True), ev.BirdsTurned(tiles=["W2"]),
                        ev.HandEnded(hand_number=0)]
    res = run(as_events(payloads), mode="strict")
    [w] = res.state.wins
    assert [f.id for f in w.score.fans] == ["kong_replacement_win"] and w.self_drawn
    assert res.state.hands[0].changes == (-70, -120, -60, 250)
    # S may not take a revealed tile while it completes N's own hand (杠上开花 first)
    payloads = new_game() + ex8(1, reveal="T4 W9", after=(("win", 1, "W9", 3),), birds=("W2",))
    res = run(as_events(payloads), mode="audit")
    assert "kaigang_self_first" in [f.rule_id for f in res.findings]


def test_open_kong_checks():
    # the revealed tiles must be the stack the dice count; the hand is locked afterwards
    payloads = new_game() + ex8(1, after=(("win", 1, "W9", 3),))
    k = next(i for i, p in enumerate(payloads) if isinstance(p, ev.KongTilesRevealed))
    wrong = payloads[:k] + [payloads[k].model_copy(update={"tiles": ["B3", "W8"]})] + payloads[k + 1:]
    assert "wrong_kong_tiles" in [f.rule_id for f in run(as_events(wrong), mode="audit").findings]
    # no win on the reveal: N later draws and must discard what it drew
    locked = [("turn", 0, None, None), ("turn", 1, None, None), ("turn", 2, None, None), ("turn", 3, "W9", "B1")]
    payloads = new_game() + ex8(1, after=tuple(locked), birds=())
    res = run(as_events(payloads), mode="audit")
    assert [f.rule_id for f in res.findings][:1] == ["locked_after_kaigang"]
    # a seat that is not ready may not open its kong
    payloads = new_game() + scripted_hand(
        start=1, hand_number=0, dealer=0, hands={3: "T7 T7 T7 W1 W4 W7 B1 B4 B7 T1 T4 T9 B9"},
        turns=[("turn", 0, None, None), ("turn", 1, None, None), ("turn", 2, "T7", "T7"),
               ("kong", 3, "melded", "T7"), ("reveal", 3, (3, 5), "B3 W9")], end=False)
    assert "kaigang_not_ready" in [f.rule_id for f in run(as_events(payloads), mode="audit").findings]


def test_rule_g_two_seats_win_at_the_start_the_dice_bird_decides_the_next_dealer():
    # opening_bird = dice: dice 3 + 5 = 8 -> from the dealer (E) the 上家 N deals next, although S wins later
    s_hand = "W1 W2 W3 W5 T2 T3 T4 T7 T8 T9 B4 B5 B6"
    turns = [("opening", 2, [("missing_suit", EX6_W)]), ("opening", 3, [("two_pungs", "T6 T6 T6 B9 B9 B9")]),
             ("turn", 0, None, None), ("turn", 1, None, None), ("turn", 2, "W5", "W5"), ("win", 1, "W5", 2)]

    def hand(start):
        return scripted_hand(start=start, hand_number=0, dealer=0, hands={1: s_hand, 2: EX6_W,
                                                                       3: "T6 T6 T6 B9 B9 B9"},
                             turns=turns, birds=["B7"], dice=[3, 5])
    good = replay(hand, lambda s: next_hand(1, 3), options={"opening_bird": "dice"})
    assert good.findings == ()
    # the dice bird hits N: N pays double for W's win; N's own win is paid double by all
    assert [e.kind for e in good.state.score_log][:4] == ["opening", "opening_bird", "opening", "opening_bird"]
    bad = replay(hand, lambda s: next_hand(1, 1), options={"opening_bird": "dice"})
    assert [f.rule_id for f in bad.findings] == ["dealer_rotation"]
    # without the dice bird G cannot apply: B, the winner S deals
    plain = replay(hand, lambda s: next_hand(1, 1))
    assert plain.findings == ()


def test_a_table_event_the_ruleset_does_not_play():
    payloads = new_game()
    payloads[0] = payloads[0].model_copy(update={"ruleset": "mcr"})
    payloads += [ev.HandStarted(hand_number=0, prevalent_wind="F1", dealer=0), ev.BirdsTurned(tiles=["W1"])]
    res = run(as_events(payloads), mode="audit")
    assert [f.rule_id for f in res.findings] == ["event_not_in_ruleset"]


def test_rule_c_the_haidi_taker_deals_when_nobody_wins():
    def hand(start):
        return scripted_hand(start=start, hand_number=0, dealer=0, hands={},
                             turns=FILLER_TURNS + [("turn", 3, "W9", "W9"), ("exhaustive_draw",)])
    assert replay(hand, lambda s: next_hand(1, 3), mode="strict").state.hands[0].exhaustive_draw
    bad = replay(hand, lambda s: next_hand(1, 0))
    assert [f.rule_id for f in bad.findings] == ["dealer_rotation"]


def test_rule_e_the_last_tile_drawn_as_a_kong_replacement_its_drawer_deals():
    """§2 E and §4 (掷骰子 … 如果只有海底牌时候则取海底牌补张): with two tiles left N draws its fourth
    W5 and kongs; the last tile is its replacement (no 海底, nobody is offered it); nobody wins
    → N (seat 2 here: the kong's drawer) deals next."""
    seat2 = "W5 W5 W5 W1 W9 T1 T9 B1 B9 W4 T4 B4 W7"
    turns = FILLER_TURNS[:-1] + [("draw", 2, "W5"), ("kong", 2, "concealed", "W5"), ("replacement", 2, "T7"),
                                 ("discard", 2, "W1"), ("exhaustive_draw",)]

    def hand(start):
        return scripted_hand(start=start, hand_number=0, dealer=0, hands={2: seat2}, turns=turns)
    res = replay(hand, lambda s: next_hand(1, 2), mode="strict")
    assert res.state.hands[0].exhaustive_draw
    bad = replay(hand, lambda s: next_hand(1, 3))
    assert [f.rule_id for f in bad.findings] == ["dealer_rotation"]
    # offering that tile round the table as a 海底 is a finding: it was no 海底
    offered = FILLER_TURNS[:-1] + [("draw", 2, "W5"), ("kong", 2, "concealed", "W5"), ("decline", 3)]
    got = replay(lambda start: scripted_hand(start=start, hand_number=0, dealer=0, hands={2: seat2}, turns=offered,
                                             end=False))
    assert [f.rule_id for f in got.findings] == ["haidi_not_offered"]
    assert "kong replacement" in got.findings[0].message
