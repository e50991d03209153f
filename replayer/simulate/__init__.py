"""Simulated games under any ruleset (``paipu simulate``): the engine in :mod:`.engine`,
bots in :mod:`.bots`, the CLI command in :mod:`.cli`."""

from replayer.simulate.engine import (
    SimulatedGame,
    SimulatedWin,
    SimulationConfig,
    SimulationError,
    simulate,
    simulate_game,
)

__all__ = ["SimulatedGame", "SimulatedWin", "SimulationConfig", "SimulationError", "simulate", "simulate_game"]
