"""Options of the 中国竞技麻将 chip format (docs/reference/rules/competition.md Part A and the
ambiguities of §B5), stored with the game as ``ruleset_options``.

Every option has the spec's default; the values a federation has not confirmed are the
pattern values of §A6.2 (``cjm_fan_values``): while any pattern scores at a provisional
value, every score that uses it says ``provisional`` (:attr:`CjmOptions.provisional`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

#: §A6.2: the seed lists 12 技术型番种 without their values (lost to OCR); the provisional
#: default borrows the matching 1998 values (A-Amb-6: 三箭刻 = 88 is a placeholder).
PROVISIONAL_FAN_VALUES: dict[str, int] = {
    "mixed_straight": 8,          # 花龙
    "pure_straight": 16,          # 清龙
    "knitted_straight": 12,       # 组合龙
    "half_flush": 6,              # 混一色
    "all_pungs": 6,               # 对对和
    "honors_and_knitted": 12,     # 大乱 (十四不靠)
    "melded_single_wait": 6,      # 全求独钓
    "closed_last_tile": 4,        # 夹绝张
    "three_chows_of_a_range": 24,  # 全大 / 全中 / 全小
    "full_flush": 24,             # 清一色
    "seven_pairs": 24,            # 七对
    "three_dragon_pungs": 88,     # 三箭刻
}


_SPEC = "docs/reference/rules/competition.md"
#: Where each option is written (docs/rulesets.md, replayer/rules/catalog.py).
OPTION_SOURCES: dict[str, str] = {
    "cjm_fan_values": f"{_SPEC} §A6.2 (values lost in seed 000: provisional), A-Amb-6",
    "chips": f"{_SPEC} §A5",
    "jujie_zero_players": f"{_SPEC} §A10, A-Amb-1",
    "beida_includes_trigger_hand": f"{_SPEC} §A6.4, A-Amb-2",
    "last_tile_bonus_scope": f"{_SPEC} §A6.3, A-Amb-3",
    "baopai_discard_amount": f"{_SPEC} §A8, A-Amb-4",
    "multiple_winners": f"{_SPEC} §A6.5, A-Amb-5",
    "robbed_kong_payment": f"{_SPEC} §A7",
    "zero_chip_penalty": f"{_SPEC} §A5",
    "hold_off_table": f"{_SPEC} §A7, §A10 (禁止非胜式局结)",
    "rounds": f"{_SPEC} §A1, §A10",
    "timing": f"{_SPEC} §A4",
}


class CjmOptions(BaseModel):
    """Named options of ``cjm_chips`` (competition.md Part A; §B5 for the ambiguities).

    ``cjm_fan_values``: points of the 12 patterns of §A6.2 by pattern id; a pattern not
    given keeps its provisional value (PROVISIONAL_FAN_VALUES) and is flagged.
    ``chips``: the stack each player starts each 局 with (§A5: 100 = 1×50 + 4×10 + 5×2).
    ``jujie_zero_players``: how many players at 0 chips end the 局 (A-Amb-1, default 2).
    ``beida_includes_trigger_hand``: the dealer's winning hand that starts a continuation is
    doubled too (A-Amb-2; default off: only hands dealt by a continuing dealer are doubled).
    ``last_tile_bonus_scope``: 海底捞月 / 妙手回春 on the last go-around (the last four live
    tiles, A-Amb-3) or only on the very last tile.
    ``baopai_discard_amount``: what a liable player (包牌) pays for a win on a discard: 3T
    (A-Amb-4 default) or the ordinary 2T.
    ``multiple_winners``: several winners on one discard ("all", §A6.5; A-Amb-5) or only the
    first in turn order.
    ``robbed_kong_payment``: a robbed kong is paid anyway (default off, §A7).
    ``zero_chip_penalty``: what a player who wins on a zero-chip player's discard pays each
    of the three others (§A5: 10), besides the would-be win score to the zero-chip player.
    ``hold_off_table``: 禁止非胜式局结 (§A10): a kong or instant payment that would end the 局
    while its receiver would not be first is held off the table and paid when the 局 ends.
    ``rounds``: 圈 per 局 (§A1: 4). ``timing``: the time limits of §A4 ("v000": 20 s / 10 s)
    or seed 003's older edition ("v003": 30 s / 15 s) — recorded, a log has no clock.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    cjm_fan_values: dict[str, int] = Field(default_factory=dict)
    chips: int = Field(100, ge=1)
    jujie_zero_players: int = Field(2, ge=1, le=3)
    beida_includes_trigger_hand: bool = False
    last_tile_bonus_scope: Literal["last_go_around", "last_tile"] = "last_go_around"
    baopai_discard_amount: Literal["3T", "2T"] = "3T"
    multiple_winners: Literal["all", "first_only"] = "all"
    robbed_kong_payment: bool = False
    zero_chip_penalty: int = Field(10, ge=0)
    hold_off_table: bool = True
    rounds: int = Field(4, ge=1, le=4)
    timing: Literal["v000", "v003"] = "v000"

    @field_validator("cjm_fan_values")
    @classmethod
    def _known_patterns(cls, v: dict[str, int]) -> dict[str, int]:
        unknown = sorted(set(v) - set(PROVISIONAL_FAN_VALUES))
        if unknown:
            raise ValueError(f"unknown patterns {unknown} (known: {', '.join(PROVISIONAL_FAN_VALUES)})")
        bad = sorted(k for k, n in v.items() if n < 0)
        if bad:
            raise ValueError(f"pattern values cannot be negative: {bad}")
        return v

    def fan_value(self, pattern: str) -> tuple[int, bool]:
        """(points, provisional) of ``pattern``."""
        if pattern in self.cjm_fan_values:
            return self.cjm_fan_values[pattern], False
        return PROVISIONAL_FAN_VALUES[pattern], True

    @property
    def provisional(self) -> bool:
        """True while any pattern keeps its provisional value (§A6.2)."""
        return any(p not in self.cjm_fan_values for p in PROVISIONAL_FAN_VALUES)
