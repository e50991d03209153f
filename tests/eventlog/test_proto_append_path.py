"""The gRPC append path (issue 19): events go from protobuf straight to the canonical JSON
texts the store hashes (eventlog.convert.encoded_from_proto) — and those texts are byte for
byte today's.

Today's bytes are defined here from their parts, not by the code under test: the payload's
``model_dump(mode="json")`` and the metadata's ``to_jsonable_python``, each encoded by
``json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` (the hash chain's
definition, eventlog/hashing.py). Every event of every bundled sample game and of a
simulated game of every ruleset and docs/events.md's example of every event type (the
rulesets' own included) is sent through protobuf
bytes; the log written through the server's AppendStream hashes as the log written by
``paipu ingest`` (whose hash tests/ingest/test_bulk_ingest.py pins)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import grpc
import pytest
from pydantic_core import to_jsonable_python

from eventlog.convert import encoded_events_from_proto, encoded_from_proto, from_proto, to_proto
from eventlog.events import EVENT_TYPES, EventError, NewEvent, StoredEvent, parse_event
from eventlog.ingest import parse_file
from eventlog.ingest.load import ingest_files
from eventlog.store import SqliteStore
from eventlog.store.planning import EncodedEvent
from paipu.samples import sample_files
from paipu.v1 import event_log_service_pb2 as pb
from paipu.v1 import event_log_service_pb2_grpc as pb_grpc
from paipu.v1 import events_pb2
from replayer.rules.base import known_rulesets
from replayer.simulate.engine import SimulationConfig, simulate_game
from services.server import build_server

ROOT = Path(__file__).resolve().parents[2]
FIXED_CLOCK = "2026-01-02T03:04:05.000000Z"


def _dumps(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _todays(ev: NewEvent) -> tuple:
    """What the store wrote for ``ev`` before the wire path existed."""
    payload = ev.payload.model_dump(mode="json")
    ruleset = payload.get("ruleset") if ev.type == "game_started" else None
    return (ev.event_id, ev.type, ev.schema_version, _dumps(payload), _dumps(to_jsonable_python(ev.metadata)),
            ruleset if isinstance(ruleset, str) else None)


def _over_the_wire(ev: NewEvent) -> events_pb2.Event:
    return events_pb2.Event.FromString(to_proto(ev).SerializeToString())


def _sample_games() -> list[tuple[str, list[NewEvent]]]:
    games = []
    for path in sample_files():
        games += [(g.game_id, list(g.events)) for g in parse_file(path)]
    return games


def _simulated_games() -> list[tuple[str, list[NewEvent]]]:
    return [(f"sim-{r}", list(simulate_game(SimulationConfig(ruleset=r, seed=19, hands_per_game=1), 0).events))
            for r in known_rulesets()]


def _documented_events() -> list[NewEvent]:
    """docs/events.md's example of every event type (the core's and the rulesets' own)."""
    text = (ROOT / "docs" / "events.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```json( sichuan| nanchang| stored)?\n(.*?)\n```", text, re.S | re.M)
    return [parse_event(line) for _tag, body in blocks for line in body.splitlines() if line.strip()]


def test_every_bundled_simulated_and_documented_event_is_encoded_to_todays_bytes():
    games = _sample_games() + _simulated_games()
    events = [e for _g, evs in games for e in evs] + _documented_events()
    assert len(games) >= 24 and len(events) > 2500
    assert {e.type for e in events} >= {"game_started", "hand_started", "tiles_dealt", "tile_drawn",
                                        "tile_discarded", "chow", "pung", "kong", "win_declared",
                                        "score_reported", "hand_ended", "game_ended"}
    assert set(EVENT_TYPES) <= {e.type for e in events}
    assert sum("." in e.type for e in events) >= 5  # the rulesets' own event types (RulesetEvent)
    for _round in range(2):  # the second time every payload text is a kept one
        for ev in events:
            got = encoded_from_proto(_over_the_wire(ev))
            assert tuple(got) == _todays(ev), ev
            assert got == EncodedEvent.of(from_proto(_over_the_wire(ev)))
    for _round in range(2):  # a request's events in one pass: the same texts
        for _game_id, evs in games:
            request = pb.AppendRequest.FromString(
                pb.AppendRequest(events=[to_proto(e) for e in evs]).SerializeToString())
            assert [tuple(e) for e in encoded_events_from_proto(request.events)] == [_todays(e) for e in evs]


UID = "00000000-0000-4000-8000-000000000003"


