"""Errors of the event store. Every one is a :class:`StoreError`; the data-loss family
(:class:`CorruptEvent` and its subclasses) is what gRPC answers as ``DATA_LOSS``.

=====================  =====================================================================
error                  when
=====================  =====================================================================
WrongExpectedVersion   an append's expected version is not the stream's (``current`` given)
StreamAlreadyExists    … it expected no stream
IdempotencyConflict    a batch partly overlaps stored events, or reuses an id differently
GameNotFound           no such stream
PositionOutOfRange     a position/seq argument outside 0..2^63-1, or past the log's end
CorruptEvent           a stored row does not match its hash or no longer parses
MissingEvents          a read found a hole: a seq or position skipped, a broken
                       ``prev_hash`` link, or a stream that stops before its recorded head
LogTruncated           the log is shorter than (or differs from) its checkpoint: committed
                       events were lost (e.g. a damaged ``-wal`` file)
CorruptDatabase        the database reports its own file damaged (SQLite "database disk
                       image is malformed", a damaged index; PostgreSQL data/index corrupted)
StoreNotFound          no store where one was expected (readers never create one)
NotAStore              an existing file that is not a paipu store (empty, foreign)
StoreClosed            the store was closed
=====================  =====================================================================
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from eventlog.errors import InvalidArgument, PaipuError
from eventlog.store.types import NO_STREAM, ExpectedVersion

__all__ = [
    "StoreError",
    "WrongExpectedVersion",
    "StreamAlreadyExists",
    "IdempotencyConflict",
    "GameNotFound",
    "PositionOutOfRange",
    "CorruptEvent",
    "MissingEvents",
    "LogTruncated",
    "CorruptDatabase",
    "StoreNotFound",
    "NotAStore",
    "StoreClosed",
]


class StoreError(PaipuError):
    """Base of every event-store error (gRPC INTERNAL unless a subclass says otherwise)."""

    grpc_code = "INTERNAL"


class WrongExpectedVersion(StoreError):
    """The stream's version is not the one the append expected.

    ``expected`` is what the caller passed (normalised: ``"any"``, ``"no_stream"`` or an
    int), ``current`` the stream's version at the time (-1: no stream)."""

    grpc_code = "ABORTED"
    fields = ("game_id", "expected", "current")
    wire_names = {"expected": "expected_version", "current": "current_version"}

    def __init__(self, game_id: str, expected: ExpectedVersion, current: int) -> None:
        shown = "no stream" if expected == NO_STREAM else f"version {expected}"
        now = "does not exist" if current < 0 else f"is at version {current}"
        super().__init__(f"game {game_id!r}: expected {shown}, but the stream {now}")
        self.game_id = game_id
        self.expected = expected
        self.current = current


class StreamAlreadyExists(WrongExpectedVersion):
    """The append expected :data:`NO_STREAM` but the stream exists."""

    grpc_code = "ALREADY_EXISTS"


class IdempotencyConflict(StoreError):
    """A batch partly overlaps stored events, or reuses an event id with other content,
    in another order or in another game. ``event_id`` names the first offending id."""

    grpc_code = "FAILED_PRECONDITION"
    fields = ("game_id", "event_id", "reason")

    def __init__(self, game_id: str, event_id: str, reason: str) -> None:
        super().__init__(f"game {game_id!r}: event {event_id}: {reason}")
        self.game_id = game_id
        self.event_id = event_id
        self.reason = reason


class GameNotFound(StoreError):
    grpc_code = "NOT_FOUND"
    fields = ("game_id",)

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no such game: {game_id!r}")
        self.game_id = game_id


class PositionOutOfRange(StoreError, InvalidArgument):
    """A position or seq argument the store cannot serve: negative, ≥ 2^63 (no backend
    integer holds it), or past the end of the log where that can never be valid.
    ``field`` names the argument; the message starts with it. Also a ValueError, so it is
    a caller's error (gRPC INVALID_ARGUMENT)."""

    grpc_code = "INVALID_ARGUMENT"
    fields = ("field",)

    def __init__(self, field: str, message: str) -> None:
        InvalidArgument.__init__(self, f"{field} {message}", field)


class CorruptEvent(StoreError):
    """The stored log is damaged (gRPC DATA_LOSS); never served as good data.

    Raised as such when a stored row does not match its own hash or no longer parses.
    ``game_id``, ``seq``, ``position`` say where (any may be None), ``reason`` why."""

    grpc_code = "DATA_LOSS"
    fields = ("game_id", "seq", "position", "reason")

    def __init__(self, game_id: Any, seq: Any, position: Any, reason: str, *, message: str | None = None) -> None:
        where = f"game {game_id!r} seq {seq}" + (f" (position {position})" if position is not None else "")
        super().__init__(message or f"{where}: {reason}")
        self.game_id = game_id
        self.seq = seq
        self.position = position
        self.reason = reason


class MissingEvents(CorruptEvent):
    """A read found a hole: a skipped seq or position, a ``prev_hash`` that does not link
    to the previous event, or a stream that ends before the head the store recorded.
    ``seq``/``position`` name the first missing (or unlinked) one."""


class LogTruncated(CorruptEvent):
    """Committed events are gone: the log ends before its checkpoint (or its running hash
    differs from the checkpoint's). ``checkpoint`` and ``found`` are the positions."""

    fields = ("position", "reason", "checkpoint", "found")

    def __init__(self, where: str, checkpoint: int, found: int, reason: str) -> None:
        super().__init__(
            None,
            None,
            found + 1 if found < checkpoint else checkpoint,
            reason,
            message=f"DATA LOSS in {where}: {reason}",
        )
        self.checkpoint = checkpoint
        self.found = found


class CorruptDatabase(CorruptEvent):
    """The database engine itself found its file damaged — SQLite's ``SQLITE_CORRUPT`` /
    ``SQLITE_NOTADB`` ("database disk image is malformed": a damaged page or index),
    PostgreSQL's ``data_corrupted`` / ``index_corrupted`` — while reading or writing. Data
    loss like the rest of the family (gRPC DATA_LOSS), never an internal error: the log
    cannot serve what it holds there. ``reason`` is the engine's words."""

    def __init__(self, where: str, reason: str) -> None:
        reason = " ".join(reason.split())  # one line: SQLite quotes a damaged schema, newlines and all
        if len(reason) > 300:
            reason = reason[:300] + "…"
        super().__init__(
            None, None, None, reason,
            message=f"DATA LOSS in {where}: the database file is damaged ({reason}); restore it "
                    "from a backup; `paipu verify` names the games that still read",
        )


class StoreNotFound(StoreError):
    """No store at ``path`` and the caller did not ask to create one."""

    grpc_code = "NOT_FOUND"
    fields = ("path",)

    def __init__(self, path: str | Path, hint: str = "") -> None:
        super().__init__(f"no event store in {path}" + (f" ({hint})" if hint else ""))
        self.path = str(path)


class NotAStore(StoreError):
    """An existing file that is not a paipu event store (empty — e.g. a failed copy —,
    another program's database, or not a database at all). Never re-initialised."""

    grpc_code = "FAILED_PRECONDITION"
    fields = ("path", "reason")

    def __init__(self, path: str | Path, reason: str) -> None:
        reason = " ".join(reason.split())[:400]  # one line, even quoting SQLite's words
        super().__init__(f"{path} is not a paipu event store: {reason}")
        self.path = str(path)
        self.reason = reason


class StoreClosed(StoreError):
    """The store was closed."""

    grpc_code = "UNAVAILABLE"
