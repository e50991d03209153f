"""``paipu simulate``: games played by bots under any ruleset, into the store or a JSONL file
(the run itself: :mod:`replayer.simulate.run`). Progress goes to stderr, a one-line summary
to stdout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from eventlog.errors import json_error
from paipu.cli.console import progress
from paipu.cli.errors import CliError
from paipu.cli.options import DEFAULT_DATA, DataOpt, output_file
from paipu.cli.root import command

__all__ = ["simulate_cmd"]


@command("simulate")
def simulate_cmd(
    ctx: typer.Context,
    ruleset: Annotated[str, typer.Option("--ruleset", help="Ruleset id, e.g. mcr.")] = "mcr",
    options: Annotated[Optional[str], typer.Option("--options", help="Ruleset options as a JSON object.")] = None,
    games: Annotated[int, typer.Option("--games", min=0, help="Number of games.")] = 1,
    seed: Annotated[str, typer.Option("--seed", help="Seed of the run (same seed, same games).")] = "0",
    hands_per_game: Annotated[Optional[int], typer.Option("--hands-per-game", min=1,
                              help="Hands per game (default: a full game under the ruleset).")] = None,
    bots: Annotated[str, typer.Option("--bots", help="greedy | random, one for all seats or four comma-separated.")] = "greedy",
    claim_probability: Annotated[float, typer.Option("--claim-probability", min=0.0, max=1.0,
                                 help="Chance that a greedy bot considers a chow or pung.")] = 0.5,
    jobs: Annotated[Optional[int], typer.Option("--jobs", min=1, help="Worker processes (output is the same for any number); default: every core from 64 games on, else 1.")] = None,
    data: DataOpt = DEFAULT_DATA,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write JSON Lines events to this file instead of the store.",
                   dir_okay=False)] = None,
) -> None:
    """Simulate games with bots under any ruleset: shuffled walls from a seeded RNG,
    every event checked by the replayer in strict mode."""
    from eventlog.store import StoreError
    from replayer.findings import RulesetError
    from replayer.simulate.bots import BOTS
    from replayer.simulate.engine import SimulationConfig, SimulationError
    from replayer.simulate.run import run_simulation

    try:
        opts = json.loads(options) if options else {}
    except json.JSONDecodeError as e:
        raise CliError(f"--options is {json_error(e, line=False)}") from None
    if not isinstance(opts, dict):
        raise CliError("--options must be a JSON object")
    # by name: Typer's Click and the installed click each have their own ParameterSource enum
    src = ctx.get_parameter_source("data")
    data_given = getattr(src, "name", None) == "COMMANDLINE"
    if out is not None and data_given:
        raise CliError(f"--data {data} and --out {out}: the games go to one place — a data directory (--data) "
                       "or a JSON Lines file (--out); give one of them")
    from paipu.cli.ruleset_options import build_ruleset

    build_ruleset(ruleset, opts, "--options")  # unknown ruleset, option or value: 2, naming what would do
    if out is not None:
        out = output_file("--out", out)  # a parent that is a file: said so (README "Output files")
    try:
        config = SimulationConfig(ruleset=ruleset, options=opts, seed=seed, hands_per_game=hands_per_game,
                                  bots=tuple(b.strip() for b in bots.split(",")),
                                  claim_probability=claim_probability)
        for b in config.bot_names():
            if b not in BOTS:
                raise ValueError(f"unknown bot {b!r} (known: {', '.join(BOTS)})")
        with progress() as bar:
            task = bar.add_task("simulating", total=games)
            summary = run_simulation(config, games, out=out, data=None if out is not None else data, jobs=jobs,
                                     on_game=lambda: bar.advance(task))
    except (RulesetError, SimulationError, StoreError, ValueError, OSError) as e:
        raise CliError(str(e)) from None
    typer.echo(summary.line(str(out if out is not None else data)))
