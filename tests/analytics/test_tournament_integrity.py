"""A fresh user's tournament trial: only games join a tournament, a penalty belongs to a round
that holds games and is bounded, the standings header says what the table counts and the
default agrees with `--round` of the same round; over gRPC the statuses the README names
(NOT_FOUND, INVALID_ARGUMENT naming the field in one line). The real CLI, a real SQLite store,
a real server on loopback. Expected values by hand (MCR table points 4/2/1/0; docs/analytics.md
"Tournament standings"; competition.md §A9 penalties, §A10 rounds)."""

from __future__ import annotations

import json

import grpc
import pytest
from typer.testing import CliRunner

from analytics.tournament import TournamentArgument, TournamentNotFound
from analytics.tournament_service import register
from eventlog import events as ev
from eventlog.players import add_alias
from eventlog.store import open_store
from paipu.cli import app
from paipu.v1 import tournament_service_pb2 as pb
from paipu.v1 import tournament_service_pb2_grpc as pb_grpc
from services.client import EventLogClient
from services.server import build_server

DEADLINE = 10.0


def _append(store, gid, players, scores):
    payloads = [ev.GameStarted(ruleset="mcr", players=list(players), initial_scores=[0, 0, 0, 0]),
                ev.Penalty(seat=0, score_changes=list(scores), reason="result of the session"),
                ev.GameEnded(final_scores=list(scores))]
    store.append(gid, [ev.NewEvent.of(p, id_seed=f"{gid}/{k}") for k, p in enumerate(payloads)])


@pytest.fixture
def data(tmp_path):
    store = open_store(tmp_path)
    try:
        _append(store, "g1", "ABCD", (30, 10, -10, -30))  # A 4, B 2, C 1, D 0
        add_alias(store, "Player0", "Player 0")  # the log's own stream paipu:players
    finally:
        store.close()
    return tmp_path


def _run(*args):
    res = CliRunner().invoke(app, [str(a) for a in args])
    return res.exit_code, res.output


def test_only_game_streams_join_a_tournament(data):
    d = ("--data", data)
    assert _run("tournament", "create", "t", *d)[0] == 0
    code, out = _run("tournament", "add-game", "t", "paipu:players", *d)
    assert code == 2 and out.splitlines() == [
        "error: game_id 'paipu:players': not a game (the log's own stream); only games can be added "
        "(`paipu games` lists them)"], out
    code, out = _run("tournament", "add-game", "t", "g1", *d)
    assert code == 0, out
    code, out = _run("tournament", "standings", "t", "--json", *d)
    assert {r["name"] for r in json.loads(out)} == set("ABCD")  # never "seat 0".."seat 3"


def test_a_non_game_recorded_earlier_is_left_out_and_named(data):
    d = ("--data", data)
    assert _run("tournament", "create", "t", *d)[0] == 0
    assert _run("tournament", "add-game", "t", "g1", *d)[0] == 0
    p = data / "tournaments" / "t.jsonl"  # a file written before add-game refused non-games
    p.write_text(p.read_text() + '{"game_id": "paipu:players", "kind": "game", "round": 1, "session": 1, '
                                 '"table": "2"}\n')
    code, out = _run("tournament", "standings", "t", *d)
    assert code == 0 and "seat 0" not in out, out
    assert out.splitlines()[-1] == "not games (recorded before add-game refused them; left out): paipu:players"


def test_a_penalty_needs_a_round_with_games_and_a_bounded_amount(data):
    d = ("--data", data)
    assert _run("tournament", "create", "t", *d)[0] == 0
    assert _run("tournament", "add-game", "t", "g1", *d)[0] == 0
    code, out = _run("tournament", "penalty", "t", "B", "-10", "--rule", "x", "--round", "99", *d)
    assert code == 2 and out.splitlines() == [
        "error: round 99: no game of tournament 't' is in round 99 (rounds with games: 1); a penalty belongs to "
        "a round that holds games — add the round's games first"], out
    code, out = _run("tournament", "penalty", "t", "B", "--rule", "x", *d, "--", str(10 ** 21))
    assert code == 2 and out.splitlines() == [f"error: points: must be at most 100000, got {10 ** 21}"], out
    assert "penalty" not in (data / "tournaments" / "t.jsonl").read_text()  # nothing was recorded
    code, out = _run("tournament", "penalty", "t", "B", "-10", "--rule", "x", *d)
    assert code == 0, out


