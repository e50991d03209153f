"""Input checks a new user tripped over: ports that wrapped round (99999 -> 34463), an open
non-loopback server without tokens (shared/DESIGN.md §9), vector fields of the wrong JSON
type that were coerced (tests/data/mcr/README.md "Schema"), and a two-tile pung."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eventlog.client import EventLogClient, check_target
from eventlog.server import is_loopback, serve
from paipu.cli import app

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
         "--host", "0.0.0.0", "--port", "0", "--insecure"],
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


