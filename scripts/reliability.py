"""The log's guarantees under damage, at length (issue 12 "And keep them").

    python scripts/reliability.py [--kills 220] [--wal 300] [--db 100] [--deletes 100] [--seed 1] [--json]

The long version of ``tests/eventlog/test_store_reliability.py``. Every trial works on a
real SQLite store in a temporary directory and compares what the store says with what
was acknowledged or written — the expected side never comes from the code under test:

* **kills** — a writer process appends batches of 1–5 events to three games and prints
  each acknowledged last position; it is SIGKILLed after a random number of appends,
  again and again on the same store. Counted: acknowledged appends, acknowledged events
  missing afterwards (lost), batches stored only in part, opens refused as data loss
  although nothing was lost (false alarms).
* **wal** — a crash image (database + ``-wal`` + checkpoint, copied while the store is
  open after 5–40 acknowledged commits) whose WAL gets a flipped byte, a zeroed frame or a
  truncation at a random place. Counted: trials where acknowledged events were lost and
  the store said so (LogTruncated on open), lost *silently* (opened and served a shorter
  log), or not lost at all.
* **db** — a flipped bit in a random used (non-zero) byte of a closed store's database
  file. Counted: refused on open (one-line StoreError: not a store, data loss), data loss on
  read (CorruptEvent: gRPC DATA_LOSS), *other errors on read* (a plain StoreError: INTERNAL),
  a listed game not found by its id (a damaged stream record), reported by ``verify`` only,
  no effect, and *served wrong* (read and verified as intact but not what was written).
* **deletes** — one random row, or a whole game (rows and stream record), deleted behind
  the store's back (triggers dropped first). Counted: holes served to a reader, and
  deletions ``verify`` did not report.

Prints a table (and the same as JSON with ``--json``). Exit 0 when nothing was lost or
served wrong without a word.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from eventlog.events import NewEvent, TileDiscarded
from eventlog.store import (
    CorruptEvent,
    GameNotFound,
    LogTruncated,
    SqliteStore,
    StoreError,
    open_store,
)
from eventlog.verify import verify_all, verify_log

WRITER = ROOT / "scripts" / "crash_writer.py"  # appends until killed, prints each acknowledged position


def _batch(tag: str, n: int) -> list[NewEvent]:
    return [NewEvent.of(TileDiscarded(seat=i % 4, tile="W1"), metadata={"tag": tag, "i": i}) for i in range(n)]


# ----------------------------------------------------------------------------- kills


def kills(n: int, rng: random.Random, tmp: Path) -> dict[str, int]:
    path = tmp / "killed" / "events.sqlite"
    path.parent.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    acked_positions: list[int] = []
    out = Counter(kills=0, acknowledged_appends=0, lost_events=0, partial_batches=0, false_alarms=0)
    for k in range(n):
        proc = subprocess.Popen([sys.executable, str(WRITER), str(path), f"r{k}"], stdout=subprocess.PIPE,
                                text=True, env=env, cwd=ROOT)
        try:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
            for _ in range(rng.randrange(0, 80)):
                acked_positions.append(int(proc.stdout.readline()))
            time.sleep(rng.random() * 0.01)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        out["kills"] += 1
        try:
            store = SqliteStore(path, create=False)
        except LogTruncated:
            out["false_alarms"] += 1
            continue
        with store:
            events = list(store.read_all())
            top = events[-1].position if events else 0
            out["lost_events"] = sum(1 for p in acked_positions if p > top)
            sizes = Counter(e.metadata["batch"] for e in events)
            out["partial_batches"] = sum(1 for e in events if sizes[e.metadata["batch"]] != e.metadata["n"])
    out["acknowledged_appends"] = len(acked_positions)
    return dict(out)


# ----------------------------------------------------------------------------- WAL


def _crash_image(tmp: Path, rng: random.Random, name: str) -> tuple[Path, int, int]:
    live, image = tmp / f"{name}-live", tmp / f"{name}-image"
    store = open_store(live)
    last = 0
    for c in range(rng.randrange(5, 41)):
        last = store.append(f"g{rng.randrange(4)}", _batch(f"{name}-{c}", rng.randrange(1, 12))).last_position
    image.mkdir()
    for f in ("events.sqlite", "events.sqlite-wal", "events.sqlite-checkpoint"):
        shutil.copyfile(live / f, image / f)
    store.close()
    shutil.rmtree(live)
    return image, last, 0


def wal(n: int, rng: random.Random, tmp: Path) -> dict[str, int]:
    out = Counter(trials=0, lost_and_reported=0, lost_silently=0, nothing_lost=0, events_lost=0)
    kinds = Counter()
    for t in range(n):
        image, acked, _ = _crash_image(tmp, rng, f"w{t}")
        walf = image / "events.sqlite-wal"
        data = bytearray(walf.read_bytes())
        page = int.from_bytes(data[8:12], "big")
        frame = page + 24
        frames = (len(data) - 32) // frame
        kind = rng.choice(["flip", "zero", "truncate"])
        kinds[kind] += 1
        if kind == "flip":
            at = rng.randrange(len(data))
            data[at] ^= 1 << rng.randrange(8)
        elif kind == "zero":
            f = rng.randrange(frames)
            data[32 + f * frame : 32 + (f + 1) * frame] = bytes(frame)
        else:
            del data[rng.randrange(32, len(data)) :]
        walf.write_bytes(bytes(data))
        out["trials"] += 1
        try:
            with SqliteStore(image / "events.sqlite", create=False) as store:
                top = store.head_position()
                if top < acked:
                    out["lost_silently"] += 1
                    out["events_lost"] += acked - top
                else:
                    out["nothing_lost"] += 1
        except LogTruncated as e:
            out["lost_and_reported"] += 1
            out["events_lost"] += e.checkpoint - e.found
        shutil.rmtree(image)
    result = dict(out)
    result.update({f"damage_{k}": v for k, v in sorted(kinds.items())})
    return result


# ----------------------------------------------------------------------------- DB file


def db(n: int, rng: random.Random, tmp: Path) -> dict[str, int]:
    out = Counter(trials=0, refused_on_open=0, data_loss_on_read=0, other_error_on_read=0,
                  listed_not_found=0, reported_by_verify=0, no_effect=0, served_wrong=0)
    base = tmp / "db-base"
    with open_store(base) as store:
        for c in range(30):
            store.append(f"g{c % 5}", _batch(f"d{c}", 1 + c % 9))
        truth = [(e.position, e.hash, e.payload.model_dump_json()) for e in store.read_all()]
    for t in range(n):
        d = tmp / f"db{t}"
        shutil.copytree(base, d)
        path = d / "events.sqlite"
        data = bytearray(path.read_bytes())
        at = rng.choice([i for i, b in enumerate(data) if b])  # most of a small file is free space
        data[at] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(data))
        out["trials"] += 1
        try:
            store = SqliteStore(path, create=False)
        except StoreError:
            out["refused_on_open"] += 1
            shutil.rmtree(d)
            continue
        with store:
            try:
                got = [(e.position, e.hash, e.payload.model_dump_json()) for e in store.read_all()]
                for g in store.list_games():
                    list(store.read_game(g.game_id))
            except CorruptEvent:
                out["data_loss_on_read"] += 1
                shutil.rmtree(d)
                continue
            except GameNotFound:
                out["listed_not_found"] += 1
                shutil.rmtree(d)
                continue
            except StoreError:
                out["other_error_on_read"] += 1
                shutil.rmtree(d)
                continue
            try:
                ok = all(r.ok for r in verify_all(store)) and verify_log(store).ok
            except StoreError:
                ok = False
            if not ok:
                out["reported_by_verify"] += 1
            elif got == truth:
                out["no_effect"] += 1
            else:
                out["served_wrong"] += 1
        shutil.rmtree(d)
    return dict(out)


# ----------------------------------------------------------------------------- deletions


def deletes(n: int, rng: random.Random, tmp: Path) -> dict[str, int]:
    out = Counter(trials=0, rows_deleted=0, games_deleted=0, refused_on_open=0, hole_served=0,
                  not_reported_by_verify=0)
    for t in range(n):
        d = tmp / f"del{t}"
        store = open_store(d)
        for c in range(12):
            store.append(f"g{c % 4}", _batch(f"x{c}", rng.randrange(1, 8)))
        store.close()
        conn = sqlite3.connect(d / "events.sqlite", isolation_level=None)
        conn.execute("DROP TRIGGER events_no_delete")
        conn.execute("DROP TRIGGER streams_no_delete")
        whole = rng.random() < 0.3
        if whole:
            g = f"g{rng.randrange(4)}"
            conn.execute("DELETE FROM events WHERE game_id = ?", (g,))
            conn.execute("DELETE FROM streams WHERE game_id = ?", (g,))
            out["games_deleted"] += 1
        else:
            (count,) = conn.execute("SELECT count(*) FROM events").fetchone()
            conn.execute("DELETE FROM events WHERE position = ?", (rng.randrange(1, count + 1),))
            out["rows_deleted"] += 1
        conn.close()
        out["trials"] += 1
        try:
            store = SqliteStore(d / "events.sqlite", create=False)
        except LogTruncated:  # the log's tail went: the checkpoint says so on open
            out["refused_on_open"] += 1
            shutil.rmtree(d)
            continue
        with store:
            served_whole = True
            try:
                list(store.read_all())
                for g in store.list_games():
                    list(store.read_game(g.game_id))
            except CorruptEvent:
                served_whole = False
            if served_whole and not whole:
                out["hole_served"] += 1
            if all(r.ok for r in verify_all(store)) and verify_log(store).ok:
                out["not_reported_by_verify"] += 1
        shutil.rmtree(d)
    return dict(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kills", type=int, default=220)
    p.add_argument("--wal", type=int, default=300)
    p.add_argument("--db", type=int, default=100)
    p.add_argument("--deletes", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    rng = random.Random(a.seed)
    results: dict[str, dict[str, int]] = {}
    timings: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="paipu-reliability-") as tmp:
        for name, fn, n in (("kills", kills, a.kills), ("wal", wal, a.wal), ("db", db, a.db),
                            ("deletes", deletes, a.deletes)):
            if n <= 0:
                continue
            t = time.perf_counter()
            results[name] = fn(n, rng, Path(tmp))
            timings[name] = round(time.perf_counter() - t, 1)
    bad = (results.get("kills", {}).get("lost_events", 0) + results.get("kills", {}).get("partial_batches", 0)
           + results.get("wal", {}).get("lost_silently", 0) + results.get("db", {}).get("served_wrong", 0)
           + results.get("db", {}).get("other_error_on_read", 0)
           + results.get("deletes", {}).get("hole_served", 0)
           + results.get("deletes", {}).get("not_reported_by_verify", 0))
    if a.json:
        print(json.dumps({"results": results, "seconds": timings, "failures": bad}, sort_keys=True))
    else:
        print("| check | figures | seconds |")
        print("|---|---|---|")
        for name, r in results.items():
            print(f"| {name} | " + ", ".join(f"{k} {v:,}" for k, v in r.items()) + f" | {timings[name]} |")
        print(f"\nlost or served wrong without a word: {bad}")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
