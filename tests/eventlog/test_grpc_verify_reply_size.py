"""ReplayService Verify of a game with very many findings stays readable by any gRPC client
(proto/paipu/v1/replay_service.proto, Verify "Reply size", VerifyStream), and a report that
cannot be checked says why (ReportedScoreComparison.unverifiable).

Real server on loopback over a real SQLite store. The long game is a log of discards with no
hand in play: by docs/reference/DESIGN.md §4 each one is out of phase ("events record what
happened at the table, in order") and discards a tile its seat does not hold (tile
accounting) — two findings per discard, so 16,000 discards make a verdict of over 4 MiB, the
most a gRPC client receives by default (grpc-go, grpc-java, grpcurl, Python). Before the
reply limit, such a Verify failed at the client with RESOURCE_EXHAUSTED instead of the verdict.
"""

from __future__ import annotations

import grpc
import pytest

from eventlog import events as ev
from eventlog.store import open_store
from eventlog.view import seat_view
from paipu.v1 import replay_service_pb2 as rpb
from paipu.v1 import replay_service_pb2_grpc as rpb_grpc
from replayer.simulate.engine import SimulationConfig, simulate
from services.client import EventLogClient
from services.server import build_server

DEADLINE = 120.0
DEFAULT_RECEIVE = 4 * 1024 * 1024  # a gRPC client's default receive limit
DISCARDS = 16_000
SMALL = 64 * 1024  # a server and client configured with a small limit
MID = 500  # discards: about 130 KB of findings, over SMALL


def _discards(n: int, game: str) -> list[ev.NewEvent]:
    payloads = [ev.GameStarted(ruleset="mcr", ruleset_options={}, players=["A", "B", "C", "D"])]
    payloads += [ev.TileDiscarded(seat=0, tile="W1") for _ in range(n)]
    return [ev.NewEvent.of(p, id_seed=f"{game}/{i}") for i, p in enumerate(payloads)]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    s = open_store(tmp_path_factory.mktemp("verify-size"))
    s.append("long", _discards(DISCARDS, "long"))
    s.append("mid", _discards(MID, "mid"))
    s.append("short", _discards(3, "short"))
    # nanchang.md §9.1: the jing bonus reads every player's jing, so in seat 1's record (the
    # others' concealed tiles hidden, DESIGN.md §8) a reported win cannot be checked
    game = next(iter(simulate(SimulationConfig(ruleset="nanchang", seed=0, hands_per_game=2), 1)))
    s.append("seat1-view", [seat_view(e, 1) for e in game.events])
    yield s
    s.close()


def _serve(store, **kw):
    srv, port = build_server(store, port=0, **kw)
    srv.start()
    return srv, f"127.0.0.1:{port}"


@pytest.fixture(scope="module")
def default_server(store):
    srv, address = _serve(store)
    yield address
    srv.stop(None)


@pytest.fixture(scope="module")
def small_server(store):
    srv, address = _serve(store, verify_reply_bytes=SMALL)
    yield address
    srv.stop(None)


def _stub(address: str, receive: int | None = None) -> tuple[grpc.Channel, rpb_grpc.ReplayServiceStub]:
    options = [] if receive is None else [("grpc.max_receive_message_length", receive)]
    channel = grpc.insecure_channel(address, options=options)
    return channel, rpb_grpc.ReplayServiceStub(channel)


def _by_rule(audit: rpb.GameAudit) -> dict[str, int]:
    return {c.rule_id: c.count for c in audit.findings_by_rule}


def test_verify_of_a_long_log_fits_a_default_client(default_server):
    channel, stub = _stub(default_server)  # no raised limit: what grpcurl or grpc-go receive
    try:
        res = stub.Verify(rpb.VerifyRequest(game_id="long"), timeout=DEADLINE)
        whole = list(stub.VerifyStream(rpb.VerifyRequest(game_id="long"), timeout=DEADLINE))
    finally:
        channel.close()
    assert res.ByteSize() <= DEFAULT_RECEIVE
    assert res.chain.ok and not res.ok and res.truncated
    counts = _by_rule(res.audit)
    assert counts["event_out_of_phase"] == DISCARDS and counts["tile_not_held"] == DISCARDS
    assert res.audit.findings_total == sum(counts.values()) > len(res.audit.findings) > 0
    assert list(_by_rule(res.audit)) == sorted(counts)  # in rule_id order
    # the listed findings are the game's first ones, in order
    merged = rpb.VerifyResponse()
    for part in whole:
        assert part.ByteSize() <= DEFAULT_RECEIVE
        merged.MergeFrom(part)
    assert len(whole) > 1 and not merged.truncated and merged.ok == res.ok
    assert len(merged.audit.findings) == res.audit.findings_total
    assert list(merged.audit.findings)[: len(res.audit.findings)] == list(res.audit.findings)
    seqs = [f.seq for f in merged.audit.findings]
    assert seqs == sorted(seqs) and seqs[-1] == DISCARDS


