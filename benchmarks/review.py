"""Decision review benchmark: the shape-distance engine and the review of whole games.

    .venv/bin/python benchmarks/review.py [--hands 2000] [--games 24] [--seed 1]

1. **Engine**: the shanten of ``--hands`` random 14-tile hands (seeded) under the MCR shapes
   (replayer/rules/shared/winning_shapes.py, every shape incl. 全不靠 and 组合龙), beside the
   baseline in the same run: the bots' heuristic (replayer/rules/shared/shanten.py: regular,
   七对, 十三幺 only) on the same hands. Cold caches; hands/s for each.
2. **Review**: ``replayer.review.review_game`` over the first ``--games`` bundled real games
   (paipu/samples), every seat, beside the baseline of an audit replay of the same games:
   wall time, discards reviewed, discards/s.

Prints one JSON object per phase.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path


def engine(hands: int, seed: int) -> dict:
    from replayer.rules.base import get_ruleset
    from replayer.rules.shared import shanten as heuristic
    from replayer.rules.shared import winning_shapes as ws
    from replayer.state import TableState

    shapes = get_ruleset("mcr").winning_shapes(TableState(), 0)
    rng = random.Random(seed)
    wall = [t for t in range(34) for _ in range(4)]
    vectors = []
    for _ in range(hands):
        rng.shuffle(wall)
        c = [0] * 34
        for t in wall[:14]:
            c[t] += 1
        vectors.append(tuple(c))
    t0 = time.perf_counter()
    base = [heuristic.shanten(v) for v in vectors]
    t1 = time.perf_counter()
    ours = [ws.shanten(v, (), shapes) for v in vectors]
    t2 = time.perf_counter()
    return {"phase": "engine", "hands": hands, "baseline_hands_per_s": round(hands / (t1 - t0)),
            "engine_hands_per_s": round(hands / (t2 - t1)),
            "engine_lower": sum(o < b for o, b in zip(ours, base)),  # 全不靠 / 组合龙 nearer
            "engine_higher": sum(o > b for o, b in zip(ours, base))}  # must be 0


def review(games: int) -> dict:
    from eventlog.ingest.load import ingest_files
    from eventlog.store import open_store
    from paipu.samples import sample_files
    from replayer.audit import audit_game
    from replayer.review import review_game

    with tempfile.TemporaryDirectory() as d:
        store = open_store(Path(d))
        try:
            ingest_files(store, sample_files())
            ids = store.raw_game_ids()[:games]
            logs = [list(store.read_game(g)) for g in ids]
        finally:
            store.close()
    t0 = time.perf_counter()
    for events in logs:
        audit_game(events)
    t1 = time.perf_counter()
    discards = sum(review_game(events).total.discards for events in logs)
    t2 = time.perf_counter()
    return {"phase": "review", "games": len(logs), "baseline_audit_s": round(t1 - t0, 2),
            "review_s": round(t2 - t1, 2), "discards": discards,
            "discards_per_s": round(discards / (t2 - t1), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print(json.dumps(engine(a.hands, a.seed)))
    print(json.dumps(review(a.games)))


if __name__ == "__main__":
    main()
