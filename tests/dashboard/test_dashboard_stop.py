"""``paipu dashboard`` as a real process: SIGTERM / SIGHUP stop it and its Streamlit child
(a background job ignores SIGINT, so `timeout` and service managers rely on SIGTERM), a bad
or busy port is refused with one line, and the toolbar hides Streamlit's "Deploy" button."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from dashboard.launch import streamlit_command

#: ``paipu dashboard`` through the real console entry (paipu.cli.main).
LAUNCH = "from paipu.cli import main; main()"


@pytest.fixture(autouse=True)
def _store(tmp_path: Path) -> None:
    """The dashboard refuses a directory with no event store (as `paipu serve` does)."""
    from eventlog.store import open_store

    open_store(tmp_path).close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children(pid: int) -> list[int]:
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return [int(p) for p in text.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def _start(data: Path, port: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", LAUNCH, "dashboard", "--data", str(data), "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


def _wait_serving(port: int, proc: subprocess.Popen) -> None:
    end = time.monotonic() + 60
    while time.monotonic() < end:
        assert proc.poll() is None, f"paipu dashboard exited with {proc.returncode}"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise TimeoutError("the dashboard did not answer its health check")


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_signal_stops_dashboard_and_streamlit(tmp_path: Path, sig: int):
    port = _free_port()
    proc = _start(tmp_path, port)
    try:
        _wait_serving(port, proc)
        kids = _children(proc.pid)
        assert len(kids) == 1  # the `streamlit run` server
        proc.send_signal(sig)
        code = proc.wait(timeout=20)  # liveness bound, not a speed check
        assert code == 128 + sig
        deadline = time.monotonic() + 5
        while _alive(kids[0]) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(kids[0]), "the Streamlit server outlived paipu dashboard"
        with pytest.raises(OSError):  # nobody serves the port any more
            urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("port", ["0", "65536", "99999", "-1"])
def test_port_outside_range_is_refused(tmp_path: Path, port: str):
    res = subprocess.run(
        [sys.executable, "-c", LAUNCH, "dashboard", "--data", str(tmp_path), "--port", port],
        capture_output=True, text=True, timeout=60,
    )
    assert res.returncode == 2
    assert res.stderr.strip() == f"error: --port must be 1..65535, got {port}"
    assert "paipu dashboard on" not in res.stdout


def test_busy_port_is_refused(tmp_path: Path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        res = subprocess.run(
            [sys.executable, "-c", LAUNCH, "dashboard", "--data", str(tmp_path), "--port", str(port)],
            capture_output=True, text=True, timeout=60,
        )
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: cannot listen on 127.0.0.1:{port}: "), res.stderr
    assert "in use" in lines[0]


def test_toolbar_has_no_deploy_button(tmp_path: Path):
    argv = streamlit_command(tmp_path, port=8765)
    opts = dict(zip(argv[5:-3:2], argv[6:-3:2]))
    assert opts["--client.toolbarMode"] == "minimal"  # Streamlit: "minimal" hides Deploy
