"""MCR (国标麻将) ruleset plug-in: ``RULESET`` is what :func:`replayer.rules.base.get_ruleset`
finds for id ``"mcr"``. Play rules in :mod:`.play`, settlement in :mod:`.settlement`, fan
scoring in :mod:`.fans` (the win situation types in :mod:`.situation`)."""

from __future__ import annotations

from replayer.rules.base import RulesetSpec, register
from replayer.rules.mcr.fans.names import fan_id
from replayer.rules.mcr.play import McrPlayOptions, McrRuleset, build


def _score_vectors(lines, *, source="-"):
    """``paipu score --ruleset mcr --vectors``: one result per JSON line (loaded on use)."""
    from replayer.rules.mcr.vectors import score_lines

    return score_lines(lines, source=source)


RULESET = register(
    RulesetSpec(
        id="mcr",
        description="Mahjong Competition Rules (国标麻将), 1998 scoring: seed 001, competition.md Part B",
        options_model=McrPlayOptions,
        build=build,
        fan_id=fan_id,
        score_vectors=_score_vectors,
    )
)

__all__ = ["RULESET", "McrPlayOptions", "McrRuleset", "build"]
