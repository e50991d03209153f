"""A full disk during a bulk import says "disk full" naming the database file — not SQLite's
"no such savepoint: sealed", which a savepoint released after SQLITE_FULL had rolled the
whole transaction back used to raise in its place. SQLite answers SQLITE_FULL as well when a
write would pass the connection's ``max_page_count``: that stands in for a full disk here."""

from __future__ import annotations

from pathlib import Path

import pytest

from eventlog.ingest.load import ingest_files
from eventlog.store.errors import StoreError
from eventlog.store.sqlite import SqliteStore

SAMPLE = Path(__file__).resolve().parents[2] / "paipu" / "samples" / "botzone-mcr-human-sample" / "sample_16_games.txt"


def test_a_full_disk_during_a_bulk_import_says_disk_full_naming_the_file(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "events.sqlite")
    try:
        with store._connection() as conn:  # the pool's one connection, used by the import below
            pages = conn.execute("PRAGMA page_count").fetchone()["page_count"]
            conn.execute(f"PRAGMA max_page_count = {pages + 3}")
        with pytest.raises(StoreError) as raised:
            ingest_files(store, [SAMPLE], workers=0)
        text = str(raised.value)
        assert "savepoint" not in text
        assert "disk full" in text and str(tmp_path / "events.sqlite") in text
        assert "\n" not in text
        assert store.list_games() == []  # nothing half-written: the transaction rolled back
    finally:
        store.close()


def test_export_on_a_full_disk_names_the_output_directory(tmp_path: Path) -> None:
    """Parquet's writer says "[Errno 28] Error writing bytes to file" naming no file; the
    export names --out. A full disk: a tiny tmpfs (root only, where mounting is allowed)."""
    import os
    import subprocess

    from tests.cli_run import one_error, run

    if os.geteuid() != 0:
        pytest.skip("a full disk needs a tiny tmpfs: root only")
    data, out = tmp_path / "data", tmp_path / "out"
    assert run("ingest", SAMPLE, "--data", data).exit_code in (0, 1)
    out.mkdir()
    try:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8k", "tmpfs", str(out)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not permitted to mount a tmpfs")
    try:
        res = run("export", "--data", data, "--out", out / "pq")
        assert res.exit_code == 2, res.output
        line = one_error(res)
        assert str(out / "pq") in line and "disk full" in line, line
    finally:
        subprocess.run(["umount", "-l", str(out)], check=False, capture_output=True)
