"""The 下精 indicator in replayed games (shared/rules/nanchang.md §4.1, §11.1 开局上下翻精,
§11.2 埋地雷): ``wildcard_indicator_revealed.lower_indicator`` gives it, and a replayed hand
settles the lower jing exactly as the settlement-vector path does for the same situation.

The hand is §15 Example 1 (tests/data/nanchang/settlement_vectors.jsonl, nc-ex01) replayed
from events (:func:`.game.hand_from_vector`), with the lower indicator 5p (B5): 下正精 5p
(2 points each), 下副精 6p (1 point each) (§11.1: 下正精 = L, 下副精 = succ(L))."""

from __future__ import annotations

import json
from pathlib import Path

from eventlog import events as ev
from eventlog import tiles as T
from replayer.replay import run
from replayer.rules.nanchang.vectors import score_case

from .game import as_events, hand_from_vector, new_game, with_offsets

DATA = Path(__file__).resolve().parents[2] / "data" / "nanchang" / "settlement_vectors.jsonl"
EX1 = next(c for c in (json.loads(x) for x in DATA.read_text(encoding="utf-8").splitlines() if x.strip())
           if c["id"] == "nc-ex01")
EX1_TOTAL = (-5, 6, -5, 4)  # §15 Example 1 totals without the §11 options


def _replay(options: dict, lower: str | None):
    hand = hand_from_vector(EX1)
    hand = [p.model_copy(update={"lower_indicator": lower}) if isinstance(p, ev.WildcardIndicatorRevealed) else p
            for p in hand]
    return run(as_events(with_offsets(new_game(options) + hand)), mode="strict")


def _vector(options: dict, lower: str, dealt: list[list[str]] | None = None) -> dict:
    case = json.loads(json.dumps(EX1))
    case["options"] = options
    case["lower_indicator"] = lower
    if dealt is not None:
        case["dealt"] = dealt
    return score_case(case)


def test_buried_mine_in_a_replayed_hand_equals_the_vector_path():
    # §11.2 埋地雷, settled at the end on everything each player holds (§4.3), with 冲关:
    # E concealed 5p 5p → n = 4, s = 4; S concealed 5p 5p + the winning 6p (W's discard,
    # claimed by S → S's) → n = 5, s = 5·2 = 10 (冲关); W, N none; two holders → no 霸王.
    # net = 3·s_i − Σ others: E 12 − 10 = 2, S 30 − 4 = 26, W −14, N −14.
    res = _replay({"maidilei": True}, "B5")
    assert res.findings == ()
    [w] = res.state.wins
    comps = w.score.components.as_dict()
    assert comps["lower_jing"] == [2, 26, -14, -14]
    expected_total = tuple(a + b for a, b in zip(EX1_TOTAL, (2, 26, -14, -14)))
    assert res.state.scores == expected_total == (-3, 32, -19, -10)
    vec = _vector({"maidilei": True}, "B5")
    assert vec["components"] == comps
    assert tuple(vec["total"]) == res.state.scores


def test_opening_upper_and_lower_jing_in_a_replayed_hand_equals_the_vector_path():
    # §11.1 上下翻精, counted only in the dealt hands (the tiles_dealt events): E was dealt
    # its final 13 concealed tiles + its first discard 9m, with 5p 5p → n = 4; S 5p 5p → 4
    # (the winning 6p came later); W, N no 5p/6p. Two holders → no 霸王:
    # E 12 − 4 = 8, S 8, W −8, N −8.
    res = _replay({"shangxia_fanjing": True}, "B5")
    assert res.findings == ()
    [w] = res.state.wins
    comps = w.score.components.as_dict()
    assert comps["lower_jing"] == [8, 8, -8, -8]
    assert res.state.scores == tuple(a + b for a, b in zip(EX1_TOTAL, (8, 8, -8, -8))) == (3, 14, -13, -4)
    dealt = [list(p.tiles) for p in hand_from_vector(EX1) if isinstance(p, ev.TilesDealt)]
    assert dealt[0] == EX1["players"][0]["concealed"] + ["W9"]
    vec = _vector({"shangxia_fanjing": True}, "B5", dealt)
    assert vec["components"] == comps
    assert tuple(vec["total"]) == res.state.scores


def test_without_the_option_or_without_the_lower_indicator_nothing_is_settled():
    # The lower indicator is not wild and has no role unless §11.1/§11.2 is on; a log that
    # does not record it settles as before (no lower_jing component).
    for options, lower in (({}, "B5"), ({"maidilei": True}, None)):
        res = _replay(options, lower)
        assert res.findings == ()
        assert res.state.scores == EX1_TOTAL
        assert "lower_jing" not in res.state.wins[0].score.components.as_dict()


def _with_wall(lower_shown: str) -> list[ev.Payload]:
    """A hand whose wall is known: dice 1+1 (s = 2), so the indicator is the top tile of stack
    #2 from the tail (3rd taken by tail draws, top then bottom, §3.1) and the 下精 indicator
    the bottom tile of that stack (4th from the tail, §4.1)."""
    deal = {0: "W3 W4 W5 T1 T2 T3 T4 T5 T6 B1 B1 F1 J3 F2", 1: "T7 T8 J1 J2 F3 F4 W6 W7 B5 B5 B6 B7 B8",
            2: "F2 F2 B2 B3 B4 T9 T9 T9 W6 W7 W8 W1 W1", 3: "W9 W9 B6 B7 B8 T1 T2 T3 F2 J1 B2 B2 T4"}
    dealt = [t for s in range(4) for t in deal[s].split()]
    left = [4] * 34
    for t in dealt:
        left[T.index(t)] -= 1
    left[T.index("J3")] -= 1
    left[T.index("F3")] -= 1
    rest = [T.code(i) for i in range(34) for _ in range(left[i])]
    undealt = rest[:-2] + ["F3", "J3"] + rest[-2:]  # 4th from the tail F3, 3rd J3
    ps = new_game({"maidilei": True}) + [ev.HandStarted(hand_number=1, prevalent_wind="F1", dealer=0,
                                                         wall=dealt + undealt)]
    ps += [ev.TilesDealt(seat=s, tiles=deal[s].split()) for s in range(4)]
    ps.append(ev.WildcardIndicatorRevealed(indicator="J3", dice=[1, 1], lower_indicator=lower_shown))
    return ps


def test_lower_indicator_position_is_checked_when_the_wall_is_known():
    assert run(as_events(_with_wall("F3")), mode="audit").findings == ()
    [f] = run(as_events(_with_wall("F4")), mode="audit").findings
    assert (f.seq, f.rule_id) == (6, "indicator_position")
    assert "F3" in f.message and "nanchang.md §3.1, §4.1" in f.source