def test_the_header_says_what_is_counted_and_the_default_agrees_with_round(data):
    d = ("--data", data)
    assert _run("tournament", "create", "t", *d)[0] == 0
    assert _run("tournament", "add-game", "t", "g1", *d)[0] == 0
    assert _run("tournament", "penalty", "t", "B", "-10", "--rule", "x", *d)[0] == 0
    default, after1 = _run("tournament", "standings", "t", *d)[1], _run("tournament", "standings", "t", "--round", "1", *d)[1]
    assert default == after1
    assert default.splitlines()[0] == "t (mcr_table_points) after round 1 (games and penalties of round 1)"
    b = next(line for line in default.splitlines() if line.split()[1:2] == ["B"])
    assert b.split()[-2:] == ["0", "-10"]  # score 10 − 10, penalty −10
    # a file written before the round rule: a penalty in round 99 counts, and the header says so;
    # `--round 99` gives the same table, `--round 1` the table without it
    p = data / "tournaments" / "t.jsonl"
    p.write_text(p.read_text() + '{"kind": "penalty", "player": "B", "points": -5, "reason": "", "referee": "", '
                                 '"round": 99, "rule": "x"}\n')
    default, after99 = _run("tournament", "standings", "t", *d)[1], _run("tournament", "standings", "t", "--round", "99", *d)[1]
    assert default == after99
    assert default.splitlines()[0] == "t (mcr_table_points) after round 99: games of round 1, penalties of rounds 1 to 99"
    b = next(line for line in default.splitlines() if line.split()[1:2] == ["B"])
    assert b.split()[-2:] == ["-5", "-15"]
    code, out = _run("tournament", "standings", "t", "--round", "1", *d)
    assert out.splitlines()[0] == "t (mcr_table_points) after round 1 (games and penalties of round 1)"
    assert next(line for line in out.splitlines() if line.split()[1:2] == ["B"]).split()[-2:] == ["0", "-10"]
    rows = json.loads(_run("tournament", "standings", "t", "--json", *d)[1])
    assert {r["through_round"] for r in rows} == {99}


def test_the_add_game_table_error_is_one_line(data):
    d = ("--data", data)
    assert _run("tournament", "create", "t", *d)[0] == 0
    code, out = _run("tournament", "add-game", "t", "g1", "--table", "", *d)
    assert code == 2 and out.splitlines() == ["error: table: must not be empty"], out


def _status(call):
    with pytest.raises(grpc.RpcError) as e:
        call()
    return e.value.code(), e.value.details()


def test_tournament_statuses_over_grpc(data):
    store = open_store(data)
    srv, port = build_server(store, port=0, extra_services=[register(data)])
    srv.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            stub = pb_grpc.TournamentServiceStub(ch)
            code, msg = _status(lambda: stub.GetStandings(pb.GetStandingsRequest(name="nope"), timeout=DEADLINE))
            assert code == grpc.StatusCode.NOT_FOUND and msg.startswith("no tournament 'nope'"), msg
            code, msg = _status(lambda: stub.CreateTournament(pb.CreateTournamentRequest(name="bad name"),
                                                              timeout=DEADLINE))
            assert code == grpc.StatusCode.INVALID_ARGUMENT and msg.startswith("tournament name 'bad name'"), msg
            code, msg = _status(lambda: stub.CreateTournament(pb.CreateTournamentRequest(name="t", scoring="x"),
                                                              timeout=DEADLINE))
            assert (code, msg) == (grpc.StatusCode.INVALID_ARGUMENT,
                                   "scoring: must be one of 'mcr_table_points' or 'cjm_standard', got 'x'")
            stub.CreateTournament(pb.CreateTournamentRequest(name="t"), timeout=DEADLINE)
            code, msg = _status(lambda: stub.CreateTournament(pb.CreateTournamentRequest(name="t"), timeout=DEADLINE))
            assert code == grpc.StatusCode.ALREADY_EXISTS, msg
            code, msg = _status(lambda: stub.AddGame(pb.AddGameRequest(name="t", game_id="g1", table="1"),
                                                     timeout=DEADLINE))
            assert (code, msg) == (grpc.StatusCode.INVALID_ARGUMENT, "round: must be at least 1, got 0")
            code, msg = _status(lambda: stub.AddGame(pb.AddGameRequest(name="t", game_id="paipu:players", round=1,
                                                                       table="1"), timeout=DEADLINE))
            assert code == grpc.StatusCode.INVALID_ARGUMENT and "not a game" in msg, msg
            code, msg = _status(lambda: stub.AddGame(pb.AddGameRequest(name="t", game_id="nope", round=1,
                                                                       table="1"), timeout=DEADLINE))
            assert code == grpc.StatusCode.NOT_FOUND, msg
            code, msg = _status(lambda: stub.AddGame(pb.AddGameRequest(name="zz", game_id="g1", round=1,
                                                                       table="1"), timeout=DEADLINE))
            assert code == grpc.StatusCode.NOT_FOUND, msg
        with EventLogClient(f"127.0.0.1:{port}", timeout=DEADLINE) as client:
            client.add_tournament_game("t", "g1", round=1, table="1")
            with pytest.raises(TournamentArgument) as bad:  # the client rebuilds the class and its field
                client.add_tournament_penalty("t", "B", -10, rule="x", round=99)
            assert bad.value.field == "round"
            with pytest.raises(TournamentNotFound):
                client.tournament_standings("nope")
            with pytest.raises(TournamentArgument) as bad:
                client.tournament_standings("t", through_round=2)
            assert bad.value.field == "through_round"
    finally:
        srv.stop(None)
        store.close()
