"""The ruleset plug-in interface (shared/DESIGN.md §6) and the ruleset registry.

The replayer (replayer/replay.py, handlers in replayer/handlers/) owns the mechanics every ruleset shares: tiles leave the
wall and must exist, seats act in turn, a claim takes the latest discard. A ruleset says
what differs, through one small protocol:

* data — :class:`PlayRules`: tile set (copies of each tile, flowers or not, wildcards),
  dealing (tiles per seat), which claims exist and their priority, several winners on one
  discard, which kongs may be robbed, whether the hand ends at the first win (血战 does
  not);
* hooks — :class:`Ruleset`: win check + explained score, settlement of a win / kong /
  exhaustive draw / false win, seat winds, dealer rotation and end of game, the source
  section of each rule id (for findings), and the winning shapes as data
  (:meth:`Ruleset.winning_shapes`, measured by the shared shanten engine for the decision
  review, replayer/review.py).

A ruleset package ``replayer.rules.<id>`` exposes ``RULESET``, a :class:`RulesetSpec`;
:func:`get_ruleset` imports it on demand, so adding a ruleset touches no central list.
A ruleset object is bound to its options and immutable.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast, runtime_checkable

from eventlog import events as _ev
from eventlog import tiles as _tiles
from replayer.explained import ExplainedScore
from replayer.findings import Breach, RulesetError
from replayer.rules.shared.winning_shapes import STANDARD_SHAPES, WinningShapes

if TYPE_CHECKING:
    from eventlog.describe import RulesetWords
    from replayer.state import DeclaredMeld, Settlement, TableState

ClaimKind = Literal["chow", "pung", "kong", "win"]
HandEnd = Literal["first_win", "winners", "one_seat_left"]


def standard_tile_copies(*, flowers: bool, honors: bool = True) -> tuple[int, ...]:
    """Copies of each tile by dense index (42 entries): 4 of each suited tile, 4 of each
    honor when ``honors``, 1 of each flower H1..H8 when ``flowers``."""
    out = []
    for t in _tiles.ALL_TILES:
        if _tiles.is_flower(t):
            out.append(1 if flowers else 0)
        elif _tiles.is_honor(t):
            out.append(4 if honors else 0)
        else:
            out.append(4)
    return tuple(out)


@dataclass(frozen=True)
class PlayRules:
    """What a ruleset allows at the table, as data.

    ``tile_copies``: copies per dense tile index (42), e.g. MCR 144 tiles with flowers,
    Sichuan 108. ``dealer_tiles``/``other_tiles``: tiles dealt. ``dead_wall``: tiles that
    are never drawn (0 in MCR: the hand ends when the wall is empty). ``chow``: "previous_seat"
    (only the discarder's 下家 may chow) or "none". ``claim_priority``: higher wins when
    several seats claim one discard. ``winners_per_discard``: how many seats may win on one
    discard or one robbed kong — 1 (截和: the nearest claimant in turn order from the
    discarder), 2, or 3 (= all, 一炮多响); the nearest win first.
    ``robbable_kongs``: kong kinds that may be robbed (抢杠). ``hand_end``: when a hand is
    over after a win — "first_win" (the first win event; several winners on one discard are
    one event), "winners" (once ``hand_end_winners`` seats have won), "one_seat_left" (only
    one seat has not won: 血战到底). While the hand goes on, each winner leaves it
    (``TableState.in_hand``) and play resumes from the seat after the last winner in turn
    order from the discarder (after a self-drawn win: after the winner). ``wildcards``: a wildcard indicator is used.
    ``wall_layout``: "shared" (one wall: the hand is exhausted when it is empty) or
    "per_seat" (four walls of ``total_tiles / 4``, each seat is dealt and draws from its own,
    and the hand is exhausted when the seat to draw has none left: Botzone's
    Chinese-Standard-Mahjong; every tile a seat takes, replacements included, is the next
    of its own wall, and a known ``hand_started`` wall lists the four seats' walls one after
    another, each in the order its seat takes the tiles). ``honor_chows``: a chow may also be three different winds or
    中发白 (Nanchang); legal actions (replayer/actions.py) offer such chows only when set.
    ``robbers_void``: when this many seats rob one kong the hand is void (平盘: no win, the
    dealer deals again, no continuation — seed 003, competition.md §B1); 0 = never. With
    fewer robbers and ``winners_per_discard`` = 1 the nearest after the konger wins.
    ``max_suits``: a winning hand holds tiles of at most that many suits (Sichuan 缺一门: 2);
    None = no such rule. Bots (replayer/simulate/bots.py) then void a suit first.
    ``kong_replacements``: tiles a kong takes from the back of the wall (1; Changsha 开杠
    takes 2). ``flower_tiles``: the tiles set aside and replaced like a flower (None: the
    flowers H1..H8 of the tile set; Jiujiang adds 发 J2). ``indicator_leaves_wall``: the
    turned-up wildcard indicator is out of play — the replayer takes it out of the wall at
    the ruleset's :meth:`Ruleset.indicator_position` (or the last copy of it there) and counts
    it out of the wall.
    ``must_win_wall``: with that many tiles or fewer left in the wall, a seat that may win
    must (Sichuan 后4张必胡: 4): legal actions then offer it the win only; None = never.
    ``dead_hand_faults``: the faults that make a seat 相公 (a dead hand, ``SeatState.dead_hand``)
    for the rest of the hand: it plays on, drawing and discarding, but a claim or a win it
    declares is the finding ``xianggong`` (the win a false win) — competition.md §A9 "相公 …
    wrong tile count (多张/少张) … after 诈和", seed 000 二十五, seed 003 大相公/小相公. Faults
    read: ``wrong_tile_count`` (:func:`replayer.accounting.check_size`) and ``false_win`` (any
    win the ruleset's verdict refuses, 诈和). () = the ruleset names no such status: a wrong
    tile count is a finding, once, and the seat's hand is judged as it is. (A referee's
    ``dead_hand`` ruling makes a seat 相公 under any ruleset.)
    """

    tile_copies: tuple[int, ...]
    dealer_tiles: int = 14
    other_tiles: int = 13
    dead_wall: int = 0
    chow: Literal["previous_seat", "none"] = "previous_seat"
    claim_priority: tuple[tuple[ClaimKind, int], ...] = (
        ("win", 3), ("kong", 2), ("pung", 2), ("chow", 1),
    )
    winners_per_discard: int = 1
    robbable_kongs: tuple[str, ...] = ("added",)
    hand_end: HandEnd = "first_win"
    hand_end_winners: int = 3
    wildcards: bool = False
    wall_layout: Literal["shared", "per_seat"] = "shared"
    honor_chows: bool = False
    robbers_void: int = 0
    max_suits: int | None = None
    kong_replacements: int = 1
    flower_tiles: tuple[str, ...] | None = None
    indicator_leaves_wall: bool = False
    must_win_wall: int | None = None
    dead_hand_faults: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not 1 <= self.winners_per_discard <= 3:
            raise RulesetError(f"winners_per_discard must be 1, 2 or 3, got {self.winners_per_discard}")
        if not 1 <= self.hand_end_winners <= 3:
            raise RulesetError(f"hand_end_winners must be 1, 2 or 3, got {self.hand_end_winners}")
        if self.hand_end not in ("first_win", "winners", "one_seat_left"):
            raise RulesetError(f"hand_end must be first_win, winners or one_seat_left, got {self.hand_end!r}")
        if not set(self.dead_hand_faults) <= {"wrong_tile_count", "false_win"}:
            raise RulesetError(f"dead_hand_faults are wrong_tile_count and false_win, got {self.dead_hand_faults}")

    def hand_over_after_win(self, winners: int, seats_in: int) -> bool:
        """Is the hand over after a win, with ``winners`` seats having won this hand and
        ``seats_in`` seats still in it (the winners already out)?"""
        if self.hand_end == "first_win":
            return True
        if self.hand_end == "winners":
            return winners >= self.hand_end_winners
        return seats_in <= 1

    @property
    def total_tiles(self) -> int:
        return sum(self.tile_copies)

    @property
    def flowers(self) -> bool:
        """The ruleset sets tiles aside as flowers."""
        return bool(self.flower_set)

    @cached_property
    def flower_set(self) -> frozenset[str]:
        if self.flower_tiles is not None:
            return frozenset(self.flower_tiles)
        return frozenset(_tiles.code(i) for i in range(34, 42) if self.tile_copies[i])

    def is_flower(self, tile: str) -> bool:
        """``tile`` is set aside and replaced like a flower under this ruleset."""
        return tile in self.flower_set

    def priority(self, claim: str | None) -> int:
        for kind, p in self.claim_priority:
            if kind == claim:
                return p
        return 0

    def copies(self, tile: str) -> int:
        return self.tile_copies[_tiles.index(tile)]


@dataclass(frozen=True)
class WinContext:
    """A declared win as the replayer sees it, ruleset-neutral.

    ``concealed``: the winner's concealed tiles *without* the winning tile (flowers
    excluded); ``melds``: the winner's declared sets; ``from_seat``: absolute seat of the
    discarder / robbed konger (None when self-drawn); ``kong_related``: self-drawn on a kong
    replacement, or robbing a kong; ``last_of_wall``: the last tile of the wall (drawn, or
    discarded after the last draw); ``visible_copies``: other copies of the winning tile
    face up on the table (rivers + exposed sets, the winning tile itself excluded);
    ``seat_wind``/``prevalent_wind``: F1..F4; ``flowers``: the winner's flowers;
    ``first_draw``: whether the win comes in the hand's first go-around before any discard
    but the dealer's first and before any claim or kong (天胡 / 地胡 where a ruleset has them:
    docs/reference/rules/nanchang.md §6.11, sichuan.md §6.2, changsha.md §3.3 #1–2) — True or
    False when the caller says so (``paipu score --context first_draw=…``), None when the
    ruleset reads it from the table (a replay); ``others_hold_wild``: whether another seat
    holds a wild tile (Nanchang's 精 as nanchang.md §4.3 attributes them, read by 德中德 §6.7 and
    霸王 §9.1) — said by the caller whose table shows the winner's hand only (``paipu score
    --context others_hold_wild=…``), None when the ruleset reads it from the table;
    ``kong_reveal``: the winning tile is one a 开杠 revealed (Changsha's open kong,
    changsha.md §4: 杠上开花 self-drawn, 杠上炮 on ``from_seat``'s) — said by the caller
    (``paipu score --context kong_reveal=…``), None when the ruleset reads it from the table.
    """

    seat: int
    tile: str
    self_drawn: bool
    from_seat: int | None
    robbing_kong: bool
    kong_related: bool
    last_of_wall: bool
    visible_copies: int
    concealed: tuple[str, ...]
    melds: tuple[DeclaredMeld, ...]
    seat_wind: str
    prevalent_wind: str
    flowers: tuple[str, ...]
    first_draw: bool | None = None
    others_hold_wild: bool | None = None
    kong_reveal: bool | None = None


@dataclass(frozen=True)
class WinScore:
    """A ruleset's verdict on a declared win.

    ``legal``: a winning hand that meets the ruleset's minimum; otherwise ``rule_id`` and
    ``message`` say why (a false win). ``points``: the ruleset's total (MCR: fan points
    with flowers); ``explained``: the explained score, read by everyone through
    :class:`replayer.explained.ExplainedScore` (MCR: a ``FanResult``); ``situation``: the
    ruleset's own record of what was scored (MCR: a ``WinSituation``), for the ruleset only.
    ``reads``: the other seats (0..3) whose concealed tiles the score itself reads, besides
    the winner's hand (Nanchang's 德中德: nobody holds a jing, nanchang.md §6.7); a score
    that reads a hand the record hides cannot be checked against a reported one."""

    legal: bool
    points: int
    explained: ExplainedScore | None = None
    situation: object = None
    rule_id: str | None = None
    message: str = ""
    reads: tuple[int, ...] = ()


@dataclass(frozen=True)
class HandPlan:
    """Who deals the next hand and in which prevalent wind (F1..F4)."""

    dealer: int
    prevalent_wind: str


@runtime_checkable
class Ruleset(Protocol):
    """A ruleset bound to its options. See the module docstring for the split between
    the replayer's shared mechanics and what a ruleset decides."""

    @property
    def id(self) -> str:
        """The ruleset's id, or the preset's it was built from."""
        ...

    @property
    def options(self) -> Any:
        """The validated options (the ruleset's own model)."""
        ...

    @property
    def play(self) -> PlayRules:
        """What the ruleset allows at the table (an attribute or a cached property)."""
        ...

    def options_dict(self) -> dict[str, Any]:
        """The options as plain JSON values (stored with the game, shown in reports)."""
        ...

    def seat_wind(self, seat: int, dealer: int) -> str:
        """Seat wind (F1..F4) of ``seat`` in a hand dealt by ``dealer``."""
        ...

    def next_hand(self, state: TableState) -> HandPlan | None:
        """The next hand's dealer and prevalent wind after the finished hands in
        ``state.hands`` (the first hand: ``state.first_dealer``), or None when the game
        is over (end of game)."""
        ...

    def score_win(self, state: TableState, win: WinContext) -> WinScore:
        """Win check and explained score of a declared win."""
        ...

    def settle_win(self, state: TableState, win: WinContext, score: WinScore) -> Settlement:
        """Score changes of a legal win (zero-sum)."""
        ...

    def settle_kong(self, state: TableState, seat: int, meld: DeclaredMeld) -> Settlement | None:
        """Instant kong payments (Sichuan 下雨, chip games); None when the ruleset has none."""
        ...

    def settle_exhaustive_draw(self, state: TableState) -> Settlement | None:
        """Payments at an exhaustive draw (荒庄), or None."""
        ...

    def false_win_penalty(self, state: TableState, seat: int) -> Settlement | None:
        """The penalty for a false win (错和/诈和) by ``seat``, or None when the options
        apply none."""
        ...

    def rule_source(self, rule_id: str) -> str:
        """Where rule ``rule_id`` is written (file + section, or seed)."""
        ...

    def could_win(self, counts: tuple[int, ...], melds: int) -> bool:
        """A cheap necessary condition for a win: could the concealed tiles ``counts`` (a
        34-count vector *with* the winning tile, 3n + 2 tiles) and ``melds`` declared sets
        form a winning shape? Legal actions (replayer/actions.py) ask :meth:`score_win`
        only when this is True. Default in :class:`RulesetDefaults`."""
        ...

    def winning_shapes(self, state: TableState, seat: int) -> WinningShapes:
        """The shapes that would win for ``seat`` at ``state``, as data
        (:class:`replayer.rules.shared.winning_shapes.WinningShapes`: regular shapes with their
        sets, pair kinds and allowed tiles, the irregular shapes, the wild kinds). The
        decision review (replayer/review.py) measures every hand's distance (向听数) to them
        with the one shared engine; no rule is decided by it — :meth:`score_win` decides wins.
        Default in :class:`RulesetDefaults`: the regular shape, seven pairs, thirteen orphans."""
        ...

    def check_event(self, state: TableState, payload: Any) -> Sequence[Breach]:
        """The ruleset's own breaches of an event about to be applied to ``state`` (legal
        actions also drop an action whose event this refuses). Default: none."""
        ...

    def observe(self, before: TableState, payload: Any, after: TableState) -> tuple[TableState, Sequence[Breach]]:
        """After the event: update what the ruleset remembers (``TableState.rule_memory``
        only — the table itself is the core's) and report breaches seen only now.
        Default: ``(after, ())``."""
        ...

    def ruleset_actions(self, state: TableState) -> Sequence[Any]:
        """Choices of the ruleset's own open at ``state`` (``replayer.actions.Action`` of kind
        ``ruleset`` carrying the event payload: Sichuan's 定缺), for one seat, best first (a
        simple bot takes the first); legal actions offer them before anything else.
        Default: none."""
        ...

    def void_suit(self, state: TableState, seat: int) -> int | None:
        """The suit (0 W, 1 T, 2 B) ``seat`` has declared it will not hold (Sichuan 定缺), or
        None; bots empty it first. Default: None."""
        ...

    def seat_notes(self, state: TableState) -> tuple[str, str, str, str]:
        """A short note per seat for table views (e.g. Sichuan's declared void suit).
        Default: four empty strings."""
        ...

    def wild_tiles(self, state: TableState) -> Mapping[str, str]:
        """The wild tiles of the hand for table views: tile code → its short name (Nanchang
        正精 / 副精, from the wildcard indicator). Default: none."""
        ...

    def indicator_position(self, state: TableState, payload: Any) -> int | None:
        """With ``PlayRules.indicator_leaves_wall``: the index in ``state.wall`` of the
        wildcard indicator just revealed (``payload``: its event), or None (then the last
        copy of it in the wall). Default: None."""
        ...

    @property
    def event_handlers(self) -> Mapping[str, Any]:
        """The shared table events it plays (docs/events.md "Table events of one ruleset"):
        event type -> handler ``(ctx, state, payload) -> state``. Default: none."""
        ...

    def pending_events(self, state: TableState, rng: Any) -> tuple[Any, ...]:
        """Events of its own procedures the table owes now, for the simulator. Default: ()."""
        ...

    def initial_scores(self) -> tuple[int, int, int, int]:
        """What each seat holds when the game starts (game_started ``initial_scores``): a
        chip format's stacks (competition.md §A5: 100 each). Default: (0, 0, 0, 0)."""
        ...


