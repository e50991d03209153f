"""Ingest throughput and memory: parse + validate + append of a large Botzone text log,
against a raw ``sqlite3.executemany`` of the same rows.

    python benchmarks/ingest.py [--games N] [--profile]

Writes a file of N games (default 4000) into a temporary directory: the 16 games of the
bundled Botzone text sample (paipu/samples/botzone-mcr-human-sample) re-identified as in
benchmarks/corpus.py (new match ids and a legal relabelling of the tiles: distinct games —
the same games under new ids alone would be recognised as re-imports and not stored).
Then, for N and for N/4 games, each in a fresh child process (so the peak
resident set size, ``resource.getrusage(RUSAGE_SELF).ru_maxrss``, is that size's own):

1. **ingest** — :func:`eventlog.ingest.load.ingest_files` into a new
   :class:`~eventlog.store.SqliteStore`: sniff, parse, validate every game
   (``GameBuilder``: each distinct payload validated and encoded once), seal it (event
   ids, canonical JSON, SHA-256 chain) in parsing processes, append each game as one new
   stream (:data:`~eventlog.ingest.load.GAMES_PER_COMMIT` games per durable transaction,
   positions and the log's running hash, version and idempotency checks);
2. **raw** — the same rows (read back from the store, game by game, outside the clock)
   inserted into a table of the same shape with plain ``executemany``, one
   ``BEGIN IMMEDIATE`` … ``COMMIT`` per the same number of games, under the same pragmas
   (WAL, ``synchronous=FULL``): the floor.

Prints events/s, games/s (wall clock), the CPU seconds of this process beside them (on
a busy machine the wall clock includes waiting for a CPU; the gap between the two is
also the time spent waiting for fsync), the ratio, and peak RSS per size (flat RSS across sizes =
the ingest streams). ``--profile`` runs the ingest once more under cProfile and prints
where the time goes (top functions by cumulative and by own time).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from eventlog.ingest.load import ingest_files
from eventlog.store import SqliteStore
from eventlog.store.sqlite import COLUMNS

SAMPLE = ROOT / "paipu" / "samples" / "botzone-mcr-human-sample" / "sample_16_games.txt"


def write_log(path: Path, games: int) -> int:
    """Write ``games`` distinct games to ``path``: the sample's games re-identified as in
    benchmarks/corpus.py (new match id and a legal relabelling of the tiles, so the ingest's
    content fingerprint does not take them for re-imports of the 16). Returns the bytes."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_corpus", ROOT / "benchmarks" / "corpus.py")
    corpus = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(corpus)
    blocks = corpus._sample_blocks()
    size = 0
    with open(path, "w", encoding="utf-8") as f:
        for k in range(games):
            text = corpus._text_game(k, blocks)
            f.write(text)
            size += len(text.encode())
    return size


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def bench_ingest(log: Path, directory: Path) -> dict:
    store = SqliteStore(directory / "store.sqlite")
    try:
        t, c = time.perf_counter(), time.process_time()
        report = ingest_files(store, [log])
        seconds, cpu = time.perf_counter() - t, time.process_time() - c
    finally:
        store.close()
    assert not report.errors, report.errors[:3]
    return {
        "games": len(report.stored), "events": report.events, "seconds": seconds, "cpu": cpu,
        "rss_mib": _rss_mib(),
    }


