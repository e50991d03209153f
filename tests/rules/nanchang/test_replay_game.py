"""Whole Nanchang hands replayed from events in strict mode: the settlement equals the
spec's worked examples (shared/rules/nanchang.md §15, as the settlement vectors), the win's
explained score lists its conditions like fans, and the dealer rotates as §2 says."""

from __future__ import annotations

import json
from pathlib import Path

from replayer.audit import audit_game
from replayer.replay import run

from .game import as_events, hand_from_vector, new_game, with_offsets

DATA = Path(__file__).resolve().parents[2] / "data" / "nanchang" / "settlement_vectors.jsonl"
CASES = {c["id"]: c for c in (json.loads(x) for x in DATA.read_text(encoding="utf-8").splitlines() if x.strip())}


def replay_cases(*ids: str, options=None):
    payloads = new_game(options)
    for n, case_id in enumerate(ids, 1):
        payloads += hand_from_vector(CASES[case_id], hand_number=n)
    return run(as_events(with_offsets(payloads)), mode="strict")


def test_example_1_discard_win_replays_with_the_spec_settlement():
    res = replay_cases("nc-ex01")
    assert res.findings == ()
    assert res.state.scores == (-5, 6, -5, 4)  # §15 Example 1 totals
    [w] = res.state.wins
    assert w.legal and w.settlement.changes == (-5, 6, -5, 4)
    names = [f.name_zh for f in w.score.fans]
    assert names == ["平胡"]  # no condition: not 德国, not 精钓
    comps = w.score.components.as_dict()
    assert comps["jing"] == [-3, 1, -3, 5] and comps["win"] == [-2, 5, -2, -1]
    assert w.score.evaluation.interpretation.wild[0][0] == "W4"  # the 副精 4m was wild


def test_deguo_and_dealer_self_draw_hands_in_one_game():
    # Example 7(a) (dealer E self-draws, 德国), then Example 5 (S wins on N's discard,
    # 德国 / 精还原): both have dealer E, so the dealer keeps the deal after winning (连庄, §2).
    res = replay_cases("nc-ex07a", "nc-ex05")
    assert res.findings == ()
    assert res.state.hands[0].changes == (36, -8, -16, -12)
    assert res.state.hands[1].changes == (-8, 23, -2, -13)
    [w] = res.state.wins  # this hand's win: Example 5, 精还原 counts as 德国
    assert [f.name_zh for f in w.score.fans] == ["平胡", "德国"]


def test_chaozhuang_passes_the_deal_even_after_a_dealer_win():
    # Example 17: the first four discards are 北 ×4 → 抄庄; the dealer then self-draws.
    # The next hand's dealer must be S (seat 1): a hand_started with dealer 0 is a finding.
    case = CASES["nc-ex17"]
    payloads = new_game() + hand_from_vector(case, 1)
    from eventlog import events as ev

    good = run(as_events(with_offsets(payloads + [ev.HandStarted(hand_number=2, prevalent_wind="F1", dealer=1)])),
               mode="audit")
    assert good.findings == ()
    assert good.state.hands[0].changes == (3, -1, -1, -1)
    bad = run(as_events(with_offsets(payloads + [ev.HandStarted(hand_number=2, prevalent_wind="F1", dealer=0)])),
              mode="audit")
    assert [f.rule_id for f in bad.findings] == ["dealer_rotation"]
    assert "nanchang.md §2" in bad.findings[0].source


def test_audit_lists_the_win_conditions_like_fans():
    payloads = new_game() + hand_from_vector(CASES["nc-ex05"], 1)
    events = as_events(with_offsets(payloads))
    report = audit_game(events)
    [w] = report.wins
    assert [f.name_zh for f in w.fans] == ["平胡", "德国"]
    assert w.changes == (-8, 23, -2, -13)
