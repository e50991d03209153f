"""The reading half of export and verify: CPU per event of reading a game's rows from the
store, checking each (its own hash, seq and link) and turning them into events — no replay.

    python benchmarks/read_path.py --data DIR [--games 500] [--rounds 5]

``DIR`` is a paipu data directory (e.g. the ``data`` of ``benchmarks/corpus.py --keep``).
Two paths, each as the commands take it:

* ``export`` — ``list(store.read_game(g))`` (what :func:`analytics.export.outcomes.game_outcome`
  reads before replaying);
* ``verify`` — :func:`eventlog.verify.verify_game_events` (what ``paipu verify`` and
  ``verify --export`` read before replaying).

A worker meets the texts every game repeats (draws, discards) parsed already, and the ones
each game has alone (its deals, its players) for the first time. So each round clears the
shared payload cache, reads the next ``games`` games untimed (their common texts warm it),
then times the first ``games`` games (``first``: as a worker reads a game it has not seen),
then times them again (``again``: every text parsed before); best of ``rounds``, the two
paths alternated. Prints one JSON object: µs CPU per event of each. To compare two trees,
run it under each (``PYTHONPATH=tree``) in turn, alternated: the machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path


def measure(data: Path, games: int = 500, rounds: int = 5) -> dict:
    """µs CPU per event of the two paths (see the module doc) on the store in ``data``."""
    from eventlog.store import open_store
    from eventlog.store import rows as rows_mod
    from eventlog.verify import verify_game_events

    store = open_store(data, create=False)
    ids = [g.game_id for g in store.list_games()]
    timed, warm = ids[:games], ids[games : 2 * games]

    def export(gid: str) -> int:
        return len(list(store.read_game(gid)))

    def verify(gid: str) -> int:
        chain, events = verify_game_events(store, gid)
        return len(events) if events is not None else -1

    paths = {"export": export, "verify": verify}
    events = {k: sum(fn(g) for g in timed) for k, fn in paths.items()}
    best = {(k, when): float("inf") for k in paths for when in ("first", "again")}
    for _ in range(rounds):
        for k, fn in paths.items():
            getattr(rows_mod, "clear_payload_cache", rows_mod._payload_cache.clear)()  # an older tree: one dict
            for g in warm:
                fn(g)
            for when in ("first", "again"):
                t = time.process_time()
                for g in timed:
                    fn(g)
                best[k, when] = min(best[k, when], time.process_time() - t)
    store.close()
    return {"games": len(timed), "events": events["export"],
            "us_per_event": {f"{k} {when}": round(1e6 * v / max(events[k], 1), 3) for (k, when), v in best.items()}}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args(argv)
    print(json.dumps(measure(a.data, a.games, a.rounds)))


if __name__ == "__main__":
    main()
