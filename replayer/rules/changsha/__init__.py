"""Changsha (长沙麻将) ruleset plug-in (docs/reference/rules/changsha.md).

Modules, one per concept: :mod:`.options` (the §6 options, each with its rule source),
:mod:`.units` (opening small wins, the small win and the big wins with English and Chinese
names), :mod:`.evaluate` (opening declarations, a win's units with the 2-5-8 pair rule through
the shared decomposition), :mod:`.settlement` (§5 payments, birds, kong money, component by
component), :mod:`.dealer` (§2 rules A–G), :mod:`.play` (the ruleset object: legality checks, memory, context of a win), :mod:`.vectors` (the settlement-vector format of
tests/data/changsha/README.md)."""

from __future__ import annotations

from replayer.rules.base import RulesetSpec, ScoreUnit, register
from replayer.rules.changsha.options import ChangshaOptions
from replayer.rules.changsha.play import ChangshaRuleset, build
from replayer.rules.changsha.units import OPENING_UNITS, WIN_UNITS

def _score_vectors(lines, *, source="-"):
    """``paipu score --ruleset changsha --vectors``: one result per JSON line (loaded on use)."""
    from replayer.rules.changsha.vectors import score_lines

    return score_lines(lines, source=source)


RULESET = register(
    RulesetSpec(
        id="changsha",
        description="Changsha mahjong (长沙麻将): 108 tiles, 2-5-8 pairs, opening small wins, big wins, birds — "
                    "docs/reference/rules/changsha.md",
        options_model=ChangshaOptions,
        build=build,
        score_vectors=_score_vectors,
        # a win's total is its small or big units; an item's value is what one unit pays in
        # points (X small, 6X big): changsha.md §5 "Payments (unit X = 10 points, option unit)"
        score_unit=ScoreUnit(("unit", "units"), "points per unit", "docs/reference/rules/changsha.md §5",
                             total_zh="个单位"),
        # the names of its units (§3), e.g. an opening small win's id in opening_wins_declared
        item_names={u.id: (u.name, u.chinese) for u in OPENING_UNITS + WIN_UNITS},
        # the dealer surcharge (§5), 天胡 / 地胡 (§3.3 #1–2)
        # and a win on a tile a 开杠 revealed: 杠上开花, 杠上炮 (§3.3 #10, #12, §4)
        score_context=("dealer", "first_draw", "kong_reveal"),
        # 抢杠胡 (§3.3 #11), 海底捞月 / 海底炮 (§3.3 #6–7)
        score_flags=("robbing_kong", "last_draw", "last_discard"),
        score_flag_notes=(("kong_replacement", "a win on a 补张 replacement is an ordinary self-draw "
                           "(docs/reference/rules/changsha.md §8.8); 杠上开花 is a win on a 开杠 reveal: "
                           "--context kong_reveal=yes"),),
    )
)

__all__ = ["RULESET", "ChangshaOptions", "ChangshaRuleset", "build"]
