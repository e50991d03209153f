"""A fresh user's trial, error messages and exit statuses: one line that says where and why
(never pydantic's multi-line text with its URL, an errno, a message repeated or contradicting
itself), a from-date after the to-date is a bad argument (2), `paipu --help` and the README give
the same exit statuses, and the Review call answers a hand the game lacks with
INVALID_ARGUMENT naming `hand` (README "gRPC"). The real CLI, real SQLite, a real server."""

from __future__ import annotations

import json
import re
from pathlib import Path

import grpc
import pytest
from cli_run import one_error, run

from eventlog.errors import InvalidArgument
from eventlog.ingest.load import ingest_files
from eventlog.store import open_store
from paipu.cli.errors import EXIT_STATUSES
from paipu.samples import sample_files
from services.client import EventLogClient
from services.server import build_server

ROOT = Path(__file__).resolve().parents[1]
LITE = next(f for f in sample_files() if f.name == "6a20231658ebe27b197daaa8_lite.json")
TEXT = next(f for f in sample_files() if f.name == "sample_16_games.txt")
FALSE_WIN = ROOT / "tests" / "ingest" / "fixtures" / "botzone_json" / "false_win_WH.json"


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("lines") / "data"
    assert run("ingest", LITE, "--data", d, "-q").exit_code == 0
    assert run("export", "--data", d, "-q").exit_code == 0
    return d


def test_a_from_date_after_the_to_date_is_a_bad_argument(exported):
    for extra in ((), ("--json",)):
        res = run("stats", "--from", "2022-06-26", "--to", "2022-06-24", *extra, "--data", exported)
        assert res.exit_code == 2, res.output
        assert one_error(res) == "error: --from 2022-06-26 is after --to 2022-06-24: no date is in that range (swap them?)"
    assert run("stats", "--from", "2022-06-24", "--to", "2022-06-24", "--data", exported).exit_code == 1  # no rows


def test_help_and_readme_give_the_same_exit_statuses():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("Exit status — one meaning"):]
    rows = dict(re.findall(r"^\| `(\d+)` \| (.+?) \|$", table[:table.index("\n\n", table.index("| status"))],
                           flags=re.M))
    assert {int(k): v.replace("`", "") for k, v in rows.items()} == EXIT_STATUSES
    help_text = " ".join(run("--help").output.split())
    for code, meaning in EXIT_STATUSES.items():
        assert f"{code} = {meaning}" in help_text
    assert "files that did not import (ingest, quickstart)" in help_text


def test_an_output_file_under_a_file_says_the_parent_is_a_file(tmp_path):
    blocker = tmp_path / "passwd"
    blocker.write_text("x", encoding="utf-8")
    for out in (blocker / "x.jsonl", blocker / "deeper" / "x.jsonl"):
        res = run("simulate", "--games", "1", "--out", out)
        assert res.exit_code == 2
        assert one_error(res) == f"error: --out {out}: {blocker} is a file, not a directory"


def test_tiles_in_two_notations_say_so():
    res = run("score", "--hand", "123m 456p W7", "--win", "W7")
    assert res.exit_code == 2
    assert one_error(res) == ("error: --hand 123m 456p W7: tiles in two notations: tile codes (W7) and mpsz "
                              "(123m 456p); write every tile in one of them, e.g. 'W1 W2 W3 B4 B5 B6 W7'")
    res = run("score", "--hand", "123m 456p X7", "--win", "W7")  # the bad token is X7, not the mpsz group
    assert one_error(res).startswith("error: --hand 123m 456p X7: not a tile: 'X7' in ")


def test_a_vectors_option_is_named_in_one_line(tmp_path):
    case = {"id": "c1", "hand": ["W1", "W1", "W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W9", "W9"],
            "melds": [], "win_tile": "W5", "self_drawn": True, "seat_wind": "E", "prevalent_wind": "E",
            "flowers": 0, "options": {"min_fans": "x"}}
    f = tmp_path / "v.jsonl"
    f.write_text(json.dumps(case) + "\n", encoding="utf-8")
    res = run("score", "--vectors", f)
    assert res.exit_code == 1
    (line,) = [json.loads(x) for x in res.output.splitlines() if x.startswith("{")]
    assert line["error"].startswith(f"{f}:1: bad situation: options.min_fans: not a known field (known: "), line
    assert "pydantic" not in line["error"] and "Extra inputs" not in line["error"]


