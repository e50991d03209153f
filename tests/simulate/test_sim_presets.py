"""Issue 11 items 6 and 7: a simulated game of a preset stores the preset id with its
resolved options (so it replays and verifies as played), and simulated Nanchang games
carry the 下精 indicator (``lower_indicator``) of the wall they used, so 上下翻精 and 埋地雷
(nanchang.md §11) happen in simulated games."""

from __future__ import annotations

import tomllib
from pathlib import Path

from replayer.audit import audit_game
from replayer.simulate.engine import SimulationConfig, simulate_game

PRESETS = Path(__file__).resolve().parents[2] / "replayer" / "rules" / "presets" / "nanchang.toml"


def test_preset_game_stores_the_preset_and_its_options_and_verifies():
    preset = tomllib.loads(PRESETS.read_text(encoding="utf-8"))["nanchang_shangxia"]
    game = simulate_game(SimulationConfig(ruleset="nanchang_shangxia", seed=1, hands_per_game=4), 0)
    started = game.events[0].payload
    assert started.ruleset == "nanchang_shangxia"
    assert started.ruleset_options == preset["options"]
    audit = audit_game(game.events)
    assert audit.findings == ()
    assert all(r.agrees for r in audit.reported)


def _tail_stack(wall: list[str], dice: list[int]) -> tuple[str, str]:
    """nanchang.md §3.1/§4.1: stack #s (s = dice sum) from the tail; tail draws take the
    top then the bottom tile, so the indicator is wall[-(2s-1)] and under it wall[-2s]."""
    s = sum(dice)
    return wall[-(2 * s - 1)], wall[-2 * s]


def test_simulated_nanchang_reveals_carry_the_lower_indicator_of_the_wall():
    game = simulate_game(SimulationConfig(ruleset="nanchang_shangxia", seed=3, hands_per_game=3), 0)
    checked = 0
    wall: list[str] = []
    dealt = 0
    for e in game.events:
        if e.type == "hand_started":
            wall, dealt = list(e.payload.wall), 0
        elif e.type == "tiles_dealt":
            dealt += len(e.payload.tiles)
        elif e.type == "wildcard_indicator_revealed":
            p = e.payload
            rest = wall[dealt:]  # the deal takes from the head; the indicator counts from the tail
            assert (p.indicator, p.lower_indicator) == _tail_stack(rest, p.dice)
            checked += 1
    assert checked == 3
