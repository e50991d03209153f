"""Named Sichuan interpretations (docs/reference/rules/sichuan.md §9, §12.1), stored with the game.

Every field is one row of the spec's option table (§9) or a name §12.1 adds; the defaults are
the spec's. Options the spec and the seed leave open are marked *[ours]* with what Chengdu
players expect.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from eventlog.errors import validation_line
from replayer.findings import RulesetError

__all__ = ["DEFAULT_OPTIONS", "OPTION_SOURCES", "SichuanOptions", "parse_options"]


class SichuanOptions(BaseModel):
    """Sichuan / Chengdu 血战到底 options (sichuan.md §9).

    ``mode``: ``xuezhan`` (血战: winners leave, the hand ends at the third winner or an empty
    wall, §4) or ``standard`` (the hand ends at the first win event). ``dingque_declared``: each
    player declares a void suit (定缺) before the dealer's first discard (§2).
    ``must_discard_void_first``: with 定缺, a player holding tiles of the declared suit must
    discard them first (§2). ``cap``: 封顶 in fan (null = no cap, §6). ``zimo_bonus``: self-draw
    bonus ``none`` | ``jiadi`` (+1 底金 per payer) | ``jiafan`` (+1 fan) (§5.4).
    ``qianggang_fan``: fan of 抢杠胡 (0 or 1, §6.2). ``tianhu_stack``: 天胡/地胡 add 5 instead
    of max(5, fan) (§6.2). ``tuishui``: 退税 at an exhaustive draw (§3). ``hujiao_zhuanyi``:
    呼叫转移 on 杠上炮 (§3). ``huazhu_fan``: fan a 花猪 pays (null = ``cap`` if set, else 5;
    an explicit value is used even above the cap, §7, §12.8). ``draw_dealer``: dealer after a
    hand nobody won, ``same`` or ``next`` (§1). ``declarations``: 唱歌/跳舞 (§5.2; no scoring
    effect). ``gangshanghua_mode``: ``plus1`` (杠上花 +1 and the kong is a 根) or
    ``plus2_no_gen`` (+2, the kong just declared is no 根) (§10, §12.1). ``haidi``: 海底捞月 +1
    (§6.2, §12.15). ``jingoudiao``: 金钩钓 +1 (§6.2, §12.18). ``dijin``: 底金, the unit of every
    payment (§6; the reference data uses 1). ``void_suit_melds`` *[ours, §12.20]*: with 定缺,
    whether a player may pung or kong a tile of its own declared suit — ``forbidden`` (default:
    Chengdu tables and the common apps refuse it; the void suit is only discarded) or
    ``allowed``. ``xiayu`` *[seed 四.2–四.4]*: 下雨 / 刮风 — kongs are paid at once (§3; the
    spec's game, the seed's 血战下雨); ``false`` plays the seed's 标准打法 / 标准血战, where a kong
    collects nothing (it still counts as a 根).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    mode: Literal["xuezhan", "standard"] = "xuezhan"
    dingque_declared: bool = False
    must_discard_void_first: bool = False
    cap: int | None = Field(None, ge=0, le=30)
    zimo_bonus: Literal["none", "jiadi", "jiafan"] = "none"
    qianggang_fan: Literal[0, 1] = 1
    tianhu_stack: bool = False
    tuishui: bool = False
    hujiao_zhuanyi: bool = False
    huazhu_fan: int | None = Field(None, ge=0, le=30)
    draw_dealer: Literal["same", "next"] = "same"
    declarations: bool = False
    gangshanghua_mode: Literal["plus1", "plus2_no_gen"] = "plus1"
    haidi: bool = False
    jingoudiao: bool = False
    dijin: int = Field(1, ge=1)
    void_suit_melds: Literal["forbidden", "allowed"] = "forbidden"
    xiayu: bool = True

    @property
    def effective_huazhu_fan(self) -> int:
        """The fan a 花猪 pays (§7.1, §12.8): the explicit option, else ``cap``, else 5."""
        if self.huazhu_fan is not None:
            return self.huazhu_fan
        return self.cap if self.cap is not None else 5

    def capped(self, fan: int) -> int:
        """``min(fan, cap)`` (§6)."""
        return fan if self.cap is None else min(fan, self.cap)


DEFAULT_OPTIONS = SichuanOptions()

SPEC = "docs/reference/rules/sichuan.md"

#: Where each option is written (for ``paipu rulesets`` and findings).
OPTION_SOURCES: dict[str, str] = {
    "mode": f"{SPEC} §4, §9",
    "dingque_declared": f"{SPEC} §2, §9",
    "must_discard_void_first": f"{SPEC} §2, §9",
    "cap": f"{SPEC} §6, §9",
    "zimo_bonus": f"{SPEC} §5.4, §9",
    "qianggang_fan": f"{SPEC} §6.2, §9",
    "tianhu_stack": f"{SPEC} §6.2, §9, §12.9",
    "tuishui": f"{SPEC} §3, §9, §12.12",
    "hujiao_zhuanyi": f"{SPEC} §3, §9, §12.11",
    "huazhu_fan": f"{SPEC} §7, §9, §12.8",
    "draw_dealer": f"{SPEC} §1, §9",
    "declarations": f"{SPEC} §5.2, §9",
    "gangshanghua_mode": f"{SPEC} §10, §12.1, §12.17",
    "haidi": f"{SPEC} §6.2, §12.1, §12.15",
    "jingoudiao": f"{SPEC} §6.2, §12.1, §12.18",
    "dijin": f"{SPEC} §6 (底金; seed 002 六 '底金：本桌牌局每番结算的固定金额')",
    "void_suit_melds": f"{SPEC} §12.20 (open; ours: forbidden, as Chengdu tables play)",
    "xiayu": f"{SPEC} §3 (下雨 always on in the spec); seed 002 四.1–四.4 (标准打法 / 标准下雨 / 标准血战 / 血战下雨)",
}


def parse_options(raw: Mapping[str, Any] | None) -> SichuanOptions:
    """Options from game_started ``ruleset_options`` (or a vector's ``options``).
    Raises :class:`RulesetError` naming the bad option."""
    try:
        return SichuanOptions.model_validate(dict(raw or {}))
    except ValidationError as e:
        raise RulesetError(validation_line(e, "sichuan option ", unknown="no such option")) from None
