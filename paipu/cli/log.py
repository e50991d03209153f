"""Commands on the event log itself: ``append``, ``read``, ``games``, ``ingest``."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.markup import escape
from rich.table import Table

from paipu.cli.console import ERROR_CLIP, ERROR_END, clipped, console, progress, say
from paipu.cli.errors import CliError, terminated_as_interrupt
from paipu.cli.options import DEFAULT_DATA, STORE, DataOpt, ServerOpt, know_ruleset_events, open_log
from paipu.cli.root import command
from eventlog.words import plural

__all__ = ["append", "read", "games", "ingest", "read_jsonl_events"]


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


def read_jsonl_events(path: Path) -> list[Any]:
    """Parse a JSON Lines file of events (rulesets' own types included); errors name file and
    line."""
    from eventlog.events import EventError, parse_event

    know_ruleset_events()

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


@command()
def append(
    game_id: Annotated[str, typer.Argument(help="The game (stream) to append to.")],
    file: Annotated[Path, typer.Argument(help="JSON Lines file, one event per line (docs/events.md).", exists=True, dir_okay=False)],
    expected_version: Annotated[str, typer.Option(help="any | no_stream | N (the seq of the game's last event).")] = "any",
    server: ServerOpt = None,
    data: DataOpt = DEFAULT_DATA,
) -> None:
    """Append the events of FILE to GAME_ID atomically (all or nothing)."""
    from eventlog.players import is_log_stream

    if is_log_stream(game_id):  # paipu:players: aliases go through their own rules (no cycle …)
        raise CliError(f"{game_id!r} is the log's own stream, not a game: player aliases are written with "
                       "`paipu players alias ALIAS PLAYER`")
    events = read_jsonl_events(file)
    exp = _expected(expected_version)
    with open_log(data, server) as log:
        res = log.append(game_id, events, exp)
    if res.duplicate:
        say(f"{game_id}: already stored (seq {res.first_seq}..{res.last_seq}); nothing written")
    else:
        say(
            f"{game_id}: appended {plural(res.last_seq - res.first_seq + 1, 'event')}, seq {res.first_seq}..{res.last_seq}, "
            f"positions {res.first_position}..{res.last_position}"
        )


@command()
def read(
    game_id: Annotated[str, typer.Argument(help="The game to read.")],
    from_seq: Annotated[int, typer.Option("--from", min=0, max=2**62, help="First sequence number.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="JSON Lines with seq, position and hashes.")] = False,
    server: ServerOpt = None,
    data: DataOpt = DEFAULT_DATA,
) -> None:
    """Print the events of GAME_ID in order."""
    with open_log(data, server, must_exist=True) as log:
        events = list(log.read_game(game_id, from_seq=from_seq))
        if not events:  # past the game's end (an unknown game has raised): as `paipu replay --at`
            last = None
            for e in log.read_game(game_id):
                last = e.seq
            span = "no events" if last is None else f"events 0..{last}"
            raise CliError(f"game {game_id} has no event {from_seq} ({span})")
        _print_events(events, as_json)


def _print_events(events: Iterable[Any], as_json: bool) -> None:
    from eventlog.describe import payload_text

    if as_json:
        out = sys.stdout
        for ev in events:
            out.write(json.dumps(ev.model_dump_json_dict(), ensure_ascii=False, sort_keys=True) + "\n")
        return
    table = Table("seq", "pos", "type", "payload", box=None)
    for ev in events:
        table.add_row(str(ev.seq), str(ev.position), escape(ev.type), escape(payload_text(ev)))  # no Python reprs, no markup
    console.print(table)


@command()
def games(
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line: game_id, ruleset, events, first_position, last_position.")] = False,
    server: ServerOpt = None,
    data: DataOpt = DEFAULT_DATA,
) -> None:
    """List the games in the log."""
    from eventlog.players import is_log_stream

    with open_log(data, server, must_exist=True) as log:
        infos = [g for g in log.list_games() if not is_log_stream(g.game_id)]  # paipu:… streams are the log's
    if as_json:
        for g in infos:
            sys.stdout.write(json.dumps({"game_id": g.game_id, "ruleset": g.ruleset or None,
                                         "events": g.event_count, "first_position": g.first_position,
                                         "last_position": g.last_position},
                                        ensure_ascii=False, sort_keys=True) + "\n")
        return
    table = Table("game", "ruleset", "events", "positions")
    for g in infos:
        table.add_row(escape(g.game_id), escape(g.ruleset or "-"), str(g.event_count), f"{g.first_position}..{g.last_position}")
    console.print(table)
    say(plural(len(infos), "game"))


def _count_lines(path: Path) -> int:
    n = 0
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            n += chunk.count(b"\n")
    return max(n, 1)


#: The closing hint of ``ingest`` (not with ``--quiet`` / ``--json``): what it checked and
#: what it leaves to ``verify`` (DESIGN.md §6: the log keeps what was played).
CHECKED = ("ingest checked the format, the tile codes and that each game is whole, not that the play is "
           "legal (a tile not held): run `paipu verify` to judge it")


@command()
def ingest(
    files: Annotated[list[Path], typer.Argument(help="Game log files or directories (searched recursively for .txt .json .log .pmn .jsonl, following symbolic links, each real directory once; there a file that is empty or of no known format, e.g. a README, a link that leads nowhere, a FIFO or an unreadable entry is skipped with a note; one that has a known format's lines but cannot be told is an error); format sniffed per file unless --format. SIGTERM stops it as Ctrl-C does (exit 143).", exists=True)],
    format: Annotated[Optional[str], typer.Option("--format", help="botzone-text | botzone-json | pmn | jsonl")] = None,
    server: Annotated[Optional[str], typer.Option("--server", help="Upload the files to a running `paipu serve` at HOST:PORT (IngestService; needs a recorder token in $PAIPU_TOKEN when the server has tokens) instead of the data directory.")] = None,
    workers: Annotated[Optional[int], typer.Option("--workers", min=0, help="Processes parsing the files (0: in this process); default: one per core but the one storing, from 2 MiB of input on, else 0. The log is the same for any number.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar; print only the summary, the warnings and the errors.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="The run's summary as one JSON object on stdout (nothing on stderr): stored, already_stored, events, refused games (file, line, record, game_id, reason), skipped files (file, reason), warnings, exit_status; same exit status.")] = False,
    data: DataOpt = DEFAULT_DATA,
) -> None:
    """Import game logs. Each game is stored whole or not at all; re-importing stores
    nothing twice; a bad game is reported with file and line and the others still load.
    Many games go into one durable transaction; an interrupted import keeps whole games
    only and can be run again.

    Checked here: the format, the tile codes, each game whole (a game that cannot be
    read is refused with file and line). Not checked: whether the play is legal (a tile
    not held, a wrong hand) — the log keeps what was played; run `paipu verify` to replay
    and judge every game."""
    from eventlog.ingest import known_formats
    from eventlog.ingest.base import name_text
    from eventlog.ingest.load import IngestReport

    if format is not None and format not in known_formats():
        raise CliError(f"--format {format}: unknown format; known formats: {', '.join(known_formats())}")
    files, skipped, refused = _files_to_ingest(files, format)
    if not as_json:
        for f, why in skipped:
            say(f"note: skipped {clipped(name_text(str(f)), ERROR_CLIP, keep_end=ERROR_END)}: {why}", err=True)
    if not files and not refused:
        raise CliError("no game log files found (a directory is searched for "
                       ".txt .json .log .pmn .jsonl; files of no known format are skipped)")
    creates = server is None and not STORE["url"] and not (data / "events.sqlite").exists()
    data_existed = data.exists()
    with terminated_as_interrupt():  # SIGTERM (kill, systemd, a scheduler) stops it as Ctrl-C does
        report = _ingest(files, format, server, workers, quiet or as_json, data) if files else IngestReport()
    report.errors[:0] = refused
    if creates and not report.stored and not report.duplicates:
        _remove_empty_store(data, remove_dir=not data_existed)  # nothing imported: leave nothing behind
    status = 1 if report.errors else 0
    warnings = report.warnings
    if as_json:
        sys.stdout.write(json.dumps({
            "stored": len(report.stored), "already_stored": len(report.duplicates), "events": report.events,
            "refused": [_issue_json(i) for i in report.errors],
            "skipped": [{"file": name_text(str(f)), "reason": why} for f, why in skipped],
            "warnings": [_issue_json(i) for i in warnings],
            "exit_status": status,
        }, ensure_ascii=False, sort_keys=True) + "\n")
        if status:
            raise typer.Exit(status)
        return
    say(
        f"{plural(len(report.stored), 'game')} stored ({plural(report.events, 'event')}), "
        f"{len(report.duplicates)} already stored{_as_stored(report.duplicates)}, {plural(len(report.errors), 'error')}"
        + (f", {plural(len(skipped), 'file')} skipped" if skipped else "")
        + (f", {plural(len(warnings), 'warning')}" if warnings else "")
    )
    for issue in warnings:
        say(f"warning: {clipped(_shown(issue), ERROR_CLIP, keep_end=ERROR_END)}", err=True, style="yellow")
    for issue in report.errors:
        say(f"error: {clipped(_shown(issue), ERROR_CLIP, keep_end=ERROR_END)}", err=True, style="red")
    if report.stored and not quiet:
        say(f"note: {CHECKED}", err=True)
    if status:
        raise typer.Exit(status)


def _issue_json(issue: Any) -> dict[str, Any]:
    """A :class:`~eventlog.ingest.base.ParseIssue` as ``ingest --json`` gives it (a file name
    that is not UTF-8 as :func:`~eventlog.ingest.base.name_text` reads it)."""
    from eventlog.ingest.base import name_text

    return {"file": name_text(issue.path), "line": issue.line, "record": issue.record, "game_id": issue.game_id,
            "reason": issue.reason.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")}


def _shown(issue: Any) -> str:
    """``FILE:LINE: reason`` of an issue, its file name readable (:func:`_issue_json`)."""
    from dataclasses import replace

    from eventlog.ingest.base import name_text

    return str(replace(issue, path=name_text(issue.path)))


def _kept_since(log: Any, before: int) -> str:
    """Words for an interrupted import: the games committed since the log's head was at
    position ``before`` (``"3 games kept (stored and committed) so far"``); the interrupted
    transaction's games are not in the log. Empty when a second Ctrl-C stops the count or
    the log cannot be asked (a server gone)."""
    from eventlog.errors import PaipuError
    from eventlog.players import is_log_stream

    try:
        kept = sum(1 for g in log.list_games() if g.first_position > before and not is_log_stream(g.game_id))
    except (KeyboardInterrupt, PaipuError, OSError):
        return ""
    return f"{plural(kept, 'game')} kept (stored and committed) so far; run it again to import the rest"


def _as_stored(ids: list[str], shown: int = 3) -> str:
    """`` (as GAME_ID, …)``: the stored games that the duplicates matched (by content, whatever
    id the file gave): a few of them — the count is said before."""
    if not ids:
        return ""
    return f" (as {', '.join(ids[:shown])}{', …' if len(ids) > shown else ''})"


def _files_to_ingest(paths: list[Path], format: str | None) -> tuple[list[Path], list[tuple[Path, str]], list[Any]]:
    """The files to import: those named, and for each directory the files below it whose
    format is known (:func:`eventlog.ingest.load.walk_directory`: links followed, each real
    directory once) and recognised — a file of a directory walk that is empty, of no known
    format (a README.txt beside the logs) or cannot be read, a dangling link, a FIFO, is
    skipped with a note, not an error; one that no importer recognises but that has a known
    format's lines (a Botzone log whose start is damaged: :func:`eventlog.ingest.base.resembles`)
    is an error (its games did not import). Returns (files, skipped (file, why), errors: a
    named file that is empty, a walked file that resembles a log)."""
    from eventlog.ingest.base import ParseIssue, UnknownFormatError, resembles, sniff
    from eventlog.ingest.load import walk_directory

    files: list[Path] = []
    skipped: list[tuple[Path, str]] = []
    refused: list[Any] = []
    for p in paths:
        if not p.is_dir():
            try:
                empty = p.stat().st_size == 0
            except OSError:
                empty = False  # the import says why it cannot read it
            if empty:
                refused.append(ParseIssue(str(p), None, "empty file"))
            else:
                files.append(p)
            continue
        found, notes = walk_directory(p)
        skipped.extend(notes)
        for f in found:
            try:
                if f.stat().st_size == 0:
                    skipped.append((f, "empty file"))
                    continue
                if format is None:
                    sniff(f)
            except UnknownFormatError as e:
                if "compressed file" in str(e):  # a .txt that is gzipped: say so, not "no known format"
                    skipped.append((f, str(e).removeprefix(f"{f}: ")))
                elif (like := resembles(f)) is None:
                    skipped.append((f, "not a game log of a known format"))
                else:  # a log whose start is damaged: its games did not import (exit 1)
                    refused.append(ParseIssue(str(f), None, f"has {like} lines but its start is not {like} "
                                              f"(damaged?); not imported: fix its start or name the format "
                                              f"(--format {like}) to import its games"))
                continue
            except OSError as e:
                skipped.append((f, f"cannot read: {(e.strerror or str(e)).lower()}"))
                continue
            files.append(f)
    return files, skipped, refused


def _remove_empty_store(data: Path, *, remove_dir: bool) -> None:
    """Remove the store this ingest created when it holds no event (every file failed)."""
    from eventlog.store import open_store as _open

    if not (data / "events.sqlite").exists():
        return
    store = _open(data, create=False)
    try:
        empty = store.head_position() == 0
    finally:
        store.close()
    if not empty:
        return
    for f in sorted(data.glob("events.sqlite*")):
        f.unlink()
    if remove_dir and not any(data.iterdir()):
        data.rmdir()


def _ingest(files: list[Path], format: str | None, server: str | None, workers: int | None, quiet: bool,
            data: Path) -> Any:
    """Import ``files`` into the log (local store or a server): the :class:`IngestReport`."""
    from eventlog.ingest.load import IngestReport, ingest_files

    with open_log(data, server) as log:
        if server:
            import grpc

            from services.client import RemoteError

            report = IngestReport()
            # the head before: the games the server kept when interrupted are counted after it
            before = max((g.last_position for g in log.list_games()), default=0)
            with progress(quiet=quiet, unit="files") as bar:
                task = bar.add_task("uploading", total=len(files))
                try:
                    for f in files:  # one upload per file; the server parses and stores it
                        part = log.ingest_log(f, format=format)
                        report.stored += part.stored
                        report.duplicates += part.duplicates
                        report.errors += part.errors
                        report.events += part.events
                        bar.advance(task)
                except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM (Terminated)
                    raise type(e)(_kept_since(log, before)) from None
                except RemoteError as e:
                    if e.code != grpc.StatusCode.UNAVAILABLE:
                        raise
                    # the server went away (stopped, the network): what it said it stored is
                    # kept, and so is each transaction it committed of the file under way
                    raise CliError(
                        f"{e} — the server went away during {f}: the {plural(files.index(f), 'file')} before it "
                        f"stored {plural(len(report.stored), 'game')}, and the whole games the server committed "
                        "of this one are kept; run it again when the server "
                        "is back (what is stored is left out)") from None
        else:
            # the bar counts lines of input (known up front, so the time left is right) and
            # says so; the games are counted beside it, with their rate
            with progress(quiet=quiet, unit="lines", counted="lines") as bar:
                lines = {} if bar.disable else {str(f): _count_lines(f) for f in files}
                base, total = {}, 0
                for f in files:
                    base[str(f)] = total
                    total += lines.get(str(f), 0)
                task = bar.add_task("importing", total=total or None, games=0)
                done = {"lines": 0, "games": 0}

                def on_game(item: Any) -> None:
                    path = getattr(item, "source_path", None) or getattr(item, "path", "")
                    line = getattr(item, "first_line", None) or getattr(item, "line", None) or 0
                    done["lines"] = max(done["lines"], base.get(str(path), 0) + line)
                    done["games"] += 1
                    bar.update(task, completed=done["lines"], games=done["games"])

                def on_file(f: Path) -> None:
                    done["lines"] = max(done["lines"], base.get(str(f), 0) + lines.get(str(f), 0))
                    bar.update(task, completed=done["lines"])

                before = log.log_head().position
                try:
                    report = ingest_files(log, files, format=format, on_game=None if bar.disable else on_game,
                                          on_file=None if bar.disable else on_file, workers=workers)
                except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM (Terminated)
                    raise type(e)(_kept_since(log, before)) from None
    return report
