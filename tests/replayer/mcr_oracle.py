"""An independent MCR scorer for the replayer tests: PyMahjongGB (import MahjongGB), the
reference calculator the shared MCR fan vectors were made with (tests/data/mcr/README.md).
It stands in for replayer.rules.mcr.fans.calculator in tests that check the replayer, so
they do not depend on the state of our own fan calculator."""

from __future__ import annotations

from typing import Any

from MahjongGB import MahjongFanCalculator

from replayer.rules.mcr.situation import FanItem, FanResult, WinSituation

_WIND = {"E": 0, "S": 1, "W": 2, "N": 3}


def oracle_score(sit: WinSituation, options: Any = None) -> FanResult:
    pack = []
    for m in sit.melds:
        if m.type == "chow":
            k = m.tiles.index(m.claimed_tile) + 1 if m.claimed_tile in m.tiles else 1
            pack.append(("CHI", m.tiles[1], k))
        elif m.type == "pung":
            pack.append(("PENG", m.tiles[0], m.claimed_from or 1))
        else:
            pack.append(("GANG", m.tiles[0], 0 if m.concealed else (m.claimed_from or 1)))
    try:
        fans = MahjongFanCalculator(tuple(pack), tuple(sit.hand), sit.win_tile, sit.flowers,
                                    sit.self_drawn, sit.last_tile, sit.kong_related, sit.last_of_wall,
                                    _WIND[sit.seat_wind], _WIND[sit.prevalent_wind])
    except TypeError as e:
        return FanResult((), 0, 0, is_win=False, error=str(e), meets_minimum=False)
    items = tuple(FanItem(name_en=zh, name_zh=zh, points=p) for p, zh in fans)
    total = sum(p for p, _ in fans)
    without = total - sit.flowers
    return FanResult(items, total, without, meets_minimum=without >= 8)
