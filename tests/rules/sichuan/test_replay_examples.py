"""Whole hands of docs/reference/rules/sichuan.md §11 replayed in strict mode: every event is
accepted, and the score changes of the replay equal the example's settlement (the final hands
are those of the reference vectors tests/data/sichuan, sc-exNN)."""

from __future__ import annotations

from eventlog import events as ev
from replayer.replay import run
from replayer.rules.sichuan.play import build
from tests.rules.sichuan.hands import SichuanHand


def replay(h: SichuanHand, options: dict | None = None):
    return run(h.events(), mode="strict", ruleset=build(options or {}))


def example_9_hand(opts: dict) -> SichuanHand:
    """§11 Ex 9: nobody wins; at the draw E and N are ready, S is not, W is 花猪."""
    h = SichuanHand({
        0: "T1 T1 T1 T2 T3 T7 T8 T9 B1 B1 B2 B3 B3 W7",   # E: ready on B2 (清一色? no: 2 fan best) + junk W7
        1: "W1 W2 W2 W4 W4 W4 W9 W9 T8 T8 T7 T7 W6",      # S: will pung T7, then not ready (two suits)
        2: "W1 T3 T4 T5 T5 B1 B2 B3 B4 B4 B4 B5 B7",      # W: 花猪 (three suits)
        3: "T2 T3 T3 T4 T4 T5 B5 B5 B6 B7 B8 B9 B9",      # N: ready on B5 / B9, 平胡
    }, options=opts, early="B2 B2 B5 B9 B9")
    h.discard(0, "W7")
    h.turn(1)
    h.draw(2, "T7")
    d = h.discard(2, "T7")
    h.pung(1, "T7", d)
    h.discard(1, "W6")
    h.fill(2)
    h.g.add(ev.ExhaustiveDraw())
    h.g.end(0)
    return h


def test_example_9_exhaustive_draw_with_huazhu_cap_4():
    opts = {"cap": 4}
    res = replay(example_9_hand(opts), opts)
    assert res.findings == ()
    assert res.state.scores == (20, 11, -48, 17)
    assert [(e.kind, e.changes) for e in res.state.score_log] == [("exhaustive_draw", (20, 11, -48, 17))]


def example_4_hand(options: dict | None = None) -> SichuanHand:
    """S 暗杠 7p; E self-draws 对对胡 and leaves; W 补杠 5s (only S and N still in pay); S wins
    on N's 2m (平胡 + 根); W and N run the wall out; W ready (清一色 + 根 = 3), N not: 查大叫."""
    h = SichuanHand({
        0: "B2 B2 B4 B4 B4 B5 B5 W3 W3 B1 B1 W9 W9 W7",
        1: "W2 W2 W8 W8 B1 B2 B3 B4 B5 B6 B7 B7 B7",
        2: "T1 T2 T2 T3 T6 T7 T7 T8 T8 T9 T5 T5 W1",
        3: "T6 T7 T8 T9 B3 B3 B9 B9 B9 B9 B8 B8 W6",
    }, options=options, reserve="B8 W3 B1 B7 W5 T5 B2 T5 W4 W2", early="T2 T2")
    h.discard(0, "W9")
    h.draw(1, "B8")
    d = h.discard(1, "B8")
    h.pung(3, "B8", d)
    h.discard(3, "W6")
    h.turn(0)
    h.turn(1)
    h.turn(2)
    h.draw(3, "W3")
    d = h.discard(3, "W3")
    h.pung(0, "W3", d)
    h.discard(0, "W9")
    h.turn(1)
    h.turn(2)
    h.draw(3, "B1")
    d = h.discard(3, "B1")
    h.pung(0, "B1", d)
    h.discard(0, "W7")
    h.draw(1, "B7")
    h.kong(1, "concealed", "B7")  # 1. E, W, N pay 2 each
    h.draw(1, "W5", "kong_replacement")
    h.discard(1, "W5")
    h.turn(2)
    h.draw(3, "T5")
    d = h.discard(3, "T5")
    h.pung(2, "T5", d)
    h.discard(2, "W1")
    h.turn(3)
    h.draw(0, "B2")
    h.win(0, "B2")  # 2. 对对胡 self-drawn: S, W, N pay 2; E leaves
    h.turn(1)
    h.draw(2, "T5")
    h.kong(2, "added", "T5")  # 3. only S and N pay
    h.draw(2, "W4", "kong_replacement")
    h.discard(2, "W4")
    h.draw(3, "W2")
    d = h.discard(3, "W2")
    h.win(1, "W2", from_seat=3, dseq=d)  # 4. 平胡 + 根: N pays 2
    h.fill(2)
    h.g.add(ev.ExhaustiveDraw())
    h.g.end(0)
    return h


def test_example_4_a_full_blood_battle_hand():
    res = replay(example_4_hand())
    assert res.findings == ()
    assert res.state.scores == (4, 5, 6, -15)
    assert res.state.in_hand == (False, False, True, True)
    # event by event: each payment when it happens (§8)
    assert [(e.kind, e.changes) for e in res.state.score_log] == [
        ("kong", (-2, 6, -2, -2)),           # 1. S 暗杠 7p
        ("win", (6, -2, -2, -2)),            # 2. E 对对胡 self-drawn
        ("kong", (0, -1, 2, -1)),            # 3. W 补杠 5s: E is out
        ("win", (0, 2, 0, -2)),              # 4. S on N's 2m
        ("exhaustive_draw", (0, 0, 8, -8)),  # 5. 查大叫: N pays W 2^3
    ]


