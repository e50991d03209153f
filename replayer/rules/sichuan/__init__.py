"""Sichuan / Chengdu 血战到底 (blood battle) ruleset: docs/reference/rules/sichuan.md, seed 002
(second half).

Modules, one per concept: :mod:`.options` (the §9 options), :mod:`.evaluate` (shapes through the
shared decomposition, base patterns, 根 and additions, waits of a ready hand), :mod:`.settlement`
(the hand's ledger: kong payments, win payments, 呼叫转移, 查花猪 / 查大叫, 退税, 过水不胡 and
后4张必胡, next dealer), :mod:`.vectors` (the settlement-vector format of
tests/data/sichuan/README.md), :mod:`.events` (定缺, the ruleset's own event type), :mod:`.play` (the ruleset object: legality, memory, settlement
as it happens, dealer). Glossary in README.md beside this file.
"""

from __future__ import annotations

from replayer.rules.base import RulesetSpec, ScoreFlag, ScoreUnit, register
from replayer.rules.sichuan.events import ReadyDeclared, VoidSuitDeclared, ready_declared, void_suit_declared
from replayer.rules.sichuan.options import SichuanOptions
from replayer.rules.sichuan.play import SichuanRuleset, build


def _score_vectors(lines, *, source="-"):
    """``paipu score --ruleset sichuan --vectors``: one result per JSON line (loaded on use)."""
    from replayer.rules.sichuan.vectors import score_lines

    return score_lines(lines, source=source)


RULESET = register(
    RulesetSpec(
        id="sichuan",
        description="Sichuan / Chengdu 血战到底 (blood battle): 108 tiles, 缺一门, kongs paid at once, "
                    "查花猪/查大叫 — docs/reference/rules/sichuan.md",
        options_model=SichuanOptions,
        build=build,
        events=((VoidSuitDeclared, void_suit_declared), (ReadyDeclared, ready_declared)),
        score_vectors=_score_vectors,
        # a win is worth fan (番); it pays 底金 × 2^fan: sichuan.md §6 "Fan (番) and payment"
        score_unit=ScoreUnit(("fan", "fan"), "fan", "docs/reference/rules/sichuan.md §6", total_zh="番"),
        # 天胡 is the dealer's, 地胡 a non-dealer's (§6.2)
        score_context=("dealer", "first_draw"),
        # 杠上花, 抢杠胡 (§6.2); 海底捞月 only with the option haidi (§6.2, §12.15)
        score_flags=("kong_replacement", "robbing_kong", ScoreFlag("last_draw", ("haidi=true",))),
    )
)

__all__ = ["RULESET", "SichuanOptions", "SichuanRuleset", "build"]
