"""TournamentService errors speak to a gRPC client: no server path, no command to run (those
are the CLI's, printed after the message), and structured ErrorInfo metadata as the
EventLogService gives (``tournament``, ``game_id``, ``player``, ``line``). A cjm_standard
tournament's penalties are 罚分 of competition.md §A9: units of 10, at most 50 per decision,
as inside a game (finding ``penalty_units``); an mcr_table_points tournament keeps its broad
bound. A real server on loopback, a real SQLite store, the real CLI."""

from __future__ import annotations

import json

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from typer.testing import CliRunner

from analytics.tournament_service import register
from eventlog import events as ev
from eventlog.players import add_alias
from eventlog.store import open_store
from paipu.cli import app
from paipu.v1 import tournament_service_pb2 as pb
from paipu.v1 import tournament_service_pb2_grpc as pb_grpc
from services.server import build_server

DEADLINE = 10.0


@pytest.fixture
def data(tmp_path):
    with open_store(tmp_path) as store:
        payloads = [ev.GameStarted(ruleset="mcr", players=list("ABCD"), initial_scores=[0, 0, 0, 0]),
                    ev.GameEnded(final_scores=[0, 0, 0, 0])]
        store.append("g1", [ev.NewEvent.of(p, id_seed=f"g1/{k}") for k, p in enumerate(payloads)])
        add_alias(store, "Player0", "Player 0")  # the log's own stream paipu:players
    return tmp_path


@pytest.fixture
def stub(data):
    store = open_store(data)
    srv, port = build_server(store, port=0, extra_services=[register(data)])
    srv.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            yield pb_grpc.TournamentServiceStub(ch)
    finally:
        srv.stop(None)
        store.close()


def _refused(call):
    """(code, message, ErrorInfo reason, its fields) of a call that fails."""
    with pytest.raises(grpc.RpcError) as e:
        call()
    reason, fields = "", None
    for d in rpc_status.from_call(e.value).details:
        if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            d.Unpack(info)
            reason, fields = info.reason, json.loads(info.metadata["fields"])
    return e.value.code(), e.value.details(), reason, fields


def test_errors_name_no_server_path_and_no_command(stub, data):
    stub.CreateTournament(pb.CreateTournamentRequest(name="t"), timeout=DEADLINE)
    got = _refused(lambda: stub.CreateTournament(pb.CreateTournamentRequest(name="t"), timeout=DEADLINE))
    assert got == (grpc.StatusCode.ALREADY_EXISTS, "tournament 't' already exists", "TOURNAMENT_EXISTS",
                   {"tournament": "t"})
    got = _refused(lambda: stub.GetStandings(pb.GetStandingsRequest(name="nope"), timeout=DEADLINE))
    assert got == (grpc.StatusCode.NOT_FOUND, "no tournament 'nope'", "TOURNAMENT_NOT_FOUND", {"tournament": "nope"})
    got = _refused(lambda: stub.AddGame(pb.AddGameRequest(name="t", game_id="paipu:players", round=1, table="1"),
                                        timeout=DEADLINE))
    assert got == (grpc.StatusCode.INVALID_ARGUMENT,
                   "game_id 'paipu:players': not a game (the log's own stream); only games can be added",
                   "TOURNAMENT_ARGUMENT", {"field": "game_id", "game_id": "paipu:players"})
    stub.AddGame(pb.AddGameRequest(name="t", game_id="g1", round=1, table="1"), timeout=DEADLINE)
    got = _refused(lambda: stub.AddPenalty(pb.AddPenaltyRequest(name="t", player="Nobody", points=-10, rule="§A9",
                                                                round=1), timeout=DEADLINE))
    assert got[0] == grpc.StatusCode.FAILED_PRECONDITION and got[2:] == (
        "TOURNAMENT_ERROR", {"tournament": "t", "player": "Nobody"})
    assert got[1] == "player 'Nobody' is not in tournament 't' (add their game or team first); known players: A, B, C, D"
    p = data / "tournaments" / "t.jsonl"  # a damaged file: which tournament and line, not where it lives
    p.write_text(p.read_text() + '{"kind": "game", "round": 0}\n')
    got = _refused(lambda: stub.GetStandings(pb.GetStandingsRequest(name="t"), timeout=DEADLINE))
    assert got[1].startswith("tournament 't', line 3 of its file: ") and got[3] == {"tournament": "t", "line": 3}
    assert str(data) not in got[1] and "`" not in got[1]


def test_the_cli_still_says_where_and_what_to_run(data):
    res = CliRunner().invoke(app, ["tournament", "standings", "nope", "--data", str(data)])
    assert res.exit_code == 2
    assert res.output.splitlines() == [
        f"error: no tournament 'nope' (in {data}; create it with `paipu tournament create`)"]
    assert CliRunner().invoke(app, ["tournament", "create", "t", "--data", str(data)]).exit_code == 0
    res = CliRunner().invoke(app, ["tournament", "create", "t", "--data", str(data)])
    assert res.output.splitlines() == [f"error: tournament 't' already exists ({data / 'tournaments' / 't.jsonl'})"]


@pytest.mark.parametrize("points,ok", [(-65, False), (-60, False), (-15, False), (-50, True), (-10, True),
                                       (20, True), (55, False)])
def test_a_cjm_tournament_penalty_is_in_units_of_10_at_most_50(stub, points, ok):
    """competition.md §A9: "罚分 in units of 10, at most 50 per decision"; a penalty may be
    awarded to the disadvantaged player (positive) under the same bound."""
    stub.CreateTournament(pb.CreateTournamentRequest(name="c", scoring="cjm_standard"), timeout=DEADLINE)
    stub.AddGame(pb.AddGameRequest(name="c", game_id="g1", round=1, table="1"), timeout=DEADLINE)
    ask = pb.AddPenaltyRequest(name="c", player="B", points=points, rule="competition.md §A9", round=1)
    if ok:
        assert stub.AddPenalty(ask, timeout=DEADLINE).penalties == 1
        return
    code, message, reason, fields = _refused(lambda: stub.AddPenalty(ask, timeout=DEADLINE))
    assert (code, reason, fields) == (grpc.StatusCode.INVALID_ARGUMENT, "TOURNAMENT_ARGUMENT",
                                      {"field": "points", "tournament": "c", "player": "B"})
    assert message == (f"points {points}: a penalty in a cjm_standard tournament is 罚分 in units of 10, at most 50 "
                       "per decision (competition.md §A9): a multiple of 10 from -50 to 50")


def test_an_mcr_tournament_penalty_keeps_its_broad_bound(stub):
    stub.CreateTournament(pb.CreateTournamentRequest(name="m"), timeout=DEADLINE)
    stub.AddGame(pb.AddGameRequest(name="m", game_id="g1", round=1, table="1"), timeout=DEADLINE)
    ask = pb.AddPenaltyRequest(name="m", player="B", points=-65, rule="x", round=1)
    assert stub.AddPenalty(ask, timeout=DEADLINE).penalties == 1
