"""Issue 18 item 4: the tournament operations over gRPC (proto/paipu/v1/tournament_service.proto)
give the standings of `paipu tournament standings` — the hand-made 3-round, 2-table tournament
of test_tournament.py, its totals computed by hand there — and only a referee writes them.
A real server on loopback (with the TournamentService `paipu serve` adds) over a real SQLite store."""

from __future__ import annotations

import grpc
import pytest

from analytics.tournament import Tournament, TournamentError, results, standings_rows
from analytics.tournament_service import register
from eventlog.store import open_store
from services.client import EventLogClient, RemoteError
from services.server import build_server
from test_tournament import GAMES, _append_game

DEADLINE = 10.0


def test_standings_over_grpc_and_referee_only_writes(tmp_path):
    store = open_store(tmp_path)
    for rnd, table, players, scores in GAMES:
        _append_game(store, f"r{rnd}{table}", players, scores)
    srv, port = build_server(store, port=0, tokens={"t-view": "viewer", "t-ref": "referee"},
                             extra_services=[register(tmp_path)])
    srv.start()
    target = f"127.0.0.1:{port}"
    try:
        with EventLogClient(target, timeout=DEADLINE, token="t-view") as viewer:
            with pytest.raises(RemoteError) as exc:
                viewer.create_tournament("open")
            assert exc.value.code == grpc.StatusCode.PERMISSION_DENIED
            assert viewer.health("paipu.v1.TournamentService") == "SERVING"
        with EventLogClient(target, timeout=DEADLINE, token="t-ref") as ref:
            info = ref.create_tournament("open", scoring="mcr_table_points", title="Open 2026")
            assert (info.name, info.scoring, info.games) == ("open", "mcr_table_points", 0)
            for rnd, table, _, _ in GAMES:
                info = ref.add_tournament_game("open", f"r{rnd}{table}", round=rnd, table=table)
            assert (info.games, info.rounds) == (6, 3)
            with pytest.raises(TournamentError, match="already in round 1"):  # a game is added once; the
                ref.add_tournament_game("open", "r1T1", round=2, table="T9")  # client rebuilds the error
            ref.add_tournament_team("open", "East", list("ABCD"))
            ref.add_tournament_team("open", "West", list("EFGH"))
            info = ref.add_tournament_penalty("open", "B", -10, rule="competition.md §A9", reason="slow play",
                                              round=3, referee="R1")
            assert info.penalties == 1
        with EventLogClient(target, timeout=DEADLINE, token="t-view") as viewer:
            got = viewer.tournament_standings("open")
            after1 = viewer.tournament_standings("open", through_round=1)
            with pytest.raises(TournamentError, match="no tournament 'nope'"):
                viewer.tournament_standings("nope")
    finally:
        srv.stop(None)
    try:
        t = Tournament.load(tmp_path, "open")
        want = standings_rows(t, results(store, t))
    finally:
        store.close()
    lines = [(x.kind, x.name, x.rank, x.table_points, x.score) for x in got.lines]
    assert lines == [(r["kind"], r["name"], r["rank"], r["table_points"], r["score"]) for r in want]
    # by hand (test_tournament.py): A 9.75, F 8.5, B 6 (score −18 − 10 penalty), E 5.75, C 3.75 …
    players = [(x.name, x.table_points) for x in got.lines if x.kind == "player"]
    assert players == [("A", 9.75), ("F", 8.5), ("B", 6.0), ("E", 5.75), ("C", 3.75), ("D", 3.5), ("G", 2.75),
                       ("H", 2.0)]
    assert [(x.name, x.score, x.penalty_points) for x in got.lines if x.name == "B"] == [("B", -28, -10)]
    assert [(x.name, x.table_points) for x in got.lines if x.kind == "team"] == [("East", 23.0), ("West", 19.0)]
    assert [(x.name, x.rank) for x in after1.lines if x.kind == "player"][:3] == [("A", 1), ("E", 2), ("F", 2)]
    assert not got.unfinished_games and not any(x.provisional for x in got.lines)
