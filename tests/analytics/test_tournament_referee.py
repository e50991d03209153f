"""What a referee meets running a tournament from the CLI (a fresh user trial): unfinished
games, bad options, a player at two tables of a round, unknown team members, the title, a
round beyond the last, games with findings, messages in words. Real SQLite store in
tmp_path; expected values by hand (MCR table points 4/2/1/0, competition.md §A10)."""

from __future__ import annotations

import csv
import json

from typer.testing import CliRunner

from eventlog import events as ev
from eventlog.store import open_store
from paipu.cli import app


def _append(store, gid, players, scores, *, ended=True, reported=None):
    """A game decided by one table decision (a penalty event); ``ended=False`` stops before
    game_ended; ``reported``: final scores that game_ended reports (wrong ones → a finding)."""
    payloads = [
        ev.GameStarted(ruleset="mcr", players=list(players), initial_scores=[0, 0, 0, 0]),
        ev.Penalty(seat=0, score_changes=list(scores), reason="result of the session"),
    ]
    if ended:
        payloads.append(ev.GameEnded(final_scores=list(reported or scores)))
    store.append(gid, [ev.NewEvent.of(p, id_seed=f"{gid}/{k}") for k, p in enumerate(payloads)])


def _data(tmp_path, games):
    store = open_store(tmp_path)
    try:
        for g in games:
            _append(store, *g[:3], **(g[3] if len(g) > 3 else {}))
    finally:
        store.close()
    return ["--data", str(tmp_path)]


def _run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_an_unfinished_game_counts_in_no_total_and_is_flagged_everywhere(tmp_path):
    # g1 finished: A 4, B 2, C 1, D 0. g2 (round 2) has no game_ended: it counts nowhere yet.
    d = _data(tmp_path, [("g1", "ABCD", (30, 10, -10, -30)),
                         ("g2", "ABCD", (50, 0, 0, -50), {"ended": False})])
    assert _run("tournament", "create", "t1", "--title", "Club night", *d).exit_code == 0
    assert _run("tournament", "add-game", "t1", "g1", *d).exit_code == 0
    out = _run("tournament", "add-game", "t1", "g2", "--round", "2", *d)
    assert out.exit_code == 0 and "NOT finished" in out.output, out.output
    out = _run("tournament", "standings", "t1", "--json", "--csv", tmp_path / "s.csv", *d)
    assert out.exit_code == 0, out.output
    rows = {r["name"]: r for r in json.loads(out.output) if r["kind"] == "player"}
    assert {n: (r["games"], r["table_points"], r["score"], r["unfinished"], r["rank"]) for n, r in rows.items()} == {
        "A": (1, 4.0, 30, 1, 1), "B": (1, 2.0, 10, 1, 2), "C": (1, 1.0, -10, 1, 3), "D": (1, 0.0, -30, 1, 4)}
    assert {r["title"] for r in rows.values()} == {"Club night"}
    with open(tmp_path / "s.csv", encoding="utf-8") as f:
        lines = [r for r in csv.DictReader(f) if r["kind"] == "player"]
    assert {r["name"]: (r["games"], r["table_points"], r["unfinished"], r["title"]) for r in lines} == {
        "A": ("1", "4.0", "1", "Club night"), "B": ("1", "2.0", "1", "Club night"),
        "C": ("1", "1.0", "1", "Club night"), "D": ("1", "0.0", "1", "Club night")}
    text = _run("tournament", "standings", "t1", *d).output
    assert text.splitlines()[0].startswith("Club night — t1")
    assert "1 unfinished, not counted" in text and "left out of the standings" in text and "g2" in text


def test_only_unfinished_game_gives_no_points(tmp_path):
    d = _data(tmp_path, [("G1", "ABCD", (0, 0, 0, 0), {"ended": False})])
    _run("tournament", "create", "t1", *d)
    _run("tournament", "add-game", "t1", "G1", *d)
    rows = json.loads(_run("tournament", "standings", "t1", "--json", *d).output)
    assert [(r["games"], r["table_points"], r["unfinished"]) for r in rows] == [(0, 0.0, 1)] * 4


