"""EventLogService over a real SQLite store, on a real server on a free loopback port.

Status codes are asserted on the raw stub (the contract), and again through
services.client (the store's exceptions come back). Streams that wait for something use a
deadline, so a missing message fails the test instead of hanging it.
"""

from __future__ import annotations

import json

import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)
from grpc_status import rpc_status

from services.client import EventLogClient, RemoteError, error_from_rpc
from eventlog.convert import from_proto, to_proto
from eventlog.events import (
    GENESIS_HASH,
    EventError,
    GameStarted,
    HandStarted,
    NewEvent,
    Pung,
    RefereeRuling,
    TileDiscarded,
    TileDrawn,
    TilesDealt,
    expected_hash,
    parse_payload,
)
from services.server import SERVICE_NAME, build_server, load_tokens
from eventlog.store import open_store
from eventlog.store.base import (
    NO_STREAM,
    CaughtUp,
    CorruptEvent,
    GameNotFound,
    IdempotencyConflict,
    StreamAlreadyExists,
    WrongExpectedVersion,
)
from paipu.v1 import event_log_service_pb2 as pb
from paipu.v1 import event_log_service_pb2_grpc as pb_grpc
from paipu.v1 import events_pb2

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 10.0  # seconds; only ever reached when something is broken


def opening(game: str) -> list[NewEvent]:
    """The first events of an MCR game: start, hand, deals, a draw, a discard and a pung."""
    payloads = [
        GameStarted(ruleset="mcr", players=["East", "South", "West", "North"], source="test"),
        HandStarted(hand_number=0, prevalent_wind="F1", dealer=0, dice=[3, 4]),
        TilesDealt(seat=0, tiles=["W1", "W2", "W3", "T5", "T5", "B7", "B8", "B9", "F1", "F1", "J1", "J2", "J3"]),
        TilesDealt(seat=1, tiles=["W4", "W5", "W6", "T1", "T2", "T3", "B1", "B1", "F2", "F3", "F4", "J1", "J1"]),
        TileDrawn(seat=0, tile="J1"),
        TileDiscarded(seat=0, tile="J1"),
        Pung(seat=1, tile="J1", discard_seq=5),
    ]
    return [
        NewEvent.of(p, id_seed=f"{game}/{i}", metadata={"source": "test", "line": i + 1})
        for i, p in enumerate(payloads)
    ]


@pytest.fixture
def store(tmp_path):
    s = open_store(tmp_path / "data")
    yield s
    s.close()


@pytest.fixture
def server(store):
    srv, port = build_server(store, port=0, poll_interval=0.02)
    srv.start()
    yield f"127.0.0.1:{port}"
    srv.stop(None)


@pytest.fixture
def channel(server):
    ch = grpc.insecure_channel(server)
    yield ch
    ch.close()


@pytest.fixture
def stub(channel):
    return pb_grpc.EventLogServiceStub(channel)


@pytest.fixture
def client(server):
    with EventLogClient(server, timeout=DEADLINE) as c:
        yield c


def _append(stub, game, events, **expected) -> pb.AppendResponse:
    return stub.Append(
        pb.AppendRequest(game_id=game, events=[to_proto(e) for e in events], **expected), timeout=DEADLINE
    )


def _error_info(err: grpc.RpcError) -> error_details_pb2.ErrorInfo:
    status = rpc_status.from_call(err)
    assert status is not None, "no rich status"
    (detail,) = status.details
    info = error_details_pb2.ErrorInfo()
    assert detail.Unpack(info)
    assert info.domain == "paipu.v1"
    return info


# ----------------------------------------------------------------------------- append / read
def test_append_then_read_back_is_identical(stub, store) -> None:
    events = opening("g1")
    res = _append(stub, "g1", events, no_stream={})
    assert (res.first_seq, res.last_seq, res.first_position, res.last_position) == (0, 6, 1, 7)
    assert (res.version, res.duplicate) == (6, False)

    got = [e for m in stub.ReadGame(pb.ReadGameRequest(game_id="g1"), timeout=DEADLINE) for e in m.events]
    assert [e.seq for e in got] == list(range(7))
    assert [e.position for e in got] == list(range(1, 8))
    # what was appended comes back field for field (the store keeps JSON objects with
    # sorted keys, so compare them as objects, not as text)
    assert [from_proto(e.event) for e in got] == events
    # and is what the store holds, hash chain included
    assert got == [to_proto(e) for e in store.read_game("g1")]
    assert got[0].prev_hash == GENESIS_HASH
    assert all(b.prev_hash == a.hash for a, b in zip(got, got[1:]))


