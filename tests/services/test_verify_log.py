"""ReplayService.VerifyLog: the whole log checked over gRPC as ``paipu verify`` checks it, on a
real server on a loopback port (notes/breaker9.md F7: a client had to call Verify once per game).

The expectation is ``paipu verify --json`` of the same store: the bundled logs (``paipu
quickstart``: one game with a true finding, the PMN game whose Result line is not zero-sum),
a player alias (the log's own stream ``paipu:players``), and a copy with one event's payload
rewritten (a broken chain: the log is damaged).
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter

import grpc
import pytest

from eventlog.store import open_store
from paipu.v1 import replay_service_pb2 as pb
from paipu.v1 import replay_service_pb2_grpc as pb_grpc
from services.client import EventLogClient, RemoteError
from services.server import build_server
from tests.cli_run import run

DEADLINE = 60.0  # seconds; only ever reached when something is broken
PMN_GAME = "pmn-mahjongsoft.com-74621-1-3"
TAMPERED = "botzone-61602cb45ddc087351c04358"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("verify-log") / "paipu-data"
    assert run("quickstart", "--data", d).exit_code == 0
    assert run("players", "alias", "Player0", "Player 0", "--data", d).exit_code == 0
    return d


@pytest.fixture(scope="module")
def tampered(tmp_path_factory, data):
    """A copy of the store whose botzone game has event 2's payload rewritten (T8 -> T7)."""
    copy = tmp_path_factory.mktemp("verify-log-copy")
    con = sqlite3.connect(data / "events.sqlite")
    con.execute(f"VACUUM INTO '{copy / 'events.sqlite'}'")
    con.close()
    con = sqlite3.connect(copy / "events.sqlite")
    for (t,) in con.execute("select name from sqlite_master where type='trigger'").fetchall():
        con.execute(f"drop trigger {t}")
    con.execute(f"update events set payload = replace(payload, 'T8', 'T7') where game_id = '{TAMPERED}' and seq = 2")
    con.commit()
    con.close()
    return copy


def _cli_json(data) -> tuple[dict, int]:
    res = run("verify", "--json", "--data", data)
    return json.loads(next(ln for ln in res.output.splitlines() if ln.startswith("{"))), res.exit_code


def _served(data, **kw):
    store = open_store(data)
    srv, port = build_server(store, port=0, **kw)
    srv.start()
    return store, srv, f"127.0.0.1:{port}"


def _verify_log(target, **request) -> list[pb.VerifyLogResponse]:
    with grpc.insecure_channel(target) as ch:  # a default client: 4 MiB receive limit
        return list(pb_grpc.ReplayServiceStub(ch).VerifyLog(pb.VerifyLogRequest(**request), timeout=DEADLINE))


def _as_cli(v: pb.GameVerdict) -> dict:
    """A verdict in the terms of one game of ``paipu verify --json``."""
    out = {"game_id": v.game_id, "ok": v.ok,
           "chain": {"ok": v.chain_ok, "events": v.events,
                     "first_bad_seq": v.first_bad_seq if v.HasField("first_bad_seq") else None,
                     "reason": v.chain_reason}}
    if v.replayed:
        out.update(ruleset=v.ruleset or None, findings=v.findings_total,
                   by_rule={r.rule_id: r.count for r in v.findings_by_rule}, disagreements=v.disagreements)
    return out


def _cli_game(g: dict) -> dict:
    out = {"game_id": g["game_id"], "ok": g["ok"], "chain": g["chain"]}
    if "findings" in g:
        out.update(ruleset=g["ruleset"], findings=len(g["findings"]),
                   by_rule=dict(Counter(f["rule_id"] for f in g["findings"])), disagreements=g["disagreements"])
    return out


def _summary_as_cli(s: pb.VerifyLogSummary) -> dict:
    status = {"ok": 0, "findings": 1, "damaged": 3}[s.verdict]
    return {
        "summary": {"games": s.games, "intact": s.intact, "chains_intact": s.chains_intact,
                    "broken_chains": s.broken_chains, "with_findings": s.with_findings,
                    "log_damaged": s.log_damaged, "exit_status": status},
        "log": {"ok": s.log.ok, "events": s.log.events, "head": s.log.head,
                "checkpoint": s.log.checkpoint if s.log.HasField("checkpoint") else None,
                "problems": list(s.log.problems)},
        "log_streams": [{"stream": c.stream, "ok": c.chain_ok, "events": c.events,
                         "first_bad_seq": c.first_bad_seq if c.HasField("first_bad_seq") else None,
                         "reason": c.chain_reason, "not_belonging": c.not_belonging} for c in s.log_streams],
    }