def test_a_false_win_finding_says_not_a_winning_hand_once(tmp_path):
    # seat 1 declares a win on F4 with a hand that does not win (tests/ingest/fixtures/botzone_json)
    d = tmp_path / "d"
    assert run("ingest", FALSE_WIN, "--data", d, "-q").exit_code == 0
    res = run("verify", "--data", d)
    (line,) = [x for x in res.output.splitlines() if "[false_win]" in x]
    assert "declares a win on F4: not a winning hand: T1 T3 T8 T9 B2 B5 B5 B8 F1 F2 F3 F4 J3 + F4 (" in line, line
    assert line.count("not a winning hand") == 1, line


def test_a_long_game_id_in_a_jsonl_file_is_named_not_format_not_recognised(tmp_path):
    src = tmp_path / "one.jsonl"
    assert run("simulate", "--games", "1", "--hands-per-game", "1", "--out", src).exit_code == 0
    lines = [json.loads(x) for x in src.read_text(encoding="utf-8").splitlines()]
    long = tmp_path / "long.jsonl"
    long.write_text("".join(json.dumps({**e, "game_id": "g" * 5000}) + "\n" for e in lines), encoding="utf-8")
    res = run("ingest", long, "--data", tmp_path / "d", "-q")
    assert res.exit_code == 1
    assert "format not recognised" not in res.output
    assert f"{long}:1: game_id longer than 200 characters" in res.output, res.output


def test_a_reimported_game_whose_score_line_differs_says_what_differs(tmp_path):
    lines = TEXT.read_text(encoding="utf-8").splitlines()
    end = lines.index("", 1)
    one, other = tmp_path / "one.txt", tmp_path / "other.txt"
    one.write_text("\n".join(lines[:end]) + "\n", encoding="utf-8")
    edited = list(lines[:end])
    k = next(i for i, t in enumerate(edited) if t.startswith("Score"))
    edited[k] = "Score 1 2 3 -6"
    other.write_text("\n".join(edited) + "\n", encoding="utf-8")
    store = open_store(tmp_path / "d")
    try:
        assert len(ingest_files(store, [one]).stored) == 1
        (err,) = ingest_files(store, [other]).errors
    finally:
        store.close()
    assert "other deal or actions" not in err.reason
    assert re.search(r"differs from the stored game \S+ \(from .*one\.txt\): event \d+ \(score_reported\): "
                     r"score_changes, text differ; nothing was changed", err.reason), err.reason


def test_review_of_a_hand_the_game_lacks_is_invalid_argument(tmp_path):
    store = open_store(tmp_path)
    ingest_files(store, [LITE])
    (gid,) = [g.game_id for g in store.list_games()]
    srv, port = build_server(store, port=0)
    srv.start()
    try:
        with EventLogClient(f"127.0.0.1:{port}", timeout=10.0) as client:
            assert client.review(gid, seats=[0], hand=0).hands  # the game's one hand
            with pytest.raises(InvalidArgument) as bad:
                client.review(gid, seats=[0], hand=99)
            assert bad.value.field == "hand"
            assert str(bad.value) == (f"hand 99: game {gid!r} has no hand with hand_number 99 (hand_numbers 0..0; "
                                      "hand_number counts from 0)")
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            from paipu.v1 import replay_service_pb2 as pb, replay_service_pb2_grpc as pb_grpc

            with pytest.raises(grpc.RpcError) as e:
                pb_grpc.ReplayServiceStub(ch).Review(pb.ReviewRequest(game_id=gid, hand=99), timeout=10.0)
            assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    finally:
        srv.stop(None)
        store.close()


@pytest.mark.parametrize("option", ["--data", "--server"])
def test_a_command_option_before_the_command_says_where_it_goes(option):
    """`paipu --data d5 verify`: --data is an option of each command (only --store is one of
    paipu itself); the usage error says to give it after the command."""
    res = run(option, "d5", "verify")
    assert res.exit_code == 2
    assert f"No such option: {option} before the command" in res.output
    assert f"paipu COMMAND {option}" in res.output and "Possible options" not in res.output
