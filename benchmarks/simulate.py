"""Simulation benchmark: games/s and hands/s for each registered ruleset, and — for MCR —
the agreement of every simulated win's fans with the reference calculator (MahjongGB 1.4.0).

Run: .venv/bin/python benchmarks/simulate.py [--games 4] [--wins 10000] [--jobs 2] [--seed bench]

* Speed: ``--games`` full games per ruleset (every ruleset package under replayer/rules/
  that defines ``RULESET``; a game is capped at 64 hands when the ruleset never ends it),
  one process, each event applied by the replayer in strict mode as ``paipu simulate``
  does. Prints games/s, hands/s, events/s per CPU-second of the process (the machine may
  be shared) and the wall-clock rate, and the time a 1-million-hand data set would take
  with ``--jobs`` workers.
* Agreement: MCR games (full games, seed ``--seed``) until ``--wins`` wins; each win's fans
  as the simulator recorded them (our fan calculator, through legal actions) are compared
  with ``MahjongGB.MahjongFanCalculator(..., verbose=True)`` as (Chinese name, count)
  multisets, and the totals. Every game is also checked as tests/simulate does, on a bigger
  run: replayed in strict mode with no finding, zero-sum settlements, a second replay
  giving a byte-identical final state, the replayer's fans equal to the recorded ones.
  Prints the agreement rate and the first few differences.

Nothing here asserts; tests/simulate holds the same checks on fewer games.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replayer.replay import run
from replayer.rules.base import known_rulesets
from replayer.rules.mcr.vectors import oracle_args
from eventlog.events import canonical_bytes
from replayer.simulate.engine import SimulationConfig, reported_fans, simulate_game
from replayer.state import to_dict


def speed(ruleset: str, games: int, seed: str) -> tuple[int, int, int, float, float]:
    """(games, hands, events, wall seconds, CPU seconds of this process)."""
    cfg = SimulationConfig(ruleset=ruleset, seed=seed)
    hands = events = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for g in range(games):
        game = simulate_game(cfg, g)
        hands += game.hands
        events += len(game.events)
    return games, hands, events, time.perf_counter() - t0, time.process_time() - c0


def _check_game(args: tuple[str, int]) -> tuple[int, int, int, list[str]]:
    """(hands, wins, agreeing wins, first differences) of one MCR game."""
    from MahjongGB import MahjongFanCalculator

    seed, g = args
    game = simulate_game(SimulationConfig(seed=seed), g)
    # the properties of tests/simulate on a bigger run: a clean strict replay, zero-sum
    # settlements, an identical second replay, the replayer's fans = the recorded ones
    replayed = run(game.events, mode="strict")
    assert not replayed.findings
    assert all(sum(e.changes) == 0 for e in replayed.state.score_log) and sum(replayed.state.scores) == 0
    again = run(game.events, mode="strict")
    assert canonical_bytes(to_dict(again.state)) == canonical_bytes(to_dict(replayed.state))
    recorded = [w.fans for w in game.wins]
    computed = [reported_fans(r.score) for r in _wins(game.events)]
    assert computed == recorded, game.game_id
    agree, diffs = 0, []
    for w in game.wins:
        sit = w.action.score.situation
        ours = sorted((f.name_zh, f.count) for f in w.action.score.explained.fans)
        ref_raw = MahjongFanCalculator(*oracle_args(sit), verbose=True)
        ref = sorted((name, count) for _, count, name, _ in ref_raw)
        ref_total = sum(points * count for points, count, _, _ in ref_raw)
        if ours == ref and ref_total == w.points:
            agree += 1
        elif len(diffs) < 3:
            diffs.append(f"{game.game_id} seq {w.seq}: {sit}\n    ours {ours} = {w.points}\n    ref  {ref} = {ref_total}")
    return game.hands, len(game.wins), agree, diffs


def _wins(events):
    """The replayer's record of each win, in order."""
    from replayer.replay import replay

    return [step.state.wins[-1] for step in replay(events, mode="strict") if step.event.type == "win_declared"]


def agreement(wins_wanted: int, seed: str, jobs: int) -> None:
    hands = wins = agree = games = 0
    diffs: list[str] = []
    t0 = time.perf_counter()
    batch = max(jobs * 4, 4)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        while wins < wins_wanted:
            for h, w, a, d in pool.map(_check_game, [(seed, games + k) for k in range(batch)]):
                hands += h
                wins += w
                agree += a
                diffs.extend(d)
            games += batch
    elapsed = time.perf_counter() - t0
    print(f"MCR vs MahjongGB: {agree}/{wins} simulated wins agree ({100 * agree / wins:.2f} %) — "
          f"{games} games, {hands} hands, seed {seed!r}, {elapsed:.0f} s with {jobs} workers")
    for d in diffs[:5]:
        print("  differs:", d)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4, help="full games per ruleset for the speed figures")
    ap.add_argument("--wins", type=int, default=10_000, help="MCR wins to compare with MahjongGB (0: skip)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes for the agreement run")
    ap.add_argument("--seed", default="bench")
    args = ap.parse_args()

    for rs in known_rulesets():
        games, hands, events, secs, cpu = speed(rs, args.games, args.seed)
        hps = hands / cpu
        print(f"{rs}: {games} games, {hands} hands, {events} events in {secs:.1f} s ({cpu:.1f} s CPU) — "
              f"{games / cpu:.2f} games/s, {hps:.1f} hands/s, {events / cpu:.0f} events/s per CPU-second "
              f"(wall clock: {hands / secs:.1f} hands/s)")
        print(f"  1,000,000 hands: about {1e6 / hps / 3600:.1f} CPU-hours, "
              f"{1e6 / hps / 3600 / args.jobs:.1f} h with --jobs {args.jobs} on {args.jobs} free cores")
    if args.wins:
        agreement(args.wins, args.seed, args.jobs)


if __name__ == "__main__":
    main()
