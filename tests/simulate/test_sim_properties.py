"""Simulated games are legal, zero-sum, reproducible, and scored alike by the simulator,
the replayer and — for MCR — the reference calculator (MahjongGB 1.4.0).

Every property is checked by replaying the simulated events from their JSON Lines form
in strict mode (the replayer refuses any illegal event), independently of the simulator."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from MahjongGB import MahjongFanCalculator

from eventlog import events as ev
from replayer.replay import replay
from replayer.rules.mcr.vectors import oracle_args
from replayer.simulate.engine import SimulationConfig, simulate_game
from replayer.state import to_dict

OPTIONS = [
    {},
    {"multiple_winners": "all"},
    {"flowers": False, "wall_layout": "per_seat"},  # Botzone's Chinese-Standard-Mahjong
    {"dealer_rotation": "dealer_continues", "false_win_penalty": True},
]
BOTS = [("greedy",), ("random", "greedy", "greedy", "greedy"), ("random",)]


def replayed(game):
    events = [ev.parse_event(line.decode()) for line in game.jsonl_lines()]
    return events, list(replay(events, mode="strict"))  # ruleset from game_started


def reference_fans(situation) -> list[tuple[str, int]]:
    return sorted((name, count) for _, count, name, _ in MahjongFanCalculator(*oracle_args(situation), verbose=True))


@settings(max_examples=8, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**63), options=st.sampled_from(OPTIONS), bots=st.sampled_from(BOTS))
def test_simulated_games_replay_cleanly_and_score_alike(seed, options, bots):
    game = simulate_game(SimulationConfig(seed=seed, options=options, hands_per_game=3, bots=bots), 0)
    events, steps = replayed(game)
    assert all(not s.findings for s in steps)
    final = steps[-1].state
    assert final.phase == "game_over" and len(final.hands) == 3
    # every settlement is zero-sum, so are the hands and the game
    for entry in final.score_log:
        assert sum(entry.changes) == 0, entry
    assert all(sum(h.changes) == 0 for h in final.hands)
    assert sum(final.scores) == 0
    # replaying twice gives byte-identical states after every event
    again = list(replay(events, mode="strict"))
    for a, b in zip(steps, again, strict=True):
        assert ev.canonical_bytes(to_dict(a.state)) == ev.canonical_bytes(to_dict(b.state))
    # each win: the replayer's fans and settlement are what the simulator recorded, and the
    # reference calculator gives the same fans
    recs = [s.state.wins[-1] for s in steps if s.event.type == "win_declared"]
    assert len(recs) == len(game.wins)
    for rec, sim in zip(recs, game.wins):
        assert rec.legal and rec.seq == sim.seq and rec.seat == sim.seat
        assert tuple((f.name_en, f.points, f.count) for f in rec.score.fans) == sim.fans
        assert rec.points == sim.points and rec.settlement.changes == sim.changes
        assert sorted((f.name_zh, f.count) for f in rec.score.fans) == reference_fans(rec.situation)
    # the reported scores (what the simulator computed) all agree with the replay
    assert sum(len(s.state.reported) for s in steps if s.event.type == "score_reported") >= len(game.wins)


def test_same_seed_same_bytes_and_other_seed_other_game():
    cfg = SimulationConfig(seed="determinism", hands_per_game=2)
    a = b"".join(simulate_game(cfg, 3).jsonl_lines())
    b = b"".join(simulate_game(cfg, 3).jsonl_lines())
    assert a == b
    other = b"".join(simulate_game(SimulationConfig(seed="determinism2", hands_per_game=2), 3).jsonl_lines())
    assert other != a


def test_hand_started_records_the_wall_dice_and_seed():
    cfg = SimulationConfig(seed=11, hands_per_game=1)
    game = simulate_game(cfg, 0)
    hs = next(e.payload for e in game.events if e.type == "hand_started")
    assert hs.seed == "11/0/0" and len(hs.dice) == 2 and all(1 <= d <= 6 for d in hs.dice)
    # MCR's 144 tiles (seed 001): 4 of each of the 34 playing tiles, 8 flowers once each
    assert len(hs.wall) == 144
    assert all(hs.wall.count(t) == 4 for t in ("W1", "T9", "B5", "F4", "J3"))
    assert sorted(t for t in hs.wall if t.startswith("H")) == [f"H{i}" for i in range(1, 9)]
    dealt = [t for e in game.events if e.type == "tiles_dealt" for t in e.payload.tiles]
    assert dealt == hs.wall[:53]  # dealer 14 + 3 × 13, dealt from the front


def test_a_full_game_follows_the_ruleset_to_its_end():
    """Without --hands-per-game a game runs to the ruleset's end: MCR 4 rounds of 4 hands
    with the deal passing every hand (seed 001)."""
    game = simulate_game(SimulationConfig(seed=5), 0)
    starts = [e.payload for e in game.events if e.type == "hand_started"]
    assert [(p.dealer, p.prevalent_wind) for p in starts] == [
        (n % 4, ("F1", "F2", "F3", "F4")[n // 4]) for n in range(16)
    ]
    assert game.events[-1].type == "game_ended"
    assert game.events[-1].payload.final_scores == list(game.state.scores)
