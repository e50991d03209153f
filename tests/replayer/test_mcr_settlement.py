"""MCR settlement (seed 001, shared/rules/competition.md §B2) on the seed's worked examples.

Seats: East 0, South 1, West 2, North 3. P = fan points (基本分). Where the seed breaks its
own fan table (competition.md §B4), the corrected P is used and the seed's figure is named."""

from __future__ import annotations

import pytest

from replayer.rules.base import WinContext, WinScore
from replayer.rules.mcr import build
from replayer.rules.mcr.settlement import false_win_penalty, settle_win
from replayer.rules.mcr.situation import FanItem, FanResult
from replayer.state import Settlement, TableState


def fans(*items: tuple[str, int]) -> FanResult:
    fan_items = tuple(FanItem(name_en=zh, name_zh=zh, points=p) for zh, p in items)
    total = sum(p for _, p in items)
    return FanResult(fan_items, total, total)


SELF_DRAWN = [
    # Z1 East: 清龙16 + 混一色6 + 箭刻2 + 不求人4 = 28; (8+28)×3 = 108 (as printed)
    ("Z1", 0, fans(("清龙", 16), ("混一色", 6), ("箭刻", 2), ("不求人", 4)), (108, -36, -36, -36)),
    # Z2 South: 一色双龙会64 + 不求人4 = 68; (8+68)×3 = 228 (as printed)
    ("Z2", 1, fans(("一色双龙会", 64), ("不求人", 4)), (-76, 228, -76, -76)),
    # Z3 West: the seed adds 不求人 to 七对 (34 → 126), but its own table says 七对 不计不求人:
    # 七对24 + 五门齐6 = 30 → (8+30)×3 = 114
    ("Z3", 2, fans(("七对", 24), ("五门齐", 6)), (-38, -38, 114, -38)),
    # Z4 North: the seed counts 一般高 2 and 平和 4 (P = 20, total not printed); its table has
    # 一般高 1, and 平和 is 2 elsewhere: 8 + 1 + 2 + 2 + 4 = 17 → (8+17)×3 = 75
    ("Z4", 3, fans(("三色三同顺", 8), ("一般高", 1), ("四归一", 2), ("平和", 2), ("不求人", 4)),
     (-25, -25, -25, 75)),
]

ON_DISCARD = [
    # D1 East → South: the seed counts 平和 with 一色三节高 (P = 33: East pays 41, South +57);
    # 平和 (all chows) cannot stand with three pungs, so P = 31: East pays 39, South +55
    ("D1", 1, 0, fans(("一色三节高", 24), ("坎张", 1), ("四归一", 2), ("无字", 1), ("缺一门", 1),
                      ("门前清", 2)), (-39, 55, -8, -8)),
    # D2 South → West: the seed adds 单钓将 to 全求人 (P = 34: South would pay 42), but 全求人
    # 不计单钓: P = 33, South pays 41, West +57
    ("D2", 2, 1, fans(("全双刻", 24), ("无字", 1), ("双同刻", 2), ("全求人", 6)), (-8, -41, 57, -8)),
    # D3 West → North: 花龙8 + 边张1 + 无字1 + 门前清2 + 喜相逢1 = 13; West pays 21 (as printed)
    ("D3", 3, 2, fans(("花龙", 8), ("边张", 1), ("无字", 1), ("门前清", 2), ("喜相逢", 1)), (-8, -8, -21, 37)),
    # D4 North → East: 明杠1 + 单钓将1 + 无字1 + 断幺2 + 一色三节高24 + 双同刻2 + 碰碰和6 = 37;
    # North pays 45 (as printed)
    ("D4", 0, 3, fans(("明杠", 1), ("单钓将", 1), ("无字", 1), ("断幺", 2), ("一色三节高", 24),
                      ("双同刻", 2), ("碰碰和", 6)), (61, -8, -8, -45)),
]


def _context(seat: int, from_seat: int | None) -> WinContext:
    return WinContext(seat=seat, tile="W1", self_drawn=from_seat is None, from_seat=from_seat,
                      robbing_kong=False, kong_related=False, last_of_wall=False, visible_copies=0,
                      concealed=(), melds=(), seat_wind="F1", prevalent_wind="F1", flowers=())


@pytest.mark.parametrize("case,winner,result,expected", SELF_DRAWN, ids=[c[0] for c in SELF_DRAWN])
def test_seed001_self_drawn(case, winner, result, expected):
    s = build({}).settle_win(TableState(), _context(winner, None), WinScore(True, result.total, result))
    assert s.changes == expected and sum(s.changes) == 0


@pytest.mark.parametrize("case,winner,discarder,result,expected", ON_DISCARD, ids=[c[0] for c in ON_DISCARD])
def test_seed001_on_discard(case, winner, discarder, result, expected):
    s = build({}).settle_win(TableState(), _context(winner, discarder), WinScore(True, result.total, result))
    assert s.changes == expected and sum(s.changes) == 0


def test_flowers_add_to_the_points_paid():
    """Flowers count 1 each in P (seed 001 花牌 每张花牌可计1分): 8 fans + 2 flowers on a
    discard → the discarder pays 8 + 10."""
    assert settle_win(2, 10, self_drawn=False, discarder=1).changes == (-8, -18, 34, -8)


def test_false_win_penalty_amounts():
    assert false_win_penalty(3, 10).changes == (10, 10, 10, -30)


def test_settlement_is_zero_sum_or_refused():
    with pytest.raises(AssertionError):
        Settlement(changes=(1, 0, 0, 0))
    with pytest.raises(ValueError):
        settle_win(1, 8, self_drawn=False, discarder=1)
