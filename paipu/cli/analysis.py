"""``paipu export`` and ``paipu stats``: the analytics commands (shared/DESIGN.md §7).

``--data`` as every command (``$PAIPU_DATA``, else ``./paipu-data``), the Parquet directory
``--out`` (default ``<data>/parquet``), one-line errors, ``--json`` for machines.
"""

from __future__ import annotations

import errno
import json
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.markup import escape
from rich.table import Table

from paipu.cli.console import console, err_console
from paipu.cli.errors import CliError
from paipu.cli.options import DEFAULT_DATA, DataOpt, OutOpt, open_store
from paipu.cli.root import command
from eventlog.words import plural

__all__ = ["export_cmd", "stats_cmd", "format_rate"]


def format_rate(row: dict[str, Any], name: str) -> str:
    """``23.5 % [9.6–47.3]`` for a rate with its Wilson interval; ``-`` without data."""
    v = row.get(name)
    if v is None:
        return "-"
    return f"{100 * v:.1f} % [{100 * row[f'{name}_ci_low']:.1f}–{100 * row[f'{name}_ci_high']:.1f}]"


def _num(v: Any, digits: int = 1) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def dirs(data: Path, out: Optional[Path]) -> tuple[Path, Path]:
    """The data directory and the Parquet directory (``<data>/parquet`` unless ``--out``)."""
    return data, (out if out is not None else data / "parquet")


def export_json(rep: Any, out: Path) -> dict[str, Any]:
    """An export's report (:class:`analytics.export.ExportReport`) written to ``out`` as
    ``paipu export --json`` gives it, and ``paipu verify --export --json`` under ``export``."""
    return {
        "out": str(out), "checkpoint": rep.checkpoint, "previous_checkpoint": rep.previous_checkpoint,
        "games": rep.games, "hands": rep.hands, "reexported": rep.reexported,
        "unfinished": rep.unfinished, "skipped": [list(s) for s in rep.skipped],
        "damaged": [list(s) for s in rep.damaged],
        "rows": rep.rows, "files": rep.files, "repaired": rep.repaired,
        "repair_reasons": rep.repair_reasons, "seconds": rep.seconds,
    }


