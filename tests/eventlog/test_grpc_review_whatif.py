"""ReplayService.Review (the rules-based decision review) and Verify with a what-if ruleset,
on a real server over a SQLite store holding the bundled real games.

Expected values come from the rules text and the sources: the PMN sample is one hand in which
seats 1 and 3 both win on seat 0's discard (its own score lines); under ``mcr1998`` only one
seat wins a discard, the first in turn order from the discarder (截和,
docs/reference/rules/competition.md §B1), so seat 3's win is void there. A seat that wins was
ready (shanten 0) after its last discard and its winning tile was one that improved its hand
(the definition of 听牌).
"""

from __future__ import annotations

import json

import grpc
import pytest

from eventlog.ingest.load import ingest_files
from eventlog.store import open_store
from paipu.samples import sample_files
from paipu.v1 import replay_service_pb2 as rpb
from paipu.v1 import replay_service_pb2_grpc as rpb_grpc
from services.client import EventLogClient
from services.server import build_server

PMN = "pmn-mahjongsoft.com-74621-1-3"
DEADLINE = 60.0


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    store = open_store(tmp_path_factory.mktemp("review-grpc"))
    report = ingest_files(store, sample_files())
    assert not report.errors
    srv, port = build_server(store, port=0)
    srv.start()
    yield f"127.0.0.1:{port}"
    srv.stop(None)
    store.close()


@pytest.fixture
def client(server):
    with EventLogClient(server, timeout=DEADLINE) as c:
        yield c


def test_verify_as_mcr1998_voids_the_second_winner(client):
    res = client.verify(PMN, as_ruleset="mcr1998")
    assert res.chain.ok and len(res.audit.wins) == 2  # the game's own scoring: both wins stand
    w = res.what_if
    assert w.ruleset_before == "mcr" and w.ruleset_after == "mcr1998" and w.differs
    assert any(c.name == "multiple_winners" and c.after == '"first_only"' for c in w.option_changes)
    first, second = w.wins
    assert (first.seat, first.legal_before, first.legal_after) == (1, True, True)
    assert (second.seat, second.legal_before, second.legal_after) == (3, True, False)
    assert any(r.rule_id == "one_winner_per_discard" and "§B1" in r.source for r in second.reasons_after)
    assert {d.name_zh for d in second.fans} >= {"花龙"} and all(d.after == "" for d in second.fans)
    assert all("competition.md" in d.source for d in second.fans)
    # only the first winner is paid: the discarder (seat 0) pays less than under "all"
    assert list(w.scores_after.values)[0] > list(w.scores_before.values)[0]


def test_verify_what_if_options_and_errors(client, server):
    res = client.verify(PMN, options={"multiple_winners": "first_only"})
    assert res.what_if.ruleset_after == "mcr" and res.what_if.differs
    assert not client.verify(PMN).HasField("what_if")
    stub = rpb_grpc.ReplayServiceStub(grpc.insecure_channel(server))
    for req in (rpb.VerifyRequest(game_id=PMN, as_ruleset="no_such_ruleset"),
                rpb.VerifyRequest(game_id=PMN, options_json="[1]"),
                rpb.VerifyRequest(game_id=PMN, options_json=json.dumps({"multiple_winners": "sometimes"}))):
        with pytest.raises(grpc.RpcError) as e:
            stub.Verify(req, timeout=DEADLINE)
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_an_unknown_what_if_ruleset_is_named_with_the_known_ones(server):
    # README: INVALID_ARGUMENT names the field; like `paipu verify --as`, the refusal lists
    # what would do — every ruleset and preset the registry knows
    from replayer.rules.base import known_rulesets, presets

    stub = rpb_grpc.ReplayServiceStub(grpc.insecure_channel(server))
    with pytest.raises(grpc.RpcError) as e:
        stub.Verify(rpb.VerifyRequest(game_id=PMN, as_ruleset="nope"), timeout=DEADLINE)
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    text = e.value.details()
    assert text.startswith("as_ruleset 'nope': unknown ruleset or preset (known: ")
    assert all(name in text for name in [*known_rulesets(), *presets()])
    with pytest.raises(grpc.RpcError) as e:
        stub.Verify(rpb.VerifyRequest(game_id=PMN, options_json=json.dumps({"multiple_winners": "sometimes"})),
                    timeout=DEADLINE)
    assert e.value.details().startswith("options_json: ")


def test_review_over_grpc(client, server):
    res = client.review(PMN, seats=[1, 3])
    assert "not an AI" in res.label and res.ruleset == "mcr"
    assert [h.seat for h in res.hands] == [1, 3]
    for h in res.hands:
        assert h.won and h.reviewable and h.discards
        last = h.discards[-1]
        assert last.shanten_after == 0 and "B3" in {t.tile for t in last.improving}  # both won on B3
        assert last.kept_best == (last.played in list(last.best))
    assert res.total.discards == sum(len(h.discards) for h in res.hands)
    assert {s.seat for s in res.seats} == {1, 3} and not res.total.HasField("seat")
    stub = rpb_grpc.ReplayServiceStub(grpc.insecure_channel(server))
    with pytest.raises(grpc.RpcError) as e:
        stub.Review(rpb.ReviewRequest(game_id=PMN, seats=[4]), timeout=DEADLINE)
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.RpcError) as e:
        stub.Review(rpb.ReviewRequest(game_id="no-such-game"), timeout=DEADLINE)
    assert e.value.code() == grpc.StatusCode.NOT_FOUND


def test_verify_what_if_under_another_base_ruleset_says_its_starting_scores(client):
    # the chip format starts every player with 100 chips (competition.md §A5): a what-if of the
    # MCR game under it starts there, not from the record's scores — and says so on the wire
    res = client.verify(PMN, as_ruleset="cjm_chips")
    w = res.what_if
    assert w.ruleset_after == "cjm_chips" and w.HasField("start_after")
    assert list(w.start_after.values) == [100, 100, 100, 100]
    # the same base ruleset (a preset of MCR) starts from the record's own: nothing to say
    assert not client.verify(PMN, as_ruleset="mcr1998").what_if.HasField("start_after")


def test_review_over_grpc_carries_the_legal_waits(client):
    # a seat that won was ready after its last discard: its winning tile is a legal wait
    # (听牌: a tile with which the hand wins under the ruleset), and the wire says how it wins
    res = client.review(PMN, seats=[1, 3])
    for h in res.hands:
        last = h.discards[-1]
        waits = {w.tile: w for w in last.waits}
        assert "B3" in waits and waits["B3"].on_discard and not last.no_wait  # both won on seat 0's B3
