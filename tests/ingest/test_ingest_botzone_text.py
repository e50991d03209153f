"""Botzone text logs → canonical events (data/README.md of the Botzone dataset).

Line numbers and counts below were read off sample_16_games.txt by hand (sed/grep)."""

from __future__ import annotations

from collections import Counter

import pytest
from ingest_helpers import FIXTURES, TEXT_SAMPLE, load

GAME1 = "botzone-61602cb45ddc087351c04358"


def test_sample_has_16_games_14_wins_2_draws(text_sample):
    games, issues = text_sample
    assert issues == []
    assert len(games) == 16  # README: 16 games (14 wins, 2 Huang/draws)
    assert sum(g.count("win_declared") for g in games) == 14
    assert sum(g.count("exhaustive_draw") for g in games) == 2
    assert len({g.game_id for g in games}) == 16


def test_sample_action_counts_match_the_source_lines(text_sample):
    games, _ = text_sample
    c = Counter(e.type for g in games for e in g.events)
    # grep counts of the source: 738 Draw, 786 Play, 33 Chi, 25 Peng,
    # 1 Gang + 2 AnGang + 2 BuGang, 5 lines with Ignore, 64 Deal.
    assert c["tile_drawn"] == 738
    assert c["tile_discarded"] == 786
    assert c["chow"] == 33
    assert c["pung"] == 25
    assert c["kong"] == 5
    assert c["pass"] == 5
    assert c["tiles_dealt"] == 64
    kinds = Counter(e.payload.kind for g in games for e in g.events if e.type == "kong")
    assert kinds == {"melded": 1, "concealed": 2, "added": 2}
    # every kong is followed by its replacement draw
    for g in games:
        for i, e in enumerate(g.events):
            if e.type == "kong":
                nxt = g.events[i + 1]
                assert nxt.type == "tile_drawn" and nxt.payload.source == "kong_replacement"


def test_self_drawn_and_discard_wins(text_sample):
    games, _ = text_sample
    wins = [e.payload for g in games for e in g.events if e.type == "win_declared"]
    # the line before each Hu: 6 are the winner's own Draw, 8 another seat's Play
    assert sum(w.self_drawn for w in wins) == 6
    assert sum(not w.self_drawn for w in wins) == 8
    assert not any(w.robbing_kong for w in wins)


def _game(games, gid):
    return next(g for g in games if g.game_id == gid)


def test_first_game_chow_claims_the_right_discard(text_sample):
    g = _game(text_sample[0], GAME1)
    # line 1 Match -> seq 0, line 2 Wind -> 1, lines 3..6 Deal -> 2..5, then one event
    # per line: line n -> seq n-1 up to line 44.
    # line 18 "Player 1 Play T4", line 19 "Player 2 Chi T5"
    discard, chow = g.events[17], g.events[18]
    assert discard.type == "tile_discarded"
    assert discard.payload.seat == 1 and discard.payload.tile == "T4"
    assert discard.metadata == {"source": "sample_16_games.txt", "format": "botzone-text", "line": 18}
    assert chow.type == "chow"
    assert chow.payload.seat == 2
    assert chow.payload.tiles == ["T4", "T5", "T6"]
    assert chow.payload.claimed_tile == "T4"
    assert chow.payload.discard_seq == 17
    assert chow.metadata["line"] == 19


def test_first_game_ignore_becomes_a_pass(text_sample):
    g = _game(text_sample[0], GAME1)
    # line 44 "Player 2 Play W9" (seq 43);
    # line 45 "Player 0 Peng W9 Ignore Player 3 Chi W8" -> pass (44) then pung (45)
    assert g.events[43].type == "tile_discarded" and g.events[43].payload.tile == "W9"
    p, pung = g.events[44], g.events[45]
    assert p.type == "pass"
    assert (p.payload.seat, p.payload.discard_seq, p.payload.claim) == (3, 43, "chow")
    assert p.payload.tiles == ["W7", "W8", "W9"]
    assert pung.type == "pung"
    assert (pung.payload.seat, pung.payload.tile, pung.payload.discard_seq) == (0, "W9", 43)
    assert p.metadata["line"] == pung.metadata["line"] == 45


