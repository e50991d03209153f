"""The log's own streams (docs/events.md "player_aliased"): ``paipu:players`` holds
``player_aliased`` events only and no other ``paipu:`` stream exists — a game event there is
refused wherever a batch is appended (gRPC, the store's API, ingest), with INVALID_ARGUMENT and
ErrorInfo reason LOG_STREAM_REFUSED over gRPC; over gRPC an alias is a referee's Append with an
expected version and the rules of ``paipu players alias``; ``paipu verify`` names an event
stored there before the rule. Bearer tokens: the scheme in any case (RFC 6750 §2.1), and a
value sent but not understood is answered saying so. Real servers on loopback, real SQLite
stores."""

from __future__ import annotations

import json

import grpc
import pytest
from google.protobuf import empty_pb2
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from eventlog.convert import to_proto
from eventlog.events import GameStarted, NewEvent, PlayerAliased, TilesDealt
from eventlog.players import add_alias, read_aliases
from eventlog.store import open_store
from eventlog.store.planning import Batch, EncodedEvent
from eventlog.store.streams import LogStreamRefused
from paipu.v1 import event_log_service_pb2 as pb
from paipu.v1 import event_log_service_pb2_grpc as pb_grpc
from services.server import build_server

DEADLINE = 10.0
TOKENS = {"t-view": "viewer", "t-rec": "recorder", "t-ref": "referee"}


def _ev(payload, seed):
    return to_proto(NewEvent.of(payload, id_seed=seed))


def _alias(alias, player, seed):
    return _ev(PlayerAliased(alias=alias, player=player), seed)


def _info(err: grpc.RpcError) -> tuple[str, dict]:
    """ErrorInfo reason and its ``fields`` JSON of a failed call."""
    for d in rpc_status.from_call(err).details:
        if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            d.Unpack(info)
            return info.reason, json.loads(info.metadata["fields"])
    return "", {}


@pytest.fixture
def server(tmp_path):
    store = open_store(tmp_path / "d")
    srv, port = build_server(store, port=0, tokens=TOKENS)
    srv.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        yield pb_grpc.EventLogServiceStub(channel), store
    finally:
        channel.close()
        srv.stop(None)
        store.close()


def _md(token):
    return [("authorization", f"Bearer {token}")]


