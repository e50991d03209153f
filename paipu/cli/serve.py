"""``paipu serve``: the gRPC services on a data directory."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from paipu.cli.options import DEFAULT_DATA, DataOpt, STORE
from paipu.cli.root import command

__all__ = ["serve"]


@command()
def serve(
    data: DataOpt = DEFAULT_DATA,
    host: Annotated[str, typer.Option(help="Interface to listen on (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port 0..65535 (0 picks a free one).")] = 50051,
    tokens: Annotated[Optional[Path], typer.Option("--tokens", help="File of `ROLE TOKEN` lines (viewer, recorder, referee); without it the server needs no token.", exists=True, dir_okay=False)] = None,
    insecure: Annotated[bool, typer.Option("--insecure", help="Allow a non-loopback --host without --tokens (anyone who reaches it can write).")] = False,
    access_log: Annotated[bool, typer.Option("--access-log", help="Log every call as one JSON line on stderr (request_id, method, peer, code, ms).")] = False,
    create: Annotated[bool, typer.Option("--create", help="Create an empty store in DATA if it has none (without it, a directory with no store is refused).")] = False,
) -> None:
    """Run the gRPC services on DATA: EventLogService (append, read, list, subscribe),
    IngestService (upload a log file), ReplayService (state at an event, step through,
    verify), TournamentService (tournaments of DATA/tournaments: create, add games, teams and
    penalties, standings), plus health and reflection.

    Clients send their token with $PAIPU_TOKEN (`paipu append --server ...`). Unexpected
    server errors are logged on stderr with a traceback and a request id (the client is
    told the id)."""
    from services.server import load_tokens
    from analytics.tournament_service import register as tournaments
    from services.server import serve as _serve

    # tournaments live in DATA/tournaments whichever store holds the games
    extra = (tournaments(data),)
    if STORE["url"]:  # `paipu --store postgresql://… serve`: several servers may share it
        _serve(STORE["url"], host=host, port=port, tokens=load_tokens(tokens) if tokens else None, insecure=insecure,
               access_log=access_log, create=create, extra_services=extra)
        return
    _serve(data, host=host, port=port, tokens=load_tokens(tokens) if tokens else None, insecure=insecure,
           access_log=access_log, create=create, extra_services=extra)
