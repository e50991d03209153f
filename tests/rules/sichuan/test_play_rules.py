"""More rules of docs/reference/rules/sichuan.md replayed as whole hands (strict mode for the
legal ones, a finding in audit / an error in strict for the illegal ones, each naming its
section): the hand's end (§4, both modes), 一炮多响 with three winners and the next dealer
(§1, §5), the 过水不胡 "more fan" exception (§5.2, §12.3, §12.13), 后4张必胡 on a drawn tile
(§5.2), 过水不胡 after letting a robbable 补杠 stand (§5.2), an exposed kong is not robbable
and two robbers both win (§5.3, §12.16), 杠上花 (§11 Ex 6), 天胡 / 地胡 (§6.2, §12.9), 退税
(§3, §12.12) and 呼叫转移 (§3, §12.11). Expected amounts are worked from the spec's text.

Seats: E 0 (dealer), S 1, W 2, N 3. Hands holding three suits (花猪) can never win; they fill
the seats a test does not look at."""

from __future__ import annotations

from eventlog import events as ev
from replayer.replay import run
from replayer.rules.sichuan.play import build
from tests.rules.sichuan.hands import SichuanHand
from tests.rules.sichuan.test_replay_examples import example_4_hand, example_7_hand
from tests.rules.sichuan.test_rules import E_JUNK, N_JUNK, W_JUNK, check, ex10_hand


def strict(h: SichuanHand, options: dict | None = None):
    res = run(h.events(), mode="strict", ruleset=build(options or {}))
    assert res.findings == ()
    return res


def by_kind(res) -> list[tuple[str, tuple[int, ...]]]:
    return [(e.kind, e.changes) for e in res.state.score_log]


# -- §4: the end of the hand --------------------------------------------------------------

def test_standard_mode_ends_at_the_first_win_s4():
    """``mode = standard``: the hand ends at the first win event; a draw after it is play
    after the end of the hand, naming §4."""
    opts = {"mode": "standard"}
    h = ex10_hand(options=opts)
    h.discard(0, "W6")
    h.turn(1)
    h.draw(2, "B3")
    d = h.discard(2, "B3")
    h.win(1, "B3", from_seat=2, dseq=d)
    nxt = h.draw(3, h.safe_tile(3))
    check(h, "play_after_hand_end", "§4", opts, seq=nxt)


def test_play_resumes_after_the_winner_s4():
    """§4: after a discard win play goes on from next(winner): S wins on W's discard, so W
    (the seat after S, here the discarder) draws next — N drawing is out of turn."""
    h = ex10_hand()
    h.discard(0, "W6")
    h.turn(1)
    h.draw(2, "B3")
    d = h.discard(2, "B3")
    h.win(1, "B3", from_seat=2, dseq=d)
    wrong = h.draw(3, h.safe_tile(3))
    check(h, "wrong_seat_to_act", "§4", seq=wrong)


# E's 14 (three suits) with a 5p to discard; S waits 5p (closed 4p_6p), W waits 2p/5p, N waits
# 5p (pair). W123 W456 W789 are S's; T1..T9 are W's.
THREE_WAIT = {
    0: "W1 W5 T1 T4 T7 T9 B1 B9 T2 T5 W2 T3 T6 B5",
    1: "W1 W2 W3 W4 W5 W6 W7 W8 W9 B4 B6 B8 B8",
    2: "T1 T2 T3 T4 T5 T6 T7 T8 T9 B3 B4 B9 B9",
    3: "W2 W3 W4 W6 W7 W8 W9 W9 W9 B5 B5 B6 B7",
}


