"""MCR (国标麻将, Mahjong Competition Rules) play rules: the ruleset object the replayer uses.

Sources: seed 001 (1998 《中国麻将竞赛规则（试行）》 as presented there), seed 003 (procedure),
shared/rules/competition.md Part B (``mcr1998``) and §A1–A3 (equipment, claims).

* 144 tiles with 8 flowers (seed 001 (一)); dealer 14 tiles, others 13; flowers are set
  aside and replaced from the tail (补花), kongs too (seed 003 到岭上补一张).
* Chow only from the previous seat (上家); pung and kong from anyone; win > pung/kong >
  chow (seed 001 碰牌比吃牌优先，杠牌亦比吃牌优先; competition.md §B1).
* One winner per discard (截和, seed 001; seed 003: 从打牌者向右算起顺序靠上者): option
  ``multiple_winners`` = "first_only" (default) | "all".
* Only an added kong may be robbed (seed 003 抢杠 只限于已碰出牌 …).
* 8-fan minimum, flowers not counted (seed 001 得分在8分以上，方可和牌; 花牌 … 不能算在起和分内).
* Dealer rotation: seed 001 "轮流坐庄四人各坐一次庄为一圈 … 每局比赛打四圈": the deal passes
  every hand, 4 rounds (圈) of 4 hands, prevalent wind E, S, W, N (option
  ``dealer_rotation`` = "every_hand"). Seed 003 and competition.md §A2 keep the dealer
  after a dealer win (连庄): ``dealer_rotation`` = "dealer_continues".
* Seat wind: the dealer is East, then S, W, N in turn order (seed 003 坐庄家的方向为东).
* False win (错和): always a finding; with ``false_win_penalty`` on, the offender pays
  ``false_win_penalty_points`` (default 10) to each other player. Neither seed 001 nor
  competition.md Part B gives an amount (competition.md §A9: 罚分 in units of 10, decided
  by the referee); 10 each is the common MCR competition figure — hence an option, off by
  default.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from eventlog import tiles as _tiles
from eventlog.errors import validation_line
from replayer.findings import RulesetError
from replayer.rules.base import (
    MECHANICS_SOURCES,
    HandPlan,
    PlayRules,
    RulesetDefaults,
    WinContext,
    standard_shape,
    WinScore,
    standard_tile_copies,
)
import replayer.rules.mcr.settlement as _settlement
from replayer.rules.mcr.situation import FanResult, Meld, WinSituation
from replayer.rules.shared.winning_shapes import WinningShapes
from replayer.state import DeclaredMeld, Settlement, TableState

RULESET_ID = "mcr"
_SHAPES = WinningShapes(
    special=("seven_pairs", "thirteen_orphans", "honors_and_knitted", "knitted_straight"),
    sources=("docs/reference/rules/competition.md Part B3 (fans 7 十三幺, 19 七对, 20 七星不靠, "
             "34 全不靠, 35 组合龙; a winning hand is four sets and a pair otherwise)",),
)
_WIND_LETTER = {"F1": "E", "F2": "S", "F3": "W", "F4": "N"}

SOURCES: dict[str, str] = {
    "chow_wrong_seat": "docs/reference/rules/competition.md §B1; seed 001 (吃牌只能是在上家打出某张牌以后)",
    "claim_priority": "docs/reference/rules/competition.md §B1; seed 001 (碰牌比吃牌优先，杠牌亦比吃牌优先)",
    "one_winner_per_discard": "docs/reference/rules/competition.md §B1; seed 001 (截和); seed 003",
    "kong_not_robbable": "docs/reference/rules/competition.md §B1; seed 003 (抢杠 只限于已碰出牌)",
    "below_8_fan_minimum": "docs/reference/rules/competition.md §B1; seed 001 (得分在8分以上，方可和牌)",
    "false_win": "docs/reference/rules/competition.md §B1, §A9 (诈和); seed 003 (和牌 … 必须经过裁判和其他三家的确认)",
    "dealer_rotation": "seed 001 (轮流坐庄，四人各坐一次庄为一圈); seed 003 (圈风)",
    "game_over": "seed 001 (每局比赛打四圈)",
    "tile_count_exceeded": "docs/reference/rules/competition.md §A1, §B1; seed 001 (144张: 每种4张，花牌每种1张)",
    "flowers_not_used": "seed 001 (补花)",
    "wrong_tile_count": "docs/reference/rules/competition.md §A9 (相公); seed 003 (大相公/小相公)",
    "xianggong": "docs/reference/rules/competition.md §A9 (相公: a dead hand may not win or claim); seed 003 (大相公/小相公 鈈得和牌)",
    "replacement_missing": "seed 001 (补花: 在牌墙的最后去依序取拿); seed 003 (杠 … 到岭上补一张)",
    "exhaustive_draw_with_tiles_left": "docs/reference/rules/competition.md §A3 (荒牌: after the 144th tile)",
    "settlement": "seed 001 (和牌方的得分); docs/reference/rules/competition.md §B2",
}


class McrPlayOptions(BaseModel):
    """Named MCR play interpretations, stored with the game (``ruleset_options``).

    ``multiple_winners``: "first_only" — several seats win on one discard, only the first
    in turn order from the discarder counts (截和, seed 001) — or "all".
    ``false_win_penalty``: apply the false-win penalty as a score change (off: finding only).
    ``false_win_penalty_points``: paid by the offender to each other player.
    ``min_fans``: the minimum (起和番) without flowers. ``dealer_rotation``: "every_hand"
    (seed 001) or "dealer_continues" (连庄, seed 003). ``rounds``: prevalent-wind rounds
    (圈) per game, counted from the first hand of the log (a log may start mid-session).
    ``flowers``: the 144-tile set with 8 flowers (seed 001), or 136 tiles without (素麻将;
    Botzone's Chinese-Standard-Mahjong). ``wall_layout``: "shared" (seed 001, one wall) or
    "per_seat" (Botzone: four walls of 34, each seat draws from its own; the last tile is
    drawn when the next seat's wall is empty).
    ``three_robbers``: "void" — when three seats rob one added kong the hand is void (平盘:
    no win, the same dealer deals again, no continuation; seed 003) — or "first_wins" (the
    nearest after the konger wins, as with two robbers).
    ``multiple_winners`` = "all" settles each win on its own (each of the three others
    pays the base 8, the discarder also P): competition.md Part B has one winner only
    (A-Amb-5), so the "all" figures are this option's definition.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    multiple_winners: Literal["first_only", "all"] = "first_only"
    false_win_penalty: bool = False
    false_win_penalty_points: int = Field(10, ge=0)
    min_fans: int = Field(8, ge=0)
    dealer_rotation: Literal["every_hand", "dealer_continues"] = "every_hand"
    rounds: int = Field(4, ge=1, le=4)
    flowers: bool = True
    wall_layout: Literal["shared", "per_seat"] = "shared"
    three_robbers: Literal["void", "first_wins"] = "void"


Scorer = Callable[[WinSituation, Any], FanResult]


def _default_scorer(situation: WinSituation, options: Any) -> FanResult:
    # Imported on use: the fan calculator is a separate module (replayer/rules/mcr/fans/).
    from replayer.rules.mcr.fans.calculator import score

    return score(situation, options)


def _fan_options(raw: Mapping[str, Any]) -> Any:
    """The fan-scoring options (McrOptions, replayer/rules/mcr/options.py) from ``raw``."""
    try:
        from replayer.rules.mcr.options import McrOptions
    except ModuleNotFoundError as e:
        if raw:
            raise RulesetError(
                f"mcr options {sorted(raw)} are not play options and the fan options model "
                f"is not available ({e.name})"
            ) from None
        return None
    try:
        return McrOptions.model_validate(dict(raw))
    except ValidationError as e:
        raise RulesetError(validation_line(e, "mcr option ", unknown="no such option")) from None


def parse_options(raw: Mapping[str, Any]) -> tuple[McrPlayOptions, Any]:
    """Split game_started ``ruleset_options`` into play options and fan options.

    Keys of :class:`McrPlayOptions` are play options; the rest go to ``McrOptions``.
    Raises :class:`RulesetError` naming the bad option."""
    play_keys = set(McrPlayOptions.model_fields)
    play = {k: v for k, v in raw.items() if k in play_keys}
    fans = {k: v for k, v in raw.items() if k not in play_keys}
    try:
        play_opts = McrPlayOptions.model_validate(play)
    except ValidationError as e:
        raise RulesetError(validation_line(e, "mcr option ", unknown="no such option")) from None
    return play_opts, _fan_options(fans)


@dataclass(frozen=True)
class McrRuleset(RulesetDefaults):
    """MCR bound to its options. ``scorer`` defaults to the fan calculator
    (``replayer.rules.mcr.fans.calculator.score``); any function with its signature may be
    given (e.g. to re-score under another calculator)."""

    options: McrPlayOptions
    fan_options: Any = None
    scorer: Scorer = _default_scorer
    raw_options: tuple[tuple[str, Any], ...] = ()
    id: str = RULESET_ID

    @cached_property
    def play(self) -> PlayRules:
        return PlayRules(
            tile_copies=standard_tile_copies(flowers=self.options.flowers),
            dealer_tiles=14,
            other_tiles=13,
            dead_wall=0,
            chow="previous_seat",
            winners_per_discard=3 if self.options.multiple_winners == "all" else 1,
            robbable_kongs=("added",),
            hand_end="first_win",
            wildcards=False,
            wall_layout=self.options.wall_layout,
            robbers_void=3 if self.options.three_robbers == "void" else 0,
            # a wrong tile count makes the seat 相公: it plays on and may not win (seed 003
            # 大相公/小相公 "鈈得和牌"; competition.md §A9)
            dead_hand_faults=("wrong_tile_count",),
        )

    def options_dict(self) -> dict[str, Any]:
        return dict(self.raw_options)

    # -- seats, dealer rotation, end of game -------------------------------------------

    def seat_wind(self, seat: int, dealer: int) -> str:
        return _tiles.WINDS[(seat - dealer) % 4]

    def next_hand(self, state: TableState) -> HandPlan | None:
        # Counted from the first hand of the log, which may start mid-session (Botzone logs
        # are single hands in any prevalent wind).
        first = state.first_dealer if state.first_dealer is not None else 0
        start = 4 * _tiles.WINDS.index(state.first_prevalent_wind or "F1")
        # A void hand (平盘, three robbers: seed 003) is dealt again by the same dealer.
        if self.options.dealer_rotation == "every_hand":
            passes = sum(1 for h in state.hands if not h.void)
        else:
            # 连庄: the deal stays only when the dealer wins; a draw passes it (荒牌移庄).
            passes = sum(1 for h in state.hands if h.dealer not in h.winners and not h.void)
        k = start + passes
        if k >= 4 * self.options.rounds:
            return None
        return HandPlan(dealer=(first + passes) % 4, prevalent_wind=_tiles.WINDS[k // 4])

    # -- wins -----------------------------------------------------------------------

    def situation(self, win: WinContext) -> WinSituation:
        """The WinSituation of a declared win (claimed_from relative to the winner)."""
        melds = []
        for m in win.melds:
            if m.concealed:
                rel = None
            elif m.kind == "chow":
                rel = 1  # a chow is always from the previous seat (vectors' convention)
            else:
                rel = (win.seat - m.from_seat) % 4 if m.from_seat is not None else None
            melds.append(
                Meld(
                    type=m.kind,
                    tiles=m.tiles,
                    concealed=m.concealed,
                    claimed_from=rel,
                    claimed_tile=None if m.concealed else m.claimed_tile,
                )
            )
        return WinSituation(
            hand=tuple(_tiles.sort_tiles(win.concealed)),
            win_tile=win.tile,
            melds=tuple(melds),
            self_drawn=win.self_drawn,
            last_tile=win.visible_copies >= 3,
            kong_related=win.kong_related,
            # 杠上开花 on the last tile of the wall is also 妙手回春: neither competition.md §B3
            # nor §A6 excludes one by the other, and the reference calculator scores both
            # (what `paipu score --kong --last-of-wall --self-drawn` gives).
            last_of_wall=win.last_of_wall,
            seat_wind=_WIND_LETTER[win.seat_wind],  # type: ignore[arg-type]
            prevalent_wind=_WIND_LETTER[win.prevalent_wind],  # type: ignore[arg-type]
            flowers=len(win.flowers),
        )

    def could_win(self, counts: tuple[int, ...], melds: int) -> bool:
        """The shared shapes (:class:`RulesetDefaults`) plus MCR's knitted shapes:
        全不靠 / 七星不靠 and 组合龙 + a set + a pair (competition.md Part B3)."""
        return _winning_shape(counts, melds)

    def winning_shapes(self, state: TableState, seat: int) -> WinningShapes:
        """The shared shapes (regular, 七对, 十三幺) plus 全不靠 / 七星不靠 and 组合龙 + a set + a
        pair (competition.md Part B3, fans 7, 19, 20, 34, 35); no wildcards."""
        return _SHAPES

    def score_win(self, state: TableState, win: WinContext) -> WinScore:
        sit = self.situation(win)
        try:
            res = self.scorer(sit, self.fan_options)
        except ValueError as e:
            return WinScore(False, 0, None, sit, "false_win", f"not a winning hand: {e}")
        if not res.is_win:  # the calculator's error says "not a winning hand: <hand>" itself: not twice
            why = res.error or ""
            words = why if why.startswith("not a winning hand") else f"not a winning hand{': ' + why if why else ''}"
            return WinScore(False, 0, res, sit, "false_win", words)
        if res.total_without_flowers < self.options.min_fans:
            return WinScore(
                False, res.total, res, sit, "below_8_fan_minimum",
                f"{res.total_without_flowers} fan points without flowers, "
                f"below the minimum of {self.options.min_fans}",
            )
        return WinScore(True, res.total, res, sit)

    # -- settlement -----------------------------------------------------------------

    def settle_win(self, state: TableState, win: WinContext, score: WinScore) -> Settlement:
        return _settlement.settle_win(
            win.seat, score.points, self_drawn=win.self_drawn,
            discarder=None if win.self_drawn else win.from_seat, robbed_kong=win.robbing_kong,
        )

    def settle_kong(self, state: TableState, seat: int, meld: DeclaredMeld) -> Settlement | None:
        return None  # MCR pays kongs through fans only (明杠/暗杠), not at once

    def settle_exhaustive_draw(self, state: TableState) -> Settlement | None:
        return None  # 荒庄: nobody pays (seed 001 has no draw payment)

    def false_win_penalty(self, state: TableState, seat: int) -> Settlement | None:
        if not self.options.false_win_penalty:
            return None
        return _settlement.false_win_penalty(seat, self.options.false_win_penalty_points)

    def rule_source(self, rule_id: str) -> str:
        """The section of a rule id; a fan id gives its row of the fan table (what-if scoring
        names the source of each fan that differs)."""
        found = SOURCES.get(rule_id) or MECHANICS_SOURCES.get(rule_id)
        if found:
            return found
        from replayer.rules.mcr.fans import FAN_BY_ID

        fan = FAN_BY_ID.get(rule_id)
        if fan is not None:
            return f"docs/reference/rules/competition.md §B3 (fan table: {fan.name_zh}, {fan.points} points; row {fan.number})"
        return "docs/reference/rules/competition.md Part B"


@lru_cache(maxsize=1 << 16)
def _winning_shape(counts: tuple[int, ...], melds: int) -> bool:
    from replayer.rules.shared import decompose, shapes

    if standard_shape(counts, melds):
        return True
    if melds == 0 and shapes.honors_and_knitted(counts):
        return True
    knit = shapes.knitted_straight_in(counts) if melds <= 1 else None
    if knit is None:
        return False
    rest = list(counts)
    for t in knit:
        rest[t] -= 1
    return decompose.is_complete(tuple(rest))


def build(raw: Mapping[str, Any], scorer: Scorer | None = None) -> McrRuleset:
    """A bound :class:`McrRuleset` from game_started ``ruleset_options``.
    Raises :class:`RulesetError` for a bad option."""
    play, fans = parse_options(raw)
    return McrRuleset(
        options=play,
        fan_options=fans,
        scorer=scorer or _default_scorer,
        raw_options=tuple(sorted(raw.items())),
    )
