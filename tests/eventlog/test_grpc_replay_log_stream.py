"""ReplayService GetState, StepThrough and Review of the log's own stream ``paipu:players``
(docs/events.md "player_aliased": the log's stream of player aliases, never a game) are refused
with INVALID_ARGUMENT naming ``game_id`` and saying what the stream is — they replayed the
aliases as if they were a game. Real server on loopback, real SQLite store."""

from __future__ import annotations

import grpc
import pytest

from eventlog.players import add_alias
from eventlog.store import open_store
from paipu.v1 import replay_service_pb2 as rpb
from paipu.v1 import replay_service_pb2_grpc as rpb_grpc
from services.server import build_server
from tests.eventlog.test_grpc_ingest_replay import bad_request_field

DEADLINE = 10.0
SAYS = "'paipu:players' is the log's stream of player aliases (player_aliased events), not a game"


@pytest.fixture
def stub(tmp_path):
    store = open_store(tmp_path / "d")
    add_alias(store, "Player0", "Player 0")
    srv, port = build_server(store, port=0)
    srv.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        yield rpb_grpc.ReplayServiceStub(channel)
    finally:
        channel.close()
        srv.stop(None)
        store.close()


@pytest.mark.parametrize("call", [
    lambda s: s.GetState(rpb.GetStateRequest(game_id="paipu:players", seq=0), timeout=DEADLINE),
    lambda s: list(s.StepThrough(rpb.StepThroughRequest(game_id="paipu:players", from_seq=0), timeout=DEADLINE)),
    lambda s: s.Review(rpb.ReviewRequest(game_id="paipu:players"), timeout=DEADLINE),
], ids=["GetState", "StepThrough", "Review"])
def test_the_players_stream_is_no_game_to_replay(stub, call):
    with pytest.raises(grpc.RpcError) as exc:
        call(stub)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert SAYS in exc.value.details()
    assert bad_request_field(exc.value) == "game_id"


def test_another_paipu_stream_is_no_game_either(stub):
    with pytest.raises(grpc.RpcError) as exc:
        stub.GetState(rpb.GetStateRequest(game_id="paipu:other", seq=0), timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "the log has no stream 'paipu:other'" in exc.value.details()
