"""Nanchang options that no other test exercises (docs/reference/rules/nanchang.md §10, §14),
each on a §15 worked example (tests/data/nanchang) changed as its docstring says. Expected
totals are worked out by hand from the spec text and written out per seat (E, S, W, N)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from eventlog import events as ev
from replayer.replay import run
from replayer.rules.nanchang.evaluate import WinInput, evaluate
from replayer.rules.nanchang.jing import jing_kinds
from replayer.rules.nanchang.options import parse_options
from replayer.rules.nanchang.vectors import score_case
from tests.rules.nanchang.game import as_events
from tests.rules.nanchang.test_legality import DEAL, _with_wall, rules, start

DATA = Path(__file__).resolve().parents[2] / "data" / "nanchang" / "settlement_vectors.jsonl"
CASES = {c["id"]: c for c in (json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip())}


def _score(case_id: str, options: dict[str, Any] | None = None,
           change: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    case = copy.deepcopy(CASES[case_id])
    case["options"] = {**(case.get("options") or {}), **(options or {})}
    if change is not None:
        change(case)
    return score_case(case)


def _n_discards_his_3m(case: dict[str, Any]) -> None:
    """Example 1 with N's 3m (正精) among N's unclaimed discards instead of in N's hand."""
    n = case["players"][3]
    n["concealed"].remove("W3")
    n["concealed"].append("B9")
    n["unclaimed_discards"].append("W3")


def test_4_3_unclaimed_discarded_jing_counts_for_its_discarder():
    """§4.3 rule 3 (default): N's discarded 3m is N's → two holders, no 霸王; Example 1's totals."""
    assert _score("nc-ex01", {}, _n_discards_his_3m)["total"] == [-5, 6, -5, 4]


def test_4_3_count_discarded_jing_false():
    """§4.3 ``count_discarded_jing = false``: the discarded 3m is nobody's → S (4m, n = 1) is the
    only holder: 霸王 s = 2 → jing S +6, others −2; win as Example 1 (E −2, S +5, W −2, N −1)."""
    res = _score("nc-ex01", {"count_discarded_jing": False}, _n_discards_his_3m)
    assert res["components"]["jing"] == [-2, 6, -2, -2]
    assert res["total"] == [-4, 11, -4, -3]


def _n_discarded_a_3s(case: dict[str, Any]) -> None:
    """Example 6 (I = 2s, 副精 3s) with one 3s among N's unclaimed discards."""
    case["players"][3]["unclaimed_discards"].append("T3")


def test_6_7_a_discarded_jing_spoils_dezhongde_by_default():
    """§6.7, A-3: N's unclaimed 3s is N's → not 德中德 but 德国: M = 2; E (dealer, discarder)
    2·2·2 + 5 = 13, S 2, N 2 → W +17; jing: N alone (n = 1) → 霸王 2: N +6, others −2."""
    res = _score("nc-ex06", {}, _n_discarded_a_3s)
    assert res["win"]["conditions"] == ["deguo"]
    assert res["components"]["win"] == [-13, -2, 17, -2]
    assert res["total"] == [-15, -4, 15, 4]


def test_a3_dezhongde_counts_discards_false():
    """A-3 ``dezhongde_counts_discards = false``: the discarded 3s does not spoil 德中德 (Example
    6's win: E −21, S −4, W +29, N −4); it still counts for N's jing bonus (+6, others −2)."""
    res = _score("nc-ex06", {"dezhongde_counts_discards": False}, _n_discarded_a_3s)
    assert res["win"]["conditions"] == ["deguo_in_deguo"]
    assert res["total"] == [-23, -6, 27, 2]


def _w_holds_no_jing(case: dict[str, Any]) -> None:
    """Example 16 (I = 4s; N 暗杠 5s×4 = 杠精) with W's three 4s replaced by 2p3p4p."""
    w = case["players"][2]
    for _ in range(3):
        w["concealed"].remove("T4")
    w["concealed"] += ["B2", "B3", "B4"]


def test_9_1_bawang_counts_kong_jing_by_default():
    """§9.1 step 3, A-2 reading (a): N (n = 4, all in its 杠精) is the only holder → 霸王 s = 8:
    jing N +24, others −8; 杠精 N +30, others −10."""
    assert _score("nc-ex16", {}, _w_holds_no_jing)["total"] == [-18, -18, -18, 54]


