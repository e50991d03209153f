from paipu.v1 import events_pb2 as _events_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_PREGAME: _ClassVar[Phase]
    PHASE_IDLE: _ClassVar[Phase]
    PHASE_DEALING: _ClassVar[Phase]
    PHASE_DISCARD: _ClassVar[Phase]
    PHASE_CLAIMS: _ClassVar[Phase]
    PHASE_REPLACEMENT: _ClassVar[Phase]
    PHASE_ROBBING: _ClassVar[Phase]
    PHASE_HAND_OVER: _ClassVar[Phase]
    PHASE_GAME_OVER: _ClassVar[Phase]

class MeldKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MELD_KIND_UNSPECIFIED: _ClassVar[MeldKind]
    MELD_KIND_CHOW: _ClassVar[MeldKind]
    MELD_KIND_PUNG: _ClassVar[MeldKind]
    MELD_KIND_KONG: _ClassVar[MeldKind]
PHASE_UNSPECIFIED: Phase
PHASE_PREGAME: Phase
PHASE_IDLE: Phase
PHASE_DEALING: Phase
PHASE_DISCARD: Phase
PHASE_CLAIMS: Phase
PHASE_REPLACEMENT: Phase
PHASE_ROBBING: Phase
PHASE_HAND_OVER: Phase
PHASE_GAME_OVER: Phase
MELD_KIND_UNSPECIFIED: MeldKind
MELD_KIND_CHOW: MeldKind
MELD_KIND_PUNG: MeldKind
MELD_KIND_KONG: MeldKind

