"""Schema evolution (issue 13 item 5): events stored at schema_version 1 stay readable after a
payload gets a version 2. A real SQLite store holds real games (the bundled Botzone logs),
then a v2 of ``game_started`` is introduced (a new required field, derived from v1 by a
registered upcaster): the old games still load (as v2), replay to the same result and verify
with their original hashes; new v2 events are written and read beside them."""

from __future__ import annotations

from pathlib import Path

import pytest

from eventlog import events as ev
from eventlog.events import GameStarted, NewEvent, parse_event, upcast
from eventlog.ingest import parse_file
from eventlog.ingest.base import ImportedGame
from eventlog.store import open_store
from eventlog.store.base import CorruptEvent
from eventlog.verify import verify_game
from paipu.samples import sample_files
from replayer.replay import run


class GameStartedV2(GameStarted):
    """Version 2 of game_started: the number of seats is written down (here always 4: the
    four names of ``players``)."""

    SCHEMA_VERSION = 2
    seat_count: int


def _v1_to_v2(payload: dict) -> dict:
    return {**payload, "seat_count": len(payload["players"])}


@pytest.fixture
def store_with_v1_games(tmp_path: Path):
    store = open_store(tmp_path / "data")
    text_log = next(f for f in sample_files() if f.suffix == ".txt")
    games = [g for g in parse_file(text_log) if isinstance(g, ImportedGame)][:3]
    assert len(games) == 3
    for g in games:
        assert all(e.schema_version == 1 for e in g.events)
        store.append(g.game_id, g.events)
    yield store, [g.game_id for g in games]
    store.close()


def _introduce_v2(monkeypatch, *, with_upcaster: bool = True, cls: type = GameStartedV2) -> None:
    monkeypatch.setitem(ev.PAYLOAD_TYPES, "game_started", cls)
    if with_upcaster:
        monkeypatch.setitem(ev.UPCASTERS, ("game_started", 1), _v1_to_v2)


def test_old_games_load_replay_and_verify_after_a_v2_payload(store_with_v1_games, monkeypatch):
    store, ids = store_with_v1_games
    before = {}
    for gid in ids:
        events = list(store.read_game(gid))
        result = run(events, mode="audit")
        before[gid] = ([e.hash for e in events], [s.score for s in result.state.seats], len(result.findings))
        assert verify_game(store, gid).ok

    _introduce_v2(monkeypatch)
    for gid in ids:
        events = list(store.read_game(gid))
        first = events[0].payload
        assert isinstance(first, GameStartedV2) and first.seat_count == 4
        assert events[0].schema_version == 2  # the payload is today's shape
        result = run(events, mode="audit")
        assert ([e.hash for e in events], [s.score for s in result.state.seats], len(result.findings)) == before[gid]
        assert verify_game(store, gid).ok  # the stored v1 rows and their hashes are untouched

    # a new game is written at v2 and read back beside the old ones
    new = NewEvent.of(GameStartedV2(ruleset="mcr", players=["a", "b", "c", "d"], seat_count=4), id_seed="v2/0")
    assert new.schema_version == 2
    store.append("v2-game", [new])
    [back] = store.read_game("v2-game")
    assert back.schema_version == 2 and back.payload.seat_count == 4
    assert verify_game(store, "v2-game").ok


def test_a_v1_event_in_json_lines_is_upgraded_on_parse(monkeypatch):
    _introduce_v2(monkeypatch)
    line = ('{"event_id": "00000000-0000-4000-8000-000000000001", "type": "game_started", "schema_version": 1,'
            ' "payload": {"ruleset": "mcr", "players": ["a", "b", "c", "d"]}}')
    e = parse_event(line)
    assert isinstance(e.payload, GameStartedV2) and e.payload.seat_count == 4 and e.schema_version == 2


def test_without_an_upcaster_an_old_event_is_reported_not_misread(store_with_v1_games, monkeypatch):
    store, ids = store_with_v1_games
    class AnotherV2(GameStartedV2):  # (a model of its own: nothing parsed before is reused)
        pass

    _introduce_v2(monkeypatch, with_upcaster=False, cls=AnotherV2)
    with pytest.raises(CorruptEvent, match="no upcaster from schema_version 1 to 2"):
        list(store.read_game(ids[0]))


def test_a_version_newer_than_this_paipu_is_refused():
    with pytest.raises(ev.EventError, match="newer than this paipu"):
        upcast("game_started", 2, {"ruleset": "mcr", "players": ["a", "b", "c", "d"]})
