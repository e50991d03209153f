from google.protobuf import any_pb2 as _any_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TileSource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TILE_SOURCE_UNSPECIFIED: _ClassVar[TileSource]
    TILE_SOURCE_WALL: _ClassVar[TileSource]
    TILE_SOURCE_KONG_REPLACEMENT: _ClassVar[TileSource]
    TILE_SOURCE_FLOWER_REPLACEMENT: _ClassVar[TileSource]

class KongKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KONG_KIND_UNSPECIFIED: _ClassVar[KongKind]
    KONG_KIND_CONCEALED: _ClassVar[KongKind]
    KONG_KIND_MELDED: _ClassVar[KongKind]
    KONG_KIND_ADDED: _ClassVar[KongKind]

class ClaimKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CLAIM_KIND_UNSPECIFIED: _ClassVar[ClaimKind]
    CLAIM_KIND_CHOW: _ClassVar[ClaimKind]
    CLAIM_KIND_PUNG: _ClassVar[ClaimKind]
    CLAIM_KIND_KONG: _ClassVar[ClaimKind]
    CLAIM_KIND_WIN: _ClassVar[ClaimKind]

class RulingKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RULING_KIND_UNSPECIFIED: _ClassVar[RulingKind]
    RULING_KIND_NOTE: _ClassVar[RulingKind]
    RULING_KIND_PENALTY: _ClassVar[RulingKind]
    RULING_KIND_DEAD_HAND: _ClassVar[RulingKind]
    RULING_KIND_VOID_WIN: _ClassVar[RulingKind]
    RULING_KIND_POINTS_REMOVED: _ClassVar[RulingKind]
TILE_SOURCE_UNSPECIFIED: TileSource
TILE_SOURCE_WALL: TileSource
TILE_SOURCE_KONG_REPLACEMENT: TileSource
TILE_SOURCE_FLOWER_REPLACEMENT: TileSource
KONG_KIND_UNSPECIFIED: KongKind
KONG_KIND_CONCEALED: KongKind
KONG_KIND_MELDED: KongKind
KONG_KIND_ADDED: KongKind
CLAIM_KIND_UNSPECIFIED: ClaimKind
CLAIM_KIND_CHOW: ClaimKind
CLAIM_KIND_PUNG: ClaimKind
CLAIM_KIND_KONG: ClaimKind
CLAIM_KIND_WIN: ClaimKind
RULING_KIND_UNSPECIFIED: RulingKind
RULING_KIND_NOTE: RulingKind
RULING_KIND_PENALTY: RulingKind
RULING_KIND_DEAD_HAND: RulingKind
RULING_KIND_VOID_WIN: RulingKind
RULING_KIND_POINTS_REMOVED: RulingKind

