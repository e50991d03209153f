"""Base patterns, 根 and additions of docs/reference/rules/sichuan.md §6 on the seed's own
examples (seed 002 六: each pattern's 牌型如) and on the spec's rules; waits of §7 / §12.6."""

from __future__ import annotations

import pytest

from eventlog import tiles as T
from replayer.rules.sichuan.evaluate import (
    WinFacts,
    best_reading,
    evaluate_win,
    ready_waits,
)
from replayer.rules.sichuan.options import SichuanOptions

DEFAULT = SichuanOptions()


def counts(text: str) -> tuple[int, ...]:
    c = [0] * 34
    for t in T.parse(text):
        c[T.index(t)] += 1
    return tuple(c)


# seed 002 六: 牌型如 … (m = 万 W, p = 筒 B, s = 条 T)
@pytest.mark.parametrize(("hand", "pattern", "gen"), [
    ("23445677m345789p", "pinghu", 0),    # 1. 基本胡
    ("123333m45566799s", "pinghu", 1),    # 2. 带根
    ("111333444m66677p", "duiduihu", 0),  # 3. 对对胡
    ("222555888m55588p", "jiangdui", 0),  # 6. 将对
    ("11334466m557799p", "qidui", 0),     # 7. 七对
    ("11222244m557788p", "longqidui", 0),  # 9. 龙七对
    ("111222333m78999p", "yaojiu", 0),    # 11. 幺九
])
def test_seed_examples(hand, pattern, gen):
    r = best_reading(counts(hand))
    assert r is not None and r.pattern == pattern and r.gen == gen


@pytest.mark.parametrize(("hand", "pattern", "fan"), [
    ("11123456789999m", "qingyise", 2 + 1),      # W11 123 456 789 999: 清一色 + 根 (9999)
    ("22244466688899m", "qingdui", 3),
    ("11223344556677m", "qingqidui", 4),
    ("11112233445566m", "qinglongqidui", 5),
    ("11112222334455m", "qinglongqidui", 5 + 1),  # a second quartet is +1 (§6.2)
    ("11122233378999m", "qingyaojiu", 4),
])
def test_pure_patterns(hand, pattern, fan):
    r = best_reading(counts(hand))
    assert r is not None and r.pattern == pattern and r.fan == fan


def test_highest_reading_wins():
    # W111 222 333 as three pungs (对对胡 with B789? no — a chow): yaojiu reading 123×3 beats pinghu
    r = best_reading(counts("111222333m789p99p"))
    assert r is not None and r.pattern == "yaojiu"
    # 七对 vs sets: W112233 B445566 T77 reads as 七对 (2) rather than 平胡 (0)
    r = best_reading(counts("112233m445566p77s"))
    assert r is not None and r.pattern == "qidui"


def test_melds_count_for_patterns_and_gen():
    # 对对胡 with a declared kong of 5s: 1 + 根 1
    r = best_reading(counts("111m333m44p"), ((T.index("W5"), 4), (T.index("W9"), 3)))
    assert r is not None and r.pattern == "duiduihu" and r.gen == 1
    # seven pairs are fully concealed (§5.1): five pairs and a pung are no win
    assert best_reading(counts("1133m4466p77p"), ((T.index("W5"), 3),)) is None


NO_FACTS = WinFacts()


def win(hand: str, tile: str, melds=(), facts=NO_FACTS, options=DEFAULT, void=None):
    c = list(counts(hand))
    return evaluate_win(tuple(c), tuple(melds), tile, facts, options, void)


def test_three_suits_and_void_suit_are_no_win():
    assert not win("123m456p789s1122m", "W2").legal  # three suits (§2)
    v = win("123m456m789m11p22p", "B2", void=2)  # declared void B (§2 定缺)
    assert not v.legal and v.rule_id == "void_suit"
    assert win("123m456m789m11p22p", "B2").legal


def test_additions_and_cap():
    # §11 Ex 6: 杠上花 on a 6m kong: 平胡 + 根 + 杠上花 = 2 fan
    k6 = ((T.index("W6"), 4),)
    v = win("123p456p789p8p", "B8", k6, WinFacts(self_drawn=True, kong_replacement=True, kong_tile="W6"))
    assert v.additions == (("gen", 1), ("gangshanghua", 1)) and v.fan == 2 and v.per_payer == 4
    v2 = win("123p456p789p8p", "B8", k6, WinFacts(self_drawn=True, kong_replacement=True, kong_tile="W6"),
             SichuanOptions(gangshanghua_mode="plus2_no_gen"))
    assert v2.additions == (("gangshanghua", 2),) and v2.fan == 2
    # 天胡 = max(5, computed) (§6.2); tianhu_stack adds 5; cap applies (§12.9); jiadi after the cap
    v = win("123m456m789m111p2p", "B2", facts=WinFacts(self_drawn=True, heavenly=True))
    assert v.fan == 5 and v.additions == (("tianhu", 5),)
    v = win("123m456m789m111p2p", "B2", facts=WinFacts(self_drawn=True, heavenly=True),
            options=SichuanOptions(tianhu_stack=True, cap=4, zimo_bonus="jiadi"))
    assert v.fan == 5 and v.paid_fan == 4 and v.per_payer == 17
    # 抢杠 with qianggang_fan 0 adds nothing; jiafan only on self-draws
    assert win("123m456m789m111p2p", "B2", facts=WinFacts(robbed_kong=True),
               options=SichuanOptions(qianggang_fan=0)).additions == ()
    assert win("123m456m789m111p2p", "B2", options=SichuanOptions(zimo_bonus="jiafan")).fan == 0


def test_haidi_is_only_a_self_drawn_last_tile():
    opts = SichuanOptions(haidi=True)
    assert win("123m456m789m111p2p", "B2", facts=WinFacts(self_drawn=True, last_tile=True), options=opts).fan == 1
    assert win("123m456m789m111p2p", "B2", facts=WinFacts(last_tile=True), options=opts).fan == 0


def test_waits_skip_a_kind_held_four_times_and_give_the_best_fan():
    # W1111 W234 … : waits computed on 13 tiles
    w = ready_waits(counts("123m456m789m111p2p"), ())
    assert w is not None and w.tiles == ("B2", "B3") and w.best_fan == 0
    # holding 1m×3 + 2m3m … : W1 as a wait would be the fourth copy in the hand itself: allowed (three held)
    w = ready_waits(counts("111m234m567m88p99p"), ())
    assert w is not None and set(w.tiles) == {"B8", "B9"}
    # seven pairs waiting on a tile of which it holds three: 4 → 龙七对
    w = ready_waits(counts("11223344m555m66m"), ())
    assert w is not None and "W5" in w.tiles and w.best_fan == 5 and w.best_tiles == ("W5",)
    # a wait whose four copies are all in the hand is no wait (§12.6): W1111 held, single wait W1 impossible
    w = ready_waits(counts("1111m234m567m88m9m"), ())
    assert w is None or "W1" not in w.tiles
    assert ready_waits(counts("159m159p159s1234m"), ()) is None


def test_explained_lines_count_each_root():
    """Two quartets (W1 and W9 four times) are two 根: one line, 1 fan each, count 2 (§6.2)."""
    v = win("1111234478999m", "W9")  # W111 W123 W44 W789 W999: 清一色 + 2 根
    lines = {ln.id: ln for ln in v.lines()}
    assert lines["gen"].points == 1 and lines["gen"].count == 2
    assert lines["gen"].tiles == (("W1",) * 4, ("W9",) * 4)
    assert sum((ln.points or 0) * ln.count for ln in v.lines()) == v.fan
