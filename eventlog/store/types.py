"""Value types of the event store (shared/DESIGN.md §5): what a caller passes and gets
back, backend-neutral. Argument checks for them live here too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal, Union

from eventlog.errors import InvalidArgument
from eventlog.hashing import GENESIS_HASH

__all__ = [
    "ANY",
    "NO_STREAM",
    "ExpectedVersion",
    "COLUMNS",
    "Row",
    "MAX_POSITION",
    "MAX_GAME_ID",
    "AppendResult",
    "GameInfo",
    "CaughtUp",
    "StreamHead",
    "LogHead",
    "normalize_expected",
    "check_game_id",
    "check_limit",
]

ANY: Final = "any"
NO_STREAM: Final = "no_stream"
ExpectedVersion = Union[Literal["any", "no_stream"], int]

#: The columns of a stored row, in storage order.
COLUMNS: tuple[str, ...] = (
    "position",
    "game_id",
    "seq",
    "event_id",
    "type",
    "schema_version",
    "payload",
    "metadata",
    "recorded_at",
    "prev_hash",
    "hash",
)

#: The storage form of an event: a plain dict with the keys of :data:`COLUMNS`;
#: ``payload`` and ``metadata`` are canonical JSON text. No backend type leaves a backend.
Row = dict[str, Any]

#: Largest position or seq a store accepts in an argument (a signed 64-bit integer, what
#: SQLite and PostgreSQL ``bigint`` hold); larger values are refused with a ValueError
#: (:class:`~eventlog.store.errors.PositionOutOfRange`), never passed to a backend.
MAX_POSITION = 2**63 - 1

#: Longest game id accepted (source ids are far shorter: site + match or session/board).
MAX_GAME_ID = 200


@dataclass(frozen=True)
class AppendResult:
    """What :meth:`EventStore.append` stored (or found already stored).

    ``version`` is the stream's version after the call. ``duplicate`` is True when the
    whole batch was already stored (an idempotent retry): nothing was written and the
    seqs/positions are those of the stored events."""

    game_id: str
    first_seq: int
    last_seq: int
    first_position: int
    last_position: int
    version: int
    duplicate: bool


@dataclass(frozen=True)
class GameInfo:
    """One stream. ``ruleset`` comes from its first ``game_started`` payload, if any."""

    game_id: str
    version: int
    event_count: int
    first_position: int
    last_position: int
    ruleset: str | None


@dataclass(frozen=True)
class CaughtUp:
    """Yielded once by :meth:`EventStore.subscribe` when history is exhausted.

    ``position`` is the last position delivered before it (``from_position - 1``
    when history was empty)."""

    position: int


@dataclass(frozen=True)
class StreamHead:
    """The store's own record of a stream's end (kept in the append transaction)."""

    game_id: str
    version: int
    first_position: int
    last_position: int
    last_hash: str
    ruleset: str | None


@dataclass(frozen=True)
class LogHead:
    """The end of the whole log: the last committed ``position`` (0: empty) and the
    running ``log_hash`` over every event up to it (:func:`eventlog.hashing.log_hash`).

    The store keeps it in the append transaction; the SQLite backend also writes it to
    a checkpoint file beside the database after each commit (see
    :mod:`eventlog.store.checkpoint`)."""

    position: int = 0
    log_hash: str = GENESIS_HASH


def normalize_expected(expected: Any) -> ExpectedVersion:
    """``ANY`` | ``NO_STREAM`` | int ≥ -1 (-1 → ``NO_STREAM``). Raises ValueError."""
    if expected == ANY or expected == NO_STREAM:
        return expected
    if isinstance(expected, int) and not isinstance(expected, bool):
        if expected == -1:
            return NO_STREAM
        if 0 <= expected <= MAX_POSITION:
            return expected
    raise InvalidArgument(
        f"expected_version must be {ANY!r}, {NO_STREAM!r} or a version from -1 to "
        f"{MAX_POSITION}, got {_short(expected)}",
        "expected_version",
    )


def check_game_id(game_id: Any) -> str:
    """A game id is 1..200 printable characters without outer spaces (no tabs, newlines or
    other control characters: ids appear in file names, URLs and one-line messages).
    Raises :class:`~eventlog.errors.InvalidArgument` (a ValueError; the message quotes at
    most the id's first 80 characters)."""
    if not isinstance(game_id, str) or not game_id or game_id != game_id.strip():
        raise InvalidArgument(f"game_id must be a non-empty string without outer spaces, got {_short(game_id)}", "game_id")
    if len(game_id) > MAX_GAME_ID:
        raise InvalidArgument(f"game_id is {len(game_id)} characters long; at most {MAX_GAME_ID} are allowed", "game_id")
    if not game_id.isprintable():
        raise InvalidArgument(f"game_id must not contain control characters (tab, newline …), got {_short(game_id)}", "game_id")
    return game_id


def check_limit(limit: Any) -> int | None:
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise InvalidArgument(f"limit must be None or an int >= 0, got {_short(limit)}", "limit")
    return limit


def _short(value: Any, n: int = 80) -> str:
    """``repr(value)``, cut to ``n`` characters (errors never echo a whole hostile input)."""
    text = repr(value)
    return text if len(text) <= n else f"{text[:n]}… ({len(text)} characters)"
