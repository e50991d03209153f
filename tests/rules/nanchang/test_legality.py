"""One test per legality check of shared/rules/nanchang.md §12 (and §3.3, §4.1, §8.3): each
illegal action is a finding naming the spec section in audit mode, and an error in strict
mode. Hands are dealt by hand below; the indicator is 白 (J3): 正精 白, 副精 中 (J1),
as in seed 004's examples."""

from __future__ import annotations

import pytest

from eventlog import events as ev
from replayer.findings import ReplayError
from replayer.replay import run

from .game import as_events, new_game

DEAL = {
    0: "W3 W4 W5 T1 T2 T3 T4 T5 T6 B1 B1 F1 J3 F2",  # dealer: 14
    1: "T7 T8 J1 J2 F3 F4 W6 W7 B5 B5 B6 B7 B8",  # S holds 中 (副精) and 发
    2: "F2 F2 B2 B3 B4 T9 T9 T9 W6 W7 W8 W1 W1",  # W waits on F2 / W1
    3: "W9 W9 B6 B7 B8 T1 T2 T3 F2 J1 B2 B2 T4",  # N holds one 南 and a 中 (jing)
}


def start(options=None, deal=DEAL, indicator="J3") -> list[ev.Payload]:
    ps = new_game(options) + [ev.HandStarted(hand_number=1, prevalent_wind="F1", dealer=0)]
    ps += [ev.TilesDealt(seat=s, tiles=deal[s].split()) for s in range(4)]
    if indicator:
        ps.append(ev.WildcardIndicatorRevealed(indicator=indicator, dice=[3, 4]))
    return ps


def findings(payloads, mode="audit"):
    return run(as_events(payloads), mode=mode).findings


def rules(payloads):
    return [(f.seq, f.rule_id) for f in findings(payloads)]


D1 = 7  # seq of the dealer's first discard after start()


def after_discard(tile, *claims, options=None):
    return start(options) + [ev.TileDiscarded(seat=0, tile=tile), *claims]


def test_a_legal_dragon_chow_of_a_discarded_jing_at_face_value():
    # 004: 白 discarded, 下家 holding 中+发 may chi it (中发白)
    assert rules(after_discard("J3", ev.Chow(seat=1, tiles=["J1", "J2", "J3"], claimed_tile="J3", discard_seq=D1))) == []


def test_12_1_chow_using_own_jing_as_wild():
    # S holds 7s and a 中 (jing) but no 5s: a chow 5-6-7s of E's 6s would use 中 as 5s
    got = findings(after_discard("T6", ev.Chow(seat=1, tiles=["T5", "T6", "T7"], claimed_tile="T6", discard_seq=D1)))
    assert [f.rule_id for f in got][:1] == ["jing_wild_in_meld"]
    assert "nanchang.md §4.2" in got[0].source


def test_12_1_pung_using_own_jing_as_wild():
    # N holds one 南 and a 中 (jing): the 中 may not stand for the second 南
    assert (D1 + 1, "jing_wild_in_meld") in rules(after_discard("F2", ev.Pung(seat=3, tile="F2", discard_seq=D1)))


def test_12_3_discarded_jing_is_face_value_for_chow_and_pung():
    # 004: 白 discarded; a pon by W, who holds no 白 (南南 in 004), must not use it as wild;
    # a chi 中发白 needs real 中 and 发: seat 1 of this deal has them, so swap in N's view
    pung = after_discard("J3", ev.Pung(seat=2, tile="J3", discard_seq=D1))
    assert (D1 + 1, "discarded_jing_face_value") in rules(pung)
    deal = dict(DEAL)
    deal[1], deal[2] = DEAL[2].replace("W1 W1", "T7 T8"), DEAL[1].replace("T7 T8", "W1 W1")
    chow = start(deal=deal) + [ev.TileDiscarded(seat=0, tile="J3"),
                               ev.Chow(seat=1, tiles=["J1", "J2", "J3"], claimed_tile="J3", discard_seq=D1)]
    assert (D1 + 1, "discarded_jing_face_value") in rules(chow)


def test_12_2_honor_chows_three_distinct_winds_or_the_dragons():
    ok = after_discard("F1", ev.Chow(seat=1, tiles=["F1", "F3", "F4"], claimed_tile="F1", discard_seq=D1))
    assert rules(ok) == []
    # a wind + dragon "chow" cannot even be written as an event (eventlog schema)
    with pytest.raises(ValueError):
        ev.Chow(seat=1, tiles=["F1", "F3", "J2"], claimed_tile="F1", discard_seq=D1)
    from replayer.rules.nanchang.play import _is_sequence

    assert _is_sequence(("F1", "F2", "F4")) and _is_sequence(("J1", "J2", "J3"))
    assert not _is_sequence(("F1", "F3", "J2")) and not _is_sequence(("F1", "F1", "F2"))


