from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class IngestLogHeader(_message.Message):
    __slots__ = ("file_name", "format")
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    file_name: str
    format: str
    def __init__(self, file_name: _Optional[str] = ..., format: _Optional[str] = ...) -> None: ...

class IngestLogRequest(_message.Message):
    __slots__ = ("header", "chunk")
    HEADER_FIELD_NUMBER: _ClassVar[int]
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    header: IngestLogHeader
    chunk: bytes
    def __init__(self, header: _Optional[_Union[IngestLogHeader, _Mapping]] = ..., chunk: _Optional[bytes] = ...) -> None: ...

class IngestIssue(_message.Message):
    __slots__ = ("file_name", "line", "record", "reason", "game_id")
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    file_name: str
    line: int
    record: int
    reason: str
    game_id: str
    def __init__(self, file_name: _Optional[str] = ..., line: _Optional[int] = ..., record: _Optional[int] = ..., reason: _Optional[str] = ..., game_id: _Optional[str] = ...) -> None: ...

class IngestLogResponse(_message.Message):
    __slots__ = ("format", "stored_game_ids", "duplicate_game_ids", "issues", "events", "bytes")
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    STORED_GAME_IDS_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_GAME_IDS_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    BYTES_FIELD_NUMBER: _ClassVar[int]
    format: str
    stored_game_ids: _containers.RepeatedScalarFieldContainer[str]
    duplicate_game_ids: _containers.RepeatedScalarFieldContainer[str]
    issues: _containers.RepeatedCompositeFieldContainer[IngestIssue]
    events: int
    bytes: int
    def __init__(self, format: _Optional[str] = ..., stored_game_ids: _Optional[_Iterable[str]] = ..., duplicate_game_ids: _Optional[_Iterable[str]] = ..., issues: _Optional[_Iterable[_Union[IngestIssue, _Mapping]]] = ..., events: _Optional[int] = ..., bytes: _Optional[int] = ...) -> None: ...
