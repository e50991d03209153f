"""The services' bounds, error statuses and server logs (issue 12 items 6-7, issue 13 item 4),
on a real server on a free loopback port over a real SQLite store."""

from __future__ import annotations

import json
import logging

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from eventlog.errors import InvalidArgument, PaipuError
from eventlog.events import GameStarted, NewEvent
from eventlog.store import open_store
from eventlog.store.base import NO_STREAM, GameNotFound, WrongExpectedVersion
from paipu.v1 import event_log_service_pb2 as pb
from paipu.v1 import event_log_service_pb2_grpc as pb_grpc
from paipu.v1 import events_pb2, ingest_service_pb2, ingest_service_pb2_grpc, replay_service_pb2, replay_service_pb2_grpc
from services.auth import METHOD_ROLES
from services.client import EventLogClient, RemoteError
from services.server import build_server

DEADLINE = 10.0  # seconds; only reached when something is broken
#: gRPC refuses trailers beyond 16 KiB; every status we send must stay far below.
TRAILER_LIMIT = 16 * 1024
TOO_BIG = 2**63  # one past the largest signed 64-bit integer


@pytest.fixture
def store(tmp_path):
    s = open_store(tmp_path / "data")
    yield s
    s.close()


def _serve(store, **kw):
    srv, port = build_server(store, port=0, poll_interval=0.02, **kw)
    srv.start()
    return srv, f"127.0.0.1:{port}"


@pytest.fixture
def server(store):
    srv, target = _serve(store)
    yield target
    srv.stop(None)


@pytest.fixture
def channel(server):
    ch = grpc.insecure_channel(server)
    yield ch
    ch.close()


def _game(store, game_id: str = "g1") -> None:
    store.append(game_id, [NewEvent.of(GameStarted(ruleset="mcr", players=["a", "b", "c", "d"], source="t"),
                                       id_seed=f"{game_id}/0")], NO_STREAM)


def _bad_request_field(err: grpc.RpcError) -> str:
    for any_ in rpc_status.from_call(err).details:
        if any_.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            br = error_details_pb2.BadRequest()
            any_.Unpack(br)
            return br.field_violations[0].field
    raise AssertionError("no BadRequest in the status")


@pytest.mark.parametrize("call, field", [
    (lambda ch: list(pb_grpc.EventLogServiceStub(ch).ReadGame(
        pb.ReadGameRequest(game_id="g1", from_seq=TOO_BIG), timeout=DEADLINE)), "from_seq"),
    (lambda ch: list(pb_grpc.EventLogServiceStub(ch).ReadGame(
        pb.ReadGameRequest(game_id="g1", limit=2**64 - 1), timeout=DEADLINE)), "limit"),
    (lambda ch: list(pb_grpc.EventLogServiceStub(ch).Subscribe(
        pb.SubscribeRequest(from_position=TOO_BIG), timeout=DEADLINE)), "from_position"),
    (lambda ch: replay_service_pb2_grpc.ReplayServiceStub(ch).GetState(
        replay_service_pb2.GetStateRequest(game_id="g1", seq=TOO_BIG), timeout=DEADLINE), "seq"),
    (lambda ch: list(replay_service_pb2_grpc.ReplayServiceStub(ch).StepThrough(
        replay_service_pb2.StepThroughRequest(game_id="g1", from_seq=0, to_seq=2**64 - 1), timeout=DEADLINE)),
     "to_seq"),
    (lambda ch: pb_grpc.EventLogServiceStub(ch).Append(pb.AppendRequest(game_id="g1", events=[events_pb2.Event(
        event_id="00000000-0000-4000-8000-0000000000aa",
        pung=events_pb2.Pung(seat=1, tile="J1", discard_seq=TOO_BIG))]), timeout=DEADLINE),
     "events[0].pung.discard_seq"),
])
def test_every_uint64_beyond_int64_is_invalid_argument_naming_the_field(store, channel, call, field):
    _game(store)
    with pytest.raises(grpc.RpcError) as exc:
        call(channel)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT, exc.value.details()
    assert _bad_request_field(exc.value) == field
    assert str(TOO_BIG) in exc.value.details() or str(2**64 - 1) in exc.value.details()


def test_a_huge_id_is_refused_with_a_bounded_status(channel):
    huge = "x" * 70_000
    stub = pb_grpc.EventLogServiceStub(channel)
    for call in (
        lambda: list(stub.ReadGame(pb.ReadGameRequest(game_id=huge), timeout=DEADLINE)),
        lambda: stub.Append(pb.AppendRequest(game_id=huge, events=[events_pb2.Event(
            event_id="00000000-0000-4000-8000-0000000000aa",
            game_started=events_pb2.GameStarted(ruleset="mcr", players=["a", "b", "c", "d"]))]), timeout=DEADLINE),
        lambda: replay_service_pb2_grpc.ReplayServiceStub(channel).Verify(
            replay_service_pb2.VerifyRequest(game_id=huge), timeout=DEADLINE),
    ):
        with pytest.raises(grpc.RpcError) as exc:
            call()
        assert exc.value.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND), exc.value.details()
        trailers = sum(len(k) + len(v) for k, v in exc.value.trailing_metadata())
        assert trailers < TRAILER_LIMIT // 2 and len(exc.value.details()) <= 1024