def test_a2_bawang_excludes_kong_jing():
    """A-2 reading (b) ``bawang_excludes_kong_jing``: jing in kongs are not "holding" for 霸王 →
    s = 4: jing N +12, others −4; 杠精 unchanged."""
    res = _score("nc-ex16", {"bawang_excludes_kong_jing": True}, _w_holds_no_jing)
    assert res["components"]["jing"] == [-4, -4, -4, 12]
    assert res["total"] == [-14, -14, -14, 42]


def test_10_gangjing_in_chongguan():
    """§10 ``gangjing_in_chongguan``: Example 16's 杠精 adds 10 to N's n (4 + 10 = 14 → 冲关
    14·11 = 154) instead of its own +10 from each; W n = 6 → 18. net = 4·s − Σs (Σ = 172):
    E −172, S −172, W −100, N +444; no 杠精 component."""
    res = _score("nc-ex16", {"gangjing_in_chongguan": True})
    assert res["components"]["gangjing"] == [0, 0, 0, 0]
    assert res["total"] == [-172, -172, -100, 444]


def test_a11_kong_void_on_draw_cancels_ordinary_kongs_not_gangjing():
    """A-11 ``kong_void_on_draw``: on an exhaustive draw (x10) and after a 诈胡 (x09) the
    ordinary kongs pay nothing; Example 16's 杠精 still pays (§10 table)."""
    for case_id in ("nc-x10", "nc-x09", "nc-ex16"):
        base = _score(case_id)
        res = _score(case_id, {"kong_void_on_draw": True})
        assert res["components"]["kong"] == [0, 0, 0, 0]
        assert res["components"]["gangjing"] == base["components"]["gangjing"]
        assert res["components"]["jing"] == base["components"]["jing"]


def test_8_3_zhahu_penalty_amount():
    """§8.3 ``zhahu_penalty = 20``: the offender (W) pays 20 to each other player."""
    res = _score("nc-x09", {"zhahu_penalty": 20})
    assert res["components"]["penalty"] == [20, 20, -60, 20]


def test_a7_qianggang_extra_x2():
    """A-7 ``qianggang_extra_x2``: Example 10's 抢杠 M = 2·2 = 4: E (dealer) 8, S 4, N 4 → W +16;
    jing as Example 10 (E +8, S −8, W −4, N +4)."""
    res = _score("nc-ex10", {"qianggang_extra_x2": True})
    assert res["components"]["win"] == [-8, -4, 16, -4]
    assert res["total"] == [0, -12, 12, 0]


def test_a13_de_qidui_bonus_false():
    """A-13 ``de_qidui_bonus = false``: Example 13 (a) without the extra ×2: M = 2·2·2 = 8;
    W, N 8 + 5 = 13, E (dealer) 16 + 5 = 21 → S +47."""
    res = _score("nc-ex13a", {"de_qidui_bonus": False})
    assert res["components"]["win"] == [-21, 47, -13, -13]
    assert "deguo_seven_pairs_bonus" not in res["win"]["conditions"]


def test_10_flat_amounts():
    """§10 ``tianhu_amount`` / ``jingdiao_tianhu_amount``: Example 14 (a) at 30 from each, (b) at
    50 from each; jing as in the example."""
    assert _score("nc-ex14a", {"tianhu_amount": 30})["components"]["win"] == [90, -30, -30, -30]
    assert _score("nc-ex14b", {"jingdiao_tianhu_amount": 50})["components"]["win"] == [150, -50, -50, -50]


def _s_dealt_in_jingdiao(case: dict[str, Any]) -> None:
    """Example 15 (I = 1p, 副精 2p) with S dealt 234m 567s 中发白 789p + 1p: without the 1p the
    rest is four sets → 精钓 state; the dealer's first discard 7p pairs with the wild 1p."""
    case["players"][1]["concealed"] = "W2 W3 W4 T5 T6 T7 J1 J2 J3 B7 B8 B9 B1".split()


