"""The ``paipu`` command line (Typer + Rich).

Every subcommand works on a data directory (``--data``, default ``$PAIPU_DATA`` or
``./paipu-data``) holding the embedded event store, unless ``--server HOST:PORT`` sends the
work to a running ``paipu serve``. Errors print one line and exit non-zero; ``--debug``
shows the traceback.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any, Callable, Optional

import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(
    name="paipu",
    help=(
        "paipu (牌谱): store, replay, check and study mahjong game records.\n\n"
        "Start with `paipu quickstart`: it imports the bundled real game logs into "
        "./paipu-data, verifies every game and prints a summary."
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
console = Console()
err_console = Console(stderr=True)

_DEBUG = {"on": False}


def default_data_dir() -> Path:
    return Path(os.environ.get("PAIPU_DATA") or "paipu-data")


DataOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--data",
        help="Data directory of the embedded event store [default: $PAIPU_DATA or ./paipu-data].",
        show_default=False,
    ),
]
ServerOpt = Annotated[
    Optional[str],
    typer.Option("--server", help="Talk to a running `paipu serve` at HOST:PORT instead of the data directory."),
]


class CliError(Exception):
    """An error worth one line to the user."""


def _friendly(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn known errors into one line on stderr and exit code 2 (traceback with --debug)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except typer.Exit:
            raise
        except KeyboardInterrupt:
            err_console.print("interrupted")
            raise typer.Exit(130) from None
        except Exception as e:  # noqa: BLE001 - the one place that reports errors
            if _DEBUG["on"]:
                raise
            err_console.print(f"[red]error:[/red] {_describe(e)}", highlight=False)
            raise typer.Exit(2) from None

    return wrapper


def _describe(e: Exception) -> str:
    try:
        import grpc

        if isinstance(e, grpc.RpcError):
            return f"server said {e.code().name}: {e.details()}"  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover
        pass
    name = type(e).__name__
    msg = str(e) or name
    if isinstance(e, (FileNotFoundError, IsADirectoryError, PermissionError)):
        return f"{msg}"
    return msg if name in ("CliError",) else f"{msg} ({name})"


@app.callback()
def _root(
    debug: Annotated[bool, typer.Option("--debug", help="Show full tracebacks on errors.")] = False,
) -> None:
    _DEBUG["on"] = debug


def _data(data: Optional[Path]) -> Path:
    return data if data is not None else default_data_dir()


def _open_store(data: Optional[Path], *, must_exist: bool = False):
    from eventlog.store import open_store

    d = _data(data)
    if must_exist and not (d / "events.sqlite").exists():
        raise CliError(
            f"no event store in {d} (run `paipu quickstart` or `paipu ingest FILE` first, "
            "or point --data / $PAIPU_DATA at a data directory)"
        )
    d.mkdir(parents=True, exist_ok=True)
    return open_store(d)


# ----------------------------------------------------------------------------- serve
@app.command()
@_friendly
def serve(
    data: DataOpt = None,
    host: Annotated[str, typer.Option(help="Interface to listen on (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port (0 picks a free one).")] = 50051,
) -> None:
    """Run the gRPC event-log service (EventLogService, health, reflection) on DATA."""
    from eventlog.server import serve as _serve

    d = _data(data)
    d.mkdir(parents=True, exist_ok=True)
    _serve(d, host=host, port=port)


# ----------------------------------------------------------------------------- append
def _expected(v: str) -> Any:
    from eventlog.store.base import ANY, NO_STREAM

    if v == "any":
        return ANY
    if v == "no_stream":
        return NO_STREAM
    try:
        n = int(v)
    except ValueError:
        raise CliError(f"--expected-version must be any, no_stream or a number, got {v!r}") from None
    return n


def read_jsonl_events(path: Path):
    """Parse a JSON Lines file of events; errors name file and line."""
    from eventlog.events import EventError, parse_event

    events = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                events.append(parse_event(line))
            except EventError as e:
                raise CliError(f"{path}:{lineno}: {e}") from None
    return events


@app.command()
@_friendly
def append(
    game_id: Annotated[str, typer.Argument(help="The game (stream) to append to.")],
    file: Annotated[Path, typer.Argument(help="JSON Lines file, one event per line (docs/events.md).", exists=True, dir_okay=False)],
    expected_version: Annotated[str, typer.Option(help="any | no_stream | N (the seq of the game's last event).")] = "any",
    server: ServerOpt = None,
    data: DataOpt = None,
) -> None:
    """Append the events of FILE to GAME_ID atomically (all or nothing)."""
    events = read_jsonl_events(file)
    exp = _expected(expected_version)
    if server:
        from eventlog.client import EventLogClient

        with EventLogClient(server) as client:
            res = client.append(game_id, events, exp)
    else:
        store = _open_store(data)
        try:
            res = store.append(game_id, events, exp)
        finally:
            store.close()
    if res.duplicate:
        console.print(f"{game_id}: already stored (seq {res.first_seq}..{res.last_seq}); nothing written")
    else:
        console.print(
            f"{game_id}: appended {res.last_seq - res.first_seq + 1} events, seq {res.first_seq}..{res.last_seq}, "
            f"positions {res.first_position}..{res.last_position}"
        )


# ----------------------------------------------------------------------------- read
@app.command()
@_friendly
def read(
    game_id: Annotated[str, typer.Argument(help="The game to read.")],
    from_seq: Annotated[int, typer.Option("--from", help="First sequence number.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="JSON Lines with seq, position and hashes.")] = False,
    server: ServerOpt = None,
    data: DataOpt = None,
) -> None:
    """Print the events of GAME_ID in order."""
    if server:
        from eventlog.client import EventLogClient

        with EventLogClient(server) as client:
            _print_events(client.read_game(game_id, from_seq=from_seq), as_json)
        return
    store = _open_store(data, must_exist=True)
    try:
        _print_events(store.read_game(game_id, from_seq=from_seq), as_json)
    finally:
        store.close()


def _print_events(events, as_json: bool) -> None:
    from replayer import tiles as T

    if as_json:
        out = sys.stdout
        for ev in events:
            out.write(json.dumps(ev.model_dump_json_dict(), ensure_ascii=False, sort_keys=True) + "\n")
        return
    table = Table("seq", "pos", "type", "payload", box=None)
    for ev in events:
        p = ev.payload_json()
        text = " ".join(
            f"{k}={T.to_unicode(v) + v if isinstance(v, str) and T.is_valid(v) else v}"
            for k, v in p.items()
            if v not in (None, [], {}, "")
        )
        table.add_row(str(ev.seq), str(ev.position), ev.type, text)
    console.print(table)


# ----------------------------------------------------------------------------- games
@app.command()
@_friendly
def games(server: ServerOpt = None, data: DataOpt = None) -> None:
    """List the games in the log."""
    if server:
        from eventlog.client import EventLogClient

        with EventLogClient(server) as client:
            infos = client.list_games()
    else:
        store = _open_store(data, must_exist=True)
        try:
            infos = store.list_games()
        finally:
            store.close()
    table = Table("game", "ruleset", "events", "positions")
    for g in infos:
        table.add_row(g.game_id, g.ruleset or "-", str(g.event_count), f"{g.first_position}..{g.last_position}")
    console.print(table)
    console.print(f"{len(infos)} games")


def main() -> None:  # pragma: no cover - console entry
    app()
