"""IngestService and ReplayService on a real server (free loopback port) over a real SQLite
store in tmp_path.

Expected values come from the Botzone text sample itself (paipu/samples/…): its ``Match``
lines (game ids), ``Player N Deal`` lines (tiles dealt), ``Fan`` lines (fan names, counts
and the total) and ``Score`` lines (score changes) — never from the code under test.
Status codes are asserted on the raw stubs (the contract) and, where the client maps
them, through services.client.
"""

from __future__ import annotations

import re
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)
from grpc_status import rpc_status
from typer.testing import CliRunner

from services.client import EventLogClient, RemoteError
from eventlog.ingest import known_formats
from eventlog.ingest.base import UnknownFormatError
from eventlog.ingest.load import ingest_files
from services.server import build_server
from eventlog.store import open_store
from eventlog.store.base import GameNotFound
from paipu.samples import SAMPLES_DIR
from paipu.v1 import ingest_service_pb2 as ipb
from paipu.v1 import ingest_service_pb2_grpc as ipb_grpc
from paipu.v1 import replay_service_pb2 as rpb
from paipu.v1 import replay_service_pb2_grpc as rpb_grpc
from replayer.audit import fan_key

DEADLINE = 30.0  # seconds; only ever reached when something is broken
SAMPLE = SAMPLES_DIR / "botzone-mcr-human-sample" / "sample_16_games.txt"


# ----------------------------------------------------------------------------- the source
def source_matches(path: Path = SAMPLE) -> list[dict]:
    """Each ``Match`` block of a Botzone text file: id, deals by seat, fan line, scores."""
    matches: list[dict] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "Match":
            matches.append({"id": words[1], "deal": {}, "fan": None, "score": None})
        elif words[0] == "Player" and words[2] == "Deal":
            matches[-1]["deal"][int(words[1])] = words[3:]
        elif words[0] == "Fan":
            total = int(words[1])
            fans = {}
            for item in words[2].split("+"):
                name, count = item.rsplit("*", 1)
                fans[name] = fans.get(name, 0) + int(count)
            matches[-1]["fan"] = (total, fans)
        elif words[0] == "Score":
            matches[-1]["score"] = [int(w) for w in words[1:]]
    return matches


MATCHES = source_matches()
GAME_IDS = [f"botzone-{m['id']}" for m in MATCHES]


# ----------------------------------------------------------------------------- fixtures
@pytest.fixture
def store(tmp_path):
    s = open_store(tmp_path / "data")
    yield s
    s.close()


@pytest.fixture
def server(store):
    srv, port = build_server(store, port=0)
    srv.start()
    yield f"127.0.0.1:{port}"
    srv.stop(None)


@pytest.fixture
def channel(server):
    ch = grpc.insecure_channel(server)
    yield ch
    ch.close()


@pytest.fixture
def ingest_stub(channel):
    return ipb_grpc.IngestServiceStub(channel)


@pytest.fixture
def replay_stub(channel):
    return rpb_grpc.ReplayServiceStub(channel)


@pytest.fixture
def client(server):
    with EventLogClient(server, timeout=DEADLINE) as c:
        yield c


@pytest.fixture
def loaded(client):
    """The server's store with the 16 sample games uploaded."""
    report = client.ingest_log(SAMPLE)
    assert report.stored == GAME_IDS
    return client


def upload(stub, data: bytes, file_name: str, fmt: str | None = None, chunk: int = 1000):
    header = ipb.IngestLogHeader(file_name=file_name)
    if fmt is not None:
        header.format = fmt
    msgs = [ipb.IngestLogRequest(header=header)]
    msgs += [ipb.IngestLogRequest(chunk=data[i : i + chunk]) for i in range(0, len(data), chunk)]
    return stub.IngestLog(iter(msgs), timeout=DEADLINE)


def bad_request_field(err: grpc.RpcError) -> str:
    status = rpc_status.from_call(err)
    for any_ in status.details:
        if any_.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            any_.Unpack(bad)
            return bad.field_violations[0].field
    raise AssertionError("no BadRequest detail")


def error_reason(err: grpc.RpcError) -> str:
    status = rpc_status.from_call(err)
    for any_ in status.details:
        if any_.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            any_.Unpack(info)
            return info.reason
    raise AssertionError("no ErrorInfo detail")


def seq_of(client, game_id: str, type_: str, seat: int) -> int:
    return next(e.seq for e in client.read_game(game_id) if e.type == type_ and e.payload.seat == seat)


