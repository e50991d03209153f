"""Counts taken straight from the Botzone text sample, with a few lines of parsing of our
own (independent of eventlog.ingest and of the replayer), to check the analytics against.

Format (paipu/samples/botzone-mcr-human-sample/README.txt): a game is a ``Match <id>``
block of lines ``Player <seat> <Action> <tile>`` ending in ``Player <seat> Hu <tile>``
then ``Fan <total> <name>*<count>+…`` and ``Score <s0> <s1> <s2> <s3>``, or in ``Huang``.
Seat 0 deals (it draws first in every game).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

# Botzone writes the three single-wait fans without the 独听・ prefix our fan table uses.
BOTZONE_FAN_ALIASES = {"边张": "独听・边张", "嵌张": "独听・嵌张", "单钓将": "独听・单钓"}


@dataclass
class TextGame:
    match: str
    actions: list[tuple[int, str, str]] = field(default_factory=list)  # (seat, action, tile)
    winner: int | None = None
    self_drawn: bool = False
    dealt_in: int | None = None
    fans: list[str] = field(default_factory=list)  # Chinese names (aliased), one per fan
    fan_total: int | None = None
    scores: list[int] | None = None


def read_text_games(path: Path) -> list[TextGame]:
    games: list[TextGame] = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        words = raw.split()
        if not words:
            continue
        if words[0] == "Match":
            games.append(TextGame(words[1]))
        elif words[0] == "Player" and words[2] != "Deal":
            g = games[-1]
            seat, action, tile = int(words[1]), words[2], words[3]
            if action == "Hu":
                prev_seat, prev_action, _ = g.actions[-1]
                g.winner = seat
                g.self_drawn = prev_seat == seat and prev_action == "Draw"
                if not g.self_drawn:
                    g.dealt_in = prev_seat  # the discarder (Play) or the robbed konger
            g.actions.append((seat, action, tile))
        elif words[0] == "Fan":
            g = games[-1]
            g.fan_total = int(words[1])
            for part in words[2].split("+"):
                name = part.split("*")[0]
                g.fans.append(BOTZONE_FAN_ALIASES.get(name, name))
        elif words[0] == "Score":
            games[-1].scores = [int(w) for w in words[1:5]]
    return games


def turns(g: TextGame) -> int:
    """Turns as docs/analytics.md defines them: wall draws (not a kong's replacement
    draw) plus chow, pung and kong-from-a-discard claims."""
    n = 0
    for i, (seat, action, _) in enumerate(g.actions):
        prev = g.actions[i - 1] if i else None
        if action == "Draw":
            replacement = prev is not None and prev[0] == seat and prev[1] in ("Gang", "AnGang", "BuGang")
            n += 0 if replacement else 1
        elif action in ("Chi", "Peng"):
            n += 1
        elif action == "Gang" and prev is not None and prev[1] == "Play" and prev[0] != seat:
            n += 1
    return n
