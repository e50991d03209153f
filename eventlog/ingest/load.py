"""Load parsed games into the event log: what ``paipu ingest`` and ``paipu quickstart`` run.

Each game is appended as one new stream (expected version ``no_stream``), so a game is
stored whole or not at all. A game already stored with the same event ids is a duplicate
(nothing written); a game id already stored with *other* events is an error for that game
only. Parse issues are collected with their file and line; the other games still load.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from eventlog.ingest.base import ImportedGame, ParseIssue, UnknownFormatError, parse_file
from eventlog.store.base import (
    NO_STREAM,
    EventStore,
    GameNotFound,
    IdempotencyConflict,
    StreamAlreadyExists,
)

__all__ = ["IngestReport", "ingest_files", "store_game"]


@dataclass
class IngestReport:
    """Outcome of an ingest run: game ids stored, skipped as duplicates, and errors
    (``ParseIssue`` with file and line, or a store refusal as a ParseIssue too)."""

    stored: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    errors: list[ParseIssue] = field(default_factory=list)
    events: int = 0

    @property
    def ok(self) -> bool:
        return not self.errors


def store_game(store: EventStore, game: ImportedGame) -> bool:
    """Append ``game`` as a new stream. True when written, False when the same game is
    already stored — the same events, whichever file they were read from (a renamed or
    copied file differs only in the events' ``source`` metadata). Raises ``ValueError``
    when the id is taken by a different game."""
    try:
        res = store.append(game.game_id, game.events, NO_STREAM)
    except (StreamAlreadyExists, IdempotencyConflict):
        if _same_game(store, game):
            return False
        raise ValueError(
            f"game {game.game_id} is already stored with different events; nothing was changed "
            f"(`paipu read {game.game_id}` shows what is stored)"
        ) from None
    return not res.duplicate


def _same_game(store: EventStore, game: ImportedGame) -> bool:
    """Same event ids, types and payloads as the stored game (metadata aside)."""
    try:
        stored = list(store.read_game(game.game_id))
    except GameNotFound:
        return False
    if len(stored) != len(game.events):
        return False
    return all(
        s.event_id == e.event_id and s.type == e.type and s.payload_json() == e.payload_json()
        for s, e in zip(stored, game.events)
    )


def ingest_files(
    store: EventStore,
    paths: Iterable[Path],
    *,
    format: str | None = None,
    on_game: Callable[[ImportedGame | ParseIssue], None] | None = None,
) -> IngestReport:
    """Parse every file (format sniffed unless given) and append its games to ``store``.
    ``on_game`` is called after each game or issue (progress bars)."""
    report = IngestReport()
    for path in paths:
        try:
            items = parse_file(Path(path), format)
        except (UnknownFormatError, OSError) as e:  # this file only; the others still load
            reason = str(e).removeprefix(f"{path}: ").removeprefix(f"{path}:")
            report.errors.append(ParseIssue(str(path), None, reason.strip()))
            if on_game is not None:
                on_game(report.errors[-1])
            continue
        seen = 0
        for item in items:
            seen += 1
            if isinstance(item, ParseIssue):
                report.errors.append(item)
            else:
                try:
                    if store_game(store, item):
                        report.stored.append(item.game_id)
                        report.events += len(item.events)
                    else:
                        report.duplicates.append(item.game_id)
                except Exception as e:  # a store refusal for this game only
                    report.errors.append(
                        ParseIssue(str(item.source_path), item.first_line, str(e), item.game_id)
                    )
            if on_game is not None:
                on_game(item)
        if not seen:
            report.errors.append(ParseIssue(str(path), None, "no game found in this file"))
    return report