@pytest.mark.parametrize(
    "event",
    [
        events_pb2.Event(event_id=UID, tile_discarded=events_pb2.TileDiscarded(seat=4, tile="W1")),
        events_pb2.Event(event_id=UID, tile_discarded=events_pb2.TileDiscarded(seat=0, tile="H1")),
        events_pb2.Event(event_id=UID, kong=events_pb2.Kong(seat=0, tile="W1")),
        events_pb2.Event(event_id="not-a-uuid", exhaustive_draw=events_pb2.ExhaustiveDraw()),
        events_pb2.Event(event_id=UID),
        events_pb2.Event(event_id=UID, metadata_json="[1]", exhaustive_draw=events_pb2.ExhaustiveDraw()),
        events_pb2.Event(event_id=UID, metadata_json="{", tile_discarded=events_pb2.TileDiscarded(seat=9, tile="W1")),
        events_pb2.Event(event_id=UID, schema_version=7, exhaustive_draw=events_pb2.ExhaustiveDraw()),
        events_pb2.Event(event_id=UID, game_started=events_pb2.GameStarted(
            ruleset="mcr", players=list("abcd"), ruleset_options_json="3")),
        events_pb2.Event(event_id=UID, ruleset_event=events_pb2.RulesetEvent(type="nosuch.thing")),
    ],
)
def test_a_malformed_event_is_refused_with_the_same_words_as_from_proto(event):
    with pytest.raises(EventError) as slow:
        from_proto(event)
    for _round in range(2):
        with pytest.raises(EventError) as fast:
            encoded_from_proto(event)
        assert (str(fast.value), fast.value.field) == (str(slow.value), slow.value.field)


@pytest.mark.parametrize("kept", [False, True])
def test_a_malformed_event_of_a_request_is_named_by_its_place_with_the_same_words(kept):
    """encoded_events_from_proto: the first bad event of a request, named ``events[i]`` (and
    its field), with encoded_from_proto's words — also when its payload is a kept text (only
    the envelope is then read in the one pass)."""
    good = events_pb2.Event(event_id=UID, exhaustive_draw=events_pb2.ExhaustiveDraw())
    bad_metadata = events_pb2.Event(event_id=UID, metadata_json="[1]", exhaustive_draw=events_pb2.ExhaustiveDraw())
    bad_seat = events_pb2.Event(event_id=UID, tile_discarded=events_pb2.TileDiscarded(seat=4, tile="W1"))
    if kept:
        encoded_from_proto(good)
    for msgs, i, bad in (([good, bad_metadata, bad_seat], 1, bad_metadata), ([good, good, bad_seat], 2, bad_seat)):
        with pytest.raises(EventError) as one:
            encoded_from_proto(bad)
        with pytest.raises(EventError) as batch:
            encoded_events_from_proto(msgs, "requests[5].")
        assert str(batch.value) == f"requests[5].events[{i}]: {one.value}"
        assert batch.value.field == f"requests[5].events[{i}].{one.value.field}"


def test_an_event_id_in_another_uuid_form_is_stored_in_canonical_form():
    msg = events_pb2.Event(event_id=UID.upper(), tile_drawn=events_pb2.TileDrawn(seat=1, tile="B2"))
    assert encoded_from_proto(msg).event_id == UID == from_proto(msg).event_id
    assert [e.event_id for e in encoded_events_from_proto([msg, msg])] == [UID, UID]  # the second: a kept payload


def test_a_log_appended_over_append_stream_hashes_as_the_ingested_one(tmp_path):
    ingested = SqliteStore(tmp_path / "a" / "events.sqlite", clock=lambda: FIXED_CLOCK)
    try:
        ingest_files(ingested, sample_files(), workers=0)  # its bytes: GOLDEN_LOG of tests/ingest/test_bulk_ingest.py
        golden = ingested.log_head()
        games = [(g.game_id, list(ingested.read_game(g.game_id))) for g in ingested.list_games()]
    finally:
        ingested.close()
    requests = []
    for game_id, stored in games:
        request = pb.AppendRequest(game_id=game_id, events=[to_proto(e).event for e in stored])
        request.no_stream.SetInParent()
        requests.append(request)
    assert all(isinstance(e, StoredEvent) for _g, evs in games for e in evs)
    with SqliteStore(tmp_path / "b" / "events.sqlite", clock=lambda: FIXED_CLOCK) as store:
        server, port = build_server(store, port=0)
        server.start()
        try:
            with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
                response = pb_grpc.EventLogServiceStub(channel).AppendStream(iter(requests), timeout=60)
        finally:
            server.stop(None)
        assert all(r.WhichOneof("outcome") == "appended" for r in response.results)
        assert store.log_head() == golden and golden.position > 2500
