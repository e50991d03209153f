"""A score reported after an exhaustive draw (docs/events.md ``score_reported``: with no
winner, the changes are the hand's — every legal win's and the exhaustive draw's) compared
with the §7 settlement of docs/reference/rules/sichuan.md; expected values are §11's."""

from __future__ import annotations

from eventlog import events as ev
from replayer.replay import run
from replayer.rules.sichuan.play import build
from tests.rules.sichuan.hands import SichuanHand
from tests.rules.sichuan.test_replay_examples import example_4_hand, example_9_hand


def reported(h: SichuanHand, changes: list[int], options: dict | None = None):
    """The hand's events with ``score_reported`` (no winner) before its ``hand_ended``, in
    audit mode."""
    h.g.payloads.insert(len(h.g.payloads) - 1, ev.ScoreReported(winner=None, score_changes=changes))
    return run(h.events(), mode="audit", ruleset=build(options or {}))


def mismatches(res) -> list[str]:
    return [f.message for f in res.findings if f.rule_id == "reported_score_mismatch"]


def test_ex9_draw_report_agrees():
    """§11 Ex 9 (cap 4): **E +20, S +11, W −48, N +17** — reported so, it agrees."""
    res = reported(example_9_hand({"cap": 4}), [20, 11, -48, 17], {"cap": 4})
    assert res.findings == ()
    assert res.state.reported[-1].computed_changes == (20, 11, -48, 17)
    assert res.state.reported[-1].agrees


def test_ex9_wrong_draw_report_names_the_draw_settlement():
    res = reported(example_9_hand({"cap": 4}), [0, 0, 0, 0], {"cap": 4})
    [msg] = mismatches(res)
    assert "reported [0, 0, 0, 0], computed [20, 11, -48, 17]" in msg


def test_ex4_hand_report_is_its_wins_and_its_draw():
    """§11 Ex 4 with no winner named: step 2 (E +6, S/W/N −2), step 4 (N pays S 2) and step 5
    (查大叫: N pays W 8) — the kongs (steps 1, 3) are paid at their own events."""
    res = reported(example_4_hand(), [6, 0, 6, -12])
    assert mismatches(res) == []
    assert res.state.reported[-1].computed_changes == (6, 0, 6, -12)
