"""Batch work on a Dask cluster (issue 20 item 5): ``paipu export --cluster`` and ``paipu
verify --cluster`` split the games over the workers of a real ``distributed.LocalCluster``
(two worker processes) and give exactly what a local run gives — the same Parquet bytes and
the same report — from a SQLite file and from PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from analytics.export import export
from analytics_samples import fill
from eventlog.parallel import ClusterError, map_games
from eventlog.store import MemoryStore, open_store
from eventlog.store.copy import copy_log

distributed = pytest.importorskip("distributed", reason="the [cluster] extra (dask.distributed) is not installed")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=40) as c:
        yield c.scheduler_address


@pytest.fixture(scope="module")
def data(tmp_path_factory, all_games):
    """The bundled real games plus simulated Nanchang and MCR games, in one SQLite store."""
    root = tmp_path_factory.mktemp("cluster") / "data"
    store = open_store(root)
    fill(store, all_games)
    store.close()
    for ruleset, seed in (("nanchang", 5), ("mcr", 6)):
        sim = _paipu("simulate", "--ruleset", ruleset, "--games", "2", "--hands-per-game", "2",
                     "--seed", str(seed), "--data", str(root))
        assert sim.returncode == 0, sim.stderr
    return root


def _paipu(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "paipu", *args], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.DEVNULL, timeout=600)


def _files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file() and p.name != ".lock"}


def test_export_on_a_cluster_writes_the_same_bytes(data, cluster, tmp_path):
    with open_store(data) as store:
        local = export(store, tmp_path / "local", workers=1)
        remote = export(store, tmp_path / "remote", cluster=cluster)
    assert remote.games == local.games and local.games >= 26
    files = _files(tmp_path / "local")
    assert len(files) > 8 and files == _files(tmp_path / "remote")


def test_export_from_postgresql_on_a_cluster_matches_the_sqlite_export(data, cluster, postgres, tmp_path):
    url = postgres.new_schema()
    with open_store(data) as src, open_store(url) as pg:
        copy_log(src, pg)
        export(src, tmp_path / "sqlite", workers=1)
        export(pg, tmp_path / "pg", cluster=cluster)
    assert _files(tmp_path / "sqlite") == _files(tmp_path / "pg")


def test_verify_on_a_cluster_prints_the_same_report(data, cluster):
    local = _paipu("verify", "--data", str(data))
    remote = _paipu("verify", "--data", str(data), "--cluster", cluster)
    assert remote.returncode == local.returncode
    assert remote.stdout == local.stdout and "chains intact" in local.stdout


def test_results_come_back_in_game_order(data, cluster):
    with open_store(data) as store:
        ids = [g.game_id for g in store.list_games()][::-1]
        with map_games(store, ids, _version, cluster=cluster, chunk=3) as results:
            got = list(results)
        assert got == [(g, store.version(g)) for g in ids]


def _version(store, game_id):
    return game_id, store.version(game_id)


def test_an_in_memory_store_cannot_go_to_a_cluster(cluster):
    with pytest.raises(ClusterError, match="in-memory"):
        with map_games(MemoryStore(), ["g"], _version, cluster=cluster):
            pass


def test_an_unreachable_scheduler_is_one_clear_error(data):
    out = _paipu("verify", "--data", str(data), "--cluster", "tcp://127.0.0.1:1")
    assert out.returncode == 2 and "Dask scheduler at tcp://127.0.0.1:1" in out.stderr
