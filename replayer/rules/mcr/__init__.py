"""MCR (国标麻将) ruleset plug-in: ``RULESET`` is what :func:`replayer.rules.base.get_ruleset`
finds for id ``"mcr"``. Play rules in :mod:`.play`, settlement in :mod:`.settlement`, fan
scoring in :mod:`.fans` (the win situation types in :mod:`.situation`)."""

from __future__ import annotations

from replayer.rules.base import RulesetSpec, register
from replayer.rules.mcr.fans.names import fan_id
from replayer.rules.mcr.options import McrOptions
from replayer.rules.mcr.play import McrPlayOptions, McrRuleset, build


class McrRulesetOptions(McrOptions, McrPlayOptions):
    """Every named MCR option a game may store (``ruleset_options``): the play options of
    :class:`McrPlayOptions` and the fan-scoring interpretations of
    :class:`~replayer.rules.mcr.options.McrOptions` (:func:`~replayer.rules.mcr.play.parse_options`
    splits them). Listed by ``paipu rulesets mcr`` and docs/rulesets.md.

    ``concealed_and_melded_kong``: one concealed and one melded kong score the 5-point fan
    明暗杠 ("five_point_fan", the reference calculator and MIL practice) or Melded Kong +
    Concealed Kong = 3 ("one_plus_two", the 1998 rulebook). ``knitted_straight_waits``: a
    knitted-straight hand whose winning tile also fits the knitted nine still counts Edge,
    Closed or Single Wait when the rest waits on that tile alone (MIL clarification; off: the
    older reading). ``fan_table``: the fan table that scores the hand ("mcr", current; or
    "mcr1998", seed 001's 1998 table, docs/reference/rules/competition.md §B3).
    """


def _score_vectors(lines, *, source="-"):
    """``paipu score --ruleset mcr --vectors``: one result per JSON line (loaded on use)."""
    from replayer.rules.mcr.vectors import score_lines

    return score_lines(lines, source=source)


RULESET = register(
    RulesetSpec(
        id="mcr",
        description="Mahjong Competition Rules (国标麻将): the current fan table (tests/data/mcr/README.md); "
                    "the 1998 table of seed 001 is the preset mcr1998 (competition.md Part B)",
        options_model=McrRulesetOptions,
        build=build,
        fan_id=fan_id,
        score_vectors=_score_vectors,
        # 杠上开花, 抢杠和, 妙手回春, 海底捞月, 和绝张, 门风刻, 圈风刻 (competition.md Part B)
        score_flags=("kong_replacement", "robbing_kong", "last_draw", "last_discard", "last_tile", "seat_wind",
                     "prevalent_wind"),
    )
)

__all__ = ["RULESET", "McrPlayOptions", "McrRuleset", "McrRulesetOptions", "build"]