def test_client_round_trip_and_idempotent_retry(client, store) -> None:
    events = opening("g1")
    first = client.append("g1", events, NO_STREAM)
    again = client.append("g1", events, NO_STREAM)  # a retry after a lost acknowledgement
    assert again.duplicate and not first.duplicate
    assert (again.first_seq, again.last_seq, again.first_position, again.last_position) == (0, 6, 1, 7)
    assert store.head_position() == 7

    read = list(client.read_game("g1"))
    assert [e.event_id for e in read] == [e.event_id for e in events]
    assert [e.payload for e in read] == [e.payload for e in events]
    assert [e.metadata for e in read] == [e.metadata for e in events]
    assert all(expected_hash(e) == e.hash for e in read)
    assert client.version("g1") == 6
    assert client.version("nope") == -1


def test_read_game_backward_from_and_limit(client) -> None:
    client.append("g1", opening("g1"))
    assert [e.seq for e in client.read_game("g1", from_seq=4)] == [4, 5, 6]
    assert [e.seq for e in client.read_game("g1", from_seq=-1, backward=True, limit=3)] == [6, 5, 4]
    assert [e.seq for e in client.read_game("g1", from_seq=2, backward=True)] == [2, 1, 0]
    assert [e.seq for e in client.read_game("g1", from_seq=1, limit=2)] == [1, 2]


def test_list_games_in_first_position_order(client) -> None:
    client.append("b", opening("b"))
    client.append("a", [NewEvent.of(TileDrawn(seat=2), id_seed="a/0")])
    client.append("b", [NewEvent.of(TileDrawn(seat=2), id_seed="b/7")], expected_version=6)
    games = client.list_games()
    assert [(g.game_id, g.version, g.event_count, g.first_position, g.last_position, g.ruleset) for g in games] == [
        ("b", 7, 8, 1, 9, "mcr"),
        ("a", 0, 1, 8, 8, None),
    ]


# ----------------------------------------------------------------------------- status codes
def test_wrong_expected_version_is_aborted_with_the_current_version(stub, client) -> None:
    _append(stub, "g1", opening("g1"))  # version 6
    extra = [NewEvent.of(TileDrawn(seat=1), id_seed="g1/extra")]
    with pytest.raises(grpc.RpcError) as exc:
        _append(stub, "g1", extra, exact=3)
    assert exc.value.code() == grpc.StatusCode.ABORTED
    info = _error_info(exc.value)
    assert info.reason == "WRONG_EXPECTED_VERSION"
    metadata = dict(info.metadata)
    assert json.loads(metadata.pop("fields")) == {"game_id": "g1", "expected": 3, "current": 6}
    assert metadata == {"game_id": "g1", "expected_version": "3", "current_version": "6"}

    with pytest.raises(WrongExpectedVersion) as wev:
        client.append("g1", extra, expected_version=3)
    assert (wev.value.game_id, wev.value.expected, wev.value.current) == ("g1", 3, 6)
    assert not isinstance(wev.value, StreamAlreadyExists)


def test_no_stream_on_an_existing_game_is_already_exists(stub, client) -> None:
    _append(stub, "g1", opening("g1"))
    extra = [NewEvent.of(TileDrawn(seat=1), id_seed="g1/extra")]
    with pytest.raises(grpc.RpcError) as exc:
        _append(stub, "g1", extra, no_stream={})
    assert exc.value.code() == grpc.StatusCode.ALREADY_EXISTS
    assert _error_info(exc.value).metadata["current_version"] == "6"
    with pytest.raises(StreamAlreadyExists) as sae:
        client.append("g1", extra, expected_version=NO_STREAM)
    assert sae.value.current == 6


