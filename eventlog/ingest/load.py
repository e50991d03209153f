"""Load parsed games into the event log: what ``paipu ingest`` and ``paipu quickstart`` run.

Each game is appended as one new stream (expected version ``no_stream``), so a game is
stored whole or not at all. A game already stored with the same event ids is a duplicate
(nothing written); a game id already stored with *other* events is an error for that game
only. Parse issues are collected with their file and line; the other games still load.

The bulk path (:func:`ingest_files`) is a pipeline:

1. **parse** — files are read by ``workers`` processes (a file at a time each, in file
   order); each game is built (``GameBuilder``: every distinct payload validated and
   encoded once, a deal or a score made directly when its fields are plainly valid), given
   its content fingerprint
   (:func:`~eventlog.ingest.base.fingerprint_of_texts`) and **sealed**: its rows encoded
   and hash-chained (:class:`eventlog.store.planning.SealedBatch`) — a
   :class:`PreparedGame`, only strings and ints, cheap to send to the storing process;
2. **store** — this process takes the games in file order, leaves out the ones already
   stored (the same game, docs/events.md "Same game": a stored game with the same
   fingerprint, one query per chunk received, confirmed by :func:`same_game`), and appends
   :data:`GAMES_PER_COMMIT` games per durable transaction
   (:meth:`~eventlog.store.base.EventStore.bulk_append`: positions and the log's running
   hash, one insert per chunk; a game whose id or event id is taken is planned on its own
   and refused or skipped as a duplicate, the others are written). With parsing processes
   a chunk that arrives when the next one is not there yet is written at once, into the
   open transaction, while the next ones are parsed — storing starts with the first 8
   games, not after 200, and ends one chunk after the last is parsed — and chunks that
   arrive while others wait are written together (one write per commit, as before: a write
   per chunk cost ~5% more CPU at 10,000 games); the commit follows the
   :data:`GAMES_PER_COMMIT` th game as before.

With one parsing process, it also works out the log's running hash
(:func:`~eventlog.hashing.log_hash`, one SHA-256 per event) as it will be when its games are
stored one after the other from the log's head at the start
(:meth:`SealedBatch.of <eventlog.store.planning.SealedBatch.of>`, in the pass that chains
the rows): the storing process — the longer half, on the other core — takes it when it
finds the log where the game expected it (:meth:`~eventlog.store.planning.SealedBatch.log_hash_after`) and hashes the
rows itself otherwise (after a game left out as a duplicate, or another writer's commit).

The chain hash covers ``recorded_at``, so a parsing process seals each game with the
store's clock (:meth:`~eventlog.store.base.EventStore.now`) as this process last read it
— at the start and before each transaction — not at its commit: the events of a bulk
import carry the time they were sealed, at most a few transactions before their commit.

A game is acknowledged (in the report, to ``on_game``) only once its transaction is
durable; an interrupted import (Ctrl-C, a killed process) leaves whole games only — the
transactions committed before it — and running it again stores the rest, nothing twice.
With one file the parsing process and the storing one still overlap (two cores busy).
"""

from __future__ import annotations

import json
import marshal
import multiprocessing
import os
import queue
import signal
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eventlog.errors import InvalidArgument
from eventlog.events import NewEvent
from eventlog.hashing import canonical_text
from eventlog.ingest.base import (
    ImportedGame,
    ParseIssue,
    UnknownFormatError,
    file_trouble,
    fingerprint,
    fingerprint_part,
    issue_reason,
    parse_file,
)
from eventlog.store.base import (
    NO_STREAM,
    EventStore,
    GameNotFound,
    IdempotencyConflict,
    StreamAlreadyExists,
)
from eventlog.store.types import LogHead
from eventlog.store.planning import SealedBatch, SealedRows
from eventlog.store.streams import LOG_STREAM_PREFIX, LogStreamRefused, is_log_stream