def _check_equal_to_cli(data) -> list[pb.VerifyLogResponse]:
    expected, exit_code = _cli_json(data)
    store, srv, target = _served(data)
    try:
        msgs = _verify_log(target)
    finally:
        srv.stop(None)
        store.close()
    *games, last = msgs
    assert all(m.WhichOneof("content") == "game" for m in games) and last.WhichOneof("content") == "summary"
    assert [_as_cli(m.game) for m in games] == [_cli_game(g) for g in expected["games"]]
    cli_streams = [dict(ls, not_belonging=len(ls["not_belonging"])) for ls in expected["log_streams"]]
    assert _summary_as_cli(last.summary) == {"summary": expected["summary"], "log": expected["log"],
                                             "log_streams": cli_streams}
    assert _summary_as_cli(last.summary)["summary"]["exit_status"] == exit_code
    assert max(m.ByteSize() for m in msgs) < 8 * 1024  # a few KiB at most, far under 4 MiB
    return msgs


def test_verify_log_gives_paipu_verify_json_s_verdicts(data) -> None:
    msgs = _check_equal_to_cli(data)
    (bad,) = [m.game for m in msgs[:-1] if not m.game.ok]
    assert bad.game_id == PMN_GAME
    assert [(r.rule_id, r.count) for r in bad.findings_by_rule] == [("reported_score_mismatch", 1)]
    s = msgs[-1].summary
    assert (s.verdict, s.broken_chains, s.with_findings, s.games) == ("findings", 0, 1, len(msgs) - 1)
    assert [c.stream for c in s.log_streams] == ["paipu:players"] and s.log.ok


def test_a_broken_chain_is_a_damaged_log_as_paipu_verify_says(tampered) -> None:
    msgs = _check_equal_to_cli(tampered)
    (broken,) = [m.game for m in msgs[:-1] if not m.game.chain_ok]
    assert broken.game_id == TAMPERED and broken.first_bad_seq == 2 and not broken.replayed
    assert (msgs[-1].summary.verdict, msgs[-1].summary.broken_chains) == ("damaged", 1)


def test_problems_only_and_the_python_client(data) -> None:
    store, srv, target = _served(data)
    try:
        msgs = _verify_log(target, problems_only=True)
        assert [m.game.game_id for m in msgs[:-1]] == [PMN_GAME]
        assert msgs[-1].summary.games > 1 and msgs[-1].summary.intact == msgs[-1].summary.games - 1
        with EventLogClient(target, timeout=DEADLINE) as client:
            *verdicts, summary = client.verify_log(problems_only=True)
            assert [v.game_id for v in verdicts] == [PMN_GAME] and summary == msgs[-1].summary
            items = client.verify_log()
            first = next(items)  # abandoning the stream cancels the call
            assert isinstance(first, pb.GameVerdict)
            items.close()
            assert client.health() == "SERVING"
    finally:
        srv.stop(None)
        store.close()


def test_cancelling_stops_the_work(data) -> None:
    store, srv, target = _served(data)
    try:
        with grpc.insecure_channel(target) as ch:
            call = pb_grpc.ReplayServiceStub(ch).VerifyLog(pb.VerifyLogRequest(), timeout=DEADLINE)
            assert next(call).WhichOneof("content") == "game"
            call.cancel()
            with pytest.raises(grpc.RpcError) as exc:
                list(call)
            assert exc.value.code() == grpc.StatusCode.CANCELLED
    finally:
        srv.stop(None)
        store.close()


def test_verify_log_needs_a_viewer(data, tmp_path) -> None:
    store = open_store(data)
    srv, port = build_server(store, port=0, tokens={"vtoken": "viewer"})
    srv.start()
    try:
        target = f"127.0.0.1:{port}"
        with EventLogClient(target, timeout=DEADLINE) as anon:
            with pytest.raises(RemoteError) as exc:
                next(anon.verify_log())
            assert exc.value.code == grpc.StatusCode.UNAUTHENTICATED
        with EventLogClient(target, timeout=DEADLINE, token="vtoken") as viewer:
            assert isinstance(list(viewer.verify_log(problems_only=True))[-1], pb.VerifyLogSummary)
    finally:
        srv.stop(None)
        store.close()


def test_no_game_is_begun_once_the_call_is_inactive(data) -> None:
    """What VerifyLog runs (services/verify_log.py) asks ``active`` (the call's
    ``context.is_active``) before it begins each game: once it is false nothing more is checked
    or sent, not even the summary."""
    from services.verify_log import verify_log_messages

    asked: list[int] = []

    def active() -> bool:
        asked.append(1)
        return len(asked) < 3  # the call is cancelled once two games are checked

    store = open_store(data)
    try:
        msgs = list(verify_log_messages(store, active=active))
    finally:
        store.close()
    assert [m.WhichOneof("content") for m in msgs] == ["game", "game"] and len(asked) == 3
