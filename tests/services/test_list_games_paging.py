"""EventLogService.ListGames pages (Google AIP-158: page_size, page_token, next_page_token) on a
real server on a loopback port, over a real SQLite store.

A Botzone-sized log (~100,000 games) made one ListGames reply of more than the 4 MiB a default
gRPC client receives (RESOURCE_EXHAUSTED; notes/breaker9.md F6). The expectations come from
the contract (proto/paipu/v1/event_log_service.proto, ListGamesRequest): every game exactly
once, in first-position order, also while games are appended; each reply under the reply limit;
a token the server did not give is INVALID_ARGUMENT naming page_token.
"""

from __future__ import annotations

import json

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from eventlog.events import GameStarted, NewEvent, TileDrawn
from eventlog.store import open_store
from eventlog.store.base import NO_STREAM
from paipu.v1 import event_log_service_pb2 as pb
from paipu.v1 import event_log_service_pb2_grpc as pb_grpc
from services.client import EventLogClient
from services.server import build_server
from tests.cli_run import run

DEADLINE = 10.0  # seconds; only ever reached when something is broken
GAMES = 23  # games 0, 3, 6 … are MCR games (game_started), the others a bare draw (no ruleset)


def _add(store, n: int) -> None:
    """Game ``g{n:03d}``: an MCR game_started for n divisible by 3, else one tile_drawn."""
    payload = (GameStarted(ruleset="mcr", players=["E", "S", "W", "N"], source="test") if n % 3 == 0
               else TileDrawn(seat=n % 4))
    store.append(f"g{n:03d}", [NewEvent.of(payload, id_seed=f"g{n:03d}/0")], NO_STREAM)


@pytest.fixture
def store(tmp_path):
    s = open_store(tmp_path / "data")
    for n in range(GAMES):
        _add(s, n)
    yield s
    s.close()


def _serve(store, **kw):
    srv, port = build_server(store, port=0, **kw)
    srv.start()
    return srv, f"127.0.0.1:{port}"


@pytest.fixture
def server(store):
    srv, target = _serve(store)
    yield target
    srv.stop(None)


@pytest.fixture
def stub(server):
    with grpc.insecure_channel(server) as ch:  # a default client: 4 MiB receive limit
        yield pb_grpc.EventLogServiceStub(ch)


def _pages(stub, **request) -> list[pb.ListGamesResponse]:
    pages, token = [], ""
    while True:
        res = stub.ListGames(pb.ListGamesRequest(page_token=token, **request), timeout=DEADLINE)
        pages.append(res)
        if not res.next_page_token:
            return pages
        token = res.next_page_token


def _ids(pages) -> list[str]:
    return [g.game_id for p in pages for g in p.games]


ALL = [f"g{n:03d}" for n in range(GAMES)]  # appended in this order: first positions 1..23


def test_small_pages_give_every_game_once_in_first_position_order(stub) -> None:
    pages = _pages(stub, page_size=5)
    assert [len(p.games) for p in pages] == [5, 5, 5, 5, 3]
    assert _ids(pages) == ALL
    assert [g.first_position for p in pages for g in p.games] == list(range(1, GAMES + 1))
    # a page size the games fill exactly: the last full page says there is no more
    pages = _pages(stub, page_size=GAMES)
    assert [len(p.games) for p in pages] == [GAMES] and pages[0].next_page_token == ""


def test_a_request_of_today_gets_every_game_of_a_small_log_in_one_reply(stub) -> None:
    res = stub.ListGames(pb.ListGamesRequest(), timeout=DEADLINE)
    assert [g.game_id for g in res.games] == ALL and res.next_page_token == ""
    # a page_size above the server's maximum is read as the maximum, not refused
    res = stub.ListGames(pb.ListGamesRequest(page_size=2**31 - 1), timeout=DEADLINE)
    assert [g.game_id for g in res.games] == ALL


