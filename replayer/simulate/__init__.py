"""Simulated games under any ruleset (``paipu simulate``): the engine in :mod:`.engine`,
bots in :mod:`.bots`, a run into a store or file in :mod:`.run` (the command: paipu/cli/simulate.py)."""

from replayer.simulate.engine import (
    SimulatedGame,
    SimulatedWin,
    SimulationConfig,
    SimulationError,
    simulate,
    simulate_game,
)

__all__ = ["SimulatedGame", "SimulatedWin", "SimulationConfig", "SimulationError", "simulate", "simulate_game"]
