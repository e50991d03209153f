"""中国竞技麻将 chip format (seed 000, second half; docs/reference/rules/competition.md Part A):
``RULESET`` is what :func:`replayer.rules.base.get_ruleset` finds for id ``"cjm_chips"``.
Patterns and bonuses in :mod:`.patterns`, payments in :mod:`.settlement`, options in
:mod:`.options`, the ruleset object (instant payments, 包牌, 相公, 局结) in :mod:`.play`."""

from __future__ import annotations

from replayer.rules.base import RulesetSpec, register
from replayer.rules.cjm_chips.options import CjmOptions
from replayer.rules.cjm_chips.play import CjmRuleset, build

RULESET = register(
    RulesetSpec(
        id="cjm_chips",
        description="中国竞技麻将 chip format: 100-chip stacks, instant kong/追牌 payments, 包牌, 倍打, 局结 "
                    "(seed 000; competition.md Part A). Pattern values are provisional (§A6.2)",
        options_model=CjmOptions,
        build=build,
        # payments are capped by the chips a seat holds (§A6)
        score_context=("scores",),
        # 杠上开花, 抢杠和, 妙手回春 / 海底捞月, 夹绝张 (§A6.2, §A6.3)
        score_flags=("kong_replacement", "robbing_kong", "last_draw", "last_discard", "last_tile"),
    )
)

__all__ = ["RULESET", "CjmOptions", "CjmRuleset", "build"]