def test_12_2_chow_only_by_the_next_player():
    got = findings(after_discard("T4", ev.Chow(seat=3, tiles=["T2", "T3", "T4"], claimed_tile="T4", discard_seq=D1)))
    assert got[0].rule_id == "chow_wrong_seat" and "nanchang.md §5.3" in got[0].source


def test_12_7_passed_win_blocks_discard_wins_until_own_intake():
    # E's first discard 南 would complete W's hand (南南南 + 1m pair): W passes; S draws and
    # discards 1m, which W claims → 弃胡 (a false win, 诈胡)
    base = after_discard("F2")
    tail = [ev.TileDrawn(seat=1, tile="W1"), ev.TileDiscarded(seat=1, tile="W1"),
            ev.WinDeclared(seat=2, tile="W1", self_drawn=False, from_seat=1, discard_seq=D1 + 2)]
    got = findings(base + tail)
    assert [(f.seq, f.rule_id) for f in got] == [(D1 + 3, "qihu")]
    assert "§7.2" in got[0].source
    # without the passed chance (E discards 1p instead) the same win is legal
    assert rules(after_discard("B1") + tail) == []
    # same_tile scope (seed 002): only the same tile is blocked
    assert rules(after_discard("F2", options={"qihu_scope": "same_tile"}) + tail) == []


def test_12_6_jingdiao_discard_win_not_deguo():
    deal = dict(DEAL)
    deal[1] = "W3 W3 W3 B5 B5 B5 B5 B6 B7 F2 F2 J3 J1"  # 004 a): 精钓 with 白 + 中
    deal[0] = "W4 W4 W5 T1 T2 T3 T4 T5 T6 B1 B1 F1 F3 T7"
    deal[2] = "F4 F3 B2 B3 B4 T9 T9 T9 W6 W7 W8 W9 W9"
    deal[3] = "W9 W9 B6 B7 B8 T1 T2 T3 F3 J2 B2 B2 T4"
    play = [ev.TileDiscarded(seat=0, tile="B1"), ev.TileDrawn(seat=1, tile="W1"), ev.TileDiscarded(seat=1, tile="W1"),
            ev.TileDrawn(seat=2, tile="W1"), ev.TileDiscarded(seat=2, tile="F4")]
    bad = start(deal=deal) + play + [ev.WinDeclared(seat=1, tile="F4", self_drawn=False, from_seat=2, discard_seq=D1 + 4)]
    got = findings(bad)
    assert [f.rule_id for f in got] == ["jingdiao_discard_win"] and "§6.8" in got[0].source
    # on the dealer's first discard it is a 地胡, allowed from 精钓 state
    deal[0] = deal[0].replace("F3", "F4")
    deal[2] = deal[2].replace("F4", "F1")
    dihu = start(deal=deal) + [ev.TileDiscarded(seat=0, tile="F4"),
                               ev.WinDeclared(seat=1, tile="F4", self_drawn=False, from_seat=0, discard_seq=D1)]
    res = run(as_events(dihu), mode="strict")
    [w] = res.state.wins
    assert w.score.evaluation.shape == "earthly" and w.score.evaluation.conditions == ("jing_fishing",)
    assert w.score.components.as_dict()["win"] == [-40, 120, -40, -40]  # 精钓地胡: 40 from each (§6.11)


def test_12_8_only_the_nearest_claimant_wins():
    # W (seat 2) and N (seat 3)… here S and W both claim: S is nearer to the discarder E
    deal = dict(DEAL)
    deal[1] = "F2 F2 B2 B3 B4 T9 T9 T9 W6 W7 W8 T8 T8"  # S waits on F2 / T8
    deal[2] = "T7 W2 J1 J2 F3 F4 W6 W7 B5 B5 B6 B7 B8"
    ps = start(deal=deal) + [ev.TileDiscarded(seat=0, tile="F2"),
                             ev.Pass(seat=1, discard_seq=D1, claim="win"),
                             ev.WinDeclared(seat=2, tile="F2", self_drawn=False, from_seat=0, discard_seq=D1)]
    assert "one_winner_per_discard" in [r for _, r in rules(ps)]


def test_12_9_no_robbing_a_concealed_kong():
    deal = dict(DEAL)
    deal[0] = "W3 W3 W3 W3 T2 T3 T4 T5 T6 B1 B1 F1 J3 F2"
    deal[3] = "W4 W5 B6 B7 B8 T1 T2 T3 F2 J1 B2 B2 T4"  # N waits on W3 / W6
    ps = start(deal=deal) + [ev.Kong(seat=0, kind="concealed", tile="W3"),
                             ev.WinDeclared(seat=3, tile="W3", self_drawn=False, from_seat=0, robbing_kong=True)]
    got = [r for _, r in rules(ps)]
    assert "kong_not_robbable" in got


