"""Tournament standings (analytics/tournament.py) on games in a real SQLite event log,
checked against totals computed by hand below (competition.md §A10; MCR table points)."""

from __future__ import annotations

import csv
import json

import pyarrow.parquet as pq
import pytest

from analytics.tournament import (
    STANDINGS_COLUMNS, Created, GameRecord, PenaltyRecord, TeamRecord, Tournament, TournamentError,
    game_result, standings, standings_rows, table_points, write_csv, write_parquet,
)
from eventlog import events as ev
from eventlog.store import open_store

# Three rounds, two tables, eight players (MCR table points 4/2/1/0, ties split):
#
#   R1 T1  A B C D  ( 30,  10, -10, -30)  A 4  B 2  C 1  D 0
#   R1 T2  E F G H  ( 20,  20, -15, -25)  E 3  F 3 (tied first: (4+2)/2)  G 1  H 0
#   R2 T1  A E C G  (  0,   0,   0,   0)  all 1.75 ((4+2+1+0)/4)
#   R2 T2  B F D H  (-40,  50,  10, -20)  F 4  D 2  H 1  B 0
#   R3 T1  A F D G  ( 15,   5,   5, -25)  A 4  F 1.5  D 1.5 ((2+1)/2)  G 0
#   R3 T2  B E C H  ( 12,  -4,  -4,  -4)  B 4  E 1  C 1  H 1 ((2+1+0)/3)
#
# Totals (table points; score):
#   A 4+1.75+4 = 9.75; 30+0+15 = 45      E 3+1.75+1 = 5.75; 20+0-4 = 16
#   B 2+0+4    = 6;    10-40+12 = -18    F 3+4+1.5  = 8.5;  20+50+5 = 75
#   C 1+1.75+1 = 3.75; -10+0-4 = -14     G 1+1.75+0 = 2.75; -15+0-25 = -40
#   D 0+2+1.5  = 3.5;  -30+10+5 = -15    H 0+1+1    = 2;    -25-20-4 = -49
# → A, F, B, E, C, D, G, H. After round 1: A 4; E and F 3 with 20 each (tied 2nd); B 2;
#   C 1 (-10) before G 1 (-15); H 0 (-25) before D 0 (-30).
# Teams East = A B C D: 9.75+6+3.75+3.5 = 23; West = E F G H: 5.75+8.5+2.75+2 = 19.
GAMES = [
    (1, "T1", "ABCD", (30, 10, -10, -30)),
    (1, "T2", "EFGH", (20, 20, -15, -25)),
    (2, "T1", "AECG", (0, 0, 0, 0)),
    (2, "T2", "BFDH", (-40, 50, 10, -20)),
    (3, "T1", "AFDG", (15, 5, 5, -25)),
    (3, "T2", "BECH", (12, -4, -4, -4)),
]


def _append_game(store, gid, players, scores, *, ruleset="mcr", initial=(0, 0, 0, 0)):
    """A game whose result is one table decision (a penalty event of the score changes)."""
    changes = [s - i for s, i in zip(scores, initial)]
    payloads = [
        ev.GameStarted(ruleset=ruleset, players=list(players), initial_scores=list(initial)),
        ev.Penalty(seat=0, score_changes=changes, reason="result of the session"),
        ev.GameEnded(final_scores=list(scores)),
    ]
    store.append(gid, [ev.NewEvent.of(p, id_seed=f"{gid}/{k}") for k, p in enumerate(payloads)])


@pytest.fixture
def mcr_tournament(tmp_path):
    store = open_store(tmp_path)
    t = Tournament.create(tmp_path, "open", Created(scoring="mcr_table_points"))
    for rnd, table, players, scores in GAMES:
        gid = f"r{rnd}{table}"
        _append_game(store, gid, players, scores)
        t = t.add(tmp_path, GameRecord(game_id=gid, round=rnd, table=table))
    t = t.add(tmp_path, TeamRecord(team="East", players=list("ABCD")))
    t = t.add(tmp_path, TeamRecord(team="West", players=list("EFGH")))
    yield tmp_path, store, t
    store.close()