class RulesetDefaults:
    """Default hooks for a :class:`Ruleset` (inherit it): no own breaches, nothing to
    remember, no indicator position. ``could_win``: the regular shape
    (sets and a pair, shared decomposition) or, with no declared sets, seven pairs or
    thirteen orphans; always True with wildcards (the wildcard is only known in play), so
    that legal actions then leave every judgement to :meth:`Ruleset.score_win`."""

    if TYPE_CHECKING:  # each ruleset gives its own (a cached property, usually)

        @property
        def play(self) -> PlayRules: ...

    @property
    def event_handlers(self) -> Mapping[str, Any]:
        """Table events of the ruleset's own (docs/events.md "Table events of one ruleset"):
        event type -> handler ``(ctx, state, payload) -> state`` (replayer/handlers/ruleset.py).
        None here."""
        return {}

    def pending_events(self, state: TableState, rng: Any) -> tuple[Any, ...]:
        """Events of the ruleset's own procedures the table owes now, for the simulator
        (replayer/simulate/engine.py) to write before it asks for actions — e.g. Changsha's
        birds after a win, or its opening wins played by the default table policy. ``rng``:
        the simulator's seeded random.Random of the hand (dice). None by default."""
        return ()

    def initial_scores(self) -> tuple[int, int, int, int]:
        return (0, 0, 0, 0)

    def could_win(self, counts: tuple[int, ...], melds: int) -> bool:
        if self.play.wildcards:
            return True
        return standard_shape(counts, melds)

    def winning_shapes(self, state: TableState, seat: int) -> WinningShapes:
        return STANDARD_SHAPES

    def check_event(self, state: TableState, payload: Any) -> Sequence[Breach]:
        return ()

    def observe(self, before: TableState, payload: Any, after: TableState) -> tuple[TableState, Sequence[Breach]]:
        return after, ()

    def indicator_position(self, state: TableState, payload: Any) -> int | None:
        return None

    def ruleset_actions(self, state: TableState) -> Sequence[Any]:
        return ()

    def void_suit(self, state: TableState, seat: int) -> int | None:
        return None

    def seat_notes(self, state: TableState) -> tuple[str, str, str, str]:
        """A short note per seat that the table views show beside the seat (e.g. Sichuan's
        declared void suit); empty strings by default."""
        return ("", "", "", "")

    def wild_tiles(self, state: TableState) -> Mapping[str, str]:
        """No wild tiles by default (tile code → short name, e.g. ``{"W5": "正精"}``)."""
        return {}


