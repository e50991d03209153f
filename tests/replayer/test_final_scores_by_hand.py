"""Reported final scores that disagree (game_ended ``final_scores``) point to where: the hand
whose own reported changes disagree, when the hands were reported; else the game's computed
changes by hand and rule item — as a hand's ``reported_score_mismatch`` names its rules.
Expected values are sichuan.md §11 Ex 9's (cap 4): 花猪 W (seat 2) pays E, S, N 16 each
(§7 查花猪); 查大叫: S (seat 1) pays E 4 and N 1 — E +20, S +11, W −48, N +17."""

from __future__ import annotations

from eventlog import events as ev
from replayer.replay import run
from replayer.rules.sichuan.play import build
from tests.rules.sichuan.test_replay_examples import example_9_hand


def _final_mismatch(report: list[int] | None, final: list[int]):
    h = example_9_hand({"cap": 4})
    if report is not None:
        h.g.payloads.insert(len(h.g.payloads) - 1, ev.ScoreReported(winner=None, score_changes=report))
    h.g.add(ev.GameEnded(final_scores=final))
    res = run(h.events(), mode="audit", ruleset=build({"cap": 4}))
    found = [f for f in res.findings if f.rule_id == "reported_score_mismatch" and "final scores" in f.message]
    assert len(found) == 1, res.findings
    return found[0], res


def test_final_scores_point_to_the_hand_whose_report_disagrees():
    f, res = _final_mismatch([0, 0, 0, 0], [0, 0, 0, 0])
    assert "reported final scores [0, 0, 0, 0], computed [20, 11, -48, 17]" in f.message
    report_seq = next(r.seq for r in res.state.hands[0].reported)
    assert (f"hand 1's reported changes disagree (event {report_seq}: reported [0, 0, 0, 0], "
            "computed [20, 11, -48, 17])") in f.message
    assert "docs/reference/rules/sichuan.md §7" in f.source


def test_final_scores_without_hand_reports_give_the_game_by_hand_and_rule():
    f, _ = _final_mismatch(None, [0, 0, 0, 0])
    assert "reported final scores [0, 0, 0, 0], computed [20, 11, -48, 17]" in f.message
    assert ("computed by hand: hand 1 [+20, +11, -48, +17] (huazhu [+16, +16, -48, +16] (sichuan.md §7 (查花猪)); "
            "chajiao [+4, -5, 0, +1] (sichuan.md §7, §12.7 (查大叫)))") in f.message
    assert "docs/reference/rules/sichuan.md §7" in f.source


def test_final_scores_with_agreeing_hand_reports_say_so():
    f, _ = _final_mismatch([20, 11, -48, 17], [0, 0, 0, 0])
    assert "every hand's reported changes agree; computed by hand: hand 1 [+20, +11, -48, +17]" in f.message
