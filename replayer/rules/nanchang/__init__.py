"""Nanchang (南昌麻将) ruleset plug-in: ``RULESET`` is what
:func:`replayer.rules.base.get_ruleset` finds for id ``"nanchang"``.

Modules, one per concept: :mod:`.options` (named interpretations, spec §10–11), :mod:`.jing`
(indicator → 正精/副精, jing points, 冲关, 霸王), :mod:`.evaluate` (shapes with wild jing and
honor chows, 精钓, 德国, the best interpretation), :mod:`.settlement` (the §9 components),
:mod:`.play` (the ruleset object: legality checks, memory, dealer rotation), :mod:`.events`
(its own table event 六对摊牌 ``nanchang.six_pairs_shown``), :mod:`.vectors`
(the settlement-vector format of tests/data/nanchang/README.md). Spec:
shared/rules/nanchang.md; glossary in README.md beside this file."""

from __future__ import annotations

from replayer.rules.base import RulesetSpec, ScoreFlag, ScoreUnit, register
from replayer.rules.nanchang.events import BaoFlown, BaoPung, SixPairsShown, bao_flown, bao_pung, six_pairs_shown
from replayer.rules.nanchang.options import NanchangOptions
from replayer.rules.nanchang.play import NanchangRuleset, build


def _score_vectors(lines, *, source="-"):
    """``paipu score --ruleset nanchang --vectors``: one result per JSON line (loaded on use)."""
    from replayer.rules.nanchang.vectors import score_lines

    return score_lines(lines, source=source)


RULESET = register(
    RulesetSpec(
        id="nanchang",
        description="Nanchang mahjong (南昌麻将): jing wildcards, honor chows, 十三烂 — docs/reference/rules/nanchang.md",
        options_model=NanchangOptions,
        build=build,
        events=((SixPairsShown, six_pairs_shown), (BaoFlown, bao_flown), (BaoPung, bao_pung)),
        score_vectors=_score_vectors,
        # a win's total is points (子, §9: "精釣天胡計作40子"); its items are factors of the win
        # payment (§9.5 b: 大七对 ×2 …), 天胡 / 地胡 a flat amount (§9.5 a)
        score_unit=ScoreUnit(("point", "points"), "factor", "docs/reference/rules/nanchang.md §9.5",
                             total_zh="子", item_factor=True),
        # the 精 (§4), the dealer's ×2 (§9.5), 天胡 / 地胡 (§6.11)
        score_context=("wildcard_indicator", "dealer", "first_draw", "others_hold_wild"),
        # 杠开 (§6.9), 抢杠 (§6.10); the last wall tile only in variants: 海底捞月 of win_scoring =
        # xinyu, no win on the last tile's discard with last_draw_no_discard (jiangxi_variants.md)
        score_flags=("kong_replacement", "robbing_kong", ScoreFlag("last_draw", ("win_scoring=xinyu",)),
                     ScoreFlag("last_discard", ("last_draw_no_discard=true",))),
    )
)

__all__ = ["RULESET", "NanchangOptions", "NanchangRuleset", "build"]
