"""``paipu dashboard``: the read-only Streamlit dashboard (started by :mod:`dashboard.launch`)."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from paipu.cli.errors import CliError
from paipu.cli.options import DEFAULT_DATA, STORE, DataOpt, open_store
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
    replays its event log — `paipu --store URL` / $PAIPU_STORE when given, else DATA's (a
    log that is not there is refused, as by `paipu serve`). Stop it with Ctrl-C (or
    SIGTERM/SIGHUP): the Streamlit server stops with it."""
    from dashboard.launch import check_port, child_env, run, streamlit_command

    d = data.resolve()
    open_store(data, must_exist=True).close()  # like `paipu serve`: a directory with no store is refused
    problem = check_port(host, port)
    if problem:
        raise CliError(problem)
    url = STORE["url"]
    where = f"data: {d}" + (f"; event store: {_shown(url)}" if url else "")
    typer.echo(f"paipu dashboard on http://{host}:{port}/ ({where}); Ctrl-C stops it")
    raise typer.Exit(run(streamlit_command(d, host=host, port=port), child_env(dict(os.environ), d, url)))


def _shown(url: str) -> str:
    """A store URL for the terminal: without its password."""
    from eventlog.store.postgres import is_postgres_url, redact_url

    return redact_url(url) if is_postgres_url(url) else url
