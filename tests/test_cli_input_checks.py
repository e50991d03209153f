"""Input checks a new user tripped over: ports that wrapped round (99999 -> 34463), an open
non-loopback server without tokens (shared/DESIGN.md §9), vector fields of the wrong JSON
type that were coerced (tests/data/mcr/README.md "Schema"), and a two-tile pung."""

from __future__ import annotations

import copy
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from services.client import EventLogClient, check_target
from services.server import is_loopback, serve
from paipu.cli import app
from replayer.rules.mcr import vectors as mcr_vectors
from replayer.rules.nanchang import vectors as nc_vectors
from replayer.rules.shared.vector_lines import score_lines

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def _first(path: Path, **match: object) -> dict:
    for line in path.read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        if all(obj.get(k) == v for k, v in match.items()):
            return obj
    raise LookupError(match)


# ----------------------------------------------------------------------------- ports
@pytest.mark.parametrize("port", ["99999", "65536", "-1"])
def test_serve_refuses_a_port_outside_0_to_65535(tmp_path, port):
    res = run("serve", "--data", str(tmp_path), "--port", port)
    assert res.exit_code == 2
    bound = "greater than or equal to 0" if port.startswith("-") else "less than or equal to 65535"
    assert "Invalid value for '--port'" in res.output and bound in res.output, res.output
    assert "listening" not in res.output


@pytest.mark.parametrize("target", ["127.0.0.1:99999", "127.0.0.1:65536", "127.0.0.1:0", "127.0.0.1:-1",
                                    "127.0.0.1:http", "127.0.0.1"])
def test_client_refuses_a_bad_target(target):
    with pytest.raises(ValueError, match=re.escape(repr(target))):
        EventLogClient(target)


def test_client_accepts_ports_1_and_65535_and_ipv6():
    for t in ("127.0.0.1:1", "localhost:65535", "[::1]:50051"):
        assert check_target(t) == t


def test_games_with_a_wrapped_port_fails_with_one_line():
    res = run("games", "--server", "127.0.0.1:99999")
    assert res.exit_code == 2
    assert "'127.0.0.1:99999'" in res.output and "1..65535" in res.output
    assert len(res.output.strip().splitlines()) == 1


# ----------------------------------------------------------------------------- serve host
def test_loopback_names():
    for h in ("127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"):
        assert is_loopback(h), h
    for h in ("0.0.0.0", "::", "192.168.1.5", "example.org"):
        assert not is_loopback(h), h


def test_serve_refuses_any_interface_without_tokens(tmp_path):
    with pytest.raises(ValueError, match="refusing to listen on 0.0.0.0 without tokens"):
        serve(tmp_path / "d", host="0.0.0.0", port=0)
    assert not (tmp_path / "d").exists() or not any((tmp_path / "d").iterdir())
    res = run("serve", "--data", str(tmp_path / "d"), "--host", "0.0.0.0", "--port", "0")
    assert res.exit_code == 2
    assert "--insecure" in res.output and "--tokens" in res.output


def test_serve_insecure_warns_and_serves(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-c", "from paipu.cli import main; main()", "serve", "--data", str(tmp_path / "d"),
         "--host", "0.0.0.0", "--port", "0", "--insecure", "--create"],
        cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        warning = proc.stderr.readline()
        assert "WARNING" in warning and "NO TOKENS" in warning
        m = re.search(r"listening on 0\.0\.0\.0:(\d+)", proc.stderr.readline())
        assert m
        with EventLogClient(f"127.0.0.1:{m.group(1)}", timeout=30) as c:
            assert c.health() == "SERVING"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# ----------------------------------------------------------------------------- MCR vectors
@pytest.fixture(scope="module")
def mcr_case() -> dict:
    """A legal discard win without flowers, from the bundled vectors."""
    return _first(DATA / "mcr" / "fan_vectors.jsonl", self_drawn=False, flowers=0, melds=[])


def _with(base: dict, **changes: object) -> dict:
    obj = copy.deepcopy(base)
    obj.update(changes)
    return obj


@pytest.mark.parametrize("field, value", [
    ("self_drawn", "false"), ("self_drawn", 1), ("last_tile", "true"), ("kong_related", None),
    ("last_of_wall", 0),
    ("flowers", "3"), ("flowers", 2.7), ("flowers", True), ("flowers", 9), ("flowers", -1),
    ("hand", "W1W2W3"), ("hand", ["W1", 2]), ("hand", ["X9"]),
    ("win_tile", ["J3"]), ("win_tile", 5), ("win_tile", "Z1"),
    ("melds", {"type": "pung"}), ("melds", ["pung"]),
    ("melds", [{"type": "pung", "tiles": "B9B9B9"}]), ("melds", [{"type": "sequence", "tiles": ["B1", "B2", "B3"]}]),
    ("melds", [{"type": "pung", "tiles": ["B9", "B9", "B9"], "concealed": "no"}]),
    ("melds", [{"type": "pung", "tiles": ["B9", "B9", "B9"], "claimed_from": "1"}]),
    ("seat_wind", "East"), ("seat_wind", 0), ("prevalent_wind", "e"),
])
def test_mcr_situation_rejects_mistyped_fields(mcr_case, field, value):
    with pytest.raises(ValueError, match=re.escape(field)):
        mcr_vectors.situation_from_json(_with(mcr_case, **{field: value}))


