"""Every event written can be read back by a gRPC client with the default 4 MiB message limit
(docs/events.md "Event size"): an event whose payload and metadata exceed 1 MiB as stored
(canonical JSON, UTF-8 — bytes, not characters) is refused at append with INVALID_ARGUMENT
naming the event's index and the limit (ErrorInfo EVENT_TOO_LARGE {field, size, limit}), on
every path (gRPC Append and AppendStream, the store's API); events just under it are read back
through ReadGame, Subscribe, GetState and StepThrough by a plain channel with gRPC's default
limits. A real server on loopback, a real SQLite store."""

from __future__ import annotations

import json

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from eventlog.convert import to_proto
from eventlog.events import GameStarted, HandStarted, NewEvent, TilesDealt
from eventlog.store import open_store
from eventlog.store.sizes import EventTooLarge
from paipu.v1 import event_log_service_pb2 as pb
from paipu.v1 import event_log_service_pb2_grpc as pb_grpc
from paipu.v1 import replay_service_pb2 as rpb
from paipu.v1 import replay_service_pb2_grpc as rpb_grpc
from services.server import build_server

DEADLINE = 30.0
MiB = 1024 * 1024
DEFAULT_CLIENT_LIMIT = 4 * MiB  # gRPC's default max_receive_message_length


def _with_note(payload, note, seed):
    return NewEvent.of(payload, metadata={"note": note}, id_seed=seed)


def _game(note_chars: int):
    """A game_started, a hand_started and four tiles_dealt, each carrying a note of
    ``note_chars`` ASCII characters (just under the limit for 1,000,000)."""
    payloads = [GameStarted(ruleset="mcr", players=list("ABCD")),
                HandStarted(hand_number=0, prevalent_wind="F1", dealer=0, dice=[3, 5])]
    payloads += [TilesDealt(seat=s, tiles=[]) for s in range(4)]
    return [_with_note(p, "x" * note_chars, f"big/{k}") for k, p in enumerate(payloads)]


@pytest.fixture
def served(tmp_path):
    store = open_store(tmp_path / "d")
    srv, port = build_server(store, port=0)
    srv.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")  # gRPC's default limits: 4 MiB received
    try:
        yield channel, store
    finally:
        channel.close()
        srv.stop(None)
        store.close()


def _error_info(err):
    for d in rpc_status.from_call(err).details:
        if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            d.Unpack(info)
            return info.reason, json.loads(info.metadata["fields"])
    return "", {}


def test_an_event_over_1_mib_is_refused_naming_its_index(served):
    channel, store = served
    stub = pb_grpc.EventLogServiceStub(channel)
    events = [to_proto(e) for e in _game(1000)]
    events[2] = to_proto(_with_note(TilesDealt(seat=0, tiles=[]), "x" * (MiB + 1), "over/2"))
    with pytest.raises(grpc.RpcError) as exc:
        stub.Append(pb.AppendRequest(game_id="g", events=events), timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert exc.value.details().startswith("events[2]: the event is ")
    assert "at most 1,048,576 (1 MiB) per event" in exc.value.details()
    reason, fields = _error_info(exc.value)
    assert reason == "EVENT_TOO_LARGE" and fields["field"] == "events[2]" and fields["limit"] == MiB
    assert fields["size"] > MiB
    with pytest.raises(grpc.RpcError) as exc:  # the bulk path names the request and the event
        stub.AppendStream(iter([pb.AppendRequest(game_id="g", events=events)]), timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert exc.value.details().startswith("requests[0]: events[2]: the event is ")
    assert _error_info(exc.value)[1]["field"] == "requests[0].events[2]"
    assert store.stream_head("g") is None
    # bytes, not characters: 400,000 three-byte characters are 1.2 MB, 300,000 are 0.9 MB
    with pytest.raises(EventTooLarge, match=r"^events\[0\]: the event is 1,200,\d{3} bytes"):
        store.append("h", [_with_note(GameStarted(ruleset="mcr", players=list("ABCD")), "中" * 400_000, "h/0")])
    assert store.append("h", [_with_note(GameStarted(ruleset="mcr", players=list("ABCD")), "中" * 300_000,
                                         "h/0")]).last_seq == 0


def test_events_under_the_limit_are_read_back_by_a_default_client(served):
    channel, store = served
    game = _game(1_000_000)  # six events of about 0.95 MiB: 5.7 MiB in all
    store.append("g", game)
    stub = pb_grpc.EventLogServiceStub(channel)
    batches = list(stub.ReadGame(pb.ReadGameRequest(game_id="g"), timeout=DEADLINE))
    assert [e.seq for b in batches for e in b.events] == list(range(6))
    assert all(b.ByteSize() < DEFAULT_CLIENT_LIMIT for b in batches)
    seen, sub = [], stub.Subscribe(pb.SubscribeRequest(from_position=1), timeout=DEADLINE)
    for msg in sub:
        if msg.HasField("caught_up"):
            break
        assert msg.ByteSize() < DEFAULT_CLIENT_LIMIT
        seen += [e.seq for e in msg.events.events]
    sub.cancel()
    assert seen == list(range(6))
    replay = rpb_grpc.ReplayServiceStub(channel)
    for seq in range(6):
        state = replay.GetState(rpb.GetStateRequest(game_id="g", seq=seq), timeout=DEADLINE).state
        assert state.seq == seq and len(json.loads(state.event.event.metadata_json)["note"]) == 1_000_000
    steps = list(replay.StepThrough(rpb.StepThroughRequest(game_id="g", from_seq=0), timeout=DEADLINE))
    assert [s.state.seq for s in steps] == list(range(6))
