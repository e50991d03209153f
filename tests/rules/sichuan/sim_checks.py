"""Checks of one simulated Sichuan game, shared by tests/rules/sichuan/test_simulated.py and
scripts/sichuan_games.py (the long run): the game replays from its JSON Lines form in audit
mode with no finding; every settlement is zero-sum, and so is every §8 component of every
hand; a seat that has won neither pays nor receives again in that hand (退税 refunds to
original payers excepted, §12.12); a second replay gives a byte-identical final state."""

from __future__ import annotations

from collections import Counter
from typing import Any

from eventlog import events as ev
from replayer.replay import replay
from replayer.state import to_dict


def check_game(game: Any, stats: Counter | None = None) -> list[str]:
    """Problems found in one :class:`SimulatedGame` (empty = none); ``stats`` gets counts of
    what the game exercised (wins by pattern and addition, components, winners per hand)."""
    stats = stats if stats is not None else Counter()
    events = [ev.parse_event(line.decode()) for line in game.jsonl_lines()]
    problems: list[str] = []
    prev = None
    tuishui = bool(game.events[0].payload.ruleset_options.get("tuishui"))
    last = None
    for step in replay(events, mode="audit"):
        for f in step.findings:
            problems.append(f"{game.game_id}: {f}")
        e, st = step.event, step.state
        if e.type in ("kong", "win_declared", "exhaustive_draw") and prev is not None and \
                len(st.score_log) > len(prev.score_log):
            entry = st.score_log[-1]
            if sum(entry.changes) != 0:
                problems.append(f"{game.game_id} seq {e.seq}: settlement not zero-sum {entry.changes}")
            for s in range(4):
                if not prev.in_hand[s] and entry.changes[s] and not (tuishui and entry.kind == "exhaustive_draw"):
                    problems.append(f"{game.game_id} seq {e.seq}: seat {s} is out and its score moved {entry.changes}")
        if e.type == "hand_ended" and prev is not None and prev.rule_memory is not None and prev.rule_memory.hand:
            led = prev.rule_memory.hand.ledger
            for name, vec in led.components().items():
                if sum(vec) != 0:
                    problems.append(f"{game.game_id} hand {e.payload.hand_number}: component {name} {vec}")
                if any(vec):
                    stats["component " + name] += 1
            for w in led.wins:
                stats["win " + w.value.reading.pattern] += 1
                stats.update("addition " + a for a, _ in w.value.additions)
            stats[f"hands with {sum(led.out)} winners"] += 1
            if led.first_win and len(led.first_win) > 1:
                stats["一炮多响"] += 1
        if e.type == "win_declared" and e.payload.robbing_kong:
            stats["robbed kongs"] += 1
        prev = st
        last = st
    again = None
    for step in replay(events, mode="audit"):
        again = step.state
    if last is not None and ev.canonical_bytes(to_dict(last)) != ev.canonical_bytes(to_dict(again)):
        problems.append(f"{game.game_id}: a second replay gives a different state")
    return problems