def bench_raw(source_db: Path, directory: Path) -> dict:
    """The store's rows, game by game, re-inserted with bare executemany (timed part only)."""
    src = sqlite3.connect(source_db)
    dst = sqlite3.connect(directory / "raw.sqlite", isolation_level=None)
    dst.execute("PRAGMA journal_mode = WAL")
    dst.execute("PRAGMA synchronous = FULL")
    dst.execute(
        "CREATE TABLE events (position INTEGER PRIMARY KEY, game_id TEXT NOT NULL, seq INTEGER NOT NULL,"
        " event_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, schema_version INTEGER NOT NULL,"
        " payload TEXT NOT NULL, metadata TEXT NOT NULL, recorded_at TEXT NOT NULL,"
        " prev_hash TEXT NOT NULL, hash TEXT NOT NULL, UNIQUE (game_id, seq))"
    )
    cols = ", ".join(COLUMNS)
    sql = f"INSERT INTO events ({cols}) VALUES ({', '.join('?' * len(COLUMNS))})"
    games = [r[0] for r in src.execute("SELECT game_id FROM streams ORDER BY first_position")]
    seconds = cpu = 0.0
    events = 0
    try:
        from eventlog.ingest.load import GAMES_PER_COMMIT

        for i in range(0, len(games), GAMES_PER_COMMIT):
            rows = []
            for game in games[i : i + GAMES_PER_COMMIT]:
                rows += src.execute(f"SELECT {cols} FROM events WHERE game_id = ? ORDER BY seq", (game,)).fetchall()
            t, c = time.perf_counter(), time.process_time()
            dst.execute("BEGIN IMMEDIATE")
            dst.executemany(sql, rows)
            dst.execute("COMMIT")
            seconds += time.perf_counter() - t
            cpu += time.process_time() - c
            events += len(rows)
    finally:
        src.close()
        dst.close()
    return {"games": len(games), "events": events, "seconds": seconds, "cpu": cpu}


def child(games: int) -> dict:
    """One size, in this (fresh) process: write the log, ingest it, raw-insert its rows."""
    with tempfile.TemporaryDirectory(prefix="paipu-bench-ingest-") as tmp:
        d = Path(tmp)
        log = d / "big.txt"
        size = write_log(log, games)
        rss_before = _rss_mib()
        ingest = bench_ingest(log, d)
        raw = bench_raw(d / "store.sqlite", d)
    return {"games": games, "bytes": size, "rss_before_mib": rss_before, "ingest": ingest, "raw": raw}


def profile(games: int, top: int = 25) -> None:
    with tempfile.TemporaryDirectory(prefix="paipu-bench-ingest-") as tmp:
        d = Path(tmp)
        log = d / "big.txt"
        write_log(log, games)
        store = SqliteStore(d / "store.sqlite")
        prof = cProfile.Profile()
        try:
            prof.enable()
            ingest_files(store, [log])
            prof.disable()
        finally:
            store.close()
    stats = pstats.Stats(prof)
    stats.strip_dirs()
    print(f"\ncProfile of the ingest of {games} games, by cumulative time:")
    stats.sort_stats("cumulative").print_stats(top)
    print("by own time:")
    stats.sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="games in the big file (default 4000, about a minute of ingest)")
    parser.add_argument("--profile", action="store_true", help="also profile the ingest (cProfile)")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        print(json.dumps(child(args.child)))
        return
    sizes = sorted({max(16, args.games // 4), args.games})
    print(f"ingest of the Botzone text sample repeated (16 games, renamed); sizes {sizes} games")
    for n in sizes:
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(n)], check=True, capture_output=True, text=True
        )
        r = json.loads(out.stdout.strip().splitlines()[-1])
        ing, raw = r["ingest"], r["raw"]
        ing_rate, raw_rate = ing["events"] / ing["seconds"], raw["events"] / raw["seconds"]
        print(
            f"{n:>7} games, {ing['events']:>9,} events, {r['bytes'] / 2**20:6.1f} MiB of text\n"
            f"  ingest_files (parse+validate+append) {ing_rate:>10,.0f} events/s "
            f"{ing['games'] / ing['seconds']:>8,.0f} games/s ({ing['seconds']:6.2f} s, CPU {ing['cpu']:6.2f} s)\n"
            f"  raw sqlite3.executemany, same rows   {raw_rate:>10,.0f} events/s "
            f"{raw['games'] / raw['seconds']:>8,.0f} games/s ({raw['seconds']:6.2f} s, CPU {raw['cpu']:6.2f} s)"
            f"  -> ingest takes {raw_rate / ing_rate:5.1f}x the time of raw\n"
            f"  peak RSS {ing['rss_mib']:.1f} MiB after ingest (process baseline {r['rss_before_mib']:.1f} MiB)"
        )
    if args.profile:
        profile(min(args.games, 1000))


if __name__ == "__main__":
    main()