def test_three_winners_on_one_discard_end_the_blood_battle_s4_s5():
    """一炮多响 with three winners (§2, §5): E's 5p wins for S, W and N — each 平胡 (0 fan),
    E pays 1 to each (§5.4); three players have won, so the hand is over (§4): a draw after
    it is refused. The discarder deals the next hand (§1)."""
    h = SichuanHand(THREE_WAIT)
    d = h.discard(0, "B5")
    for seat in (1, 2, 3):
        h.win(seat, "B5", from_seat=0, dseq=d)
    h.g.end(0)
    h.g.hand(1, 0)
    res = strict(h)
    assert res.state.scores == (-3, 1, 1, 1)
    assert res.state.hands[0].winners == (1, 2, 3)

    h = SichuanHand(THREE_WAIT)
    d = h.discard(0, "B5")
    for seat in (1, 2, 3):
        h.win(seat, "B5", from_seat=0, dseq=d)
    nxt = h.draw(0, "W3")
    check(h, "play_after_hand_end", "§4", seq=nxt)


def test_standard_mode_a_multiple_win_is_one_win_event_s4():
    """``mode = standard``: the hand ends at the first win *event*; 一炮多响 counts as one
    (§4): all three win on E's 5p and are paid (1 each)."""
    opts = {"mode": "standard"}
    h = SichuanHand(THREE_WAIT, options=opts)
    d = h.discard(0, "B5")
    for seat in (1, 2, 3):
        h.win(seat, "B5", from_seat=0, dseq=d)
    h.g.end(0)
    h.g.hand(1, 0)
    res = strict(h, opts)
    assert res.state.scores == (-3, 1, 1, 1)


def test_after_a_multiple_win_the_first_winner_does_not_deal_s1():
    h = SichuanHand(THREE_WAIT)
    d = h.discard(0, "B5")
    for seat in (1, 2, 3):
        h.win(seat, "B5", from_seat=0, dseq=d)
    h.g.end(0)
    s = h.g.hand(1, 1)  # S won first, but the win had several winners: E deals
    check(h, "dealer_rotation", "§1", seq=s)


# -- §5.2: 过水不胡 and 后4张必胡 ----------------------------------------------------------

# S waits 1m (W111 W123 …: 平胡 + 根 = 1 fan) and 4m (W111 W234: 平胡, 0 fan).
S_ROOT = "W1 W1 W1 W2 W3 B4 B5 B6 B7 B8 B9 B2 B2"
JUNK_NO_1M_4M = {0: "W5 W9 T1 T4 T7 T9 B1 B3 T2 T5 W6 W7 T8 B9",
                 2: "W5 W9 T1 T4 T7 T9 B1 B3 T2 T5 W6 T8 B9",
                 3: "W5 W9 T1 T4 T7 T9 B1 B3 T3 T6 W7 T8 B9"}


def test_guoshui_allows_a_win_worth_more_fan_s5_2():
    """§5.2 / §12.3: S passes W's 4m (0 fan); without drawing, S may still win N's 1m because
    it is worth more (平胡 + 根 = 1 fan): N pays 2^1 = 2."""
    h = SichuanHand({**JUNK_NO_1M_4M, 1: S_ROOT})
    h.discard(0, "W6")
    h.turn(1)
    h.draw(2, "W4")
    h.discard(2, "W4")  # S could win (0 fan) and passes
    h.draw(3, "W1")
    d = h.discard(3, "W1")
    h.win(1, "W1", from_seat=3, dseq=d)
    res = strict(h)
    assert by_kind(res) == [("win", (0, 2, 0, -2))]


def test_guoshui_same_or_less_fan_is_refused_s5_2():
    """The other way round: S passes the 1-fan 1m, then claims the 0-fan 4m: refused."""
    h = SichuanHand({**JUNK_NO_1M_4M, 1: S_ROOT})
    h.discard(0, "W6")
    h.turn(1)
    h.draw(2, "W1")
    h.discard(2, "W1")  # S passes 1 fan
    h.draw(3, "W4")
    d = h.discard(3, "W4")
    w = h.win(1, "W4", from_seat=3, dseq=d)
    check(h, "guoshui_bu_hu", "§5.2", seq=w)