@lru_cache(maxsize=1 << 16)
def standard_shape(counts: tuple[int, ...], melds: int) -> bool:
    """``counts`` (34-count vector, 3n + 2 tiles) is a regular winning shape, or — with no
    declared sets — seven pairs or thirteen orphans (replayer/rules/shared)."""
    from replayer.rules.shared import decompose, shapes

    if decompose.is_complete(counts):
        return True
    return melds == 0 and (shapes.is_seven_pairs(counts) or shapes.is_thirteen_orphans(counts))


@dataclass(frozen=True)
class ScoreUnit:
    """What a ruleset's amounts count, for views (the CLI, the replay): ``total`` — the unit of
    a win's total (:attr:`WinScore.points`), singular and plural (MCR: fan points);
    ``item`` — what the items' values (``ScoreLine.points``) are, the heading over them;
    ``source``: where the rules text says so; ``total_zh``: the total's unit in Chinese
    (分, 番); ``item_factor``: the items multiply (×2) rather than add. Data of the ruleset,
    never a view's guess; every text (event words, ``paipu stats``, the dashboard) and
    docs/analytics.md "Units" (what the Parquet ``fans.points`` / ``wins.total`` hold) use it."""

    total: tuple[str, str] = ("point", "points")
    item: str = "points"
    source: str = ""
    total_zh: str = "分"
    item_factor: bool = False

    def amount(self, n: int | None) -> str:
        """``1 point``, ``12 points``, ``2 units``; ``-`` for none."""
        return "-" if n is None else f"{n} {self.total[0] if n == 1 else self.total[1]}"

    def item_value(self, n: int | None) -> str:
        """An item's value in words: ``8 points``, ``10 points per unit``, ``2 fan``, ``×4``
        (``item_factor``: the items multiply); ``-`` for none."""
        if n is None:
            return "-"
        return f"×{n}" if self.item_factor else f"{n} {self.item}"


