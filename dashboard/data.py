"""Where the dashboard's data comes from, cached (shared/DESIGN.md §8: read-only).

* Statistics: :class:`analytics.queries.Analytics` over the Parquet export in
  ``<data>/parquet``. Every query result is cached with ``st.cache_data`` keyed on the
  export's *version* (:func:`export_version`: the manifest's checkpoint and mtime), so a
  new ``paipu export`` shows up on the next rerun without restarting the app.
* Replays and dispute review: the event log (``<data>/events.sqlite``), opened only when
  it exists — the dashboard never creates or writes a store — and read through the
  store's public read methods. Cached by the log's *version* (:func:`log_version`: size
  and mtime of the SQLite file and its WAL).

The data directory comes from ``--data DIR`` after ``--`` on the ``streamlit run`` command
line, else ``$PAIPU_DATA``, else ``./paipu-data`` (the CLI's default).
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


def data_dir() -> Path:
    """The data directory: ``--data DIR`` in ``sys.argv``, else ``$PAIPU_DATA``, else
    ``./paipu-data``."""
    argv = sys.argv[1:]
    for i, a in enumerate(argv):
        if a == "--data" and i + 1 < len(argv):
            return Path(argv[i + 1])
        if a.startswith("--data="):
            return Path(a.split("=", 1)[1])
    return Path(os.environ.get("PAIPU_DATA") or "paipu-data")


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
    return (data / LOG_FILE).is_file()


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


def log_version(data: Path) -> tuple[int, ...] | None:
    """Size and mtime of the SQLite log and its WAL (None without a log)."""
    out: list[int] = []
    for name in (LOG_FILE, LOG_FILE + "-wal"):
        try:
            s = (data / name).stat()
            out += [s.st_mtime_ns, s.st_size]
        except FileNotFoundError:
            out += [0, 0]
    return tuple(out) if out[0] else None


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
    from eventlog.store.sqlite import SqliteStore

    if not has_log(data):
        raise FileNotFoundError(f"no event log in {data}")
    return SqliteStore(data / LOG_FILE, create=False)


@st.cache_data(show_spinner=False, max_entries=32)
def list_games(data: str, version: tuple[int, ...] | None) -> list[dict[str, Any]]:
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
def game_steps(data: str, version: tuple[int, ...] | None, game_id: str) -> list[Any]:
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
def game_review(data: str, version: tuple[int, ...] | None, game_id: str) -> GameReview:
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
def tournament_view(data: str, version: tuple[int, ...] | None, name: str, stamp: tuple[int, int]) -> dict[str, Any]:
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