def test_punging_a_winning_tile_is_a_pass_s5_2():
    """§5.2: S (W1..W9 B55 B88, waiting 5p/8p) pungs W's 5p instead of winning on it (平胡, 0
    fan): a pass. S discards 1m and waits 1m/4m/7m; without a draw since, it may not win N's 7m
    (0 fan, not more)."""
    h = SichuanHand({0: E_JUNK, 1: "W1 W2 W3 W4 W5 W6 W7 W8 W9 B5 B5 B8 B8", 2: W_JUNK, 3: N_JUNK})
    h.discard(0, "W6")
    h.turn(1)
    h.draw(2, "B5")
    d = h.discard(2, "B5")
    h.pung(1, "B5", d)
    h.discard(1, "W1")
    h.draw(2, h.safe_tile(2))
    h.discard(2, h.concealed[2][-1])
    h.draw(3, "W7")
    d = h.discard(3, "W7")
    w = h.win(1, "W7", from_seat=3, dseq=d)
    check(h, "guoshui_bu_hu", "§5.2", seq=w)


def test_hou4zhang_bihu_on_a_drawn_tile_s5_2():
    """§5.2: with 4 or fewer tiles left in the wall a ready player must win when its winning
    tile appears — also on its own draw: S draws its 3p and discards it instead."""
    h = ex10_hand(early="B3 B3 B3 B6 B6 B6")  # S lets its waits go by while the wall is long
    h.discard(0, "W6")
    seat = h.fill(1, until=6)
    while seat != 1:
        h.turn(seat)
        seat = h.next_seat(seat)
    assert h.wall_left <= 5
    h.draw(1, "B3")  # the last 3p
    assert h.wall_left <= 4
    d = h.discard(1, "B3")
    check(h, "hou4zhang_bihu", "§5.2", seq=d)


# W waits 1p/4p (T123 T456 T789 B23 B66, 平胡 either way); E pungs 4p from N and later adds
# the fourth 4p: W could rob it (平胡 + 抢杠 = 1 fan).
ROB_W = {0: "B4 B4 W1 W5 W9 T1 T4 T7 T9 B7 B9 W2 W6 W8",
         1: "W1 W5 W9 T1 T4 T7 T9 B7 B9 W2 W6 W8 W3",
         2: "T1 T2 T3 T4 T5 T6 T7 T8 T9 B2 B3 B6 B6",
         3: "W1 W5 W9 T1 T4 T7 T9 B7 B9 W3 W7 B4 W4"}


def _e_pungs_then_adds_4p(h: SichuanHand) -> None:
    h.discard(0, "W8")
    h.turn(1)
    h.turn(2)
    h.draw(3, h.safe_tile(3))
    d = h.discard(3, "B4")  # W could win (0 fan) and lets E pung: a pass, lifted by W's next draw
    h.pung(0, "B4", d)
    h.discard(0, "W9")
    h.turn(1)
    h.turn(2)  # W draws: free again
    h.turn(3)
    h.draw(0, "B4")
    h.kong(0, "added", "B4")


def test_letting_a_robbable_kong_stand_is_a_pass_s5_2():
    """§5.2: passing a robbable kong tile counts as passing a discard: W lets E's 补杠 of 4p
    stand (it could rob it for 1 fan), then claims S's 1p (0 fan) without drawing: refused."""
    h = SichuanHand(ROB_W)
    _e_pungs_then_adds_4p(h)
    r = h.draw(0, h.safe_tile(0), "kong_replacement")
    h.discard(0, h.concealed[0][-1])
    h.draw(1, "B1")
    d = h.discard(1, "B1")
    w = h.win(2, "B1", from_seat=1, dseq=d)
    check(h, "guoshui_bu_hu", "§5.2", seq=w)
    # the 补杠 stood: E collected 1 from each other player still in when it did (§3)
    res = run(h.events()[: r + 1], mode="strict", ruleset=build({}))
    assert by_kind(res) == [("kong", (3, -1, -1, -1))]


# -- §5.3: 抢杠 ------------------------------------------------------------------------------

