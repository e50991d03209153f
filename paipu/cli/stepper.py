"""``paipu replay --step``: step through a replayed game with single keys on a terminal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paipu.cli.console import clipped, console, say
from paipu.cli.render import table_view

__all__ = ["JUMPS", "status_line", "step_through", "go_to"]

#: Key → event types it jumps forward to.
JUMPS: dict[str, tuple[str, ...]] = {
    "h": ("hand_started",),
    "w": ("win_declared", "exhaustive_draw"),
    "c": ("chow", "pung", "kong", "win_declared"),
}


_JUMP_WORDS = {"h": "next hand", "w": "win or draw", "c": "claim"}


def go_to(steps: Sequence[Any], text: str, idx: int) -> tuple[int, str]:
    """The ``g`` key: the step of the event whose seq is ``text`` and ``""``; or ``idx``
    unchanged and why (not a number, out of range, no such event)."""
    text = text.strip()
    last = steps[-1].event.seq
    if not text:
        return idx, ""
    if not text.isdigit():
        return idx, f'go to "{clipped(text, 40)}": not a seq — give a number 0..{last}'
    seq = int(text)
    found = next((i for i, st in enumerate(steps) if st.event.seq == seq), None)
    if found is None:
        return idx, f"go to {seq}: no such event (the game's events are 0..{last})"
    return found, ""


def status_line(steps: Sequence[Any], idx: int) -> str:
    """The stepper's line under the table: the event by its seq, as every text numbers events
    (docs/events.md: ``seq`` 0, 1, 2 …; the dashboard's "Event 68 of 229"), and the keys."""
    return (f"event {steps[idx].event.seq} of {steps[-1].event.seq}  n next · b back · h next hand · "
            "w next win/draw · c next claim · g go to seq · q quit")


def step_through(steps: Sequence[Any], idx: int, *, seat: int | None = None) -> None:
    """Show ``steps[idx]`` (replay steps: ``.state``, ``.event``, ``.findings``) and move on
    keys: n/space/Enter/→ next, b/← back, h next hand, w next win or draw, c next claim,
    g go to a seq, q/Esc/Ctrl-C quit."""
    import click

    note = ""
    while True:
        s = steps[idx]
        console.clear()
        console.print(table_view(s.state, s.event, seat=seat, findings=s.findings))
        say(status_line(steps, idx))
        if note:  # why the last key did nothing, shown until the next key
            say(note, style="yellow")
            note = ""
        key = click.getchar()
        if key in ("q", "\x03", "\x1b"):
            return
        if key in ("n", " ", "\r", "\n", "\x1b[C"):
            idx = min(idx + 1, len(steps) - 1)
        elif key in ("b", "\x1b[D"):
            idx = max(idx - 1, 0)
        elif key in JUMPS:
            nxt = next((i for i in range(idx + 1, len(steps)) if steps[i].event.type in JUMPS[key]), None)
            if nxt is None:
                note = f"no {_JUMP_WORDS[key]} after event {steps[idx].event.seq}"
            idx = nxt if nxt is not None else idx
        elif key == "g":
            try:
                text = input(f"go to seq (0..{steps[-1].event.seq}, Enter to stay): ")
            except EOFError:
                text = ""
            idx, note = go_to(steps, text, idx)
        else:
            note = f"key {clipped(key, 20)} does nothing: n next · b back · h next hand · w next win/draw · c next claim · g go to seq · q quit"