#: The situations of one win ``paipu score`` takes from its flags (a ruleset's scoring reads
#: some of them: RulesetSpec.score_flags): name → the flags that say it.
SCORE_FLAGS: dict[str, str] = {
    "kong_replacement": "--self-drawn --kong",
    "robbing_kong": "--kong",
    "last_draw": "--self-drawn --last-of-wall",
    "last_discard": "--last-of-wall",
    "last_tile": "--last-tile",
    "seat_wind": "--seat-wind",
    "prevalent_wind": "--prevalent-wind",
}


@dataclass(frozen=True)
class ScoreFlag:
    """A situation of :data:`SCORE_FLAGS` a ruleset's scoring of one win reads
    (RulesetSpec.score_flags): ``name``; ``when``: option settings ``NAME=VALUE`` (JSON
    spelling: ``true``) under any of which it is read — empty: always."""

    name: str
    when: tuple[str, ...] = ()


@dataclass(frozen=True)
class RulesetSpec:
    """A registered ruleset: its id, options model, how to build a bound ruleset, and its
    own event types: ``events``, ``(payload class, handler)`` pairs — a payload class has
    ``TYPE = "<id>.<name>"`` and ``PROTO``, its protobuf message (proto/paipu/v1/), and declares
    what of it is private to its seat with ``PRIVATE`` (eventlog.events.Payload: every seat
    view applies it, eventlog/view.py); the one
    handler of each is ``(ctx, state, payload) -> state`` like the core's
    (replayer/handlers/). ``fan_id`` (optional): the ruleset's fan name table — any spelling
    of one of its fans (aliases, numbers, other scripts) → a key shared by all spellings,
    None for a name it does not know (the audit matches reported fans to computed ones with
    it). ``score_vectors``: ``(lines, source=...) -> result dicts``, one per JSON line of a
    vectors file (``paipu score --ruleset <id> --vectors``); None when the ruleset has none.
    ``options_model``: a pydantic model refusing unknown names and wrong types (listed by
    replayer/rules/catalog.py and ``paipu rulesets``). ``score_unit``: what its win totals
    and item values count (:class:`ScoreUnit`; points by default). ``score_context``: the
    table facts its scoring and settlement of one win read beside the hand — names of ``paipu
    score --context`` (``wildcard_indicator``, ``dealer``, ``scores``, ``first_draw`` …); a
    name not listed changes nothing for this ruleset, so the CLI refuses it. ``score_flags``:
    likewise the situations of :data:`SCORE_FLAGS` (a win on a kong's replacement, robbing a
    kong, the last tile of the wall …) its scoring reads, each a name or a
    :class:`ScoreFlag` read only under some options; ``score_flag_notes``: ``(name, words)``
    for a situation it does not read, said with the refusal (what the rules make of it
    instead). ``item_names``:
    id → (English, Chinese) of the scoring items its events name by id (Changsha's opening
    small wins), what every text shows for them (:func:`ruleset_words_of`)."""

    id: str
    description: str
    options_model: type
    build: Callable[[Mapping[str, Any]], Ruleset]
    fan_id: Callable[[str], str | None] | None = None
    events: tuple[tuple[type, Callable[..., Any]], ...] = ()
    score_vectors: Callable[..., Iterator[dict[str, Any]]] | None = None
    score_unit: ScoreUnit = ScoreUnit()
    score_context: tuple[str, ...] = ()
    score_flags: tuple[str | ScoreFlag, ...] = ()
    score_flag_notes: tuple[tuple[str, str], ...] = ()
    item_names: Mapping[str, tuple[str, str]] = dataclasses.field(default_factory=dict)