def test_an_exposed_kong_cannot_be_robbed_s5_3():
    """Only a 补杠 may be robbed (§5.3): W makes a 直杠 of 4p on N's discard; S, waiting on 4p
    (W123 W456 W789 B35 B88), tries to rob it."""
    h = SichuanHand({0: "W1 W5 W9 T1 T4 T7 T9 B1 B9 T2 T5 W2 W6 W7",
                     1: "W1 W2 W3 W4 W5 W6 W7 W8 W9 B3 B5 B8 B8",
                     2: "B4 B4 B4 T1 T2 T3 T4 T5 T6 T7 T8 T9 B9",
                     3: "W1 W5 W9 T1 T4 T7 T9 B1 B9 T3 T6 W3 B4"})
    h.discard(0, "W7")
    h.turn(1)
    h.turn(2)
    h.draw(3, h.safe_tile(3))
    d = h.discard(3, "B4")  # S could win on it (passes); W's kong claim
    k = h.kong(2, "melded", "B4", d)
    h.win(1, "B4", from_seat=2, dseq=k, robbing=True)
    check(h, "kong_not_robbable", "§5.3")


# S waits 4p (closed 3p_5p), W waits 4p/7p; E pungs N's 4p and adds the fourth.
TWO_ROBBERS = {0: "B4 B4 W1 W5 T1 T4 T7 T9 B1 B2 T2 T5 W6 T3",
               1: "W1 W2 W3 W4 W5 W6 W7 W8 W9 B3 B5 B8 B8",
               2: "T1 T2 T3 T4 T5 T6 T7 T8 T9 B5 B6 B9 B9",
               3: "W1 W5 T1 T4 T7 T9 B1 B2 T2 T5 W6 T3 B4"}


def test_two_robbers_both_win_and_the_robbed_player_deals_next_s5_3_s12_16():
    """§5.3: S and W both rob E's 补杠 of 4p; the kong is void (no kong payment). Each robbery
    is 平胡 + 抢杠 = 1 fan, paid by the robbed player as a discarder: 2 each (§5.4). Play goes
    on with E and N (§4), the wall runs out (both 花猪: nobody to pay, §7); the robbed player
    deals next (§1, §12.16)."""
    h = SichuanHand(TWO_ROBBERS)
    h.discard(0, "W6")
    h.turn(1)
    h.turn(2)
    h.draw(3, h.safe_tile(3))
    d = h.discard(3, "B4")  # S and W could win; they let E pung (a pass each, lifted by their draws)
    h.pung(0, "B4", d)
    h.discard(0, "T3")
    h.turn(1)
    h.turn(2)
    h.turn(3)
    h.draw(0, "B4")
    k = h.kong(0, "added", "B4")
    h.win(1, "B4", from_seat=0, dseq=k, robbing=True)
    w = h.win(2, "B4", from_seat=0, dseq=k, robbing=True)
    h.fill(3)  # play resumes after the last robber in turn order from E: N, then E
    h.g.add(ev.ExhaustiveDraw())
    h.g.end(0)
    h.g.hand(1, 0)
    res = strict(h)
    assert by_kind(res) == [("win", (-2, 2, 0, 0)), ("win", (-2, 0, 2, 0))]
    assert res.state.scores == (-4, 2, 2, 0)
    after = run(h.events()[: w + 1], mode="strict", ruleset=build({})).state
    assert [(m.kind, m.tiles[0]) for m in after.seats[0].melds] == [("pung", "B4")]  # the kong is void


# -- §6.2 and §11 Ex 6: 杠上花, 天胡, 地胡 ------------------------------------------------------

EX6 = {0: "W1 W5 W9 T1 T4 T7 T9 B1 B7 B9 T2 T5 W2 W3",
       1: "W1 W5 W9 T1 T4 T7 T9 B1 B7 B9 T2 T5 W4",
       2: "W6 W6 W6 B1 B2 B3 B4 B5 B6 B7 B8 B8 B9",
       3: "W1 W5 W9 T1 T4 T7 T9 B1 B7 B9 T3 T6 W7"}


