"""The Players page's search and the statistics of issue 21 item 5 in AppTest: a search by part
of a name narrows the players; the placements of a player with the number of games (from the
bundled source files: the lite JSON logs and the PMN deal name their seats PlayerN, one game
each); points per game over time and the deal-in rate by turn drawn as charts."""

from __future__ import annotations

import dash_sources as src


def _df(at, *columns):
    for d in at.dataframe:
        if all(c in d.value.columns for c in columns):
            return d.value
    raise AssertionError([list(d.value.columns) for d in at.dataframe])


def test_search_and_placements(data_dir, open_page):
    at = open_page(data_dir, "players", player="Player3")
    at.text_input[0].set_value("player 3").run()
    assert at.selectbox[0].options == ["Player 3"]  # the text format's "Player 3"; not "Player3"
    at.text_input[0].set_value("3").run()
    assert set(at.selectbox[0].options) == {"Player 3", "Player3"}
    at.selectbox[0].set_value("Player3").run()
    games = sum(1 for p, _lg in src.json_logs() if p.name.endswith("_lite.json")) + 1
    places = _df(at, "placements of", "1st", "4th")
    row = places[places["placements of"] == "Player3"].iloc[0]
    assert row["games (sample)"] == games
    assert row["1st"] + row["2nd"] + row["3rd"] + row["4th"] == games
    titles = [c.proto.spec for c in at.get("vega_lite_chart")]
    assert any("games by place" in t for t in titles)
    assert any("points per game" in t for t in titles)
    assert any("Deal-ins per discard, by turn" in t for t in titles)


def test_search_without_a_match(data_dir, open_page):
    at = open_page(data_dir, "players")
    at.text_input[0].set_value("nobody-at-all").run()
    assert any("No player matches" in i.value for i in at.info)


def test_player_with_games_of_two_rulesets(tmp_path, open_page):
    """A player of MCR and Sichuan games: the page shows places and rates over both and no
    average of points across the two units (docs/analytics.md "Units"), without an exception."""
    from cli_run import run

    data = tmp_path / "data"
    logs = []
    for ruleset in ("mcr", "sichuan"):
        logs.append(tmp_path / f"{ruleset}.jsonl")
        run("simulate", "--ruleset", ruleset, "--games", "1", "--seed", "5", "--hands-per-game", "4",
            "--out", logs[-1])
    run("ingest", "--data", data, "-q", *logs)
    run("export", "--data", data, "-q")
    at = open_page(data, "players", player="greedy-0")
    row = _df(at, "placements of", "1st", "4th").iloc[0]
    assert row["placements of"] == "greedy-0" and row["games (sample)"] == 2
    assert "rulesets" in str(row["points per game"])
    assert any(m.value == "—" for m in at.metric if m.label == "avg score change / hand")
