"""The log's own streams (docs/events.md "player_aliased"): streams whose id starts with
:data:`LOG_STREAM_PREFIX` (``paipu:``) belong to the log, never to a game. Each holds only its
own event types (:data:`LOG_STREAMS`: ``paipu:players`` holds ``player_aliased``, written by
``paipu players alias``, eventlog/players.py); a game event there would be counted by nothing
and would let a writer slip events past every game check. :func:`check_log_stream` refuses
such an append wherever a batch is checked (:meth:`eventlog.store.planning.Batch.encode` and
``of_encoded``: the CLI, ingest, the gRPC services, the Python API); :func:`stray_events` names
the ones stored before that rule (``paipu verify`` reports them)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from eventlog.errors import InvalidArgument

__all__ = ["LOG_STREAM_PREFIX", "PLAYERS_STREAM", "LOG_STREAMS", "LOG_STREAM_WORDS", "LogStreamRefused",
           "is_log_stream", "log_stream_words", "check_log_stream", "stray_events"]

#: Prefix of the log's own streams (not games).
LOG_STREAM_PREFIX = "paipu:"
#: The stream of player aliases.
PLAYERS_STREAM = "paipu:players"
#: The log's own streams and the event types each holds; no other ``paipu:`` stream exists.
LOG_STREAMS: dict[str, frozenset[str]] = {PLAYERS_STREAM: frozenset({"player_aliased"})}
#: What each of the log's own streams is, in words.
LOG_STREAM_WORDS: dict[str, str] = {PLAYERS_STREAM: "the log's stream of player aliases"}


class LogStreamRefused(InvalidArgument):
    """An append to one of the log's own streams (``paipu:…``) of an event that does not
    belong there — any game event — or to a ``paipu:`` stream the log does not have (gRPC
    INVALID_ARGUMENT, ErrorInfo reason LOG_STREAM_REFUSED {field, game_id, event_type})."""

    fields = ("field", "game_id", "event_type")

    def __init__(self, message: str, field: str, game_id: str, event_type: str | None = None) -> None:
        super().__init__(message, field)
        self.game_id, self.event_type = game_id, event_type


def is_log_stream(game_id: str) -> bool:
    """True for the log's own streams (``paipu:…``), which are not games."""
    return game_id.startswith(LOG_STREAM_PREFIX)


def log_stream_words(game_id: str) -> str:
    """Why ``game_id`` (a ``paipu:…`` stream, :func:`is_log_stream`) is no game, in words, for a
    request that asks for a game: ``'paipu:players' is the log's stream of player aliases
    (player_aliased events), not a game``; a ``paipu:`` stream the log does not have is named so."""
    what = LOG_STREAM_WORDS.get(game_id)
    if what is None:
        return (f"{game_id!r} is not a game: streams named '{LOG_STREAM_PREFIX}…' are the log's own, and the log "
                f"has no stream {game_id!r} (its streams: {', '.join(sorted(LOG_STREAMS))})")
    return f"{game_id!r} is {what} ({' and '.join(sorted(LOG_STREAMS[game_id]))} events), not a game"


def check_log_stream(game_id: str, types: Iterable[str], where: str = "events") -> None:
    """Nothing for a game's stream; for a ``paipu:`` stream raise :class:`LogStreamRefused`
    naming ``{where}[i]``, the first of ``types`` (the batch's event types, in order) the stream
    does not hold, or ``game_id`` for a ``paipu:`` stream that is not one of :data:`LOG_STREAMS`."""
    if not game_id.startswith(LOG_STREAM_PREFIX):
        return
    allowed = LOG_STREAMS.get(game_id)
    if allowed is None:
        raise LogStreamRefused(
            f"game_id {game_id!r}: streams named '{LOG_STREAM_PREFIX}…' are the log's own, never games, and the "
            f"log has no stream {game_id!r} (its streams: {', '.join(sorted(LOG_STREAMS))})", "game_id", game_id)
    for i, t in enumerate(types):
        if t not in allowed:
            raise LogStreamRefused(
                f"{where}[{i}]: a {t} event cannot be appended to {game_id!r}: it is the log's own stream, not a "
                f"game, and holds {' and '.join(sorted(allowed))} events only (docs/events.md)",
                f"{where}[{i}]", game_id, t)


def stray_events(game_id: str, events: Iterable[Any]) -> list[tuple[int, str]]:
    """``(seq, type)`` of each of ``events`` (stored events of the log's own stream
    ``game_id``) that does not belong there (stored before :func:`check_log_stream` refused
    them): every event of a ``paipu:`` stream the log does not have."""
    allowed = LOG_STREAMS.get(game_id, frozenset())
    return [(e.seq, e.type) for e in events if e.type not in allowed]
