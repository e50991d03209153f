"""The door of the log (issue s6): a number beyond its documented range (docs/events.md
"Number ranges": a score −10⁹ … 10⁹, a hand number or seq 0 … 2³¹ − 1) and a game_started
naming an unknown ruleset or options its ruleset refuses are refused by every way in — `paipu
ingest`, `paipu append`, gRPC Append / AppendStream / IngestLog — with the file and line (or
the event) and why; and a log that holds such a game from before (append-only: it is never
removed) still exports, verifies, serves over gRPC and shows on the dashboard, that game
named with why instead of the whole command failing.

Real SQLite stores, the real CLI, a real gRPC server on loopback, Streamlit's AppTest. A
game "stored before" is appended as the store took it before these checks: its payload
validated as a stored payload (``parse_payload(..., stored=True)``), then appended.
"""

from __future__ import annotations

import json
from pathlib import Path

import grpc
import pytest

from eventlog import events as ev
from eventlog.store import open_store
from paipu.v1 import event_log_service_pb2 as pb
from paipu.v1 import event_log_service_pb2_grpc as pb_grpc
from paipu.v1 import events_pb2
from paipu.v1 import ingest_service_pb2 as ipb
from paipu.v1 import ingest_service_pb2_grpc as ipb_grpc
from paipu.v1 import replay_service_pb2 as rpb
from paipu.v1 import replay_service_pb2_grpc as rpb_grpc
from services.client import EventLogClient
from services.server import build_server
from tests.cli_run import one_error, run

ROOT = Path(__file__).resolve().parents[1]
BOTZONE_JSON = ROOT / "paipu/samples/botzone-mcr-matchlog-json/6a20231658ebe27b197daaa8_lite.json"
HUGE = 10**30
LIMIT = 10**9  # docs/events.md "Number ranges": a score is -10^9 .. 10^9
DEADLINE = 10.0


def simulated_lines(folder: Path) -> list[dict]:
    """One simulated MCR game (`paipu simulate`), its events as JSON objects."""
    out = folder / "s.jsonl"
    res = run("simulate", "--games", 1, "--seed", 2, "--hands-per-game", 1, "--out", out)
    assert res.exit_code == 0, res.output
    return [json.loads(line) for line in out.read_text().splitlines()]


@pytest.fixture(scope="module")
def sim_lines(tmp_path_factory) -> list[dict]:
    return simulated_lines(tmp_path_factory.mktemp("sim"))


def _jsonl(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(d) + "\n" for d in lines))
    return path


def _with(lines: list[dict], **game_started) -> list[dict]:
    out = json.loads(json.dumps(lines))
    out[0]["payload"].update(game_started)
    return out


def store_as_before(data: Path, game_id: str, lines: list[dict]) -> None:
    """Append ``lines`` (event JSON objects) as game ``game_id`` the way the log took them
    before the door checked number ranges and rulesets."""
    store = open_store(data)
    try:
        store.append(game_id, [
            ev.NewEvent.of(ev.parse_payload(d["type"], d["payload"], stored=True),
                           game_seq=(game_id, i), metadata=d.get("metadata") or {})
            for i, d in enumerate(lines)
        ])
    finally:
        store.close()


def _events(data: Path, game_id: str) -> list[dict]:
    store = open_store(data)
    try:
        return [{"type": e.type, "payload": e.payload_json(), "metadata": e.metadata} for e in store.read_game(game_id)]
    finally:
        store.close()


@pytest.fixture
def served(tmp_path):
    """``(data dir, address)``: a gRPC server on loopback over a fresh SQLite store."""
    data = tmp_path / "served"
    store = open_store(data)
    srv, port = build_server(store, port=0, poll_interval=0.02)
    srv.start()
    yield data, f"127.0.0.1:{port}", store
    srv.stop(None)
    store.close()


# ----------------------------------------------------------------------------- numbers at the door
def test_ingest_refuses_a_botzone_score_beyond_its_range_naming_file_and_record(tmp_path) -> None:
    d = json.loads(BOTZONE_JSON.read_text())
    d["logs"][-1]["output"]["display"]["score"][3] = HUGE
    huge = tmp_path / "huge.json"
    huge.write_text(json.dumps(d))
    res = run("ingest", "--data", tmp_path / "d", "-q", BOTZONE_JSON, huge)
    assert res.exit_code == 1, res.output  # README: 1 = files that did not import
    assert "1 game stored" in res.output and "1 error" in res.output
    err = next(ln for ln in res.output.splitlines() if ln.startswith("error: "))
    assert err.startswith(f"error: {huge}:1 record ")
    assert "score_changes[3]" in err and f"{-LIMIT}..{LIMIT}" in err


