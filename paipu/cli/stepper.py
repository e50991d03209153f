"""``paipu replay --step``: step through a replayed game with single keys on a terminal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paipu.cli.console import console, say
from paipu.cli.render import table_view

__all__ = ["JUMPS", "step_through"]

#: Key → event types it jumps forward to.
JUMPS: dict[str, tuple[str, ...]] = {
    "h": ("hand_started",),
    "w": ("win_declared", "exhaustive_draw"),
    "c": ("chow", "pung", "kong", "win_declared"),
}


def step_through(steps: Sequence[Any], idx: int, *, seat: int | None = None) -> None:
    """Show ``steps[idx]`` (replay steps: ``.state``, ``.event``, ``.findings``) and move on
    keys: n/space/Enter/→ next, b/← back, h next hand, w next win or draw, c next claim,
    g go to a seq, q/Esc/Ctrl-C quit."""
    import click

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
        elif key in JUMPS:
            nxt = next((i for i in range(idx + 1, len(steps)) if steps[i].event.type in JUMPS[key]), None)
            idx = nxt if nxt is not None else idx
        elif key == "g":
            text = input(f"go to seq (0..{steps[-1].event.seq}, Enter to stay): ").strip()
            if text.isdigit() and int(text) <= steps[-1].event.seq:
                idx = next((i for i, st in enumerate(steps) if st.event.seq == int(text)), idx)
