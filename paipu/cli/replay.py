"""``paipu replay``: the table at an event of a game, or stepped through with keys."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Optional

import typer

from paipu.cli.console import console
from paipu.cli.errors import CliError
from paipu.cli.options import DEFAULT_DATA, DataOpt, open_store
from paipu.cli.root import command

__all__ = ["replay"]


def _state_json(game_id: str, step, seat: int | None) -> dict:
    """``paipu replay --json``: the event, its words, findings and the state after it."""
    from eventlog.describe import describe_words
    from eventlog.view import seat_view
    from replayer.rules.base import ruleset_words_of
    from replayer.state import to_dict
    from replayer.view import seat_state_view

    shown = seat_state_view(step.state, seat)  # a seat's view: what that seat may see
    state = to_dict(shown)
    event = seat_view(step.event, seat)  # the event too: no other seat's concealed tile in it
    en, zh = describe_words(event, shown, ruleset_words_of(step.state.ruleset_id))
    return {
        "game_id": game_id, "seq": event.seq, "view_seat": seat,
        "event": {"type": event.type, "payload": event.payload_json(), "text_en": en, "text_zh": zh},
        "findings": [{"seq": f.seq, "rule_id": f.rule_id, "message": f.message, "source": f.source,
                      "seat": f.seat} for f in step.findings],
        "state": state,
    }


@command()
def replay(
    game_id: Annotated[str, typer.Argument(help="The game to replay.")],
    at: Annotated[Optional[int], typer.Option("--at", min=0, max=2**62, help="Show the table right after event SEQ [default: the last].")] = None,
    seat: Annotated[Optional[int], typer.Option("--seat", min=0, max=3, help="Show only this seat's concealed tiles.")] = None,
    step: Annotated[bool, typer.Option("--step", help="Step through with keys: n/space next, b back, h next hand, w next win, c next claim, g jump to seq, q quit.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object: the event (and its description in English and Chinese), its findings and the table state after it (with --seat: what that seat sees — the other seats' concealed tiles and last drawn tile, the wall and the counts of unseen tiles left out).")] = False,
    data: DataOpt = DEFAULT_DATA,
) -> None:
    """Print the table (hands, melds, discards, wall, scores) at an event of GAME_ID."""
    from paipu.cli.render import table_view
    from replayer.findings import RulesetError
    from replayer.replay import replay as _replay

    store = open_store(data, must_exist=True)
    try:
        events = list(store.read_game(game_id))
    finally:
        store.close()
    steps: list[Any] = []
    try:
        steps.extend(_replay(events, mode="audit"))
    except RulesetError as e:  # a game stored before game_started was checked (docs/events.md)
        seq = events[min(len(steps), len(events) - 1)].seq
        raise CliError(f"game {game_id} cannot be replayed: event {seq}: {e} (`paipu verify {game_id}` "
                       "reports it)") from None
    if not steps:
        raise CliError(f"game {game_id} has no events")
    idx = len(steps) - 1 if at is None else next((i for i, s in enumerate(steps) if s.event.seq == at), None)
    if idx is None:
        raise CliError(f"game {game_id} has no event {at} (events 0..{steps[-1].event.seq})")
    if as_json:
        if step:
            raise CliError("--json prints one event's table; it cannot be combined with --step")
        s = steps[idx]
        sys.stdout.write(json.dumps(_state_json(game_id, s, seat), ensure_ascii=False, sort_keys=True,
                                    default=str) + "\n")
        return
    if not step:
        s = steps[idx]
        console.print(table_view(s.state, s.event, seat=seat, findings=s.findings))
        return
    if not sys.stdin.isatty():
        raise CliError("--step reads keys from a terminal; without one, use --at SEQ")
    from paipu.cli.stepper import step_through

    step_through(steps, 0 if at is None else idx, seat=seat)  # stepping starts at the beginning unless --at