def test_first_game_win_and_reported_score(text_sample):
    g = _game(text_sample[0], GAME1)
    # after line 45 (two events) line n -> seq n: line 102 "Player 2 Play B7",
    # line 103 "Player 1 Hu B7", 104 Fan, 105 Score.
    win = g.events[103]
    assert win.type == "win_declared"
    assert win.payload.model_dump() == {
        "seat": 1, "tile": "B7", "self_drawn": False, "from_seat": 2,
        "discard_seq": 102, "robbing_kong": False,
    }
    score = g.events[104].payload
    assert score.winner == 1
    assert score.score_changes == [-8, 33, -17, -8]
    assert score.total == 9
    assert [(f.name, f.count) for f in score.fans] == [("混一色", 1), ("箭刻", 1), ("老少副", 1)]
    assert [e.type for e in g.events[-2:]] == ["hand_ended", "game_ended"]
    assert g.events[-1].payload.final_scores == [-8, 33, -17, -8]
    assert len(g.events) == 107


def test_game_and_hand_header(text_sample):
    g = _game(text_sample[0], GAME1)
    gs, hs = g.events[0].payload, g.events[1].payload
    assert gs.ruleset == "mcr"
    assert gs.source == "https://botzone.org.cn/match/61602cb45ddc087351c04358"
    assert (hs.hand_number, hs.prevalent_wind, hs.dealer) == (0, "F2", 0)  # "Wind 1"
    assert g.events[2].payload.tiles == "T8 B7 T1 W6 B8 W9 J1 T9 B2 W3 T6 F4 W9".split()


def test_wind_3_is_north(text_sample):
    # Match ...04371 "Wind 3": seat 3 pungs F4 and is paid both 圈风刻 and 门风刻.
    g = _game(text_sample[0], "botzone-61602cb45ddc087351c04371")
    assert g.events[1].payload.prevalent_wind == "F4"


def test_event_ids_are_deterministic_and_unique(text_sample):
    games, _ = text_sample
    again, _ = load(TEXT_SAMPLE)
    ids = [e.event_id for g in games for e in g.events]
    assert ids == [e.event_id for g in again for e in g.events]
    assert len(set(ids)) == len(ids)


def test_every_event_names_file_line_and_format(text_sample):
    for g in text_sample[0]:
        for e in g.events:
            assert e.metadata["source"] == "sample_16_games.txt"
            assert e.metadata["format"] == "botzone-text"
            assert isinstance(e.metadata["line"], int)


def test_robbing_a_kong():
    games, issues = load(FIXTURES / "robbing_kong.txt")
    assert issues == []
    (g,) = games
    kong = next(i for i, e in enumerate(g.events) if e.type == "kong")
    assert g.events[kong].payload.kind == "added"
    win = next(e for e in g.events if e.type == "win_declared").payload
    assert (win.seat, win.from_seat, win.robbing_kong, win.discard_seq) == (2, 1, True, kong)
    lost = next(e for e in g.events if e.type == "pass").payload
    assert (lost.seat, lost.claim, lost.discard_seq) == (0, "win", kong)


def test_truncated_file_keeps_the_complete_game():
    games, issues = load(FIXTURES / "truncated.txt")
    assert [g.game_id for g in games] == [GAME1]
    (issue,) = issues
    assert issue.line == 150 and issue.game_id == "botzone-61602cb45ddc087351c0435d"
    assert "truncated" in issue.reason


def test_a_file_cut_inside_a_player_line_says_truncated(tmp_path):
    """``head -c 5000`` of the sample ends inside line 265, "Player 0 Dr": the issue says the
    file ends inside that line (truncated?), as the JSON, .log and PMN importers say — not
    only "unknown action 'Dr'"; the games before it are kept."""
    cut = tmp_path / "cut.txt"
    cut.write_bytes(TEXT_SAMPLE.read_bytes()[:5000])
    games, issues = load(cut)
    assert len(games) == 2
    (issue,) = issues
    assert issue.line == 265 and "truncated?" in issue.reason
    whole = tmp_path / "whole_line_bad.txt"  # the same bad line with its line end: no truncation
    whole.write_bytes(TEXT_SAMPLE.read_bytes()[:5000] + b"\n")
    (issue,) = load(whole)[1]
    assert issue.line == 265 and "truncated" not in issue.reason


