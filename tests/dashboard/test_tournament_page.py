"""The Tournament page in Streamlit's AppTest on a real data directory: a SQLite log with
four games and a tournament file (standings from the rules: MCR table points 4/2/1/0)."""

from __future__ import annotations

from analytics.tournament import Created, GameRecord, PenaltyRecord, TeamRecord, Tournament
from eventlog import events as ev
from eventlog.store import open_store

# R1 T1 A B C D (30, 10, -10, -30): A 4 B 2 C 1 D 0;  R1 T2 E F G H (20, 20, -15, -25): E 3 F 3 G 1 H 0
# R2 T1 A E C G (0, 0, 0, 0): 1.75 each;              R2 T2 B F D H (-40, 50, 10, -20): F 4 D 2 H 1 B 0
# after round 2: A 5.75, F 7, E 4.75, B 2, D 2, C 2.75, G 2.75, H 1 → F first, A second.
GAMES = [(1, "T1", "ABCD", (30, 10, -10, -30)), (1, "T2", "EFGH", (20, 20, -15, -25)),
         (2, "T1", "AECG", (0, 0, 0, 0)), (2, "T2", "BFDH", (-40, 50, 10, -20))]


def _setup(d):
    store = open_store(d)
    try:
        t = Tournament.create(d, "cup", Created(title="Spring cup"))
        for rnd, table, players, scores in GAMES:
            gid = f"r{rnd}{table}"
            store.append(gid, [ev.NewEvent.of(p, id_seed=f"{gid}/{k}") for k, p in enumerate([
                ev.GameStarted(ruleset="mcr", players=list(players), initial_scores=[0, 0, 0, 0]),
                ev.Penalty(seat=0, score_changes=list(scores), reason="result"),
                ev.GameEnded(final_scores=list(scores))])])
            t = t.add(d, GameRecord(game_id=gid, round=rnd, table=table))
        t = t.add(d, TeamRecord(team="East", players=list("ABCD")))
        t.add(d, PenaltyRecord(player="H", points=-10, rule="competition.md §A9", reason="late", round=2))
    finally:
        store.close()


def test_standings_games_and_penalties(tmp_path, open_page):
    _setup(tmp_path)
    at = open_page(tmp_path, "tournament", tournament="cup")
    first = at.dataframe[0].value
    assert list(first["name"][:2]) == ["F", "A"] and list(first["table points"][:2]) == [7.0, 5.75]
    assert int(first[first["name"] == "H"]["penalties"].iloc[0]) == -10
    teams = at.dataframe[1].value
    assert list(teams["name"]) == ["East"]
    games = at.dataframe[2].value
    assert list(games["game"]) == ["r1T1", "r2T1"] and list(games["table points"]) == [4.0, 1.75]
    rulings = at.dataframe[3].value
    assert "late" in set(rulings["what"])
    at.select_slider[0].set_value(1).run()
    after1 = at.dataframe[0].value
    assert list(after1["name"][:3]) == ["A", "E", "F"] and list(after1["rank"][:3]) == [1, 2, 2]


def test_no_tournament_yet(tmp_path, open_page):
    at = open_page(tmp_path, "tournament")
    assert any("No tournament" in i.value for i in at.info)


def test_unknown_tournament_link(tmp_path, open_page):
    _setup(tmp_path)
    at = open_page(tmp_path, "tournament", tournament="nope")
    assert any("No tournament called `nope`" in e.value for e in at.error)


def test_dispute_page_shows_rulings_beside_their_events(tmp_path, open_page):
    _setup(tmp_path)
    store = open_store(tmp_path)
    try:
        store.append("r1T1", [ev.NewEvent.of(ev.RefereeRuling(
            ref_seq=1, ruling="result confirmed after review", kind="note", rule="competition.md §A9"),
            id_seed="r1T1/ruling")])
    finally:
        store.close()
    at = open_page(tmp_path, "dispute", game="r1T1")
    table = next(d.value for d in at.dataframe if "rules on" in d.value.columns)
    assert list(table["event"]) == [1, 3]
    row = table[table["event"] == 3].iloc[0]
    assert row["kind"] == "note" and row["rule"] == "competition.md §A9"
    assert row["rules on"].startswith("event 1: ") and "penalty" in row["rules on"]
