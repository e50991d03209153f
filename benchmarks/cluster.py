"""Batch export spread out: 1 and 2 local processes and a Dask LocalCluster with 1 and 2
workers, on the same log in the same run (issue 20, docs/deploy.md).

    python benchmarks/cluster.py [--copies K] [--store sqlite|postgres]

The log is the bundled real games re-identified K times (default 50: 1,200 games), built
before any clock starts, in SQLite or in a throwaway PostgreSQL (tests/pg_server.py). Each
configuration exports the whole log into a fresh directory; the Parquet files of every run
are compared with the first run's, byte for byte (a mismatch stops the benchmark). Prints
hands/s, games/s and the ratio to the single local process. On this 2-core machine the
cluster rows show the overhead of the scheduler, not a speed-up beyond two cores: more
machines add workers, the per-game work is the same.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# benchmarks/analytics.py would shadow the analytics package: drop this script's folder.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "tests"))  # pg_server (the throwaway PostgreSQL of the tests)

from analytics.export import export
from eventlog.events import NewEvent
from eventlog.ingest import ImportedGame, parse_file
from eventlog.store import NO_STREAM, open_store
from paipu.samples import sample_files


def build(location: str, copies: int) -> None:
    games = [g for f in sample_files() for g in parse_file(f) if isinstance(g, ImportedGame)]
    store = open_store(location)
    try:
        for k in range(copies):
            for g in games:
                events = [NewEvent.of(e.payload, metadata=e.metadata, id_seed=f"{g.game_id}#{k}#{i}")
                          for i, e in enumerate(g.events)]
                store.append(f"{g.game_id}#{k}", events, NO_STREAM)
    finally:
        store.close()


def files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file() and p.name != ".lock"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=50)
    ap.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    args = ap.parse_args()
    from distributed import LocalCluster

    server = None
    with tempfile.TemporaryDirectory() as tmp:
        if args.store == "postgres":
            import pg_server

            server = pg_server.start()
            location = server.new_database("cluster")
        else:
            location = str(Path(tmp) / "events.sqlite")
        try:
            build(location, args.copies)
            rows = []
            first: dict[str, bytes] | None = None
            runs = [("local, 1 process", 1, 0), ("local, 2 processes", 2, 0),
                    ("Dask, 1 worker", 0, 1), ("Dask, 2 workers", 0, 2)]
            for name, workers, dask_workers in runs:
                out = Path(tmp) / name.replace(" ", "_").replace(",", "")
                store = open_store(location)
                try:
                    if dask_workers:
                        with LocalCluster(n_workers=dask_workers, threads_per_worker=1, processes=True,
                                          dashboard_address=":0", silence_logs=40) as c:
                            t = time.perf_counter()
                            rep = export(store, out, cluster=c.scheduler_address)
                            secs = time.perf_counter() - t
                    else:
                        t = time.perf_counter()
                        rep = export(store, out, workers=workers)
                        secs = time.perf_counter() - t
                finally:
                    store.close()
                got = files(out)
                if first is None:
                    first = got
                elif got != first:
                    raise SystemExit(f"{name}: the Parquet files differ from the first run's")
                rows.append((name, rep.games, rep.hands, secs))
        finally:
            if server is not None:
                server.stop()
    base = rows[0][2] / rows[0][3]
    print(f"store: {args.store}; {rows[0][1]} games, {rows[0][2]} hands; Parquet identical in every run")
    print(f"{'':22} {'seconds':>8} {'hands/s':>9} {'games/s':>9} {'vs 1 process':>13}")
    for name, games, hands, secs in rows:
        print(f"{name:22} {secs:8.2f} {hands / secs:9.1f} {games / secs:9.1f} {hands / secs / base:13.2f}")


if __name__ == "__main__":
    main()