@command("export")
def export_cmd(
    data: DataOpt = DEFAULT_DATA,
    out: OutOpt = None,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Forget the existing export and write it all again.")] = False,
    repair: Annotated[bool, typer.Option("--repair", help="Check every Parquet file and rebuild the damaged or missing ones.")] = False,
    workers: Annotated[int | None, typer.Option("--workers", min=1, help="Replay games in this many processes (same files); default: every core from 500 games to export on, else 1.")] = None,
    cluster: Annotated[Optional[str], typer.Option("--cluster", metavar="ADDRESS", help="Replay the games on the workers of this Dask scheduler (tcp://host:8786; pip install 'paipu[cluster]'); the files are the same as a local run. The workers must reach the store: a SQLite file on a shared disk or `paipu --store postgresql://…`.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the run report as JSON.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Replay the games finished since the last export and write them as Parquet facts."""
    from analytics.export import export
    from paipu.cli.console import progress

    d, o = dirs(data, out)
    store = open_store(d, must_exist=True)
    try:
        with progress(quiet=quiet or as_json) as bar:
            task = bar.add_task("exporting", total=None)
            rep = export(store, o, rebuild=rebuild, repair=repair, data_dir=d, workers=workers, cluster=cluster,
                         on_start=lambda n: bar.update(task, total=n),
                         on_game=lambda _g: bar.advance(task))
    except OSError as e:
        if e.filename is not None:
            raise
        # Parquet's writer names no file ("[Errno 28] Error writing bytes to file"): say where
        reason = "disk full (no space left on device)" if e.errno == errno.ENOSPC else (e.strerror or str(e))
        raise CliError(f"--out {o}: cannot write the export: {reason}") from None
    finally:
        store.close()
    if as_json:
        sys.stdout.write(json.dumps(export_json(rep, o), sort_keys=True) + "\n")
        if rep.damaged or rep.skipped:
            raise typer.Exit(1)
        return
    for key in rep.repaired:
        why = rep.repair_reasons.get(key)
        console.print(f"repaired block {key}" + (f": {why}; rebuilt from the log" if why else ""),
                      markup=False, highlight=False)
    for gid, why in rep.skipped:
        err_console.print(f"skipped {gid}: {why}", markup=False, highlight=False)
    for gid, why in rep.damaged:
        err_console.print(f"damaged {gid}: not exported: {why}", markup=False, highlight=False)
    console.print(
        f"exported {plural(rep.games, 'game')} ({plural(rep.hands, 'hand')}, {rep.reexported} re-exported) to {o}; "
        f"log position {rep.previous_checkpoint} → {rep.checkpoint}"
        + (f"; {plural(rep.unfinished, 'unfinished game')} wait{'s' if rep.unfinished == 1 else ''} for game_ended"
           if rep.unfinished else ""),
        markup=False, highlight=False,
    )
    if rep.damaged:
        err_console.print(
            f"{len(rep.damaged)} damaged game(s) not exported (the log cannot serve them intact; "
            f"`paipu verify --data {d}` says more); the intact games were exported",
            markup=False, highlight=False,
        )
        raise typer.Exit(1)
    if rep.skipped:  # named above, one line each: exit 1 = games not exported (README)
        raise typer.Exit(1)


#: The groups of ``paipu stats --by`` as --help and the README list them (analytics.queries.GROUPS
#: holds the same names; a test keeps the three in step — not imported here: DuckDB loads slowly).
BY_GROUPS = ("player", "seat", "seat_wind", "ruleset", "dealer")
BY_WORDS = " | ".join(BY_GROUPS)


@command("stats")
def stats_cmd(
    by: Annotated[Optional[str], typer.Option("--by", help=f"Group the seat statistics by {BY_WORDS} [default: player]; not with --fans, --placements, --deal-in-by-turn.")] = None,
    ruleset: Annotated[Optional[str], typer.Option("--ruleset", help="Only this ruleset.")] = None,
    player: Annotated[Optional[str], typer.Option("--player", help="Only this player.")] = None,
    date_from: Annotated[Optional[str], typer.Option("--from", help="First game date (YYYY-MM-DD).")] = None,
    date_to: Annotated[Optional[str], typer.Option("--to", help="Last game date (YYYY-MM-DD).")] = None,
    fans: Annotated[bool, typer.Option("--fans", help="Fan frequencies instead of seat statistics.")] = False,
    placements: Annotated[bool, typer.Option("--placements", help="Per player: games (sample), 1st–4th places (ties share the better place), average placement, points per game.")] = False,
    deal_in_by_turn: Annotated[bool, typer.Option("--deal-in-by-turn", help="Deal-in rate by turn of the hand (the seat's k-th discard; 18 = 18th and later), with sample sizes.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="JSON: a list with one object per group.")] = False,
    data: DataOpt = DEFAULT_DATA,
    out: OutOpt = None,
) -> None:
    """Win, self-draw and deal-in rates (with 95 % Wilson intervals), fan frequencies
    (--fans), placements per player (--placements) or the deal-in rate by turn of the hand
    (--deal-in-by-turn). Player aliases (`paipu players alias`) count as one player."""
    from datetime import date

    from analytics.export import ExportError
    from analytics.queries import GROUPS, Analytics

    if by is not None and by not in GROUPS:
        raise CliError(f"--by must be one of {', '.join(GROUPS)}, got {by!r}")
    ungrouped = [flag for flag, on in (("--fans", fans), ("--placements", placements),
                                       ("--deal-in-by-turn", deal_in_by_turn)) if on]
    if by is not None and ungrouped:
        raise CliError(f"--by {by} groups the seat statistics only; {ungrouped[0]} is not grouped by --by "
                       "(leave --by out)")
    by = by or "player"
    for name, v in (("--from", date_from), ("--to", date_to)):
        if v is not None:
            try:
                date.fromisoformat(v)
            except ValueError:
                raise CliError(f"{name} must be a date YYYY-MM-DD, got {v!r}") from None
    if date_from is not None and date_to is not None and date.fromisoformat(date_from) > date.fromisoformat(date_to):
        raise CliError(f"--from {date_from} is after --to {date_to}: no date is in that range (swap them?)")
    if sum(map(bool, (fans, placements, deal_in_by_turn))) > 1:
        raise CliError("give one of --fans, --placements, --deal-in-by-turn")
    d, o = dirs(data, out)
    tables = (["fans", "wins"] if fans else ["games"] if placements else ["actions"] if deal_in_by_turn
              else ["seat_results"])
    try:
        a = Analytics.open(o, d, tables=tables)
    except ExportError as e:
        raise CliError(str(e)) from None
    with a:
        _note_lag(d, a.export.checkpoint)
        _note_damaged(a.export)
        if placements:
            rows = a.placements(ruleset=ruleset, player=player, date_from=date_from, date_to=date_to)
        elif deal_in_by_turn:
            rows = a.deal_in_by_turn(ruleset=ruleset, player=player)
        elif fans:
            rows = a.fan_frequency(ruleset=ruleset, player=player, date_from=date_from, date_to=date_to)
        else:
            rows = a.seat_stats(by, ruleset=ruleset, player=player, date_from=date_from, date_to=date_to)
    if not rows and ruleset is not None:
        from paipu.cli.ruleset_options import check_ruleset

        check_ruleset(ruleset)  # a ruleset no registry knows is a bad argument (2), not an empty match
    if as_json:
        sys.stdout.write(json.dumps(rows, ensure_ascii=False, sort_keys=True) + "\n")
        if not rows:
            raise typer.Exit(1)
        return
    if not rows:
        given = [f"{k} {v}" for k, v in (("--ruleset", ruleset), ("--player", player),
                                          ("--from", date_from), ("--to", date_to)) if v is not None]
        err_console.print(
            "no exported hands match " + (", ".join(given) if given else "(the export is empty)")
            + (f"; `paipu stats --by {by}` without filters shows what there is" if given else
               "; run `paipu export` first"), markup=False, highlight=False)
        raise typer.Exit(1)
    if placements:
        console.print(_placements_table(rows))
    elif deal_in_by_turn:
        console.print(_turns_table(rows))
    else:
        console.print(_fans_table(rows) if fans else _stats_table(rows, by))


def _placements_table(rows: list[dict[str, Any]]) -> Table:
    t = Table("player", "games", "1st", "2nd", "3rd", "4th", "avg placement", "1st rate [95 % CI]",
              "points / game")
    for r in rows:
        t.add_row(escape(r["player"]), str(r["games"]), str(r["first"]), str(r["second"]), str(r["third"]),
                  str(r["fourth"]), f"{r['avg_placement']:.2f}", format_rate(r, "first_rate"),
                  _num(r["points_per_game"]))
    if any(len(r["rulesets"]) > 1 for r in rows):
        t.caption = _MIXED_UNITS
    return t


def _turns_table(rows: list[dict[str, Any]]) -> Table:
    t = Table("turn (巡目)", "discards", "deal-ins", "deal-in rate [95 % CI]")
    last = rows[-1]["turn"] if rows else None
    for r in rows:
        t.add_row(f"{r['turn']}+" if r["turn"] == last and r["turn"] >= 18 else str(r["turn"]),
                  str(r["discards"]), str(r["deal_ins"]), format_rate(r, "deal_in_rate"))
    return t


def _note_damaged(exported: Any) -> None:
    """Say on stderr when the export left out damaged games (its manifest names them)."""
    from analytics.export.reader import damaged_note

    note = damaged_note(len(exported.damaged_games))
    if note:
        err_console.print(f"note: {note}", markup=False, highlight=False)


def _note_lag(data: Path, checkpoint: int) -> None:
    """Say on stderr when the log (``paipu --store`` / $PAIPU_STORE's, else DATA's) has
    events the export does not cover yet; nothing when there is no log to ask."""
    from eventlog.store import StoreError, open_store

    from paipu.cli.options import store_location

    where = store_location(data)
    if where == data and not (data / "events.sqlite").exists():
        return
    try:
        store = open_store(where, create=False)
    except StoreError:
        return
    try:
        head = store.head_position()
    finally:
        store.close()
    if head > checkpoint:
        err_console.print(
            f"note: the log has {head - checkpoint} events after the export's position "
            f"{checkpoint}; run `paipu export` to include them", highlight=False)


def _stats_table(rows: list[dict[str, Any]], by: str) -> Table:
    # one row per seat per hand (seat_results): a hand played by four seats counts 4
    t = Table(by, "seat-hands", "wins", "win rate [95 % CI]", "self-draw rate", "deal-ins",
              "deal-in rate", "avg won", "avg lost")
    for r in rows:
        t.add_row(escape(_group(by, r[by])), str(r["hands"]), str(r["wins"]), format_rate(r, "win_rate"),
                  format_rate(r, "self_draw_rate"), str(r["deal_ins"]), format_rate(r, "deal_in_rate"),
                  _num(r["avg_points_won"]), _num(r["avg_points_lost"]))
    if any(len(r["rulesets"]) > 1 for r in rows):
        t.caption = _MIXED_UNITS
    return t


#: Under a table with a group of several rulesets (docs/analytics.md, "Units").
_MIXED_UNITS = "- : games of several rulesets, whose scores are in different units — give --ruleset"


#: Seat winds by name, as the rest of the output names them (eventlog/tiles.py: F1..F4).
_WINDS = {"F1": "East", "F2": "South", "F3": "West", "F4": "North"}


def _group(by: str, value: Any) -> str:
    """A group's name for people: the dealer groups are "dealer" / "not dealer" (never
    Python's True/False), seat winds East … North (never F1 … F4), a missing value is "-"."""
    if by == "dealer" and isinstance(value, bool):
        return "dealer" if value else "not dealer"
    if by == "seat_wind" and value in _WINDS:
        return _WINDS[value]
    return "-" if value is None else str(value)


def _fans_table(rows: list[dict[str, Any]]) -> Table:
    """Fan frequencies; each fan's value in its ruleset's own unit (ScoreUnit.item_value:
    ``2 points`` MCR, ``10 points per unit`` Changsha, ``2 fan`` Sichuan, ``×2`` Nanchang) —
    the rulesets' values are not one unit (docs/analytics.md "Units")."""
    from replayer.rules.base import score_unit_of

    t = Table("ruleset", "fan", "番种", "value", "wins with fan", "wins", "share of wins [95 % CI]")
    for r in rows:
        value = score_unit_of(r["ruleset"]).item_value(r["points"])
        t.add_row(escape(r["ruleset"]), escape(r["name_en"]), escape(r["name_zh"]), value, str(r["wins_with_fan"]),
                  str(r["wins"]), format_rate(r, "share_of_wins"))
    return t