def _results(store, t):
    return [game_result(store, g) for g in t.games]


def test_table_points_split_ties():
    assert table_points((30, 10, -10, -30)) == (48, 24, 12, 0)
    assert table_points((20, 20, -15, -25)) == (36, 36, 12, 0)
    assert table_points((0, 0, 0, 0)) == (21, 21, 21, 21)
    assert table_points((12, -4, -4, -4)) == (48, 12, 12, 12)


def test_three_round_two_table_standings(mcr_tournament):
    data, store, t = mcr_tournament
    lines = standings(t, _results(store, t))
    assert [(s.name, float(s.table_points), s.score, s.rank) for s in lines] == [
        ("A", 9.75, 45, 1), ("F", 8.5, 75, 2), ("B", 6.0, -18, 3), ("E", 5.75, 16, 4),
        ("C", 3.75, -14, 5), ("D", 3.5, -15, 6), ("G", 2.75, -40, 7), ("H", 2.0, -49, 8)]
    teams = standings(t, _results(store, t), teams=True)
    assert [(s.name, float(s.table_points), s.members) for s in teams] == [
        ("East", 23.0, tuple("ABCD")), ("West", 19.0, tuple("EFGH"))]


def test_ties_share_a_rank_after_round_one(mcr_tournament):
    data, store, t = mcr_tournament
    lines = standings(t, _results(store, t), through_round=1)
    assert [(s.name, s.rank) for s in lines] == [
        ("A", 1), ("E", 2), ("F", 2), ("B", 4), ("C", 5), ("G", 6), ("H", 7), ("D", 8)]


def test_a_ruling_changes_the_result_and_the_standings(mcr_tournament):
    """A referee rules on R3 T1 after the game: A's win there is cut by 20 in G's favour
    (A −20, G +20): scores (−5, 5, 5, −5): F and D tie first (3 each), A and G tie third
    (0.5 each). A 4+1.75+0.5 = 6.25 (score 25); F 3+4+3 = 10; D 0+2+3 = 5; G 1+1.75+0.5 =
    3.25 (score −20) → F, A, B (6), E (5.75), D, C (3.75), G, H."""
    data, store, t = mcr_tournament
    ruling = ev.RefereeRuling(ref_seq=1, ruling="result corrected: A's 20 points go to G (competition.md §A9)",
                              score_changes=[-20, 0, 0, 20])
    store.append("r3T1", [ev.NewEvent.of(ruling, id_seed="r3T1/ruling")])
    res = game_result(store, t.games[4])
    assert res.scores == (-5, 5, 5, -5) and res.rulings
    lines = standings(t, _results(store, t))
    assert [(s.name, float(s.table_points), s.score) for s in lines] == [
        ("F", 10.0, 75), ("A", 6.25, 25), ("B", 6.0, -18), ("E", 5.75, 16),
        ("D", 5.0, -15), ("C", 3.75, -14), ("G", 3.25, -20), ("H", 2.0, -49)]


def test_tournament_penalty_counts(mcr_tournament):
    data, store, t = mcr_tournament
    t = t.add(data, PenaltyRecord(player="F", points=-30, rule="competition.md §A9", reason="late", round=3))
    f = next(s for s in standings(t, _results(store, t)) if s.name == "F")
    assert (f.score, f.penalty_points) == (45, -30)
    assert next(s for s in standings(t, _results(store, t), through_round=2) if s.name == "F").penalty_points == 0


def test_export_csv_and_parquet(mcr_tournament, tmp_path):
    data, store, t = mcr_tournament
    rows = standings_rows(t, _results(store, t))
    text = write_csv(rows, tmp_path / "s.csv")
    read = list(csv.DictReader((tmp_path / "s.csv").open(encoding="utf-8")))
    assert text.splitlines()[0].split(",") == [c for c, _, _ in STANDINGS_COLUMNS]
    assert [(r["kind"], r["name"], r["rank"], r["table_points_x12"]) for r in read[:2]] == [
        ("player", "A", "1", "117"), ("player", "F", "2", "102")]
    write_parquet(rows, tmp_path / "s.parquet")
    table = pq.read_table(tmp_path / "s.parquet")
    assert table.column_names == [c for c, _, _ in STANDINGS_COLUMNS]
    assert table.to_pylist() == rows
    again = tmp_path / "again.parquet"
    write_parquet(standings_rows(t, _results(store, t)), again)
    assert again.read_bytes() == (tmp_path / "s.parquet").read_bytes()


