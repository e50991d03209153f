from google.protobuf import empty_pb2 as _empty_pb2
from paipu.v1 import events_pb2 as _events_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AppendStreamResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[AppendStreamResult]
    def __init__(self, results: _Optional[_Iterable[_Union[AppendStreamResult, _Mapping]]] = ...) -> None: ...

class AppendStreamResult(_message.Message):
    __slots__ = ("appended", "refused")
    APPENDED_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    appended: AppendResponse
    refused: AppendRefused
    def __init__(self, appended: _Optional[_Union[AppendResponse, _Mapping]] = ..., refused: _Optional[_Union[AppendRefused, _Mapping]] = ...) -> None: ...

class AppendRefused(_message.Message):
    __slots__ = ("reason", "message", "current_version")
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_VERSION_FIELD_NUMBER: _ClassVar[int]
    reason: str
    message: str
    current_version: int
    def __init__(self, reason: _Optional[str] = ..., message: _Optional[str] = ..., current_version: _Optional[int] = ...) -> None: ...

class AppendRequest(_message.Message):
    __slots__ = ("game_id", "any", "no_stream", "exact", "events")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    ANY_FIELD_NUMBER: _ClassVar[int]
    NO_STREAM_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    any: _empty_pb2.Empty
    no_stream: _empty_pb2.Empty
    exact: int
    events: _containers.RepeatedCompositeFieldContainer[_events_pb2.Event]
    def __init__(self, game_id: _Optional[str] = ..., any: _Optional[_Union[_empty_pb2.Empty, _Mapping]] = ..., no_stream: _Optional[_Union[_empty_pb2.Empty, _Mapping]] = ..., exact: _Optional[int] = ..., events: _Optional[_Iterable[_Union[_events_pb2.Event, _Mapping]]] = ...) -> None: ...

class AppendResponse(_message.Message):
    __slots__ = ("first_seq", "last_seq", "first_position", "last_position", "version", "duplicate")
    FIRST_SEQ_FIELD_NUMBER: _ClassVar[int]
    LAST_SEQ_FIELD_NUMBER: _ClassVar[int]
    FIRST_POSITION_FIELD_NUMBER: _ClassVar[int]
    LAST_POSITION_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    first_seq: int
    last_seq: int
    first_position: int
    last_position: int
    version: int
    duplicate: bool
    def __init__(self, first_seq: _Optional[int] = ..., last_seq: _Optional[int] = ..., first_position: _Optional[int] = ..., last_position: _Optional[int] = ..., version: _Optional[int] = ..., duplicate: _Optional[bool] = ...) -> None: ...

class ReadGameRequest(_message.Message):
    __slots__ = ("game_id", "from_seq", "limit", "backward")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_SEQ_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    BACKWARD_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    from_seq: int
    limit: int
    backward: bool
    def __init__(self, game_id: _Optional[str] = ..., from_seq: _Optional[int] = ..., limit: _Optional[int] = ..., backward: _Optional[bool] = ...) -> None: ...

class ReadGameResponse(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[_events_pb2.RecordedEvent]
    def __init__(self, events: _Optional[_Iterable[_Union[_events_pb2.RecordedEvent, _Mapping]]] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "ruleset")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    ruleset: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., ruleset: _Optional[str] = ...) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games", "next_page_token")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameInfo]
    next_page_token: str
    def __init__(self, games: _Optional[_Iterable[_Union[GameInfo, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ("game_id", "version", "event_count", "first_position", "last_position", "ruleset")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    EVENT_COUNT_FIELD_NUMBER: _ClassVar[int]
    FIRST_POSITION_FIELD_NUMBER: _ClassVar[int]
    LAST_POSITION_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    version: int
    event_count: int
    first_position: int
    last_position: int
    ruleset: str
    def __init__(self, game_id: _Optional[str] = ..., version: _Optional[int] = ..., event_count: _Optional[int] = ..., first_position: _Optional[int] = ..., last_position: _Optional[int] = ..., ruleset: _Optional[str] = ...) -> None: ...

class SubscribeRequest(_message.Message):
    __slots__ = ("from_position",)
    FROM_POSITION_FIELD_NUMBER: _ClassVar[int]
    from_position: int
    def __init__(self, from_position: _Optional[int] = ...) -> None: ...

class CaughtUp(_message.Message):
    __slots__ = ("position",)
    POSITION_FIELD_NUMBER: _ClassVar[int]
    position: int
    def __init__(self, position: _Optional[int] = ...) -> None: ...

class RecordedEventBatch(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[_events_pb2.RecordedEvent]
    def __init__(self, events: _Optional[_Iterable[_Union[_events_pb2.RecordedEvent, _Mapping]]] = ...) -> None: ...

class SubscribeResponse(_message.Message):
    __slots__ = ("events", "caught_up")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    CAUGHT_UP_FIELD_NUMBER: _ClassVar[int]
    events: RecordedEventBatch
    caught_up: CaughtUp
    def __init__(self, events: _Optional[_Union[RecordedEventBatch, _Mapping]] = ..., caught_up: _Optional[_Union[CaughtUp, _Mapping]] = ...) -> None: ...
