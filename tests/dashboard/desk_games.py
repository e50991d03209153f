"""Games of every ruleset for the replay tests (issue 21 item 7): one simulated hand per ruleset
and preset (seeded: the same events every run), and what the tests expect of them computed
from the events and the rules text — never from the dashboard's code:

* seat winds: the dealer is East, then South, West, North in turn order (mcr.md §1,
  nanchang.md §2, sichuan.md §1 — every ruleset here seats them so);
* Nanchang jing (nanchang.md §4.1): 正精 is the turned-up indicator, 副精 its successor —
  suited rank r → r + 1 with 9 → 1, 东南西北 → 南西北东, 中发白 → 发白中.
"""

from __future__ import annotations

from pathlib import Path

from eventlog.store import open_store

#: Ruleset or preset → seed of its simulated game (each has a win or a claim to step to).
RULESETS = {"mcr": 3, "nanchang": 5, "sichuan": 3, "changsha": 3, "cjm_chips": 3, "ji_an": 5, "mcr1998": 3}
WIND_EN = ("East", "South", "West", "North")
WIND_ZH = ("东家", "南家", "西家", "北家")


def game_id(ruleset: str) -> str:
    return f"desk-{ruleset}"


def make_data(d: Path, rulesets=RULESETS) -> dict[str, list]:
    """Simulate one hand of each ruleset into the log in ``d``; the events by ruleset."""
    from replayer.simulate.engine import SimulationConfig, simulate_game

    out = {}
    store = open_store(d)
    try:
        for r, seed in rulesets.items():
            game = simulate_game(SimulationConfig(ruleset=r, seed=seed, hands_per_game=1), 0)
            store.append(game_id(r), list(game.events))
            out[r] = list(store.read_game(game_id(r)))
    finally:
        store.close()
    return out


def wind_of(events: list, seat: int, seq: int) -> int:
    """The seat's wind (0 East .. 3 North) in the hand holding event ``seq``."""
    dealer = [e.payload.dealer for e in events if e.type == "hand_started" and e.seq <= seq][-1]
    return (seat - dealer) % 4


def successor(tile: str) -> str:
    s, r = tile[0], int(tile[1])
    if s in "WTB":
        return f"{s}{r % 9 + 1}"
    if s == "F":
        return f"F{r % 4 + 1}"
    return f"J{r % 3 + 1}"  # J1 中 → J2 发 → J3 白 → J1


def first(events: list, *types: str):
    return next((e for e in events if e.type in types), None)