def test_crlf_gives_the_same_events_as_lf(text_sample):
    games, issues = load(FIXTURES / "crlf.txt")
    assert issues == [] and len(games) == 2
    for got, want in zip(games, text_sample[0][:2]):
        assert [e.event_id for e in got.events] == [e.event_id for e in want.events]
        assert [e.payload for e in got.events] == [e.payload for e in want.events]


def test_damaged_fan_names_still_import():
    games, issues = load(FIXTURES / "damaged_fans.txt")
    assert issues == [] and len(games) == 2
    fans = next(e for e in games[0].events if e.type == "score_reported").payload.fans
    assert [(f.name, f.count) for f in fans] == [("???", 1), ("??", 1), ("???", 1)]
    fans2 = next(e for e in games[1].events if e.type == "score_reported").payload.fans
    assert len(fans2) == 3 and all("\ufffd" in f.name for f in fans2)


def test_unreadable_game_is_reported_and_the_next_one_imports():
    games, issues = load(FIXTURES / "bad_tile.txt")
    (issue,) = issues
    assert issue.path.endswith("bad_tile.txt")
    assert issue.line == 8 and "unknown tile code 'X9'" in issue.reason
    assert issue.game_id == GAME1
    assert [g.game_id for g in games] == ["botzone-61602cb45ddc087351c0435d"]
    assert "bad_tile.txt:8: " in str(issue)


def _findings_by_line(game):
    """Replay the imported game in audit mode: ``{source line: {rule ids}}``."""
    from replayer.replay import run

    result = run(game.events, mode="audit")
    out: dict[int, set[str]] = {}
    for f in result.findings:
        out.setdefault(game.events[f.seq].metadata["line"], set()).add(f.rule_id)
    return out


@pytest.mark.parametrize(
    ("fixture", "line", "rules"),
    [
        # J3: dealt to seats 0 (edited) and 2, drawn on lines 7, 27, 29
        ("fifth_copy.txt", 29, {"tile_count_exceeded"}),
        # line 10: seat 2 discards while seat 1 is to play
        ("wrong_seat.txt", 10, {"wrong_seat_to_act"}),
        # line 4: seat 1 is dealt 12 tiles (its last, B1, removed)
        ("short_deal.txt", 4, {"deal_mismatch"}),
        # seat 1's Deal line removed: found when the dealer discards (line 7 of this file)
        ("missing_deal.txt", 7, {"deal_mismatch"}),
    ],
)
def test_illegal_action_is_stored_and_found_by_the_replayer(fixture, line, rules):
    """Issue 13 item 7: the importer translates; the replayer judges. A game with an
    illegal action imports whole and its audit names the breach at the source line."""
    games, issues = load(FIXTURES / fixture)
    assert issues == []
    assert [g.game_id for g in games] == [GAME1, "botzone-61602cb45ddc087351c0435d"]
    found = _findings_by_line(games[0])
    assert min(found) == line, found
    assert rules <= found[line], found
    assert _findings_by_line(games[1]) == {}


def test_chow_by_a_seat_that_is_not_next(tmp_path):
    lines = (FIXTURES / "one_game.txt").read_text(encoding="utf-8").splitlines()
    assert lines[18] == "Player 2 Chi T5"
    lines[18] = "Player 3 Chi T5"  # seat 1 discarded: only seat 2 may chow
    p = tmp_path / "chow.txt"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (game,), issues = load(p)
    assert issues == []
    found = _findings_by_line(game)
    assert min(found) == 19 and "chow_wrong_seat" in found[19], found


def test_game_without_score_line_before_the_next_match(tmp_path):
    lines = TEXT_SAMPLE.read_text(encoding="utf-8").splitlines()
    assert lines[104].startswith("Score") and lines[106].startswith("Match")
    p = tmp_path / "noscore.txt"
    p.write_text("\n".join(lines[:104] + lines[105:201]) + "\n", encoding="utf-8")
    games, (issue,) = load(p)
    # the block's last line is the Fan line (104)
    assert issue.line == 104 and issue.game_id == GAME1 and "Score" in issue.reason
    assert [g.game_id for g in games] == ["botzone-61602cb45ddc087351c0435d"]
