"""Fixtures for the dashboard tests: a real data directory made from the bundled games
(SQLite event log + Parquet export), and a helper that opens one page in Streamlit's
AppTest with that directory."""

from __future__ import annotations

from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory) -> Path:
    """``paipu ingest`` of every bundled file, then ``paipu export`` into <data>/parquet."""
    from analytics.export import export
    from eventlog.ingest.load import ingest_files
    from eventlog.store import open_store
    from paipu.samples import sample_files

    d = tmp_path_factory.mktemp("dashboard-data")
    store = open_store(d)
    try:
        report = ingest_files(store, sample_files())
        assert not report.errors, report.errors
        export(store, d / "parquet", data_dir=d)
    finally:
        store.close()
    return d


@pytest.fixture
def open_page(monkeypatch):
    """``open_page(data, page, **query)``: run the app on ``data`` at ``page``
    (views/<page>.py, None for the default page) with the query parameters given."""
    from streamlit.testing.v1 import AppTest

    def run(data: Path, page: str | None = None, **query: str) -> AppTest:
        monkeypatch.setenv("PAIPU_DATA", str(data))
        at = AppTest.from_file(str(APP), default_timeout=60)
        at.run()
        for k, v in query.items():
            at.query_params[k] = v
        if page is not None:
            at.switch_page(f"views/{page}.py")
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    return run
