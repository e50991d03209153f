"""Placements over games of several rulesets: the places count in every ruleset, but the
points do not add up — MCR points, Sichuan fan units and chips are different units (each
ruleset's ``score_unit``, docs/reference/rules/), so ``points`` and ``points_per_game`` are
given only for one ruleset. Expected points are read from the logs' own ``game_ended``
final scores, never from the code under test."""

from __future__ import annotations

import json

from cli_run import run


def _points(path) -> dict[str, int]:
    """Final − initial score per player, from the JSON Lines log itself."""
    start = end = None
    for line in path.read_text(encoding="utf-8").splitlines():
        e = json.loads(line)
        if e["type"] == "game_started":
            start = e["payload"]
        elif e["type"] == "game_ended":
            end = e["payload"]
    assert start is not None and end is not None
    return {p: end["final_scores"][i] - start["initial_scores"][i] for i, p in enumerate(start["players"])}


def test_points_only_within_one_ruleset(tmp_path):
    data = tmp_path / "data"
    logs = {}
    for ruleset in ("mcr", "sichuan"):
        logs[ruleset] = tmp_path / f"{ruleset}.jsonl"
        run("simulate", "--ruleset", ruleset, "--games", "1", "--seed", "5", "--hands-per-game", "4",
            "--out", str(logs[ruleset]))
    run("ingest", "--data", str(data), "-q", str(logs["mcr"]), str(logs["sichuan"]))
    run("export", "--data", str(data), "-q")
    everyone = {r["player"]: r for r in json.loads(run("stats", "--data", str(data), "--placements", "--json").stdout)}
    assert set(everyone) == set(_points(logs["mcr"])) == set(_points(logs["sichuan"]))
    for r in everyone.values():
        assert r["games"] == 2 and r["rulesets"] == ["mcr", "sichuan"]
        assert r["points"] is None and r["points_per_game"] is None
    table = run("stats", "--data", str(data), "--placements").stdout
    assert "games of several rulesets, whose scores are in different units" in table
    for ruleset in ("mcr", "sichuan"):
        want = _points(logs[ruleset])
        rows = json.loads(run("stats", "--data", str(data), "--placements", "--ruleset", ruleset, "--json").stdout)
        assert {r["player"]: r["points"] for r in rows} == want
        assert all(r["rulesets"] == [ruleset] and r["points_per_game"] == r["points"] for r in rows)
    # the seat statistics: rates over both rulesets, averages of points only within one
    both = json.loads(run("stats", "--data", str(data), "--json").stdout)
    assert all(r["rulesets"] == ["mcr", "sichuan"] and r["avg_score_change"] is None
               and r["avg_points_won"] is None and r["avg_points_lost"] is None for r in both)
    by_ruleset = json.loads(run("stats", "--data", str(data), "--by", "ruleset", "--json").stdout)
    assert [r["ruleset"] for r in by_ruleset] == ["mcr", "sichuan"]
    assert all(r["avg_score_change"] is not None for r in by_ruleset)
    assert "games of several rulesets" in run("stats", "--data", str(data)).stdout