def test_example_6_bloom_on_the_kong():
    """§11 Ex 6: W 暗杠 6m (+2 from each: W +6), the replacement 8p completes 6m×4 1p2p3p
    4p5p6p 7p8p9p 8p8p: 平胡 0 + 根 1 + 杠上花 1 = 2 fan, 4 from each. Kong + win: W +18,
    E, S, N −6 each. (The others are 花猪 and, W having won, nobody is paid at the draw.)"""
    h = SichuanHand(EX6, reserve="W6 B8")
    h.discard(0, "W3")
    h.turn(1)
    h.draw(2, "W6")
    h.kong(2, "concealed", "W6")
    h.draw(2, "B8", "kong_replacement")
    h.win(2, "B8")
    h.fill(3)
    h.g.add(ev.ExhaustiveDraw())
    h.g.end(0)
    res = strict(h)
    assert by_kind(res) == [("kong", (-2, -2, 6, -2)), ("win", (-4, -4, 12, -4))]
    assert res.state.scores == (-6, -6, 18, -6)


def test_example_6_with_plus2_no_gen():
    """§10 / §12.17, ``gangshanghua_mode = plus2_no_gen``: 杠上花 +2 and the kong just made is
    no 根: 平胡 0 + 2 = 2 fan, the same 4 from each here."""
    opts = {"gangshanghua_mode": "plus2_no_gen"}
    h = SichuanHand(EX6, options=opts, reserve="W6 B8")
    h.discard(0, "W3")
    h.turn(1)
    h.draw(2, "W6")
    h.kong(2, "concealed", "W6")
    h.draw(2, "B8", "kong_replacement")
    w = h.win(2, "B8")
    res = run(h.events()[: w + 1], mode="strict", ruleset=build(opts))
    win = res.state.wins[-1]
    assert [(line.id, line.points, line.count) for line in win.score.lines()] == [
        ("pinghu", 0, 1), ("gangshanghua", 2, 1)]
    assert by_kind(res)[-1] == ("win", (-4, -4, 12, -4))


HEAVENLY_E = "W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B5 B5"


HEAVENLY_OTHERS = {1: "W1 W5 W9 T1 T4 T7 T9 B1 B7 B9 T2 T5 W2",
                   2: "W1 W5 W9 T1 T4 T7 T9 B1 B7 B9 T2 T5 W3",
                   3: "W1 W5 W9 T1 T4 T7 T9 B1 B7 B9 T3 T6 W4"}


def test_heavenly_hand_s6_2():
    """天胡 (§6.2): E wins on the dealt 14, 平胡 0 fan → max(5, 0) = 5 fan, a self-draw:
    each other player pays 2^5 = 32 (§5.4, §12.9)."""
    h = SichuanHand({0: HEAVENLY_E, **HEAVENLY_OTHERS})
    w = h.win(0, "B5")
    res = run(h.events()[: w + 1], mode="strict", ruleset=build({}))
    assert res.findings == ()
    assert by_kind(res) == [("win", (96, -32, -32, -32))]
    assert [(line.id, line.points) for line in res.state.wins[-1].score.lines()] == [("pinghu", 0), ("tianhu", 5)]


def test_heavenly_hand_is_capped_s12_9():
    """§12.9: the cap applies to 天胡 too — with ``cap = 3`` each pays 2^3 = 8."""
    opts = {"cap": 3}
    h = SichuanHand({0: HEAVENLY_E, **HEAVENLY_OTHERS}, options=opts)
    w = h.win(0, "B5")
    res = run(h.events()[: w + 1], mode="strict", ruleset=build(opts))
    assert by_kind(res) == [("win", (24, -8, -8, -8))]


def test_earthly_hand_s6_2():
    """地胡 (§6.2, §12.10): S self-draws on its first draw, nobody has claimed: 平胡 0 → 5 fan,
    each other player pays 32."""
    h = ex10_hand(reserve="B6")  # S: W123 W456 W789 B45 B88, waits 3p/6p
    h.discard(0, "W6")
    h.draw(1, "B6")
    w = h.win(1, "B6")
    res = run(h.events()[: w + 1], mode="strict", ruleset=build({}))
    assert res.findings == ()
    assert by_kind(res) == [("win", (-32, 96, -32, -32))]