def test_records_are_checked(mcr_tournament):
    data, store, t = mcr_tournament
    with pytest.raises(TournamentError, match="already in round 1"):
        t.add(data, GameRecord(game_id="r1T1", round=2, table="T1", session=2))
    with pytest.raises(TournamentError, match="already holds"):
        t.add(data, GameRecord(game_id="other", round=1, table="T1"))
    with pytest.raises(TournamentError, match="already exists"):
        Tournament.create(data, "open", Created())
    with pytest.raises(TournamentError, match="no tournament"):
        Tournament.load(data, "nope")
    with pytest.raises(TournamentError, match="name"):
        Tournament.path(data, "../x")
    (data / "tournaments" / "bad.jsonl").write_text('{"kind": "created"}\n{"kind": "game", "round": 0}\n')
    with pytest.raises(TournamentError, match=r"^tournament 'bad', line 2 of its file: ") as exc:
        Tournament.load(data, "bad")
    assert exc.value.hint.endswith("bad.jsonl:2") and exc.value.details() == {"tournament": "bad", "line": 2}


# 竞技麻将 标准分 (§A10), first 1 and the best second across tables 1 per round:
#   R1 A (P1..P4): s1 (150,100,80,70) s2 (90,130,100,80) → 总局分 240 230 180 150: P1 +1; 2nd P2 230
#   R1 B (P5..P8): s1 (100,100,100,100) s2 (120,120,60,100) → 220 220 160 200: P5, P6 +1; 2nd P8 200
#   best second R1: P2 (230 > 200) +1
#   R2 A (P1 P5 P3 P7): (100,160,40,100) → P5 +1; seconds P1, P7 100
#   R2 B (P2 P6 P4 P8): (110,90,105,95)  → P2 +1; second P4 105 → best second R2: P4 +1
# 标准分: P1 1 (R1), P2 2 (best second R1, first R2), P3 0, P4 1 (best second R2),
#         P5 2 (R1 tied first, R2 first), P6 1 (R1 tied first), P7 0, P8 0
# 总局分: P1 340, P2 340, P3 220, P4 255, P5 380, P6 310, P7 260, P8 295
# → P5 (2, 380), P2 (2, 340), P1 (1, 340), P6 (1, 310), P4 (1, 255), P8, P7, P3 (0: 295, 260, 220)
# Teams X = P1 P5 (1+2 = 3; 720) and Y = P2 P4 (2+1 = 3; 595): tied on 标准分, X first on 总局分.
CJM = [
    (1, "A", 1, ("P1", "P2", "P3", "P4"), (150, 100, 80, 70)),
    (1, "A", 2, ("P1", "P2", "P3", "P4"), (90, 130, 100, 80)),
    (1, "B", 1, ("P5", "P6", "P7", "P8"), (100, 100, 100, 100)),
    (1, "B", 2, ("P5", "P6", "P7", "P8"), (120, 120, 60, 100)),
    (2, "A", 1, ("P1", "P5", "P3", "P7"), (100, 160, 40, 100)),
    (2, "B", 1, ("P2", "P6", "P4", "P8"), (110, 90, 105, 95)),
]