class GetStateRequest(_message.Message):
    __slots__ = ("game_id", "seq", "seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seq: int
    seat: int
    def __init__(self, game_id: _Optional[str] = ..., seq: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...

class GetStateResponse(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: TableState
    def __init__(self, state: _Optional[_Union[TableState, _Mapping]] = ...) -> None: ...

class StepThroughRequest(_message.Message):
    __slots__ = ("game_id", "from_seq", "to_seq", "seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_SEQ_FIELD_NUMBER: _ClassVar[int]
    TO_SEQ_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    from_seq: int
    to_seq: int
    seat: int
    def __init__(self, game_id: _Optional[str] = ..., from_seq: _Optional[int] = ..., to_seq: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...

class StepThroughResponse(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: TableState
    def __init__(self, state: _Optional[_Union[TableState, _Mapping]] = ...) -> None: ...

class VerifyRequest(_message.Message):
    __slots__ = ("game_id", "as_ruleset", "options_json")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    AS_RULESET_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    as_ruleset: str
    options_json: str
    def __init__(self, game_id: _Optional[str] = ..., as_ruleset: _Optional[str] = ..., options_json: _Optional[str] = ...) -> None: ...

class VerifyResponse(_message.Message):
    __slots__ = ("game_id", "ok", "chain", "audit", "what_if", "truncated")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    OK_FIELD_NUMBER: _ClassVar[int]
    CHAIN_FIELD_NUMBER: _ClassVar[int]
    AUDIT_FIELD_NUMBER: _ClassVar[int]
    WHAT_IF_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    ok: bool
    chain: ChainReport
    audit: GameAudit
    what_if: WhatIfComparison
    truncated: bool
    def __init__(self, game_id: _Optional[str] = ..., ok: _Optional[bool] = ..., chain: _Optional[_Union[ChainReport, _Mapping]] = ..., audit: _Optional[_Union[GameAudit, _Mapping]] = ..., what_if: _Optional[_Union[WhatIfComparison, _Mapping]] = ..., truncated: _Optional[bool] = ...) -> None: ...

class VerifyLogRequest(_message.Message):
    __slots__ = ("problems_only",)
    PROBLEMS_ONLY_FIELD_NUMBER: _ClassVar[int]
    problems_only: bool
    def __init__(self, problems_only: _Optional[bool] = ...) -> None: ...

class VerifyLogResponse(_message.Message):
    __slots__ = ("game", "summary")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    game: GameVerdict
    summary: VerifyLogSummary
    def __init__(self, game: _Optional[_Union[GameVerdict, _Mapping]] = ..., summary: _Optional[_Union[VerifyLogSummary, _Mapping]] = ...) -> None: ...

class GameVerdict(_message.Message):
    __slots__ = ("game_id", "ok", "chain_ok", "events", "first_bad_seq", "chain_reason", "replayed", "ruleset", "findings_total", "findings_by_rule", "disagreements")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    OK_FIELD_NUMBER: _ClassVar[int]
    CHAIN_OK_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    FIRST_BAD_SEQ_FIELD_NUMBER: _ClassVar[int]
    CHAIN_REASON_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_TOTAL_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_BY_RULE_FIELD_NUMBER: _ClassVar[int]
    DISAGREEMENTS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    ok: bool
    chain_ok: bool
    events: int
    first_bad_seq: int
    chain_reason: str
    replayed: bool
    ruleset: str
    findings_total: int
    findings_by_rule: _containers.RepeatedCompositeFieldContainer[RuleCount]
    disagreements: int
    def __init__(self, game_id: _Optional[str] = ..., ok: _Optional[bool] = ..., chain_ok: _Optional[bool] = ..., events: _Optional[int] = ..., first_bad_seq: _Optional[int] = ..., chain_reason: _Optional[str] = ..., replayed: _Optional[bool] = ..., ruleset: _Optional[str] = ..., findings_total: _Optional[int] = ..., findings_by_rule: _Optional[_Iterable[_Union[RuleCount, _Mapping]]] = ..., disagreements: _Optional[int] = ...) -> None: ...

class LogStreamVerdict(_message.Message):
    __slots__ = ("stream", "chain_ok", "events", "first_bad_seq", "chain_reason", "not_belonging")
    STREAM_FIELD_NUMBER: _ClassVar[int]
    CHAIN_OK_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    FIRST_BAD_SEQ_FIELD_NUMBER: _ClassVar[int]
    CHAIN_REASON_FIELD_NUMBER: _ClassVar[int]
    NOT_BELONGING_FIELD_NUMBER: _ClassVar[int]
    stream: str
    chain_ok: bool
    events: int
    first_bad_seq: int
    chain_reason: str
    not_belonging: int
    def __init__(self, stream: _Optional[str] = ..., chain_ok: _Optional[bool] = ..., events: _Optional[int] = ..., first_bad_seq: _Optional[int] = ..., chain_reason: _Optional[str] = ..., not_belonging: _Optional[int] = ...) -> None: ...

class LogVerdict(_message.Message):
    __slots__ = ("ok", "events", "head", "checkpoint", "problems")
    OK_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    HEAD_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    PROBLEMS_FIELD_NUMBER: _ClassVar[int]
    ok: bool
    events: int
    head: int
    checkpoint: int
    problems: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ok: _Optional[bool] = ..., events: _Optional[int] = ..., head: _Optional[int] = ..., checkpoint: _Optional[int] = ..., problems: _Optional[_Iterable[str]] = ...) -> None: ...

class VerifyLogSummary(_message.Message):
    __slots__ = ("games", "intact", "chains_intact", "broken_chains", "with_findings", "log_damaged", "verdict", "log", "log_streams")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    INTACT_FIELD_NUMBER: _ClassVar[int]
    CHAINS_INTACT_FIELD_NUMBER: _ClassVar[int]
    BROKEN_CHAINS_FIELD_NUMBER: _ClassVar[int]
    WITH_FINDINGS_FIELD_NUMBER: _ClassVar[int]
    LOG_DAMAGED_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    LOG_FIELD_NUMBER: _ClassVar[int]
    LOG_STREAMS_FIELD_NUMBER: _ClassVar[int]
    games: int
    intact: int
    chains_intact: int
    broken_chains: int
    with_findings: int
    log_damaged: bool
    verdict: str
    log: LogVerdict
    log_streams: _containers.RepeatedCompositeFieldContainer[LogStreamVerdict]
    def __init__(self, games: _Optional[int] = ..., intact: _Optional[int] = ..., chains_intact: _Optional[int] = ..., broken_chains: _Optional[int] = ..., with_findings: _Optional[int] = ..., log_damaged: _Optional[bool] = ..., verdict: _Optional[str] = ..., log: _Optional[_Union[LogVerdict, _Mapping]] = ..., log_streams: _Optional[_Iterable[_Union[LogStreamVerdict, _Mapping]]] = ...) -> None: ...

class OptionChange(_message.Message):
    __slots__ = ("name", "before", "after", "meaning", "source")
    NAME_FIELD_NUMBER: _ClassVar[int]
    BEFORE_FIELD_NUMBER: _ClassVar[int]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    MEANING_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    name: str
    before: str
    after: str
    meaning: str
    source: str
    def __init__(self, name: _Optional[str] = ..., before: _Optional[str] = ..., after: _Optional[str] = ..., meaning: _Optional[str] = ..., source: _Optional[str] = ...) -> None: ...

class FanDifference(_message.Message):
    __slots__ = ("id", "name_en", "name_zh", "before", "after", "source")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_EN_FIELD_NUMBER: _ClassVar[int]
    NAME_ZH_FIELD_NUMBER: _ClassVar[int]
    BEFORE_FIELD_NUMBER: _ClassVar[int]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name_en: str
    name_zh: str
    before: str
    after: str
    source: str
    def __init__(self, id: _Optional[str] = ..., name_en: _Optional[str] = ..., name_zh: _Optional[str] = ..., before: _Optional[str] = ..., after: _Optional[str] = ..., source: _Optional[str] = ...) -> None: ...

class WinComparison(_message.Message):
    __slots__ = ("seq", "hand_number", "seat", "tile", "legal_before", "legal_after", "points_before", "points_after", "changes_before", "changes_after", "fans", "reasons_before", "reasons_after", "differs")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    LEGAL_BEFORE_FIELD_NUMBER: _ClassVar[int]
    LEGAL_AFTER_FIELD_NUMBER: _ClassVar[int]
    POINTS_BEFORE_FIELD_NUMBER: _ClassVar[int]
    POINTS_AFTER_FIELD_NUMBER: _ClassVar[int]
    CHANGES_BEFORE_FIELD_NUMBER: _ClassVar[int]
    CHANGES_AFTER_FIELD_NUMBER: _ClassVar[int]
    FANS_FIELD_NUMBER: _ClassVar[int]
    REASONS_BEFORE_FIELD_NUMBER: _ClassVar[int]
    REASONS_AFTER_FIELD_NUMBER: _ClassVar[int]
    DIFFERS_FIELD_NUMBER: _ClassVar[int]
    seq: int
    hand_number: int
    seat: int
    tile: str
    legal_before: bool
    legal_after: bool
    points_before: int
    points_after: int
    changes_before: _events_pb2.SeatScores
    changes_after: _events_pb2.SeatScores
    fans: _containers.RepeatedCompositeFieldContainer[FanDifference]
    reasons_before: _containers.RepeatedCompositeFieldContainer[Finding]
    reasons_after: _containers.RepeatedCompositeFieldContainer[Finding]
    differs: bool
    def __init__(self, seq: _Optional[int] = ..., hand_number: _Optional[int] = ..., seat: _Optional[int] = ..., tile: _Optional[str] = ..., legal_before: _Optional[bool] = ..., legal_after: _Optional[bool] = ..., points_before: _Optional[int] = ..., points_after: _Optional[int] = ..., changes_before: _Optional[_Union[_events_pb2.SeatScores, _Mapping]] = ..., changes_after: _Optional[_Union[_events_pb2.SeatScores, _Mapping]] = ..., fans: _Optional[_Iterable[_Union[FanDifference, _Mapping]]] = ..., reasons_before: _Optional[_Iterable[_Union[Finding, _Mapping]]] = ..., reasons_after: _Optional[_Iterable[_Union[Finding, _Mapping]]] = ..., differs: _Optional[bool] = ...) -> None: ...

class WhatIfComparison(_message.Message):
    __slots__ = ("ruleset_before", "options_before_json", "ruleset_after", "options_after_json", "option_changes", "wins", "findings_only_before", "findings_only_after", "scores_before", "scores_after", "differs", "start_after", "wins_total", "findings_only_before_total", "findings_only_after_total")
    RULESET_BEFORE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_BEFORE_JSON_FIELD_NUMBER: _ClassVar[int]
    RULESET_AFTER_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_AFTER_JSON_FIELD_NUMBER: _ClassVar[int]
    OPTION_CHANGES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_ONLY_BEFORE_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_ONLY_AFTER_FIELD_NUMBER: _ClassVar[int]
    SCORES_BEFORE_FIELD_NUMBER: _ClassVar[int]
    SCORES_AFTER_FIELD_NUMBER: _ClassVar[int]
    DIFFERS_FIELD_NUMBER: _ClassVar[int]
    START_AFTER_FIELD_NUMBER: _ClassVar[int]
    WINS_TOTAL_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_ONLY_BEFORE_TOTAL_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_ONLY_AFTER_TOTAL_FIELD_NUMBER: _ClassVar[int]
    ruleset_before: str
    options_before_json: str
    ruleset_after: str
    options_after_json: str
    option_changes: _containers.RepeatedCompositeFieldContainer[OptionChange]
    wins: _containers.RepeatedCompositeFieldContainer[WinComparison]
    findings_only_before: _containers.RepeatedCompositeFieldContainer[Finding]
    findings_only_after: _containers.RepeatedCompositeFieldContainer[Finding]
    scores_before: _events_pb2.SeatScores
    scores_after: _events_pb2.SeatScores
    differs: bool
    start_after: _events_pb2.SeatScores
    wins_total: int
    findings_only_before_total: int
    findings_only_after_total: int
    def __init__(self, ruleset_before: _Optional[str] = ..., options_before_json: _Optional[str] = ..., ruleset_after: _Optional[str] = ..., options_after_json: _Optional[str] = ..., option_changes: _Optional[_Iterable[_Union[OptionChange, _Mapping]]] = ..., wins: _Optional[_Iterable[_Union[WinComparison, _Mapping]]] = ..., findings_only_before: _Optional[_Iterable[_Union[Finding, _Mapping]]] = ..., findings_only_after: _Optional[_Iterable[_Union[Finding, _Mapping]]] = ..., scores_before: _Optional[_Union[_events_pb2.SeatScores, _Mapping]] = ..., scores_after: _Optional[_Union[_events_pb2.SeatScores, _Mapping]] = ..., differs: _Optional[bool] = ..., start_after: _Optional[_Union[_events_pb2.SeatScores, _Mapping]] = ..., wins_total: _Optional[int] = ..., findings_only_before_total: _Optional[int] = ..., findings_only_after_total: _Optional[int] = ...) -> None: ...

class ReviewRequest(_message.Message):
    __slots__ = ("game_id", "seats", "hand")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seats: _containers.RepeatedScalarFieldContainer[int]
    hand: int
    def __init__(self, game_id: _Optional[str] = ..., seats: _Optional[_Iterable[int]] = ..., hand: _Optional[int] = ...) -> None: ...

class ImprovingTile(_message.Message):
    __slots__ = ("tile", "unseen")
    TILE_FIELD_NUMBER: _ClassVar[int]
    UNSEEN_FIELD_NUMBER: _ClassVar[int]
    tile: str
    unseen: int
    def __init__(self, tile: _Optional[str] = ..., unseen: _Optional[int] = ...) -> None: ...

class WinningTile(_message.Message):
    __slots__ = ("tile", "self_drawn", "on_discard")
    TILE_FIELD_NUMBER: _ClassVar[int]
    SELF_DRAWN_FIELD_NUMBER: _ClassVar[int]
    ON_DISCARD_FIELD_NUMBER: _ClassVar[int]
    tile: str
    self_drawn: bool
    on_discard: bool
    def __init__(self, tile: _Optional[str] = ..., self_drawn: _Optional[bool] = ..., on_discard: _Optional[bool] = ...) -> None: ...

class DiscardOption(_message.Message):
    __slots__ = ("tile", "shanten", "improving", "improving_count", "waits", "no_wait")
    TILE_FIELD_NUMBER: _ClassVar[int]
    SHANTEN_FIELD_NUMBER: _ClassVar[int]
    IMPROVING_FIELD_NUMBER: _ClassVar[int]
    IMPROVING_COUNT_FIELD_NUMBER: _ClassVar[int]
    WAITS_FIELD_NUMBER: _ClassVar[int]
    NO_WAIT_FIELD_NUMBER: _ClassVar[int]
    tile: str
    shanten: int
    improving: _containers.RepeatedCompositeFieldContainer[ImprovingTile]
    improving_count: int
    waits: _containers.RepeatedCompositeFieldContainer[WinningTile]
    no_wait: str
    def __init__(self, tile: _Optional[str] = ..., shanten: _Optional[int] = ..., improving: _Optional[_Iterable[_Union[ImprovingTile, _Mapping]]] = ..., improving_count: _Optional[int] = ..., waits: _Optional[_Iterable[_Union[WinningTile, _Mapping]]] = ..., no_wait: _Optional[str] = ...) -> None: ...

class DiscardReview(_message.Message):
    __slots__ = ("seq", "turn", "hand", "wildcards", "played", "shanten_before", "shanten_after", "improving", "improving_count", "best", "best_count", "kept_best", "options", "no_win", "waits", "no_wait")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    WILDCARDS_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    SHANTEN_BEFORE_FIELD_NUMBER: _ClassVar[int]
    SHANTEN_AFTER_FIELD_NUMBER: _ClassVar[int]
    IMPROVING_FIELD_NUMBER: _ClassVar[int]
    IMPROVING_COUNT_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    BEST_COUNT_FIELD_NUMBER: _ClassVar[int]
    KEPT_BEST_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    NO_WIN_FIELD_NUMBER: _ClassVar[int]
    WAITS_FIELD_NUMBER: _ClassVar[int]
    NO_WAIT_FIELD_NUMBER: _ClassVar[int]
    seq: int
    turn: int
    hand: _containers.RepeatedScalarFieldContainer[str]
    wildcards: _containers.RepeatedScalarFieldContainer[str]
    played: str
    shanten_before: int
    shanten_after: int
    improving: _containers.RepeatedCompositeFieldContainer[ImprovingTile]
    improving_count: int
    best: _containers.RepeatedScalarFieldContainer[str]
    best_count: int
    kept_best: bool
    options: _containers.RepeatedCompositeFieldContainer[DiscardOption]
    no_win: str
    waits: _containers.RepeatedCompositeFieldContainer[WinningTile]
    no_wait: str
    def __init__(self, seq: _Optional[int] = ..., turn: _Optional[int] = ..., hand: _Optional[_Iterable[str]] = ..., wildcards: _Optional[_Iterable[str]] = ..., played: _Optional[str] = ..., shanten_before: _Optional[int] = ..., shanten_after: _Optional[int] = ..., improving: _Optional[_Iterable[_Union[ImprovingTile, _Mapping]]] = ..., improving_count: _Optional[int] = ..., best: _Optional[_Iterable[str]] = ..., best_count: _Optional[int] = ..., kept_best: _Optional[bool] = ..., options: _Optional[_Iterable[_Union[DiscardOption, _Mapping]]] = ..., no_win: _Optional[str] = ..., waits: _Optional[_Iterable[_Union[WinningTile, _Mapping]]] = ..., no_wait: _Optional[str] = ...) -> None: ...

class HandReview(_message.Message):
    __slots__ = ("hand_number", "seat", "won", "reviewable", "reason", "ready_turn", "ready_seq", "discards")
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    WON_FIELD_NUMBER: _ClassVar[int]
    REVIEWABLE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    READY_TURN_FIELD_NUMBER: _ClassVar[int]
    READY_SEQ_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    hand_number: int
    seat: int
    won: bool
    reviewable: bool
    reason: str
    ready_turn: int
    ready_seq: int
    discards: _containers.RepeatedCompositeFieldContainer[DiscardReview]
    def __init__(self, hand_number: _Optional[int] = ..., seat: _Optional[int] = ..., won: _Optional[bool] = ..., reviewable: _Optional[bool] = ..., reason: _Optional[str] = ..., ready_turn: _Optional[int] = ..., ready_seq: _Optional[int] = ..., discards: _Optional[_Iterable[_Union[DiscardReview, _Mapping]]] = ...) -> None: ...

class ReviewSummary(_message.Message):
    __slots__ = ("seat", "discards", "kept_best", "hands", "ready_hands", "mean_ready_turn")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    KEPT_BEST_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    READY_HANDS_FIELD_NUMBER: _ClassVar[int]
    MEAN_READY_TURN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    discards: int
    kept_best: int
    hands: int
    ready_hands: int
    mean_ready_turn: float
    def __init__(self, seat: _Optional[int] = ..., discards: _Optional[int] = ..., kept_best: _Optional[int] = ..., hands: _Optional[int] = ..., ready_hands: _Optional[int] = ..., mean_ready_turn: _Optional[float] = ...) -> None: ...

class ReviewResponse(_message.Message):
    __slots__ = ("game_id", "label", "ruleset", "shape_sources", "hands", "seats", "total")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    SHAPE_SOURCES_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    label: str
    ruleset: str
    shape_sources: _containers.RepeatedScalarFieldContainer[str]
    hands: _containers.RepeatedCompositeFieldContainer[HandReview]
    seats: _containers.RepeatedCompositeFieldContainer[ReviewSummary]
    total: ReviewSummary
    def __init__(self, game_id: _Optional[str] = ..., label: _Optional[str] = ..., ruleset: _Optional[str] = ..., shape_sources: _Optional[_Iterable[str]] = ..., hands: _Optional[_Iterable[_Union[HandReview, _Mapping]]] = ..., seats: _Optional[_Iterable[_Union[ReviewSummary, _Mapping]]] = ..., total: _Optional[_Union[ReviewSummary, _Mapping]] = ...) -> None: ...

class Meld(_message.Message):
    __slots__ = ("kind", "kong_kind", "tiles", "claimed_tile", "from_seat", "discard_seq", "seq", "added_seq")
    KIND_FIELD_NUMBER: _ClassVar[int]
    KONG_KIND_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_TILE_FIELD_NUMBER: _ClassVar[int]
    FROM_SEAT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_SEQ_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    ADDED_SEQ_FIELD_NUMBER: _ClassVar[int]
    kind: MeldKind
    kong_kind: _events_pb2.KongKind
    tiles: _containers.RepeatedScalarFieldContainer[str]
    claimed_tile: str
    from_seat: int
    discard_seq: int
    seq: int
    added_seq: int
    def __init__(self, kind: _Optional[_Union[MeldKind, str]] = ..., kong_kind: _Optional[_Union[_events_pb2.KongKind, str]] = ..., tiles: _Optional[_Iterable[str]] = ..., claimed_tile: _Optional[str] = ..., from_seat: _Optional[int] = ..., discard_seq: _Optional[int] = ..., seq: _Optional[int] = ..., added_seq: _Optional[int] = ...) -> None: ...

class Discard(_message.Message):
    __slots__ = ("seq", "tile", "claimed_by")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_BY_FIELD_NUMBER: _ClassVar[int]
    seq: int
    tile: str
    claimed_by: int
    def __init__(self, seq: _Optional[int] = ..., tile: _Optional[str] = ..., claimed_by: _Optional[int] = ...) -> None: ...

class SeatState(_message.Message):
    __slots__ = ("seat", "concealed_tiles", "concealed_count", "unknown_tiles", "hidden_from_view", "melds", "discards", "flowers", "score", "wind", "dead_hand", "miscount")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CONCEALED_TILES_FIELD_NUMBER: _ClassVar[int]
    CONCEALED_COUNT_FIELD_NUMBER: _ClassVar[int]
    UNKNOWN_TILES_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FROM_VIEW_FIELD_NUMBER: _ClassVar[int]
    MELDS_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    FLOWERS_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    WIND_FIELD_NUMBER: _ClassVar[int]
    DEAD_HAND_FIELD_NUMBER: _ClassVar[int]
    MISCOUNT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    concealed_tiles: _containers.RepeatedScalarFieldContainer[str]
    concealed_count: int
    unknown_tiles: int
    hidden_from_view: bool
    melds: _containers.RepeatedCompositeFieldContainer[Meld]
    discards: _containers.RepeatedCompositeFieldContainer[Discard]
    flowers: _containers.RepeatedScalarFieldContainer[str]
    score: int
    wind: str
    dead_hand: int
    miscount: int
    def __init__(self, seat: _Optional[int] = ..., concealed_tiles: _Optional[_Iterable[str]] = ..., concealed_count: _Optional[int] = ..., unknown_tiles: _Optional[int] = ..., hidden_from_view: _Optional[bool] = ..., melds: _Optional[_Iterable[_Union[Meld, _Mapping]]] = ..., discards: _Optional[_Iterable[_Union[Discard, _Mapping]]] = ..., flowers: _Optional[_Iterable[str]] = ..., score: _Optional[int] = ..., wind: _Optional[str] = ..., dead_hand: _Optional[int] = ..., miscount: _Optional[int] = ...) -> None: ...

class Finding(_message.Message):
    __slots__ = ("seq", "rule_id", "message", "source", "seat", "hand_number")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    RULE_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    seq: int
    rule_id: str
    message: str
    source: str
    seat: int
    hand_number: int
    def __init__(self, seq: _Optional[int] = ..., rule_id: _Optional[str] = ..., message: _Optional[str] = ..., source: _Optional[str] = ..., seat: _Optional[int] = ..., hand_number: _Optional[int] = ...) -> None: ...

class TableState(_message.Message):
    __slots__ = ("game_id", "seq", "event", "findings", "ruleset", "ruleset_options_json", "players", "phase", "turn", "dealer", "prevalent_wind", "hand_number", "hands_finished", "wall_remaining", "pending_discard_seq", "wildcard_indicator", "seats", "view_seat", "redacted", "game_over")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    RULESET_OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    PREVALENT_WIND_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    HANDS_FINISHED_FIELD_NUMBER: _ClassVar[int]
    WALL_REMAINING_FIELD_NUMBER: _ClassVar[int]
    PENDING_DISCARD_SEQ_FIELD_NUMBER: _ClassVar[int]
    WILDCARD_INDICATOR_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    VIEW_SEAT_FIELD_NUMBER: _ClassVar[int]
    REDACTED_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seq: int
    event: _events_pb2.RecordedEvent
    findings: _containers.RepeatedCompositeFieldContainer[Finding]
    ruleset: str
    ruleset_options_json: str
    players: _containers.RepeatedScalarFieldContainer[str]
    phase: Phase
    turn: int
    dealer: int
    prevalent_wind: str
    hand_number: int
    hands_finished: int
    wall_remaining: int
    pending_discard_seq: int
    wildcard_indicator: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatState]
    view_seat: int
    redacted: bool
    game_over: bool
    def __init__(self, game_id: _Optional[str] = ..., seq: _Optional[int] = ..., event: _Optional[_Union[_events_pb2.RecordedEvent, _Mapping]] = ..., findings: _Optional[_Iterable[_Union[Finding, _Mapping]]] = ..., ruleset: _Optional[str] = ..., ruleset_options_json: _Optional[str] = ..., players: _Optional[_Iterable[str]] = ..., phase: _Optional[_Union[Phase, str]] = ..., turn: _Optional[int] = ..., dealer: _Optional[int] = ..., prevalent_wind: _Optional[str] = ..., hand_number: _Optional[int] = ..., hands_finished: _Optional[int] = ..., wall_remaining: _Optional[int] = ..., pending_discard_seq: _Optional[int] = ..., wildcard_indicator: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatState, _Mapping]]] = ..., view_seat: _Optional[int] = ..., redacted: _Optional[bool] = ..., game_over: _Optional[bool] = ...) -> None: ...

class ChainReport(_message.Message):
    __slots__ = ("ok", "events", "first_bad_seq", "reason")
    OK_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    FIRST_BAD_SEQ_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ok: bool
    events: int
    first_bad_seq: int
    reason: str
    def __init__(self, ok: _Optional[bool] = ..., events: _Optional[int] = ..., first_bad_seq: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...

class FanLine(_message.Message):
    __slots__ = ("name_en", "name_zh", "points", "count", "groups", "provisional")
    NAME_EN_FIELD_NUMBER: _ClassVar[int]
    NAME_ZH_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_FIELD_NUMBER: _ClassVar[int]
    name_en: str
    name_zh: str
    points: int
    count: int
    groups: _containers.RepeatedCompositeFieldContainer[TileGroup]
    provisional: bool
    def __init__(self, name_en: _Optional[str] = ..., name_zh: _Optional[str] = ..., points: _Optional[int] = ..., count: _Optional[int] = ..., groups: _Optional[_Iterable[_Union[TileGroup, _Mapping]]] = ..., provisional: _Optional[bool] = ...) -> None: ...

class TileGroup(_message.Message):
    __slots__ = ("tiles",)
    TILES_FIELD_NUMBER: _ClassVar[int]
    tiles: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, tiles: _Optional[_Iterable[str]] = ...) -> None: ...

class ReportedScoreComparison(_message.Message):
    __slots__ = ("seq", "winner", "score_changes", "total", "fans", "computed_changes", "computed_total", "agrees", "unverifiable")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    SCORE_CHANGES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    FANS_FIELD_NUMBER: _ClassVar[int]
    COMPUTED_CHANGES_FIELD_NUMBER: _ClassVar[int]
    COMPUTED_TOTAL_FIELD_NUMBER: _ClassVar[int]
    AGREES_FIELD_NUMBER: _ClassVar[int]
    UNVERIFIABLE_FIELD_NUMBER: _ClassVar[int]
    seq: int
    winner: int
    score_changes: _events_pb2.SeatScores
    total: int
    fans: _containers.RepeatedCompositeFieldContainer[_events_pb2.ReportedFan]
    computed_changes: _events_pb2.SeatScores
    computed_total: int
    agrees: bool
    unverifiable: str
    def __init__(self, seq: _Optional[int] = ..., winner: _Optional[int] = ..., score_changes: _Optional[_Union[_events_pb2.SeatScores, _Mapping]] = ..., total: _Optional[int] = ..., fans: _Optional[_Iterable[_Union[_events_pb2.ReportedFan, _Mapping]]] = ..., computed_changes: _Optional[_Union[_events_pb2.SeatScores, _Mapping]] = ..., computed_total: _Optional[int] = ..., agrees: _Optional[bool] = ..., unverifiable: _Optional[str] = ...) -> None: ...

class WinAudit(_message.Message):
    __slots__ = ("hand_number", "seq", "seat", "tile", "self_drawn", "from_seat", "legal", "fans", "points", "changes", "reported", "fans_agree", "score_agrees")
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    SELF_DRAWN_FIELD_NUMBER: _ClassVar[int]
    FROM_SEAT_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    FANS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    CHANGES_FIELD_NUMBER: _ClassVar[int]
    REPORTED_FIELD_NUMBER: _ClassVar[int]
    FANS_AGREE_FIELD_NUMBER: _ClassVar[int]
    SCORE_AGREES_FIELD_NUMBER: _ClassVar[int]
    hand_number: int
    seq: int
    seat: int
    tile: str
    self_drawn: bool
    from_seat: int
    legal: bool
    fans: _containers.RepeatedCompositeFieldContainer[FanLine]
    points: int
    changes: _events_pb2.SeatScores
    reported: ReportedScoreComparison
    fans_agree: bool
    score_agrees: bool
    def __init__(self, hand_number: _Optional[int] = ..., seq: _Optional[int] = ..., seat: _Optional[int] = ..., tile: _Optional[str] = ..., self_drawn: _Optional[bool] = ..., from_seat: _Optional[int] = ..., legal: _Optional[bool] = ..., fans: _Optional[_Iterable[_Union[FanLine, _Mapping]]] = ..., points: _Optional[int] = ..., changes: _Optional[_Union[_events_pb2.SeatScores, _Mapping]] = ..., reported: _Optional[_Union[ReportedScoreComparison, _Mapping]] = ..., fans_agree: _Optional[bool] = ..., score_agrees: _Optional[bool] = ...) -> None: ...

class GameAudit(_message.Message):
    __slots__ = ("ruleset", "hands", "events", "wins", "draws", "findings", "ok", "findings_total", "wins_total", "findings_by_rule")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_FIELD_NUMBER: _ClassVar[int]
    OK_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_TOTAL_FIELD_NUMBER: _ClassVar[int]
    WINS_TOTAL_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_BY_RULE_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    hands: int
    events: int
    wins: _containers.RepeatedCompositeFieldContainer[WinAudit]
    draws: int
    findings: _containers.RepeatedCompositeFieldContainer[Finding]
    ok: bool
    findings_total: int
    wins_total: int
    findings_by_rule: _containers.RepeatedCompositeFieldContainer[RuleCount]
    def __init__(self, ruleset: _Optional[str] = ..., hands: _Optional[int] = ..., events: _Optional[int] = ..., wins: _Optional[_Iterable[_Union[WinAudit, _Mapping]]] = ..., draws: _Optional[int] = ..., findings: _Optional[_Iterable[_Union[Finding, _Mapping]]] = ..., ok: _Optional[bool] = ..., findings_total: _Optional[int] = ..., wins_total: _Optional[int] = ..., findings_by_rule: _Optional[_Iterable[_Union[RuleCount, _Mapping]]] = ...) -> None: ...

class RuleCount(_message.Message):
    __slots__ = ("rule_id", "count")
    RULE_ID_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    rule_id: str
    count: int
    def __init__(self, rule_id: _Optional[str] = ..., count: _Optional[int] = ...) -> None: ...