# -- §3, §7: 退税 and 呼叫转移 in a replay ----------------------------------------------------

# S holds three 7p, draws the fourth (暗杠) and is left with two suits and no wait:
# W1 W2 W3 W5 W7 W9 B1 B3 B5 B9 + the 7p kong.
S_KONG_NOT_READY = "B7 B7 B7 W1 W3 W5 W9 B1 B3 B5 B9 W7 W2"
E_JUNK2, W_JUNK2, N_JUNK2 = (x.replace("B7", "B2") for x in (E_JUNK, W_JUNK, N_JUNK))


def _kong_then_draw(options: dict) -> SichuanHand:
    h = SichuanHand({0: E_JUNK2, 1: S_KONG_NOT_READY, 2: W_JUNK2, 3: N_JUNK2}, options=options, reserve="B7")
    h.discard(0, "W6")
    h.draw(1, "B7")
    h.kong(1, "concealed", "B7")
    t = h.safe_tile(1)
    h.draw(1, t, "kong_replacement")
    h.discard(1, t)
    h.fill(2)
    h.g.add(ev.ExhaustiveDraw())
    h.g.end(0)
    return h


def test_tuishui_refunds_a_not_ready_kongers_income_s3_s7():
    """S 暗杠 7p: E, W, N pay 2 each (§3). At the draw E, W, N hold three suits (花猪) and each
    pays S, the only non-花猪 player, 2^5 = 32 (§7.1). S is not ready: with ``tuishui`` it
    returns its kong income, 2 to each payer (§3, §12.12); without, it keeps it."""
    res = strict(_kong_then_draw({}), {})
    assert by_kind(res) == [("kong", (-2, 6, -2, -2)), ("exhaustive_draw", (-32, 96, -32, -32))]
    res = strict(_kong_then_draw({"tuishui": True}), {"tuishui": True})
    assert by_kind(res) == [("kong", (-2, 6, -2, -2)), ("exhaustive_draw", (-30, 90, -30, -30))]
    assert res.state.scores == (-32, 96, -32, -32)


def test_hujiao_zhuanyi_moves_the_kong_income_to_the_cannon_winner_s3_s12_11():
    """§11 Ex 7 with ``hujiao_zhuanyi``: N's 补杠 of 4p collected 3; E wins N's next discard
    (杠上炮, 对对胡 1 + 1 = 2 fan: N pays 4) and what N's kong collected moves to E (§3,
    §12.11): E −1 + 4 + 3 = +6, S −1, W −1, N +3 − 4 − 3 = −4."""
    opts = {"hujiao_zhuanyi": True}
    res = strict(example_7_hand(opts), opts)
    assert by_kind(res) == [("kong", (-1, -1, -1, 3)), ("win", (7, 0, 0, -7))]
    assert res.state.score_log[-1].parts == (("win", (4, 0, 0, -4)), ("hujiao_zhuanyi", (3, 0, 0, -3)))
    assert res.state.scores == (6, -1, -1, -4)


def test_without_xiayu_kongs_collect_nothing():
    """Option ``xiayu = false`` (seed 002 四.1/四.3: 标准打法 and 标准血战 have no 下雨): §11 Ex 4
    without its kong payments — E +6 (对对胡 self-drawn, 2 from each), S −2 + 2 = 0 (平胡 + the
    7p kong's 根 = 1 fan from N), W −2 + 8 (查大叫: 清一色 + the 5s kong's 根 = 3 fan), N −2 −2 −8."""
    opts = {"xiayu": False}
    res = strict(example_4_hand(opts), opts)
    assert [k for k, _ in by_kind(res)] == ["win", "win", "exhaustive_draw"]
    assert res.state.scores == (6, 0, 6, -12)
