"""Named Nanchang interpretations (shared/rules/nanchang.md §10 and §11), stored with the game.

Every field is one row of the spec's option table; the defaults are the spec's defaults.
Ambiguities they resolve are listed in the spec's §14 (A-n), cited per field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from replayer.findings import RulesetError


class NanchangOptions(BaseModel):
    """Nanchang options (nanchang.md §10).

    ``win_base``: base unit of the win score (§9.5 b). ``dead_wall_tiles``: tiles never
    drawn (A-6, default 0: no 海底). ``shisanlan``/``qixing``: enable 十三烂 / 七星十三烂.
    ``indicator_removed``: the face-up indicator is out of play (A-1). ``tail_draw_order``:
    order of tail draws within a stack (§3.1). ``count_discarded_jing``: unclaimed
    discarded jing count for their discarder (§4.3 rule 3). ``bawang_excludes_kong_jing``:
    jing inside kongs do not count as holding jing for 霸王 (A-2 reading b).
    ``dezhongde_counts_discards``: unclaimed discarded jing spoil 德中德 (A-3).
    ``gangjing_in_chongguan``: a 杠精 adds 10 to n before 冲关 instead of the separate +10.
    ``qihu_scope``: 弃胡 blocks any discard (004) or the same tile (002) (A-9).
    ``qihu_allow_bigger``: a passed player may still win for more. ``qipeng``: passing a pon
    blocks that pon until the next own intake (§5.3). ``jingdiao_discard_win``: what a player
    in 精钓 state may win on a discard (§6.8). ``qianggang_is_zimo_for_jingdiao``,
    ``qianggang_payer``, ``qianggang_extra_x2``: 抢杠 (A-7). ``de_qidui_bonus``: the 德国小七对
    extra ×2 (A-13). ``qixing_wild``: where wild jing may stand in 七星十三烂 (A-4).
    ``dihu_includes_first_selfdraw``, ``dihu_jingdiao_allowed``: 地胡 (§6.11, A-8).
    ``tianhu_amount``/``jingdiao_tianhu_amount``: flat 天胡/地胡 payments. ``kong_void_on_draw``:
    荒庄荒杠 (A-11). ``draw_dealer_pays``: per non-dealer on an exhaustive draw (§8.2).
    ``zhahu_penalty``: 诈胡 per other player (§8.3, not in the seeds). ``shangxia_fanjing``,
    ``maidilei``, ``huitou_yixiao``: the optional jing rules of §11.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    win_base: int = Field(1, ge=1)
    dead_wall_tiles: int = Field(0, ge=0)
    shisanlan: bool = True
    qixing: bool = True
    indicator_removed: bool = False
    tail_draw_order: Literal["top_then_bottom", "bottom_then_top"] = "top_then_bottom"
    count_discarded_jing: bool = True
    bawang_excludes_kong_jing: bool = False
    dezhongde_counts_discards: bool = True
    gangjing_in_chongguan: bool = False
    qihu_scope: Literal["any_tile", "same_tile"] = "any_tile"
    qihu_allow_bigger: bool = False
    qipeng: bool = False
    jingdiao_discard_win: Literal["deguo_only", "allowed_no_bonus", "never"] = "deguo_only"
    qianggang_is_zimo_for_jingdiao: bool = True
    qianggang_payer: Literal["all_three", "konger_pays_all"] = "all_three"
    qianggang_extra_x2: bool = False
    de_qidui_bonus: bool = True
    qixing_wild: Literal["suited_only", "none", "any"] = "suited_only"
    dihu_includes_first_selfdraw: bool = False
    dihu_jingdiao_allowed: bool = True
    tianhu_amount: int = Field(20, ge=0)
    jingdiao_tianhu_amount: int = Field(40, ge=0)
    kong_void_on_draw: bool = False
    draw_dealer_pays: int = Field(0, ge=0)
    zhahu_penalty: int = Field(10, ge=0)
    shangxia_fanjing: bool = False
    maidilei: bool = False
    huitou_yixiao: bool = False


DEFAULT_OPTIONS = NanchangOptions()


def parse_options(raw: Mapping[str, Any] | None) -> NanchangOptions:
    """Options from game_started ``ruleset_options`` (or a vector's ``options``).
    Raises :class:`RulesetError` naming the bad option."""
    try:
        return NanchangOptions.model_validate(dict(raw or {}))
    except ValidationError as e:
        err = e.errors()[0]
        raise RulesetError(f"nanchang option {'.'.join(map(str, err['loc']))}: {err['msg']}") from None
