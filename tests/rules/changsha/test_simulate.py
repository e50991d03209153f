"""Simulated Changsha games (``paipu simulate --ruleset changsha``) replay with no finding
from their JSON Lines form, every settlement is zero-sum, the same seed gives the same bytes,
and wins are explained with their units. The long run (1,000 games) is
scripts/changsha_games.py."""

from __future__ import annotations

import pytest

from eventlog import events as ev
from replayer.replay import run
from replayer.simulate.engine import SimulationConfig, simulate

OPTIONS = [
    {},
    {"birds": 2, "bird_origin": "winner", "kong_pay": {"ming": 5, "an": 10}},
    {"birds": 6, "bird_mode": "multiply", "unit": 5, "haohua_units": 2, "hands_per_game": 4},
]


@pytest.mark.parametrize("options", OPTIONS, ids=["defaults", "birds2-winner-kongpay", "birds6-multiply"])
def test_simulated_games_replay_without_findings(options):
    # the spec fixes no game length (hands_per_game unset: the simulation stops itself after 8)
    cfg = SimulationConfig(ruleset="changsha", seed="cs-test", options=options,
                           hands_per_game=None if "hands_per_game" in options else 8)
    games = list(simulate(cfg, 3))
    hands = 0
    for g in games:
        events = [ev.parse_event(line.decode()) for line in g.jsonl_lines()]
        res = run(events, mode="audit")
        assert res.findings == ()
        assert res.state.phase == "game_over"
        hands += len(res.state.hands)
        assert all(sum(e.changes) == 0 for e in res.state.score_log)
        assert sum(res.state.scores) == 0
        for w in res.state.wins:
            assert w.legal and w.score.fans and all(f.name_zh and f.count >= 1 for f in w.score.fans)
            assert dict(w.score.components.parts)["win"] == w.settlement.changes
    assert hands == 3 * options.get("hands_per_game", 8)


def test_same_seed_same_bytes():
    cfg = SimulationConfig(ruleset="changsha", seed="det", hands_per_game=2)
    a = b"".join(next(iter(simulate(cfg, 1))).jsonl_lines())
    b = b"".join(next(iter(simulate(cfg, 1))).jsonl_lines())
    assert a == b