def test_append_refuses_initial_scores_beyond_the_range_and_takes_the_range_s_ends(tmp_path, sim_lines) -> None:
    bad = _jsonl(tmp_path / "bad.jsonl", _with(sim_lines[:1], initial_scores=[HUGE, 0, 0, 0]))
    res = run("append", "--data", tmp_path / "d", "g-huge", bad)
    assert res.exit_code == 2
    err = one_error(res)
    assert err.startswith(f"error: {bad}:1: game_started: payload.initial_scores[0]: a score must be within")
    over = _jsonl(tmp_path / "over.jsonl", _with(sim_lines[:1], initial_scores=[LIMIT + 1, 0, 0, 0]))
    assert run("append", "--data", tmp_path / "d", "g-over", over).exit_code == 2
    ends = _jsonl(tmp_path / "ends.jsonl", _with(sim_lines[:1], initial_scores=[LIMIT, -LIMIT, 0, 0]))
    res = run("append", "--data", tmp_path / "d", "g-ends", ends)
    assert res.exit_code == 0, res.output


def test_grpc_append_refuses_a_number_beyond_its_range(served) -> None:
    _data, address, _store = served
    stub = pb_grpc.EventLogServiceStub(grpc.insecure_channel(address))
    msg = events_pb2.Event(event_id="11111111-0000-4000-8000-000000000001",
                           game_started=events_pb2.GameStarted(ruleset="mcr", players=["A", "B", "C", "D"],
                                                               initial_scores=[2**62, 0, 0, 0]))
    with pytest.raises(grpc.RpcError) as e:
        stub.Append(pb.AppendRequest(game_id="g", events=[msg]), timeout=DEADLINE)
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "initial_scores[0]: a score must be within" in e.value.details()


# ----------------------------------------------------------------------------- a number stored before
@pytest.fixture
def huge_log(tmp_path) -> tuple[Path, str, int]:
    return make_huge_log(tmp_path / "d")


def make_huge_log(data: Path) -> tuple[Path, str, int]:
    """A log in ``data`` with the bundled Botzone JSON game and a copy of it stored before the
    range check with a reported score of 10^30: ``(data dir, game id, seq of that event)``."""
    assert run("ingest", "--data", data, "-q", BOTZONE_JSON).exit_code == 0
    store = open_store(data)
    (good,) = [g.game_id for g in store.list_games()]
    store.close()
    lines = _events(data, good)
    seq = max(i for i, d in enumerate(lines) if d["type"] == "score_reported")
    lines[seq]["payload"]["score_changes"][3] = HUGE
    store_as_before(data, "legacy-huge", lines)
    return data, good, seq


def test_export_skips_the_game_with_the_number_and_exports_the_others(huge_log) -> None:
    data, good, seq = huge_log
    res = run("export", "--data", data, "-q")
    assert res.exit_code == 1, res.output  # README: 1 = games not exported
    skipped = [ln for ln in res.output.splitlines() if ln.startswith("skipped ")]
    assert len(skipped) == 1 and skipped[0].startswith(f"skipped legacy-huge: seq {seq}: score_reported")
    assert "exported 1 game" in res.output
    import pyarrow.parquet as pq

    assert pq.read_table(data / "parquet" / "games").column("game_id").to_pylist() == [good]
    stats = run("stats", "--data", data, "--json")
    assert stats.exit_code == 0, stats.output
    again = run("export", "--data", data, "-q")  # nothing new: the skipped game was named once
    assert again.exit_code == 0, again.output


def test_export_skips_the_game_with_the_number_also_when_its_rows_are_turned_into_arrow_early(
        huge_log, monkeypatch) -> None:
    """The pending games' rows turned into Arrow a game at a time (analytics/export/writer.py
    ARROW_ROWS, issue 19): the game whose number does not fit is found there, and named the same."""
    from analytics.export import writer

    monkeypatch.setattr(writer, "ARROW_ROWS", 1)
    data, good, seq = huge_log
    res = run("export", "--data", data, "-q")
    assert res.exit_code == 1, res.output
    skipped = [ln for ln in res.output.splitlines() if ln.startswith("skipped ")]
    assert len(skipped) == 1 and skipped[0].startswith(f"skipped legacy-huge: seq {seq}: score_reported")
    assert "exported 1 game" in res.output
    import pyarrow.parquet as pq

    assert pq.read_table(data / "parquet" / "games").column("game_id").to_pylist() == [good]