# Sources of the mechanics every ruleset shares; a ruleset's rule_source() falls back here.
MECHANICS_SOURCES: dict[str, str] = {
    "event_out_of_phase": "docs/reference/DESIGN.md §4 (events record what happened at the table, in order)",
    "play_after_hand_end": "docs/reference/DESIGN.md §4 (events record what happened at the table, in order: nothing is played after the hand has ended)",
    "wrong_seat_to_act": "docs/reference/DESIGN.md §4; turn order 0→1→2→3 (DESIGN.md §3)",
    "tile_not_held": "docs/reference/DESIGN.md §4 (tile accounting)",
    "tile_count_exceeded": "docs/reference/DESIGN.md §4 (tile accounting: the tile set of the ruleset)",
    "wall_mismatch": "docs/reference/DESIGN.md §4 (hand started: the wall when known)",
    "wall_exhausted": "docs/reference/DESIGN.md §4 (tile accounting: no draw from an empty wall)",
    "deal_mismatch": "docs/reference/DESIGN.md §4 (tiles dealt)",
    "wrong_tile_count": "docs/reference/DESIGN.md §4 (tile accounting: 13 tiles + 1 drawn)",
    "replacement_missing": "docs/reference/DESIGN.md §4 (kong / flower replacement draws)",
    "unexpected_replacement": "docs/reference/DESIGN.md §4 (kong / flower replacement draws)",
    "claim_not_latest_discard": "docs/reference/DESIGN.md §4 (a claim refers to the exact discard it takes)",
    "discard_already_claimed": "docs/reference/DESIGN.md §4 (a claim refers to the exact discard it takes)",
    "claim_own_discard": "docs/reference/DESIGN.md §4 (claims take another player's discard)",
    "claim_tile_mismatch": "docs/reference/DESIGN.md §4 (a claim refers to the exact discard it takes)",
    "no_such_pung": "docs/reference/DESIGN.md §4 (an added kong promotes the seat's own pung)",
    "win_tile_not_drawn": "docs/reference/DESIGN.md §4 (a self-drawn win is on the tile just drawn)",
    "winner_already_won": "docs/reference/DESIGN.md §4",
    "seat_out_of_hand": "docs/reference/DESIGN.md §4 (a seat that has left the hand — e.g. after its win in a hand that goes on — takes no further part)",
    "too_many_winners": "docs/reference/DESIGN.md §6 (legal claims: how many seats may win on one discard)",
    "unverifiable_win": "docs/reference/DESIGN.md §6 (fans are computed from the tiles; hidden tiles cannot be scored)",
    "exhaustive_draw_with_tiles_left": "docs/reference/DESIGN.md §4 (exhaustive draw: the wall ran out)",
    "hand_not_finished": "docs/reference/DESIGN.md §4 (hand ended after a win or an exhaustive draw)",
    "hand_number_mismatch": "docs/reference/DESIGN.md §4 (hand ended names the hand started)",
    "game_not_started": "docs/reference/DESIGN.md §4 (game started comes first)",
    "reported_score_mismatch": "docs/reference/DESIGN.md §4 (a reported score that disagrees with the computed one is a finding)",
    "reported_score_unverifiable": "docs/reference/DESIGN.md §4, §8 (a reported score is compared with the computed one; one seat's view hides the other seats' concealed tiles, and what reads them cannot be computed)",
    "wildcards_not_used": "docs/reference/DESIGN.md §4 (wildcard indicator: rulesets with wildcards only)",
    "flowers_not_used": "docs/reference/DESIGN.md §4 (flower replaced: rulesets with flowers only)",
    "chow_not_allowed": "docs/reference/DESIGN.md §6 (legal claims are the ruleset's)",
    "chow_wrong_seat": "docs/reference/DESIGN.md §6 (legal claims are the ruleset's)",
    "claim_priority": "docs/reference/DESIGN.md §6 (legal claims and their priority)",
    "one_winner_per_discard": "docs/reference/DESIGN.md §6 (legal claims and their priority)",
    "kong_not_robbable": "docs/reference/DESIGN.md §6 (legal claims)",
    "false_win": "docs/reference/DESIGN.md §6 (win shapes)",
    "xianggong": "docs/events.md (referee_ruling dead_hand: the seat may not win or claim for the rest of the hand); PlayRules.dead_hand_faults",
    "player_alias_in_game": "docs/events.md (player_aliased: the log's own stream paipu:players, never a game's)",
    "ruling_refers_to_no_event": "docs/reference/DESIGN.md §4 (the log is append-only: a referee_ruling refers to the earlier event it rules on)",
    "dealer_rotation": "docs/reference/DESIGN.md §6 (dealer rotation)",
    "game_over": "docs/reference/DESIGN.md §6 (end of game)",
    "event_out_of_order": "docs/reference/DESIGN.md §4 (dense sequence numbers per game)",
    "event_not_in_ruleset": "docs/events.md (table events of one ruleset: only a ruleset that plays them)",
    "not_a_flower": "docs/reference/DESIGN.md §4 (flower replaced: the ruleset's flowers only)",
}


