"""``paipu dashboard``: the read-only Streamlit dashboard (started by :mod:`dashboard.launch`)."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from paipu.cli.errors import CliError
from paipu.cli.options import DEFAULT_DATA, DataOpt, open_store
from paipu.cli.root import command

__all__ = ["dashboard"]


@command()
def dashboard(
    data: DataOpt = DEFAULT_DATA,
    port: Annotated[int, typer.Option(help="TCP port 1..65535 (must be free).")] = 8501,
    host: Annotated[str, typer.Option(help="Interface to listen on (loopback by default).")] = "127.0.0.1",
) -> None:
    """Open the read-only Streamlit dashboard: overview, fans, players, step-through
    replay and dispute review; statistics read DATA's Parquet export (<data>/parquet),
    replays its event log (a DATA with no event store is refused, as by `paipu serve`). Stop it with Ctrl-C (or SIGTERM/SIGHUP): the Streamlit
    server stops with it."""
    from dashboard.launch import check_port, run, streamlit_command

    d = data.resolve()
    open_store(data, must_exist=True).close()  # like `paipu serve`: a directory with no store is refused
    problem = check_port(host, port)
    if problem:
        raise CliError(problem)
    typer.echo(f"paipu dashboard on http://{host}:{port}/ (data: {d}); Ctrl-C stops it")
    env = dict(os.environ, PAIPU_DATA=str(d))
    raise typer.Exit(run(streamlit_command(d, host=host, port=port), env))
