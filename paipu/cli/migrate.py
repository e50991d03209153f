"""``paipu migrate``: copy an event log between stores (SQLite ↔ PostgreSQL)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from paipu.cli.console import progress, say
from paipu.cli.errors import EXIT_INTEGRITY, CliError
from paipu.cli.root import command
from eventlog.words import plural

__all__ = ["migrate"]


def _open(location: str, *, role: str, create: bool):
    """A data directory, a ``.sqlite`` file or a ``postgresql://`` URL."""
    from eventlog.store import open_store

    if "://" not in location:
        path = Path(location)
        sqlite = path if path.suffix in (".sqlite", ".sqlite3", ".db") else path / "events.sqlite"
        if not create and not sqlite.is_file():
            raise CliError(f"--{role} {location}: no event store there (a data directory, a .sqlite file or a postgresql:// URL)")
    return open_store(location, create=create)


@command()
def migrate(
    source: Annotated[str, typer.Option("--from", help="The log to copy: a data directory, a .sqlite file or a postgresql:// URL.", metavar="STORE")],
    target: Annotated[str, typer.Option("--to", help="Where to copy it (created if missing; may already hold part of the copy).", metavar="STORE")],
    json_out: Annotated[bool, typer.Option("--json", help="Print the counts as one JSON object.")] = False,
) -> None:
    """Copy every game from one event store to another, keeping event ids, seqs, recorded
    times and hash chains (so `paipu verify` gives the same result on the copy).

    Resumable: run the same command again after an interruption and it continues where the
    target stops; events already copied are skipped. A damaged source event stops the copy
    of that game (one line on stderr: the game, the seq, why; nothing already copied is
    lost); the other games are copied, and the exit status is then 3 (the log is damaged).

    Examples:

      paipu migrate --from paipu-data --to postgresql://paipu@db.example:5432/paipu

      paipu migrate --from postgresql://paipu@db.example/paipu --to backup/events.sqlite
    """
    from eventlog.store.copy import copy_log
    from eventlog.store.postgres import redact_url

    if source == target:
        raise CliError("--from and --to name the same store")
    src = _open(source, role="from", create=False)
    try:
        dst = _open(target, role="to", create=True)
        try:
            with progress() as bar:
                task = bar.add_task("copying events", total=None)

                def show(p) -> None:
                    bar.update(task, completed=p.seen, total=p.total)

                result = copy_log(src, dst, progress=show)
        finally:
            dst.close()
    finally:
        src.close()
    counts = {"from": redact_url(source), "to": redact_url(target), "events": result.total,
              "copied": result.copied, "already_there": result.skipped,
              "damaged": [{"game_id": e.game_id, "seq": e.seq, "position": e.position, "reason": e.reason}
                          for e in result.damaged]}
    for e in result.damaged:  # one line each: game, seq, why
        say(f"damaged game {e.game_id!r} seq {e.seq}: its copy stopped there: {e.reason}", err=True)
    if json_out:
        say(json.dumps(counts, ensure_ascii=False))
    else:
        say(f"{plural(result.copied, 'event')} copied, {result.skipped} already there "
            f"({result.total} in {counts['from']} → {counts['to']})"
            + (f"; {plural(len(result.damaged), 'damaged game')} stopped at the damage (exit 3)"
               if result.damaged else ""))
    if result.damaged:
        raise typer.Exit(EXIT_INTEGRITY)