def test_example_5_one_discard_two_winners():
    """E's 2s wins for S (平胡) and N (清对): E pays 1 + 8; E and W play on; E deals next."""
    h = SichuanHand({
        0: "W1 W1 W2 W2 W4 W4 W5 W6 W6 B5 B5 B8 B9 T2",
        1: "T3 T4 T5 T6 T7 T9 T9 B4 B4 B4 B6 B7 B8",
        2: "W3 W3 W7 W7 W8 B2 B3 B6 B6 B6 B7 B8 B8",
        3: "T2 T2 T4 T4 T4 T6 T6 T6 T8 T8 T8 T9 T9",
    })
    d = h.discard(0, "T2")
    h.win(1, "T2", from_seat=0, dseq=d)
    h.win(3, "T2", from_seat=0, dseq=d)
    h.fill(0)  # play resumes after the last winner (N): E, then W
    h.g.add(ev.ExhaustiveDraw())
    h.g.end(0)
    h.g.hand(1, 0)  # the discarder deals after 一炮多响 (§1)
    res = replay(h)
    assert res.findings == ()
    assert res.state.scores == (-9, 1, 0, 8)
    assert [(e.kind, e.changes) for e in res.state.score_log] == [("win", (-1, 1, 0, 0)), ("win", (-8, 0, 0, 8))]
    assert res.state.hands[0].winners == (1, 3)


def example_7_hand(options: dict | None = None) -> SichuanHand:
    """§11 Ex 7: N 补杠 4p, draws its replacement 7s and discards it; E wins (对对胡 + 杠上炮)."""
    h = SichuanHand({
        0: "W1 W1 W1 W3 W3 W3 W6 W6 T2 T2 T2 T7 T7 W9",
        1: "T4 T5 T5 T8 T8 T8 T8 B5 B6 B6 B8 B8 B8",
        2: "T1 T1 T1 T5 B1 B2 B2 B3 B7 B7 B9 B9 B9",
        3: "B3 B3 B4 B4 W3 W5 W5 B1 B1 B5 B5 W9 W8",
    }, options=options, reserve="B3 B4 B4 T7")
    h.discard(0, "W9")
    h.draw(1, "B3")
    d = h.discard(1, "B3")
    h.pung(3, "B3", d)
    h.discard(3, "W9")
    h.turn(0)
    h.draw(1, "B4")
    d = h.discard(1, "B4")
    h.pung(3, "B4", d)
    h.discard(3, "W8")
    h.turn(0)
    h.turn(1)
    h.turn(2)
    h.draw(3, "B4")
    h.kong(3, "added", "B4")
    h.draw(3, "T7", "kong_replacement")
    d = h.discard(3, "T7")
    h.win(0, "T7", from_seat=3, dseq=d)
    h.fill(1)
    h.g.add(ev.ExhaustiveDraw())
    h.g.end(0)
    return h


def test_example_7_cannon_on_the_kong():
    """N 补杠 4p (E, S, W pay 1), draws its replacement and discards 7s: E wins 对对胡 +
    杠上炮 = 2 fan, N pays 4."""
    res = replay(example_7_hand())
    assert res.findings == ()
    assert res.state.scores == (3, -1, -1, -1)
    assert [(e.kind, e.changes) for e in res.state.score_log] == [("kong", (-1, -1, -1, 3)), ("win", (4, 0, 0, -4))]


def test_example_8_robbing_the_kong():
    """S adds 3p to its pung; W robs it (平胡 + 抢杠 = 1 fan): S pays 2, the kong is void."""
    h = SichuanHand({
        0: "T2 T3 T5 T5 T5 T7 B6 B6 B6 B8 B8 B8 W9 W8",
        1: "W1 W2 W3 W4 W6 W9 B7 B7 B7 B9 B3 B3 W8",
        2: "W1 W2 W3 W5 W5 W7 W7 W7 B1 B2 B6 B7 B8",
        3: "T2 T2 T4 T4 T4 T9 B1 B1 B2 B2 B5 B5 B5",
    }, reserve="T5 B3 B3")
    h.discard(0, "W9")
    h.draw(1, "T5")
    d = h.discard(1, "T5")
    h.pung(0, "T5", d)
    h.discard(0, "W8")
    h.turn(1)
    h.draw(2, "B3")
    d = h.discard(2, "B3")
    h.pung(1, "B3", d)
    h.discard(1, "W8")
    h.turn(2)
    h.turn(3)
    h.turn(0)
    h.draw(1, "B3")
    k = h.kong(1, "added", "B3")
    h.win(2, "B3", from_seat=1, dseq=k, robbing=True)
    h.fill(3)  # play resumes after the robber
    h.g.add(ev.ExhaustiveDraw())
    h.g.end(0)
    res = replay(h)
    assert res.findings == ()
    assert res.state.scores == (0, -2, 2, 0)
    assert [(e.kind, e.changes) for e in res.state.score_log] == [("win", (0, -2, 2, 0))]  # no kong payment
