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


def _hand(deal: dict[int, str], play, indicator="T1"):
    from eventlog import events as ev

    ps = new_game() + [ev.HandStarted(hand_number=1, prevalent_wind="F1", dealer=0)]
    ps += [ev.TilesDealt(seat=s, tiles=deal[s].split()) for s in range(4)]
    ps.append(ev.WildcardIndicatorRevealed(indicator=indicator, dice=[1, 1]))
    return run(as_events(ps + play + [ev.HandEnded(hand_number=1)]), mode="strict")


def test_robbing_an_added_kong_is_paid_as_a_self_draw_and_voids_the_kong():
    # Indicator 1s: nobody holds 1s/2s anywhere → 德中德 (§6.7). W robs N's added kong of 7p:
    # M = 1 ×2 (抢杠 as self-draw, A-7) ×4 (德中德) = 8; E (dealer) 8×2+5 = 21, S 13, N 13
    # (the robbed player pays like the others, §6.10); no kong bonus (the kong is void).
    from eventlog import events as ev

    deal = {0: "B7 W1 W1 W5 W6 W7 B1 B2 B3 F1 F1 F4 F4 T5", 1: "W8 W8 T3 T4 T5 T6 T7 T9 B8 B8 B9 B9 F3",
            2: "B5 B6 W2 W3 W4 J1 J2 J3 T8 T8 T8 W9 W9", 3: "B7 B7 W5 W6 W7 F2 F2 F2 T3 T4 T6 B2 B3"}
    play = [ev.TileDiscarded(seat=0, tile="B7"), ev.Pung(seat=3, tile="B7", discard_seq=7),
            ev.TileDiscarded(seat=3, tile="T6"),
            ev.TileDrawn(seat=0, tile="W2"), ev.TileDiscarded(seat=0, tile="W2"),
            ev.TileDrawn(seat=1, tile="F3"), ev.TileDiscarded(seat=1, tile="F3"),
            ev.TileDrawn(seat=2, tile="T9"), ev.TileDiscarded(seat=2, tile="T9"),
            ev.TileDrawn(seat=3, tile="B7"), ev.Kong(seat=3, kind="added", tile="B7"),
            ev.WinDeclared(seat=2, tile="B7", self_drawn=False, from_seat=3, discard_seq=17, robbing_kong=True)]
    res = _hand(deal, play)
    assert res.state.scores == (-21, -13, 47, -13)
    [w] = res.state.wins
    assert w.score.evaluation.conditions == ("robbed_kong", "deguo_in_deguo")


def test_kong_on_a_discard_then_kong_replacement_win():
    # S kongs E's 3m (明杠: +1 from each, §9.3) and wins on the replacement 中 (杠开, §6.9):
    # M = 1 ×2 (self-draw) ×2 (杠开) ×4 (德中德: no 1s/2s anywhere) = 16;
    # E (dealer) 32+5 = 37, W 21, N 21 → S +79; totals E −38, S +82, W −22, N −22.
    from eventlog import events as ev

    deal = {0: "W3 W1 W1 W5 W6 W7 B7 B8 B9 F4 F4 J2 J2 J3", 1: "W3 W3 W3 B1 B2 B3 B4 B5 B6 F1 F2 F3 J1",
            2: "T3 T4 T5 T6 T7 T8 W9 W9 B1 B1 F2 F3 J3", 3: "W2 W2 W4 W4 B5 B6 T9 T9 T9 F1 F4 J2 J3"}
    play = [ev.TileDiscarded(seat=0, tile="W3"), ev.Kong(seat=1, kind="melded", tile="W3", discard_seq=7),
            ev.TileDrawn(seat=1, tile="J1", source="kong_replacement"),
            ev.WinDeclared(seat=1, tile="J1", self_drawn=True)]
    res = _hand(deal, play)
    assert res.state.scores == (-38, 82, -22, -22)
    [w] = res.state.wins
    assert w.score.evaluation.conditions == ("self_drawn", "kong_replacement", "deguo_in_deguo")
    assert w.score.components.as_dict()["kong"] == [-1, 3, -1, -1]


def test_heavenly_hands_replayed_from_the_deal():
    # Example 14: the dealer's 14 dealt tiles win before any discard (天胡, flat 20 from
    # each; 精钓天胡 40, §6.11); jing settled as usual.
    from eventlog import events as ev

    for case_id, totals in (("nc-ex14a", (56, -16, -16, -24)), ("nc-ex14b", (126, -42, -42, -42))):
        case = CASES[case_id]
        deal = {s: " ".join(p["concealed"]) for s, p in enumerate(case["players"])}
        deal[0] += " " + case["outcome"]["win_tile"]
        res = _hand(deal, [ev.WinDeclared(seat=0, tile=case["outcome"]["win_tile"], self_drawn=True)],
                    indicator=case["indicator"])
        assert res.state.scores == totals, case_id
        [w] = res.state.wins
        assert w.score.evaluation.shape == "heavenly"
