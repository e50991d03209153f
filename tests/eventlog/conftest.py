"""Fixtures for the event-store tests.

``store`` / ``store_factory`` are parametrised over every backend, so each test that
uses them is part of the one conformance suite (shared/STYLE.md "Tests", after
pyeventsourcing's ``persistence.py``). SQLite stores are real files under ``tmp_path``;
PostgreSQL stores are schemas of their own on the session's throwaway server
(``postgres`` in ``tests/conftest.py``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import pytest

from eventlog.events import GameStarted, NewEvent, TileDiscarded
from eventlog.store import EventStore, MemoryStore, SqliteStore
from eventlog.store.postgres import PostgresStore

BACKENDS = ("sqlite", "memory", "postgres")

# Tiles cycled through by the generated discards (any valid play tile would do).
_TILES = ("W1", "W5", "T3", "B9", "F1", "J2")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def store_factory(backend: str, tmp_path, request: pytest.FixtureRequest) -> Iterator[Callable[..., EventStore]]:
    """``make(**kwargs)`` -> a new, empty store of the current backend (closed after the
    test). kwargs go to the backend's constructor (e.g. ``clock``)."""
    made: list[EventStore] = []
    counter = itertools.count()

    def make(**kwargs) -> EventStore:
        if backend == "sqlite":
            store: EventStore = SqliteStore(tmp_path / f"events-{next(counter)}.sqlite", **kwargs)
        elif backend == "postgres":
            store = PostgresStore(request.getfixturevalue("postgres").new_schema(), **kwargs)
        else:
            store = MemoryStore(**kwargs)
        made.append(store)
        return store

    yield make
    for store in made:
        store.close()


@pytest.fixture
def store(store_factory) -> EventStore:
    return store_factory()


@pytest.fixture
def sqlite_store(tmp_path) -> Iterator[SqliteStore]:
    store = SqliteStore(tmp_path / "events.sqlite")
    yield store
    store.close()


def _discards(n: int, seat: int = 0, tag: str = "") -> list[NewEvent]:
    """``n`` tile_discarded events; the metadata ``tag`` and index make each distinct."""
    return [
        NewEvent.of(
            TileDiscarded(seat=seat, tile=_TILES[i % len(_TILES)]),
            metadata={"tag": tag, "i": i},
        )
        for i in range(n)
    ]


@pytest.fixture
def discards() -> Callable[..., list[NewEvent]]:
    """``discards(n, seat=0, tag="")`` -> n fresh tile_discarded events."""
    return _discards


@pytest.fixture
def game_started() -> Callable[..., NewEvent]:
    """``game_started(ruleset="mcr")`` -> a fresh game_started event."""

    def make(ruleset: str = "mcr") -> NewEvent:
        return NewEvent.of(GameStarted(ruleset=ruleset, players=["A", "B", "C", "D"]))

    return make