_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_REGISTRY: dict[str, RulesetSpec] = {}


_EVENT_HANDLERS: dict[tuple[str, str], Callable[..., Any]] = {}


def register(spec: RulesetSpec) -> RulesetSpec:
    """Register ``spec`` under ``spec.id`` (idempotent for the same spec), with its own
    event types (eventlog.events.register_payload). Raises :class:`RulesetError` for an id
    taken by another spec, or an event type outside the ruleset's namespace or given two
    handlers."""
    old = _REGISTRY.get(spec.id)
    if old is not None and old is not spec:
        raise RulesetError(f"ruleset {spec.id!r} is already registered")
    seen: set[str] = set()
    for cls, handler in spec.events:
        t = getattr(cls, "TYPE", "")
        if not t.startswith(spec.id + ".") or t in seen or not callable(handler):
            raise RulesetError(f"ruleset {spec.id!r}: event type {t!r} needs the prefix {spec.id + '.'!r} "
                               "and exactly one handler")
        seen.add(t)
        try:
            _ev.register_payload(cls)
        except ValueError as e:
            raise RulesetError(f"ruleset {spec.id!r}: {e}") from None
        _EVENT_HANDLERS[(spec.id, t)] = handler
    _REGISTRY[spec.id] = spec
    return spec


def ruleset_handler(ruleset_id: str, type_: str) -> Callable[..., Any] | None:
    """The handler ruleset ``ruleset_id`` (or the base of preset ``ruleset_id``) declares for
    its own event type ``type_``."""
    h = _EVENT_HANDLERS.get((ruleset_id, type_))
    if h is None and ruleset_id not in _REGISTRY:
        h = _EVENT_HANDLERS.get((base_of(ruleset_id), type_))
    return h


def base_of(ruleset_id: str) -> str:
    """The ruleset a preset is made of; a ruleset id itself otherwise."""
    preset = presets().get(ruleset_id)
    return preset[0] if preset is not None and ruleset_id not in _REGISTRY else ruleset_id


def ruleset_words_of(ruleset_id: str | None) -> RulesetWords:
    """What the ruleset (or preset) ``ruleset_id`` calls its amounts and items, for the words
    of events (:func:`eventlog.describe.describe_words`): its :class:`ScoreUnit` and
    ``item_names``; points and ids when the id is None or unknown."""
    from eventlog.describe import RulesetWords

    try:
        spec = get_spec(base_of(ruleset_id)) if ruleset_id else None
    except RulesetError:
        spec = None
    if spec is None:
        return RulesetWords()
    return RulesetWords(spec.score_unit.total, spec.score_unit.total_zh, dict(spec.item_names))


