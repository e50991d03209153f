"""Where the dashboard's data comes from, cached (shared/DESIGN.md §8: read-only).

* Statistics: :class:`analytics.queries.Analytics` over the Parquet export in
  ``<data>/parquet``. Every query result is cached with ``st.cache_data`` keyed on the
  export's *version* (:func:`export_version`: the manifest's checkpoint and mtime), so a
  new ``paipu export`` shows up on the next rerun without restarting the app.
* Replays, dispute and decision review, tournaments: the event log — the store named by
  ``--store URL`` / ``$PAIPU_STORE`` (as ``paipu --store``: ``postgresql://…`` or a SQLite
  path), else ``<data>/events.sqlite`` — opened with the CLI's opener
  (:func:`eventlog.store.open_store`) with ``create=False``: the dashboard never creates or
  writes a store. Read through the store's public read methods. Cached by the log's
  *version* (:func:`log_version`: size and mtime of the SQLite file and its WAL, or the
  head position of a server's log).

The data directory comes from ``--data DIR`` after ``--`` on the ``streamlit run`` command
line, else ``$PAIPU_DATA``, else ``./paipu-data`` (the CLI's default); the store from
``--store URL`` there, else ``$PAIPU_STORE``.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st

__all__ = [
    "data_dir",
    "store_url",
    "log_name",
    "parquet_dir",
    "has_log",
    "export_version",
    "log_version",
    "query",
    "list_games",
    "game_steps",
    "game_review",
    "GameReview",
    "IMPORT_HELP",
]

EXPORT_SUBDIR = "parquet"
LOG_FILE = "events.sqlite"


def _arg(name: str) -> str | None:
    """The value of ``--name VALUE`` / ``--name=VALUE`` in ``sys.argv`` (None without)."""
    argv = sys.argv[1:]
    for i, a in enumerate(argv):
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
    return None


def data_dir() -> Path:
    """The data directory: ``--data DIR`` in ``sys.argv``, else ``$PAIPU_DATA``, else
    ``./paipu-data``."""
    return Path(_arg("--data") or os.environ.get("PAIPU_DATA") or "paipu-data")


def store_url() -> str | None:
    """The event store given as ``--store URL`` in ``sys.argv``, else ``$PAIPU_STORE``
    (None: the SQLite log in the data directory), as ``paipu --store``."""
    return _arg("--store") or os.environ.get("PAIPU_STORE") or None


def _where(data: Path) -> str | Path:
    return store_url() or data


def log_name(data: Path) -> str:
    """The event log for messages: the store URL (password left out), else the data directory."""
    url = store_url()
    if url is None:
        return str(data)
    from eventlog.store.postgres import is_postgres_url, redact_url

    return redact_url(url) if is_postgres_url(url) else url


def parquet_dir(data: Path) -> Path:
    return data / EXPORT_SUBDIR


def IMPORT_HELP(data: Path) -> str:
    """The commands that fill an empty data directory."""
    return (
        f"paipu quickstart --data {data}          # the bundled real logs\n"
        f"paipu ingest FILE ... --data {data}     # or your own logs\n"
        f"paipu export --data {data}              # then the Parquet export the statistics read"
    )


def has_log(data: Path) -> bool:
    """Whether there is an event log to read: the ``--store`` one when given (a URL is taken
    to exist; opening it says otherwise), else ``<data>/events.sqlite``."""
    f = _sqlite_file(data)
    return f is None or f.is_file()


def _sqlite_file(data: Path) -> Path | None:
    """The SQLite file of the log (None for a server's store)."""
    url = store_url()
    if url is None:
        return data / LOG_FILE
    if "://" in url and not url.startswith("sqlite:"):
        return None
    text = url[len("sqlite:"):] if url.startswith("sqlite:") else url
    if text.startswith("///"):
        text = text[2:]
    p = Path(text)
    return p if p.suffix in (".sqlite", ".sqlite3", ".db") or p.is_file() else p / LOG_FILE


def export_version(data: Path) -> tuple[int, int] | None:
    """(checkpoint-file mtime in ns, size) of ``<data>/parquet/_manifest.json``, or None
    when there is no export. The export replaces the manifest last, atomically, so a new
    value means a new committed export."""
    from analytics.export import MANIFEST

    p = parquet_dir(data) / MANIFEST
    try:
        s = p.stat()
    except FileNotFoundError:
        return None
    return (s.st_mtime_ns, s.st_size)


def log_version(data: Path) -> tuple[Any, ...] | None:
    """The log's version, a cache key (None without a log): where the log is, then the size
    and mtime of its SQLite file and WAL, or a server store's head position."""
    f = _sqlite_file(data)
    where = str(_where(data))
    if f is None:
        store = _open(data)
        try:
            return (where, store.head_position())
        finally:
            store.close()
    out: list[int] = []
    for p in (f, f.with_name(f.name + "-wal")):
        try:
            s = p.stat()
            out += [s.st_mtime_ns, s.st_size]
        except FileNotFoundError:
            out += [0, 0]
    return (where, *out) if out[0] else None


# ----------------------------------------------------------------------------- statistics


@st.cache_data(show_spinner=False, max_entries=256)
def query(data: str, version: tuple[int, int], name: str, args: tuple[Any, ...] = (), kwargs: tuple[tuple[str, Any], ...] = ()) -> Any:
    """``Analytics.<name>(*args, **kwargs)`` on the export of ``data`` at ``version``
    (the cache key; see :func:`export_version`). Raises ExportError / DamagedExport."""
    from analytics.queries import Analytics

    with Analytics.open(parquet_dir(Path(data)), Path(data)) as a:
        return getattr(a, name)(*args, **dict(kwargs))


# ----------------------------------------------------------------------------- event log


def _open(data: Path):
    """The event log, opened read-only as the CLI opens it (``--store`` / ``$PAIPU_STORE``,
    else ``data``); never created. Raises eventlog.store.StoreNotFound / StoreError."""
    from eventlog.store import open_store

    return open_store(_where(data), create=False)


@st.cache_data(show_spinner=False, max_entries=32)
def list_games(data: str, version: tuple[Any, ...] | None) -> list[dict[str, Any]]:
    """The games of the log in first-position order: game_id, ruleset, events."""
    if version is None:
        return []
    from eventlog.players import is_log_stream

    store = _open(Path(data))
    try:
        return [
            {"game_id": g.game_id, "ruleset": g.ruleset or "", "events": g.event_count}
            for g in store.list_games() if not is_log_stream(g.game_id)  # paipu:… streams are the log's
        ]
    finally:
        store.close()


@st.cache_resource(show_spinner=False, max_entries=16)
def game_steps(data: str, version: tuple[Any, ...] | None, game_id: str) -> list[Any]:
    """Every :class:`replayer.replay.ReplayStep` of a game (audit mode), in seq order.
    Raises :class:`eventlog.store.base.GameNotFound` for an unknown game."""
    from eventlog.store.base import GameNotFound
    from replayer.replay import replay

    store = _open(Path(data))
    try:
        events = list(store.read_game(game_id))
    finally:
        store.close()
    if not events:
        raise GameNotFound(game_id)
    return list(replay(events, mode="audit"))


def seat_notes(state: Any) -> tuple[str, ...]:
    """The game's ruleset's short note per seat (``Ruleset.seat_notes``, e.g. Sichuan's
    declared void suits); four empty strings when the ruleset has none or is unknown."""
    from replayer.rules.base import seat_notes_of

    return seat_notes_of(state)


def wild_tiles(state: Any) -> dict[str, str]:
    """The hand's wild tiles, code → name (``Ruleset.wild_tiles``: Nanchang 正精 / 副精); empty
    for a ruleset without wildcards or an unknown one."""
    from replayer.rules.base import wild_tiles_of

    return wild_tiles_of(state)


@dataclass(frozen=True)
class GameReview:
    """What the dispute page shows: the chain check (eventlog.verify.ChainReport) and,
    when the chain is intact, the audit (replayer.audit.GameAudit); else ``audit`` is
    None and ``audit_error`` says why the events were not replayed."""

    chain: Any
    audit: Any
    audit_error: str = ""


@st.cache_resource(show_spinner=False, max_entries=16)
def game_review(data: str, version: tuple[Any, ...] | None, game_id: str) -> GameReview:
    """Chain check and audit replay of one game (``paipu verify`` for one game).
    Raises GameNotFound for an unknown game."""
    from eventlog.verify import verify_game
    from replayer.audit import audit_game

    store = _open(Path(data))
    try:
        chain = verify_game(store, game_id)
        if not chain.ok:
            return GameReview(chain, None, "the hash chain is broken, so the events are not replayed "
                                           "(corrupt data is never shown as good)")
        return GameReview(chain, audit_game(store.read_game(game_id)))
    finally:
        store.close()


# ----------------------------------------------------------------------------- tournaments


def tournaments(data: Path) -> list[str]:
    """Names of the tournaments in ``<data>/tournaments`` (sorted)."""
    folder = data / "tournaments"
    return sorted(p.stem for p in folder.glob("*.jsonl")) if folder.is_dir() else []


@st.cache_data(show_spinner=False, max_entries=16)
def tournament_view(data: str, version: tuple[Any, ...] | None, name: str, stamp: tuple[int, int]) -> dict[str, Any]:
    """A tournament's records and every game replayed (analytics/tournament.py), cached on
    the log version and the tournament file's (mtime, size) ``stamp``."""
    from analytics.tournament import Tournament, game_result

    t = Tournament.load(Path(data), name)
    store = _open(Path(data))
    try:
        results = [game_result(store, g) for g in t.games]
    finally:
        store.close()
    return {"tournament": t, "results": results}


def tournament_stamp(data: Path, name: str) -> tuple[int, int]:
    s = (data / "tournaments" / f"{name}.jsonl").stat()
    return (s.st_mtime_ns, s.st_size)
