"""What only the PostgreSQL backend promises (issue 20, ``eventlog/store/README.md``): the
database refuses edits, several processes (several servers) share one log with one
winner per expected-version race and a gap-free global order even when their
transactions overlap, a store object wakes on another's commit (NOTIFY), a damaged row is
caught, and errors name the server without its password. The conformance suite itself runs
on PostgreSQL through the ``backend`` fixture (``conftest.py``)."""

from __future__ import annotations

import json
import multiprocessing
import threading

import psycopg
import pytest

from eventlog.events import NewEvent, TileDiscarded
from eventlog.store import CorruptEvent, StoreError, open_store
from eventlog.store.postgres import PostgresStore
from eventlog.verify import verify_all

from test_store_concurrency import ANY_BATCH, ANY_BATCHES, WORKERS, _race, _write_any, check_any, check_race, tail


@pytest.fixture
def pg_url(postgres) -> str:
    return postgres.new_schema()


@pytest.fixture
def pg_store(pg_url):
    store = PostgresStore(pg_url)
    yield store
    store.close()


def _batch(tag: str, n: int) -> list[NewEvent]:
    return [NewEvent.of(TileDiscarded(seat=i % 4, tile="B5"), metadata={"tag": tag, "i": i}) for i in range(n)]


def _sql(url: str, sql: str, params: tuple = ()) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql, params)


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE paipu_events SET payload = '{}' WHERE seq = 0",
        "DELETE FROM paipu_events WHERE seq = 1",
        "TRUNCATE paipu_events",
        "DELETE FROM paipu_streams",
        "TRUNCATE paipu_streams CASCADE",
        "UPDATE paipu_streams SET version = 0",
        "UPDATE paipu_streams SET ruleset = 'other'",
        "UPDATE paipu_log SET head_position = 1",
        "DELETE FROM paipu_log",
    ],
)
def test_the_database_refuses_edits_of_the_log(pg_store, pg_url, game_started, statement):
    pg_store.append("g", [game_started("mcr"), *_batch("a", 2)])
    with pytest.raises(psycopg.errors.RaiseException, match="paipu: .* refused"):
        _sql(pg_url, statement)
    assert [e.seq for e in pg_store.read_game("g")] == [0, 1, 2]
    assert pg_store.list_games()[0].ruleset == "mcr"
    assert [r.ok for r in verify_all(pg_store)] == [True]


def test_an_intruder_who_disables_the_triggers_is_caught(pg_store, pg_url):
    pg_store.append("g", _batch("a", 4))
    _sql(pg_url, "ALTER TABLE paipu_events DISABLE TRIGGER paipu_events_immutable")
    _sql(pg_url, "UPDATE paipu_events SET payload = %s WHERE game_id = 'g' AND seq = 2",
         (json.dumps({"seat": 2, "tile": "B6"}, separators=(",", ":")),))
    with pytest.raises(CorruptEvent, match="seq 2"):
        list(pg_store.read_game("g"))
    (report,) = verify_all(pg_store)
    assert not report.ok and report.first_bad_seq == 2 and "hash" in report.reason


def test_a_newer_schema_is_refused(pg_store, pg_url):
    _sql(pg_url, "ALTER TABLE paipu_log DISABLE TRIGGER paipu_log_forward")
    _sql(pg_url, "UPDATE paipu_log SET schema_version = 99")
    with pytest.raises(StoreError, match="schema version 99 is newer"):
        PostgresStore(pg_url)


def test_an_unreachable_server_is_one_store_error_without_the_password(postgres):
    bad = f"postgresql://someone:s3cret@127.0.0.1:{postgres.port + 1}/nowhere?connect_timeout=1"
    with pytest.raises(StoreError) as err:
        PostgresStore(bad)
    assert "s3cret" not in str(err.value) and "someone@127.0.0.1" in str(err.value)


def test_open_store_takes_a_postgresql_url(pg_url):
    with open_store(pg_url) as store:
        assert isinstance(store, PostgresStore)
        store.append("g", _batch("x", 1))
    with open_store(pg_url.replace("postgresql://", "postgres://", 1)) as again:
        assert again.version("g") == 0


def test_a_second_store_object_wakes_on_the_firsts_commit(pg_url):
    """Two servers on one database: a live subscriber on B receives A's appends."""
    a, b = PostgresStore(pg_url), PostgresStore(pg_url)
    stop = threading.Event()
    got: list[int] = []
    reader = threading.Thread(target=tail, args=(b, 6, stop, got))
    try:
        reader.start()
        for i in range(3):
            a.append("g", _batch(f"a{i}", 2))
        reader.join(timeout=30)
        assert got == [1, 2, 3, 4, 5, 6]
    finally:
        stop.set()
        a.close()
        b.close()


# ---- several processes, one database (what several `paipu serve` do) ----------------------


def _process_race(url: str, worker: int, barrier, out) -> None:
    store = PostgresStore(url, pool_size=2)
    try:
        out.put(_race(store, worker, lambda: barrier.wait(timeout=60)))
    finally:
        store.close()


def _process_write_any(url: str, worker: int, barrier) -> None:
    store = PostgresStore(url, pool_size=2)
    try:
        barrier.wait(timeout=60)
        _write_any(store, worker)
    finally:
        store.close()


def test_processes_racing_on_an_exact_version_have_one_winner_per_round(pg_url):
    PostgresStore(pg_url).close()
    ctx = multiprocessing.get_context("spawn")
    barrier, out = ctx.Barrier(WORKERS), ctx.Queue()
    procs = [ctx.Process(target=_process_race, args=(pg_url, w, barrier, out)) for w in range(WORKERS)]
    for p in procs:
        p.start()
    outcomes = [o for _ in procs for o in out.get(timeout=120)]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    with PostgresStore(pg_url) as store:
        check_race(store, outcomes)


def test_processes_appending_with_any_leave_no_gap_for_a_tailing_reader(pg_url):
    """The sequence-column trap: overlapping transactions from several processes must
    never let a tailing reader see position n+1 before n."""
    store = PostgresStore(pg_url)
    total = WORKERS * ANY_BATCHES * ANY_BATCH
    stop = threading.Event()
    seen: list[int] = []
    reader = threading.Thread(target=tail, args=(store, total, stop, seen))
    reader.start()
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(WORKERS)
    procs = [ctx.Process(target=_process_write_any, args=(pg_url, w, barrier)) for w in range(WORKERS)]
    try:
        for p in procs:
            p.start()
        for p in procs:
            p.join(timeout=120)
            assert p.exitcode == 0
        reader.join(timeout=30)
        assert seen == list(range(1, total + 1))
        check_any(store)
    finally:
        stop.set()
        store.close()