def test_only_a_referee_writes_aliases_and_no_one_writes_game_events_there(server):
    stub, store = server
    alias = _alias("Player 1", "Player 0", "a/0")
    with pytest.raises(grpc.RpcError) as exc:  # a recorder appends games, not aliases
        stub.Append(pb.AppendRequest(game_id="paipu:players", no_stream=empty_pb2.Empty(), events=[alias]),
                    metadata=_md("t-rec"), timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert exc.value.details() == "a recorder may not append to the log's own stream 'paipu:players' (needs referee)"
    with pytest.raises(grpc.RpcError) as exc:  # without an expected version two writers could interleave
        stub.Append(pb.AppendRequest(game_id="paipu:players", events=[alias]), metadata=_md("t-ref"),
                    timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert _info(exc.value) == ("LOG_STREAM_REFUSED", {"field": "expected_version", "game_id": "paipu:players",
                                                       "event_type": None})
    got = stub.Append(pb.AppendRequest(game_id="paipu:players", no_stream=empty_pb2.Empty(), events=[alias]),
                      metadata=_md("t-ref"), timeout=DEADLINE)
    assert got.version == 0 and read_aliases(store) == {"Player 1": "Player 0"}
    # the rules of `paipu players alias`: "Player 0" → "Player 1" would close a cycle
    with pytest.raises(grpc.RpcError) as exc:
        stub.Append(pb.AppendRequest(game_id="paipu:players", exact=0,
                                     events=[_alias("Player 0", "Player 1", "a/1")]),
                    metadata=_md("t-ref"), timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert exc.value.details() == "events[0]: 'Player 1' is already an alias of 'Player 0': that would be a cycle"
    # a game event, even a referee's, never goes into the log's stream
    dealt = _ev(TilesDealt(seat=1, tiles=[]), "a/2")
    with pytest.raises(grpc.RpcError) as exc:
        stub.Append(pb.AppendRequest(game_id="paipu:players", exact=0, events=[alias, dealt]),
                    metadata=_md("t-ref"), timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert exc.value.details().startswith("events[1]: a tiles_dealt event cannot be appended to 'paipu:players': "
                                          "it is the log's own stream, not a game")
    assert _info(exc.value) == ("LOG_STREAM_REFUSED", {"field": "events[1]", "game_id": "paipu:players",
                                                       "event_type": "tiles_dealt"})
    with pytest.raises(grpc.RpcError) as exc:  # no other paipu: stream exists
        stub.Append(pb.AppendRequest(game_id="paipu:games", events=[dealt]), metadata=_md("t-ref"),
                    timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert _info(exc.value)[1]["field"] == "game_id"
    with pytest.raises(grpc.RpcError) as exc:  # the bulk path refuses the log's streams altogether
        stub.AppendStream(iter([pb.AppendRequest(game_id="paipu:players", exact=0,
                                                 events=[_alias("Player 2", "Player 0", "a/3")])]),
                          metadata=_md("t-ref"), timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert _info(exc.value) == ("LOG_STREAM_REFUSED", {"field": "requests[0].game_id", "game_id": "paipu:players",
                                                       "event_type": None})
    assert [e.type for e in store.read_game("paipu:players")] == ["player_aliased"]


def test_an_open_server_refuses_game_events_in_the_log_stream(tmp_path):
    store = open_store(tmp_path / "d")
    srv, port = build_server(store, port=0)  # no tokens (the loopback default)
    srv.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.EventLogServiceStub(channel)
            with pytest.raises(grpc.RpcError) as exc:
                stub.Append(pb.AppendRequest(game_id="paipu:players",
                                             events=[_ev(TilesDealt(seat=1, tiles=[]), "o/0")]), timeout=DEADLINE)
            assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert _info(exc.value)[0] == "LOG_STREAM_REFUSED"
    finally:
        srv.stop(None)
        store.close()
    assert open_store(tmp_path / "d").stream_head("paipu:players") is None


def test_the_store_and_ingest_refuse_game_events_in_the_log_stream(tmp_path):
    from cli_run import run as cli

    data = tmp_path / "d"
    with open_store(data) as store:
        with pytest.raises(LogStreamRefused, match=r"^events\[0\]: a game_started event cannot be appended"):
            store.append("paipu:players", [NewEvent.of(GameStarted(ruleset="mcr", players=list("ABCD")))])
        add_alias(store, "Player0", "Player 0")  # the alias path still writes it
    src = tmp_path / "g.jsonl"
    src.write_text(json.dumps({"game_id": "paipu:players", "event_id": "3f0e8a52-5b7c-4d3e-9a41-0c6f2b1d7e01",
                               "type": "game_started", "payload": {"ruleset": "mcr", "players": list("ABCD")}}) + "\n",
                   encoding="utf-8")
    aliases = tmp_path / "a.jsonl"  # even the stream's own events: an imported file holds games
    aliases.write_text(json.dumps({"game_id": "paipu:players", "event_id": "3f0e8a52-5b7c-4d3e-9a41-0c6f2b1d7e31",
                                   "type": "player_aliased", "payload": {"alias": "B", "player": "A"}}) + "\n",
                       encoding="utf-8")
    refused = "game_id 'paipu:players': an imported file holds games, and streams named 'paipu:…' are the log's own"
    for workers in ("0", "1"):  # parsed here, or in a parsing process (sealed batches)
        res = cli("ingest", src, aliases, "--data", data, "--workers", workers)
        assert res.exit_code == 1 and res.stderr.count(refused) == 2, res.stderr
    res = cli("append", "paipu:players", aliases, "--data", data)  # nor `paipu append`: aliases have their rules
    assert res.exit_code == 2 and res.stderr.strip() == (
        "error: 'paipu:players' is the log's own stream, not a game: player aliases are written with "
        "`paipu players alias ALIAS PLAYER`")
    with open_store(data) as store:
        assert [e.type for e in store.read_game("paipu:players")] == ["player_aliased"]
        srv, port = build_server(store, port=0, tokens=TOKENS)  # a recorder's upload: the same refusal
        srv.start()
        try:
            from services.client import EventLogClient

            with EventLogClient(f"127.0.0.1:{port}", timeout=DEADLINE, token="t-rec") as client:
                report = client.ingest_log(aliases)
            assert report.stored == [] and [e.reason for e in report.errors] == [
                refused + " (player aliases are not imported)"]
        finally:
            srv.stop(None)
        assert read_aliases(store) == {"Player0": "Player 0"}


def test_verify_names_game_events_stored_in_the_log_stream(tmp_path):
    """A game event stored in paipu:players before appends were checked (a Batch made without
    the checks of Batch.encode, as before) is reported, the alias map ignores it."""
    from cli_run import run as cli

    data = tmp_path / "d"
    with open_store(data) as store:
        add_alias(store, "Player0", "Player 0")
        stray = EncodedEvent.of(NewEvent.of(TilesDealt(seat=1, tiles=[]), id_seed="s/1"))
        store.append_batch(Batch("paipu:players", 0, (stray,)))
    res = cli("verify", "--data", data, "paipu:players")
    assert res.exit_code == 1
    assert res.stderr.strip() == ("log stream paipu:players: 1 event does not belong there (the log's own stream, "
                                  "not a game, holds player_aliased only): seq 1 tiles_dealt")
    got = json.loads(cli("verify", "--data", data, "--json").stdout)
    assert got["log_streams"][0]["not_belonging"] == [{"seq": 1, "type": "tiles_dealt"}]
    assert got["summary"]["exit_status"] == 1


@pytest.mark.parametrize("value,ok,says", [
    ("bearer t-view", True, ""),
    ("BEARER t-view", True, ""),
    ("Basic t-view", False, "the authorization metadata was sent but not understood (its scheme is not Bearer)"),
    ("Bearer", False, "the authorization metadata was sent but not understood (it has no token after the scheme)"),
])
def test_bearer_scheme_in_any_case_and_a_value_not_understood_is_said(server, value, ok, says):
    stub, _ = server
    if ok:
        assert stub.ListGames(pb.ListGamesRequest(), metadata=[("authorization", value)], timeout=DEADLINE).games == []
        return
    with pytest.raises(grpc.RpcError) as exc:
        stub.ListGames(pb.ListGamesRequest(), metadata=[("authorization", value)], timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert exc.value.details().startswith(says) and "t-view" not in exc.value.details()
    with pytest.raises(grpc.RpcError) as exc:  # nothing sent: the server needs a token
        stub.ListGames(pb.ListGamesRequest(), timeout=DEADLINE)
    assert exc.value.details() == "this server needs a token (authorization: Bearer TOKEN)"


def test_grpc_verify_of_the_log_stream_names_what_does_not_belong(tmp_path):
    """ReplayService.Verify of paipu:players replays nothing (it is no game: it said
    "player_alias_in_game" and "game_not_started"); it names the stray game event."""
    from paipu.v1 import replay_service_pb2 as rpb
    from paipu.v1 import replay_service_pb2_grpc as rpb_grpc

    store = open_store(tmp_path / "d")
    add_alias(store, "Player0", "Player 0")
    srv, port = build_server(store, port=0)
    srv.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = rpb_grpc.ReplayServiceStub(channel)
            got = stub.Verify(rpb.VerifyRequest(game_id="paipu:players"), timeout=DEADLINE)
            assert got.ok and got.chain.ok and got.audit.events == 1 and list(got.audit.findings) == []
            stray = EncodedEvent.of(NewEvent.of(TilesDealt(seat=1, tiles=[]), id_seed="s/1"))
            store.append_batch(Batch("paipu:players", 0, (stray,)))  # as stored before the rule
            got = stub.Verify(rpb.VerifyRequest(game_id="paipu:players"), timeout=DEADLINE)
            assert not got.ok and got.chain.ok
            assert [(f.seq, f.rule_id, f.message) for f in got.audit.findings] == [
                (1, "event_not_in_log_stream", "a tiles_dealt event does not belong in paipu:players: the log's own "
                                               "stream, not a game, holds player_aliased only")]
            with pytest.raises(grpc.RpcError) as exc:
                stub.Verify(rpb.VerifyRequest(game_id="paipu:players", as_ruleset="mcr"), timeout=DEADLINE)
            assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    finally:
        srv.stop(None)
        store.close()