def test_mcr_situation_accepts_the_schema_types(mcr_case):
    s = mcr_vectors.situation_from_json(_with(mcr_case, flowers=8, self_drawn=True))
    assert s.self_drawn is True and s.flowers == 8 and s.hand == tuple(mcr_case["hand"])


def test_a_line_that_is_not_an_object_is_reported():
    lines = ["[1,2,3]\n", "\n", '"text"\n']
    out = list(score_lines(lines, mcr_vectors.score_case, source="v.jsonl"))
    assert out == [
        {"id": "line 1", "error": "v.jsonl:1: bad situation: not a JSON object"},
        {"id": "line 3", "error": "v.jsonl:3: bad situation: not a JSON object"},
    ]


def test_score_vectors_writes_every_line_then_exits_1(tmp_path, mcr_case):
    good = {k: v for k, v in mcr_case.items() if k != "expected"}
    bad = [
        _with(good, id="sd", self_drawn="false"),
        _with(good, id="fl", flowers="3"),
        _with(good, id="fl2", flowers=2.7),
        _with(good, id="flt", flowers=True),
        _with(good, id="hs", hand="".join(good["hand"])),
        _with(good, id="wt", win_tile=["J3"]),
    ]
    lines = [json.dumps(good)] + [json.dumps(b) for b in bad] + ["[1,2,3]"]
    src = tmp_path / "v.jsonl"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    res = run("score", "--vectors", str(src), "--out", str(out))
    assert res.exit_code == 1, res.output
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == [good["id"], "sd", "fl", "fl2", "flt", "hs", "wt", "line 8"]
    assert rows[0]["total"] == mcr_case["expected"]["total"]
    assert all("bad situation" in r["error"] for r in rows[1:])
    for r, field in zip(rows[1:], ["self_drawn", "flowers", "flowers", "flowers", "hand", "win_tile"]):
        assert field in r["error"], r
    assert "7 of 8 lines are malformed" in res.output


def test_score_vectors_all_good_exits_0(tmp_path, mcr_case):
    src = tmp_path / "v.jsonl"
    src.write_text(json.dumps(mcr_case) + "\n", encoding="utf-8")
    res = run("score", "--vectors", str(src))
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["total"] == mcr_case["expected"]["total"]


# ----------------------------------------------------------------------------- Nanchang vectors
@pytest.fixture(scope="module")
def nc_case() -> dict:
    return _first(DATA / "nanchang" / "settlement_vectors.jsonl", id="nc-ex01")


@pytest.mark.parametrize("where, field, value", [
    ("outcome", "kong_replacement", "false"), ("outcome", "heavenly", 0), ("outcome", "earthly", "no"),
    ("outcome", "winner", "1"), ("outcome", "discarder", True), ("outcome", "winner", 4),
    ("top", "dealer", "0"), ("top", "dealer", 1.5),
    ("top", "players", "four"), ("top", "players", [[], [], [], []]),
    ("top", "first_discards", "W9F1T3F4"), ("player", "concealed", "W5W5"),
    ("player", "melds", {"type": "pung"}), ("top", "outcome", ["win"]),
])
def test_nanchang_situation_rejects_mistyped_fields(nc_case, where, field, value):
    obj = copy.deepcopy(nc_case)
    target = {"outcome": obj["outcome"], "top": obj, "player": obj["players"][0]}[where]
    target[field] = value
    with pytest.raises(ValueError, match=re.escape(field)):
        nc_vectors.situation_from_json(obj)


def test_nanchang_case_still_scores(nc_case):
    assert nc_vectors.score_case(nc_case)["total"] == nc_case["expected"]["total"]


# ----------------------------------------------------------------------------- --meld
@pytest.mark.parametrize("meld", ["pung:W2W2", "pung:W2W2W2W2", "kong:W2W2W2", "ckong:W2W2", "kong:W2W2"])
def test_meld_with_a_wrong_tile_count_is_refused(meld):
    res = run("score", "--hand", "W1 W1", "--win", "W1", "--meld", meld)
    assert res.exit_code == 2
    n = 3 if meld.startswith("pung") else 4
    assert f"once or {n} times" in res.output


@pytest.mark.parametrize("meld, tiles", [
    ("pung:W2", ("W2",) * 3), ("pung:W2W2W2", ("W2",) * 3),
    ("kong:W2@1", ("W2",) * 4), ("kong:W2W2W2W2@3", ("W2",) * 4), ("ckong:W2W2W2W2", ("W2",) * 4),
])
def test_meld_with_one_or_all_copies_is_accepted(meld, tiles):
    from paipu.cli.melds import parse_meld

    assert parse_meld(meld).tiles == tiles
