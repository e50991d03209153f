"""Simulate Changsha games and replay each from its JSON Lines form in audit mode: prints the
findings (there must be none), the hands, wins by unit, birds hit, kongs and draws.

Run: python scripts/changsha_games.py [--games 1000] [--seed 1] [--hands 8] [--options '{"birds": 2}']
(the rules fix no game length: ``--hands`` stops each game, as ``paipu simulate --hands-per-game``)

Exit status 1 when any replayed game has a finding or a non-zero-sum settlement (the issue's
"1,000 simulated games replay with no finding"; tests/rules/changsha run a smaller count).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from eventlog import events as ev
from replayer.replay import run
from replayer.simulate.engine import SimulationConfig, simulate


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--hands", type=int, default=8, help="hands per game (the rules fix none)")
    ap.add_argument("--options", default="{}", help="Changsha options as JSON")
    a = ap.parse_args()
    cfg = SimulationConfig(ruleset="changsha", seed=a.seed, options=json.loads(a.options), hands_per_game=a.hands)
    t0 = time.process_time()
    findings: Counter[str] = Counter()
    units: Counter[str] = Counter()
    types: Counter[str] = Counter()
    hands = wins = bad_sum = 0
    for k, game in enumerate(simulate(cfg, a.games), 1):
        events = [ev.parse_event(line.decode()) for line in game.jsonl_lines()]
        types.update(e.type for e in events)
        res = run(events, mode="audit")
        findings.update(f.rule_id for f in res.findings)
        hands += len(res.state.hands)
        bad_sum += sum(1 for e in res.state.score_log if sum(e.changes) != 0)
        for e in events:
            if e.type == "win_declared":
                wins += 1
        for w in game.wins:
            units.update(name for name, _, _ in w.fans)
        if k % 100 == 0:
            print(f"  {k} games, {hands} hands, {sum(findings.values())} findings "
                  f"({time.process_time() - t0:.0f} s CPU)", file=sys.stderr)
    print(f"{a.games} games, {hands} hands, {wins} wins, {types['exhaustive_draw']} exhaustive draws, "
          f"{types['kong']} kongs; findings: {sum(findings.values())} {dict(findings)}; "
          f"non-zero-sum settlements: {bad_sum}; {time.process_time() - t0:.1f} s CPU")
    print("units:", dict(sorted(units.items(), key=lambda kv: -kv[1])))
    return 1 if findings or bad_sum else 0


if __name__ == "__main__":
    raise SystemExit(main())
