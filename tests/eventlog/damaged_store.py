"""A small SQLite store of two interleaved games, and SQL run on it behind the store's
back (its triggers dropped first), for the tests of what every reader names when a store
is damaged by hand (test_store_reliability.py, test_store_positions.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from eventlog.events import NewEvent, TileDiscarded
from eventlog.store import SqliteStore


def batch(tag: str, n: int) -> list[NewEvent]:
    """``n`` discards (seats 0..3 in turn, W1), told apart by their metadata."""
    return [NewEvent.of(TileDiscarded(seat=i % 4, tile="W1"), metadata={"tag": tag, "i": i}) for i in range(n)]


def interleaved_store(directory: Path) -> SqliteStore:
    """Game g at positions 1..4 and 8..11 (seqs 0..7), game h at 5..7 (seqs 0..2)."""
    store = SqliteStore(directory / "events.sqlite")
    store.append("g", batch("g", 4))
    store.append("h", batch("h", 3))
    store.append("g", batch("g2", 4))
    return store


def shell(store: SqliteStore, *sql: str) -> None:
    """Run ``sql`` on the store's file with a connection of its own (autocommit)."""
    conn = sqlite3.connect(store.path, isolation_level=None)
    try:
        for statement in sql:
            conn.execute(statement)
    finally:
        conn.close()
