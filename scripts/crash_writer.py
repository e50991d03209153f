"""A writer to be killed: appends batches of 1–5 events to three games of the SQLite store at
``PATH`` and prints each acknowledged batch's last position (flushed), until it is killed.

    python scripts/crash_writer.py PATH RUN

``RUN`` tags the run: every event carries ``metadata = {"batch": "<RUN>-<b>", "n": size}``, so a
reader can tell a whole batch from a partial one. Used by ``scripts/reliability.py`` (kills)
and ``tests/eventlog/test_store_reliability.py``; prints ``ready`` once the store is open.
"""

from __future__ import annotations

import sys

from eventlog.events import NewEvent, TileDiscarded
from eventlog.store import SqliteStore


def main(path: str, run: str) -> None:
    store = SqliteStore(path)
    print("ready", flush=True)
    b = 0
    while True:
        n = 1 + (b * 7 + len(run)) % 5
        batch = [NewEvent.of(TileDiscarded(seat=i % 4, tile="B5"), metadata={"batch": f"{run}-{b}", "n": n})
                 for i in range(n)]
        r = store.append(f"g{b % 3}", batch)
        print(r.last_position, flush=True)
        b += 1


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
