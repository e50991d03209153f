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


def test_example_9_exhaustive_draw_with_huazhu_cap_4():
    opts = {"cap": 4}
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
    res = replay(h, opts)
    assert res.findings == ()
    assert res.state.scores == (20, 11, -48, 17)
