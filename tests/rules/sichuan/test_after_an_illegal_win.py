"""After an illegal win or pass the table goes on, and later moves are judged from there:
one mistake is one finding (docs/events.md ``win_declared``; sichuan.md §4, §5.2, §12.13,
§12.14)."""

from __future__ import annotations

from eventlog import events as ev
from replayer.replay import run
from replayer.rules.sichuan.play import build
from tests.rules.sichuan.hands import SichuanHand
from tests.rules.sichuan.test_play_rules import JUNK_NO_1M_4M, S_ROOT
from tests.rules.sichuan.test_rules import ex10_hand


def _refused_win() -> tuple[SichuanHand, int]:
    """S passes W's 1m (平胡 + 根 = 1 fan), then declares a win on N's 4m (0 fan) without
    drawing since: 过水不胡 (§5.2: not more fan) — the win is not legal."""
    h = SichuanHand({**JUNK_NO_1M_4M, 1: S_ROOT})
    h.discard(0, "W6")
    h.turn(1)
    h.draw(2, "W1")
    h.discard(2, "W1")  # S passes 1 fan
    h.draw(3, "W4")
    d = h.discard(3, "W4")
    return h, h.win(1, "W4", from_seat=3, dseq=d)


def _audit(h: SichuanHand):
    return run(h.events(), mode="audit", ruleset=build({}))


def test_a_table_that_takes_an_illegal_win_plays_on_without_the_seat_s4_s5_2():
    """The record plays on as after a win (§4: from the seat after the winner, W; S never
    draws again) to the exhaustive draw: the 过水不胡 finding is the only one — not a
    wrong_seat_to_act at every later draw — and S is out of the hand, so §7 does not read it."""
    h, w = _refused_win()
    seat = h.fill(2)  # W, N, E … until the wall is empty (S is out in the record)
    assert seat in (0, 2, 3)
    h.g.add(ev.ExhaustiveDraw())
    res = _audit(h)
    assert [(f.rule_id, f.seq) for f in res.findings] == [("guoshui_bu_hu", w)]
    assert res.state.in_hand == (True, False, True, True)


def test_a_table_that_refuses_an_illegal_win_plays_on_with_the_seat_s5_2():
    """The other reading of the same record: the table refused the win, S stays in and play
    goes on in turn order after the discarder (E draws next, then S). Again one finding."""
    h, w = _refused_win()
    h.out.discard(1)  # S did not leave
    h.fill(0, until=40)
    res = _audit(h)
    assert [(f.rule_id, f.seq) for f in res.findings] == [("guoshui_bu_hu", w)]
    assert res.state.in_hand == (True, True, True, True)


def test_after_an_illegal_pass_guoshui_bars_the_win_until_the_next_draw_s12_13_s12_14():
    """S waits on 3p/6p. With 4 tiles left N discards 3p and S passes: 后4张必胡 (§5.2,
    §12.14). E then discards 6p before S draws again: having passed, S may not win it
    (过水不胡: same fan, no draw since, §12.13), so that pass breaks nothing more — one
    finding, for the pass of N's 3p (seen at the next event, E's draw)."""
    h = ex10_hand(early="B3 B3 B3 B6 B6 B6", reserve="B3 B6 T3")  # S lets the early ones go by
    h.discard(0, "W6")
    assert h.fill(1, until=5) == 3
    h.draw(3, "B3")
    assert h.wall_left == 4
    h.discard(3, "B3")
    passed = h.draw(0, "B6")
    h.discard(0, "B6")
    h.draw(1, "T3")  # closes E's discard; S's draw lifts 过水不胡 only now
    res = _audit(h)
    assert [(f.rule_id, f.seq) for f in res.findings] == [("hou4zhang_bihu", passed)]