__all__ = [
    "GAMES_PER_COMMIT",
    "PARALLEL_BYTES",
    "PreparedGame",
    "prepare_game",
    "default_workers",
    "Stored",
    "GameConflict",
    "IngestReport",
    "expand_paths",
    "walk_directory",
    "ingest_files",
    "store_game",
    "same_game",
    "same_start",
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
    #: games read with something to hear of (bytes replaced: ``FILE:LINE: …``), in file order
    warnings: list[ParseIssue] = field(default_factory=list)

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
    return ImportedGame(game.game_id, [first, *game.events[1:]], game.source_path, game.first_line, game.format)


@dataclass(frozen=True)
class Stored:
    """What :func:`store_game` did: ``written`` (truthy) or not because the same game is
    already stored, as ``game_id`` (which may differ from the imported game's id)."""

    written: bool
    game_id: str

    def __bool__(self) -> bool:
        return self.written


def refuse_log_stream(game_id: str) -> None:
    """An imported file holds games: a game id naming one of the log's own streams
    (``paipu:players``, eventlog/store/streams.py) is refused — even with the events that
    stream holds, which only ``paipu players alias`` (or a referee's Append) writes, with its
    rules. Raises :class:`~eventlog.store.streams.LogStreamRefused` (field ``game_id``)."""
    if is_log_stream(game_id):
        raise LogStreamRefused(f"game_id {game_id!r}: an imported file holds games, and streams named "
                               f"'{LOG_STREAM_PREFIX}…' are the log's own (player aliases are not imported)",
                               "game_id", game_id)


def store_game(store: EventStore, game: ImportedGame) -> Stored:
    """Append ``game`` as a new stream. Written, or not when the same game is already
    stored (:func:`same_game`) — whatever id or file it was stored from: a stored game with
    the same fingerprint (:func:`fingerprint`) that :func:`same_game` confirms, or the same
    game under the same id. Raises :class:`GameConflict` when the id is taken by a
    different game (the message names both sources)."""
    refuse_log_stream(game.game_id)
    game = with_fingerprint(game)
    fp = game.events[0].metadata["fingerprint"] if game.events else None
    if fp is not None:
        existing = _Candidates(store, [fp]).stored_as(_Game.of_events(game.events), fp)
        if existing is not None:
            return Stored(False, existing)
    try:
        res = store.append(game.game_id, game.events, NO_STREAM)
    except (StreamAlreadyExists, IdempotencyConflict):
        if _same_game(store, game):
            return Stored(False, game.game_id)
        raise GameConflict(_conflict(store, game)) from None
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


#: Metadata keys of a game's first event that say where and how its record was read — the
#: file (``source``), its format, the place in it (``line``, ``record``, ``token``), the text
#: encoding, the content fingerprint, a JSON Lines copy's original place (``origin``) — not
#: which game it is. The others (a PMN ``date``, ``event``, ``scoring``; a Botzone date) are
#: part of the game.
READ_KEYS = frozenset({"source", "format", "line", "record", "token", "encoding", "fingerprint", "origin"})


def _names_its_game(source: Any) -> bool:
    """Whether a ``game_started`` ``source`` names the game itself (a link to the match or
    table: ``https://botzone.org.cn/match/<id>``, a PMN ``Site``), not only where the record
    was read or made (a file name, ``botzone`` for a Botzone download, a simulator's run)."""
    return isinstance(source, str) and "://" in source


def same_start(mine: tuple[dict[str, Any], dict[str, Any]], other: tuple[dict[str, Any], dict[str, Any]]) -> bool:
    """Whether two ``game_started`` events, ``(payload, metadata)`` each, start the same
    game (:func:`same_game`): the same payload — ruleset, ruleset options, initial scores,
    and, when both sources name their game (:func:`_names_its_game`), the same source and
    players (a record that does not name its match may not know its players either: a
    Botzone download writes ``Player N``) — and the same value for every metadata key
    both carry that is not a :data:`READ_KEYS` one (a date, a PMN event)."""
    return not _start_differences(mine, other)


def _start_differences(mine: tuple[dict[str, Any], dict[str, Any]],
                       other: tuple[dict[str, Any], dict[str, Any]]) -> list[str]:
    """The payload fields and metadata keys by which :func:`same_start` tells two starts apart."""
    (p, m), (q, n) = mine, other
    named = _names_its_game(p.get("source")) and _names_its_game(q.get("source"))
    keys = [k for k in sorted(p.keys() | q.keys())
            if (named or k not in ("source", "players")) and p.get(k) != q.get(k)]
    return keys + [k for k in sorted((m.keys() & n.keys()) - READ_KEYS) if m[k] != n[k] and k not in keys]


def _same_hand_start(a: str, b: str) -> bool:
    """Two ``hand_started`` payload texts: equal, or equal but for a wall one of them does
    not know (``"wall":[]``; :func:`~eventlog.ingest.base.fingerprint_part` leaves it out)."""
    if a == b:
        return True
    if '"wall":[]' not in a and '"wall":[]' not in b:
        return False
    return fingerprint_part("hand_started", a) == fingerprint_part("hand_started", b)


@dataclass(frozen=True)
class _Game:
    """What :func:`same_game` compares of one game: ``(type, payload text)`` of each event
    and the first event's metadata."""

    events: Sequence[tuple[str, str]]
    first_metadata: dict[str, Any]

    @classmethod
    def of_events(cls, events: Sequence[NewEvent]) -> _Game:
        return cls([(e.type, canonical_text(e.payload_json())) for e in events],
                   dict(events[0].metadata) if events else {})

    @classmethod
    def of_rows(cls, rows: Sequence[tuple[Any, ...]]) -> _Game:
        """From a :class:`SealedBatch`'s rows (type at 3, payload text at 5, metadata at 6)."""
        return cls([(r[3], r[5]) for r in rows], json.loads(rows[0][6]) if rows else {})

    @classmethod
    def stored(cls, store: EventStore, game_id: str) -> _Game | None:
        try:
            events = list(store.read_game(game_id))
        except GameNotFound:
            return None
        return cls.of_events(events)  # type: ignore[arg-type]

    def start(self) -> tuple[dict[str, Any], dict[str, Any]] | None:
        if not self.events or self.events[0][0] != "game_started":
            return None
        return json.loads(self.events[0][1]), self.first_metadata

    def same(self, other: _Game) -> bool:
        """:func:`same_game` of the two."""
        if len(self.events) != len(other.events):
            return False
        for (t, a), (u, b) in zip(self.events, other.events):
            if t != u:
                return False
            if a == b:
                continue
            if t == "hand_started" and _same_hand_start(a, b):
                continue
            if t != "game_started":
                return False
        mine, theirs = self.start(), other.start()
        return (mine is None) == (theirs is None) and (mine is None or same_start(mine, theirs))  # type: ignore[arg-type]

    def same_as_stored(self, store: EventStore, game_id: str, first: tuple[dict[str, Any], dict[str, Any]]) -> bool:
        """:meth:`same` of the stored game ``game_id`` whose first event is ``first``
        (payload, metadata) and which carries this game's fingerprint: every event but
        ``game_started`` and the walls is then the same (the fingerprint is a SHA-256 of
        them), so only the walls this game knows are read (each such ``hand_started``)."""
        mine = self.start()
        if mine is None or not same_start(mine, first):
            return False
        for seq, (t, text) in enumerate(self.events):
            if t == "hand_started" and '"wall":[]' not in text:
                try:
                    got = next(iter(store.read_game(game_id, seq, 1)), None)
                except GameNotFound:
                    return False
                if got is None or got.type != t or not _same_hand_start(text, canonical_text(got.payload_json())):
                    return False
        return True

    def named(self) -> str | None:
        """The ``game_started`` source when it names the game (:func:`_names_its_game`)."""
        start = self.start()
        source = start[0].get("source") if start is not None else None
        return source if _names_its_game(source) else None


def _named(payload: dict[str, Any]) -> str | None:
    source = payload.get("source")
    return source if _names_its_game(source) else None


class _Candidates:
    """The stored games that carry some fingerprints (one query), each with its first
    event, by fingerprint and by the game its source names (None: names none) — a game
    that names its match is compared with those naming the same one and those naming none
    (:func:`same_start`), not with every game of one deal (a session of many tables)."""

    def __init__(self, store: EventStore, fingerprints: Sequence[str]) -> None:
        self.store = store
        self.all: dict[str, list[tuple[str, tuple[dict[str, Any], dict[str, Any]]]]] = {}
        self.by_name: dict[tuple[str, str | None], list[tuple[str, tuple[dict[str, Any], dict[str, Any]]]]] = {}
        for fp, rows in store.games_by_fingerprint(fingerprints).items():
            for game_id, payload, metadata in rows:
                first = (json.loads(payload), json.loads(metadata))
                self.all.setdefault(fp, []).append((game_id, first))
                self.by_name.setdefault((fp, _named(first[0])), []).append((game_id, first))

    def stored_as(self, game: _Game, fp: str) -> str | None:
        """The id of the stored game ``game`` (of fingerprint ``fp``) is (:func:`same_game`), or None."""
        if fp not in self.all:
            return None
        name = game.named()
        found = self.all[fp] if name is None else self.by_name.get((fp, name), []) + self.by_name.get((fp, None), [])
        return next((i for i, first in found if game.same_as_stored(self.store, i, first)), None)


def same_game(a: Sequence[NewEvent], b: Sequence[NewEvent]) -> bool:
    """Whether two games' events are one game, "already stored" when one of them is
    (docs/events.md, "Same game"): the same events in the same order with the same types
    and payloads — event ids aside, a ``hand_started`` wall one of them does not know
    aside — and ``game_started`` events that start the same game (:func:`same_start`:
    ruleset, options, initial scores, the players and source when both name their game,
    the game's metadata such as its date)."""
    return _Game.of_events(a).same(_Game.of_events(b))


def _same_game(store: EventStore, game: ImportedGame | PreparedGame) -> bool:
    """:func:`same_game` of ``game`` and the game stored under its id."""
    stored = _Game.stored(store, game.game_id)
    if stored is None:
        return False
    mine = _Game.of_rows(game.batch.rows) if isinstance(game, PreparedGame) else _Game.of_events(game.events)
    return mine.same(stored)


def _difference(store: EventStore, game: ImportedGame | PreparedGame) -> tuple[str | None, int | None]:
    """Where ``game`` first differs from the stored game of its id: in words ("event 87
    (hand_ended): scores [1, 2, 3, -6] here, [8, 8, 8, -24] stored"), or None when it is the
    same game (:func:`same_game`), and the line of ``game``'s file that event was read from
    (its ``line`` metadata; None when the format has no lines)."""
    try:
        stored = list(store.read_game(game.game_id))
    except GameNotFound:
        return "no game is stored under its id", None
    if isinstance(game, PreparedGame):
        mine = [(e.type, e.payload) for e in game.batch.events]
        metas = [row[6] for row in game.batch.rows]

        def meta_of(seq: int) -> dict[str, Any]:
            return json.loads(metas[seq]) if seq < len(metas) else {}
    else:
        mine = [(e.type, canonical_text(e.payload_json())) for e in game.events]

        def meta_of(seq: int) -> dict[str, Any]:
            return dict(game.events[seq].metadata) if seq < len(game.events) else {}
    my_meta = meta_of(0)

    def line_of(seq: int) -> int | None:
        line = meta_of(min(seq, len(mine) - 1)).get("line") if mine else None
        return line if isinstance(line, int) and not isinstance(line, bool) and line > 0 else None

    found = _first_difference(stored, mine, my_meta)
    return (None, None) if found is None else (found[0], line_of(found[1]))


def _first_difference(stored: Sequence[Any], mine: Sequence[tuple[str, str]],
                      my_meta: dict[str, Any]) -> tuple[str, int] | None:
    """:func:`_difference`'s words and the seq of the first event that differs, or None."""
    for seq, (s, (t, p)) in enumerate(zip(stored, mine)):
        if s.type != t:
            return f"event {seq} is {t} here, {s.type} in the stored game", seq
        theirs = canonical_text(s.payload_json())
        if (theirs == p and t != "game_started") or (t == "hand_started" and _same_hand_start(p, theirs)):
            continue  # (a game_started's metadata tells the game's date)
        a, b = json.loads(theirs), json.loads(p)
        if t == "game_started":
            differ = _start_differences((b, my_meta), (a, dict(s.metadata)))
            if not differ:
                continue
            a, b = {**dict(s.metadata), **a}, {**my_meta, **b}  # the payload's source, not the file's
            keys = differ
        else:
            keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
        if len(keys) == 1:
            k = keys[0]
            return (f"event {seq} ({t}): {k} {_shortened(json.dumps(b.get(k), ensure_ascii=False))} here, "
                    f"{_shortened(json.dumps(a.get(k), ensure_ascii=False))} stored"), seq
        return f"event {seq} ({t}): {_shortened(', '.join(keys))} differ", seq
    if len(stored) != len(mine):
        return f"{len(mine)} events here, {len(stored)} in the stored game", min(len(stored), len(mine))
    return None


#: The longest value a conflict's words quote whole (a game's differences are shortened in
#: the middle, so that the line keeps its remedy at the end; breaker9 F3).
_QUOTED = 60


def _shortened(text: str, limit: int = _QUOTED) -> str:
    """``text``, or its start and end around ``…`` when longer than ``limit`` characters."""
    if len(text) <= limit:
        return text
    head = (limit - 1) * 2 // 3
    return text[:head] + "…" + text[len(text) - (limit - 1 - head):]


#: File name endings a directory is searched for (``paipu ingest DIR``).
KNOWN_EXTENSIONS = (".txt", ".json", ".log", ".pmn", ".jsonl")
#: Endings of compressed files: ``games.txt.gz`` in a directory is named in a note, not skipped in silence.
COMPRESSED = (".gz", ".bz2", ".xz", ".zst", ".zip", ".7z")


def expand_paths(paths: Iterable[Path]) -> list[Path]:
    """Files as given, and for each directory the files below it that
    :func:`walk_directory` finds (its notes dropped). Raises FileNotFoundError for a path
    that does not exist."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(walk_directory(p)[0])
        elif p.exists():
            out.append(p)
        else:
            raise FileNotFoundError(f"no such file or directory: {p}")
    return out


def _kind(mode: int) -> str:
    """What a file that is neither a regular file nor a directory is, in words."""
    return ("a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")


def walk_directory(root: Path) -> tuple[list[Path], list[tuple[Path, str]]]:
    """``(files, skipped)``: every regular file below the directory ``root`` (recursively)
    whose name ends in one of :data:`KNOWN_EXTENSIONS` (case-insensitive), in sorted path
    order, and the entries left out that a person should hear of, each with why.

    Hidden files and directories (``.name``) are left out silently. Symbolic links are
    followed, to files and to directories (a corpus directory made of links to data sets);
    each real directory is searched once — a second way into one (a link to a directory
    already searched, a link to an ancestor: a cycle) is skipped with a note, the first
    way in, in sorted order, is the one searched. Skipped with a note: a link that leads
    nowhere (dangling, or a loop), a FIFO, socket or device with a known ending, a
    directory or file that cannot be read (no permission)."""
    files: list[Path] = []
    skipped: list[tuple[Path, str]] = []
    seen: dict[tuple[int, int], Path] = {}
    try:
        st = root.stat()
        seen[(st.st_dev, st.st_ino)] = root
    except OSError as e:
        return [], [(root, f"cannot read the directory: {(e.strerror or str(e)).lower()}")]
    todo = [root]
    while todo:
        d = todo.pop()
        try:
            names = sorted(os.listdir(d))
        except OSError as e:
            skipped.append((d, f"cannot read the directory: {(e.strerror or str(e)).lower()}"))
            continue
        below: list[Path] = []
        for name in names:
            if name.startswith("."):
                continue
            f = d / name
            known = name.lower().endswith(KNOWN_EXTENSIONS)
            try:
                st = f.stat()  # follows links
            except OSError as e:
                if f.is_symlink():
                    try:
                        target = os.readlink(f)
                    except OSError:
                        target = "?"
                    skipped.append((f, f"a symbolic link to {target}, which does not exist or cannot be reached"
                                       f" ({(e.strerror or str(e)).lower()})"))
                elif known:
                    skipped.append((f, f"cannot read: {(e.strerror or str(e)).lower()}"))
                continue
            if not known and stat.S_ISREG(st.st_mode) and name.lower().endswith(COMPRESSED) \
                    and name.lower()[: name.lower().rindex(".")].endswith(KNOWN_EXTENSIONS):
                skipped.append((f, "a compressed file: decompress it first (a directory is searched for "
                                   f"{' '.join(KNOWN_EXTENSIONS)})"))
                continue
            if stat.S_ISDIR(st.st_mode):
                key = (st.st_dev, st.st_ino)
                if key in seen:
                    skipped.append((f, f"the same directory as {seen[key]}, searched once"))
                    continue
                seen[key] = f
                below.append(f)
            elif not known:
                continue
            elif not stat.S_ISREG(st.st_mode):
                skipped.append((f, f"{_kind(st.st_mode)}, not a file to read"))
            elif not os.access(f, os.R_OK):
                skipped.append((f, "cannot read: permission denied"))
            else:
                files.append(f)
        todo.extend(reversed(below))  # depth first, in name order
    return sorted(files), skipped


#: Games per durable transaction of a bulk import (one commit, one checkpoint sync).
GAMES_PER_COMMIT = 200
#: From this many bytes of input on, :func:`default_workers` parses in other processes.
PARALLEL_BYTES = 2 << 20
#: Prepared games per message from a parsing process (the first message of a file is
#: smaller, so that storing starts soon).
_CHUNK = 64
_FIRST_CHUNK = 8
#: Bytes a parsing process's pipe holds (Linux; the most an unprivileged process may ask,
#: ``/proc/sys/fs/pipe-max-size``): about half a message of :data:`_CHUNK` Botzone games.
_PIPE_BYTES = 1 << 20


def _widen(q: Any) -> None:
    """Let the pipe under the queue ``q`` hold :data:`_PIPE_BYTES` (Linux ``F_SETPIPE_SZ``;
    elsewhere, or when refused, it stays as it is). A message of 64 games is ~2 MB: through
    the default 64 KiB pipe the storing process read it in ~30 pieces, each a system call
    and a copy into a growing buffer, and the parsing process was woken as often to write
    the next (~0.5 s of the storing process's CPU for 10,000 games)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import fcntl

        fcntl.fcntl(q._reader.fileno(), getattr(fcntl, "F_SETPIPE_SZ", 1031), _PIPE_BYTES)
    except (OSError, AttributeError, ValueError):
        pass


@dataclass(frozen=True)
class PreparedGame:
    """A parsed game ready to append: sealed (its rows encoded and hash-chained, the
    fingerprint in the first event's metadata), where it came from, and its fingerprint."""

    game_id: str
    source_path: str
    first_line: int
    fingerprint: str | None
    batch: SealedBatch
    #: ``(line, words)``: what the parser warned of (:attr:`ImportedGame.warnings`)
    warnings: tuple[tuple[int, str], ...] = ()

    @property
    def events(self) -> int:
        return len(self.batch.rows)


def prepare_game(game: ImportedGame, recorded_at: str, log: tuple[int, str] | None = None) -> PreparedGame:
    """Seal ``game`` for appending at ``recorded_at``, with its content fingerprint
    (:func:`fingerprint`) in the metadata of its first event — the same bytes
    :func:`store_game` writes (at that ``recorded_at``). ``log``: ``(position, running
    hash)`` of the log the game is expected to follow — its rows' log hash is then worked
    out in the same pass (:meth:`SealedBatch.of`). Raises
    :class:`~eventlog.errors.InvalidArgument` for a game the store would refuse (no events,
    a repeated event id, a bad game id)."""
    refuse_log_stream(game.game_id)
    batch, fp = game.sealed(recorded_at, log)
    return PreparedGame(game.game_id, str(game.source_path), game.first_line, fp, batch, game.warnings)


def default_workers(paths: Sequence[Path]) -> int:
    """Parsing processes when none are asked for: one per core but the one this process
    stores with (``os.cpu_count() - 1``, at least 1) once the files hold
    :data:`PARALLEL_BYTES` or more, else 0 (parse in this process). Storing is the longer
    half (a game parses in less time than it takes to insert), so a parsing process per
    core would only take turns on the storing core."""
    size = 0
    for p in paths:
        try:
            size += Path(p).stat().st_size
        except OSError:
            pass
    return max(1, (os.cpu_count() or 1) - 1) if size >= PARALLEL_BYTES else 0


# --------------------------------------------------------------------------- parsing


def _file_error(path: Path, e: BaseException) -> ParseIssue:
    if isinstance(e, OSError) and e.strerror:  # never "[Errno 2] No such file or directory: 'FILE'"
        return ParseIssue(str(path), None, file_trouble(e))
    reason = str(e).removeprefix(f"{path}: ").removeprefix(f"{path}:")
    return ParseIssue(str(path), None, reason.strip())


class _Clock:
    """The store's clock as the importing process last read it (:meth:`EventStore.now`),
    shared with the parsing processes (``shared``: bytes in shared memory) or not (0
    workers)."""

    SIZE = 256

    def __init__(self, now: str, shared: Any = None) -> None:
        self.shared = shared
        self.text = now
        self.set(now)

    @classmethod
    def attached(cls, shared: Any) -> _Clock:
        """The clock a parsing process reads (written by the importing process)."""
        clock = cls.__new__(cls)
        clock.shared, clock.text = shared, ""
        return clock

    def set(self, now: str) -> None:
        self.text = now
        if self.shared is not None:
            with self.shared.get_lock():
                self.shared.value = now.encode()

    def get(self) -> str:
        if self.shared is None:
            return self.text
        with self.shared.get_lock():
            return self.shared.value.decode()


class _LogAhead:
    """The log's head (position, running hash) as it will be once every game sealed so far
    is stored, in order, after the head it starts from: what a lone parsing process works
    out for the storing one (:meth:`SealedBatch.after_log`)."""

    def __init__(self, head: LogHead) -> None:
        self.position, self.log_hash = head.position, head.log_hash

    def prepare(self, game: ImportedGame, recorded_at: str) -> PreparedGame:
        """:func:`prepare_game` of ``game`` following the games prepared so far."""
        prepared = prepare_game(game, recorded_at, (self.position, self.log_hash))
        log = prepared.batch.log
        assert log is not None
        self.position += len(prepared.batch.rows)
        self.log_hash = log[2]
        return prepared


def _prepared_items(path: Path, format: str | None, clock: _Clock,
                    ahead: _LogAhead | None = None) -> Iterator[PreparedGame | ParseIssue]:
    """One file's games, prepared (and followed by ``ahead``), and its issues, in file
    order (never raises for bad input: a file that cannot be read or sniffed is one issue)."""
    try:
        items = parse_file(Path(path), format)
        seen = 0
        for item in items:
            seen += 1
            if isinstance(item, ParseIssue):
                yield item
                continue
            try:
                yield prepare_game(item, clock.get()) if ahead is None else ahead.prepare(item, clock.get())
            except InvalidArgument as e:
                yield ParseIssue(str(item.source_path), item.first_line, str(e), item.game_id)
        if not seen:
            yield ParseIssue(str(path), None, "no game found in this file")
    except (UnknownFormatError, OSError) as e:  # this file only; the others still load
        yield _file_error(path, e)


def _parse_worker(jobs: list[tuple[int, str, str | None]], out: multiprocessing.Queue, parent: int, shared: Any,
                  head: LogHead | None = None) -> None:
    """A parsing process: its files in order, each as chunks ``(index, items, last)``. It
    stops when the importing process ``parent`` is gone (killed: nobody reads the queue,
    and a forked parser must not keep the store's lock file open after it), wherever it is
    then: parsing, waiting to put, or at exit waiting for its last chunks to be written. ``head``: the
    log's head at the start, when this process parses every file (:class:`_LogAhead`)."""

    def watch() -> None:
        # gone: a forked process also holds the store's files open. Watched all along, not
        # only while putting: a process that has sent its last file waits at exit for the
        # queue's feeder thread to write it all to the pipe, which nobody reads any more
        # (the pipe stays open: every parsing process inherited its read end), forever.
        while os.getppid() == parent:
            time.sleep(0.25)
        os._exit(1)

    threading.Thread(target=watch, name="importer-watch", daemon=True).start()
    # Ctrl-C reaches the whole process group: the importing process says "interrupted" and
    # stops this one (terminate); a KeyboardInterrupt here would only print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # SIGTERM (``terminate`` above, or a ``kill`` of the group) ends it at once: the importing
    # process's own handler (it raises there, as Ctrl-C does) is not for a forked parser.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)

    def put(message: tuple[int, list[PreparedGame | ParseIssue], bool]) -> None:
        data = _to_wire(*message)
        while True:
            try:
                out.put(data, timeout=1.0)
                return
            except queue.Full:
                pass

    # The queue's feeder thread writes a message to the pipe in pieces as this process
    # reads it, taking the GIL back after each piece; with the default switch interval the
    # parsing thread kept it ~5 ms each time and the storing process waited for its games.
    sys.setswitchinterval(1e-4)
    clock = _Clock.attached(shared)
    ahead = _LogAhead(head) if head is not None else None
    for index, path, format in jobs:
        chunk: list[PreparedGame | ParseIssue] = []
        size = _FIRST_CHUNK
        try:
            for item in _prepared_items(Path(path), format, clock, ahead):
                chunk.append(item)
                if len(chunk) >= size:
                    put((index, chunk, False))
                    chunk, size = [], _CHUNK
        except Exception as e:  # reported for this file, the others go on
            chunk.append(ParseIssue(str(path), None, issue_reason(e)))
        put((index, chunk, True))


def _to_wire(index: int, items: list[PreparedGame | ParseIssue], last: bool) -> bytes:
    """A parsing process's message: tuples of strings and ints in :mod:`marshal`'s format
    (written and read by the same interpreter; twice as fast to read back as pickled
    objects, and the storing process reads every row), a game's rows as the columns they
    are kept in (:class:`~eventlog.store.planning.SealedRows`: a few sequences a game, not
    ten fields a row)."""
    return marshal.dumps((index, last, [
        (0, g.game_id, g.source_path, g.first_line, g.fingerprint, g.batch.game_id, g.batch.rows.columns(),
         g.batch.ruleset, g.batch.log, g.warnings)
        if isinstance(g, PreparedGame) else (1, g.path, g.line, g.reason, g.game_id, g.record)
        for g in items
    ]))


def _from_wire(data: bytes) -> tuple[int, list[PreparedGame | ParseIssue], bool]:
    index, last, items = marshal.loads(data)
    return index, [
        PreparedGame(t[1], t[2], t[3], t[4], SealedBatch(t[5], SealedRows(*t[6]), t[7], t[8]), t[9]) if t[0] == 0
        else ParseIssue(*t[1:])
        for t in items
    ], last


def _context() -> Any:
    """How parsing processes start: forked on Linux (a copy of this process,
    ready at once; it only parses and writes to its queue — it never touches the store,
    and leaves with ``os._exit``, closing nothing of the parent's), else spawned (a fresh
    interpreter that imports the importers first: about half a second, a second on a
    busy machine, during which nothing can be stored)."""
    linux = sys.platform.startswith("linux")  # elsewhere a fork may not copy the system's libraries safely
    return multiprocessing.get_context("fork" if linux else "spawn")


def _parsed(paths: list[Path], format: str | None, workers: int, clock: _Clock,
            head: LogHead | None = None) -> Iterator[tuple[Path, list[PreparedGame | ParseIssue], bool, bool]]:
    """``(path, items, last_of_file, more)`` in file order: parsed here (``workers`` == 0) or by
    ``workers`` processes (at most one per file), file ``i`` by process
    ``i % workers`` (each sends its files in order through its own bounded queue, so this
    process reads them back in file order and memory stays bounded). A lone parsing
    process also works out the log's running hash from ``head`` (:class:`_LogAhead`).
    ``more``: the next chunk is already there to read (always, parsed here), so this
    process would not wait for it."""
    if workers <= 0:
        for path in paths:
            chunk: list[PreparedGame | ParseIssue] = []
            for item in _prepared_items(path, format, clock):
                chunk.append(item)
                if len(chunk) >= _CHUNK:
                    yield path, chunk, False, True
                    chunk = []
            yield path, chunk, True, True
        return
    n = min(workers, len(paths))
    ctx = _context()
    queues = [ctx.Queue(maxsize=8) for _ in range(n)]
    for q in queues:
        _widen(q)
    procs = [
        ctx.Process(
            target=_parse_worker,
            args=([(i, str(p), format) for i, p in enumerate(paths) if i % n == w], queues[w], os.getpid(), clock.shared,
                  head if n == 1 else None),
            daemon=True,
        )
        for w in range(n)
    ]
    for p in procs:
        p.start()
    try:
        for i, path in enumerate(paths):
            q, proc = queues[i % n], procs[i % n]
            while True:
                try:
                    index, items, last = _from_wire(q.get(timeout=1.0))
                except queue.Empty:
                    if not proc.is_alive() and q.empty():
                        yield path, [ParseIssue(str(path), None, f"the parsing process stopped (exit status {proc.exitcode})")], True, False
                        break
                    continue
                assert index == i
                after = q if not last else queues[(i + 1) % n] if i + 1 < len(paths) else None
                yield path, items, last, after is not None and not after.empty()
                if last:
                    break
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(timeout=5)


# --------------------------------------------------------------------------- storing


def ingest_files(
    store: EventStore,
    paths: Iterable[Path],
    *,
    format: str | None = None,
    on_game: Callable[[PreparedGame | ParseIssue], None] | None = None,
    on_file: Callable[[Path], None] | None = None,
    workers: int | None = None,
    games_per_commit: int = GAMES_PER_COMMIT,
) -> IngestReport:
    """Parse every file (format sniffed unless given; directories are expanded by
    :func:`expand_paths`) and append its games to ``store`` (see the module doc).
    ``workers``: parsing processes (0: parse in this process; None:
    :func:`default_workers`). ``games_per_commit``: games per durable transaction.
    ``on_game`` is called for each game once it is durable (or left out) and each issue,
    ``on_file`` after each file (progress bars). Games are stored in file order, so the
    log is the same for any number of workers."""
    files = expand_paths(paths)
    n_workers = default_workers(files) if workers is None else workers
    now = store.now()
    head = store.log_head() if n_workers > 0 else None
    if n_workers > 0 and len(now.encode()) < _Clock.SIZE:
        clock = _Clock(now, _context().Array("c", _Clock.SIZE))
    else:
        clock, n_workers = _Clock(now), 0
    report = IngestReport()
    # The games of the open transaction, in file order (repeats of one of them aside): the
    # first ``checked`` were compared with the stored games and written (or found stored).
    pending: list[PreparedGame] = []
    checked = 0
    pending_fps: dict[str, list[PreparedGame]] = {}  # pending games by fingerprint
    names: dict[int, str | None] = {}  # id() of a pending game -> the game its source names
    stored_as: dict[int, str] = {}  # id() of a pending game -> the stored game it is
    written: list[PreparedGame] = []  # the pending games given to the store, in order

    def _pending_name(game: PreparedGame) -> str | None:
        if id(game) not in names:
            names[id(game)] = _Game.of_rows(game.batch.rows).named()
        return names[id(game)]
    repeated: list[tuple[PreparedGame, PreparedGame]] = []  # a game and the pending one it is (same_game)

    def duplicate(game: PreparedGame, existing: str) -> None:
        report.duplicates.append(existing)
        if on_game is not None:
            on_game(game)

    def write() -> None:
        """The pending games not yet written: those already stored left out (a stored game
        with the same fingerprint is a candidate, confirmed by same_game), the others
        written into the open transaction."""
        nonlocal checked
        fresh = pending[checked:]
        if not fresh:
            return
        checked = len(pending)
        candidates = _Candidates(store, [g.fingerprint for g in fresh if g.fingerprint is not None])
        games: list[PreparedGame] = []
        for game in fresh:
            fp = game.fingerprint
            existing = None
            if fp is not None and fp in candidates.all:
                existing = candidates.stored_as(_Game.of_rows(game.batch.rows), fp)
            if existing is not None:
                stored_as[id(game)] = existing
            else:
                games.append(game)
        if games:
            if not written:
                clock.set(store.now())  # what the games sealed from now on carry
            bulk.write([g.batch for g in games])
            written.extend(games)

    def commit() -> None:
        nonlocal checked
        if not pending:
            return  # (a repeated game always follows a pending one)
        write()
        results = bulk.commit()  # durable: from here on its games are acknowledged
        for game in pending:
            if id(game) in stored_as:
                duplicate(game, stored_as[id(game)])
        for game, first in repeated:
            duplicate(game, stored_as.get(id(first)) or first.game_id)
        for game, res in zip(written, results):
            if isinstance(res, (StreamAlreadyExists, IdempotencyConflict)):
                if _same_game(store, game):
                    report.duplicates.append(game.game_id)
                else:
                    why, line = _conflict_at(store, game)
                    report.errors.append(ParseIssue(game.source_path, line, why, game.game_id))
            elif isinstance(res, Exception):
                report.errors.append(ParseIssue(game.source_path, game.first_line, str(res), game.game_id))
            elif res.duplicate:
                report.duplicates.append(game.game_id)
            else:
                report.stored.append(game.game_id)
                report.events += game.events
            if on_game is not None:
                on_game(game)
        pending.clear()
        checked = 0
        pending_fps.clear()
        names.clear()
        stored_as.clear()
        written.clear()
        repeated.clear()

    with store.bulk_append() as bulk:
        for path, items, last, more in _parsed(files, format, n_workers, clock, head):
            for item in items:
                if isinstance(item, ParseIssue):
                    report.errors.append(item)
                    if on_game is not None:
                        on_game(item)
                    continue
                for line, words in item.warnings:  # said whatever becomes of the game (fix the source)
                    report.warnings.append(ParseIssue(item.source_path, line, words, item.game_id))
                fp = item.fingerprint
                if fp is not None:
                    alike = pending_fps.setdefault(fp, [])
                    if alike:
                        mine = _Game.of_rows(item.batch.rows)
                        name = mine.named()
                        first = next((g for g in alike if _pending_name(g) in (name, None) or name is None
                                      if mine.same(_Game.of_rows(g.batch.rows))), None)
                        if first is not None:
                            repeated.append((item, first))
                            continue
                    alike.append(item)
                pending.append(item)
                if len(pending) >= games_per_commit:
                    commit()
            if n_workers > 0 and not more:
                # parsed elsewhere, and the next chunk is not there yet: this one goes in now,
                # while the next ones are parsed, rather than this process waiting idle (in
                # this process the transaction would only be held open while it parses; with
                # chunks waiting, a write per chunk would only cost more than one per commit)
                write()
            if last and on_file is not None:
                on_file(path)  # parsed; its last games are acknowledged with the next commit
        commit()
    return report


def _conflict(store: EventStore, game: ImportedGame | PreparedGame) -> str:
    """The one line for a game whose id is stored with other content: both sources and what
    differs first (:func:`_difference`)."""
    return _conflict_at(store, game)[0]


def _conflict_at(store: EventStore, game: ImportedGame | PreparedGame) -> tuple[str, int]:
    """:func:`_conflict`'s line and the line of ``game``'s file where it first differs from
    the stored game (its first line when that is not known: a JSON record, a start)."""
    what, line = _difference(store, game)
    return (
        f"game {game.game_id} from {game.source_path}"
        f"{f':{game.first_line}' if game.first_line > 1 else ''} differs from the stored game "
        f"{game.game_id} (from {_stored_source(store, game.game_id)}): {what or 'other metadata'}; "
        f"nothing was changed (`paipu read {game.game_id}` shows what is stored)"
    ), line or game.first_line