class Event(_message.Message):
    __slots__ = ("event_id", "schema_version", "metadata_json", "game_started", "hand_started", "tiles_dealt", "wildcard_indicator_revealed", "flower_replaced", "tile_drawn", "tile_discarded", "chow", "pung", "kong", "win_declared", "exhaustive_draw", "score_reported", "penalty", "referee_ruling", "hand_ended", "game_ended", "opening_wins_declared", "kong_tiles_revealed", "last_tile_declined", "birds_turned", "player_aliased", "ruleset_event")
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    METADATA_JSON_FIELD_NUMBER: _ClassVar[int]
    GAME_STARTED_FIELD_NUMBER: _ClassVar[int]
    HAND_STARTED_FIELD_NUMBER: _ClassVar[int]
    TILES_DEALT_FIELD_NUMBER: _ClassVar[int]
    WILDCARD_INDICATOR_REVEALED_FIELD_NUMBER: _ClassVar[int]
    FLOWER_REPLACED_FIELD_NUMBER: _ClassVar[int]
    TILE_DRAWN_FIELD_NUMBER: _ClassVar[int]
    TILE_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    CHOW_FIELD_NUMBER: _ClassVar[int]
    PUNG_FIELD_NUMBER: _ClassVar[int]
    KONG_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    WIN_DECLARED_FIELD_NUMBER: _ClassVar[int]
    EXHAUSTIVE_DRAW_FIELD_NUMBER: _ClassVar[int]
    SCORE_REPORTED_FIELD_NUMBER: _ClassVar[int]
    PENALTY_FIELD_NUMBER: _ClassVar[int]
    REFEREE_RULING_FIELD_NUMBER: _ClassVar[int]
    HAND_ENDED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    OPENING_WINS_DECLARED_FIELD_NUMBER: _ClassVar[int]
    KONG_TILES_REVEALED_FIELD_NUMBER: _ClassVar[int]
    LAST_TILE_DECLINED_FIELD_NUMBER: _ClassVar[int]
    BIRDS_TURNED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ALIASED_FIELD_NUMBER: _ClassVar[int]
    RULESET_EVENT_FIELD_NUMBER: _ClassVar[int]
    event_id: str
    schema_version: int
    metadata_json: str
    game_started: GameStarted
    hand_started: HandStarted
    tiles_dealt: TilesDealt
    wildcard_indicator_revealed: WildcardIndicatorRevealed
    flower_replaced: FlowerReplaced
    tile_drawn: TileDrawn
    tile_discarded: TileDiscarded
    chow: Chow
    pung: Pung
    kong: Kong
    win_declared: WinDeclared
    exhaustive_draw: ExhaustiveDraw
    score_reported: ScoreReported
    penalty: Penalty
    referee_ruling: RefereeRuling
    hand_ended: HandEnded
    game_ended: GameEnded
    opening_wins_declared: OpeningWinsDeclared
    kong_tiles_revealed: KongTilesRevealed
    last_tile_declined: LastTileDeclined
    birds_turned: BirdsTurned
    player_aliased: PlayerAliased
    ruleset_event: RulesetEvent
    def __init__(self, event_id: _Optional[str] = ..., schema_version: _Optional[int] = ..., metadata_json: _Optional[str] = ..., game_started: _Optional[_Union[GameStarted, _Mapping]] = ..., hand_started: _Optional[_Union[HandStarted, _Mapping]] = ..., tiles_dealt: _Optional[_Union[TilesDealt, _Mapping]] = ..., wildcard_indicator_revealed: _Optional[_Union[WildcardIndicatorRevealed, _Mapping]] = ..., flower_replaced: _Optional[_Union[FlowerReplaced, _Mapping]] = ..., tile_drawn: _Optional[_Union[TileDrawn, _Mapping]] = ..., tile_discarded: _Optional[_Union[TileDiscarded, _Mapping]] = ..., chow: _Optional[_Union[Chow, _Mapping]] = ..., pung: _Optional[_Union[Pung, _Mapping]] = ..., kong: _Optional[_Union[Kong, _Mapping]] = ..., win_declared: _Optional[_Union[WinDeclared, _Mapping]] = ..., exhaustive_draw: _Optional[_Union[ExhaustiveDraw, _Mapping]] = ..., score_reported: _Optional[_Union[ScoreReported, _Mapping]] = ..., penalty: _Optional[_Union[Penalty, _Mapping]] = ..., referee_ruling: _Optional[_Union[RefereeRuling, _Mapping]] = ..., hand_ended: _Optional[_Union[HandEnded, _Mapping]] = ..., game_ended: _Optional[_Union[GameEnded, _Mapping]] = ..., opening_wins_declared: _Optional[_Union[OpeningWinsDeclared, _Mapping]] = ..., kong_tiles_revealed: _Optional[_Union[KongTilesRevealed, _Mapping]] = ..., last_tile_declined: _Optional[_Union[LastTileDeclined, _Mapping]] = ..., birds_turned: _Optional[_Union[BirdsTurned, _Mapping]] = ..., player_aliased: _Optional[_Union[PlayerAliased, _Mapping]] = ..., ruleset_event: _Optional[_Union[RulesetEvent, _Mapping]] = ..., **kwargs) -> None: ...

class RecordedEvent(_message.Message):
    __slots__ = ("event", "game_id", "seq", "position", "recorded_at", "prev_hash", "hash", "stored_type", "stored_payload_json")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    RECORDED_AT_FIELD_NUMBER: _ClassVar[int]
    PREV_HASH_FIELD_NUMBER: _ClassVar[int]
    HASH_FIELD_NUMBER: _ClassVar[int]
    STORED_TYPE_FIELD_NUMBER: _ClassVar[int]
    STORED_PAYLOAD_JSON_FIELD_NUMBER: _ClassVar[int]
    event: Event
    game_id: str
    seq: int
    position: int
    recorded_at: str
    prev_hash: str
    hash: str
    stored_type: str
    stored_payload_json: str
    def __init__(self, event: _Optional[_Union[Event, _Mapping]] = ..., game_id: _Optional[str] = ..., seq: _Optional[int] = ..., position: _Optional[int] = ..., recorded_at: _Optional[str] = ..., prev_hash: _Optional[str] = ..., hash: _Optional[str] = ..., stored_type: _Optional[str] = ..., stored_payload_json: _Optional[str] = ...) -> None: ...

class SeatScores(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, values: _Optional[_Iterable[int]] = ...) -> None: ...