def test_the_python_client_gets_every_finding(small_server):
    with EventLogClient(small_server, timeout=DEADLINE) as client:  # parts of at most SMALL bytes
        res = client.verify("mid")
    assert not res.truncated and len(res.audit.findings) == res.audit.findings_total
    assert _by_rule(res.audit)["tile_not_held"] == MID


def test_a_small_reply_limit_is_kept_by_verify_and_by_every_part(small_server):
    channel, stub = _stub(small_server, receive=SMALL)
    try:
        res = stub.Verify(rpb.VerifyRequest(game_id="mid"), timeout=DEADLINE)
        parts = list(stub.VerifyStream(rpb.VerifyRequest(game_id="mid"), timeout=DEADLINE))
        short = stub.Verify(rpb.VerifyRequest(game_id="short"), timeout=DEADLINE)
        short_parts = list(stub.VerifyStream(rpb.VerifyRequest(game_id="short"), timeout=DEADLINE))
    finally:
        channel.close()
    assert res.truncated and res.ByteSize() <= SMALL and res.audit.findings_total > len(res.audit.findings)
    assert all(p.ByteSize() <= SMALL for p in parts) and len(parts) > 2
    first = parts[0]  # the verdict, with the counts and no list items
    assert first.chain.ok and not first.ok and not first.audit.findings
    assert first.audit.findings_total == res.audit.findings_total
    assert all(p.game_id == "mid" and not p.HasField("chain") for p in parts[1:])
    # a game that fits: nothing cut, the totals are the lists' lengths (3 discards: at least
    # two findings each, DESIGN.md §4)
    assert not short.truncated and short.audit.findings_total == len(short.audit.findings) >= 6
    merged = rpb.VerifyResponse()
    for part in short_parts:
        merged.MergeFrom(part)
    assert merged == short


def test_a_report_that_cannot_be_checked_says_why(default_server):
    with EventLogClient(default_server, timeout=DEADLINE) as client:
        res = client.verify("seat1-view")
    unchecked = [w for w in res.audit.wins if w.HasField("reported") and w.reported.unverifiable]
    assert unchecked and all("cannot be checked" in w.reported.unverifiable and not w.HasField("score_agrees")
                             for w in unchecked)  # score_agrees absent: cannot be checked, and why
    (mine,) = [w for w in unchecked if w.seat == 1]  # the recording seat's own win: its jing part
    assert "jing" in mine.reported.unverifiable and "hidden tiles of seats 0, 2, 3" in mine.reported.unverifiable
    # a report compared in full has no reason
    with EventLogClient(default_server, timeout=DEADLINE) as client:
        assert all(not w.reported.unverifiable for w in client.verify("short").audit.wins)


@pytest.mark.parametrize("method", ["Verify", "VerifyStream"])
def test_deeply_nested_options_are_the_callers_mistake(default_server, method):
    # services/limits.py: JSON text fields are bounded in depth where they are parsed (64
    # levels, eventlog/convert.py) — a hostile nesting was an INTERNAL error (RecursionError)
    from tests.eventlog.test_grpc_ingest_replay import bad_request_field

    channel, stub = _stub(default_server)
    request = rpb.VerifyRequest(game_id="short", options_json='{"a":' + "[" * 5000 + "]" * 5000 + "}")
    try:
        with pytest.raises(grpc.RpcError) as err:
            if method == "VerifyStream":
                list(stub.VerifyStream(request, timeout=DEADLINE))
            else:
                stub.Verify(request, timeout=DEADLINE)
    finally:
        channel.close()
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and bad_request_field(err.value) == "options_json"
    assert "at most 64" in err.value.details()
