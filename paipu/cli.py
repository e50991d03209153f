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
    rich_markup_mode=None,  # help texts are plain: "[default: …]" and tile brackets stay as written
)
def _console(stderr: bool = False) -> Console:
    """A terminal gets Rich's layout; a pipe or file gets long lines unwrapped, so
    ``file:line`` locations and table rows stay whole for grep."""
    c = Console(stderr=stderr)
    if not c.is_terminal:
        c = Console(stderr=stderr, width=max(c.width, 200), soft_wrap=True)
    return c


console = _console()
err_console = _console(stderr=True)


def say(text: str, *, err: bool = False, style: str | None = None) -> None:
    """Print ``text`` as it is: no Rich markup, so ``[rule_id]`` and tile brackets survive."""
    (err_console if err else console).print(text, markup=False, highlight=False, style=style)

_DEBUG = {"on": False}


def default_data_dir() -> Path:
    return Path(os.environ.get("PAIPU_DATA") or "paipu-data")


DataOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--data",
        help="Data directory of the embedded event store (default: $PAIPU_DATA, else ./paipu-data).",
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
        except BrokenPipeError:  # output piped into `head` and closed early
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(0) from None
        except Exception as e:  # noqa: BLE001 - the one place that reports errors
            if _DEBUG["on"]:
                raise
            say(f"error: {_describe(e)}", err=True, style="red")
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
    from eventlog.store.base import StoreError
    from replayer.findings import ReplayError

    if isinstance(e, (CliError, ValueError, OSError, StoreError, ReplayError)):
        return msg  # errors that describe bad input or state in words
    return f"internal error: {msg} ({name}); run `paipu --debug ...` for the traceback"


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
    if d.exists() and not d.is_dir():
        raise CliError(f"--data {d} is a file; it must be a data directory (it is created if missing)")
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
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port 0..65535 (0 picks a free one).")] = 50051,
    tokens: Annotated[Optional[Path], typer.Option("--tokens", help="File of `ROLE TOKEN` lines (viewer, recorder, referee); without it the server needs no token.", exists=True, dir_okay=False)] = None,
    insecure: Annotated[bool, typer.Option("--insecure", help="Allow a non-loopback --host without --tokens (anyone who reaches it can write).")] = False,
) -> None:
    """Run the gRPC services on DATA: EventLogService (append, read, list, subscribe),
    IngestService (upload a log file), ReplayService (state at an event, step through,
    verify), plus health and reflection.

    Clients send their token with $PAIPU_TOKEN (`paipu append --server ...`)."""
    from services.server import load_tokens, serve as _serve

    d = _data(data)
    d.mkdir(parents=True, exist_ok=True)
    _serve(d, host=host, port=port, tokens=load_tokens(tokens) if tokens else None, insecure=insecure)


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
        from services.client import EventLogClient

        with EventLogClient(server, token=os.environ.get("PAIPU_TOKEN")) as client:
            res = client.append(game_id, events, exp)
    else:
        store = _open_store(data)
        try:
            res = store.append(game_id, events, exp)
        finally:
            store.close()
    if res.duplicate:
        say(f"{game_id}: already stored (seq {res.first_seq}..{res.last_seq}); nothing written")
    else:
        say(
            f"{game_id}: appended {res.last_seq - res.first_seq + 1} events, seq {res.first_seq}..{res.last_seq}, "
            f"positions {res.first_position}..{res.last_position}"
        )