def test_grpc_serves_the_stored_event_and_a_subscriber_goes_past_it(huge_log) -> None:
    data, good, seq = huge_log
    store = open_store(data)
    srv, port = build_server(store, port=0, poll_interval=0.02)
    srv.start()
    try:
        with EventLogClient(f"127.0.0.1:{port}", timeout=DEADLINE) as client:
            read = list(client.read_game("legacy-huge"))
            assert [e.seq for e in read] == list(range(len(read)))
            assert read[seq].type == "score_reported" and read[seq].payload.score_changes[3] == HUGE
            assert read == list(store.read_game("legacy-huge"))
            head = store.head_position()
            seen = []
            for e in client.subscribe(from_position=0):
                seen.append(e.position)
                if e.position == head:
                    break
            assert seen == list(range(1, head + 1))
        raw = pb_grpc.EventLogServiceStub(grpc.insecure_channel(f"127.0.0.1:{port}"))
        got = [e for m in raw.ReadGame(pb.ReadGameRequest(game_id="legacy-huge"), timeout=DEADLINE) for e in m.events]
        carried = got[seq]
        assert carried.event.WhichOneof("payload") is None and carried.stored_type == "score_reported"
        assert json.loads(carried.stored_payload_json)["score_changes"][3] == HUGE
        assert all(not e.stored_type for i, e in enumerate(got) if i != seq)
        state = rpb_grpc.ReplayServiceStub(grpc.insecure_channel(f"127.0.0.1:{port}"))
        msg = state.GetState(rpb.GetStateRequest(game_id="legacy-huge", seq=seq), timeout=DEADLINE)
        assert msg.state.event.stored_type == "score_reported"
    finally:
        srv.stop(None)
        store.close()


def test_grpc_state_beyond_the_contract_is_a_clear_status_naming_game_and_seq(tmp_path, sim_lines) -> None:
    data = tmp_path / "d"
    store_as_before(data, "legacy-init", _with(sim_lines, initial_scores=[HUGE, 0, 0, 0]))
    store = open_store(data)
    srv, port = build_server(store, port=0, poll_interval=0.02)
    srv.start()
    try:
        stub = rpb_grpc.ReplayServiceStub(grpc.insecure_channel(f"127.0.0.1:{port}"))
        with pytest.raises(grpc.RpcError) as e:
            stub.GetState(rpb.GetStateRequest(game_id="legacy-init", seq=3), timeout=DEADLINE)
        assert e.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert e.value.details().startswith("game 'legacy-init' seq 3: ")
        with EventLogClient(f"127.0.0.1:{port}", timeout=DEADLINE) as client:
            assert list(client.read_game("legacy-init"))[0].payload.initial_scores[0] == HUGE
    finally:
        srv.stop(None)
        store.close()
    res = run("export", "--data", data, "-q")
    assert res.exit_code == 1
    assert "skipped legacy-init: seq 0: game_started: payload.initial_scores[0]" in res.output


# ----------------------------------------------------------------------------- rulesets at the door
BAD_OPTIONS = [{"min_fans": "eight"}, {"min_fans": -5}, {"nosuchopt": 1}]


def test_append_and_ingest_refuse_an_unknown_ruleset_and_bad_options(tmp_path, sim_lines) -> None:
    bad = _jsonl(tmp_path / "bad.jsonl", [{"event_id": "11111111-0000-4000-8000-000000000000", "type": "game_started",
                                           "payload": {"ruleset": "nosuch", "players": ["A", "B", "C", "D"]}}])
    res = run("append", "--data", tmp_path / "d", "g-bad", bad)
    assert res.exit_code == 2
    assert one_error(res) == f"error: {bad}:1: game_started: payload: unknown ruleset 'nosuch'"
    for i, options in enumerate([*BAD_OPTIONS, None]):
        changed = _with(sim_lines, ruleset="nosuch") if options is None else _with(sim_lines, ruleset_options=options)
        f = _jsonl(tmp_path / f"sb{i}.jsonl", changed)
        res = run("ingest", "--data", tmp_path / "d", "-q", f)
        assert res.exit_code == 1, (options, res.output)
        err = next(ln for ln in res.output.splitlines() if ln.startswith("error: "))
        assert err.startswith(f"error: {f}:1: game_started: payload: "), err
        assert ("unknown ruleset 'nosuch'" if options is None else f"mcr option {next(iter(options))}:") in err
    assert run("ingest", "--data", tmp_path / "d", "-q", _jsonl(tmp_path / "ok.jsonl", sim_lines)).exit_code == 0


