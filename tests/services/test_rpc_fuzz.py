"""Fuzzed RPCs (issue 12 "And keep them": fuzzed importers and RPCs): hostile requests to
every method of a real server over a real SQLite store holding real games are answered
with a status naming the client's fault — never UNKNOWN or INTERNAL, never DATA_LOSS on an
intact log, never trailers a client refuses — and the log verifies afterwards. A bounded
run of scripts/fuzz_rpcs.py (its request builder and contract), with fixed seeds."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from analytics.tournament_service import register as register_tournaments
from eventlog.ingest.load import ingest_files
from eventlog.store import open_store
from eventlog.verify import verify_all, verify_log
from paipu.samples import sample_files
from services.server import build_server

ROOT = Path(__file__).resolve().parents[2]
CALLS = 105  # per seed: 7 of each of the 15 methods


def _fuzz_module():
    spec = importlib.util.spec_from_file_location("fuzz_rpcs", ROOT / "scripts" / "fuzz_rpcs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    data = tmp_path_factory.mktemp("rpcfuzz") / "data"
    store = open_store(data)
    ingest_files(store, sample_files()[:1])
    server, port = build_server(store, port=0, poll_interval=0.02, extra_services=(register_tournaments(data),))
    server.start()
    yield store, f"127.0.0.1:{port}"
    server.stop(None)
    store.close()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hostile_requests_get_the_contracts_statuses(served, seed):
    store, target = served
    fuzz = _fuzz_module()
    ids = [g.game_id for g in store.list_games()]
    codes, violations = fuzz.fuzz(target, CALLS, random.Random(seed), ids)
    assert sum(codes.values()) == CALLS
    assert not violations, violations
    assert verify_log(store).ok and all(r.ok for r in verify_all(store))
