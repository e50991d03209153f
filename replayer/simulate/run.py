"""Running a simulation (what ``paipu simulate`` does, paipu/cli/simulate.py): games go to the event store of ``--data`` (default ``$PAIPU_DATA``, else ``./paipu-data``),
or to a JSON Lines file with ``--out`` (``paipu ingest --format jsonl`` reads it back).
The output depends only on the options: the same seed gives the same events, byte for
byte, with any ``--jobs``. (The store adds its own commit time, ``recorded_at``, as
metadata.) """

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from eventlog.words import plural
from replayer.simulate.engine import SimulationConfig, simulate_game

__all__ = ["SimulationSummary", "run_simulation", "default_jobs", "PARALLEL_SIMULATED_GAMES"]

#: From this many games on, :func:`default_jobs` uses every core (a game takes ~25 ms of a
#: core; starting a worker process about a second).
PARALLEL_SIMULATED_GAMES = 64


def default_jobs(games: int) -> int:
    """Worker processes for simulating ``games`` games when none are asked for (``paipu
    simulate``): every core (``os.cpu_count()``) from :data:`PARALLEL_SIMULATED_GAMES`
    games on, else 1. The games are the same for any number."""
    return max(1, os.cpu_count() or 1) if games >= PARALLEL_SIMULATED_GAMES else 1


class SimulationSummary:
    """Counts of a simulation run (what the command prints)."""

    def __init__(self) -> None:
        self.games = self.hands = self.events = self.wins = self.self_drawn = self.draws = 0
        #: games the store already held (the same seed and settings make the same game ids):
        #: not written again
        self.already_stored = 0

    def add(self, hands: int, events: int, wins: int, self_drawn: int, draws: int) -> None:
        self.games += 1
        self.hands += hands
        self.events += events
        self.wins += wins
        self.self_drawn += self_drawn
        self.draws += draws

    def line(self, where: str) -> str:
        if self.games and self.already_stored == self.games:
            return (f"{plural(self.games, 'game')} already in {where} (the same seed and settings make the same "
                    "games): nothing written")
        line = (f"{plural(self.games, 'game')}, {plural(self.hands, 'hand')}, {plural(self.events, 'event')}: "
                f"{plural(self.wins, 'win')} ({self.self_drawn} self-drawn), "
                f"{plural(self.draws, 'exhaustive draw')} → {where}")
        if self.already_stored:
            line += (f"; {self.already_stored} of these games {'was' if self.already_stored == 1 else 'were'} "
                     "already there and not written again")
        return line


def _one(args: tuple[SimulationConfig, int, bool]) -> tuple[str, Any, tuple[int, int, int, int, int]]:
    """Game ``game`` of ``config``: its id, its JSONL bytes (``lines``) or its events, and
    (hands, events, wins, self-drawn wins, exhaustive draws)."""
    config, game, lines = args
    g = simulate_game(config, game)
    draws = sum(1 for e in g.events if e.type == "exhaustive_draw")
    self_drawn = sum(1 for w in g.wins if w.action.kind == "self_drawn_win")
    body: Any = b"".join(g.jsonl_lines()) if lines else g.events
    return g.game_id, body, (g.hands, len(g.events), len(g.wins), self_drawn, draws)


def _games(config: SimulationConfig, games: int, jobs: int, lines: bool) -> Iterator[tuple[str, Any, tuple[int, ...]]]:
    if jobs <= 1:
        for g in range(games):
            yield _one((config, g, lines))
        return
    window = jobs * 16  # games in flight: bounded memory for any --games
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for start in range(0, games, window):
            # map() keeps game order: the output does not depend on the number of workers
            todo = [(config, g, lines) for g in range(start, min(start + window, games))]
            yield from pool.map(_one, todo, chunksize=2)


def run_simulation(config: SimulationConfig, games: int, *, out: Path | None = None, data: Path | None = None,
                   jobs: int | None = 1, on_game: Any = None) -> SimulationSummary:
    """Simulate ``games`` games of ``config`` into the JSONL file ``out`` or the event store
    at ``data`` (exactly one of them) in ``jobs`` processes (None: :func:`default_jobs`).
    ``on_game`` is called after each game. Raises
    :class:`replayer.findings.RulesetError`, :class:`~replayer.simulate.SimulationError`,
    ValueError for bad arguments."""
    if (out is None) == (data is None):
        raise ValueError("give exactly one of out (a JSONL file) or data (a data directory)")
    summary = SimulationSummary()
    stream = _games(config, games, default_jobs(games) if jobs is None else jobs, lines=out is not None)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out, "wb") as f:
            for _gid, lines, stats in stream:
                f.write(lines)
                summary.add(*stats)
                if on_game:
                    on_game()
        return summary
    from eventlog.store import NO_STREAM, StreamAlreadyExists, open_store

    store = open_store(data)  # type: ignore[arg-type]
    try:
        for gid, events, stats in stream:
            try:
                # a new game only: the same ids again are an idempotent no-op (duplicate)
                res = store.append(gid, list(events), NO_STREAM)
                duplicate = bool(getattr(res, "duplicate", False))
            except StreamAlreadyExists:
                # stored under other ids (UUID v5 of earlier versions, docs/events.md "Event
                # ids"): the same game if its events are these, else the id is taken (raised)
                if not _same_events(list(store.read_game(gid)), events):
                    raise
                duplicate = True
            summary.add(*stats)
            summary.already_stored += duplicate
            if on_game:
                on_game()
    finally:
        store.close()
    return summary


def _same_events(stored: list[Any], events: list[Any]) -> bool:
    """Whether the stored events of a game are ``events`` (type, schema version, payload and
    metadata; ids, seqs and hashes aside)."""
    def content(e: Any) -> tuple[Any, ...]:
        return e.type, e.schema_version, e.payload, e.metadata
    return len(stored) == len(events) and all(content(a) == content(b) for a, b in zip(stored, events))
