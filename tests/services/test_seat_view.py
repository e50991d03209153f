"""One seat's view of an event is one rule, declared by the payload classes (issue 13, "the
same knowledge in several places"): ``Payload.PRIVATE`` / ``PRIVATE_METADATA`` /
``withheld_from``, applied by eventlog.view.seat_view for the CLI and the dashboard and,
before the conversion to protobuf, by the gRPC replay service (GetState/StepThrough with
``seat``).

What must be withheld comes from the rules text, not from the code under test: DESIGN.md §8
(docs/reference/DESIGN.md) "one seat's view" of the table — another seat's concealed tiles
are not seen; docs/events.md: ``tile`` of a draw is ``null`` "when the source hides it
(another player's draw in a one-seat view)". Every registered payload type (the core's, every
ruleset's own, and one declared here with a private field) is walked from every seat, as
events and as the protobuf the service sends from a real server on a loopback port."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import grpc
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from pydantic import BaseModel

from eventlog import events as ev
from eventlog.convert import payload_from_proto, to_proto
from eventlog.store import open_store
from eventlog.store.base import NO_STREAM
from eventlog.view import seat_view
from paipu.v1 import replay_service_pb2 as rpb
from paipu.v1 import replay_service_pb2_grpc as rpb_grpc
from replayer.rules.base import RulesetSpec, get_spec, known_rulesets, register
from services.server import build_server

DOC = Path(__file__).resolve().parents[2] / "docs" / "events.md"
DEADLINE = 30.0  # seconds; only reached when something is broken
GAME = "seat-view-walk"


# ----------------------------------------------------------------------------- a ruleset's own private field
def _proto_message() -> Any:
    """``paipu.v1.peek_test.ReadyWritten {uint32 seat = 1; repeated string waits = 2;}``."""
    f = descriptor_pb2.FieldDescriptorProto
    fdp = descriptor_pb2.FileDescriptorProto(name="paipu/v1/peek_test_events.proto", package="paipu.v1.peek_test",
                                             syntax="proto3")
    m = fdp.message_type.add(name="ReadyWritten")
    m.field.add(name="seat", number=1, type=f.TYPE_UINT32, label=f.LABEL_OPTIONAL)
    m.field.add(name="waits", number=2, type=f.TYPE_STRING, label=f.LABEL_REPEATED)
    pool = descriptor_pool.Default()
    try:
        desc = pool.FindMessageTypeByName("paipu.v1.peek_test.ReadyWritten")
    except KeyError:
        pool.Add(fdp)
        desc = pool.FindMessageTypeByName("paipu.v1.peek_test.ReadyWritten")
    return message_factory.GetMessageClass(desc)


class ReadyWritten(ev.Payload):
    """A test ruleset's own event: ``seat`` declares a ready hand and writes its ``waits``
    down for the referee (暗报听) — the table learns that it is ready, not on what."""

    TYPE: ClassVar[str] = "peek_test.ready_written"
    PROTO: ClassVar[Any] = _proto_message()
    PRIVATE: ClassVar[Mapping[str, Any]] = {"waits": []}
    seat: ev.Seat
    waits: list[ev.PlayTile]


class _NoOptions(BaseModel):
    pass


def _ready_written(ctx: Any, state: Any, p: ReadyWritten) -> Any:
    return state


register(RulesetSpec(id="peek_test", description="a test ruleset: a ready hand with its waits written down",
                     options_model=_NoOptions, build=get_spec("mcr").build,
                     events=((ReadyWritten, _ready_written),)))


# ----------------------------------------------------------------------------- examples
def _examples() -> list[ev.NewEvent]:
    """docs/events.md's example of every event type (the core's and the rulesets' own, the
    test ruleset's when it is loaded), and the cases where something is private: a deal, a
    draw, a concealed kong, a lost claim's tiles, a hand with its wall, seed and metadata."""
    known_rulesets()  # every ruleset's own types registered
    out = []
    for tag, body in re.findall(r"^```json( \w+)?\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.S | re.M):
        for line in body.splitlines() if tag != " stored" else ():  # "stored": game_started again
            try:
                out.append(ev.parse_event(line))
            except ev.EventError:  # a test ruleset's example whose ruleset is not loaded here
                assert "blood_test." in line
    extra = [
        ev.HandStarted(hand_number=1, prevalent_wind="F1", dealer=2, dice=[2, 5], seed="s1",
                       wall=[f"{suit}{rank}" for suit in "WTB" for rank in range(1, 10)]),
        ev.TilesDealt(seat=3, tiles=["W1", "W2", "W3", "T4", "T5", "T6", "B7", "B8", "B9", "F1", "F1", "J1", "J1"]),
        ev.TileDrawn(seat=1, tile="W9", source="wall"),
        ev.TileDrawn(seat=1, tile=None),
        ev.Kong(seat=2, kind="concealed", tile="B4"),
        ev.Kong(seat=2, kind="added", tile="T8"),
        ev.Pass(seat=0, discard_seq=7, claim="pung", tiles=["W5", "W5"]),
        ReadyWritten(seat=2, waits=["B3", "B6"]),
    ]
    out += [ev.NewEvent.of(p, id_seed=f"{GAME}/{i}", metadata={"source": "walk.log", "line": i})
            for i, p in enumerate(extra)]
    return out


def _stored(events: list[ev.NewEvent]) -> list[ev.StoredEvent]:
    return [ev.StoredEvent(**e.model_dump(), game_id=GAME, seq=i, position=i + 1, hash=f"{i:064x}")
            for i, e in enumerate(events)]


def _registered() -> set[str]:
    known_rulesets()
    return set(ev.EVENT_TYPES) | set(ev.ruleset_event_types())


def _hidden_values(stored: ev.StoredEvent, seat: int) -> dict[str, Any]:
    """The private values of ``stored`` that seat ``seat`` must not see (JSON form)."""
    p = stored.payload
    return {name: p.model_dump(mode="json")[name] for name, shown in p.withheld_from(seat).items()
            if getattr(p, name) != shown}


# ----------------------------------------------------------------------------- the rule
def test_the_core_declares_what_design_and_the_event_docs_hide():
    """What is private, read from the declarations (DESIGN.md §8; docs/events.md)."""
    deal = ev.TilesDealt(seat=1, tiles=["W1"] * 13)
    assert deal.withheld_from(1) == {} and deal.withheld_from(0) == {"tiles": []}
    assert ev.TileDrawn(seat=1, tile="W1").withheld_from(2) == {"tile": None}
    assert ev.Kong(seat=1, kind="concealed", tile="W1").withheld_from(2) == {"tile": None}
    assert ev.Kong(seat=1, kind="melded", tile="W1", discard_seq=3).withheld_from(2) == {}
    assert ev.Pass(seat=1, tiles=["W1", "W1"]).withheld_from(0) == {"tiles": []}
    hand = ev.HandStarted(hand_number=0, prevalent_wind="F1", dealer=0, wall=["W1"], seed="x")
    assert all(hand.withheld_from(s) == {"wall": [], "seed": None} for s in range(4))  # nobody's
    assert ev.HandStarted.PRIVATE_METADATA
    assert ev.TileDiscarded(seat=1, tile="W1").withheld_from(0) == {}  # discards are public


def test_every_registered_payload_type_through_seat_view_from_every_seat():
    events = _stored(_examples())
    registered = _registered()
    assert registered >= {"peek_test.ready_written", "nanchang.six_pairs_shown", "sichuan.void_suit_declared"}
    assert {e.type for e in events} == registered  # an example of every registered type
    declared = {e.type for e in events for s in range(4) if _hidden_values(e, s)}
    assert declared == {t for t in registered if ev.payload_model(t).PRIVATE}  # each private case exercised
    for e in events:
        assert seat_view(e, None) is e
        for seat in range(4):
            view = seat_view(e, seat)
            hidden = _hidden_values(e, seat)
            withheld = e.payload.withheld_from(seat)
            private_metadata = bool(withheld) and type(e.payload).PRIVATE_METADATA and bool(e.metadata)
            if not hidden and not private_metadata:
                assert view is e, (e.type, seat)
                continue
            assert view is not e and view.type == e.type
            for name, shown in withheld.items():
                assert getattr(view.payload, name) == shown, (e.type, seat, name)
            others = set(type(e.payload).model_fields) - set(withheld)
            assert view.payload.model_dump(include=others) == e.payload.model_dump(include=others)
            assert view.metadata == ({} if private_metadata else e.metadata)
            assert (view.hash, view.prev_hash, view.seq, view.event_id) == (e.hash, e.prev_hash, e.seq, e.event_id)
            if getattr(e.payload, "seat", None) is not None:
                assert seat_view(e, e.payload.seat) is e  # its own seat sees it all


def test_a_rulesets_own_private_field_is_withheld_from_the_other_seats_only():
    e = _stored([ev.NewEvent.of(ReadyWritten(seat=2, waits=["B3", "B6"]), id_seed="peek")])[0]
    assert seat_view(e, 2) is e
    for seat in (0, 1, 3):
        view = seat_view(e, seat)
        assert view.payload == ReadyWritten(seat=2, waits=[])
        assert list(payload_from_proto(to_proto(view).event)[1].get("waits", [])) == []
    assert e.payload.waits == ["B3", "B6"]  # the stored event is untouched


# ----------------------------------------------------------------------------- over gRPC
@pytest.fixture
def stub(tmp_path):
    store = open_store(tmp_path / "data")
    first = ev.NewEvent.of(ev.GameStarted(ruleset="mcr", players=["a", "b", "c", "d"]), id_seed=f"{GAME}/start")
    store.append(GAME, [first, *_examples()], NO_STREAM)
    srv, port = build_server(store, port=0)
    srv.start()
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    yield rpb_grpc.ReplayServiceStub(ch), list(store.read_game(GAME))
    ch.close()
    srv.stop(None)
    store.close()


def test_the_replay_service_sends_each_seat_nothing_declared_private(stub):
    replay, stored = stub
    assert {e.type for e in stored} == _registered()
    for seat in range(4):
        states = [r.state for r in replay.StepThrough(rpb.StepThroughRequest(game_id=GAME, from_seq=0, seat=seat),
                                                       timeout=DEADLINE)]
        assert [s.seq for s in states] == [e.seq for e in stored]
        for e, state in zip(stored, states, strict=True):
            assert state.view_seat == seat
            assert state.event == to_proto(seat_view(e, seat))  # the one rule, then protobuf
            assert state.event.hash == e.hash
            _type, sent = payload_from_proto(state.event.event)
            hidden = _hidden_values(e, seat)
            for name, value in hidden.items():
                assert not sent.get(name) and sent.get(name) != value, (e.type, seat, name)
            private_metadata = bool(e.payload.withheld_from(seat)) and type(e.payload).PRIVATE_METADATA
            if private_metadata:
                assert state.event.event.metadata_json == ""
            assert state.redacted == bool(hidden or (private_metadata and e.metadata)), (e.type, seat)
    full = replay.GetState(rpb.GetStateRequest(game_id=GAME, seq=len(stored) - 1), timeout=DEADLINE).state
    assert not full.redacted and full.event == to_proto(stored[-1])  # no seat: all shown
    assert list(full.event.event.ruleset_event.payload.value)  # the waits are there for all hands
