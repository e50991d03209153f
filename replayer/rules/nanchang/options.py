"""Named Nanchang interpretations (shared/rules/nanchang.md §10 and §11) and the Jiangxi
engine options (shared/rules/jiangxi_variants.md §1), stored with the game.

Every field is one row of a spec's option table; the defaults are Nanchang's. Ambiguities
they resolve are listed in nanchang.md §14 (A-n) and jiangxi_variants.md §13, cited per
field. The other Jiangxi cities are presets over these options
(replayer/rules/presets/jiangxi.toml), not code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from eventlog.errors import validation_line
from replayer.findings import RulesetError


N = "docs/reference/rules/nanchang.md"
J = "docs/reference/rules/jiangxi_variants.md"
JD = "tests/data/jiangxi/README.md"


def _opt(default: Any, meaning: str, source: str, **kw: Any) -> Any:
    """A documented option: ``meaning`` (one line a player can check) and ``source`` (the
    spec section) end up in the JSON schema and in docs/rulesets.md."""
    return Field(default, description=meaning, json_schema_extra={"source": source}, **kw)


class NanchangOptions(BaseModel):
    """Nanchang options (nanchang.md §10–11) and the Jiangxi engine options
    (jiangxi_variants.md §1, §13; the presets' scoring notes named in the jiangxi data README).

    Every field carries its meaning and its rule source (``description`` and
    ``json_schema_extra["source"]``); the defaults are Nanchang's. Options marked
    provisional in the spec keep the spec's default and say so in their meaning.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    # --- nanchang.md §10 ------------------------------------------------------------------
    win_base: int = _opt(1, "base unit of the win score (子)", f"{N} §9.5 (b)", ge=1)
    dead_wall_tiles: int = _opt(0, "tiles never drawn (0: the hand is drawn to the last tile, no 海底)", f"{N} §3.3, §14 A-6", ge=0)
    shisanlan: bool = _opt(True, "十三烂 (thirteen rotten) is a winning shape", f"{N} §6.4")
    qixing: bool = _opt(True, "七星十三烂 (seven-star thirteen rotten) is a winning shape", f"{N} §6.5")
    indicator_removed: bool = _opt(False, "the face-up jing indicator is out of play (7 jing of its kind in play)", f"{N} §14 A-1")
    tail_draw_order: Literal["top_then_bottom", "bottom_then_top"] = _opt(
        "top_then_bottom", "order of the draws from the tail within a stack", f"{N} §3.1")
    count_discarded_jing: bool = _opt(True, "unclaimed discarded jing count for their discarder's jing bonus", f"{N} §4.3 rule 3")
    bawang_excludes_kong_jing: bool = _opt(False, "jing inside kongs do not count as holding jing for 霸王", f"{N} §14 A-2 (reading b)")
    dezhongde_counts_discards: bool = _opt(True, "unclaimed discarded jing spoil 德中德", f"{N} §14 A-3")
    gangjing_in_chongguan: bool = _opt(False, "a 杠精 adds 10 to the jing points before 冲关 instead of its own +10 from each", f"{N} §9.2")
    qihu_scope: Literal["any_tile", "same_tile"] = _opt(
        "any_tile", "弃胡: after passing a win, no discard win (any_tile, seed 004) or none on the same tile (same_tile, seed 002) until the next own intake", f"{N} §7.2, §14 A-9")
    qihu_allow_bigger: bool = _opt(False, "胡大不胡小: a player who passed a win may still win for more", f"{N} §10; {J} §3.3")
    qipeng: bool = _opt(False, "弃碰: passing a pung blocks that pung until the next own intake", f"{N} §5.3")
    jingdiao_discard_win: Literal["deguo_only", "allowed_no_bonus", "never"] = _opt(
        "deguo_only", "what a player in 精钓 state may win on a discard", f"{N} §6.8")
    qianggang_is_zimo_for_jingdiao: bool = _opt(True, "robbing a kong counts as a self-draw for 精钓", f"{N} §6.10, §14 A-7")
    qianggang_payer: Literal["all_three", "konger_pays_all"] = _opt(
        "all_three", "who pays a robbed kong win: all three as on a self-draw, or the robbed konger all of it", f"{N} §6.10, §14 A-7; {J} §3.3")
    qianggang_extra_x2: bool = _opt(False, "robbing a kong doubles once more (on top of the self-draw ×2)", f"{N} §14 A-7")
    de_qidui_bonus: bool = _opt(True, "德国小七对 extra ×2", f"{N} §14 A-13")
    qixing_wild: Literal["suited_only", "none", "any"] = _opt(
        "suited_only", "where wild jing may stand in 七星十三烂", f"{N} §6.5, §14 A-4")
    dihu_includes_first_selfdraw: bool = _opt(False, "地胡 also covers a non-dealer's self-draw on the first draw", f"{N} §6.11, §14 A-8")
    dihu_jingdiao_allowed: bool = _opt(True, "a hand in 精钓 state may win 地胡", f"{N} §6.11, §14 A-8")
    tianhu_amount: int = _opt(20, "flat 天胡 / 地胡 payment from each other player (子)", f"{N} §9.5 (a); {J} §1, §3.3", ge=0)
    jingdiao_tianhu_amount: int = _opt(40, "flat 精钓天胡 / 地胡 payment from each other player (子; no preset changes it)", f"{N} §9.5 (a), §14 A-15; {J} §13.7", ge=0)
    kong_void_on_draw: bool = _opt(False, "荒庄荒杠: ordinary kongs pay nothing on an exhaustive draw", f"{N} §14 A-11")
    draw_dealer_pays: int = _opt(0, "on an exhaustive draw the dealer pays each other player this much (子)", f"{N} §8.2", ge=0)
    zhahu_penalty: int = _opt(10, "诈胡: the offender pays each other player this much (子; not in the seeds)", f"{N} §8.3", ge=0)
    shangxia_fanjing: bool = _opt(False, "上下翻精: a second (下) jing family from the lower indicator, counted in the dealt hands", f"{N} §11.1")
    maidilei: bool = _opt(False, "埋地雷: the 下精 family counted at hand end like the jing bonus", f"{N} §11.2")
    huitou_yixiao: bool = _opt(False, "回头一笑: the previous hand's jing counted in the dealt hands", f"{N} §11.3")

    # --- jiangxi_variants.md §1: engine options of the other Jiangxi variants -------------
    tileset: Literal["136", "120_no_winds", "144_flowers"] = _opt(
        "136", "tile set: 136 (no flowers), 120 without the winds (九江), 144 with the eight flowers 春夏秋冬梅兰竹菊 (鹰潭)", f"{J} §1, §6, §8")
    jing_mode: Literal["zheng_fu", "successor_only", "none"] = _opt(
        "zheng_fu", "jing family: 正精 = the indicator (2 points) + 副精 = its successor (1 point); successor_only: the 4 copies of the indicator's successor are the only jing (1 point each; 赣州, 上饶's 宝); none: no indicator, no jing, no 德国", f"{J} §1, §3.1, §11; {JD} jing_mode")
    jing_scoring: bool = _opt(True, "the jing bonus (冲关, 霸王) and 杠精 are settled; false: no jing payments, a kong of four jing is an ordinary kong", f"{J} §1; {JD} jing_scoring")
    chi_allowed: bool = _opt(True, "chow claims exist at all (sequences inside the concealed hand stay legal)", f"{J} §1, §4, §9")
    honor_chi: Literal["any_distinct", "ordered", "none"] = _opt(
        "any_distinct", "honor sequences: any three different winds and 中发白; ordered: only 东南西 and 南西北 (no wrap), 中发白 unaffected; none: no honor sequences — for chow claims and inside the hand", f"{J} §1, §3.1, §13.5")
    discard_win_allowed: bool = _opt(True, "wins on a discard (点炮, 地胡 included) exist; false: self-draw only (robbing a kong counts as a self-draw)", f"{J} §1, §4, §11, §13.9")
    discard_win_max_jing: Optional[int] = _opt(
        None, "a winner holding more than this many concealed jing may not win a discard with the standard shape unless in 精钓 state (bigger shapes, self-draws and 抢杠 stay allowed)", f"{J} §1, §3.1, §13.4", ge=0)
    multiple_winners: int = _opt(1, "most winners on one discard (一炮双响 / 三响): each settles on its own, every non-discarder (other winners included) pays each winner as a non-discarder [prov.]", f"{J} §1, §5, §13.11", ge=1, le=3)
    qidui_early_show: bool = _opt(False, "六对摊牌: a seat with no melds holding six pairs may lay them down and is paid 1 by each other seat (×2 with the dealer) whatever the outcome; the hand is then locked [prov.]", f"{J} §1, §5, §13.12")
    chi3_liability: Literal["off", "chi_from_same_player", "chi_same_suit"] = _opt(
        "off", "包: when the winner has chowed 3 times from its 上家 (chi_same_suit: 3 chows of one suit, honor chows one group), the 上家 alone pays the whole win (和多大包多大); counted over the hand, consecutive or not [prov.]", f"{J} §1, §5, §10, §13.13")
    pair_258: bool = _opt(False, "the pair of a standard-shape hand (大七对 included) must be a suited 2, 5 or 8 (a wild may stand for one) [prov.]", f"{J} §1, §10, §13.14")
    wall_layers: Literal[2, 3] = _opt(2, "tiles per wall stack (萍乡: three layers); places the jing indicator counted from the dice (top tile of stack #s from the tail); all tiles stay drawable, no settlement effect", f"{J} §1, §10, §13.15")
    last_draw_no_discard: bool = _opt(False, "the player who draws the last wall tile does not discard it (no win on it by discard; on 流局 the drawer keeps 14 − 3·melds tiles)", f"{J} §1, §10, §13.16")
    flower_bao: bool = _opt(False, "the eight flowers are 宝: not wild, never in a set except a 宝 pung of three flowers; each 宝 in the winner's melds (and each flown, with fly_bao_doubling) doubles the win", f"{J} §1, §8, §13.17")
    bao_must_fly: bool = _opt(True, "with flower_bao: a player holding exactly one 宝 must fly (discard) it at the first opportunity; with two it may keep them to pung a flown 宝 [prov.]", f"{J} §8")
    fly_bao_doubling: bool = _opt(False, "飞宝: each 宝 / jing the winner discarded (claimed or not) doubles its win", f"{J} §1, §8, §11, §13.20")
    fa_as_flower: bool = _opt(False, "发 is set aside when drawn and replaced from the tail like a flower; each set-aside 发 doubles the winner's payments (flat 天胡/地胡 too) [prov.]", f"{J} §1, §6, §13.18")
    lanhu: bool = _opt(False, "烂和: the 十三烂 shape is enabled even when shisanlan is off [prov.]", f"{J} §1, §9")
    daqidui_factor: int = _opt(2, "factor of 大七对 (碰碰胡)", f"{J} §1, §3.3", ge=1)
    dealer_doubling: bool = _opt(True, "the dealer pays and receives double; false: 通庄", f"{J} §1, §3.3")
    jing_provider_liability: bool = _opt(False, "a seat whose last claimed jing took it to 冲关 is paid its whole jing bonus by that jing's discarder alone", f"{J} §1, §3.3, §13.6")
    win_scoring: Literal["nanchang", "xinyu", "yingtan"] = _opt(
        "nanchang", "win value table: Nanchang's M (§9.5); xinyu: 门清自摸 4 / 小自摸 2 / 碰碰和 4 / 七对 4 / 豪华七对 8 × 混一色·清一色, 单飞, 海底, 杠上花 doublings [prov.]; yingtan: base 2 × 2^宝 [prov.]", f"{J} §4, §8; {JD} How the options act")
    dasanyuan_factor: Optional[int] = _opt(None, "大三元 (pungs of 中发白) factor; null: no such pattern [prov.]", f"{J} §7, §13.19", ge=1)
    dasixi_factor: Optional[int] = _opt(None, "大四喜 (four wind kongs and a pair) factor; null: no such pattern [prov.]", f"{J} §7", ge=1)
    jiuyao_factor: Optional[int] = _opt(None, "九幺 (= 十三幺, wild jing may fill) shape factor; null: no such shape [prov.]", f"{J} §11, §13.20", ge=1)
    dandiao_factor: Optional[int] = _opt(None, "单调 (the only wait, completed as the pair) factor; null: none [prov.]", f"{J} §11, §13.20", ge=1)
    qingyise_factor: Optional[int] = _opt(None, "清一色 (one suit, no honor) factor; null: none [prov.]", f"{J} §8", ge=1)
    bao_cap: Optional[int] = _opt(None, "封顶: cap on the win value M; null: no cap", f"{J} §8", ge=1)


DEFAULT_OPTIONS = NanchangOptions()


def parse_options(raw: Mapping[str, Any] | None) -> NanchangOptions:
    """Options from game_started ``ruleset_options`` (or a vector's ``options``).
    Raises :class:`RulesetError` naming the bad option."""
    try:
        return NanchangOptions.model_validate(dict(raw or {}))
    except ValidationError as e:
        raise RulesetError(validation_line(e, "nanchang option ", unknown="no such option")) from None


def option_rows(model: type[BaseModel] = NanchangOptions) -> list[tuple[str, str, Any, str, str]]:
    """(name, type, default, meaning, source) of every option, in declaration order."""
    out = []
    for name, f in model.model_fields.items():
        extra = f.json_schema_extra if isinstance(f.json_schema_extra, dict) else {}
        ann = getattr(f.annotation, "__name__", None) or str(f.annotation).replace("typing.", "")
        out.append((name, str(ann), f.default, f.description or "", str(extra.get("source", ""))))
    return out
