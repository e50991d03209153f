"""The event store (shared/DESIGN.md §5): interface in :mod:`.base`, backends in
:mod:`.sqlite` (embedded default) and :mod:`.memory` (reference model)."""

from eventlog.store.base import (
    ANY,
    COLUMNS,
    NO_STREAM,
    AppendResult,
    CaughtUp,
    CorruptEvent,
    EventStore,
    ExpectedVersion,
    GameInfo,
    GameNotFound,
    IdempotencyConflict,
    StoreClosed,
    StoreError,
    StreamAlreadyExists,
    StreamHead,
    WrongExpectedVersion,
    open_store,
)
from eventlog.store.memory import MemoryStore
from eventlog.store.sqlite import SqliteStore

__all__ = [
    "ANY",
    "COLUMNS",
    "NO_STREAM",
    "AppendResult",
    "CaughtUp",
    "CorruptEvent",
    "EventStore",
    "ExpectedVersion",
    "GameInfo",
    "GameNotFound",
    "IdempotencyConflict",
    "MemoryStore",
    "SqliteStore",
    "StoreClosed",
    "StoreError",
    "StreamAlreadyExists",
    "StreamHead",
    "WrongExpectedVersion",
    "open_store",
]
