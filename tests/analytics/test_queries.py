"""The analytics queries against counts taken directly from the source files.

Expected numbers come from tests/analytics/source_counts.py (our own few-line reading of
the Botzone text sample), from the PMN file's own tags, and from the Wilson formula's
published values — never from paipu's output.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest

from analytics.queries import Analytics, wilson
from analytics_samples import BOTZONE_JSON_DIR, BOTZONE_TEXT, PMN
from source_counts import read_text_games, turns

TEXT_GAMES = read_text_games(BOTZONE_TEXT)


def test_text_sample_has_what_its_readme_says():
    # README.txt: 16 games (14 wins, 2 Huang/draws)
    assert len(TEXT_GAMES) == 16
    assert sum(g.winner is not None for g in TEXT_GAMES) == 14


@pytest.mark.parametrize(("k", "n", "low", "high"), [
    # Wilson (1927) score interval, z = 1.96: 0/10 → [0, z²/(n+z²)] = [0, 0.2775];
    # 5/10 → [0.2366, 0.7634]; 81/263 → [0.2553, 0.3662] (Newcombe 1998, Table I, case 1)
    (0, 10, 0.0, 0.2775),
    (5, 10, 0.2366, 0.7634),
    (81, 263, 0.2553, 0.3662),
    (10, 10, 0.7225, 1.0),
])
def test_wilson_interval_published_values(k, n, low, high):
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)


def test_wilson_without_sample():
    assert wilson(0, 0) == (None, None)
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_seat_stats_equal_source_counts(text_export):
    _, out = text_export
    wins = Counter(g.winner for g in TEXT_GAMES if g.winner is not None)
    tsumo = Counter(g.winner for g in TEXT_GAMES if g.self_drawn)
    deal_ins = Counter(g.dealt_in for g in TEXT_GAMES if g.dealt_in is not None)
    won_points = {s: [g.scores[s] for g in TEXT_GAMES if g.winner == s] for s in range(4)}
    with Analytics.open(out) as a:
        rows = a.seat_stats("seat")
    assert [r["seat"] for r in rows] == [0, 1, 2, 3]
    for r in rows:
        s = r["seat"]
        assert r["hands"] == 16
        assert r["wins"] == wins[s]
        assert r["self_draws"] == tsumo[s]
        assert r["deal_ins"] == deal_ins[s]
        assert r["win_rate"] == pytest.approx(wins[s] / 16)
        assert (r["win_rate_ci_low"], r["win_rate_ci_high"]) == pytest.approx(wilson(wins[s], 16))
        assert r["deal_in_rate"] == pytest.approx(deal_ins[s] / 16)
        expected_avg = sum(won_points[s]) / len(won_points[s]) if won_points[s] else None
        assert r["avg_points_won"] == pytest.approx(expected_avg)
    # the seat-0 dealer split: seat 0 deals every Botzone game
    with Analytics.open(out) as a:
        dealer = {r["dealer"]: r for r in a.seat_stats("dealer")}
    assert dealer[True]["hands"] == 16 and dealer[True]["wins"] == wins[0]
    assert dealer[False]["hands"] == 48 and dealer[False]["wins"] == 14 - wins[0]


def test_fan_frequency_equals_source_fan_lines(text_export):
    _, out = text_export
    src = Counter(name for g in TEXT_GAMES for name in set(g.fans))
    with Analytics.open(out) as a:
        rows = a.fan_frequency()
    got = {r["name_zh"]: r["wins_with_fan"] for r in rows}
    assert got == dict(src)
    assert {r["wins"] for r in rows} == {14}
    top = rows[0]  # 平和 is in 6 of the 14 wins
    assert (top["name_zh"], top["name_en"], top["wins_with_fan"]) == ("平和", "All Chows", 6)
    assert top["share_of_wins"] == pytest.approx(6 / 14)


def test_fan_cooccurrence_equals_source_pairs(text_export):
    _, out = text_export
    pairs = Counter()
    for g in TEXT_GAMES:
        for a, b in itertools.combinations(sorted(set(g.fans)), 2):
            pairs[frozenset((a, b))] += 1
    with Analytics.open(out) as an:
        zh = {r["name_en"]: r["name_zh"] for r in an.fan_frequency()}
        rows = an.fan_cooccurrence(limit=None)
    got = {frozenset((zh[r["fan_a"]], zh[r["fan_b"]])): r["wins_with_both"] for r in rows}
    assert got == dict(pairs)
    first = rows[0]
    assert first["p_b_given_a"] == pytest.approx(first["wins_with_both"] / first["wins_with_a"])


def test_fan_queries_with_filters(text_export):
    """Filters apply to the pairs, the single fans and the wins alike: a filter every win
    passes changes nothing, one no win passes leaves no pairs."""
    _, out = text_export
    with Analytics.open(out) as an:
        every = an.fan_cooccurrence(limit=None)
        kept = an.fan_cooccurrence(ruleset="mcr", date_from="1900-01-01", date_to="2999-12-31", limit=None)
        none = an.fan_cooccurrence(ruleset="mcr", date_to="1900-01-01", limit=None)
        top3 = an.fan_cooccurrence(min_wins=2, limit=3)
        freq, freq_mcr = an.fan_frequency(), an.fan_frequency(ruleset="mcr")
        freq_none = an.fan_frequency(ruleset="no-such-ruleset")
    assert kept == every and every
    assert none == []
    assert top3 == [r for r in every if r["wins_with_both"] >= 2][:3]
    assert freq_mcr == freq and freq_none == []


def test_fan_totals_equal_source(text_export):
    _, out = text_export
    with Analytics.open(out) as a:
        got = a.con.execute("SELECT game_id, fan_total, reported_total FROM hands "
                            "WHERE outcome = 'win' ORDER BY game_id").fetchall()
    expected = sorted((f"botzone-{g.match}", g.fan_total, g.fan_total) for g in TEXT_GAMES if g.winner is not None)
    assert got == expected


def test_hand_lengths_equal_source_turns(text_export):
    _, out = text_export
    expected = Counter(turns(g) for g in TEXT_GAMES)
    with Analytics.open(out) as a:
        rows = a.hand_lengths()
        per_game = dict(a.con.execute("SELECT game_id, turns FROM hands").fetchall())
    assert {r["turns"]: r["hands"] for r in rows} == dict(expected)
    assert per_game == {f"botzone-{g.match}": turns(g) for g in TEXT_GAMES}
    assert rows[-1]["cumulative_share"] == pytest.approx(1.0)


def test_claim_counts_equal_source(text_export):
    _, out = text_export
    chows = Counter(s for g in TEXT_GAMES for s, act, _ in g.actions if act == "Chi")
    pungs = Counter(s for g in TEXT_GAMES for s, act, _ in g.actions if act == "Peng")
    plays = Counter(s for g in TEXT_GAMES for s, act, _ in g.actions if act == "Play")
    with Analytics.open(out) as a:
        rows = {r["seat"]: r for r in a.claim_rates("seat")}
    kongs = Counter((s, act) for g in TEXT_GAMES for s, act, _ in g.actions if act.endswith("Gang"))
    for s in range(4):
        assert rows[s]["chows"] == chows[s]
        assert rows[s]["pungs"] == pungs[s]
        assert rows[s]["melded_kongs"] == kongs[(s, "Gang")]
        assert rows[s]["discards_seen"] == sum(plays.values()) - plays[s]
        assert rows[s]["claim_rate"] == pytest.approx(
            (chows[s] + pungs[s] + kongs[(s, "Gang")]) / (sum(plays.values()) - plays[s]))
    with Analytics.open(out) as a:
        per_seat = a.con.execute(
            "SELECT seat, sum(discards), sum(concealed_kongs), sum(added_kongs) FROM seat_results "
            "GROUP BY seat ORDER BY seat").fetchall()
        from_actions = a.con.execute(
            "SELECT seat, count(*) FILTER (WHERE action = 'discard'), "
            "count(*) FILTER (WHERE action = 'kong' AND detail = 'concealed'), "
            "count(*) FILTER (WHERE action = 'kong' AND detail = 'added') FROM actions "
            "GROUP BY seat ORDER BY seat").fetchall()
    assert per_seat == from_actions == [
        (s, plays[s], kongs[(s, "AnGang")], kongs[(s, "BuGang")]) for s in range(4)]


def test_all_samples_totals(all_export):
    _, out = all_export
    json_games = sorted(p for p in BOTZONE_JSON_DIR.iterdir() if p.suffix in (".json", ".log"))
    # both Botzone JSON forms are JSON; a game won ends in a display with action HU
    json_wins = sum('"action": "HU"' in json.dumps(json.loads(p.read_text(encoding="utf-8")))
                    for p in json_games)
    with Analytics.open(out) as a:
        summary = a.summary()["rulesets"]
        overall = a.seat_stats(())
    assert summary[0]["ruleset"] == "mcr"
    assert summary[0]["games"] == 16 + len(json_games) + 1
    # PMN: one hand with two winners on one discard (M1M3, Duplicate MCR)
    assert PMN.read_text(encoding="utf-8").count("M1M3") == 1
    assert overall[0]["wins"] == 14 + json_wins + 2


def test_date_range_picks_the_pmn_game(all_export):
    _, out = all_export
    # the PMN file's Date tag is 2022.06.25; every other sample has no date of its own
    assert '[Date "2022.06.25"]' in PMN.read_text(encoding="utf-8")
    with Analytics.open(out) as a:
        rows = a.seat_stats("seat", date_from="2022-06-25", date_to="2022-06-25")
        wins = a.fan_frequency(date_from="2022-06-25", date_to="2022-06-25")
    assert [(r["seat"], r["hands"], r["wins"], r["deal_ins"]) for r in rows] == [
        (0, 1, 0, 1), (1, 1, 1, 0), (2, 1, 0, 0), (3, 1, 1, 0)]
    assert {r["wins"] for r in wins} == {2}


def test_two_winners_on_the_last_discard_left_no_hand(all_export):
    # docs/analytics.md seat_results.left_at_seq: the win after which a seat left a hand that
    # went on, null when the seat played to the end. The PMN hand ends with two wins on one
    # discard (M1M3): play never went on after either, so neither winner left the hand
    import pyarrow.parquet as pq

    _, out = all_export
    rows = pq.read_table(out / "seat_results", filters=[("game_id", "=", "pmn-mahjongsoft.com-74621-1-3")]).to_pylist()
    assert sorted((r["seat"], r["won"], r["left_at_seq"]) for r in rows) == [
        (0, False, None), (1, True, None), (2, False, None), (3, True, None)]


def test_filters_and_bad_grouping(text_export):
    _, out = text_export
    with Analytics.open(out) as a:
        assert a.seat_stats("player", ruleset="nanchang") == []
        one = a.seat_stats("seat", player="Player 3")
        assert [r["seat"] for r in one] == [3]
        with pytest.raises(ValueError, match="unknown grouping"):
            a.seat_stats("colour")


def test_points_distribution_equals_source_fan_totals(text_export):
    _, out = text_export
    expected = Counter(g.fan_total for g in TEXT_GAMES if g.winner is not None)
    with Analytics.open(out) as a:
        rows = a.points_distribution()
    assert {r["total"]: r["wins"] for r in rows} == dict(expected)
    assert {r["all_wins"] for r in rows} == {14}


def test_player_history_follows_the_log_order(text_export):
    _, out = text_export
    with Analytics.open(out) as a:
        rows = a.player_history("Player 3")
    assert [r["game_id"] for r in rows] == [f"botzone-{g.match}" for g in TEXT_GAMES]
    assert [r["score_change"] for r in rows] == [g.scores[3] if g.scores else 0 for g in TEXT_GAMES]
    assert sum(r["wins"] for r in rows) == sum(g.winner == 3 for g in TEXT_GAMES)


def test_a_file_removed_under_an_open_reader_is_an_error_not_a_number(tmp_path, all_games):
    from analytics.export import ExportError, export
    from analytics_samples import fill
    from eventlog.store import open_store

    store = open_store(tmp_path / "data")
    fill(store, all_games[:4])
    out = tmp_path / "pq"
    export(store, out)
    a = Analytics.open(out)
    fill(store, all_games[4:8])
    export(store, out)  # supersedes the block the reader's views point at
    with pytest.raises(ExportError, match="open it again"):
        a.seat_stats("seat")
    a.close()
    with Analytics.open(out) as fresh:
        assert sum(r["hands"] for r in fresh.seat_stats("seat")) == 4 * 8