class GameStarted(_message.Message):
    __slots__ = ("ruleset", "ruleset_options_json", "players", "initial_scores", "source")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    RULESET_OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    INITIAL_SCORES_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    ruleset_options_json: str
    players: _containers.RepeatedScalarFieldContainer[str]
    initial_scores: _containers.RepeatedScalarFieldContainer[int]
    source: str
    def __init__(self, ruleset: _Optional[str] = ..., ruleset_options_json: _Optional[str] = ..., players: _Optional[_Iterable[str]] = ..., initial_scores: _Optional[_Iterable[int]] = ..., source: _Optional[str] = ...) -> None: ...

class HandStarted(_message.Message):
    __slots__ = ("hand_number", "prevalent_wind", "dealer", "dice", "wall", "seed")
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    PREVALENT_WIND_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    WALL_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    hand_number: int
    prevalent_wind: str
    dealer: int
    dice: _containers.RepeatedScalarFieldContainer[int]
    wall: _containers.RepeatedScalarFieldContainer[str]
    seed: str
    def __init__(self, hand_number: _Optional[int] = ..., prevalent_wind: _Optional[str] = ..., dealer: _Optional[int] = ..., dice: _Optional[_Iterable[int]] = ..., wall: _Optional[_Iterable[str]] = ..., seed: _Optional[str] = ...) -> None: ...

class TilesDealt(_message.Message):
    __slots__ = ("seat", "tiles")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    tiles: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., tiles: _Optional[_Iterable[str]] = ...) -> None: ...

class WildcardIndicatorRevealed(_message.Message):
    __slots__ = ("indicator", "dice", "lower_indicator")
    INDICATOR_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    LOWER_INDICATOR_FIELD_NUMBER: _ClassVar[int]
    indicator: str
    dice: _containers.RepeatedScalarFieldContainer[int]
    lower_indicator: str
    def __init__(self, indicator: _Optional[str] = ..., dice: _Optional[_Iterable[int]] = ..., lower_indicator: _Optional[str] = ...) -> None: ...

class FlowerReplaced(_message.Message):
    __slots__ = ("seat", "flower")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FLOWER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    flower: str
    def __init__(self, seat: _Optional[int] = ..., flower: _Optional[str] = ...) -> None: ...

class TileDrawn(_message.Message):
    __slots__ = ("seat", "tile", "source")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    tile: str
    source: TileSource
    def __init__(self, seat: _Optional[int] = ..., tile: _Optional[str] = ..., source: _Optional[_Union[TileSource, str]] = ...) -> None: ...

class TileDiscarded(_message.Message):
    __slots__ = ("seat", "tile")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    tile: str
    def __init__(self, seat: _Optional[int] = ..., tile: _Optional[str] = ...) -> None: ...

class Chow(_message.Message):
    __slots__ = ("seat", "tiles", "claimed_tile", "discard_seq")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_TILE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_SEQ_FIELD_NUMBER: _ClassVar[int]
    seat: int
    tiles: _containers.RepeatedScalarFieldContainer[str]
    claimed_tile: str
    discard_seq: int
    def __init__(self, seat: _Optional[int] = ..., tiles: _Optional[_Iterable[str]] = ..., claimed_tile: _Optional[str] = ..., discard_seq: _Optional[int] = ...) -> None: ...

class Pung(_message.Message):
    __slots__ = ("seat", "tile", "discard_seq")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_SEQ_FIELD_NUMBER: _ClassVar[int]
    seat: int
    tile: str
    discard_seq: int
    def __init__(self, seat: _Optional[int] = ..., tile: _Optional[str] = ..., discard_seq: _Optional[int] = ...) -> None: ...

class Kong(_message.Message):
    __slots__ = ("seat", "kind", "tile", "discard_seq")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_SEQ_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: KongKind
    tile: str
    discard_seq: int
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[KongKind, str]] = ..., tile: _Optional[str] = ..., discard_seq: _Optional[int] = ...) -> None: ...

class Pass(_message.Message):
    __slots__ = ("seat", "discard_seq", "claim", "tiles")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_SEQ_FIELD_NUMBER: _ClassVar[int]
    CLAIM_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    discard_seq: int
    claim: ClaimKind
    tiles: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., discard_seq: _Optional[int] = ..., claim: _Optional[_Union[ClaimKind, str]] = ..., tiles: _Optional[_Iterable[str]] = ...) -> None: ...