def test_malformed_event_is_invalid_argument_naming_the_field(stub, store) -> None:
    good = to_proto(opening("g1")[0])
    bad = events_pb2.Event(
        event_id="00000000-0000-4000-8000-0000000000aa",
        tile_discarded=events_pb2.TileDiscarded(seat=7, tile="W1"),  # seats are 0..3
    )
    with pytest.raises(grpc.RpcError) as exc:
        stub.Append(pb.AppendRequest(game_id="g1", events=[good, bad]), timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    status = rpc_status.from_call(exc.value)
    br = error_details_pb2.BadRequest()
    assert status.details[0].Unpack(br)
    assert [v.field for v in br.field_violations] == ["events[1].payload.seat"]
    assert store.version("g1") == -1  # all or nothing

    mapped = error_from_rpc(exc.value)
    assert isinstance(mapped, EventError) and mapped.field == "events[1].payload.seat"


def test_empty_batch_and_bad_game_id_are_invalid_argument(stub) -> None:
    for request, field in [
        (pb.AppendRequest(game_id="g1"), "events"),
        (pb.AppendRequest(game_id="", events=[to_proto(opening("g")[0])]), "game_id"),
    ]:
        with pytest.raises(grpc.RpcError) as exc:
            stub.Append(request, timeout=DEADLINE)
        assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        br = error_details_pb2.BadRequest()
        rpc_status.from_call(exc.value).details[0].Unpack(br)
        assert br.field_violations[0].field == field


def test_unknown_game_is_not_found(stub, client) -> None:
    with pytest.raises(grpc.RpcError) as exc:
        list(stub.ReadGame(pb.ReadGameRequest(game_id="nope"), timeout=DEADLINE))
    assert exc.value.code() == grpc.StatusCode.NOT_FOUND
    assert _error_info(exc.value).metadata["game_id"] == "nope"
    with pytest.raises(GameNotFound):
        client.read_game("nope")  # raised at call time, as the store does


def test_partly_overlapping_retry_is_failed_precondition(stub, client) -> None:
    events = opening("g1")
    _append(stub, "g1", events[:3])
    with pytest.raises(grpc.RpcError) as exc:
        _append(stub, "g1", events[2:5])  # events[2] stored, 3 and 4 new
    assert exc.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    info = _error_info(exc.value)
    assert info.reason == "IDEMPOTENCY_CONFLICT" and info.metadata["event_id"] == events[2].event_id
    with pytest.raises(IdempotencyConflict) as ic:
        client.append("g1", events[2:5])
    assert ic.value.event_id == events[2].event_id


def test_tampered_event_is_data_loss_never_served(tmp_path, store, stub, client) -> None:
    client.append("g1", opening("g1"))
    # an edit behind the log's back: the SQLite file itself, triggers removed first
    db = sqlite3.connect(tmp_path / "data" / "events.sqlite")
    with db:
        db.execute("DROP TRIGGER events_no_update")
        db.execute("""UPDATE events SET payload = replace(payload, '"J1"', '"J2"') WHERE seq = 5""")
    db.close()
    with pytest.raises(grpc.RpcError) as exc:
        list(stub.ReadGame(pb.ReadGameRequest(game_id="g1"), timeout=DEADLINE))
    assert exc.value.code() == grpc.StatusCode.DATA_LOSS
    metadata = dict(_error_info(exc.value).metadata)
    assert json.loads(metadata.pop("fields"))["seq"] == 5 and metadata.pop("reason").startswith("hash mismatch")
    assert metadata == {"game_id": "g1", "seq": "5", "position": "6"}
    with pytest.raises(CorruptEvent) as ce:
        list(client.read_game("g1"))
    assert (ce.value.game_id, ce.value.seq, ce.value.position) == ("g1", 5, 6)
    assert "hash mismatch" in ce.value.reason


def test_a_deleted_event_is_data_loss_for_every_read_rpc(tmp_path, store, stub, channel, client) -> None:
    """Issue 12 item 2: a hole (one row deleted behind the log's back) is DATA_LOSS for
    ReadGame, Subscribe and the replay service, never a shorter game."""
    from paipu.v1 import replay_service_pb2 as rpb
    from paipu.v1 import replay_service_pb2_grpc as rpb_grpc

    client.append("g1", opening("g1"))
    db = sqlite3.connect(tmp_path / "data" / "events.sqlite")
    with db:
        db.execute("DROP TRIGGER events_no_delete")
        db.execute("DELETE FROM events WHERE seq = 5")
    db.close()
    with pytest.raises(grpc.RpcError) as exc:
        list(stub.ReadGame(pb.ReadGameRequest(game_id="g1"), timeout=DEADLINE))
    assert exc.value.code() == grpc.StatusCode.DATA_LOSS and "seq 5 is missing" in exc.value.details()
    with pytest.raises(grpc.RpcError) as exc:
        for _ in stub.Subscribe(pb.SubscribeRequest(from_position=1), timeout=DEADLINE):
            pass
    assert exc.value.code() == grpc.StatusCode.DATA_LOSS and "position 6 is missing" in exc.value.details()
    replay = rpb_grpc.ReplayServiceStub(channel)
    with pytest.raises(grpc.RpcError) as exc:
        replay.GetState(rpb.GetStateRequest(game_id="g1", seq=5), timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.DATA_LOSS


def test_positions_beyond_64_bits_and_past_the_end_are_invalid_arguments(store, stub, client) -> None:
    client.append("g1", opening("g1"))
    for position in (2**63, 2**64 - 1, 999_999_999):
        with pytest.raises(grpc.RpcError) as exc:
            next(iter(stub.Subscribe(pb.SubscribeRequest(from_position=position), timeout=DEADLINE)))
        assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT, position
        assert len(exc.value.details()) < 300
    with pytest.raises(grpc.RpcError) as exc:
        list(stub.ReadGame(pb.ReadGameRequest(game_id="g1", from_seq=2**63), timeout=DEADLINE))
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_stored_value_beyond_the_contract_is_served_as_stored_json(store, client) -> None:
    # JSON has no integer limit, the contract has 64 bits: a local append is refused beyond the
    # documented ranges (docs/events.md "Number ranges"); one a log stored before is served,
    # its payload as the stored JSON text (RecordedEvent.stored_payload_json)
    with pytest.raises(EventError):
        parse_payload("penalty", {"seat": 0, "score_changes": [2**70, 0, 0, 0]})
    old = parse_payload("penalty", {"seat": 0, "score_changes": [2**70, 0, 0, 0]}, stored=True)
    store.append("big", [NewEvent.of(old, id_seed="big/0")])
    (got,) = list(client.read_game("big"))
    assert got.payload.score_changes == [2**70, 0, 0, 0] and got == next(iter(store.read_game("big")))


# ----------------------------------------------------------------------------- subscribe
def test_subscribe_delivers_history_then_caught_up_then_live(stub, client) -> None:
    client.append("g1", opening("g1"))  # positions 1..7
    call = stub.Subscribe(pb.SubscribeRequest(from_position=3), timeout=DEADLINE)
    history = []
    for msg in call:
        if msg.WhichOneof("content") == "caught_up":
            assert msg.caught_up.position == 7
            break
        assert len(msg.events.events) >= 1
        history.extend(msg.events.events)
    assert [e.position for e in history] == [3, 4, 5, 6, 7]

    live = [NewEvent.of(TileDrawn(seat=1, tile="B2"), id_seed="g2/0")]
    threading.Thread(target=client.append, args=("g2", live)).start()
    msg = next(call)
    assert msg.WhichOneof("content") == "events"
    (ev,) = msg.events.events
    assert (ev.game_id, ev.seq, ev.position) == ("g2", 0, 8)
    assert from_proto(ev.event) == live[0]
    call.cancel()
    with pytest.raises(grpc.RpcError) as exc:
        next(call)
    assert exc.value.code() == grpc.StatusCode.CANCELLED


def test_long_history_arrives_in_batches_in_order(client, store) -> None:
    # more than one batch (BATCH_EVENTS = 256) of history, then the marker
    events = [NewEvent.of(TileDrawn(seat=i % 4), id_seed=f"long/{i}") for i in range(600)]
    client.append("long", events)
    read = list(client.read_game("long"))
    assert [e.seq for e in read] == list(range(600))
    stop = threading.Event()
    positions = []
    for item in client.subscribe(1, stop=stop):
        if isinstance(item, CaughtUp):
            assert item.position == 600
            stop.set()
        else:
            positions.append(item.position)
    assert positions == list(range(1, 601))
    assert [e.seq for e in client.read_game("long", from_seq=-1, backward=True)] == list(range(599, -1, -1))


def test_client_subscribe_until_stop(client) -> None:
    stop = threading.Event()
    seen = []
    for item in client.subscribe(1, stop=stop):
        seen.append(item)
        if isinstance(item, CaughtUp):
            client.append("g1", opening("g1")[:2])
        elif item.seq == 1:
            stop.set()
    assert seen[0] == CaughtUp(0)
    assert [(e.game_id, e.seq, e.position) for e in seen[1:]] == [("g1", 0, 1), ("g1", 1, 2)]


def test_server_stop_ends_subscriptions_with_unavailable(store) -> None:
    srv, port = build_server(store, port=0, poll_interval=0.02)
    srv.start()
    with EventLogClient(f"127.0.0.1:{port}") as c:
        it = c.subscribe(1)
        assert next(it) == CaughtUp(0)
        srv.stop(DEADLINE)
        with pytest.raises(RemoteError) as exc:
            next(it)
        assert exc.value.code == grpc.StatusCode.UNAVAILABLE


# ----------------------------------------------------------------------------- access control
def test_tokens_and_roles(tmp_path, store) -> None:
    token_file = tmp_path / "tokens.txt"
    token_file.write_text("# role token\nviewer t-view\nrecorder t-rec\n\nreferee t-ref  # head referee\n")
    tokens = load_tokens(token_file)
    assert tokens == {"t-view": "viewer", "t-rec": "recorder", "t-ref": "referee"}
    srv, port = build_server(store, port=0, tokens=tokens)
    srv.start()
    target = f"127.0.0.1:{port}"
    ruling = [NewEvent.of(RefereeRuling(ref_seq=5, ruling="discard stands"), id_seed="g1/ruling")]
    try:
        def code_of(fn) -> grpc.StatusCode:
            with pytest.raises(RemoteError) as exc:
                fn()
            return exc.value.code

        with EventLogClient(target, timeout=DEADLINE) as anon:
            assert anon.health() == "SERVING"  # health stays open
            assert code_of(anon.list_games) == grpc.StatusCode.UNAUTHENTICATED
        with EventLogClient(target, timeout=DEADLINE, token="t-wrong") as wrong:
            assert code_of(wrong.list_games) == grpc.StatusCode.UNAUTHENTICATED
        with EventLogClient(target, timeout=DEADLINE, token="t-view") as viewer:
            assert viewer.list_games() == []
            assert code_of(lambda: viewer.append("g1", opening("g1"))) == grpc.StatusCode.PERMISSION_DENIED
        with EventLogClient(target, timeout=DEADLINE, token="t-rec") as recorder:
            assert recorder.append("g1", opening("g1")).last_seq == 6
            assert code_of(lambda: recorder.append("g1", ruling)) == grpc.StatusCode.PERMISSION_DENIED
        with EventLogClient(target, timeout=DEADLINE, token="t-ref") as referee:
            assert referee.append("g1", ruling).last_seq == 7
            assert [e.type for e in referee.read_game("g1", from_seq=7)] == ["referee_ruling"]
    finally:
        srv.stop(None)


def test_bad_token_file_names_the_line(tmp_path) -> None:
    f = tmp_path / "tokens.txt"
    f.write_text("viewer a\nadmin b\n")
    with pytest.raises(ValueError, match=r"tokens.txt:2:"):
        load_tokens(f)


# ----------------------------------------------------------------------------- health, reflection
def test_health_is_serving(channel, client) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", SERVICE_NAME):
        res = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=DEADLINE)
        assert res.status == health_pb2.HealthCheckResponse.SERVING
    assert client.health() == "SERVING"


def test_reflection_lists_and_describes_the_service(channel) -> None:
    db = ProtoReflectionDescriptorDatabase(channel)
    assert "paipu.v1.EventLogService" in db.get_services()
    from google.protobuf.descriptor_pool import DescriptorPool

    svc = DescriptorPool(db).FindServiceByName("paipu.v1.EventLogService")
    assert [m.name for m in svc.methods] == ["Append", "AppendStream", "ReadGame", "ListGames", "Subscribe"]


# ----------------------------------------------------------------------------- serve()
def test_serve_runs_until_sigterm_and_keeps_the_data(tmp_path) -> None:
    data = tmp_path / "data"
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from services.server import serve; serve(sys.argv[1], port=0, create=True)", str(data)],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        line = proc.stderr.readline()
        m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        assert m, line
        with EventLogClient(f"127.0.0.1:{m.group(1)}", timeout=DEADLINE) as c:
            assert c.health() == "SERVING"
            c.append("g1", opening("g1"), NO_STREAM)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        assert "stopped" in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    with open_store(data) as s:
        assert [e.seq for e in s.read_game("g1")] == list(range(7))