# ----------------------------------------------------------------------------- ingest
def test_upload_stores_every_game_then_again_only_duplicates(ingest_stub, client) -> None:
    assert len(MATCHES) == 16
    data = SAMPLE.read_bytes()
    first = upload(ingest_stub, data, "logs/sample_16_games.txt")  # 1000-byte chunks
    assert first.format == "botzone-text"
    assert list(first.stored_game_ids) == GAME_IDS
    assert list(first.duplicate_game_ids) == []
    assert list(first.issues) == []
    assert first.bytes == len(data)
    assert first.events == sum(g.event_count for g in client.list_games())
    again = upload(ingest_stub, data, "sample_16_games.txt", fmt="botzone-text", chunk=1 << 20)
    assert list(again.stored_game_ids) == []
    assert list(again.duplicate_game_ids) == GAME_IDS
    assert again.events == 0
    # the events carry the uploaded file's name, as a local ingest would write it
    first_event = next(client.read_game(GAME_IDS[0]))
    assert first_event.metadata["source"] == "sample_16_games.txt"


def test_upload_after_a_local_ingest_is_all_duplicates(store, client) -> None:
    local = ingest_files(store, [SAMPLE])
    assert local.stored == GAME_IDS
    report = client.ingest_log(SAMPLE)
    assert (report.stored, report.duplicates, report.errors) == ([], GAME_IDS, [])


def test_a_bad_line_is_reported_with_its_line_and_the_other_games_load(tmp_path, client) -> None:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)
    # In the third match, replace its first discard by seat 0 with an unknown tile.
    start = [i for i, l in enumerate(lines) if l.startswith("Match ")][2]
    bad = next(i for i in range(start, len(lines)) if lines[i].startswith("Player 0 Play "))
    lines[bad] = "Player 0 Play X9\n"
    path = tmp_path / "damaged.txt"
    path.write_text("".join(lines), encoding="utf-8")
    report = client.ingest_log(path)
    assert report.stored == GAME_IDS[:2] + GAME_IDS[3:]
    (issue,) = report.errors
    assert issue.path == str(path)
    assert issue.line == bad + 1
    assert "X9" in issue.reason
    assert issue.game_id == GAME_IDS[2]
    assert "paipu-ingest-" not in issue.reason  # the server's spool file is never named


def test_unknown_format_is_invalid_argument_listing_the_known_formats(ingest_stub, client, tmp_path) -> None:
    with pytest.raises(grpc.RpcError) as exc:
        upload(ingest_stub, SAMPLE.read_bytes(), "x.txt", fmt="tenhou")
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_field(exc.value) == "header.format"
    for name in known_formats():
        assert name in exc.value.details()
    # a file no importer recognises: same code, through the client as UnknownFormatError
    junk = tmp_path / "notes.txt"
    junk.write_text("hello\nthis is not a game log\n", encoding="utf-8")
    with pytest.raises(UnknownFormatError, match="known formats: botzone-text"):
        client.ingest_log(junk)
    assert client.list_games() == []