class WinDeclared(_message.Message):
    __slots__ = ("seat", "tile", "self_drawn", "from_seat", "discard_seq", "robbing_kong")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    SELF_DRAWN_FIELD_NUMBER: _ClassVar[int]
    FROM_SEAT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_SEQ_FIELD_NUMBER: _ClassVar[int]
    ROBBING_KONG_FIELD_NUMBER: _ClassVar[int]
    seat: int
    tile: str
    self_drawn: bool
    from_seat: int
    discard_seq: int
    robbing_kong: bool
    def __init__(self, seat: _Optional[int] = ..., tile: _Optional[str] = ..., self_drawn: _Optional[bool] = ..., from_seat: _Optional[int] = ..., discard_seq: _Optional[int] = ..., robbing_kong: _Optional[bool] = ...) -> None: ...

class ExhaustiveDraw(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ReportedFan(_message.Message):
    __slots__ = ("name", "points", "count")
    NAME_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    name: str
    points: int
    count: int
    def __init__(self, name: _Optional[str] = ..., points: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class ScoreReported(_message.Message):
    __slots__ = ("winner", "score_changes", "fans", "total", "text")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    SCORE_CHANGES_FIELD_NUMBER: _ClassVar[int]
    FANS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    winner: int
    score_changes: SeatScores
    fans: _containers.RepeatedCompositeFieldContainer[ReportedFan]
    total: int
    text: str
    def __init__(self, winner: _Optional[int] = ..., score_changes: _Optional[_Union[SeatScores, _Mapping]] = ..., fans: _Optional[_Iterable[_Union[ReportedFan, _Mapping]]] = ..., total: _Optional[int] = ..., text: _Optional[str] = ...) -> None: ...

class Penalty(_message.Message):
    __slots__ = ("seat", "score_changes", "reason", "rule")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SCORE_CHANGES_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    score_changes: _containers.RepeatedScalarFieldContainer[int]
    reason: str
    rule: str
    def __init__(self, seat: _Optional[int] = ..., score_changes: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ..., rule: _Optional[str] = ...) -> None: ...

class RefereeRuling(_message.Message):
    __slots__ = ("ref_seq", "ruling", "score_changes", "kind", "seat", "rule")
    REF_SEQ_FIELD_NUMBER: _ClassVar[int]
    RULING_FIELD_NUMBER: _ClassVar[int]
    SCORE_CHANGES_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    ref_seq: int
    ruling: str
    score_changes: SeatScores
    kind: RulingKind
    seat: int
    rule: str
    def __init__(self, ref_seq: _Optional[int] = ..., ruling: _Optional[str] = ..., score_changes: _Optional[_Union[SeatScores, _Mapping]] = ..., kind: _Optional[_Union[RulingKind, str]] = ..., seat: _Optional[int] = ..., rule: _Optional[str] = ...) -> None: ...

class HandEnded(_message.Message):
    __slots__ = ("hand_number",)
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    hand_number: int
    def __init__(self, hand_number: _Optional[int] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("final_scores",)
    FINAL_SCORES_FIELD_NUMBER: _ClassVar[int]
    final_scores: SeatScores
    def __init__(self, final_scores: _Optional[_Union[SeatScores, _Mapping]] = ...) -> None: ...

class OpeningWin(_message.Message):
    __slots__ = ("kind", "tiles")
    KIND_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    kind: str
    tiles: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, kind: _Optional[str] = ..., tiles: _Optional[_Iterable[str]] = ...) -> None: ...

class OpeningWinsDeclared(_message.Message):
    __slots__ = ("seat", "wins")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    wins: _containers.RepeatedCompositeFieldContainer[OpeningWin]
    def __init__(self, seat: _Optional[int] = ..., wins: _Optional[_Iterable[_Union[OpeningWin, _Mapping]]] = ...) -> None: ...

class KongTilesRevealed(_message.Message):
    __slots__ = ("seat", "dice", "tiles")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    dice: _containers.RepeatedScalarFieldContainer[int]
    tiles: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., dice: _Optional[_Iterable[int]] = ..., tiles: _Optional[_Iterable[str]] = ...) -> None: ...

class LastTileDeclined(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class BirdsTurned(_message.Message):
    __slots__ = ("tiles",)
    TILES_FIELD_NUMBER: _ClassVar[int]
    tiles: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, tiles: _Optional[_Iterable[str]] = ...) -> None: ...

class PlayerAliased(_message.Message):
    __slots__ = ("alias", "player")
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    alias: str
    player: str
    def __init__(self, alias: _Optional[str] = ..., player: _Optional[str] = ...) -> None: ...

class RulesetEvent(_message.Message):
    __slots__ = ("type", "payload")
    TYPE_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    type: str
    payload: _any_pb2.Any
    def __init__(self, type: _Optional[str] = ..., payload: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...
