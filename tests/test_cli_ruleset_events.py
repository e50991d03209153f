"""A ruleset's own event types (docs/events.md "A ruleset's own event types") through the
command line and the gRPC client in a fresh process, where nothing has imported the ruleset
registry yet: ``paipu append`` and ``paipu ingest`` parse them from a file, ``paipu read``
from the store, services.client from the wire (the CLI and the client install the loader
that finds the ruleset a type names)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME = [
    {"event_id": "3f0e8a52-5b7c-4d3e-9a41-0c6f2b1d7e50", "type": "game_started",
     "payload": {"ruleset": "jingdezhen", "players": ["A", "B", "C", "D"]}},
    {"event_id": "3f0e8a52-5b7c-4d3e-9a41-0c6f2b1d7e40", "type": "nanchang.six_pairs_shown",
     "payload": {"seat": 2, "tiles": ["W1", "W1", "W8", "W8", "T4", "T4", "T7", "T7", "B6", "B6", "J1", "J1"]}},
]


def paipu(*argv: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PAIPU_DATA", None)
    return subprocess.run([sys.executable, "-m", "paipu", *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_append_ingest_and_read_a_rulesets_own_event_in_a_fresh_process(tmp_path):
    f = tmp_path / "g.jsonl"
    f.write_text("".join(json.dumps(e) + "\n" for e in GAME), encoding="utf-8")
    r = paipu("append", "--data", "d", "g1", str(f), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = paipu("read", "--data", "d", "--json", "g1", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert [json.loads(line)["type"] for line in r.stdout.splitlines()] == ["game_started",
                                                                          "nanchang.six_pairs_shown"]
    g = tmp_path / "ingest.jsonl"
    g.write_text("".join(json.dumps({**e, "game_id": "g2"}) + "\n" for e in GAME), encoding="utf-8")
    r = paipu("ingest", "--data", "d2", "--format", "jsonl", str(g), cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 game stored (2 events)" in r.stdout


def test_the_grpc_client_reads_a_rulesets_own_event_off_the_wire(tmp_path):
    """services.client turns RulesetEvent messages back into events (eventlog.convert.from_proto):
    importing the client alone makes the types known."""
    code = ("import json, services.client\n"
            "from eventlog import events as ev\n"
            "from eventlog.convert import from_proto, to_proto\n"
            f"e = ev.parse_event(json.dumps({GAME[1]!r}))\n"
            "assert from_proto(to_proto(e)) == e\n"
            "print(e.type)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "nanchang.six_pairs_shown"
