"""PMN → canonical events (python-majiang 0.0.1 README; sample README).

The expected discards of South come from the python-majiang README itself
(``board.get_discard_tile_list(SOUTH)`` on this very deal)."""

from __future__ import annotations

import re

from ingest_helpers import PMN_SAMPLE, load


def _play():
    text = PMN_SAMPLE.read_text(encoding="utf-8")
    return re.search(r'\[Play "(.*)"\]', text).group(1)


def test_one_game_one_hand_two_winners():
    (g,), issues = load(PMN_SAMPLE)
    assert issues == []
    assert g.game_id == "pmn-mahjongsoft.com-74621-1-3"  # Site: session, game, table
    gs = g.events[0]
    assert gs.payload.ruleset_options == {"multiple_winners": "all"}  # Scoring "Duplicate"
    assert gs.payload.players == ["Player0", "Player1", "Player2", "Player3"]
    assert (gs.metadata["event"], gs.metadata["date"]) == ("Duplicate MCR", "2022.06.25")
    assert g.count("hand_started") == 1
    wins = [e.payload for e in g.events if e.type == "win_declared"]
    # "...D0d3M1M3": South and North both win on East's 3 of dots
    assert [(w.seat, w.from_seat, w.tile) for w in wins] == [(1, 0, "B3"), (3, 0, "B3")]
    assert wins[0].discard_seq == wins[1].discard_seq
    d = g.events[wins[0].discard_seq].payload
    assert (d.seat, d.tile) == (0, "B3")
    result = [e.payload for e in g.events if e.type == "score_reported" and e.payload.score_changes]
    assert result[-1].score_changes == [-32, 36, -8, 36]  # Result tag


def test_counts_follow_the_play_tokens():
    (g,), _ = load(PMN_SAMPLE)
    play = _play()
    assert g.count("tile_drawn") == len(re.findall(r"T\d", play))
    assert g.count("tile_discarded") == len(re.findall(r"D\d", play))
    assert g.count("chow") == len(re.findall(r"C\d", play)) == 4
    assert g.count("pung") == len(re.findall(r"P\d", play)) == 1


def test_z1_discards_the_drawn_tile():
    (g,), _ = load(PMN_SAMPLE)
    south = [e.payload.tile for e in g.events if e.type == "tile_discarded" and e.payload.seat == 1]
    # python-majiang README: South's pond r2 r1 r3 w1 w2 w1 d7 b5 w1 c6, after w3 was punged
    assert south == ["F3", "J2", "J1", "J3", "F1", "F2", "F1", "B7", "T5", "F1", "W6"]


def test_chow_names_the_middle_tile_and_fans_are_kept():
    (g,), _ = load(PMN_SAMPLE)
    chows = [e.payload for e in g.events if e.type == "chow"]
    # C3b8 on b8, C0c6 on c6, C3d8 on d8, C0d5 on d6
    assert [(c.seat, c.tiles, c.claimed_tile) for c in chows] == [
        (3, ["T7", "T8", "T9"], "T8"),
        (0, ["W5", "W6", "W7"], "W6"),
        (3, ["B7", "B8", "B9"], "B8"),
        (0, ["B4", "B5", "B6"], "B6"),
    ]
    fans = {e.payload.winner: [f.name for f in e.payload.fans]
            for e in g.events if e.type == "score_reported" and e.payload.fans}
    # README get_fan_zh() for this deal
    assert fans == {1: ["花龙", "门前清", "无字", "边张"], 3: ["花龙", "平和", "喜相逢", "边张"]}


def _variant(tmp_path, old, new):
    text = PMN_SAMPLE.read_text(encoding="utf-8")
    assert old in text
    p = tmp_path / "v.pmn"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    return p


def test_unknown_z_tile_is_reported(tmp_path):
    games, (issue,) = load(_variant(tmp_path, "T2b1D2z1", "T2b1D2z2"))
    assert games == [] and issue.line == 15 and "unknown tile code z2" in issue.reason


def test_unreadable_token_is_reported(tmp_path):
    games, (issue,) = load(_variant(tmp_path, "T0r2D0r1", "T0r2X0r1"))
    assert games == [] and issue.line == 15 and "column 5" in issue.reason


def test_h_is_a_win_like_m(tmp_path):
    (g,), issues = load(_variant(tmp_path, "M1M3", "H1H3"))
    assert issues == [] and g.count("win_declared") == 2


def test_two_records_in_one_file(tmp_path):
    text = PMN_SAMPLE.read_text(encoding="utf-8")
    second = text.replace("table=3", "table=4")
    p = tmp_path / "two.pmn"
    p.write_text(text + "\n" + second, encoding="utf-8")
    games, issues = load(p)
    assert issues == [] and [g.game_id[-4:] for g in games] == ["-1-3", "-1-4"]
    assert games[1].first_line == 18


def test_flower_replacement(tmp_path):
    # a flower in East's deal, set aside (R) and replaced before the first draw
    p = _variant(tmp_path, "w2r1f c79d", "w2r1f3 c79d")
    text = p.read_text(encoding="utf-8").replace('[Play "T0r2', '[Play "R0f3T0c2T0r2', 1)
    p.write_text(text, encoding="utf-8")
    (g,), issues = load(p)
    assert issues == []
    i = next(i for i, e in enumerate(g.events) if e.type == "flower_replaced")
    assert g.events[i].payload.model_dump() == {"seat": 0, "flower": "H3"}
    assert g.events[i + 1].payload.model_dump() == {
        "seat": 0, "tile": "W2", "source": "flower_replacement"}
    assert g.events[i + 2].payload.model_dump() == {"seat": 0, "tile": "J2", "source": "wall"}


