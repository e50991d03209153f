"""``paipu tournament``: group games into rounds (轮次), tables and sessions, name teams,
record a referee's standings penalty, and print or export the standings
(analytics/tournament.py; docs/reference/rules/competition.md §A10, MCR table points).

    paipu tournament create open2026 --scoring mcr_table_points
    paipu tournament add-game open2026 GAME_ID --round 1 --table A
    paipu tournament team open2026 "Team East" alice bob
    paipu tournament penalty open2026 alice -10 --rule "competition.md §A9" --reason "slow play"
    paipu tournament standings open2026 [--round 2] [--teams] [--csv out.csv] [--parquet out.parquet] [--json]
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from paipu.cli.console import plural, say
from paipu.cli.errors import CliError
from paipu.cli.options import DEFAULT_DATA, DataOpt, open_store, output_file
from paipu.cli.root import app, command

__all__ = ["tournament_app"]

tournament_app = typer.Typer(
    name="tournament", no_args_is_help=True, rich_markup_mode=None,
    help="Tournaments: games by round, table and session; teams; standings a referee can sign "
         "(MCR table points 4/2/1/0, or 竞技麻将 标准分/总局分) with CSV and Parquet export.",
)
app.add_typer(tournament_app)


def _cmd(name: str, **settings):
    return command(name, group=tournament_app, context_settings=settings or None)


@_cmd("create")
def create_cmd(
    name: Annotated[str, typer.Argument(help="Tournament name (letters, digits, _ . -).")],
    scoring: Annotated[str, typer.Option("--scoring", help="mcr_table_points (4/2/1/0 per game, ties split) or cjm_standard (标准分 per round and table, then 总局分).")] = "mcr_table_points",
    first_points: Annotated[int, typer.Option("--first-points", min=0, help="cjm_standard: 标准分 of a table's first in a round.")] = 1,
    second_points: Annotated[int, typer.Option("--second-points", min=0, help="cjm_standard: 标准分 of a second.")] = 0,
    second_scope: Annotated[str, typer.Option("--second-scope", help="cjm_standard: 'table' (every table's second) or 'best' (the best second across tables).")] = "table",
    title: Annotated[str, typer.Option("--title", help="A title for reports.")] = "",
    data: DataOpt = DEFAULT_DATA,
) -> None:
    """Create a tournament (an append-only file under <data>/tournaments/)."""
    from analytics.tournament import Created, Tournament, record

    for flag, value, allowed in (("--scoring", scoring, ("mcr_table_points", "cjm_standard")),
                                 ("--second-scope", second_scope, ("table", "best"))):
        if value not in allowed:
            raise CliError(f"{flag} {value!r}: use {' or '.join(allowed)}")

    t = Tournament.create(data, name, record(Created, scoring=scoring, first_points=first_points,
                                             second_points=second_points, second_scope=second_scope,
                                             title=title))
    say(f"created tournament {t.name} ({t.created.scoring})")


@_cmd("add-game")
def add_game_cmd(
    name: Annotated[str, typer.Argument(help="Tournament name.")],
    game_id: Annotated[str, typer.Argument(help="A game of the event log.")],
    round_: Annotated[int, typer.Option("--round", min=1, help="Round (轮次), from 1.")] = 1,
    table: Annotated[str, typer.Option("--table", help="Table name or number.")] = "1",
    session: Annotated[int, typer.Option("--session", min=1, help="Session (局) at that table in that round.")] = 1,
    data: DataOpt = DEFAULT_DATA,
) -> None:
    """Add a game of the log to a round, table and session."""
    from analytics.tournament import GameRecord, add_game, record

    rec = record(GameRecord, game_id=game_id, round=round_, table=table, session=session)
    store = open_store(data, must_exist=True)
    try:
        _, res = add_game(data, store, name, rec)
    finally:
        store.close()
    state = "finished" if res.finished else "NOT finished (no game_ended yet): left out of the standings until it ends"
    say(f"added {game_id} to round {round_}, table {table}, session {session}: {', '.join(res.players)}; {state}")
    if res.findings:
        say(f"note: {game_id} has {plural(res.findings, 'finding')}; see them with "
            f"`paipu verify {game_id} --data {data}`")


@_cmd("team")
def team_cmd(
    name: Annotated[str, typer.Argument(help="Tournament name.")],
    team: Annotated[str, typer.Argument(help="Team name.")],
    players: Annotated[list[str], typer.Argument(help="Players (as named in game_started).")],
    data: DataOpt = DEFAULT_DATA,
) -> None:
    """Name a team and its players (team standings: members' 标准分, then 总局分); every player
    must play one of the tournament's games (add the game first)."""
    from analytics.tournament import TeamRecord, add_team, record

    rec = record(TeamRecord, team=team, players=players)
    store = open_store(data, must_exist=True)
    try:
        add_team(data, store, name, rec)
    finally:
        store.close()
    say(f"team {team}: {', '.join(players)}")


@_cmd("penalty", ignore_unknown_options=True)  # a negative POINTS (-10) is an argument, not an option
def penalty_cmd(
    name: Annotated[str, typer.Argument(help="Tournament name.")],
    player: Annotated[str, typer.Argument(help="The player, as named in game_started of one of the tournament's "
                                            "games or in a team (add the game or team first).")],
    points: Annotated[int, typer.Argument(help="Points added to the player's score total (negative: taken). "
                                              "cjm_standard: 罚分 of competition.md §A9, a multiple of 10 from "
                                              "-50 to 50; mcr_table_points: at most 100000 either way.")],
    rule: Annotated[str, typer.Option("--rule", help="The rule applied, e.g. 'competition.md §A9'.")],
    reason: Annotated[str, typer.Option("--reason", help="Why.")] = "",
    round_: Annotated[int, typer.Option("--round", min=1, help="The round it belongs to: a round that holds one of the tournament's games.")] = 1,
    referee: Annotated[str, typer.Option("--referee", help="Who decided.")] = "",
    data: DataOpt = DEFAULT_DATA,
) -> None:
    """Record a referee's penalty in the standings (a penalty inside a game is an event of the
    game: `paipu append` a referee_ruling)."""
    from analytics.tournament import PenaltyRecord, add_penalty, record

    rec = record(PenaltyRecord, player=player, points=points, rule=rule, reason=reason, round=round_,
                 referee=referee)
    store = open_store(data, must_exist=True)
    try:
        add_penalty(data, store, name, rec)
    finally:
        store.close()
    say(f"penalty {points:+d} for {player} ({rule})")


@_cmd("standings")
def standings_cmd(
    name: Annotated[str, typer.Argument(help="Tournament name.")],
    round_: Annotated[Optional[int], typer.Option("--round", min=1, help="Standings after this round (default: all).")] = None,
    teams: Annotated[bool, typer.Option("--teams", help="Show the team ranking.")] = False,
    csv_path: Annotated[Optional[Path], typer.Option("--csv", help="Write the standings (players and teams) as CSV.")] = None,
    parquet_path: Annotated[Optional[Path], typer.Option("--parquet", help="Write them as Parquet (columns: docs/analytics.md, standings).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rows as JSON.")] = False,
    data: DataOpt = DEFAULT_DATA,
) -> None:
    """Replay the tournament's games and rank the players (or teams); ties share a rank."""
    from analytics.tournament import (
        Tournament, check_round, not_games, standings, standings_rows, write_csv, write_parquet,
    )
    from analytics.tournament import results as game_results

    t = Tournament.load(data, name)
    through = check_round(t, round_, "--round")
    store = open_store(data, must_exist=True)
    try:
        results = game_results(store, t)
        skipped = not_games(store, t)
    finally:
        store.close()
    rows = standings_rows(t, results, through_round=round_)
    if csv_path is not None:
        write_csv(rows, output_file("--csv", csv_path))
    if parquet_path is not None:
        write_parquet(rows, output_file("--parquet", parquet_path))
    if as_json:
        say(json.dumps(rows, ensure_ascii=False, sort_keys=True))
        return
    lines = standings(t, results, through_round=round_, teams=teams)
    mcr = t.created.scoring == "mcr_table_points"
    head = "table pts" if mcr else "标准分"
    title = f"{t.created.title} — " if t.created.title else ""
    say(f"{title}{t.name} ({t.created.scoring}) {_counted(t, through)}")
    say(f"{'rank':>4}  {'name':20} {'games':>5} {head:>9} {'score':>8} {'penalty':>7}")
    for s in lines:
        main = f"{float(s.table_points):9.2f}" if mcr else f"{s.standard_points:9d}"
        say(f"{s.rank:>4}  {s.name:20} {s.games:>5} {main} {s.score:>8} {s.penalty_points:>7}"
            + ("  provisional" if s.provisional else "")
            + (f"  ({s.unfinished} unfinished, not counted)" if s.unfinished else ""))
    if any(s.provisional for s in lines):
        say("provisional: games scored with unconfirmed pattern values (competition.md §A6.2)")
    unfinished = [r.record.game_id for r in results
                  if not r.finished and (round_ is None or r.record.round <= round_)]
    if unfinished:
        say(f"not finished (left out of the standings until game_ended): {', '.join(unfinished)}")
    if skipped:
        say(f"not games (recorded before add-game refused them; left out): {', '.join(skipped)}")


def _counted(t, through: int) -> str:
    """What the table counts: "after round R" — the games and the penalties of rounds 1..R —
    and, when the last rounds counted hold penalties only (a file written before penalties
    needed a round with games), the rounds that hold games."""
    game_rounds = [g.round for g in t.games if g.round <= through]
    last_game = max(game_rounds, default=0)
    if last_game == through:
        rounds = f"rounds 1 to {through}" if through > 1 else "round 1"
        return f"after round {through} (games and penalties of {rounds})" if through else "(no games yet)"
    games = f"rounds 1 to {last_game}" if last_game > 1 else "round 1"
    return (f"after round {through}: games of {games}, penalties of rounds 1 to {through}"
            if last_game else f"after round {through}: no games, penalties of rounds 1 to {through}")
