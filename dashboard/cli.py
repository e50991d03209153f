"""``paipu dashboard``: start the Streamlit app (dashboard/app.py) on a data directory.

The lead's paipu/cli.py calls :func:`register`. The app runs in a child process
(``python -m streamlit run``), headless, on 127.0.0.1 unless ``--host`` says otherwise
(shared/DESIGN.md §9: loopback by default); the data directory is handed over both as
``-- --data DIR`` and as ``$PAIPU_DATA``. The dashboard only reads the data directory.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

__all__ = ["APP", "streamlit_command", "register"]

APP = Path(__file__).resolve().parent / "app.py"


def streamlit_command(data: Path, *, host: str = "127.0.0.1", port: int = 8501) -> list[str]:
    """The argv that serves the dashboard on ``host:port`` for ``data`` (no browser opened,
    no usage statistics sent, file watching off: the app's code does not change under it)."""
    return [
        sys.executable, "-m", "streamlit", "run", str(APP),
        "--server.headless", "true",
        "--server.address", host,
        "--server.port", str(port),
        "--server.fileWatcherType", "none",
        "--browser.gatherUsageStats", "false",
        "--", "--data", str(data),
    ]


def register(app: typer.Typer) -> None:
    """Add the ``dashboard`` command to ``app``."""

    @app.command()
    def dashboard(
        data: Annotated[Optional[Path], typer.Option(
            "--data", help="Data directory (default: $PAIPU_DATA, else ./paipu-data); statistics read "
                           "its Parquet export (<data>/parquet), replays its event log.",
            show_default=False)] = None,
        port: Annotated[int, typer.Option(help="TCP port.")] = 8501,
        host: Annotated[str, typer.Option(help="Interface to listen on (loopback by default).")] = "127.0.0.1",
    ) -> None:
        """Open the read-only Streamlit dashboard: overview, fans, players, step-through
        replay and dispute review. Stop it with Ctrl-C."""
        d = (data if data is not None else Path(os.environ.get("PAIPU_DATA") or "paipu-data")).resolve()
        typer.echo(f"paipu dashboard on http://{host}:{port}/ (data: {d}); Ctrl-C stops it")
        env = dict(os.environ, PAIPU_DATA=str(d))
        proc = subprocess.Popen(streamlit_command(d, host=host, port=port), env=env)

        def _forward(signum: int, _frame: object) -> None:  # stop the server with us
            proc.send_signal(signum)

        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, _forward)
        try:
            code = proc.wait()
        except KeyboardInterrupt:
            proc.terminate()
            try:
                code = proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                code = proc.wait()
            code = 130 if code in (0, -15) else code
        raise typer.Exit(code)
