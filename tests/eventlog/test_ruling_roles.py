"""Rulings and penalties are a referee's (competition.md §A9; shared/DESIGN.md §9): over gRPC
a recorder may append play but not a ``penalty`` or a ``referee_ruling``; a referee may.
A real server on loopback with a real SQLite store."""

from __future__ import annotations

import grpc
import pytest

from eventlog.events import GameStarted, NewEvent, Penalty, RefereeRuling
from eventlog.store import open_store
from services.client import EventLogClient, RemoteError
from services.server import build_server

DEADLINE = 10.0


def test_only_a_referee_appends_penalties_and_rulings(tmp_path):
    store = open_store(tmp_path)
    srv, port = build_server(store, port=0, tokens={"t-rec": "recorder", "t-ref": "referee"})
    srv.start()
    target = f"127.0.0.1:{port}"
    start = [NewEvent.of(GameStarted(ruleset="mcr", players=list("ABCD")), id_seed="g/0")]
    penalty = [NewEvent.of(Penalty(seat=2, score_changes=[10, 10, -30, 10], rule="competition.md §A9",
                                   reason="false win"), id_seed="g/1")]
    ruling = [NewEvent.of(RefereeRuling(ref_seq=1, ruling="penalty halved", kind="penalty", rule="§A9",
                                        score_changes=[-5, -5, 15, -5]), id_seed="g/2")]
    try:
        with EventLogClient(target, timeout=DEADLINE, token="t-rec") as recorder:
            assert recorder.append("g", start).last_seq == 0
            for batch in (penalty, ruling):
                with pytest.raises(RemoteError) as exc:
                    recorder.append("g", batch)
                assert exc.value.code == grpc.StatusCode.PERMISSION_DENIED
        with EventLogClient(target, timeout=DEADLINE, token="t-ref") as referee:
            assert referee.append("g", penalty).last_seq == 1
            assert referee.append("g", ruling).last_seq == 2
            got = list(referee.read_game("g", from_seq=2))[0].payload
            assert (got.kind, got.rule, got.score_changes) == ("penalty", "§A9", [-5, -5, 15, -5])
    finally:
        srv.stop(None)
        store.close()