def test_bad_choice_options_are_one_line_naming_the_flag(tmp_path):
    for flag, allowed in (("--scoring", "mcr_table_points or cjm_standard"), ("--second-scope", "table or best")):
        out = _run("tournament", "create", "x3", flag, "foo", "--data", tmp_path)
        assert out.exit_code == 2, out.output
        assert out.output.strip() == f"error: {flag} 'foo': use {allowed}"


def test_a_player_sits_at_one_table_a_round(tmp_path):
    d = _data(tmp_path, [("g1", "ABCD", (30, 10, -10, -30)), ("g2", "ABCD", (30, 10, -10, -30)),
                         ("g3", "AXYZ", (30, 10, -10, -30))])
    _run("tournament", "create", "t1", *d)
    assert _run("tournament", "add-game", "t1", "g1", "--table", "1", *d).exit_code == 0
    out = _run("tournament", "add-game", "t1", "g2", "--table", "2", *d)
    assert out.exit_code == 2 and len(out.output.strip().splitlines()) == 1, out.output
    assert "A, B, C, D already sit at table 1 in round 1" in out.output
    out = _run("tournament", "add-game", "t1", "g3", "--table", "2", *d)
    assert out.exit_code == 2 and "A already sits at table 1 in round 1" in out.output, out.output
    # the same table's next session, or another round, is fine
    assert _run("tournament", "add-game", "t1", "g2", "--table", "1", "--session", "2", *d).exit_code == 0
    assert _run("tournament", "add-game", "t1", "g3", "--round", "2", "--table", "2", *d).exit_code == 0


def test_team_members_must_be_players_as_for_a_penalty(tmp_path):
    d = _data(tmp_path, [("g1", ["Player 1", "B", "C", "D"], (30, 10, -10, -30))])
    _run("tournament", "create", "club1", *d)
    _run("tournament", "add-game", "club1", "g1", *d)
    team = _run("tournament", "team", "club1", "Ghosts", "Ghost", "Nobody", *d)
    pen = _run("tournament", "penalty", "club1", "Ghost", "-10", "--rule", "x", *d)
    assert team.exit_code == pen.exit_code == 2
    assert team.output == pen.output
    assert team.output.startswith("error: player 'Ghost' is not in tournament 'club1'")
    assert _run("tournament", "team", "club1", "Red", "Player 1", *d).exit_code == 0
    out = _run("tournament", "team", "club1", "Green", "Player 1", *d)
    assert out.exit_code == 2 and out.output.strip() == "error: team 'Green': Player 1 is already in team 'Red'"
    out = _run("tournament", "penalty", "club1", "B", "1000000", "--rule", "x", *d)
    assert out.exit_code == 2 and out.output.strip() == "error: points: must be at most 100000, got 1000000"


def test_round_beyond_the_last_is_refused(tmp_path):
    d = _data(tmp_path, [(f"g{k}", "ABCD", (30, 10, -10, -30)) for k in (1, 2, 3)])
    _run("tournament", "create", "t1", *d)
    for k in (1, 2, 3):
        assert _run("tournament", "add-game", "t1", f"g{k}", "--round", k, *d).exit_code == 0
    out = _run("tournament", "standings", "t1", "--round", "99", *d)
    assert out.exit_code == 2 and out.output.strip() == "error: --round 99: tournament 't1' has rounds 1 to 3"
    assert "after round 3" in _run("tournament", "standings", "t1", "--round", "3", *d).output


def test_a_game_with_findings_is_added_with_a_note(tmp_path):
    # game_ended reports final scores that the table decision does not give: a finding
    d = _data(tmp_path, [("g1", "ABCD", (30, 10, -10, -30), {"reported": (0, 0, 0, 0)})])
    _run("tournament", "create", "t1", *d)
    out = _run("tournament", "add-game", "t1", "g1", *d)
    assert out.exit_code == 0, out.output
    assert "note: g1 has 1 finding; see them with `paipu verify g1 --data" in out.output
