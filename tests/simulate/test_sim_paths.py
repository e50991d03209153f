"""Simulated games reach the rare paths of a hand, each seen in the replayed events and
states (not in the simulator's own records): kongs of every kind, robbing a kong (抢杠和),
a self-drawn win on a kong replacement (杠上开花), wins on the last tile of the wall
(妙手回春 self-drawn, 海底捞月 on the last discard), a win on the last copy of a tile
(和绝张), flowers, exhaustive draws, several claimants on one discard (the losers recorded
as passes naming their claim), and — with ``multiple_winners: all`` — two winners on one
discard.

Games are one hand each, from a fixed run seed, played in order until every path has been
seen (about 130 + 100 hands)."""

from __future__ import annotations

from collections import Counter

from replayer.replay import replay
from replayer.simulate.engine import SimulationConfig, simulate_game

PATHS = (
    "concealed kong", "melded kong", "added kong", "robbing a kong", "kong replacement win",
    "last of wall self-drawn", "last of wall on a discard", "last copy", "flower",
    "exhaustive draw", "several claimants", "lost win claim",
)
LIMIT = 400


def paths_of(game) -> Counter:
    seen: Counter = Counter()
    for step in replay(game.events, mode="strict"):
        p = step.event.payload
        t = step.event.type
        if t == "kong":
            seen[f"{p.kind} kong"] += 1
        elif t == "flower_replaced":
            seen["flower"] += 1
        elif t == "exhaustive_draw":
            seen["exhaustive draw"] += 1
        elif t == "pass" and p.claim is not None:
            seen["several claimants"] += 1
            if p.claim == "win":
                seen["lost win claim"] += 1
        elif t == "win_declared":
            w = step.state.wins[-1]
            assert w.legal
            sit = w.situation
            if w.robbing_kong:
                seen["robbing a kong"] += 1
            if w.self_drawn and sit.kong_related:
                seen["kong replacement win"] += 1
            if sit.last_of_wall:
                seen["last of wall self-drawn" if w.self_drawn else "last of wall on a discard"] += 1
            if sit.last_tile:
                seen["last copy"] += 1
            same = [x for x in step.state.wins if x.discard_seq == w.discard_seq and not x.self_drawn]
            if len(same) > 1:
                seen["two winners on one discard"] += 1
    return seen


def _until(cfg: SimulationConfig, wanted: tuple[str, ...]) -> tuple[Counter, int]:
    seen: Counter = Counter()
    for g in range(LIMIT):
        seen += paths_of(simulate_game(cfg, g))
        if all(seen[k] for k in wanted):
            return seen, g + 1
    return seen, LIMIT


def test_every_rare_path_occurs():
    seen, games = _until(SimulationConfig(seed="paths", hands_per_game=1), PATHS)
    missing = [k for k in PATHS if not seen[k]]
    assert not missing, f"not seen in {games} hands: {missing}"
    # 截和 (first_only, the default): a discard is never won twice
    assert not seen["two winners on one discard"]


def test_two_winners_on_one_discard_when_all_may_win():
    seen, games = _until(SimulationConfig(seed="paths", options={"multiple_winners": "all"}, hands_per_game=1),
                         ("two winners on one discard",))
    assert seen["two winners on one discard"], f"not seen in {games} hands"