def test_an_upload_must_start_with_one_header(ingest_stub) -> None:
    with pytest.raises(grpc.RpcError) as exc:
        ingest_stub.IngestLog(iter([ipb.IngestLogRequest(chunk=b"Match 1\n")]), timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_field(exc.value) == "header"
    with pytest.raises(grpc.RpcError) as exc:
        upload(ingest_stub, b"", "dir/")
    assert bad_request_field(exc.value) == "header.file_name"


# ----------------------------------------------------------------------------- GetState
def test_get_state_shows_the_tiles_dealt_in_the_source_and_hides_them_from_other_seats(loaded) -> None:
    game, deal = GAME_IDS[0], MATCHES[0]["deal"]
    seq = seq_of(loaded, game, "tiles_dealt", 3)  # every seat has its 13 tiles, no draw yet
    full = loaded.get_state(game, seq)
    assert full.seq == seq and full.event.seq == seq
    assert full.event.event.WhichOneof("payload") == "tiles_dealt"
    for s in range(4):
        assert list(full.seats[s].concealed_tiles) == deal[s]
        assert full.seats[s].concealed_count == 13
        assert not full.seats[s].hidden_from_view
    assert full.phase == rpb.PHASE_DEALING
    assert full.dealer == 0 and full.hand_number == 0
    assert full.prevalent_wind == "F2"  # "Wind 1" of the first match
    assert not full.HasField("view_seat")

    seen_by_1 = loaded.get_state(game, seq, seat=1)
    assert list(seen_by_1.seats[1].concealed_tiles) == deal[1]
    for s in (0, 2, 3):
        assert list(seen_by_1.seats[s].concealed_tiles) == []
        assert seen_by_1.seats[s].hidden_from_view
        assert seen_by_1.seats[s].concealed_count == 13
        assert seen_by_1.seats[s].unknown_tiles == 13
    # the event itself (seat 3's deal) must not give seat 3's tiles away
    assert seen_by_1.view_seat == 1 and seen_by_1.redacted
    assert list(seen_by_1.event.event.tiles_dealt.tiles) == []
    assert seen_by_1.event.hash == full.event.hash


def test_get_state_after_the_first_discard(loaded) -> None:
    game, deal = GAME_IDS[0], MATCHES[0]["deal"]
    # Source: "Player 0 Draw J3" then "Player 0 Play T6".
    seq = seq_of(loaded, game, "tile_discarded", 0)
    st = loaded.get_state(game, seq)
    hand = list(deal[0]) + ["J3"]
    hand.remove("T6")
    assert sorted(st.seats[0].concealed_tiles) == sorted(hand)
    assert [(d.tile, d.HasField("claimed_by")) for d in st.seats[0].discards] == [("T6", False)]
    assert st.phase == rpb.PHASE_CLAIMS
    assert st.pending_discard_seq == seq
    assert st.turn == 1


def test_get_state_errors(replay_stub, loaded) -> None:
    game = GAME_IDS[0]
    n = sum(1 for _ in loaded.read_game(game))
    with pytest.raises(grpc.RpcError) as exc:
        replay_stub.GetState(rpb.GetStateRequest(game_id="nope", seq=0), timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.NOT_FOUND
    assert error_reason(exc.value) == "GAME_NOT_FOUND"
    with pytest.raises(grpc.RpcError) as exc:
        replay_stub.GetState(rpb.GetStateRequest(game_id=game, seq=n), timeout=DEADLINE)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_field(exc.value) == "seq"
    assert f"0..{n - 1}" in exc.value.details()
    with pytest.raises(grpc.RpcError) as exc:
        replay_stub.GetState(rpb.GetStateRequest(game_id=game, seq=0, seat=4), timeout=DEADLINE)
    assert bad_request_field(exc.value) == "seat"
    # through the client: the store's exceptions
    with pytest.raises(GameNotFound):
        loaded.get_state("nope", 0)
    with pytest.raises(ValueError, match="out of range"):
        loaded.get_state(game, n)
    with pytest.raises(GameNotFound):
        loaded.verify("nope")
    with pytest.raises(GameNotFound):
        loaded.step_through("nope", 0, 1)


# ----------------------------------------------------------------------------- StepThrough
def test_step_through_yields_one_state_per_event_in_order(loaded, replay_stub) -> None:
    game = GAME_IDS[1]
    states = list(loaded.step_through(game, 10, 30))
    assert [s.seq for s in states] == list(range(10, 31))
    assert [s.event.seq for s in states] == list(range(10, 31))
    # the same table as GetState at each end
    assert states[0] == loaded.get_state(game, 10)
    assert states[-1] == loaded.get_state(game, 30)
    n = sum(1 for _ in loaded.read_game(game))
    assert [s.seq for s in loaded.step_through(game, n - 3)] == [n - 3, n - 2, n - 1]
    with pytest.raises(ValueError, match="before from_seq"):
        loaded.step_through(game, 30, 10)
    with pytest.raises(grpc.RpcError) as exc:
        list(replay_stub.StepThrough(rpb.StepThroughRequest(game_id=game, from_seq=0, to_seq=n), timeout=DEADLINE))
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_field(exc.value) == "to_seq"


# ----------------------------------------------------------------------------- Verify
def test_verify_first_game_chain_ok_and_fans_as_in_the_source(loaded) -> None:
    res = loaded.verify(GAME_IDS[0])
    n = sum(1 for _ in loaded.read_game(GAME_IDS[0]))
    assert res.game_id == GAME_IDS[0]
    assert res.chain.ok and res.chain.events == n and not res.chain.HasField("first_bad_seq")
    (win,) = res.audit.wins
    total, fans = MATCHES[0]["fan"]  # Fan 9 混一色*1+箭刻*1+老少副*1
    assert {f.name_zh: f.count for f in win.fans} == fans
    assert win.points == total
    assert list(win.changes.values) == MATCHES[0]["score"]
    assert win.fans_agree and win.score_agrees
    assert [(f.name, f.count) for f in win.reported.fans] == list(fans.items())
    assert res.ok and res.audit.ok


def test_verify_every_win_against_the_source_fan_and_score_lines(loaded) -> None:
    checked = 0
    for game, match in zip(GAME_IDS, MATCHES):
        res = loaded.verify(game)
        assert res.chain.ok, game
        if match["fan"] is None:  # Huang: an exhaustive draw
            assert list(res.audit.wins) == [] and res.audit.draws == 1
            continue
        total, fans = match["fan"]
        (win,) = res.audit.wins
        computed: dict[str, int] = {}
        for f in win.fans:
            computed[fan_key(f.name_zh)] = computed.get(fan_key(f.name_zh), 0) + f.count
        assert computed == {fan_key(k): v for k, v in fans.items()}, game
        assert win.points == total, game
        assert list(win.changes.values) == match["score"], game
        checked += 1
    assert checked == 14  # README: 14 wins, 2 draws


def test_verify_reports_a_broken_chain_without_an_audit(loaded, tmp_path) -> None:
    import sqlite3

    game = GAME_IDS[0]
    db = sqlite3.connect(tmp_path / "data" / "events.sqlite")
    db.execute("DROP TRIGGER events_no_update")
    db.execute("UPDATE events SET payload = replace(payload, 'T6', 'T7') WHERE game_id = ? AND seq = 7", (game,))
    db.commit()
    db.close()
    res = loaded.verify(game)
    assert not res.ok and not res.chain.ok
    assert res.chain.first_bad_seq == 7
    assert not res.HasField("audit")


# ----------------------------------------------------------------------------- server
def test_health_and_reflection_list_the_new_services(channel) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    for name in ("paipu.v1.IngestService", "paipu.v1.ReplayService", "paipu.v1.EventLogService"):
        res = health.Check(health_pb2.HealthCheckRequest(service=name), timeout=DEADLINE)
        assert res.status == health_pb2.HealthCheckResponse.SERVING
    db = ProtoReflectionDescriptorDatabase(channel)
    services = set(db.get_services())
    assert {"paipu.v1.IngestService", "paipu.v1.ReplayService", "paipu.v1.EventLogService"} <= services


def test_tokens_ingest_needs_a_recorder_replay_a_viewer(store) -> None:
    srv, port = build_server(store, port=0, tokens={"v-token": "viewer", "r-token": "recorder"})
    srv.start()
    target = f"127.0.0.1:{port}"
    try:
        with EventLogClient(target, timeout=DEADLINE, token="v-token") as viewer:
            with pytest.raises(RemoteError) as exc:
                viewer.ingest_log(SAMPLE)
            assert exc.value.code == grpc.StatusCode.PERMISSION_DENIED
        with EventLogClient(target, timeout=DEADLINE) as anonymous:
            with pytest.raises(RemoteError) as exc:
                anonymous.get_state(GAME_IDS[0], 0)
            assert exc.value.code == grpc.StatusCode.UNAUTHENTICATED
        with EventLogClient(target, timeout=DEADLINE, token="r-token") as recorder:
            assert len(recorder.ingest_log(SAMPLE).stored) == 16
        with EventLogClient(target, timeout=DEADLINE, token="v-token") as viewer:
            assert viewer.get_state(GAME_IDS[0], 0).event.event.WhichOneof("payload") == "game_started"
            assert viewer.verify(GAME_IDS[0]).chain.ok
    finally:
        srv.stop(None)


# ----------------------------------------------------------------------------- CLI
def test_cli_ingest_through_the_server_keeps_its_output(server, tmp_path) -> None:
    from paipu.cli import app

    runner = CliRunner()
    res = runner.invoke(app, ["ingest", str(SAMPLE), "--server", server], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert re.search(r"^16 games stored \(\d+ events\), 0 already stored, 0 errors$", res.output, re.M)
    res = runner.invoke(app, ["ingest", str(SAMPLE), "--server", server], catch_exceptions=False)
    assert (f"0 games stored (0 events), 16 already stored (as {', '.join(GAME_IDS[:3])}, …), 0 errors"
            in res.output), res.output
