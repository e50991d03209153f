"""Hand scoring of the chip format (和牌得分, docs/reference/rules/competition.md §A6):
the 12 技术型番种 of §A6.2 and the 附加分 of §A6.3.

A hand is read with the MCR machinery (replayer/rules/mcr/fans: the same readings of sets,
pair and wait, and the same fan records where a pattern is an MCR fan: 花龙, 清龙, 组合龙,
混一色, 对对和 = 碰碰和, 清一色, 七对, 三箭刻 = 大三元's three dragon pungs). Patterns of
this format alone (全求独钓, 夹绝张, 全大/全中/全小 as three sequences, 大乱) are predicates
here. Different patterns add up (§A6.2 "不同类别的技术型番种累积计分"); the reading with the
highest T wins; a winning tile that fits a multi-wait reading gets no single-wait bonus (the
MCR wait is only an edge/closed/single wait when the hand waits on that tile alone).

``T = Σ 番种 + Σ 附加分`` (§A6.4). A win needs a pattern (无番禁和牌, §A6.1).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from replayer.explained import ScoreLine, Vec4
from replayer.rules.mcr.fans import FAN_BY_ID
from replayer.rules.mcr.fans.base import WinContext as Reading
from replayer.rules.mcr.fans.base import all_tiles, codes
from replayer.rules.mcr.fans.context import prepare, readings
from replayer.rules.mcr.options import McrOptions
from replayer.rules.mcr.situation import WinSituation

from .options import CjmOptions

_READ = McrOptions()  # readings only: the MCR table's own values are never used here


def _fan(fan_id: str) -> Callable[[Reading], bool]:
    count = FAN_BY_ID[fan_id].count
    return lambda r: count(r) > 0


def _range_chows(r: Reading) -> bool:
    """全大 / 全中 / 全小: three sequences 789 / 456 / 123 (nine tiles, any suits)."""
    ranks = [t % 9 for t in r.chows]
    return any(ranks.count(start) >= 3 for start in (0, 3, 6))


def _melded_single_wait(r: Reading) -> bool:
    """全求独钓: every set claimed from others (no concealed kong) and a single wait on the pair."""
    return r.shape == "regular" and r.open_melds == 4 and r.concealed_kongs == 0 and r.wait == "single"


def _closed_last_tile(r: Reading) -> bool:
    """夹绝张: a closed, edge or single wait on the last copy (the other three face up). Not
    when robbing a kong, whose tile is always the last one (§A11 example 3 scores 清龙 +
    single wait only; MCR's 抢杠和 不计和绝张 likewise)."""
    return r.wait in ("edge", "closed", "single") and r.last_tile and not (r.kong_win and not r.self_drawn)


def _three_dragon_pungs(r: Reading) -> bool:
    return sum(1 for t in r.pungs if t >= 31) == 3


@dataclass(frozen=True)
class Pattern:
    """One 技术型番种 of §A6.2: its row ``number`` in the §A6.2 table, id, English and Chinese
    name, and when it counts on a reading."""

    number: int
    id: str
    name_en: str
    name_zh: str
    counts: Callable[[Reading], bool]

    @property
    def section(self) -> str:
        """Where it is written: ``§A6.2 #n`` of docs/reference/rules/competition.md."""
        return f"§A6.2 #{self.number}"


PATTERNS: tuple[Pattern, ...] = (
    Pattern(1, "mixed_straight", "Mixed Straight", "花龙", _fan("mixed_straight")),
    Pattern(2, "pure_straight", "Pure Straight", "清龙", _fan("pure_straight")),
    Pattern(3, "knitted_straight", "Knitted Straight", "组合龙", _fan("knitted_straight")),
    Pattern(4, "half_flush", "Half Flush", "混一色", _fan("half_flush")),
    Pattern(5, "all_pungs", "All Pungs", "对对和", _fan("all_pungs")),
    Pattern(6, "honors_and_knitted", "Honors and Knitted Tiles", "大乱", lambda r: r.shape == "honors_knitted"),
    Pattern(7, "melded_single_wait", "Melded Hand, Single Wait", "全求独钓", _melded_single_wait),
    Pattern(8, "closed_last_tile", "Single Wait on the Last Copy", "夹绝张", _closed_last_tile),
    Pattern(9, "three_chows_of_a_range", "Three Chows of One Range", "全大/全中/全小", _range_chows),
    Pattern(10, "full_flush", "Full Flush", "清一色", _fan("full_flush")),
    Pattern(11, "seven_pairs", "Seven Pairs", "七对", lambda r: r.shape == "seven_pairs"),
    Pattern(12, "three_dragon_pungs", "Three Dragon Pungs", "三箭刻", _three_dragon_pungs),
)

#: Where each scoring item is written in docs/reference/rules/competition.md: a pattern's row
#: of the §A6.2 table (with its name), a bonus's row of the §A6.3 附加分 table.
SECTIONS: dict[str, str] = {p.id: f"{p.section} ({p.name_zh})" for p in PATTERNS} | {
    "flower": "§A6.3 (花牌: each flower)",
    "single_tile_win": "§A6.3 (单张和牌)",
    "flower_replacement_win": "§A6.3 (补花和牌)",
    "out_with_replacement_tile": "§A6.3 (杠上开花)",
    "last_tile_draw": "§A6.3 (妙手回春)",
    "last_tile_claim": "§A6.3 (海底捞月)",
    "concealed_hand": "§A6.3 (门清)",
}

#: English names of the patterns and of the 附加分 of §A6.3, by id.
NAMES_EN: dict[str, str] = {p.id: p.name_en for p in PATTERNS} | {
    "flower": "Flower",
    "single_tile_win": "Single-Tile Win",
    "flower_replacement_win": "Win on a Flower Replacement",
    "out_with_replacement_tile": "Out with Replacement Tile",
    "last_tile_draw": "Last Tile Draw",
    "last_tile_claim": "Last Tile Claim",
    "concealed_hand": "Concealed Hand",
}


@dataclass(frozen=True)
class ScoreItem:
    """One line of an explained score: a pattern or a bonus (``id``, Chinese name), its
    points per instance, how often it counts, and whether its value is provisional (§A6.2)."""

    id: str
    name_zh: str
    points: int
    count: int = 1
    provisional: bool = False
    kind: str = "pattern"  # "pattern" | "bonus"
    tiles: tuple[tuple[str, ...], ...] = ()  # what it is counted on, one group per set or instance

    @property
    def name_en(self) -> str:
        return NAMES_EN.get(self.id, self.id)

    @property
    def total(self) -> int:
        return self.points * self.count

    def line(self) -> ScoreLine:
        """The item as a ruleset-neutral line (replayer/explained.py), flagged provisional."""
        return ScoreLine(self.id, self.name_en, self.name_zh, points=self.points, count=self.count,
                         tiles=self.tiles, provisional=self.provisional)


@dataclass(frozen=True)
class CjmScore:
    """The explained T of a win (§A6.4): ``fans`` (patterns, then bonuses), ``total`` = T,
    ``patterns`` = how many 技术型番种 count (0: 无番禁和), ``provisional_values``: a pattern
    scored at a provisional value (§A6.2)."""

    fans: tuple[ScoreItem, ...]
    total: int
    patterns: int
    provisional_values: bool
    is_win: bool = True
    error: str = ""

    @property
    def total_without_flowers(self) -> int:
        return self.total - sum(f.total for f in self.fans if f.id == "flower")

    # the ExplainedScore interface (replayer/explained.py)
    def lines(self) -> tuple[ScoreLine, ...]:
        """Patterns, then bonuses; a pattern at a provisional value says so (§A6.2)."""
        return tuple(f.line() for f in self.fans)

    def excluded(self) -> tuple[ScoreLine, ...]:
        return ()

    def settlement_parts(self) -> tuple[tuple[str, Vec4], ...]:
        return ()


@dataclass(frozen=True)
class WinFlags:
    """How the hand was won, beyond the tiles: ``flower_replacement`` (补花和牌),
    ``kong_replacement`` (杠上开花), ``last_go_around`` (海底捞月 / 妙手回春 per the
    ``last_tile_bonus_scope`` option)."""

    flower_replacement: bool = False
    kong_replacement: bool = False
    last_go_around: bool = False


def _counted_on(pattern_id: str, r: Reading, s: WinSituation) -> tuple[tuple[str, ...], ...]:
    """The tiles a pattern is counted on: the MCR fan record's where the pattern is an MCR
    fan; the three range chows (全大/全中/全小); the dragon pungs (三箭刻); the whole hand
    otherwise (大乱, 全求独钓, 夹绝张 are about every tile or the wait)."""
    if pattern_id == "three_chows_of_a_range":
        return tuple(codes((t, t + 1, t + 2)) for t in r.chows)
    if pattern_id == "three_dragon_pungs":
        return tuple(codes((t,) * 3) for t in r.pungs if t >= 31)
    if pattern_id in ("melded_single_wait", "closed_last_tile"):
        return ((s.win_tile,),)
    fan = FAN_BY_ID.get(pattern_id)
    return fan.on(r) if fan is not None else all_tiles(r)


def _bonuses(r: Reading, s: WinSituation, flags: WinFlags) -> list[ScoreItem]:
    out = []
    won = ((s.win_tile,),)
    if s.flowers:
        out.append(ScoreItem("flower", "花牌", 2, s.flowers, kind="bonus"))
    if r.wait in ("edge", "closed", "single") and r.shape != "seven_pairs":
        out.append(ScoreItem("single_tile_win", "单张和牌", 4, kind="bonus", tiles=won))
    if s.self_drawn and flags.flower_replacement:
        out.append(ScoreItem("flower_replacement_win", "补花和牌", 6, kind="bonus", tiles=won))
    if s.self_drawn and flags.kong_replacement:
        out.append(ScoreItem("out_with_replacement_tile", "杠上开花", 8, kind="bonus", tiles=won))
    if flags.last_go_around and not flags.kong_replacement and not flags.flower_replacement:
        if s.self_drawn:
            out.append(ScoreItem("last_tile_draw", "妙手回春", 8, kind="bonus", tiles=won))
        elif not s.kong_related:
            out.append(ScoreItem("last_tile_claim", "海底捞月", 8, kind="bonus", tiles=won))
    if not any(not m.concealed for m in s.melds):
        out.append(ScoreItem("concealed_hand", "门清", 8, kind="bonus", tiles=all_tiles(r)))
    return out


def score(situation: WinSituation, options: CjmOptions, flags: WinFlags = WinFlags()) -> CjmScore:
    """T of a declared win (§A6.2–A6.4): the reading with the highest T; ``is_win`` False
    when no reading is a winning shape or none has a pattern (无番禁和牌). Raises
    ``ValueError`` (McrInputError) for a malformed situation."""
    hand = prepare(situation)
    special, regular = readings(hand, _READ)
    best: CjmScore | None = None
    for r in ([special] if special is not None else []) + list(regular):
        if r.shape == "thirteen_orphans":
            continue  # not a shape of this format (§A6.1)
        items = []
        for p in PATTERNS:
            if p.counts(r):
                value, provisional = options.fan_value(p.id)
                items.append(ScoreItem(p.id, p.name_zh, value, 1, provisional, tiles=_counted_on(p.id, r, situation)))
        n = len(items)
        items += _bonuses(r, situation, flags)
        total = sum(i.total for i in items)
        cand = CjmScore(tuple(items), total, n, any(i.provisional for i in items), is_win=n > 0)
        if best is None or (cand.is_win, cand.total) > (best.is_win, best.total):
            best = cand
    if best is None:
        return CjmScore((), 0, 0, False, is_win=False,
                        error=f"not a winning hand: {' '.join(situation.hand)} + {situation.win_tile}")
    if not best.is_win:
        return CjmScore(best.fans, best.total, 0, False, is_win=False,
                        error="no 技术型番种: 无番禁和牌 (§A6.1)")
    return best
