"""Options shared by the commands and the one "local store or remote server" opener.

``--data`` is the data directory of the embedded event store: ``$PAIPU_DATA`` when set
(Typer reads it), else ``./paipu-data``. ``paipu --store URL`` (or ``$PAIPU_STORE``) keeps the
event log elsewhere — ``postgresql://…`` — while derived files (Parquet) stay under
``--data``. ``--server HOST:PORT`` sends the work to a running ``paipu serve`` instead (its
token from ``$PAIPU_TOKEN``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from paipu.cli.errors import CliError

if TYPE_CHECKING:
    from eventlog.store.base import EventStore

__all__ = ["DEFAULT_DATA", "STORE", "StoreOpt", "store_location", "DataOpt", "ServerOpt", "OutOpt", "JsonOpt", "open_store", "open_log", "token"]

#: The data directory when neither ``--data`` nor ``$PAIPU_DATA`` names one.
DEFAULT_DATA = Path("paipu-data")

#: The event store URL given to ``paipu --store`` / ``$PAIPU_STORE`` (set by the root
#: callback once per process; None: the embedded store in the data directory).
STORE: dict[str, str | None] = {"url": None}

StoreOpt = Annotated[
    Optional[str],
    typer.Option(
        "--store",
        envvar="PAIPU_STORE",
        metavar="URL",
        help="Event store URL (postgresql://user@host:5432/db) instead of the SQLite file in --data.",
        show_default=False,
    ),
]


def store_location(data: Path) -> str | Path:
    """Where the event log is: the ``--store`` URL when given, else ``data``."""
    return STORE["url"] or data

DataOpt = Annotated[
    Path,
    typer.Option(
        "--data",
        envvar="PAIPU_DATA",
        help="Data directory of the embedded event store.",
    ),
]
ServerOpt = Annotated[
    Optional[str],
    typer.Option("--server", help="Talk to a running `paipu serve` at HOST:PORT instead of the data directory."),
]
OutOpt = Annotated[
    Optional[Path],
    typer.Option("--out", help="Parquet directory [default: <data>/parquet].", show_default=False),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]


def token() -> str | None:
    """The client token for ``--server`` (``$PAIPU_TOKEN``; a server with tokens needs one)."""
    return os.environ.get("PAIPU_TOKEN") or None


def open_store(data: Path, *, must_exist: bool = False, salvage: bool = False) -> EventStore:
    """The event store of ``paipu --store`` / ``$PAIPU_STORE`` when given, else the embedded
    one in ``data`` — created when missing unless ``must_exist``: readers never create one,
    wherever the store is named (a mistyped ``--store`` path is no new empty store that
    verify calls intact). ``salvage``: open a log that lost events (verify only).
    Raises CliError when ``data`` is a file or, with ``must_exist``, there is no store."""
    from eventlog.store import StoreNotFound, open_store as _open

    if STORE["url"]:
        try:
            return _open(STORE["url"], create=not must_exist, salvage=salvage)
        except StoreNotFound:
            raise CliError(
                f"no event store at --store {STORE['url']} (run `paipu quickstart` or `paipu ingest FILE` "
                "first, or point --store / $PAIPU_STORE at an existing store)"
            ) from None
    if data.exists() and not data.is_dir():
        raise CliError(f"--data {data} is a file; it must be a data directory (it is created if missing)")
    if must_exist and not (data / "events.sqlite").exists():
        raise CliError(
            f"no event store in {data} (run `paipu quickstart` or `paipu ingest FILE` first, "
            "or point --data / $PAIPU_DATA at a data directory)"
        )
    if not must_exist:
        try:
            data.mkdir(parents=True, exist_ok=True)
        except OSError as e:  # asked to create it: say so, and why not ("permission denied")
            why = (e.strerror or type(e).__name__).lower()
            raise CliError(f"cannot create the data directory {data}: {why}") from None
    return _open(data, create=not must_exist, salvage=salvage)


def output_file(flag: str, path: Path) -> Path:
    """``path``, a file a command writes (``--out``, ``--csv``, ``--parquet``), with its
    missing parent directories created — every command's output file behaves the same
    (README, "Output files"). CliError naming the flag when a parent is a file or cannot be
    made."""
    parent = path.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        # the ancestor that is a file, however deep below it the path goes (/etc/passwd/a/b.jsonl)
        blocker = next((p for p in (parent, *parent.parents) if p.exists() and not p.is_dir()), parent)
        raise CliError(f"{flag} {path}: {blocker} is a file, not a directory") from None
    except PermissionError:
        raise CliError(f"{flag} {path}: permission denied creating {parent}") from None
    except OSError as e:
        raise CliError(f"{flag} {path}: cannot create {parent}: {e.strerror or e}") from None
    if path.is_dir():
        raise CliError(f"{flag} {path}: a directory, not a file")
    return path


def know_ruleset_events() -> None:
    """Let the log parse the rulesets' own event types (``"<ruleset>.<name>"``, docs/events.md
    "A ruleset's own event types") in files, in the store and from a server: the ruleset
    registry installs the loader that finds them (eventlog.events.set_ruleset_loader)."""
    import replayer.rules.base  # noqa: F401 - installs the loader on import


@contextmanager
def open_log(data: Path, server: str | None, *, must_exist: bool = False) -> Iterator[Any]:
    """The event log a command works on: a client of the ``paipu serve`` at ``server`` when
    given, else the embedded store in ``data``. Both have the store's API (``append``,
    ``read_game``, ``list_games``, ``subscribe``, ``version``); closed on exit. Rulesets' own
    event types are readable (:func:`know_ruleset_events`)."""
    know_ruleset_events()
    if server and data != DEFAULT_DATA and str(data) != os.environ.get("PAIPU_DATA"):
        # --data given on the command line would be silently unused: the server has its own log
        raise CliError(f"--server {server} and --data {data}: the work goes to the server's log, not to a "
                       "data directory; give one of them")
    if server:
        from services.client import EventLogClient

        with EventLogClient(server, token=token()) as client:
            yield client
        return
    store = open_store(data, must_exist=must_exist)
    try:
        yield store
    finally:
        store.close()