def test_play_after_the_end_of_the_hand_is_stored_and_found(tmp_path):
    """Issue 13 item 7: a draw and a discard written after the hand's wins (hand-edited
    sample) are not refused: the game is stored as written and the replayer, in audit mode,
    reports the draw as play after the end of the hand (DESIGN.md §6)."""
    from eventlog.ingest.load import ingest_files
    from eventlog.store.memory import MemoryStore
    from replayer.audit import audit_game

    store = MemoryStore()
    report = ingest_files(store, [_variant(tmp_path, "M1M3", "M1M3T0c2D0c2")])
    assert report.errors == [] and len(report.stored) == 1
    events = list(store.read_game(report.stored[0]))
    drawn = next(e for e in events[1:] if e.type == "tile_drawn" and events[e.seq - 1].type == "win_declared")
    assert drawn.payload.seat == 0 and drawn.metadata["line"] == 15  # T0c2, on the Play tag's line
    findings = audit_game(events).findings
    assert any(f.rule_id == "play_after_hand_end" and f.seq == drawn.seq for f in findings)


def _ingest_and_verify(tmp_path, path):
    """``paipu ingest`` then ``paipu verify`` of one file into a fresh data directory: the
    results of both commands."""
    from typer.testing import CliRunner

    from paipu.cli import app

    runner = CliRunner()
    data = str(tmp_path / "data")
    ingested = runner.invoke(app, ["ingest", str(path), "--data", data], catch_exceptions=False)
    verified = runner.invoke(app, ["verify", "-q", "--data", data], catch_exceptions=False)
    return ingested, verified


def _stored_events(tmp_path):
    from eventlog.store import open_store

    store = open_store(tmp_path / "data", create=False)
    try:
        (game,) = store.list_games()
        return list(store.read_game(game.game_id))
    finally:
        store.close()


def test_a_further_winner_who_is_the_discarder_is_stored_and_found(tmp_path):
    """Issue 13 item 7: the sample's last discard is East's D0d3 (seat 0), won by M1M3;
    edited to M1M3M0, East is a third winner on his own discard. The game is stored as
    written (a win_declared from seat 0 on seat 0's discard), replays, and ``paipu verify``
    reports claim_own_discard at that event (exit 1): a player cannot win on his own
    discard (DESIGN.md §4: claims take another player's discard)."""
    ingested, verified = _ingest_and_verify(tmp_path, _variant(tmp_path, "D0d3M1M3", "D0d3M1M3M0"))
    assert ingested.exit_code == 0 and "1 game stored" in ingested.output, ingested.output
    events = _stored_events(tmp_path)
    wins = [e for e in events if e.type == "win_declared"]
    assert [(w.payload.seat, w.payload.from_seat) for w in wins] == [(1, 0), (3, 0), (0, 0)]
    own = wins[-1]
    discard = events[own.payload.discard_seq]
    assert discard.type == "tile_discarded" and discard.payload.seat == 0 and discard.payload.tile == "B3"
    assert verified.exit_code == 1, verified.output
    line = next(l for l in verified.output.splitlines() if "[claim_own_discard]" in l)
    assert f"event {own.seq} seat 0:" in line and "own discard" in line
    # a token that cannot be read at all is still refused: one line, file, line, reason
    ingested, _ = _ingest_and_verify(tmp_path / "x", _variant(tmp_path, "D0d3M1M3", "D0d3M1M3Q0"))
    assert ingested.exit_code == 1
    (err,) = [l for l in ingested.output.splitlines() if l.startswith("error:")]
    assert ".pmn:15:" in err and "unreadable 'Q0'" in err


def test_fans_for_a_seat_that_did_not_win_are_stored_and_found(tmp_path):
    """Issue 13 item 7: the sample's Fan tag edited to give East (seat 0, who did not win)
    the fan 39 (花龙) once. The game is stored with that reported score (score_reported
    for seat 0 with the fan) and ``paipu verify`` reports reported_score_mismatch naming
    seat 0 at that event (exit 1)."""
    ingested, verified = _ingest_and_verify(tmp_path, _variant(tmp_path, '[Fan "None 39', '[Fan "39/1 39'))
    assert ingested.exit_code == 0 and "1 game stored" in ingested.output, ingested.output
    events = _stored_events(tmp_path)
    (east,) = [e for e in events if e.type == "score_reported" and e.payload.winner == 0]
    assert [(f.name, f.count) for f in east.payload.fans] == [("花龙", 1)] and east.metadata["line"] == 16
    assert verified.exit_code == 1, verified.output
    line = next(l for l in verified.output.splitlines() if "[reported_score_mismatch]" in l and "seat 0" in l)
    assert line.strip().startswith(f"finding: event {east.seq} seat 0:") and "no legal win by that seat" in line
    # a Fan entry that cannot be read is still refused: one line, file, line, reason
    ingested, _ = _ingest_and_verify(tmp_path / "x", _variant(tmp_path, '[Fan "None 39', '[Fan "39/x 39'))
    assert ingested.exit_code == 1
    (err,) = [l for l in ingested.output.splitlines() if l.startswith("error:")]
    assert ".pmn:16:" in err and "Fan entry '39/x' is not no/count" in err
