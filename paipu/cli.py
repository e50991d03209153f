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


# ----------------------------------------------------------------------------- ingest
def _progress():
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=False,
        disable=not err_console.is_terminal,
    )


@app.command()
@_friendly
def ingest(
    files: Annotated[list[Path], typer.Argument(help="Game log files (format sniffed unless --format).", exists=True, dir_okay=False)],
    format: Annotated[Optional[str], typer.Option("--format", help="botzone-text | botzone-json | pmn | jsonl")] = None,
    data: DataOpt = None,
) -> None:
    """Import game logs. Each game is stored whole or not at all; re-importing stores
    nothing twice; a bad game is reported with file and line and the others still load."""
    from eventlog.ingest import known_formats
    from eventlog.ingest.load import ingest_files

    if format is not None and format not in known_formats():
        raise CliError(f"unknown format {format!r}; known formats: {', '.join(known_formats())}")
    store = _open_store(data)
    try:
        with _progress() as bar:
            task = bar.add_task("importing", total=None)
            report = ingest_files(store, files, format=format, on_game=lambda _g: bar.advance(task))
    finally:
        store.close()
    console.print(
        f"{len(report.stored)} games stored ({report.events} events), "
        f"{len(report.duplicates)} already stored, {len(report.errors)} errors"
    )
    for issue in report.errors:
        err_console.print(f"[red]error:[/red] {issue}", highlight=False)
    if report.errors:
        raise typer.Exit(1)


# ----------------------------------------------------------------------------- verify
def _verify_one(store, game_id: str):
    from eventlog.verify import verify_game
    from replayer.audit import audit_game

    chain = verify_game(store, game_id)
    audit = audit_game(store.read_game(game_id)) if chain.ok else None
    return chain, audit


def _print_audit(chain, audit, *, verbose: bool = True) -> bool:
    ok = chain.ok and audit is not None and audit.ok
    mark = "[green]ok[/green]" if ok else "[red]FAIL[/red]"
    chain_txt = "chain ok" if chain.ok else f"chain BROKEN at seq {chain.first_bad_seq}: {chain.reason}"
    if audit is None:
        console.print(f"{mark} {chain.game_id}: {chain_txt}")
        return ok
    console.print(
        f"{mark} {chain.game_id}: {chain_txt}, {audit.events} events, {audit.hands} hands, "
        f"{len(audit.wins)} wins, {audit.draws} draws, {len(audit.findings)} findings"
    )
    if verbose or not ok:
        for f in audit.findings:
            console.print(f"    finding: {f}", highlight=False)
        for w in audit.wins:
            fans = " + ".join(f"{x.name_zh}×{x.count}" if x.count > 1 else x.name_zh for x in w.fans)
            rep = " + ".join(f"{n}×{c}" if c > 1 else n for n, _p, c in w.reported_fans)
            state = "agrees" if (w.fans_agree is not False and w.score_agrees is not False) else "DISAGREES"
            console.print(
                f"    win seq {w.seq} seat {w.seat} {w.tile}: computed {w.points} [{fans}] {list(w.changes) if w.changes else '-'}",
                highlight=False,
            )
            if w.reported is not None:
                console.print(
                    f"      reported {w.reported.total} [{rep}] "
                    f"{list(w.reported.score_changes) if w.reported.score_changes else '-'}: {state}",
                    highlight=False,
                )
    return ok


@app.command()
@_friendly
def verify(
    game_ids: Annotated[Optional[list[str]], typer.Argument(help="Games to check (default: all).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only games with problems in detail.")] = False,
    data: DataOpt = None,
) -> None:
    """Re-compute every hash chain and replay every game under its ruleset (audit mode):
    findings, computed vs reported fans and scores. Exit 0 only when all is intact."""
    store = _open_store(data, must_exist=True)
    bad = 0
    try:
        ids = game_ids or [g.game_id for g in store.list_games()]
        for gid in ids:
            chain, audit = _verify_one(store, gid)
            if not _print_audit(chain, audit, verbose=not quiet):
                bad += 1
    finally:
        store.close()
    console.print(f"{len(ids) - bad} of {len(ids)} games intact")
    if bad:
        raise typer.Exit(1)


