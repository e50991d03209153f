"""``paipu players``: player aliases, stored as ``player_aliased`` events in the log's own stream
``paipu:players`` (eventlog/players.py) and used by every statistic (``paipu stats``, the
dashboard, the Parquet export's player_aliases.parquet).

    paipu players alias "Player0" "Player 0"     # Player0 is another spelling of Player 0
    paipu players alias "Player0" "Player0"      # withdraw that alias
    paipu players list [--json]                  # the aliases
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from paipu.cli.console import say
from paipu.cli.options import DEFAULT_DATA, DataOpt, open_store
from paipu.cli.root import app, command

__all__ = ["players_app"]

players_app = typer.Typer(
    name="players", no_args_is_help=True, rich_markup_mode=None,
    help="Player aliases: one person under several spellings (\"Player 0\" and \"Player0\"), "
         "stored as events in the log and used by every statistic.",
)
app.add_typer(players_app)


def _cmd(name: str):
    return command(name, group=players_app)


@_cmd("alias")
def alias_cmd(
    alias: Annotated[str, typer.Argument(help="The other spelling (e.g. \"Player0\").")],
    player: Annotated[str, typer.Argument(help="The name statistics use (e.g. \"Player 0\"); the alias itself withdraws it.")],
    data: DataOpt = DEFAULT_DATA,
) -> None:
    """Record that ALIAS is another name of PLAYER (an event appended to the log; run `paipu
    export` for the Parquet statistics to follow)."""
    from eventlog.players import add_alias

    store = open_store(data, must_exist=True)
    try:
        aliases = add_alias(store, alias, player)
    finally:
        store.close()
    # names in double quotes (a name may hold spaces), never Python's repr
    n = f"{len(aliases)} alias{'es' if len(aliases) != 1 else ''}"
    if alias.strip() == player.strip():
        say(f'"{alias.strip()}" is no longer an alias; {n}')
    else:
        say(f'"{alias.strip()}" → "{aliases.get(alias.strip(), player)}"; {n} '
            "(`paipu export` brings them to the statistics)")


@_cmd("list")
def list_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object {alias: player}.")] = False,
    data: DataOpt = DEFAULT_DATA,
) -> None:
    """The player aliases, each with the name statistics use for it."""
    from eventlog.players import read_aliases

    store = open_store(data, must_exist=True)
    try:
        aliases = read_aliases(store)
    finally:
        store.close()
    if as_json:
        sys.stdout.write(json.dumps(aliases, ensure_ascii=False, sort_keys=True) + "\n")
        return
    for a, p in aliases.items():
        say(f'"{a}" → "{p}"')
    say(f"{len(aliases)} alias{'es' if len(aliases) != 1 else ''}")
