from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class SichuanVoidSuitDeclared(_message.Message):
    __slots__ = ("seat", "suit")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SUIT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    suit: str
    def __init__(self, seat: _Optional[int] = ..., suit: _Optional[str] = ...) -> None: ...

class SichuanReadyDeclared(_message.Message):
    __slots__ = ("seat", "waits")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    WAITS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    waits: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., waits: _Optional[_Iterable[str]] = ...) -> None: ...