def test_deeply_nested_metadata_is_invalid_argument(channel):
    deep = "[" * 5000 + "]" * 5000
    msg = events_pb2.Event(event_id="00000000-0000-4000-8000-0000000000aa",
                           metadata_json='{"a":' + deep + "}",
                           game_started=events_pb2.GameStarted(ruleset="mcr", players=["a", "b", "c", "d"]))
    with pytest.raises(grpc.RpcError) as exc:
        pb_grpc.EventLogServiceStub(channel).Append(pb.AppendRequest(game_id="g1", events=[msg]), timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert _bad_request_field(exc.value) == "events[0].metadata"


def test_the_client_rebuilds_the_servers_exception_class_and_fields(store, server):
    _game(store)
    with EventLogClient(server) as client:
        with pytest.raises(WrongExpectedVersion) as exc:
            client.append("g1", [NewEvent.of(GameStarted(ruleset="mcr", players=["a", "b", "c", "d"], source="t"),
                                             id_seed="other")], expected_version=5)
        assert (exc.value.game_id, exc.value.expected, exc.value.current) == ("g1", 5, 0)
        assert str(exc.value) == "game 'g1': expected version 5, but the stream is at version 0"
        with pytest.raises(GameNotFound) as nf:
            client.read_game("nope")
        assert nf.value.game_id == "nope" and isinstance(nf.value, PaipuError)
        with pytest.raises(InvalidArgument) as bad:
            client.read_game("g1", from_seq=TOO_BIG)
        assert bad.value.field == "from_seq"


def test_every_method_of_the_paipu_services_has_an_access_rule():
    from paipu.v1 import event_log_service_pb2, ingest_service_pb2 as ing, replay_service_pb2 as rep
    from paipu.v1 import tournament_service_pb2 as tour

    methods = {f"/{s.full_name}/{m.name}" for mod in (event_log_service_pb2, ing, rep, tour)
               for s in mod.DESCRIPTOR.services_by_name.values() for m in s.methods}
    assert methods == set(METHOD_ROLES)
    assert ingest_service_pb2.DESCRIPTOR.services_by_name["IngestService"]


def test_an_unexpected_exception_is_logged_with_a_request_id(store, caplog):
    class Broken:
        """A store whose list_games fails the way a bug would."""

        def __getattr__(self, name):
            return getattr(store, name)

        def list_games(self, **page):
            raise KeyError("boom")

    srv, target = _serve(Broken())
    try:
        with caplog.at_level(logging.ERROR, logger="paipu.serve"), grpc.insecure_channel(target) as ch:
            with pytest.raises(grpc.RpcError) as exc:
                pb_grpc.EventLogServiceStub(ch).ListGames(pb.ListGamesRequest(), timeout=DEADLINE)
    finally:
        srv.stop(None)
    assert exc.value.code() == grpc.StatusCode.INTERNAL
    rid = exc.value.details().split("(request ", 1)[1].split(")", 1)[0]
    [record] = [r for r in caplog.records if r.name == "paipu.serve"]
    assert rid in record.getMessage() and "ListGames" in record.getMessage()
    assert record.exc_info is not None and record.exc_info[0] is KeyError
    with pytest.raises(RemoteError):  # a server-side failure stays a RemoteError for clients
        with EventLogClient(target, timeout=2) as client:
            client.list_games()


def test_access_logs_are_one_json_line_per_call(store, caplog):
    _game(store)
    srv, target = _serve(store, access_log=True)
    try:
        with caplog.at_level(logging.INFO, logger="paipu.access"), grpc.insecure_channel(target) as ch:
            stub = pb_grpc.EventLogServiceStub(ch)
            stub.ListGames(pb.ListGamesRequest(), timeout=DEADLINE)
            with pytest.raises(grpc.RpcError):
                list(stub.ReadGame(pb.ReadGameRequest(game_id="nope"), timeout=DEADLINE))
    finally:
        srv.stop(None)
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "paipu.access"]
    assert [(x["method"].rsplit("/", 1)[1], x["code"]) for x in lines] == [("ListGames", "OK"), ("ReadGame", "NOT_FOUND")]
    assert all(set(x) == {"request_id", "method", "peer", "code", "ms"} for x in lines)
    assert lines[0]["request_id"] != lines[1]["request_id"]


#: What a gRPC client accepts in trailers by default (grpc.max_metadata_size): beyond it the
#: client sees RESOURCE_EXHAUSTED instead of the server's status.
CLIENT_METADATA_LIMIT = 8 * 1024