def score_unit_of(ruleset_id: str | None) -> ScoreUnit:
    """The :class:`ScoreUnit` of a ruleset or preset (of its base ruleset); points when the id
    is None or unknown (a view of a game under a ruleset this build lacks)."""
    try:
        return get_spec(base_of(ruleset_id)).score_unit if ruleset_id else ScoreUnit()
    except RulesetError:
        return ScoreUnit()


def get_spec(ruleset_id: str) -> RulesetSpec:
    """The :class:`RulesetSpec` of ``ruleset_id``, importing ``replayer.rules.<id>`` on
    first use. Raises :class:`RulesetError` for an unknown id."""
    if ruleset_id in _REGISTRY:
        return _REGISTRY[ruleset_id]
    if not _ID.match(ruleset_id or ""):
        raise RulesetError(f"unknown ruleset {ruleset_id!r}")
    try:
        mod = importlib.import_module(f"replayer.rules.{ruleset_id}")
    except ModuleNotFoundError as e:
        if e.name and e.name.startswith(f"replayer.rules.{ruleset_id}"):
            raise RulesetError(f"unknown ruleset {ruleset_id!r}") from None
        raise
    spec = getattr(mod, "RULESET", None)
    if not isinstance(spec, RulesetSpec) or spec.id != ruleset_id:
        raise RulesetError(f"replayer.rules.{ruleset_id} does not define RULESET for {ruleset_id!r}")
    return register(spec)


