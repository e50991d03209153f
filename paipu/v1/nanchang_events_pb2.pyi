from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class NanchangSixPairsShown(_message.Message):
    __slots__ = ("seat", "tiles")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    tiles: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., tiles: _Optional[_Iterable[str]] = ...) -> None: ...

class NanchangBaoFlown(_message.Message):
    __slots__ = ("seat", "tile")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    tile: str
    def __init__(self, seat: _Optional[int] = ..., tile: _Optional[str] = ...) -> None: ...

class NanchangBaoPung(_message.Message):
    __slots__ = ("seat", "tiles", "discard_seq")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    DISCARD_SEQ_FIELD_NUMBER: _ClassVar[int]
    seat: int
    tiles: _containers.RepeatedScalarFieldContainer[str]
    discard_seq: int
    def __init__(self, seat: _Optional[int] = ..., tiles: _Optional[_Iterable[str]] = ..., discard_seq: _Optional[int] = ...) -> None: ...