def test_grpc_append_append_stream_and_ingest_log_refuse_an_unknown_ruleset(served, sim_lines) -> None:
    _data, address, store = served
    channel = grpc.insecure_channel(address)
    stub = pb_grpc.EventLogServiceStub(channel)

    def start(ruleset: str, options: str = "") -> events_pb2.Event:
        return events_pb2.Event(event_id="11111111-0000-4000-8000-000000000002", game_started=events_pb2.GameStarted(
            ruleset=ruleset, ruleset_options_json=options, players=["A", "B", "C", "D"]))

    for msg in (start("nosuch"), start("mcr", '{"min_fans":"eight"}')):
        with pytest.raises(grpc.RpcError) as e:
            stub.Append(pb.AppendRequest(game_id="g", events=[msg]), timeout=DEADLINE)
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert ("unknown ruleset 'nosuch'" in e.value.details()) or ("min_fans" in e.value.details())
        with pytest.raises(grpc.RpcError) as e:
            stub.AppendStream(iter([pb.AppendRequest(game_id="g", events=[msg])]), timeout=DEADLINE)
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    data = "".join(json.dumps(d) + "\n" for d in _with(sim_lines, ruleset="nosuch")).encode()
    up = ipb_grpc.IngestServiceStub(channel).IngestLog(iter([
        ipb.IngestLogRequest(header=ipb.IngestLogHeader(file_name="sb.jsonl")), ipb.IngestLogRequest(chunk=data)]),
        timeout=DEADLINE)
    assert list(up.stored_game_ids) == []
    (issue,) = up.issues
    assert issue.line == 1 and "unknown ruleset 'nosuch'" in issue.reason
    assert store.list_games() == []


# ----------------------------------------------------------------------------- a game stored before
@pytest.fixture
def nosuch_log(tmp_path, sim_lines) -> Path:
    return make_nosuch_log(tmp_path, sim_lines)


def make_nosuch_log(folder: Path, lines: list[dict]) -> Path:
    """A log (``folder``/d) with a simulated game and a copy of it stored before the ruleset
    check, naming the ruleset 'nosuch'."""
    data = folder / "d"
    assert run("ingest", "--data", data, "-q", _jsonl(folder / "s.jsonl", lines)).exit_code == 0
    store_as_before(data, "legacy-nosuch", _with(lines, ruleset="nosuch"))
    return data


def test_verify_names_the_game_it_cannot_replay_and_checks_the_others(nosuch_log) -> None:
    res = run("verify", "--data", nosuch_log, "-q")
    assert res.exit_code == 1, res.output  # the log is intact; a game that cannot be checked: findings
    assert "FAIL legacy-nosuch: chain ok" in res.output
    assert ("finding: event 0: [ruleset_unavailable] unknown ruleset 'nosuch': the game cannot be replayed or "
            "checked") in res.output
    assert "2 of 2 chains intact, 1 of them without findings" in res.output
    js = run("verify", "--data", nosuch_log, "-q", "--json")
    assert js.exit_code == 1
    doc = json.loads(js.output)
    assert doc["summary"]["exit_status"] == 1 and doc["summary"]["with_findings"] == 1
    (bad,) = [g for g in doc["games"] if not g["ok"]]
    assert bad["game_id"] == "legacy-nosuch" and bad["findings"][0]["rule_id"] == "ruleset_unavailable"


def test_replay_names_the_game_and_event_it_cannot_replay(nosuch_log) -> None:
    res = run("replay", "legacy-nosuch", "--data", nosuch_log)
    assert res.exit_code == 2  # README: unknown ruleset
    assert one_error(res) == ("error: game legacy-nosuch cannot be replayed: event 0: unknown ruleset 'nosuch' "
                              "(`paipu verify legacy-nosuch` reports it)")


def test_export_exits_1_naming_the_game_it_skipped(nosuch_log) -> None:
    res = run("export", "--data", nosuch_log, "-q")
    assert res.exit_code == 1, res.output
    assert "skipped legacy-nosuch: unknown ruleset 'nosuch'" in res.output
    assert "exported 1 game" in res.output
