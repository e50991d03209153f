"""``paipu replay``: the table at an event of a game, or stepped through with keys."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from paipu.cli.console import console
from paipu.cli.errors import CliError
from paipu.cli.options import DEFAULT_DATA, DataOpt, open_store
from paipu.cli.root import command

__all__ = ["replay"]


@command()
def replay(
    game_id: Annotated[str, typer.Argument(help="The game to replay.")],
    at: Annotated[Optional[int], typer.Option("--at", min=0, max=2**62, help="Show the table right after event SEQ [default: the last].")] = None,
    seat: Annotated[Optional[int], typer.Option("--seat", min=0, max=3, help="Show only this seat's concealed tiles.")] = None,
    step: Annotated[bool, typer.Option("--step", help="Step through with keys: n/space next, b back, h next hand, w next win, c next claim, g jump to seq, q quit.")] = False,
    data: DataOpt = DEFAULT_DATA,
) -> None:
    """Print the table (hands, melds, discards, wall, scores) at an event of GAME_ID."""
    from paipu.cli.render import table_view
    from replayer.replay import replay as _replay

    store = open_store(data, must_exist=True)
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
    if not sys.stdin.isatty():
        raise CliError("--step reads keys from a terminal; without one, use --at SEQ")
    from paipu.cli.stepper import step_through

    step_through(steps, 0 if at is None else idx, seat=seat)  # stepping starts at the beginning unless --at
