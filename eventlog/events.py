"""Canonical game events (shared/DESIGN.md §4): a tagged union of payloads in one envelope.

An event records *what happened at the table*, never a derived fact (legality, fans,
settlement are the replayer's). Each payload type carries only its own fields; seats
(0..3, turn order) and tile codes (eventlog.tiles, DESIGN.md §3) are checked on parse,
so a malformed event is refused with the field that is wrong.

Two envelopes:

* :class:`NewEvent` — what a client appends: ``event_id`` (client UUID, the idempotency
  key), ``type``, ``payload``, ``metadata`` (source file/line, ingest run, actor),
  ``schema_version``.
* :class:`StoredEvent` — what the log returns: the same plus ``game_id``, ``seq`` (dense
  per game, from 0), ``position`` (global, from 1), ``recorded_at`` (metadata only; replay
  never reads it), ``prev_hash`` and ``hash`` (SHA-256 chain per game, see :func:`chain_hash`).

The JSON Lines form is ``StoredEvent.model_dump(mode="json")`` (or ``NewEvent``'s) one per
line; ``docs/events.md`` shows one example per type.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
import uuid
from collections.abc import Callable, Mapping
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SerializeAsAny,
    Strict,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from eventlog.errors import InvalidArgument, json_error, validation_problem
from eventlog import tiles as _tiles
from eventlog.hashing import GENESIS_HASH, chain_hash
from eventlog.hashing import canonical_bytes as canonical_bytes  # re-exported: ev.canonical_bytes

SCHEMA_VERSION = 1
_M = TypeVar("_M", bound=BaseModel)


def _tile(v: str) -> str:
    return _tiles.check(v)


def _suited_or_honor(v: str) -> str:
    _tiles.check(v)
    if _tiles.is_flower(v):
        raise ValueError(f"a flower is not allowed here: {v!r}")
    return v


def _flower(v: str) -> str:
    if not (_tiles.is_valid(v) and _tiles.is_flower(v)):
        raise ValueError(f"not a flower tile: {v!r} (expected H1..H8)")
    return v


def _wind(v: str) -> str:
    if v not in _tiles.WINDS:
        raise ValueError(f"not a wind: {v!r} (expected F1..F4)")
    return v


Tile = Annotated[str, AfterValidator(_tile)]
PlayTile = Annotated[str, AfterValidator(_suited_or_honor)]
FlowerTile = Annotated[str, AfterValidator(_flower)]
Wind = Annotated[str, AfterValidator(_wind)]
def _no_control(v: str) -> str:
    bad = next((c for c in v if unicodedata.category(c) == "Cc"), None)
    if bad is not None:
        raise ValueError(f"a name cannot hold a control character ({bad!r})")
    return v


#: A player's name as people write it: 1-200 characters, no control character (newline, tab).
PlayerName = Annotated[str, Field(min_length=1, max_length=200), AfterValidator(_no_control)]
# ----------------------------------------------------------------------------- number ranges
#: The range of every integer field of a payload (docs/events.md "Number ranges"): what the
#: contract's int types carry (proto/paipu/v1/events.proto: sint64 scores, uint32 hand numbers,
#: uint64 seqs) and what the Parquet columns hold (analytics/schema.py: int32 scores, hand
#: numbers and seqs). A score, score change, fan value or count: −10⁹ … 10⁹ (int32 holds
#: ±2,147,483,647, so an initial score plus one change of the same size still fits); a hand
#: number or an event seq a payload refers to: 0 … 2³¹ − 1.
POINTS_LIMIT = 10**9
INDEX_LIMIT = 2**31 - 1
#: The validation context under which a stored payload is read (:func:`parse_payload` with
#: ``stored=True``): a payload stored before a range was checked is served as stored (the log
#: is append-only), and its readers that cannot carry the number say so (export, gRPC).
STORED = {"stored": True}


def _is_stored(info: ValidationInfo) -> bool:
    context = info.context
    return isinstance(context, dict) and bool(context.get("stored"))


def _ranged(low: int, high: int, what: str) -> Callable[[int, ValidationInfo], int]:
    def check(v: int, info: ValidationInfo) -> int:
        if not low <= v <= high and not _is_stored(info):
            raise ValueError(f"{what} must be within {low}..{high} (docs/events.md \"Number ranges\")")
        return v

    return check


#: An integer as JSON writes one: not a boolean (``true`` is not seat 1), not a float
#: (``1.0`` is not a score), not a numeric string — pydantic's lax mode takes all three.
Int = Annotated[int, Strict()]
Seat = Annotated[Int, Field(ge=0, le=3)]
#: An event seq a payload refers to (a discard, a ruled event): 0 … 2³¹ − 1.
Seq = Annotated[Int, Field(ge=0), AfterValidator(_ranged(0, INDEX_LIMIT, "an event seq"))]
#: A hand number, from 0: 0 … 2³¹ − 1.
HandNumber = Annotated[Int, Field(ge=0), AfterValidator(_ranged(0, INDEX_LIMIT, "a hand number"))]
#: A score, a score change, a fan's points or count, a total: −10⁹ … 10⁹.
Points = Annotated[Int, AfterValidator(_ranged(-POINTS_LIMIT, POINTS_LIMIT, "a score"))]
FourInts = Annotated[list[Points], Field(min_length=4, max_length=4)]


class Payload(BaseModel):
    """Base of every payload: frozen, no unknown fields. ``SCHEMA_VERSION`` is the version of
    this payload's shape; raise it when the shape changes and register an upcaster from the
    old version (:func:`register_upcaster`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    TYPE: ClassVar[str]
    #: A ruleset's own payload: its protobuf message class (eventlog/convert.py packs it
    #: into ``RulesetEvent``); the core payloads are the messages of events.proto.
    PROTO: ClassVar[Any] = None
    SCHEMA_VERSION: ClassVar[int] = 1
    #: What of this payload is private to its seat, for one seat's view of the game
    #: (docs/reference/DESIGN.md §6 replay, §8 "one seat's view"): field name → the value every
    #: other seat sees in its place (``None``, ``[]``). The payload's own ``seat`` sees it all;
    #: a payload with no ``seat`` is nobody's, so every seat gets the value in its place (the
    #: wall order of ``hand_started``). One declaration for every reader —
    #: :func:`eventlog.view.seat_view` applies it for the CLI, the dashboard and the gRPC replay
    #: service alike, to the core's payloads and a ruleset's own (``register_payload``).
    PRIVATE: ClassVar[Mapping[str, Any]] = {}
    #: True: the event's envelope ``metadata`` (source file, line, ingest notes) is withheld
    #: (``{}``) wherever the private fields are (``hand_started``: it may tell the wall or seed).
    PRIVATE_METADATA: ClassVar[bool] = False

    def withheld_from(self, seat: int) -> Mapping[str, Any]:
        """The fields seat ``seat`` (0..3) may not see of this payload, each with the value
        shown in its place: :attr:`PRIVATE` unless ``seat`` is the payload's own ``seat``; ``{}``
        when nothing is withheld. The hook for a conditional case — a payload class overrides
        it (:class:`Kong`: only a concealed kong's tile is private)."""
        if not self.PRIVATE or getattr(self, "seat", None) == seat:
            return {}
        return self.PRIVATE

    def words(self, who: Callable[[int], tuple[str, str]]) -> tuple[str, str] | None:
        """The event in plain words, (English, Chinese), for a ruleset's own event type: a
        ruleset's payload class overrides this so that every reader (eventlog/describe.py:
        ``paipu replay``, the dashboard) describes it without naming the ruleset. ``who(seat)``
        gives a seat's name in both languages (e.g. ``("East", "东家")``). None: the core's
        describer speaks for the core types, and shows an unknown one field by field."""
        return None


class GameStarted(Payload):
    """A game (table session of one or more hands) begins under a ruleset."""

    TYPE: ClassVar[str] = "game_started"
    ruleset: str = Field(min_length=1, description="ruleset id, e.g. 'mcr', 'nanchang'")
    ruleset_options: dict[str, Any] = Field(default_factory=dict)
    players: Annotated[list[str], Field(min_length=4, max_length=4)]
    initial_scores: FourInts = Field(default_factory=lambda: [0, 0, 0, 0])
    source: str = ""

    @model_validator(mode="after")
    def _known_ruleset(self, info: ValidationInfo) -> GameStarted:
        # The ruleset registry's check (set_ruleset_check): this layer names no ruleset. A
        # stored game is read as stored, whatever today's registry says of it.
        if _ruleset_check is not None and not _is_stored(info):
            _ruleset_check(self.ruleset, self.ruleset_options)
        return self


class HandStarted(Payload):
    """A hand begins. ``wall`` is the full wall when the source knows it: in draw order, or —
    when the ruleset's seats have walls of their own (``wall_layout`` "per_seat") — the four
    seats' walls one after another, seat 0's first, each in the order its seat takes the
    tiles. The replayer checks deals and draws against it (``wall_mismatch``).

    Seat view: ``wall``, ``seed`` and the event's metadata are nobody's to see — every seat's
    view gets ``[]``, None and ``{}`` (the wall order would tell every hand and draw)."""

    TYPE: ClassVar[str] = "hand_started"
    PRIVATE: ClassVar[Mapping[str, Any]] = {"wall": [], "seed": None}
    PRIVATE_METADATA: ClassVar[bool] = True
    hand_number: HandNumber
    prevalent_wind: Wind
    dealer: Seat
    dice: list[Annotated[Int, Field(ge=1, le=6)]] = Field(default_factory=list)
    wall: list[Tile] = Field(default_factory=list)
    seed: str | None = None


class TilesDealt(Payload):
    """One seat's initial hand. Seat view: ``tiles`` is private to ``seat`` (``[]`` for the others)."""

    TYPE: ClassVar[str] = "tiles_dealt"
    PRIVATE: ClassVar[Mapping[str, Any]] = {"tiles": []}
    seat: Seat
    tiles: list[Tile]


class WildcardIndicatorRevealed(Payload):
    """Nanchang 精 (and other wildcard rules): the indicator tile turned up.

    ``lower_indicator``: the 下精 indicator, the tile under ``indicator`` in the same stack
    (shared/rules/nanchang.md §4.1, §11.1 开局上下翻精, §11.2 埋地雷); None when the source
    does not record it. It is not wild; only the optional §11 rules settle it."""

    TYPE: ClassVar[str] = "wildcard_indicator_revealed"
    indicator: PlayTile
    dice: list[Annotated[Int, Field(ge=1, le=6)]] = Field(default_factory=list)
    lower_indicator: PlayTile | None = None


class FlowerReplaced(Payload):
    """A flower set aside; its replacement is a following ``tile_drawn`` (flower_replacement)."""

    TYPE: ClassVar[str] = "flower_replaced"
    seat: Seat
    flower: Tile  # H1..H8, or a tile the ruleset sets aside like one (PlayRules.flower_tiles)


class TileDrawn(Payload):
    """A seat draws (from the wall, after a kong, for a flower). Seat view: ``tile`` is private
    to ``seat`` (None for the others, as when the source hides it)."""

    TYPE: ClassVar[str] = "tile_drawn"
    PRIVATE: ClassVar[Mapping[str, Any]] = {"tile": None}
    seat: Seat
    tile: Tile | None = Field(None, description="None when the source hides it")
    source: Literal["wall", "kong_replacement", "flower_replacement"] = "wall"


class TileDiscarded(Payload):
    TYPE: ClassVar[str] = "tile_discarded"
    seat: Seat
    tile: PlayTile


class Chow(Payload):
    """Chow 吃: ``tiles`` is the run (sorted), ``claimed_tile`` the discard taken."""

    TYPE: ClassVar[str] = "chow"
    seat: Seat
    tiles: Annotated[list[PlayTile], Field(min_length=3, max_length=3)]
    claimed_tile: PlayTile
    discard_seq: Seq

    @model_validator(mode="after")
    def _run(self) -> Chow:
        ts = _tiles.sort_tiles(self.tiles)
        suits = {t[0] for t in ts}
        ranks = [int(t[1]) for t in ts]
        if len(suits) != 1:
            raise ValueError(f"chow tiles are not of one suit: {self.tiles}")
        if ts[0][0] in "FJ":  # honor chows (Nanchang wind chows, 中发白): three distinct
            if len(set(ts)) != 3:
                raise ValueError(f"an honor chow needs three distinct tiles: {self.tiles}")
        elif ranks != list(range(ranks[0], ranks[0] + 3)):
            raise ValueError(f"chow tiles are not a run: {self.tiles}")
        if self.claimed_tile not in ts:
            raise ValueError(f"claimed_tile {self.claimed_tile} is not in the chow {self.tiles}")
        if list(self.tiles) != ts:
            object.__setattr__(self, "tiles", ts)
        return self


class Pung(Payload):
    TYPE: ClassVar[str] = "pung"
    seat: Seat
    tile: PlayTile
    discard_seq: Seq


class Kong(Payload):
    """Kong 杠: concealed (暗杠), melded from a discard (明杠), or added to a pung (加杠).

    Seat view: a concealed kong lies face down — its ``tile`` is private to ``seat`` (None for
    the others); a melded or added kong is shown to all. So ``tile`` is None only for a
    concealed kong, in a record that does not show it (one seat's view of another seat's
    暗杠: four tiles the recorder cannot see); a melded or added kong without it is refused."""

    TYPE: ClassVar[str] = "kong"
    PRIVATE: ClassVar[Mapping[str, Any]] = {"tile": None}
    seat: Seat
    kind: Literal["concealed", "melded", "added"]
    tile: PlayTile | None = Field(None, description="None: a concealed kong the record does not show")
    discard_seq: Seq | None = None

    def withheld_from(self, seat: int) -> Mapping[str, Any]:
        """``tile`` for a concealed kong of another seat; nothing otherwise."""
        return super().withheld_from(seat) if self.kind == "concealed" else {}

    @model_validator(mode="after")
    def _claim(self) -> Kong:
        if self.tile is None and self.kind != "concealed":
            raise ValueError(f"a {self.kind} kong is shown to every seat: its tile cannot be hidden (null)")
        if self.kind == "melded" and self.discard_seq is None:
            raise ValueError("a melded kong names the discard it claims (discard_seq)")
        if self.kind != "melded" and self.discard_seq is not None:
            raise ValueError(f"a {self.kind} kong claims no discard (discard_seq must be null)")
        return self


class Pass(Payload):
    """A player passes on a discard, or a claim that lost on priority (``claim`` says which).

    Seat view: the ``tiles`` of a lost claim never reached the table — private to ``seat``
    (``[]`` for the others)."""

    TYPE: ClassVar[str] = "pass"
    PRIVATE: ClassVar[Mapping[str, Any]] = {"tiles": []}
    seat: Seat
    discard_seq: Seq | None = None
    claim: Literal["chow", "pung", "kong", "win"] | None = None
    tiles: list[PlayTile] = Field(default_factory=list)


class WinDeclared(Payload):
    """Win 和: self-drawn (``from_seat`` null), on a discard, or robbing a kong.

    ``from_seat`` may be the winner's own seat: a source log can say that a seat declared a
    win on its own discard (e.g. as a further winner on that tile); the event records it as
    written and the replayer reports it (``claim_own_discard``, issue 13 item 7)."""

    TYPE: ClassVar[str] = "win_declared"
    seat: Seat
    tile: PlayTile
    self_drawn: bool
    from_seat: Seat | None = None
    discard_seq: Seq | None = Field(None, description="the discard, or the robbed kong event")
    robbing_kong: bool = False

    @model_validator(mode="after")
    def _source(self) -> WinDeclared:
        if self.self_drawn and (self.from_seat is not None or self.robbing_kong):
            raise ValueError("a self-drawn win has no from_seat and robs no kong")
        if not self.self_drawn and self.from_seat is None:
            raise ValueError("a win on a discard or robbed kong names from_seat")
        return self


class ExhaustiveDraw(Payload):
    """Exhaustive draw 荒庄: the wall ran out with no winner."""

    TYPE: ClassVar[str] = "exhaustive_draw"


class OpeningWin(BaseModel):
    """One opening small win as declared: the ruleset's ``kind`` and the ``tiles`` shown."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Annotated[str, Field(min_length=1, max_length=40)]
    tiles: Annotated[list[PlayTile], Field(min_length=1, max_length=14)]


class OpeningWinsDeclared(Payload):
    """Opening small wins 起手小胡 (Changsha): a seat shows tiles of its dealt hand before the
    dealer's first discard and is paid at once; play goes on."""

    TYPE: ClassVar[str] = "opening_wins_declared"
    seat: Seat
    wins: Annotated[list[OpeningWin], Field(min_length=1, max_length=8)]


class KongTilesRevealed(Payload):
    """Open kong 开杠 (Changsha): after a kong the seat rolls ``dice`` and exposes the ``tiles``
    of the stack counted from the tail of the wall, instead of one replacement draw; any seat
    may win on them (the konger's own win is self-drawn)."""

    TYPE: ClassVar[str] = "kong_tiles_revealed"
    seat: Seat
    dice: Annotated[list[Annotated[Int, Field(ge=1, le=6)]], Field(min_length=2, max_length=2)]
    tiles: Annotated[list[PlayTile], Field(min_length=1, max_length=2)]


class LastTileDeclined(Payload):
    """The last tile of the wall 海底 is offered round the table (海底漫游, Changsha): ``seat``
    does not take it; the next seat is offered it."""

    TYPE: ClassVar[str] = "last_tile_declined"
    seat: Seat


class BirdsTurned(Payload):
    """Bird tiles 扎鸟 turned after a win (Changsha): the next wall tiles (or the 海底 tile);
    each hits a seat counted by its rank and doubles what that seat pays or receives."""

    TYPE: ClassVar[str] = "birds_turned"
    tiles: Annotated[list[PlayTile], Field(max_length=8)]


class ReportedFan(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    points: Points | None = None
    count: Points = 1


class ScoreReported(Payload):
    """What the table or the source log said of a hand's score: kept, never trusted."""

    TYPE: ClassVar[str] = "score_reported"
    winner: Seat | None = None
    score_changes: FourInts | None = None
    fans: list[ReportedFan] = Field(default_factory=list)
    total: Points | None = None
    text: str = ""


class Penalty(Payload):
    """A penalty (e.g. false win 错和), as score changes per seat."""

    TYPE: ClassVar[str] = "penalty"
    seat: Seat
    score_changes: FourInts
    reason: str = ""
    rule: str = ""


RulingKind = Literal["note", "penalty", "dead_hand", "void_win", "points_removed"]


class RefereeRuling(Payload):
    """A referee's decision about an earlier event of the game (``ref_seq``), appended by a
    caller with the referee role; the log is never edited. ``kind``: ``note`` (a decision
    with no effect on scores unless ``score_changes``), ``penalty`` (罚分: ``score_changes``,
    zero-sum or awarded), ``dead_hand`` (相公: ``seat`` may not win or claim for the rest of
    the hand), ``void_win`` (the win declared at ``ref_seq`` is reversed: its settlement is
    undone), ``points_removed`` (死分: ``score_changes`` leave play). ``rule``: the rule
    applied (e.g. ``competition.md §A9``)."""

    TYPE: ClassVar[str] = "referee_ruling"
    ref_seq: Seq
    ruling: str
    score_changes: FourInts | None = None
    kind: RulingKind = "note"
    seat: Seat | None = None
    rule: str = ""


class HandEnded(Payload):
    TYPE: ClassVar[str] = "hand_ended"
    hand_number: HandNumber


class GameEnded(Payload):
    TYPE: ClassVar[str] = "game_ended"
    final_scores: FourInts | None = None


class PlayerAliased(Payload):
    """Player aliases (issue 21): ``alias`` is another spelling of ``player`` ("Player 0" and
    "Player0" are one person). Not a table event: it lives in the log's own stream
    ``paipu:players`` (eventlog/players.py), appended by ``paipu players alias``; every
    statistic counts the alias's games as the player's. Append-only: an alias is withdrawn by
    aliasing it to itself (``player == alias``)."""

    TYPE: ClassVar[str] = "player_aliased"
    alias: PlayerName
    player: PlayerName


PAYLOAD_TYPES: dict[str, type[Payload]] = {
    cls.TYPE: cls
    for cls in (
        GameStarted,
        HandStarted,
        TilesDealt,
        WildcardIndicatorRevealed,
        FlowerReplaced,
        TileDrawn,
        TileDiscarded,
        Chow,
        Pung,
        Kong,
        Pass,
        WinDeclared,
        ExhaustiveDraw,
        ScoreReported,
        Penalty,
        RefereeRuling,
        HandEnded,
        GameEnded,
        OpeningWinsDeclared,
        KongTilesRevealed,
        LastTileDeclined,
        BirdsTurned,
        PlayerAliased,
    )
}
EVENT_TYPES: tuple[str, ...] = tuple(PAYLOAD_TYPES)

# ----------------------------------------------------------------------------- ruleset events
#: A ruleset's own event type: "<ruleset id>.<name>", e.g. "sichuan.void_suit_declared".
RULESET_EVENT_TYPE = re.compile(r"^([a-z][a-z0-9_]*)\.[a-z][a-z0-9_]*$")
_RULESET_PAYLOADS: dict[str, type[Payload]] = {}
_ruleset_loader: Callable[[str], object] | None = None
_ruleset_check: Callable[[str, Mapping[str, Any]], None] | None = None


def register_payload(model: type[Payload]) -> type[Payload]:
    """Register a ruleset's own event type (a table event only that ruleset uses, such as a
    void suit declared or bird tiles turned): ``model.TYPE`` is ``"<ruleset id>.<name>"``.
    Idempotent for the same class; usable as a class decorator. Raises ValueError for a
    type that is not namespaced, is a core type, or is registered by another class."""
    t = getattr(model, "TYPE", None)
    if not isinstance(t, str) or not RULESET_EVENT_TYPE.match(t):
        raise ValueError(f"a ruleset event type is '<ruleset id>.<name>' (lower case), got {t!r}")
    old = _RULESET_PAYLOADS.get(t)
    if old is not None and old is not model:
        raise ValueError(f"event type {t!r} is already registered by {old.__qualname__}")
    _RULESET_PAYLOADS[t] = model
    return model


def set_ruleset_loader(loader: Callable[[str], object]) -> None:
    """Install how a ruleset's event types are found on first sight of one of them: the
    replayer installs a loader that imports the ruleset named by the type's namespace
    (this layer never names a ruleset)."""
    global _ruleset_loader
    _ruleset_loader = loader


def set_ruleset_check(check: Callable[[str, Mapping[str, Any]], None] | None) -> None:
    """Install how a new ``game_started`` is checked: ``check(ruleset, ruleset_options)``
    raises ValueError saying why the game cannot be played (an unknown ruleset, options its
    options model refuses). The ruleset registry installs it on import (this layer never
    names a ruleset; ``paipu`` and ``paipu serve`` import it before they parse an event), so
    every door — a file imported, ``paipu append``, gRPC Append/AppendStream/IngestLog —
    refuses such a game with the event's line or seq. Not applied to a stored event
    (``stored=True``): a game stored before is read as it is. None: no check."""
    global _ruleset_check
    _ruleset_check = check


def payload_model(type_: str) -> type[Payload] | None:
    """The payload class of event type ``type_`` (core or a ruleset's), or None."""
    cls = PAYLOAD_TYPES.get(type_) or _RULESET_PAYLOADS.get(type_)
    if cls is None and _ruleset_loader is not None:
        m = RULESET_EVENT_TYPE.match(type_)
        if m:
            try:
                _ruleset_loader(m.group(1))
            except Exception:  # noqa: BLE001 - an unknown namespace is an unknown type
                return None
            cls = _RULESET_PAYLOADS.get(type_)
    return cls


def ruleset_event_types() -> tuple[str, ...]:
    """The ruleset event types registered so far (sorted)."""
    return tuple(sorted(_RULESET_PAYLOADS))


def _unknown(type_: str) -> str:
    if RULESET_EVENT_TYPE.match(type_):
        return f"unknown event type {type_!r}: no ruleset {type_.split('.')[0]!r} declares it"
    return f"unknown event type {type_!r} (known: {', '.join(EVENT_TYPES)}, or '<ruleset>.<name>')"


class EventError(InvalidArgument):
    """A malformed event. ``field`` names the offending field (dotted path)."""


def parse_payload(type_: str, payload: dict[str, Any] | Payload, *, stored: bool = False) -> Payload:
    """Validate ``payload`` as the payload of ``type_`` (a core type, or a ruleset's own
    ``"<ruleset>.<name>"``). ``stored``: a payload read from the log — the number ranges and
    the ruleset check of a new event are not applied (a game stored before them is read as
    stored). Raises :class:`EventError`."""
    cls = payload_model(type_)
    if cls is None:
        raise EventError(_unknown(type_), "type")
    if isinstance(payload, cls):
        return payload
    if isinstance(payload, Payload):
        payload = payload.model_dump()
    return validate_payload(cls, type_, payload, stored=stored)


def validate_payload(cls: type[Payload], type_: str, data: dict[str, Any], *, stored: bool = False) -> Payload:
    """``data`` validated as ``cls``, the payload class of ``type_`` (what :func:`parse_payload`
    does once it has the class). Raises :class:`EventError` naming the field."""
    try:
        return cls.model_validate(data, context=STORED if stored else None)
    except ValidationError as e:
        loc, why = validation_problem(e, prefix=("payload",))
        raise EventError(f"{type_}: {loc}: {why}", loc) from None


# ----------------------------------------------------------------------------- upcasters
#: ``(event type, version)`` → a function turning a payload dict of that version into the
#: dict of the next version. An event stored at an older ``schema_version`` is upgraded on
#: read through the chain, so old games keep loading, replaying and verifying (their
#: hashes cover the stored text, which never changes: the log is append-only).
UPCASTERS: dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = {}


def payload_version(type_: str) -> int:
    """The current ``schema_version`` of payloads of ``type_`` (1 for an unknown type)."""
    cls = payload_model(type_)
    return cls.SCHEMA_VERSION if cls is not None else 1


def register_upcaster(
    type_: str, from_version: int
) -> Callable[[Callable[[dict[str, Any]], dict[str, Any]]], Callable[[dict[str, Any]], dict[str, Any]]]:
    """Decorator: register ``fn(payload_dict) -> payload_dict`` upgrading ``type_`` payloads
    from ``from_version`` to ``from_version + 1``. Raises ValueError for a second
    upcaster of the same step."""

    def deco(fn: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[[dict[str, Any]], dict[str, Any]]:
        key = (type_, from_version)
        if key in UPCASTERS and UPCASTERS[key] is not fn:
            raise ValueError(f"an upcaster for {type_} v{from_version} is already registered")
        UPCASTERS[key] = fn
        return fn

    return deco


def upcast(type_: str, version: int, payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` (a dict stored at ``version``) upgraded to the current version of
    ``type_`` through the registered chain (a copy; the argument is not changed). Raises
    :class:`EventError` (field ``schema_version``) for a version newer than this paipu or a
    missing step."""
    target = payload_version(type_)
    if version > target:
        raise EventError(
            f"{type_}: schema_version {version} is newer than this paipu understands ({target})", "schema_version"
        )
    while version < target:
        step = UPCASTERS.get((type_, version))
        if step is None:
            raise EventError(f"{type_}: no upcaster from schema_version {version} to {version + 1}", "schema_version")
        payload = step(dict(payload))
        version += 1
    return payload


class _Envelope(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    event_id: str
    type: str
    payload: SerializeAsAny[Payload]
    metadata: dict[str, Any] = Field(default_factory=dict)
    schema_version: Int = SCHEMA_VERSION

    @field_validator("event_id")
    @classmethod
    def _uuid(cls, v: str) -> str:
        try:
            return str(uuid.UUID(v))
        except (ValueError, AttributeError, TypeError):
            raise ValueError(f"event_id must be a UUID, got {v!r}") from None

    @model_validator(mode="before")
    @classmethod
    def _payload(cls, data: Any, info: ValidationInfo) -> Any:
        if isinstance(data, dict):
            t = data.get("type")
            p = data.get("payload", {})
            if isinstance(t, str):
                current = payload_version(t)
                v = data.get("schema_version", current)
                if isinstance(p, dict) and isinstance(v, int) and v != current:
                    p = upcast(t, v, p)  # an event written at an older version: today's shape
                stored = _is_stored(info) or issubclass(cls, StoredEvent)  # the log's event: as stored
                data = {**data, "payload": parse_payload(t, p if p is not None else {}, stored=stored),
                        "schema_version": current}
        return data

    def payload_json(self) -> dict[str, Any]:
        return self.payload.model_dump(mode="json")

    def model_dump_json_dict(self) -> dict[str, Any]:
        d = self.model_dump(mode="json")
        d["payload"] = self.payload_json()
        return d


class NewEvent(_Envelope):
    """An event as a client appends it (no seq/position/hash yet)."""

    @classmethod
    def of(
        cls,
        payload: Payload,
        *,
        event_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        id_seed: str | None = None,
        game_seq: tuple[str, int] | None = None,
    ) -> NewEvent:
        """Build an event around ``payload``. A deterministic id, so making the same events
        again gives the same ids (idempotent): ``game_seq=(game_id, seq)`` gives the id a
        game's event gets from the importers and the simulator (:func:`game_event_id`),
        ``id_seed`` a UUID v5 of any text (:func:`uuid5_text`); neither: a random UUID v4."""
        if event_id is None:
            if game_seq is not None:
                event_id = game_event_id(*game_seq)
            else:
                event_id = uuid5_text(id_seed) if id_seed else str(uuid.uuid4())
            if type(payload) is payload_model(payload.TYPE) and (metadata is None or type(metadata) is dict):
                # every field is valid by construction (a canonical UUID we made, a payload
                # model instance of its type, a dict): no second validation pass
                return construct(cls, {
                    "event_id": event_id, "type": payload.TYPE, "payload": payload,
                    "metadata": metadata if metadata is not None else {},
                    "schema_version": type(payload).SCHEMA_VERSION,
                })
        return cls(
            event_id=event_id, type=payload.TYPE, payload=payload, metadata=metadata or {},
            schema_version=type(payload).SCHEMA_VERSION,
        )


class StoredEvent(_Envelope):
    """An event as stored: envelope + game_id, seq, position, recorded_at and hash chain."""

    game_id: str
    seq: int
    position: int
    recorded_at: str = ""
    prev_hash: str = GENESIS_HASH
    hash: str = ""


_NAMESPACE = uuid.UUID("6b1c3f4e-2d4a-5a3b-9c1e-70616970752e")
_NAMESPACE_BYTES = _NAMESPACE.bytes


def uuid5_text(seed: str) -> str:
    """``str(uuid.uuid5(namespace, seed))`` of the importers' namespace, without building
    UUID objects (RFC 4122 §4.3: SHA-1 of namespace + name, version 5, variant bits)."""
    h = bytearray(hashlib.sha1(_NAMESPACE_BYTES + seed.encode()).digest()[:16])
    h[6] = (h[6] & 0x0F) | 0x50
    h[8] = (h[8] & 0x3F) | 0x80
    x = h.hex()
    return f"{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:]}"


#: The hex digit of byte 8's high nibble once the RFC 9562 variant bits (``10``) are set.
_VARIANT_DIGIT = {d: "89ab"[int(d, 16) & 3] for d in "0123456789abcdef"}
_SEQ_LIMIT = 1 << 32


def game_event_ids(game_id: str, count: int, start: int = 0) -> list[str]:
    """The ids of the events ``start … start + count - 1`` of the game ``game_id`` as the
    importers and the simulator give them: UUID version 8 (RFC 9562 §5.8) whose first 90
    free bits are the SHA-1 of the importers' namespace + ``"<game id>/"`` and whose last
    32 bits are the seq (8 hex digits), e.g. ``…-4a1c0000002a`` for seq 42.

    Deterministic, so importing the same file twice gives the same ids and the store's
    idempotent append makes the second import a no-op. A game's ids sort together and in
    seq order, so a bulk import writes the store's event-id index in one run per game
    instead of at one random place per event (a random id per event made a 100,000-game
    import re-read index pages: 3× slower at 30,000 games; docs/events.md "Event ids").
    Games stored before keep their UUID v5 ids (:func:`uuid5_text` of ``"<game id>/<seq>"``).

    Raises ``ValueError`` for a seq outside ``0 … 2**32 - 1``.
    """
    if start < 0 or start + count > _SEQ_LIMIT:
        raise ValueError(f"event seq {start}..{start + count - 1} outside 0..{_SEQ_LIMIT - 1}")
    x = hashlib.sha1(_NAMESPACE_BYTES + f"{game_id}/".encode()).hexdigest()
    head = f"{x[:8]}-{x[8:12]}-8{x[13:16]}-{_VARIANT_DIGIT[x[16]]}{x[17:20]}-{x[20:24]}"
    if start + count <= len(_SEQ_HEX):
        return [head + x for x in _SEQ_HEX[start : start + count]]
    return [f"{head}{seq:08x}" for seq in range(start, start + count)]


#: ``f"{seq:08x}"`` of the seqs a game mostly has, written once (the end of each event id).
_SEQ_HEX = [f"{seq:08x}" for seq in range(1024)]


def game_event_id(game_id: str, seq: int) -> str:
    """:func:`game_event_ids` of one event."""
    return game_event_ids(game_id, 1, seq)[0]


_FIELDS_SET: dict[type, frozenset[str]] = {}


def construct(cls: type[_M], values: dict[str, Any]) -> _M:
    """An instance of the pydantic model ``cls`` from ``values`` that are already valid
    (every field given), without validation: what ``cls.model_construct(**values)`` gives
    (same ``__dict__``, fields set, no extra, no private), at about half its cost — the hot
    path of reading and importing events. ``values`` becomes the instance's ``__dict__``."""
    fields = _FIELDS_SET.get(cls)
    if fields is None:
        fields = _FIELDS_SET[cls] = frozenset(cls.model_fields)
    obj = cls.__new__(cls)
    _set = object.__setattr__
    _set(obj, "__dict__", values)
    _set(obj, "__pydantic_fields_set__", set(fields))  # the instance's own (model_copy updates it)
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj


_NEW_EVENT_FIELDS = frozenset(NewEvent.model_fields)


def parse_event(data: dict[str, Any] | str, *, stored: bool = False) -> NewEvent:
    """Parse one JSON object (or JSON text) as a :class:`NewEvent`; extra stored-envelope
    fields (seq, position, hashes …) are ignored. ``stored``: an event the log holds (read
    back, e.g. off the wire), parsed as :func:`parse_payload` parses a stored payload.
    Raises :class:`EventError`."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as e:
            raise EventError(json_error(e)) from None
    if not isinstance(data, dict):
        raise EventError("an event is a JSON object")
    keep = {k: v for k, v in data.items() if k in _NEW_EVENT_FIELDS}
    if "event_id" not in keep:
        raise EventError("event_id is required", "event_id")
    if "type" not in keep:
        raise EventError("type is required", "type")
    if not isinstance(keep["type"], str):
        raise EventError("type must be a string", "type")
    payload = keep.get("payload") or {}
    if not isinstance(payload, dict):
        raise EventError("payload must be a JSON object", "payload")
    version = keep.get("schema_version", payload_version(keep["type"]))
    if isinstance(version, int) and not isinstance(version, bool) and version != payload_version(keep["type"]):
        payload = upcast(keep["type"], version, payload)
        keep["schema_version"] = payload_version(keep["type"])
    keep["payload"] = parse_payload(keep["type"], payload, stored=stored)
    fast = _checked_envelope(keep)
    if fast is not None:
        return fast
    try:
        return NewEvent.model_validate(keep)
    except EventError:
        raise
    except ValidationError as e:
        loc, why = validation_problem(e)
        raise EventError(f"{loc}: {why}" if loc else why, loc) from None


_CANONICAL_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _checked_envelope(keep: dict[str, Any]) -> NewEvent | None:
    """The :class:`NewEvent` of ``keep`` (its payload already validated by
    :func:`parse_payload`) without a second validation pass, when every envelope field is
    plainly valid: a canonical UUID (what the validator would return unchanged), a dict of
    string keys as metadata, an int schema version (the envelope takes the payload type's
    current one). None: let the model validate it (and name what is wrong)."""
    eid, meta, version = keep["event_id"], keep.get("metadata", {}), keep.get("schema_version", 0)
    if (type(eid) is not str or not _CANONICAL_UUID.fullmatch(eid) or type(meta) is not dict
            or type(version) is not int or not all(type(k) is str for k in meta)):
        return None
    return construct(NewEvent, {
        "event_id": eid, "type": keep["type"], "payload": keep["payload"], "metadata": dict(meta),
        "schema_version": payload_version(keep["type"]),
    })


def expected_hash(ev: StoredEvent) -> str:
    """Recompute the hash a stored event should carry (for verification)."""
    return chain_hash(
        ev.prev_hash,
        game_id=ev.game_id,
        seq=ev.seq,
        event_id=ev.event_id,
        type_=ev.type,
        schema_version=ev.schema_version,
        payload=ev.payload_json(),
        metadata=ev.metadata,
        recorded_at=ev.recorded_at,
    )


def provisional_hash(prev_hash: str, event: Any, seq: int) -> str:
    """The chain link (:func:`chain_hash`) of an event that is not stored yet (a
    :class:`NewEvent` or any object with ``type`` and ``payload``): no game, no commit
    time. A content key, e.g. for the replayer's snapshot cache; never a stored hash."""
    return chain_hash(
        prev_hash,
        game_id="",
        seq=seq,
        event_id=getattr(event, "event_id", ""),
        type_=event.type,
        schema_version=getattr(event, "schema_version", SCHEMA_VERSION),
        payload=event.payload.model_dump(mode="json"),
        metadata=dict(getattr(event, "metadata", {}) or {}),
        recorded_at="",
    )