def test_cjm_standard_points_and_team_ties(tmp_path):
    store = open_store(tmp_path)
    try:
        t = Tournament.create(tmp_path, "cjm", Created(scoring="cjm_standard", first_points=1, second_points=1,
                                                      second_scope="best"))
        for rnd, table, session, players, chips in CJM:
            gid = f"c{rnd}{table}{session}"
            _append_game(store, gid, players, chips, ruleset="cjm_chips", initial=(100, 100, 100, 100))
            t = t.add(tmp_path, GameRecord(game_id=gid, round=rnd, table=table, session=session))
        t = t.add(tmp_path, TeamRecord(team="X", players=["P1", "P5"]))
        t = t.add(tmp_path, TeamRecord(team="Y", players=["P2", "P4"]))
        results = [game_result(store, g) for g in t.games]
        lines = standings(t, results)
        assert [(s.name, s.standard_points, s.score, s.rank) for s in lines] == [
            ("P5", 2, 380, 1), ("P2", 2, 340, 2), ("P1", 1, 340, 3), ("P6", 1, 310, 4), ("P4", 1, 255, 5),
            ("P8", 0, 295, 6), ("P7", 0, 260, 7), ("P3", 0, 220, 8)]
        teams = standings(t, results, teams=True)
        assert [(s.name, s.standard_points, s.score, s.rank) for s in teams] == [("X", 3, 720, 1), ("Y", 3, 595, 2)]
    finally:
        store.close()


def test_cli_create_add_standings(tmp_path):
    from typer.testing import CliRunner

    from paipu.cli import app

    store = open_store(tmp_path)
    try:
        for rnd, table, players, scores in GAMES[:2]:
            _append_game(store, f"r{rnd}{table}", players, scores)
    finally:
        store.close()
    r = CliRunner()
    d = ["--data", str(tmp_path)]
    assert r.invoke(app, ["tournament", "create", "cup", *d]).exit_code == 0
    for rnd, table, _, _ in GAMES[:2]:
        out = r.invoke(app, ["tournament", "add-game", "cup", f"r{rnd}{table}", "--round", "1", "--table", table, *d])
        assert out.exit_code == 0, out.output
    bad = r.invoke(app, ["tournament", "add-game", "cup", "missing", "--round", "1", "--table", "T3", *d])
    assert bad.exit_code == 2 and "no such game" in bad.output
    out = r.invoke(app, ["tournament", "standings", "cup", "--json", "--csv", str(tmp_path / "s.csv"), *d])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    assert [(x["name"], x["rank"]) for x in rows if x["kind"] == "player"][:3] == [("A", 1), ("E", 2), ("F", 2)]
    assert (tmp_path / "s.csv").exists()
    text = r.invoke(app, ["tournament", "standings", "cup", *d])
    assert text.exit_code == 0 and "A" in text.output and "4.00" in text.output
    # points taken are written as the module's usage says: `penalty cup A -10 --rule …`
    out = r.invoke(app, ["tournament", "penalty", "cup", "A", "-10", "--rule", "competition.md §A9", *d])
    assert out.exit_code == 0, out.output
    rows = json.loads(r.invoke(app, ["tournament", "standings", "cup", "--json", *d]).output)
    assert [(x["score"], x["penalty_points"]) for x in rows if x["name"] == "A"] == [(20, -10)]


def test_columns_are_documented():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "analytics.md").read_text(encoding="utf-8")
    for c, t, _ in STANDINGS_COLUMNS:
        assert f"| `{c}` | {t} |" in doc, c


def test_provisional_pattern_values_are_flagged_in_verify_and_standings(tmp_path):
    """competition.md §A6.2: the cjm_chips pattern values are provisional; every output that a
    score with them reaches says so — ``paipu verify`` beside each such item, the standings
    (CLI, CSV/Parquet column ``provisional``) of a player who played such a game. MCR games
    (the hand-made ones here) are not provisional."""
    from typer.testing import CliRunner

    from paipu.cli import app
    from replayer.simulate.engine import SimulationConfig, simulate_game

    game = simulate_game(SimulationConfig(ruleset="cjm_chips", seed="1", hands_per_game=3), 2)
    store = open_store(tmp_path)
    try:
        store.append(game.game_id, list(game.events))
        _append_game(store, "mcr1", "ABCD", (30, 10, -10, -30))
    finally:
        store.close()
    r = CliRunner()
    d = ["--data", str(tmp_path)]
    out = r.invoke(app, ["verify", game.game_id, *d])
    assert out.exit_code == 0, out.output
    assert "(provisional)" in out.output
    assert r.invoke(app, ["tournament", "create", "cjm", "--scoring", "cjm_standard", *d]).exit_code == 0
    assert r.invoke(app, ["tournament", "add-game", "cjm", game.game_id, "--round", "1", "--table", "A", *d]).exit_code == 0
    assert r.invoke(app, ["tournament", "add-game", "cjm", "mcr1", "--round", "2", "--table", "A", *d]).exit_code == 0
    out = r.invoke(app, ["tournament", "standings", "cjm", "--json", *d])
    rows = [x for x in json.loads(out.output) if x["kind"] == "player"]
    assert {x["name"]: x["provisional"] for x in rows} == {**dict.fromkeys(game.events[0].payload.players, True),
                                                           **dict.fromkeys("ABCD", False)}
    assert "provisional" in r.invoke(app, ["tournament", "standings", "cjm", *d]).output


