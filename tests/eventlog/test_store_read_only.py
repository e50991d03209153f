"""A store on a read-only copy (a snapshot, a mounted backup): readers open it read-only —
no checkpoint rewrite or heal, no WAL checkpoint, no ``-wal``/``-shm`` made — and say so in
one ``warning:`` line; writers refuse it in one line naming it read-only."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from eventlog.store.errors import StoreError
from eventlog.store.sqlite import SqliteStore, checkpoint_path
from tests.cli_run import run

SAMPLE = Path(__file__).resolve().parents[2] / "paipu" / "samples" / "botzone-mcr-human-sample" / "sample_16_games.txt"


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("ro") / "data"
    res = run("ingest", SAMPLE, "--data", d)
    assert res.exit_code in (0, 1), res.output
    assert run("export", "--data", d).exit_code == 0  # <data>/parquet, for `paipu stats`
    return d


def _files(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir()) if p.is_file()}


def test_read_only_open_writes_nothing_and_refuses_appends(filled: Path, tmp_path: Path) -> None:
    d = tmp_path / "copy"
    shutil.copytree(filled, d)
    before = _files(d)
    with pytest.warns(UserWarning, match=r"read-only .*skipped: .*WAL checkpoints"):
        store = SqliteStore(d / "events.sqlite", create=False, read_only=True)
    try:
        games = store.list_games()
        assert len(games) == 16
        assert store.read_game(games[0].game_id)
        assert store.checkpoint() is not None
        with pytest.raises(StoreError, match="read-only"):
            with store.bulk_append() as bulk:
                bulk.write([object()])  # type: ignore[list-item] - refused before it is looked at
    finally:
        store.close()
    assert _files(d) == before  # no -wal, -shm, checkpoint rewrite


def test_read_only_open_leaves_a_checkpoint_behind_the_log_as_it_is(filled: Path, tmp_path: Path) -> None:
    """A checkpoint behind the log (a crash between commit and checkpoint write) is healed
    by a writable open; a read-only one says it skipped the heal and rewrites nothing."""
    d = tmp_path / "copy"
    shutil.copytree(filled, d)
    ck = checkpoint_path(d / "events.sqlite")
    ck.write_bytes(b"\0" * len(ck.read_bytes()))  # no valid slot: the data-loss check cannot run
    before = _files(d)
    with pytest.warns(UserWarning, match=r"read-only .*skipped: the data-loss check"):
        SqliteStore(d / "events.sqlite", create=False, read_only=True).close()
    assert _files(d) == before


@contextlib.contextmanager
def _read_only_view(d: Path, view: Path) -> Iterator[Path]:
    """``d`` seen read-only at ``view``: a read-only bind mount as root (chmod does not stop
    root), else ``chmod -w``; skips where neither is possible."""
    if os.geteuid() != 0:
        shutil.copytree(d, view)
        modes = [(p, p.stat().st_mode) for p in (view, *view.iterdir())]
        for p, mode in modes:
            p.chmod(mode & ~0o222)
        try:
            yield view
        finally:
            for p, mode in modes:
                p.chmod(mode)
        return
    view.mkdir()
    try:
        subprocess.run(["mount", "--bind", str(d), str(view)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("no read-only directory: not permitted to bind-mount as root")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], check=True, capture_output=True)
        yield view
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("no read-only directory: not permitted to remount read-only")
    finally:
        subprocess.run(["umount", "-l", str(view)], check=False, capture_output=True)


def test_reading_commands_work_on_a_read_only_directory(filled: Path, tmp_path: Path) -> None:
    d = tmp_path / "copy"
    shutil.copytree(filled, d)
    before = _files(d)
    with _read_only_view(d, tmp_path / "ro") as ro:
        res = run("stats", "--by", "seat", "--data", ro)  # reads only the Parquet export
        assert res.exit_code == 0, res.output
        res = run("games", "--data", ro)
        assert res.exit_code == 0, res.output
        assert "16 games" in res.output
        with SqliteStore(d / "events.sqlite", create=False, read_only=True) as store:
            game = store.list_games()[0].game_id
        res = run("replay", game, "--at", "3", "--data", ro)
        assert res.exit_code == 0, res.output
        res = run("verify", "-q", "--data", ro)
        assert "error:" not in res.output and res.exit_code in (0, 1), res.output
        assert "warning:" in res.output and "read-only" in res.output
        res = run("export", "--data", ro, "--out", tmp_path / "parquet")
        assert res.exit_code == 0, res.output
        res = run("ingest", SAMPLE, "--data", ro)
        assert res.exit_code == 2
        errors = [ln for ln in res.output.splitlines() if ln.startswith("error:")]
        assert len(errors) == 1 and "read-only" in errors[0], res.output
    if os.geteuid() == 0:
        assert _files(d) == before
