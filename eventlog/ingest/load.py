"""Load parsed games into the event log: what ``paipu ingest`` and ``paipu quickstart`` run.

Each game is appended as one new stream (expected version ``no_stream``), so a game is
stored whole or not at all. A game already stored with the same event ids is a duplicate
(nothing written); a game id already stored with *other* events is an error for that game
only. Parse issues are collected with their file and line; the other games still load.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from eventlog.errors import InvalidArgument
from eventlog.ingest.base import (
    ImportedGame,
    ParseIssue,
    UnknownFormatError,
    fingerprint,
    parse_file,
)
from eventlog.store.base import (
    NO_STREAM,
    EventStore,
    GameNotFound,
    IdempotencyConflict,
    StreamAlreadyExists,
)

__all__ = [
    "Stored",
    "GameConflict",
    "IngestReport",
    "expand_paths",
    "ingest_files",
    "store_game",
    "with_fingerprint",
]


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


def with_fingerprint(game: ImportedGame) -> ImportedGame:
    """``game`` with its content fingerprint (:func:`fingerprint`) in the metadata of its
    first event, where the store's index finds it."""
    fp = fingerprint(game.events)
    first = game.events[0] if game.events else None
    if first is None or first.metadata.get("fingerprint") == fp:
        return game
    first = first.model_copy(update={"metadata": {**first.metadata, "fingerprint": fp}})
    return replace(game, events=[first, *game.events[1:]])


@dataclass(frozen=True)
class Stored:
    """What :func:`store_game` did: ``written`` (truthy) or not because the same game is
    already stored, as ``game_id`` (which may differ from the imported game's id)."""

    written: bool
    game_id: str

    def __bool__(self) -> bool:
        return self.written


def store_game(store: EventStore, game: ImportedGame) -> Stored:
    """Append ``game`` as a new stream. Written, or not when the same game is already
    stored — by content, whatever id or file it was stored from: the same fingerprint
    (deal, actions and results; :func:`fingerprint`), or the same events under the same
    id. Raises :class:`GameConflict` when the id is taken by a different game (the
    message names both sources)."""
    game = with_fingerprint(game)
    fp = game.events[0].metadata["fingerprint"] if game.events else None
    if fp is not None:
        existing = store.game_with_fingerprint(fp)
        if existing is not None:
            return Stored(False, existing)
    try:
        res = store.append(game.game_id, game.events, NO_STREAM)
    except (StreamAlreadyExists, IdempotencyConflict):
        if _same_game(store, game):
            return Stored(False, game.game_id)
        raise GameConflict(
            f"game {game.game_id} from {game.source_path}"
            f"{f':{game.first_line}' if game.first_line > 1 else ''} has other deal or actions "
            f"than the stored game {game.game_id} (from {_stored_source(store, game.game_id)}); "
            f"nothing was changed (`paipu read {game.game_id}` shows what is stored)"
        ) from None
    return Stored(not res.duplicate, game.game_id)


class GameConflict(InvalidArgument):
    """A game id already stored with a different game (both sources named)."""


def _stored_source(store: EventStore, game_id: str) -> str:
    try:
        first = next(iter(store.read_game(game_id, limit=1)))
    except Exception:
        return "an earlier import"
    meta = first.metadata
    src = meta.get("source") or "an earlier import"
    return f"{src}:{meta['line']}" if isinstance(meta.get("line"), int) and meta["line"] > 1 else str(src)


def _same_game(store: EventStore, game: ImportedGame) -> bool:
    """Same event types and payloads as the stored game (metadata aside)."""
    try:
        stored = list(store.read_game(game.game_id))
    except GameNotFound:
        return False
    if len(stored) != len(game.events):
        return False
    return all(
        s.type == e.type and s.payload_json() == e.payload_json()
        for s, e in zip(stored, game.events)
        if s.type != "game_started"
    )


#: File name endings a directory is searched for (``paipu ingest DIR``).
KNOWN_EXTENSIONS = (".txt", ".json", ".log", ".pmn", ".jsonl")


def expand_paths(paths: Iterable[Path]) -> list[Path]:
    """Files as given, and for each directory every file below it (recursively) whose
    name ends in one of :data:`KNOWN_EXTENSIONS` (case-insensitive), in sorted path order;
    hidden files and directories (``.name``) are skipped. Raises FileNotFoundError for a
    path that does not exist."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found = [
                f for f in p.rglob("*")
                if f.is_file() and f.name.lower().endswith(KNOWN_EXTENSIONS)
                and not any(part.startswith(".") for part in f.relative_to(p).parts)
            ]
            out.extend(sorted(found))
        elif p.exists():
            out.append(p)
        else:
            raise FileNotFoundError(f"no such file or directory: {p}")
    return out


def ingest_files(
    store: EventStore,
    paths: Iterable[Path],
    *,
    format: str | None = None,
    on_game: Callable[[ImportedGame | ParseIssue], None] | None = None,
    on_file: Callable[[Path], None] | None = None,
) -> IngestReport:
    """Parse every file (format sniffed unless given; directories are expanded by
    :func:`expand_paths`) and append its games to ``store``. ``on_game`` is called after
    each game or issue, ``on_file`` after each file (progress bars)."""
    report = IngestReport()
    for path in expand_paths(paths):
        try:
            items = parse_file(Path(path), format)
        except (UnknownFormatError, OSError) as e:  # this file only; the others still load
            reason = str(e).removeprefix(f"{path}: ").removeprefix(f"{path}:")
            report.errors.append(ParseIssue(str(path), None, reason.strip()))
            if on_game is not None:
                on_game(report.errors[-1])
            if on_file is not None:
                on_file(path)
            continue
        seen = 0
        for item in items:
            seen += 1
            if isinstance(item, ParseIssue):
                report.errors.append(item)
            else:
                try:
                    done = store_game(store, item)
                    if done:
                        report.stored.append(item.game_id)
                        report.events += len(item.events)
                    else:
                        report.duplicates.append(done.game_id)
                except Exception as e:
                    report.errors.append(
                        ParseIssue(str(item.source_path), item.first_line, str(e), item.game_id)
                    )
            if on_game is not None:
                on_game(item)
        if not seen:
            report.errors.append(ParseIssue(str(path), None, "no game found in this file"))
        if on_file is not None:
            on_file(path)
    return report