def test_6_11_jingdiao_dihu_pays_40():
    """§6.11, A-8, A-15: 精钓 地胡 = 40 from each; jing: S alone (1p, n = 2) → 霸王 4."""
    res = _score("nc-ex15", {}, _s_dealt_in_jingdiao)
    assert res["win"]["conditions"] == ["jing_fishing"]
    assert res["total"] == [-44, 132, -44, -44]


def test_a8_dihu_jingdiao_allowed_false():
    """A-8 ``dihu_jingdiao_allowed = false``: the same 地胡 is no legal win."""
    res = _score("nc-ex15", {"dihu_jingdiao_allowed": False}, _s_dealt_in_jingdiao)
    assert res.get("rule") == "jingdiao_discard_win"


def test_6_4_6_5_shapes_switched_off():
    """§10 ``shisanlan = false``: Example 11 is no win; ``qixing = false``: Example 12 is a 十三烂
    + 德国 self-draw by the dealer: M = 2·2·2 = 8 → 16 + 5 = 21 from each → E +63."""
    assert _score("nc-ex11", {"shisanlan": False})["rule"] == "not_a_winning_hand"
    res = _score("nc-ex12", {"qixing": False})
    assert res["win"]["shape"] == "thirteen_rotten"
    assert res["components"]["win"] == [63, -21, -21, -21]


def _e_holds_a_3p_for_white(case: dict[str, Any]) -> None:
    """Example 12 (I = 3p, 副精 4p) with E's 白 replaced by a 3p (正精)."""
    e = case["players"][0]
    e["concealed"].remove("J3")
    e["concealed"].append("B3")