# ----------------------------------------------------------------------------- read
@app.command()
@_friendly
def read(
    game_id: Annotated[str, typer.Argument(help="The game to read.")],
    from_seq: Annotated[int, typer.Option("--from", min=0, max=2**62, help="First sequence number.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="JSON Lines with seq, position and hashes.")] = False,
    server: ServerOpt = None,
    data: DataOpt = None,
) -> None:
    """Print the events of GAME_ID in order."""
    if server:
        from services.client import EventLogClient

        with EventLogClient(server, token=os.environ.get("PAIPU_TOKEN")) as client:
            _print_events(client.read_game(game_id, from_seq=from_seq), as_json)
        return
    store = _open_store(data, must_exist=True)
    try:
        _print_events(store.read_game(game_id, from_seq=from_seq), as_json)
    finally:
        store.close()


def _print_events(events, as_json: bool) -> None:
    from eventlog import tiles as T

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
        from services.client import EventLogClient

        with EventLogClient(server, token=os.environ.get("PAIPU_TOKEN")) as client:
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
    say(f"{len(infos)} games")




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
    server: Annotated[Optional[str], typer.Option("--server", help="Upload the files to a running `paipu serve` at HOST:PORT (IngestService; needs a recorder token in $PAIPU_TOKEN when the server has tokens) instead of the data directory.")] = None,
    data: DataOpt = None,
) -> None:
    """Import game logs. Each game is stored whole or not at all; re-importing stores
    nothing twice; a bad game is reported with file and line and the others still load."""
    from eventlog.ingest import known_formats
    from eventlog.ingest.load import IngestReport, ingest_files

    if format is not None and format not in known_formats():
        raise CliError(f"unknown format {format!r}; known formats: {', '.join(known_formats())}")
    if server:
        from services.client import EventLogClient

        report = IngestReport()
        with EventLogClient(server, token=os.environ.get("PAIPU_TOKEN")) as client, _progress() as bar:
            task = bar.add_task("uploading", total=len(files))
            for f in files:  # one upload per file; the server parses and stores it
                part = client.ingest_log(f, format=format)
                report.stored += part.stored
                report.duplicates += part.duplicates
                report.errors += part.errors
                report.events += part.events
                bar.advance(task)
    else:
        store = _open_store(data)
        try:
            with _progress() as bar:
                task = bar.add_task("importing", total=None)
                report = ingest_files(store, files, format=format, on_game=lambda _g: bar.advance(task))
        finally:
            store.close()
    say(
        f"{len(report.stored)} games stored ({report.events} events), "
        f"{len(report.duplicates)} already stored, {len(report.errors)} errors"
    )
    for issue in report.errors:
        say(f"error: {issue}", err=True, style="red")
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
    mark = "ok" if ok else "FAIL"
    chain_txt = "chain ok" if chain.ok else f"chain BROKEN at seq {chain.first_bad_seq}: {chain.reason}"
    if audit is None:
        say(f"{mark} {chain.game_id}: {chain_txt}")
        return ok
    say(
        f"{mark} {chain.game_id}: {chain_txt}, {audit.events} events, {audit.hands} hands, "
        f"{len(audit.wins)} wins, {audit.draws} draws, {len(audit.findings)} findings"
    )
    if verbose or not ok:
        for f in audit.findings:
            say(f"    finding: {f}")
        for w in audit.wins:
            fans = " + ".join(f"{x.name_zh}×{x.count}" if x.count > 1 else x.name_zh for x in w.fans)
            rep = " + ".join(f"{n}×{c}" if c > 1 else n for n, _p, c in w.reported_fans)
            state = "agrees" if (w.fans_agree is not False and w.score_agrees is not False) else "DISAGREES"
            if w.reported_fans and w.fans_agree is None:
                state += " (the source's fan names are unreadable: only the totals were compared)"
            say(
                f"    win seq {w.seq} seat {w.seat} {w.tile}: computed {w.points} [{fans}] {list(w.changes) if w.changes else '-'}",
            )
            if w.reported is not None:
                say(
                    f"      reported {w.reported.total} [{rep}] "
                    f"{list(w.reported.score_changes) if w.reported.score_changes else '-'}: {state}",
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
    say(f"{len(ids) - bad} of {len(ids)} games intact")
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
    say(f"paipu quickstart: {len(files)} bundled log files -> {d}")
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
    fan_lists = [w for w in wins if w.reported_fans]
    fans_ok = sum(1 for w in fan_lists if w.fans_agree is True)
    fans_bad = sum(1 for w in fan_lists if w.fans_agree is False)
    unreadable = len(fan_lists) - fans_ok - fans_bad
    t.add_row(
        "reported fans",
        f"{fans_ok} of {len(fan_lists)} fan lists agree, {fans_bad} disagree"
        + (f", {unreadable} unreadable" if unreadable else ""),
    )
    scores = [r for a in audits for r in a.reported if r.score_changes is not None or r.total is not None]
    t.add_row("reported scores", f"{sum(r.agrees for r in scores)} of {len(scores)} agree, "
              f"{sum(not r.agrees for r in scores)} disagree")
    if issues:
        t.add_row("import errors", str(len(issues)))
    console.print(t)
    for gid, f in findings:
        say(f"  finding in {gid}: {f}")
    for gid, w in disagree:
        say(f"  reported score differs in {gid} (win seq {w.seq}): see `paipu verify {gid}`")
    for issue in issues:
        say(f"import error: {issue}", err=True, style="red")
    legal = [(a, w) for a in audits for w in a.wins if w.legal and w.points is not None]
    if legal:
        from eventlog import tiles as T

        a, w = max(legal, key=lambda aw: (aw[1].points, aw[0].game_id))
        fans = ", ".join(
            f"{x.name_en} {x.name_zh} {x.points}" + (f"×{x.count}" if x.count > 1 else "") for x in w.fans
        )
        say(
            f"biggest hand: {a.game_id}, seat {w.seat} on {T.to_unicode(w.tile)} {w.tile}"
            f" ({'self-drawn' if w.self_drawn else f'from seat {w.from_seat}'}): {w.points} points = {fans}",
        )
    console.print("next: `paipu games`, `paipu replay GAME_ID`, `paipu verify GAME_ID`")
    # Findings are the job's output (true rule breaches in real logs), not a failure of it;
    # a broken chain or a file that did not import is.
    if issues or chains_ok < games:
        raise typer.Exit(1)


# ----------------------------------------------------------------------------- replay
@app.command()
@_friendly
def replay(
    game_id: Annotated[str, typer.Argument(help="The game to replay.")],
    at: Annotated[Optional[int], typer.Option("--at", min=0, max=2**62, help="Show the table right after event SEQ [default: the last].")] = None,
    seat: Annotated[Optional[int], typer.Option("--seat", min=0, max=3, help="Show only this seat's concealed tiles.")] = None,
    step: Annotated[bool, typer.Option("--step", help="Step through with keys: n/space next, b back, h next hand, w next win, c next claim, g jump to seq, q quit.")] = False,
    data: DataOpt = None,
) -> None:
    """Print the table (hands, melds, discards, wall, scores) at an event of GAME_ID."""
    from replayer.replay import replay as _replay
    from paipu.render import table_view

    store = _open_store(data, must_exist=True)
    try:
        events = list(store.read_game(game_id))
    finally:
        store.close()
    steps = list(_replay(events, mode="audit"))
    if not steps:
        raise CliError(f"game {game_id} has no events")
    idx = len(steps) - 1 if at is None else next((i for i, s in enumerate(steps) if s.event.seq == at), None)
    if idx is None:
        raise CliError(f"game {game_id} has no event {at} (events 0..{steps[-1].event.seq})")
    if not step:
        s = steps[idx]
        console.print(table_view(s.state, s.event, seat=seat, findings=s.findings))
        return
    import click

    if not sys.stdin.isatty():
        raise CliError("--step reads keys from a terminal; without one, use --at SEQ")
    if at is None:
        idx = 0  # stepping starts at the beginning unless --at says otherwise
    jumps = {
        "h": ("hand_started",),
        "w": ("win_declared", "exhaustive_draw"),
        "c": ("chow", "pung", "kong", "win_declared"),
    }
    while True:
        s = steps[idx]
        console.clear()
        console.print(table_view(s.state, s.event, seat=seat, findings=s.findings))
        say(f"event {idx + 1}/{len(steps)}  n next · b back · h next hand · w next win/draw · c next claim · g go to seq · q quit")
        key = click.getchar()
        if key in ("q", "\x03", "\x1b"):
            return
        if key in ("n", " ", "\r", "\n", "\x1b[C"):
            idx = min(idx + 1, len(steps) - 1)
        elif key in ("b", "\x1b[D"):
            idx = max(idx - 1, 0)
        elif key in jumps:
            nxt = next((i for i in range(idx + 1, len(steps)) if steps[i].event.type in jumps[key]), None)
            idx = nxt if nxt is not None else idx
        elif key == "g":
            text = input(f"go to seq (0..{steps[-1].event.seq}, Enter to stay): ").strip()
            if text.isdigit() and int(text) <= steps[-1].event.seq:
                idx = next((i for i, st in enumerate(steps) if st.event.seq == int(text)), idx)


# ----------------------------------------------------------------------------- score
_WIND_LETTERS = ("E", "S", "W", "N")
_SCORING_RULESETS = ("mcr", "nanchang")


def _situation_json(sit) -> dict[str, Any]:
    """A WinSituation in the vector schema (what score_case reads)."""
    import dataclasses

    d = dataclasses.asdict(sit)
    d["hand"] = list(sit.hand)
    d["melds"] = [{**dataclasses.asdict(m), "tiles": list(m.tiles)} for m in sit.melds]
    return d


def _parse_meld(text: str):
    """``TYPE:TILES[@FROM]``: TYPE chow | pung | kong | ckong (concealed kong); TILES in any
    tile notation (a single tile for pung/kong); FROM the relative seat the claimed tile came
    from (1 previous, 2 opposite, 3 next; default 1)."""
    from eventlog import tiles as T
    from replayer.rules.mcr.situation import Meld

    try:
        kind, rest = text.split(":", 1)
    except ValueError:
        raise CliError(f"--meld {text!r}: expected TYPE:TILES[@FROM], e.g. chow:T3T4T5 or pung:J1@2") from None
    src = 1
    if "@" in rest:
        rest, s = rest.rsplit("@", 1)
        if s not in ("1", "2", "3"):
            raise CliError(f"--meld {text!r}: FROM must be 1, 2 or 3")
        src = int(s)
    kind = kind.strip().lower()
    import re

    compact = rest.replace(" ", "").replace(",", "")
    if re.fullmatch(r"(?:[WTBFJH][0-9])+", compact):  # T3T4T5 written without spaces
        rest = " ".join(compact[i : i + 2] for i in range(0, len(compact), 2))
    ts = T.parse(rest)
    if kind == "chow":
        if len(ts) != 3:
            raise CliError(f"--meld {text!r}: a chow has three tiles")
        return Meld("chow", tuple(T.sort_tiles(ts)), False, 1, ts[0])
    if kind in ("pung", "kong", "ckong"):
        n = 3 if kind == "pung" else 4
        if len(set(ts)) != 1 or len(ts) not in (1, n):
            raise CliError(f"--meld {text!r}: a {kind} is one tile given once or {n} times, got {len(ts)} tiles")
        t = ts[0]
        if kind == "ckong":
            return Meld("kong", (t,) * 4, True, None, None)
        return Meld(kind, (t,) * n, False, src, t)
    raise CliError(f"--meld {text!r}: TYPE must be chow, pung, kong or ckong")


def _score_vectors(ruleset: str, vectors: Path, out: Optional[Path]) -> None:
    """``score --vectors FILE``: one JSON line out per situation, scored by the ruleset's
    ``vectors.score_lines`` (schemas: tests/data/<ruleset>/README.md)."""
    import importlib

    score_lines = importlib.import_module(f"replayer.rules.{ruleset}.vectors").score_lines
    src = sys.stdin if str(vectors) == "-" else vectors.open(encoding="utf-8")
    dst = out.open("w", encoding="utf-8") if out else sys.stdout
    n = bad = 0
    try:
        for res in score_lines(src, source=str(vectors)):
            dst.write(json.dumps(res, ensure_ascii=False) + "\n")
            n += 1
            bad += "bad situation" in str(res.get("error", ""))
    finally:
        if src is not sys.stdin:
            src.close()
        if out:
            dst.close()
    if out:
        console.print(f"{n} cases scored -> {out}")
    if bad:  # every line was written; the malformed ones still fail the run
        say(f"error: {bad} of {n} lines are malformed (\"bad situation\")", err=True, style="red")
        raise typer.Exit(1)


@app.command()
@_friendly
def score(
    ruleset: Annotated[str, typer.Option("--ruleset", help="Ruleset id (mcr, nanchang).")] = "mcr",
    vectors: Annotated[Optional[Path], typer.Option("--vectors", help="JSON Lines of situations (schema: tests/data/mcr/README.md); '-' for stdin.")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write the JSON Lines here instead of stdout.")] = None,
    hand: Annotated[Optional[str], typer.Option("--hand", help='Concealed tiles without the winning tile, e.g. "W1 W2 W3 ..." or "123m456p".')] = None,
    win: Annotated[Optional[str], typer.Option("--win", help="The winning tile.")] = None,
    meld: Annotated[Optional[list[str]], typer.Option("--meld", help="A declared set TYPE:TILES[@FROM] (chow, pung, kong, ckong); repeat.")] = None,
    self_drawn: Annotated[bool, typer.Option("--self-drawn", help="Won by self-draw (自摸).")] = False,
    last_tile: Annotated[bool, typer.Option("--last-tile", help="Last copy of the winning tile (和绝张).")] = False,
    kong: Annotated[bool, typer.Option("--kong", help="Kong replacement win (with --self-drawn) or robbing a kong.")] = False,
    last_of_wall: Annotated[bool, typer.Option("--last-of-wall", help="The last tile of the wall.")] = False,
    seat_wind: Annotated[str, typer.Option("--seat-wind", help="E, S, W or N.")] = "E",
    prevalent_wind: Annotated[str, typer.Option("--prevalent-wind", help="E, S, W or N.")] = "E",
    flowers: Annotated[int, typer.Option("--flowers", min=0, max=8, help="Flower tiles (1 point each).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="With --hand: print the JSON line instead of a table.")] = False,
) -> None:
    """Score winning hands: in bulk from a vectors file (one JSON line out per case), or one
    hand given with --hand/--win, explained fan by fan with the tiles each fan counts."""
    if ruleset not in _SCORING_RULESETS:
        raise CliError(f"unknown ruleset {ruleset!r} for scoring (known: {', '.join(_SCORING_RULESETS)})")
    if vectors is not None:
        _score_vectors(ruleset, vectors, out)
        return
    if ruleset != "mcr":
        raise CliError(f"--ruleset {ruleset} scores end-of-hand situations: give --vectors FILE")
    from eventlog import tiles as T
    from replayer.rules.mcr.fans.calculator import score as mcr_score
    from replayer.rules.mcr.situation import WinSituation
    from replayer.rules.mcr.vectors import score_case

    if not hand or not win:
        raise CliError("give --vectors FILE, or --hand TILES and --win TILE (see --help)")
    for w, name in ((seat_wind, "--seat-wind"), (prevalent_wind, "--prevalent-wind")):
        if w not in _WIND_LETTERS:
            raise CliError(f"{name} must be E, S, W or N, got {w!r}")
    wins = T.parse(win)
    if len(wins) != 1:
        raise CliError(f"--win takes one tile, got {win!r}")
    sit = WinSituation(
        hand=tuple(T.parse(hand)),
        win_tile=wins[0],
        melds=tuple(_parse_meld(m) for m in (meld or [])),
        self_drawn=self_drawn,
        last_tile=last_tile,
        kong_related=kong,
        last_of_wall=last_of_wall,
        seat_wind=seat_wind,  # type: ignore[arg-type]
        prevalent_wind=prevalent_wind,  # type: ignore[arg-type]
        flowers=flowers,
    )
    n_tiles = len(sit.hand) + 3 * len(sit.melds)
    if n_tiles != 13:
        raise CliError(f"hand + melds hold {n_tiles} tiles (a kong counts 3); a waiting hand holds 13")
    res = mcr_score(sit)
    if as_json:
        print(json.dumps(score_case({**_situation_json(sit), "id": "hand"}), ensure_ascii=False))
        return
    say(f"hand {T.to_unicode(sit.hand)} + {T.to_unicode(sit.win_tile)}  ({' '.join(sit.hand)} + {sit.win_tile})")
    if not res.is_win:
        raise CliError(res.error or "not a winning hand")
    t = Table("fan", "中文", "points", "count", "counted on")
    for f in res.fans:
        t.add_row(f.name_en, f.name_zh, str(f.points), str(f.count), "  ".join(" ".join(g) for g in f.tiles))
    console.print(t)
    say(f"total {res.total} ({res.total_without_flowers} without flowers)")
    if not res.meets_minimum:
        raise CliError(f"not a legal win: {res.total_without_flowers} fans without flowers, below the 8-fan minimum")


# ----------------------------------------------------------------------------- plug-ins
def _register_plugins() -> None:
    """Commands that live beside their subsystem: export/stats (analytics), dashboard,
    simulate. Each module offers ``register(app)``; a missing one is skipped."""
    import importlib

    for mod in ("analytics.cli", "dashboard.cli", "replayer.simulate.cli"):
        try:
            module = importlib.import_module(mod)
        except ModuleNotFoundError as e:
            if e.name and mod.startswith(e.name):
                continue
            raise
        module.register(app)


_register_plugins()


def main() -> None:  # pragma: no cover - console entry
    app()
