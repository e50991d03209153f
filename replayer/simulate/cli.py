"""The ``paipu simulate`` command: :func:`register` adds it to the ``paipu`` Typer app.

Games go to the event store of ``--data`` (default ``$PAIPU_DATA``, else ``./paipu-data``),
or to a JSON Lines file with ``--out`` (``paipu ingest --format jsonl`` reads it back).
The output depends only on the options: the same seed gives the same events, byte for
byte, with any ``--jobs``. (The store adds its own commit time, ``recorded_at``, as
metadata.) Progress goes to stderr; a one-line summary to stdout; errors are one line
on stderr with exit code 2.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Annotated, Any, NoReturn, Optional

import typer
from rich.console import Console

from replayer.simulate.bots import BOTS
from replayer.simulate.engine import SimulationConfig, simulate_game

__all__ = ["SimulationSummary", "register", "run_simulation"]

_err = Console(stderr=True)


class SimulationSummary:
    """Counts of a simulation run (what the command prints)."""

    def __init__(self) -> None:
        self.games = self.hands = self.events = self.wins = self.self_drawn = self.draws = 0

    def add(self, hands: int, events: int, wins: int, self_drawn: int, draws: int) -> None:
        self.games += 1
        self.hands += hands
        self.events += events
        self.wins += wins
        self.self_drawn += self_drawn
        self.draws += draws

    def line(self, where: str) -> str:
        return (f"{self.games} games, {self.hands} hands, {self.events} events: {self.wins} wins "
                f"({self.self_drawn} self-drawn), {self.draws} exhaustive draws → {where}")


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
                   jobs: int = 1, on_game: Any = None) -> SimulationSummary:
    """Simulate ``games`` games of ``config`` into the JSONL file ``out`` or the event store
    at ``data`` (exactly one of them). ``on_game`` is called after each game. Raises
    :class:`replayer.findings.RulesetError`, :class:`~replayer.simulate.SimulationError`,
    ValueError for bad arguments."""
    if (out is None) == (data is None):
        raise ValueError("give exactly one of out (a JSONL file) or data (a data directory)")
    summary = SimulationSummary()
    stream = _games(config, games, jobs, lines=out is not None)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out, "wb") as f:
            for _gid, lines, stats in stream:
                f.write(lines)
                summary.add(*stats)
                if on_game:
                    on_game()
        return summary
    from eventlog.store import open_store

    store = open_store(data)  # type: ignore[arg-type]
    try:
        for gid, events, stats in stream:
            store.append(gid, list(events))  # same ids again: an idempotent no-op
            summary.add(*stats)
            if on_game:
                on_game()
    finally:
        store.close()
    return summary


def register(app: typer.Typer) -> None:
    """Add the ``simulate`` command to ``app`` (the ``paipu`` CLI)."""

    @app.command("simulate")
    def simulate_cmd(
        ruleset: Annotated[str, typer.Option("--ruleset", help="Ruleset id, e.g. mcr.")] = "mcr",
        options: Annotated[Optional[str], typer.Option("--options", help="Ruleset options as a JSON object.")] = None,
        games: Annotated[int, typer.Option("--games", min=0, help="Number of games.")] = 1,
        seed: Annotated[str, typer.Option("--seed", help="Seed of the run (same seed, same games).")] = "0",
        hands_per_game: Annotated[Optional[int], typer.Option("--hands-per-game", min=1,
                                  help="Hands per game (default: a full game under the ruleset).")] = None,
        bots: Annotated[str, typer.Option("--bots", help="greedy | random, one for all seats or four comma-separated.")] = "greedy",
        claim_probability: Annotated[float, typer.Option("--claim-probability", min=0.0, max=1.0,
                                     help="Chance that a greedy bot considers a chow or pung.")] = 0.5,
        jobs: Annotated[int, typer.Option("--jobs", min=1, help="Worker processes (output is the same for any number).")] = 1,
        data: Annotated[Optional[Path], typer.Option("--data", help="Data directory of the embedded event store "
                        "(default: $PAIPU_DATA, else ./paipu-data).", show_default=False)] = None,
        out: Annotated[Optional[Path], typer.Option("--out", help="Write JSON Lines events to this file instead of the store.",
                       dir_okay=False)] = None,
    ) -> None:
        """Simulate games with bots under any ruleset: shuffled walls from a seeded RNG,
        every event checked by the replayer in strict mode."""
        from eventlog.store import StoreError
        from replayer.findings import RulesetError
        from replayer.rules.base import get_ruleset, known_rulesets, presets
        from replayer.simulate.engine import SimulationError

        try:
            opts = json.loads(options) if options else {}
        except json.JSONDecodeError as e:
            _fail(f"--options is not JSON: {e.msg} at column {e.colno}")
        if not isinstance(opts, dict):
            _fail("--options must be a JSON object")
        if out is not None and data is not None:
            _fail("give --data or --out, not both")
        if out is None and data is None:
            data = Path(os.environ.get("PAIPU_DATA") or "paipu-data")
        try:
            try:
                get_ruleset(ruleset, opts)
            except RulesetError as e:
                if str(e).startswith("unknown ruleset"):
                    raise RulesetError(f"{e} (known: {', '.join(known_rulesets())}; presets: {', '.join(presets())})") from None
                raise
            config = SimulationConfig(ruleset=ruleset, options=opts, seed=seed, hands_per_game=hands_per_game,
                                      bots=tuple(b.strip() for b in bots.split(",")),
                                      claim_probability=claim_probability)
            for b in config.bot_names():
                if b not in BOTS:
                    raise ValueError(f"unknown bot {b!r} (known: {', '.join(BOTS)})")
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          console=_err, transient=False, disable=not _err.is_terminal) as bar:
                task = bar.add_task("simulating", total=games)
                summary = run_simulation(config, games, out=out, data=data, jobs=jobs,
                                         on_game=lambda: bar.advance(task))
        except (RulesetError, SimulationError, StoreError, ValueError, OSError) as e:
            _fail(str(e))
        typer.echo(summary.line(str(out if out is not None else data)))


def _fail(message: str) -> NoReturn:
    _err.print(f"[red]error:[/red] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(2)