def test_penalty_points_are_bounded(mcr_tournament):
    from analytics.tournament import PENALTY_LIMIT, record

    data, store, t = mcr_tournament
    with pytest.raises(TournamentError, match=r"^points: must be at least -100000, got -99999999999999999999999$"):
        record(PenaltyRecord, player="A", points=-99999999999999999999999, rule="§A9")
    with pytest.raises(TournamentError, match=r"^points: must be at most 100000, got 100001$"):
        record(PenaltyRecord, player="A", points=PENALTY_LIMIT + 1, rule="§A9")
    t = t.add(data, record(PenaltyRecord, player="A", points=-PENALTY_LIMIT, rule="§A9"))
    assert next(s for s in standings(t, _results(store, t)) if s.name == "A").penalty_points == -100000
    # a record stored before the bound (the file is append-only) is a one-line error on reading
    p = Tournament.path(data, "open")
    p.write_text(p.read_text() + '{"kind": "penalty", "player": "A", "points": -99999999999999999999999, '
                                 '"rule": "x", "round": 1}\n')
    with pytest.raises(TournamentError, match=r"^tournament 'open', line 11 of its file: penalty.points: must be at "
                                              r"least -100000, got -99999999999999999999999$") as exc:
        Tournament.load(data, "open")
    assert exc.value.hint.endswith("open.jsonl:11")


def test_penalty_for_an_unknown_player_is_refused(mcr_tournament):
    from analytics.tournament import add_penalty

    data, store, t = mcr_tournament
    with pytest.raises(TournamentError, match=r"player 'Nobody' is not in tournament 'open'.*: A, B, C, D, E, F, G, H$"):
        add_penalty(data, store, "open", PenaltyRecord(player="Nobody", points=-5, rule="x"))
    assert Tournament.load(data, "open").penalties == ()
    # a team's registered player counts before playing (a no-show)
    t = t.add(data, TeamRecord(team="North", players=["Z"]))
    assert add_penalty(data, store, "open", PenaltyRecord(player="Z", points=-5, rule="x")).penalties[0].player == "Z"


def test_cli_penalty_errors_are_one_line(tmp_path):
    from typer.testing import CliRunner

    from paipu.cli import app

    store = open_store(tmp_path)
    try:
        _append_game(store, "g1", "ABCD", (30, 10, -10, -30))
    finally:
        store.close()
    r = CliRunner()
    d = ["--data", str(tmp_path)]
    assert r.invoke(app, ["tournament", "create", "t1", *d]).exit_code == 0
    assert r.invoke(app, ["tournament", "add-game", "t1", "g1", *d]).exit_code == 0
    for args, what in ((["A", "--rule", "x", "--", "-99999999999999999999999"], "error: points: "),
                       (["Nobody", "-5", "--rule", "x"], "error: player 'Nobody'")):
        out = r.invoke(app, ["tournament", "penalty", "t1", *d, *args])
        assert out.exit_code == 2 and out.output.startswith(what) and len(out.output.strip().splitlines()) == 1, \
            out.output
    out = r.invoke(app, ["tournament", "standings", "t1", "--parquet", str(tmp_path / "x.parquet"), *d])
    assert out.exit_code == 0 and "Nobody" not in out.output, out.output