@pytest.mark.parametrize("huge", ["中" * 70_000, "\x00" * 70_000, "%" * 70_000, "😀" * 20_000, '"' * 70_000],
                         ids=["cjk", "nul", "percent", "emoji", "quote"])
def test_a_huge_id_of_any_characters_keeps_the_status_within_the_clients_limit(channel, huge):
    """Issue 12 item 6: statuses were clipped by characters, but grpc-message percent-encodes
    every non-ASCII byte (a CJK character costs 9 bytes there): a 5,000-character CJK id made
    13 KiB of trailers and the client saw RESOURCE_EXHAUSTED instead of NOT_FOUND."""
    stub = pb_grpc.EventLogServiceStub(channel)
    replay = replay_service_pb2_grpc.ReplayServiceStub(channel)
    for call in (
        lambda: list(stub.ReadGame(pb.ReadGameRequest(game_id=huge), timeout=DEADLINE)),
        lambda: replay.Verify(replay_service_pb2.VerifyRequest(game_id=huge), timeout=DEADLINE),
        lambda: replay.GetState(replay_service_pb2.GetStateRequest(game_id=huge, seq=3), timeout=DEADLINE),
    ):
        with pytest.raises(grpc.RpcError) as exc:
            call()
        assert exc.value.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND), exc.value.details()
        trailers = sum(len(k) + len(v) for k, v in exc.value.trailing_metadata())
        assert trailers < CLIENT_METADATA_LIMIT * 3 // 4


@pytest.mark.parametrize("name", ["x" * 256, "中" * 100, "a/" + "b" * 300, "[" * 100_000],
                         ids=["ascii", "cjk", "last-component", "brackets"])
def test_an_upload_with_a_file_name_too_long_for_a_file_is_invalid_argument(channel, name):
    """Issue 12 items 5-7: IngestLog spooled the upload under the client's file name and a
    name past NAME_MAX failed with OSError (INTERNAL, "File name too long")."""
    stub = ingest_service_pb2_grpc.IngestServiceStub(channel)
    msgs = [ingest_service_pb2.IngestLogRequest(header=ingest_service_pb2.IngestLogHeader(file_name=name)),
            ingest_service_pb2.IngestLogRequest(chunk=b"Match 1\n")]
    with pytest.raises(grpc.RpcError) as exc:
        stub.IngestLog(iter(msgs), timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT, exc.value.details()
    assert _bad_request_field(exc.value) == "header.file_name" and "255" in exc.value.details()


def _every_field_walk(msg) -> str | None:
    """The bound check's definition: walk every set field (a stack of messages, each one's
    own fields by number, then the messages inside it from the last); the first unsigned
    64-bit value beyond int64 names its field."""
    from google.protobuf.descriptor import FieldDescriptor

    stack = [("", msg)]
    while stack:
        prefix, m = stack.pop()
        for fd, value in m.ListFields():
            path = prefix + fd.name
            repeated = fd.is_repeated
            if fd.type == FieldDescriptor.TYPE_MESSAGE:
                if repeated:
                    stack.extend((f"{path}[{i}].", sub) for i, sub in enumerate(value))
                else:
                    stack.append((path + ".", value))
            elif fd.type in (FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED64):
                for i, v in enumerate(value if repeated else (value,)):
                    if v >= TOO_BIG:
                        return f"{path}[{i}]" if repeated else path
    return None


def test_the_planned_bound_check_names_the_field_the_walk_over_every_field_names():
    """services/limits.check_request reads only the fields that lead to an unsigned 64-bit
    one (issue 19: the append path); requests with bad values here and there, several at
    once, are refused naming the same field as the plain walk."""
    import random

    from services.limits import check_request
    from services.status import BadArgument

    rnd = random.Random(19)
    for _ in range(400):
        request = pb.AppendRequest(game_id="g")
        for _ in range(rnd.randrange(0, 5)):
            ev = request.events.add()
            bound = rnd.choice([1, TOO_BIG, 2**64 - 1])
            kind = rnd.randrange(6)
            if kind == 0:
                ev.chow.discard_seq = bound
            elif kind == 1:
                ev.kong.discard_seq = bound
            elif kind == 2:
                ev.referee_ruling.ref_seq = bound
            elif kind == 3:
                ev.tile_drawn.seat = 2
            elif kind == 4:
                getattr(ev, "pass").discard_seq = bound
            else:
                ev.win_declared.discard_seq = bound
        for msg in (request, pb.ReadGameRequest(game_id="x", from_seq=rnd.choice([0, TOO_BIG]),
                                                limit=rnd.choice([0, TOO_BIG]))):
            expected = _every_field_walk(msg)
            try:
                check_request(msg)
                found = None
            except BadArgument as e:
                found = e.field
                assert str(e).startswith(f"{found} must be at most 2^63-1")
            assert found == expected, msg
