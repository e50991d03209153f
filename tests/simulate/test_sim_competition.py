"""Issue 18 item 5: ``paipu simulate --ruleset mcr1998|cjm_chips`` plays legal games — replayed
from their JSON Lines in strict mode and audited with no finding — and in chip games the
procedures of competition.md Part A happen: chips run out (§A5), 追牌 and 花杠 (§A7), 包牌
(§A8), 倍打 (§A6.4), 局结 with two players at 0 (§A10) and a kong payment held off the table
(禁止非胜式局结). The 500-game runs are scripts/competition_sim.py (numbers in its docstring).

The two chip games are games 2 and 6 of seed "1" (found with the script's counters)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from eventlog import events as ev
from replayer.audit import audit_game
from replayer.replay import replay
from replayer.simulate.engine import SimulationConfig, simulate_game

PRESET = Path(__file__).resolve().parents[2] / "replayer" / "rules" / "presets" / "mcr1998.toml"


def _replayed(game):
    events = [ev.parse_event(line.decode()) for line in game.jsonl_lines()]
    steps = list(replay(events, mode="strict"))  # the ruleset from game_started
    audit = audit_game(events)
    assert audit.findings == () and all(w.fans_agree is not False and w.score_agrees is not False
                                        for w in audit.wins)
    final = steps[-1].state
    assert final.phase == "game_over"
    assert all(sum(e.changes) == 0 for e in final.score_log)
    assert sum(final.scores) == sum(events[0].payload.initial_scores)
    return events, steps


def test_mcr1998_games_store_the_preset_with_its_options_and_replay_cleanly():
    options = tomllib.loads(PRESET.read_text(encoding="utf-8"))["mcr1998"]["options"]
    game = simulate_game(SimulationConfig(ruleset="mcr1998", seed=1, hands_per_game=6), 0)
    events, steps = _replayed(game)
    started = events[0].payload
    assert started.ruleset == "mcr1998" and started.ruleset_options == options
    assert started.initial_scores == [0, 0, 0, 0]
    wins = [s.state.wins[-1] for s in steps if s.event.type == "win_declared"]
    assert wins and all(w.legal and w.points >= 8 for w in wins)


def _happened(steps) -> set[str]:
    seen: set[str] = set()
    final = steps[-1].state
    for s in steps:
        if s.event.type == "win_declared" and s.state.wins[-1].settlement is not None:
            for p in s.state.wins[-1].settlement.payments:
                seen |= {k for k in ("包牌", "chips run out", "倍打") if k in p.reason}
    for e in final.score_log:
        seen |= {k for k in ("追牌", "花杠", "held") if k in e.reason}
    if sum(1 for c in final.scores if c <= 0) >= 2:
        seen.add("局结")
    return seen


def test_chip_games_start_with_stacks_and_the_competition_procedures_happen():
    seen: set[str] = set()
    for k in (2, 6):
        game = simulate_game(SimulationConfig(ruleset="cjm_chips", seed="1"), k)
        events, steps = _replayed(game)
        assert events[0].payload.initial_scores == [100, 100, 100, 100]  # §A5
        assert all(c >= 0 for c in steps[-1].state.scores)  # payments are capped by the payer's chips
        seen |= _happened(steps)
        wins = [s.state.wins[-1] for s in steps if s.event.type == "win_declared"]
        assert all(any(line.provisional for line in w.score.lines()) or not w.legal for w in wins)
    assert seen >= {"包牌", "chips run out", "倍打", "追牌", "花杠", "held", "局结"}