def resolved_options(ruleset_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options a game of ``ruleset_id`` is played with: a preset's own options
    (replayer/rules/presets/*.toml) overridden by ``options``; ``options`` alone for a ruleset
    package. Stored in game_started beside the preset id, so the game replays the same even if
    the preset file changes."""
    preset = presets().get(ruleset_id)
    base = dict(preset[1]) if preset is not None and preset[0] != ruleset_id else {}
    return {**base, **dict(options)}


def get_ruleset(ruleset_id: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """A ruleset bound to ``options`` (the game_started ``ruleset_options``).

    ``ruleset_id`` is a ruleset package (``mcr``, ``nanchang`` …) or a preset of
    ``replayer/rules/presets/*.toml`` (a base ruleset plus options: DESIGN.md §6 "variants
    are data"); options given here override the preset's. Raises :class:`RulesetError` for
    an unknown id or invalid options. A ruleset built from a preset has the preset's name as
    its ``id``."""
    preset = presets().get(ruleset_id)
    if preset is not None and ruleset_id not in _REGISTRY:
        base = preset[0]
        rs = get_spec(base).build(resolved_options(ruleset_id, options or {}))
        return _named(rs, ruleset_id) if ruleset_id != base else rs
    return get_spec(ruleset_id).build(dict(options or {}))


class _AtTable:
    """A bound ruleset played at a table built otherwise (:func:`at_table`): its own rules,
    the given :class:`PlayRules`."""

    def __init__(self, rs: Ruleset, play: PlayRules) -> None:
        self._rs = rs
        self.play = play

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rs, name)


def at_table(rs: Ruleset, **table: Any) -> Ruleset:
    """``rs`` with the :class:`PlayRules` fields ``table`` set (e.g. ``wall_layout``), every
    rule else its own. How a record's table was built — its walls, one shared or one per seat,
    as its hand_started events list them — is a fact of the record, not a rule of scoring: a
    what-if under another ruleset keeps it (replayer/whatif.py). ``rs`` itself when nothing
    changes. Raises :class:`RulesetError` for a name that is no PlayRules field or a value
    PlayRules refuses."""
    try:
        play = dataclasses.replace(rs.play, **table)
    except TypeError as e:
        raise RulesetError(f"not a table setting: {e}") from None
    return rs if play == rs.play else cast(Ruleset, _AtTable(rs, play))


def seat_notes_of(state: TableState) -> tuple[str, ...]:
    """The short note per seat of the game's ruleset (``Ruleset.seat_notes``, e.g. a declared
    void suit, 定缺) for the table the replayer built; four empty strings when the game names
    no ruleset or one that cannot be built. For displays (``paipu replay``, the dashboard)."""
    if not state.ruleset_id:
        return ("", "", "", "")
    try:
        rs = get_ruleset(state.ruleset_id, dict(state.ruleset_options))
    except RulesetError:
        return ("", "", "", "")
    return tuple(rs.seat_notes(state))


def wild_tiles_of(state: TableState) -> dict[str, str]:
    """The hand's wild tiles of the game's ruleset (``Ruleset.wild_tiles``: code → name, e.g.
    Nanchang 正精 / 副精) for the table the replayer built; empty when the game names no
    ruleset, one that cannot be built, or one without wildcards. For displays."""
    if not state.ruleset_id:
        return {}
    try:
        rs = get_ruleset(state.ruleset_id, dict(state.ruleset_options))
    except RulesetError:
        return {}
    return dict(rs.wild_tiles(state))


def _named(rs: Ruleset, preset: str) -> Ruleset:
    """A ruleset built from a preset answers to the preset's name (``rs.id``): games record
    it as their ruleset (game_started, state, export), so analytics keep presets apart and a
    replay resolves the preset again (docs/analytics.md)."""
    if dataclasses.is_dataclass(rs) and any(f.name == "id" for f in dataclasses.fields(rs)):
        return dataclasses.replace(rs, id=preset)
    try:
        setattr(rs, "id", preset)  # noqa: B010 - the protocol's id is read-only; this ruleset's may not be
    except (AttributeError, TypeError):
        raise RulesetError(f"ruleset {type(rs).__name__} cannot carry the preset name {preset!r}") from None
    return rs


@lru_cache(maxsize=1)
def presets() -> dict[str, tuple[str, dict[str, Any]]]:
    """Every variant preset: ``{name: (base ruleset id, options)}``, read from the TOML files
    in ``replayer/rules/presets/`` (file order, then table order; a name defined twice is
    an error). A preset named like its base (``[nanchang]`` with no options) is the base."""
    import tomllib
    from importlib import resources

    out: dict[str, tuple[str, dict[str, Any]]] = {}
    folder = resources.files("replayer.rules") / "presets"
    if not folder.is_dir():
        return out
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        try:
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as e:
            raise RulesetError(f"presets/{entry.name}: {e}") from None
        for name, table in data.items():
            if name in out:
                raise RulesetError(f"presets/{entry.name}: preset {name!r} is defined twice")
            if not isinstance(table, dict) or not isinstance(table.get("base"), str):
                raise RulesetError(f"presets/{entry.name}: [{name}] needs base = \"<ruleset id>\"")
            out[name] = (table["base"], dict(table.get("options", {})))
    return out


@dataclass(frozen=True)
class PresetInfo:
    """A preset as listed to users: ``name`` (the id used wherever a ruleset id is), ``base``
    ruleset, ``options``, ``title`` (e.g. "吉安 Ji'an"), ``source`` (the spec section),
    ``spec_confidence`` ("low" when the spec is provisional) and the TOML ``file``."""

    name: str
    base: str
    options: dict[str, Any]
    title: str = ""
    source: str = ""
    spec_confidence: str = ""
    file: str = ""


@lru_cache(maxsize=1)
def preset_infos() -> tuple[PresetInfo, ...]:
    """Every preset of :func:`presets` with its descriptive keys (``title``, ``source``,
    ``spec_confidence``, all optional), in file then table order."""
    import tomllib
    from importlib import resources

    folder = resources.files("replayer.rules") / "presets"
    out = []
    known = presets()
    if not folder.is_dir():
        return ()
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        for name, table in tomllib.loads(entry.read_text(encoding="utf-8")).items():
            base, options = known[name]
            out.append(PresetInfo(name, base, options, str(table.get("title", "")), str(table.get("source", "")),
                                  str(table.get("spec_confidence", "")), f"replayer/rules/presets/{entry.name}"))
    return tuple(out)


def vector_scorer(ruleset_id: str) -> Callable[..., Iterator[dict[str, Any]]]:
    """How ruleset ``ruleset_id`` scores a vectors file (``paipu score --vectors``): its
    ``RulesetSpec.score_vectors``; for a ruleset package not yet registered as playable,
    its ``vectors.score_lines``. Raises :class:`RulesetError` when there is none."""
    try:
        fn = get_spec(ruleset_id).score_vectors
    except RulesetError:
        fn = None
        if _ID.match(ruleset_id or ""):
            try:
                fn = getattr(importlib.import_module(f"replayer.rules.{ruleset_id}.vectors"), "score_lines", None)
            except ModuleNotFoundError as e:
                if not (e.name or "").startswith(f"replayer.rules.{ruleset_id}"):
                    raise
    if fn is None:
        raise RulesetError(f"ruleset {ruleset_id!r} has no vector scoring")
    return fn


def known_rulesets() -> list[str]:
    """The ids of every ruleset package under ``replayer/rules/`` that defines ``RULESET``
    (sorted), importing them. For listings and for tools that run over every ruleset
    (``paipu simulate``'s benchmark and tests)."""
    import pkgutil

    import replayer.rules as _pkg

    out = []
    for m in pkgutil.iter_modules(_pkg.__path__):
        if not m.ispkg or not _ID.match(m.name):
            continue
        try:
            get_spec(m.name)
        except RulesetError:
            continue  # a shared package, not a ruleset
        out.append(m.name)
    return sorted(out)


def known_ids() -> list[str]:
    """Every id a game or a what-if may name: the ruleset packages (sorted, as
    :func:`known_rulesets`), then the presets (file order), each once — what a refusal of an
    unknown one lists."""
    return list(dict.fromkeys([*known_rulesets(), *presets()]))


# the event log finds a ruleset's own event types by importing the ruleset they name
_ev.set_ruleset_loader(get_spec)


@lru_cache(maxsize=256)
def _game_start_problem(ruleset_id: str, options_text: str) -> str | None:
    try:
        get_ruleset(ruleset_id, json.loads(options_text))
    except RulesetError as e:
        return str(e)
    return None


def check_game_start(ruleset_id: str, options: Mapping[str, Any]) -> None:
    """What the log checks of a new ``game_started`` (eventlog.events.set_ruleset_check): the
    ruleset or preset is known and ``options`` validate against its options model (the same
    :func:`get_ruleset` a replay builds). Raises ValueError saying why. One build per distinct
    ruleset and options (cached): an import of many games of one ruleset builds it once."""
    try:
        text = json.dumps(options, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        text = None
    problem = _game_start_problem(ruleset_id, text) if text is not None else None
    if text is None:
        try:
            get_ruleset(ruleset_id, options)
        except RulesetError as e:
            problem = str(e)
    if problem is not None:
        raise ValueError(problem)


# a new game names a ruleset this registry can build, with options its model accepts
_ev.set_ruleset_check(check_game_start)