def test_the_token_stays_valid_while_games_are_appended(stub, store) -> None:
    first = stub.ListGames(pb.ListGamesRequest(page_size=10), timeout=DEADLINE)
    for n in range(GAMES, GAMES + 4):  # four new games, and one more event of a listed one
        _add(store, n)
    store.append("g001", [NewEvent.of(TileDrawn(seat=2), id_seed="g001/1")], 0)
    rest, token = [], first.next_page_token
    while token:
        res = stub.ListGames(pb.ListGamesRequest(page_size=10, page_token=token), timeout=DEADLINE)
        rest.append(res)
        token = res.next_page_token
    assert _ids([first, *rest]) == [f"g{n:03d}" for n in range(GAMES + 4)]


def test_the_ruleset_filter_pages_too(stub) -> None:
    mcr = [f"g{n:03d}" for n in range(0, GAMES, 3)]  # 8 games
    pages = _pages(stub, page_size=3, ruleset="mcr")
    assert [len(p.games) for p in pages] == [3, 3, 2]
    assert _ids(pages) == mcr and all(g.ruleset == "mcr" for p in pages for g in p.games)
    assert _pages(stub, ruleset="sichuan")[0].games == []


def _bad_request(err: grpc.RpcError) -> str:
    """The one field violation's field of an INVALID_ARGUMENT."""
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, err
    assert "\n" not in err.details()
    status = rpc_status.from_call(err)
    bad = error_details_pb2.BadRequest()
    assert any(d.Unpack(bad) for d in status.details)
    (violation,) = bad.field_violations
    return violation.field


@pytest.mark.parametrize("token", ["nonsense", "bm90IGEgdG9rZW4", "=" * 5, "é"])
def test_a_token_the_server_did_not_give_is_invalid_argument(stub, token) -> None:
    with pytest.raises(grpc.RpcError) as exc:
        stub.ListGames(pb.ListGamesRequest(page_token=token), timeout=DEADLINE)
    assert _bad_request(exc.value) == "page_token"
    assert "page_token is not a next_page_token this server gave" in exc.value.details()


def test_a_token_of_another_filter_or_a_negative_size_is_invalid_argument(stub) -> None:
    token = stub.ListGames(pb.ListGamesRequest(page_size=2, ruleset="mcr"), timeout=DEADLINE).next_page_token
    with pytest.raises(grpc.RpcError) as exc:
        stub.ListGames(pb.ListGamesRequest(page_size=2, page_token=token), timeout=DEADLINE)
    assert _bad_request(exc.value) == "page_token"
    assert "ruleset 'mcr'" in exc.value.details()
    with pytest.raises(grpc.RpcError) as exc:
        stub.ListGames(pb.ListGamesRequest(page_size=-1), timeout=DEADLINE)
    assert _bad_request(exc.value) == "page_size"
    with pytest.raises(grpc.RpcError) as exc:
        stub.ListGames(pb.ListGamesRequest(ruleset="x" * 201), timeout=DEADLINE)
    assert _bad_request(exc.value) == "ruleset"


def test_a_small_reply_limit_is_kept_and_the_client_and_cli_page_through(store) -> None:
    # a GameInfo of these games takes 16..21 bytes on the wire and a token ~40: a reply of
    # at most 120 bytes holds a few games and its token
    limit = 120
    srv, target = _serve(store, list_reply_bytes=limit)
    try:
        with grpc.insecure_channel(target) as ch:
            pages = _pages(pb_grpc.EventLogServiceStub(ch))  # no page_size: the server's cap ends each page
        assert len(pages) > 3 and all(p.ByteSize() <= limit for p in pages)
        assert all(p.next_page_token for p in pages[:-1])
        assert _ids(pages) == ALL
        with EventLogClient(target, timeout=DEADLINE) as client:
            assert client.list_games() == store.list_games()
            assert [g.game_id for g in client.list_games(ruleset="mcr", page_size=2)] == ALL[::3]
        res = run("games", "--json", "--server", target)
        assert res.exit_code == 0, res.output
        assert [json.loads(line)["game_id"] for line in res.output.splitlines()] == ALL
    finally:
        srv.stop(None)