def test_12_10_after_the_wall_is_empty_only_wins_claim():
    # dead_wall_tiles = 82 leaves one drawable tile after the deal (option of §10, A-6);
    # S draws it and discards 1p, which E (holding 1p 1p) may not pung
    ps = after_discard("F2", ev.TileDrawn(seat=1, tile="B1"), ev.TileDiscarded(seat=1, tile="B1"),
                       ev.Pung(seat=0, tile="B1", discard_seq=D1 + 2), options={"dead_wall_tiles": 82})
    assert rules(ps) == [(D1 + 3, "claim_after_wall_empty")]


def test_indicator_must_be_revealed_before_the_first_discard():
    ps = start(indicator=None) + [ev.TileDiscarded(seat=0, tile="B1")]
    got = findings(ps)
    assert got[0].rule_id == "indicator_missing" and "§4.1" in got[0].source


def test_strict_mode_refuses_the_illegal_event():
    ps = after_discard("J3", ev.Pung(seat=2, tile="J3", discard_seq=D1))
    with pytest.raises(ReplayError) as e:
        run(as_events(ps), mode="strict")
    assert e.value.finding.rule_id == "discarded_jing_face_value"


def test_false_win_pays_the_penalty_and_settles_as_a_draw():
    # S claims a win on E's 1p with a hand that does not win: 诈胡 (§8.3): S pays 10 to each,
    # and the 流局 jing settlement applies: E 白 (2), S 中 (1), N 中 (1) → s = 2,1,0,1,
    # net_i = 4·s_i − 4 → E +4, S 0, W −4, N 0. Total E +14, S −30, W +6, N +10.
    ps = after_discard("B1", ev.WinDeclared(seat=1, tile="B1", self_drawn=False, from_seat=0, discard_seq=D1),
                       ev.HandEnded(hand_number=1))
    res = run(as_events(ps), mode="audit")
    assert [f.rule_id for f in res.findings] == ["false_win"]
    assert res.state.scores == (14, -30, 6, 10)
    assert sum(res.state.scores) == 0


def test_exhaustive_draw_settles_jing_and_the_optional_dealer_payment():
    # One drawable tile (dead_wall_tiles = 82): S draws it, discards, nobody wins → 流局.
    # Jing (§9.1, §8.2): E 白 (2), S 中 (1), N 中 (1) → E +4, S 0, W −4, N 0; with
    # draw_dealer_pays = 5 the dealer also pays 5 to each → E −11, S +5, W +1, N +5.
    tail = [ev.TileDrawn(seat=1, tile="B1"), ev.TileDiscarded(seat=1, tile="B1"), ev.ExhaustiveDraw(),
            ev.HandEnded(hand_number=1)]
    plain = run(as_events(after_discard("F2", *tail, options={"dead_wall_tiles": 82})), mode="strict")
    assert plain.state.scores == (4, 0, -4, 0)
    paid = run(as_events(after_discard("F2", *tail, options={"dead_wall_tiles": 82, "draw_dealer_pays": 5})),
               mode="strict")
    assert paid.state.scores == (-11, 5, 1, 5)
    assert paid.state.hands[0].exhaustive_draw


def _with_wall(indicator_at_3rd_from_tail: str, shown: str, options=None):
    """DEAL with a full 136-tile wall (dealt part first) whose undealt part has
    ``indicator_at_3rd_from_tail`` third from the tail: with dice 1+1 (s = 2) the indicator is
    the top tile of stack #2 from the tail, taken 3rd by tail draws (top then bottom, §3.1)."""
    from eventlog import tiles as T

    dealt = [t for s in range(4) for t in DEAL[s].split()]
    left = [4] * 34
    for t in dealt:
        left[T.index(t)] -= 1
    left[T.index(indicator_at_3rd_from_tail)] -= 1
    rest = [T.code(i) for i in range(34) for _ in range(left[i])]
    undealt = rest[:-2] + [indicator_at_3rd_from_tail] + rest[-2:]
    ps = new_game(options) + [ev.HandStarted(hand_number=1, prevalent_wind="F1", dealer=0, wall=dealt + undealt)]
    ps += [ev.TilesDealt(seat=s, tiles=DEAL[s].split()) for s in range(4)]
    ps.append(ev.WildcardIndicatorRevealed(indicator=shown, dice=[1, 1]))
    return ps


def test_indicator_position_from_the_dice_when_the_wall_is_known():
    assert rules(_with_wall("J3", "J3")) == []
    assert rules(_with_wall("J3", "J2")) == [(6, "indicator_position")]
    # indicator_removed: the indicator leaves the wall, one tile fewer to draw
    res = run(as_events(_with_wall("J3", "J3", {"indicator_removed": True})), mode="strict")
    assert res.state.wall_remaining == 136 - 53 - 1 == len(res.state.wall)