# ----------------------------------------------------------------------------- quickstart
@app.command()
@_friendly
def quickstart(data: DataOpt = None) -> None:
    """The main job on the bundled real logs: import them, verify every hash chain,
    replay every game under its ruleset, and print a summary."""
    from eventlog.ingest import parse_file
    from eventlog.ingest.base import ParseIssue
    from eventlog.ingest.load import store_game
    from paipu.samples import sample_files

    d = _data(data)
    files = sample_files()
    console.print(f"paipu quickstart: {len(files)} bundled log files -> {d}")
    store = _open_store(d)
    stored = dup = 0
    issues: list[ParseIssue] = []
    audits = []
    chains_ok = 0
    try:
        games_by_file = [(f, list(parse_file(f))) for f in files]
        n_games = sum(len(g) for _f, g in games_by_file)
        with _progress() as bar:
            task = bar.add_task("import, verify, replay", total=n_games)
            for _f, items in games_by_file:
                for item in items:
                    if isinstance(item, ParseIssue):
                        issues.append(item)
                    else:
                        if store_game(store, item):
                            stored += 1
                        else:
                            dup += 1
                        chain, audit = _verify_one(store, item.game_id)
                        chains_ok += chain.ok
                        if audit is not None:
                            audits.append(audit)
                    bar.advance(task)
    finally:
        store.close()
    _summary(stored, dup, issues, audits, chains_ok)


def _summary(stored, dup, issues, audits, chains_ok) -> None:
    games = len(audits)
    hands = sum(a.hands for a in audits)
    wins = [w for a in audits for w in a.wins]
    draws = sum(a.draws for a in audits)
    findings = [(a.game_id, f) for a in audits for f in a.findings]
    disagree = [(a.game_id, w) for a in audits for w in a.wins if w.fans_agree is False or w.score_agrees is False]
    by_ruleset: dict[str, int] = {}
    for a in audits:
        by_ruleset[a.ruleset or "?"] = by_ruleset.get(a.ruleset or "?", 0) + 1
    t = Table(title="paipu quickstart", show_header=False)
    t.add_row("games", f"{games} ({', '.join(f'{k}: {v}' for k, v in sorted(by_ruleset.items()))}); "
              f"{stored} newly stored, {dup} already stored")
    t.add_row("hash chains", f"{chains_ok} of {games} intact")
    t.add_row("hands", str(hands))
    t.add_row("wins", f"{len(wins)} ({sum(w.self_drawn for w in wins)} self-drawn)")
    t.add_row("exhaustive draws", str(draws))
    t.add_row("findings", str(len(findings)))
    t.add_row("reported scores", f"{sum(1 for w in wins if w.reported is not None) - len(disagree)} agree, {len(disagree)} disagree")
    if issues:
        t.add_row("import errors", str(len(issues)))
    console.print(t)
    for gid, f in findings:
        console.print(f"  finding in {gid}: {f}", highlight=False)
    for gid, w in disagree:
        console.print(f"  reported score differs in {gid} (win seq {w.seq}): see `paipu verify {gid}`", highlight=False)
    for issue in issues:
        err_console.print(f"[red]import error:[/red] {issue}", highlight=False)
    legal = [(a, w) for a in audits for w in a.wins if w.legal and w.points is not None]
    if legal:
        from replayer import tiles as T

        a, w = max(legal, key=lambda aw: (aw[1].points, aw[0].game_id))
        fans = ", ".join(
            f"{x.name_en} {x.name_zh} {x.points}" + (f"×{x.count}" if x.count > 1 else "") for x in w.fans
        )
        console.print(
            f"biggest hand: {a.game_id}, seat {w.seat} on {T.to_unicode(w.tile)} {w.tile}"
            f" ({'self-drawn' if w.self_drawn else f'from seat {w.from_seat}'}): {w.points} points = {fans}",
            highlight=False,
        )
    console.print("next: `paipu games`, `paipu replay GAME_ID`, `paipu verify GAME_ID`")
    # Findings are the job's output (true rule breaches in real logs), not a failure of it;
    # a broken chain or a file that did not import is.
    if issues or chains_ok < games:
        raise typer.Exit(1)
