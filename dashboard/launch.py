"""Starting the Streamlit app (dashboard/app.py) on a data directory (what ``paipu dashboard``,
paipu/cli/dashboard.py, does). The app runs in a child process
(``python -m streamlit run``), headless, on 127.0.0.1 unless ``--host`` says otherwise
(shared/DESIGN.md §9: loopback by default); the data directory is handed over both as
``-- --data DIR`` and as ``$PAIPU_DATA``, the event store of ``paipu --store URL`` as
``$PAIPU_STORE`` (:func:`child_env`; not on the command line, where a password in the URL
would show in the process list). The dashboard only reads them.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from pathlib import Path

__all__ = ["APP", "STOP_GRACE", "streamlit_command", "child_env", "check_port", "run"]

APP = Path(__file__).resolve().parent / "app.py"


def streamlit_command(data: Path, *, host: str = "127.0.0.1", port: int = 8501) -> list[str]:
    """The argv that serves the dashboard on ``host:port`` for ``data`` (no browser opened,
    no usage statistics sent, file watching off: the app's code does not change under it;
    toolbar minimal, so no "Deploy" button)."""
    return [
        sys.executable, "-m", "streamlit", "run", str(APP),
        "--server.headless", "true",
        "--server.address", host,
        "--server.port", str(port),
        "--server.fileWatcherType", "none",
        "--browser.gatherUsageStats", "false",
        "--client.toolbarMode", "minimal",  # no "Deploy" button: this is a local viewer
        "--", "--data", str(data),
    ]


def child_env(env: dict[str, str], data: Path, store: str | None) -> dict[str, str]:
    """The Streamlit child's environment: ``env`` with ``$PAIPU_DATA`` = ``data`` and
    ``$PAIPU_STORE`` = ``store`` (removed when None: the log in ``data``)."""
    out = dict(env, PAIPU_DATA=str(data))
    if store:
        out["PAIPU_STORE"] = store
    else:
        out.pop("PAIPU_STORE", None)
    return out


#: Seconds the Streamlit child gets to stop after SIGTERM before it is killed.
STOP_GRACE = 5.0


def check_port(host: str, port: int) -> str | None:
    """None when ``host:port`` can be listened on, else a one-line reason: the port is
    outside 1..65535 or already in use (probed with a bind, SO_REUSEADDR as Streamlit's
    server sets it, so a port in TIME_WAIT is not refused)."""
    if not 1 <= port <= 65535:
        return f"--port must be 1..65535, got {port}"
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        return f"--host {host!r}: {e.strerror}"
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as e:
            return f"cannot listen on {host}:{port}: {e.strerror or e}"
    return None


class _Stop(Exception):
    """Raised in the main thread by the SIGTERM/SIGINT/SIGHUP handler."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def run(argv: list[str], env: dict[str, str]) -> int:
    """Run the Streamlit server until it exits or we get SIGTERM, SIGINT or SIGHUP; on a
    signal stop the child (SIGTERM, then SIGKILL after :data:`STOP_GRACE` s) and return
    128 + the signal number. Returns the child's exit code otherwise."""

    def _raise(signum: int, _frame: object) -> None:
        raise _Stop(signum)

    sigs = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
    previous = {sig: signal.signal(sig, _raise) for sig in sigs}
    proc = subprocess.Popen(argv, env=env)
    try:
        return proc.wait()
    except (_Stop, KeyboardInterrupt) as e:
        signum = e.signum if isinstance(e, _Stop) else signal.SIGINT
        for sig in sigs:  # a second signal must not interrupt the clean-up
            signal.signal(sig, signal.SIG_IGN)
        proc.terminate()
        try:
            proc.wait(timeout=STOP_GRACE)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        return 128 + int(signum)
    finally:
        if proc.poll() is None:  # any other exception: never leave the server behind
            proc.kill()
            proc.wait()
        for sig, h in previous.items():
            signal.signal(sig, h)
