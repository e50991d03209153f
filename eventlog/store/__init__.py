"""The event store (shared/DESIGN.md §5).

Modules: :mod:`.types` (value types), :mod:`.errors`, :mod:`.rows` (reading and
checking stored rows), :mod:`.planning` (append planning), :mod:`.base` (the abstract
store), backends :mod:`.sqlite` (embedded default, with :mod:`.checkpoint`) and
:mod:`.memory` (reference model), and :mod:`.opener` (:func:`open_store`)."""

from eventlog.store.base import EventStore
from eventlog.store.errors import (
    CorruptDatabase,
    CorruptEvent,
    GameNotFound,
    IdempotencyConflict,
    LogTruncated,
    MissingEvents,
    NotAStore,
    PositionOutOfRange,
    StoreClosed,
    StoreError,
    StoreNotFound,
    StreamAlreadyExists,
    WrongExpectedVersion,
)
from eventlog.store.memory import MemoryStore
from eventlog.store.opener import STORE_FILE, open_store
from eventlog.store.sqlite import SqliteStore
from eventlog.store.types import (
    ANY,
    COLUMNS,
    NO_STREAM,
    AppendResult,
    CaughtUp,
    ExpectedVersion,
    GameInfo,
    LogHead,
    StreamHead,
)

__all__ = [
    "ANY",
    "COLUMNS",
    "NO_STREAM",
    "STORE_FILE",
    "AppendResult",
    "CaughtUp",
    "CorruptDatabase",
    "CorruptEvent",
    "EventStore",
    "ExpectedVersion",
    "GameInfo",
    "GameNotFound",
    "IdempotencyConflict",
    "LogHead",
    "LogTruncated",
    "MemoryStore",
    "MissingEvents",
    "NotAStore",
    "PositionOutOfRange",
    "SqliteStore",
    "StoreClosed",
    "StoreError",
    "StoreNotFound",
    "StreamAlreadyExists",
    "StreamHead",
    "WrongExpectedVersion",
    "open_store",
]