def test_a4_qixing_wild():
    """§6.5, A-4: 6 honors + a 3p jing. ``suited_only`` (default) and ``none``: the jing cannot be
    the 7th honor, so the hand is a 十三烂 with the jing wild as a suited tile (p 1-5-9): M = 2·2 =
    4 → 8 from each; ``any``: 七星 with the jing as 白: M = 2·4 = 8 → 16 from each. Jing: E 3p (2),
    S 3p (2), W 4p (1) → net = 4·s − 5."""
    for mode, shape, win in (("suited_only", "thirteen_rotten", 24), ("none", "thirteen_rotten", 24),
                             ("any", "seven_star_rotten", 48)):
        res = _score("nc-ex12", {"qixing_wild": mode}, _e_holds_a_3p_for_white)
        assert res["win"]["shape"] == shape, mode
        assert res["components"]["jing"] == [3, 3, -1, -5]
        assert res["components"]["win"] == [win, -win // 3, -win // 3, -win // 3], mode


def _w_discards_7p(case: dict[str, Any]) -> None:
    """Example 13 (b) (S: six pairs + the 中 jing, 精钓) winning on W's discarded 7p instead."""
    case["outcome"].update(win_tile="B7", discarder=2)


def test_6_8_jingdiao_discard_win_options():
    """§6.8: a 精钓 hand on a discard that needs its wild. ``deguo_only`` (default): no win;
    ``allowed_no_bonus``: 小七对 without 精钓, M = 2: W (discarder) 4, E (dealer) 4, N 2 → S +10;
    jing: S alone (中, n = 1) → 霸王 2. ``never``: even Example 13 (c)'s 德国 discard win is
    refused."""
    assert _score("nc-ex13b", {}, _w_discards_7p)["rule"] == "jingdiao_discard_win"
    res = _score("nc-ex13b", {"jingdiao_discard_win": "allowed_no_bonus"}, _w_discards_7p)
    assert res["win"]["conditions"] == []
    assert res["total"] == [-6, 16, -6, -4]
    assert _score("nc-ex13c", {"jingdiao_discard_win": "never"})["rule"] == "jingdiao_discard_win"


def test_a7_qianggang_is_zimo_for_jingdiao():
    """A-7: a 精钓 hand (Example 13 (b): six pairs + 中, 白/中 jing) robbing a kong. Default: 抢杠
    counts as a self-draw → 精钓 credited, a wild allowed: 7p robbed, M = 2·2·2 = 8 (抢杠, 精钓,
    小七对): E 16, W 8, N 8. With the option off, the robbed tile is like a discard: the 7p
    (needing the wild) is refused; the 中 (德国) wins without 精钓: M = 2·2·2·2 = 16, +5 each:
    E 37, W 21, N 21."""
    kinds = jing_kinds("J3")
    hand = tuple("W1 W1 W4 W4 T2 T2 T8 T8 B9 B9 F1 F1 J1".split())
    on = evaluate(WinInput(hand, (), "B7", "robbed", 1, 0, 3), kinds, parse_options({}))
    assert on.conditions == ("robbed_kong", "jing_fishing") and on.win == (-16, 32, -8, -8)
    off = parse_options({"qianggang_is_zimo_for_jingdiao": False})
    assert evaluate(WinInput(hand, (), "B7", "robbed", 1, 0, 3), kinds, off).rule_id == "jingdiao_discard_win"
    deguo = evaluate(WinInput(hand, (), "J1", "robbed", 1, 0, 3), kinds, off)
    assert "jing_fishing" not in deguo.conditions and deguo.win == (-37, 79, -21, -21)


def test_9_5_win_base():
    """§9.5 ``win_base = 2``: Example 1's M = 2: W (discarder) 4, E (dealer) 4, N 2 → S +10."""
    assert _score("nc-ex01", {"win_base": 2})["components"]["win"] == [-4, 10, -4, -2]


def test_11_2_maidilei_counts_every_held_tile():
    """§11.2 埋地雷 with 下精 indicator 1s (下正精 1s = 2, 下副精 2s = 1) on Example 1: by §4.3
    E 0; S hand 1s 2s + discards 1s 2s → 6 (冲关 18); W hand 2s → 1; N hand 1s 2s → 3.
    net = 4·s − 22: E −22, S +50, W −18, N −10."""
    def lower(case: dict[str, Any]) -> None:
        case["lower_indicator"] = "T1"
    res = _score("nc-ex01", {"maidilei": True}, lower)
    assert res["components"]["lower_jing"] == [-22, 50, -18, -10]


def test_3_1_tail_draw_order_places_the_indicator():
    """§3.1, §4.1 ``tail_draw_order``: with dice 1 + 1 the indicator is the top tile of stack #2
    from the tail. Tail draws top then bottom (default): that top tile is the 3rd tile from the
    tail end; bottom then top: the 4th (the 3rd is then stack #2's bottom tile). The wall
    below holds 3rd 白 and 4th 发 from the tail."""
    assert rules(_with_wall("J3", "J3")) == []
    bottom_first = {"tail_draw_order": "bottom_then_top"}
    assert rules(_with_wall("J3", "J2", bottom_first)) == []
    assert rules(_with_wall("J3", "J3", bottom_first)) == [(6, "indicator_position")]


def _s_wins_on_its_first_draw(options: dict[str, Any]):
    """E (dealer) discards 1p; S (123m 456s 789p 东西北 + 5p, no jing) self-draws 5p on its
    first draw, nothing claimed before. Jing (I = 白): E holds 白 (n = 2), N 中 (n = 1)."""
    deal = dict(DEAL)
    deal[1] = "W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F3 F4 B5"
    ps = start(options, deal=deal) + [ev.TileDiscarded(seat=0, tile="B1"), ev.TileDrawn(seat=1, tile="B5"),
                                      ev.WinDeclared(seat=1, tile="B5", self_drawn=True)]
    return run(as_events(ps), mode="strict")


def test_6_11_dihu_includes_first_selfdraw():
    """§6.11 ``dihu_includes_first_selfdraw``. Default: an ordinary self-draw 德国 (E and N hold
    jing: not 德中德), M = 2·2 = 4: E (dealer) 8 + 5 = 13, W 9, N 9 → S +31. With the option:
    地胡, 20 from each → S +60. Jing either way: s = E 2, N 1 → E +5, S −3, W −3, N +1."""
    res = _s_wins_on_its_first_draw({})
    [w] = res.state.wins
    assert w.score.evaluation.shape == "standard" and w.score.evaluation.conditions == ("self_drawn", "deguo")
    assert res.state.scores == (5 - 13, -3 + 31, -3 - 9, 1 - 9)
    res = _s_wins_on_its_first_draw({"dihu_includes_first_selfdraw": True})
    [w] = res.state.wins
    assert w.score.evaluation.shape == "earthly"
    assert res.state.scores == (5 - 20, -3 + 60, -3 - 20, 1 - 20)
