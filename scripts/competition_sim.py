"""Simulate games of the competition rulesets and replay each one: counts of what happened
(wins, chips, 追牌, 花杠, 包牌, 局结, void hands) and every finding of an audit replay.

    python scripts/competition_sim.py [--games 500] [--ruleset mcr1998 --ruleset cjm_chips] [--seed 1]

(default 50 games each, about 45 CPU s per ruleset; the numbers below are --games 500).

Prints one JSON line per ruleset. A finding is a bug (simulated games are legal by
construction): the script exits 1 when any appears.

Measured 2026-12-01 (seed "competition", 500 games each, 2 shared cores, niced):
mcr1998 — 8,000 hands, 1,268,395 events, 5,799 wins, 2,201 exhaustive draws, 0 void hands,
0 findings, 413 CPU s; cjm_chips — 8,522 hands, 1,554,087 events, 3,056 wins, 5,473
exhaustive draws, 552 win payments capped by chips, 215 包牌 wins, 11,505 kong, 250 花杠 and
12 追牌 instant payments, 16 held off the table, 50 局 ended by two players at 0, 0 findings,
472 CPU s. (Game 124 of cjm_chips first found a bug: a second winner on a discard that emptied
the discarder's chips was refused.)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter

from eventlog import events as ev
from replayer.replay import replay
from replayer.simulate.engine import SimulationConfig, simulate_game


def one_ruleset(ruleset: str, games: int, seed: str) -> dict:
    c: Counter = Counter()
    t0 = time.process_time()
    for k in range(games):
        g = simulate_game(SimulationConfig(ruleset=ruleset, seed=seed), k)
        events = [ev.parse_event(line.decode()) for line in g.jsonl_lines()]
        findings = []
        st = None
        for step in replay(events, mode="audit"):
            findings += step.findings
            st = step.state
            if step.event.type == "win_declared" and st.wins and st.wins[-1].settlement is not None:
                if any("包牌" in p.reason for p in st.wins[-1].settlement.payments):
                    c["包牌 wins"] += 1
                if any("chips run out" in p.reason for p in st.wins[-1].settlement.payments):
                    c["capped win payments"] += 1
        assert st is not None
        c["games"] += 1
        c["events"] += len(events)
        c["findings"] += len(findings)
        c["hands"] += len(st.hands)
        c["void_hands"] += sum(1 for h in st.hands if h.void)
        c["exhaustive_draws"] += sum(1 for h in st.hands if h.exhaustive_draw)
        c["wins"] += sum(len(h.winners) for h in st.hands)
        for e in st.score_log:
            r = e.reason
            if e.kind == "kong":
                c["instant:" + ("追牌" if "追牌" in r else "花杠" if "花杠" in r else
                                "held off-table" if "held" in r else "kong")] += 1
        if sum(1 for s in st.scores if s <= 0) >= 2 and any(s > 0 for s in st.scores) and ruleset == "cjm_chips":
            c["局结 (two at 0)"] += 1
        if findings:
            for f in findings[:3]:
                print(f"{g.game_id}: {f}", file=sys.stderr)
    c["cpu_seconds"] = round(time.process_time() - t0, 1)
    return {"ruleset": ruleset, **dict(sorted(c.items()))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--ruleset", action="append")
    ap.add_argument("--seed", default="competition")
    a = ap.parse_args()
    bad = 0
    for rs in a.ruleset or ["mcr1998", "cjm_chips"]:
        out = one_ruleset(rs, a.games, a.seed)
        bad += out.get("findings", 0)
        print(json.dumps(out, ensure_ascii=False), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
