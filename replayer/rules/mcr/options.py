"""Named interpretations of MCR scoring (shared/DESIGN.md §6: "Rule interpretations that
differ between authorities are named options stored with the game").

The defaults reproduce the reference data (tests/data/mcr/README.md, "Notes on how the
oracle scores"): the MahjongGB 1.4.0 calculator as built for the shared fan vectors.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class McrOptions(BaseModel):
    """How to score the points where MCR authorities disagree (a pydantic model: unknown
    names and wrong types — ``"no"`` for a flag — are refused).

    ``concealed_and_melded_kong``
        A hand with exactly one concealed kong and one melded kong (and no third kong).
        ``"five_point_fan"`` (default): the extra fan 明暗杠 "Concealed Kong and Melded Kong",
        5 points, instead of Melded Kong + Concealed Kong — what the reference calculator and
        current MIL practice do (README note 1). ``"one_plus_two"``: the 1998 rulebook,
        which has no such fan — Melded Kong (1) + Concealed Kong (2) = 3.

    ``knitted_straight_waits``
        A knitted-straight hand (组合龙 + a set + a pair) whose winning tile also fits the
        knitted part. ``True`` (default): Edge, Closed or Single Wait still counts when, after
        taking the knitted nine tiles away, the rest waits on that tile alone — the reference's
        ``KNITTED_STRAIGHT_BODY_WITH_ECS = 1``, a MIL clarification (README note 2).
        ``False``: no wait fan when the winning tile is one of the knitted nine (the older
        reading, ``KNITTED_STRAIGHT_BODY_WITH_ECS = 0``).

    ``fan_table``
        Which fan table scores the hand (:mod:`replayer.rules.mcr.fans.tables`): ``"mcr"``
        (default, the current table) or ``"mcr1998"`` (the 1998 table of seed 001,
        docs/reference/rules/competition.md §B3). The fans are the same records; a table
        says which of them it has and their points.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    concealed_and_melded_kong: Literal["five_point_fan", "one_plus_two"] = "five_point_fan"
    knitted_straight_waits: bool = True
    fan_table: Literal["mcr", "mcr1998"] = "mcr"


DEFAULT_OPTIONS = McrOptions()
