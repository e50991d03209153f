"""Fixtures: the bundled real game logs (paipu/samples) imported into SQLite stores in a
temporary directory, and their Parquet exports (built once per session)."""

from __future__ import annotations

import pytest

from analytics.export import export
from analytics_samples import BOTZONE_TEXT, fill, imported_games, sample_files
from eventlog.ingest import ImportedGame
from eventlog.store import open_store


@pytest.fixture(scope="session")
def all_games() -> list[ImportedGame]:
    return imported_games(sample_files())


@pytest.fixture(scope="session")
def all_export(tmp_path_factory, all_games):
    """(data dir, parquet dir) of every bundled game, exported once."""
    root = tmp_path_factory.mktemp("all")
    store = open_store(root / "data")
    fill(store, all_games)
    export(store, root / "data" / "parquet")
    store.close()
    return root / "data", root / "data" / "parquet"


@pytest.fixture(scope="session")
def text_export(tmp_path_factory):
    """(data dir, parquet dir) of the 16 Botzone text games only."""
    root = tmp_path_factory.mktemp("text")
    store = open_store(root / "data")
    fill(store, imported_games([BOTZONE_TEXT]))
    export(store, root / "data" / "parquet")
    store.close()
    return root / "data", root / "data" / "parquet"
