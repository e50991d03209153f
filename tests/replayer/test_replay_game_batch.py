"""The batch replay (replayer.replay.replay_game: one working state per game, updated in
place) gives, event by event, the states and findings of the per-event frozen replay
(replayer.replay.replay) — for every ruleset and preset, for games with breaches, and for
the real sample logs — and the audit and the export's facts built from it are the same."""

from __future__ import annotations

import pytest

from analytics.facts import game_facts
from analytics.schema import table
from eventlog.ingest import ImportedGame, parse_file
from paipu.samples import SAMPLES_DIR
from replayer.audit import audit_game
from replayer.replay import replay, replay_game
from replayer.rules.base import get_ruleset, known_rulesets, presets
from replayer.simulate.engine import SimulationConfig, simulate_game
from replayer.state import TableState, WorkingState, evolve, replace


def _steps(steps):
    """(step states and findings taken, the exception that stopped the replay or None)."""
    out = []
    try:
        for s in steps:
            out.append((s.state.snapshot() if isinstance(s.state, WorkingState) else s.state, s.findings))
    except Exception as e:  # a replay that fails must fail the same way on both paths
        return out, (type(e), str(e))
    return out, None


def _same_replay(events, ruleset=None) -> int:
    """Compare both paths step by step; the number of findings (+1 for a replay that
    stopped on an error)."""
    frozen, failed = _steps(replay(events, mode="audit", ruleset=ruleset))
    batch, batch_failed = _steps(replay_game(events, mode="audit", ruleset=ruleset))
    assert batch_failed == failed
    for n, (a, b) in enumerate(zip(frozen, batch, strict=True)):
        assert b == a, (events[n].type, n)
    if failed is None:
        assert audit_game(events, ruleset=ruleset) == audit_game(
            events, ruleset=ruleset, steps=replay(events, mode="audit", ruleset=ruleset))
    return sum(len(f) for _, f in frozen) + (failed is not None)


def _variants(events):
    """The events as played, and two damaged copies: one event dropped mid-hand (later
    events then breach), one discard played twice (out of turn, out of order)."""
    events = list(events)
    mid = len(events) // 2
    discard = next(i for i in range(mid, len(events)) if events[i].type == "tile_discarded")
    return [events, events[:mid] + events[mid + 1:], events[:discard + 1] + events[discard:]]


@pytest.mark.parametrize("ruleset", [*known_rulesets(), *sorted(presets())])
def test_batch_replay_equals_frozen_replay(ruleset):
    game = simulate_game(SimulationConfig(ruleset=ruleset, seed=19, hands_per_game=2), 0)
    findings_seen = sum(_same_replay(events) for events in _variants(game.events))
    assert findings_seen > 0  # the damaged copies were judged, not only the clean game


def test_batch_replay_of_the_real_samples_and_their_facts():
    rs = get_ruleset("mcr", {"flowers": False, "wall_layout": "per_seat"})
    paths = [SAMPLES_DIR / "botzone-mcr-human-sample" / "sample_16_games.txt",
             *sorted((SAMPLES_DIR / "botzone-mcr-matchlog-json").glob("*_lite.json")),
             *sorted((SAMPLES_DIR / "pmn-python-majiang").glob("*.pmn"))]
    games = [g for p in paths for g in parse_file(p) if isinstance(g, ImportedGame)]
    assert len(games) >= 23
    for g in games:
        _same_replay(g.events, ruleset=rs)
        _same_replay(g.events)


def test_facts_from_the_batch_replay_equal_facts_from_frozen_steps(tmp_path):
    from eventlog.store import open_store

    store = open_store(tmp_path / "data")
    for k in range(3):
        game = simulate_game(SimulationConfig(seed=19, hands_per_game=2), k)
        store.append(game.game_id, list(game.events))
    for info in store.list_games():
        events = list(store.read_game(info.game_id))
        batch = game_facts(events)
        assert batch is not None and batch.rows["hands"]
        assert batch == game_facts(events, steps=replay(events))
        # rows are tuples in the table's column order (analytics/schema.py)
        hand = batch.records("hands")[0]
        assert list(hand) == table("hands").columns and hand["game_id"] == info.game_id
        assert [a["action"] for a in batch.records("actions")].count("discard") == \
            sum(1 for e in events if e.type == "tile_discarded")


def test_working_state_copies_are_frozen_and_evolve_writes_in_place():
    w = WorkingState.of(TableState(seq=3))
    copy = replace(w, seq=4)
    assert type(copy) is TableState and w.seq == 3  # replace never changes a working state
    assert evolve(w, seq=5) is w and w.seq == 5
    frozen = TableState(seq=1)
    assert evolve(frozen, seq=2) == TableState(seq=2) and frozen.seq == 1
    assert w.snapshot() == TableState(seq=5) and type(w.snapshot()) is TableState
    with pytest.raises(TypeError):
        evolve(w, no_such_field=1)


def test_seats_changed_in_place_are_read_frozen_and_never_shared():
    from replayer.state import SeatState, WorkingSeat

    w = WorkingState.of(TableState())
    before = w.snapshot()
    seat = w.change_seat(2)
    assert isinstance(seat, WorkingSeat) and w.seat_now(2) is seat
    seat.tiles.append("W1")
    seat.counts[0] += 1
    w.change_seen()[0] += 1
    # a snapshot taken earlier, and the frozen copies made since, never see a later change
    assert before.seats[2] == SeatState() and before.seen[0] == 0
    assert w.seats[2] == SeatState(tiles=("W1",), counts=(1,) + (0,) * 33) and w.seen[0] == 1
    copy = replace(w, seq=7)
    w.change_seat(2).tiles.append("W2")
    assert copy.seats[2].tiles == ("W1",) and w.seats[2].tiles == ("W1", "W2")
    assert type(w.seats[2]) is SeatState and type(copy) is TableState
    # seats written with evolve replace the ones changed in place
    w.change_seat(1).hidden = 5
    evolve(w, seats=before.seats)
    assert w.snapshot() == replace(before, seen=w.seen)


def test_an_in_place_handler_given_a_frozen_state_leaves_it_as_it_was():
    from eventlog import events as ev
    from replayer.context import Ctx
    from replayer.handlers.tiles import tile_discarded

    game = simulate_game(SimulationConfig(seed=19, hands_per_game=1), 0)
    events = list(game.events)
    k = next(i for i, e in enumerate(events) if e.type == "tile_discarded")
    *_, last = replay(events[:k])
    state = last.state
    ctx = Ctx(k, state, get_ruleset(state.ruleset_id, dict(state.ruleset_options)), "audit")
    p = events[k].payload
    assert isinstance(p, ev.TileDiscarded)
    after = tile_discarded(ctx, state, p)
    assert type(after) is TableState and after != state
    assert after.seats[p.seat].discards[-1].tile == p.tile and not state.seats[p.seat].discards
    assert len(after.seats[p.seat].tiles) == len(state.seats[p.seat].tiles) - 1
