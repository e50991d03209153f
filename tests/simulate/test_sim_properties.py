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
from replayer.rules.base import known_rulesets
from replayer.simulate.engine import SimulationConfig, reported_fans, simulate_game
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


def check_game(game, hands: int):
    """Strict replay from JSONL, zero-sum settlements, identical re-replay, and each win as
    the simulator recorded it. Returns the replay steps."""
    events, steps = replayed(game)
    assert all(not s.findings for s in steps)
    final = steps[-1].state
    assert final.phase == "game_over" and len(final.hands) == hands
    # every settlement is zero-sum, so are the hands and the game
    for entry in final.score_log:
        assert sum(entry.changes) == 0, entry
    assert all(sum(h.changes) == 0 for h in final.hands)
    assert sum(final.scores) == sum(events[0].payload.initial_scores)  # chip formats start with stacks
    # replaying twice gives byte-identical states after every event
    again = list(replay(events, mode="strict"))
    for a, b in zip(steps, again, strict=True):
        assert ev.canonical_bytes(to_dict(a.state)) == ev.canonical_bytes(to_dict(b.state))
    # each win: the replayer's fans, points and settlement are what the simulator recorded
    recs = [s.state.wins[-1] for s in steps if s.event.type == "win_declared"]
    assert len(recs) == len(game.wins)
    for rec, sim in zip(recs, game.wins):
        assert rec.legal and rec.seq == sim.seq and rec.seat == sim.seat
        assert reported_fans(rec.score) == sim.fans
        assert rec.points == sim.points and rec.settlement.changes == sim.changes
    # and the reported scores (score_reported: what the simulator computed) were accepted
    reported = [s.state.reported[-1] for s in steps if s.event.type == "score_reported"]
    assert len(reported) == len(game.wins) and all(r.agrees for r in reported)
    return steps


@settings(max_examples=8, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**63), options=st.sampled_from(OPTIONS), bots=st.sampled_from(BOTS))
def test_mcr_games_replay_cleanly_and_score_as_the_reference(seed, options, bots):
    game = simulate_game(SimulationConfig(seed=seed, options=options, hands_per_game=3, bots=bots), 0)
    steps = check_game(game, 3)
    # the reference calculator gives the same fans for every win
    for s in steps:
        if s.event.type == "win_declared":
            rec = s.state.wins[-1]
            assert sorted((f.name_zh, f.count) for f in rec.score.fans) == reference_fans(rec.situation)


@settings(max_examples=4, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**63), ruleset=st.sampled_from(known_rulesets()), bots=st.sampled_from(BOTS))
def test_every_ruleset_simulates_games_that_replay_cleanly(seed, ruleset, bots):
    """The simulator knows no ruleset: every registered one runs through the same engine."""
    game = simulate_game(SimulationConfig(ruleset=ruleset, seed=seed, hands_per_game=2, bots=bots), 0)
    check_game(game, 2)


def test_every_registered_ruleset_is_simulated():
    assert "mcr" in known_rulesets()
    for rs in known_rulesets():
        game = simulate_game(SimulationConfig(ruleset=rs, seed="each", hands_per_game=1), 0)
        assert game.hands == 1 and game.events[0].payload.ruleset == rs


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
