"""Every dashboard page in Streamlit's AppTest on real data (the bundled games, imported and
exported into a temporary data directory). Expected numbers and tiles come from the
source files (dash_sources.py), not from the code under test."""

from __future__ import annotations

import json
import re
from collections import Counter

import dash_sources as src
import pytest

from eventlog.store import open_store

TILE_GLYPH = re.compile(r'<span class="g">(.)</span>')


def _markdown(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def _df(at, *columns: str):
    """The first dataframe shown with all of ``columns``."""
    for d in at.dataframe:
        if all(c in d.value.columns for c in columns):
            return d.value
    raise AssertionError(f"no table with columns {columns}: {[list(d.value.columns) for d in at.dataframe]}")


def _events(data, game_id):
    store = open_store(data)
    try:
        return list(store.read_game(game_id))
    finally:
        store.close()


def _seat_blocks(html: str) -> list[str]:
    blocks = html.split('<div class="pp-seat')[1:]
    assert len(blocks) == 4, html[:500]
    return blocks


def _section(block: str, label: str) -> str:
    """The part of a seat block after ``label`` up to the next label."""
    part = block.split(f'<span class="pp-label">{label}', 1)[1]
    return part.split('<span class="pp-label">', 1)[0]


# ----------------------------------------------------------------------------- overview


def test_overview_counts_and_rates(data_dir, open_page):
    at = open_page(data_dir)
    want = src.totals()
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["games"] == str(want["games"]) == "24"
    assert metrics["wins"] == str(want["wins"]) == "22"
    assert metrics["exhaustive draws"] == str(want["draws"]) == "3"
    assert metrics["hands"] == str(want["wins"] - 1 + want["draws"])  # the PMN hand has two winners
    by_rs = _df(at, "ruleset")
    assert list(by_rs["ruleset"]) == ["mcr"] and list(by_rs["games"]) == [24]

    seats = _df(at, "seat")
    wins = src.wins_by_seat()
    assert list(seats["seat"]) == [0, 1, 2, 3]
    assert list(seats["hands (sample)"]) == [want["games"]] * 4  # one hand per game, 4 seats
    assert list(seats["wins"]) == [wins[s] for s in range(4)]
    # seat 3: 10 wins in 24 hands; Wilson 95 %: 41.7 % (24.5–61.2)
    assert seats["win rate (95 % CI)"][3] == "41.7 % (24.5–61.2)"

    players = _df(at, "player")
    assert "Player3" in set(players["player"])
    charts = at.get("vega_lite_chart")
    assert len(charts) == 2
    spec = json.loads(charts[0].proto.spec)
    assert spec["layer"][1]["mark"]["type"] == "point"


def test_overview_ruleset_filter(data_dir, open_page):
    at = open_page(data_dir)
    at.sidebar.selectbox[0].select("mcr").run()
    assert {m.label: m.value for m in at.metric}["games"] == "24"


# ----------------------------------------------------------------------------- fans


def test_fans_frequency_and_cooccurrence(data_dir, open_page):
    at = open_page(data_dir, "fans")
    assert "**22** legal wins" in _markdown(at)
    freq = _df(at, "wins with it")
    row = freq[freq["中文"] == "平和"].iloc[0]
    n = src.wins_with_fan("平和")
    assert n == 7
    assert row["wins with it"] == n and row["wins (sample)"] == 22
    assert row["fan"] == "All Chows" and row["value (points)"] == "2 points"  # MCR table: 平和 2 points
    pts = _df(at, "total (points)", "wins")
    assert pts["wins"].sum() == 22
    # Botzone reports the total on its Fan lines (text) and as fanCnt (JSON); no flowers there
    nine = sum(1 for ln in src.text_lines() if ln.startswith("Fan 9 ")) + sum(
        1 for _p, lg in src.json_logs() for d in src.json_displays(lg) if d.get("action") == "HU" and d["fanCnt"] == 9)
    assert int(pts[pts["total (points)"] == 9]["wins"].iloc[0]) == nine
    co = _df(at, "wins with both")
    assert (co["wins with both"] >= 1).all()
    assert len(at.get("vega_lite_chart")) == 3  # frequency bars, points, co-occurrence heat map


def test_fans_player_filter(data_dir, open_page):
    at = open_page(data_dir, "fans")
    at.sidebar.selectbox[1].select("Player3").run()
    # Player3: seat 3 of the Botzone JSON logs and North of the PMN deal
    want = sum(1 for p, lg in src.json_logs() if p.name.endswith("_lite.json") for d in src.json_displays(lg)
               if d.get("action") == "HU" and d["player"] == 3) + src.pmn_winners().count(3)
    assert f"**{want}** legal wins" in _markdown(at)


# ----------------------------------------------------------------------------- players


def test_player_against_field(data_dir, open_page):
    at = open_page(data_dir, "players", player="Player3")
    assert at.selectbox[0].value == "Player3"
    metrics = {m.label: m.value for m in at.metric}
    # the lite JSON logs name their seats PlayerN (README.txt), so does the PMN deal; one hand each
    hands = sum(1 for p, _lg in src.json_logs() if p.name.endswith("_lite.json")) + 1
    assert metrics["hands played"] == str(hands) == "7"
    assert metrics["wins"] == "2"
    table = _df(at, "who")
    assert list(table["who"]) == ["Player3", "all players"]
    assert list(table["hands (sample)"]) == [7, 96]
    assert list(table["wins"]) == [2, 22]
    history = _df(at, "game number", "score_change")
    assert len(history) == hands
    big = next(lg for p, lg in src.json_logs() if p.name.startswith("6a2074c7"))
    score = next(d["score"] for d in src.json_displays(big) if d.get("action") == "HU")
    row = history[history["game_id"] == "botzone-6a2074c758ebe27b197debaf"].iloc[0]
    assert row["score_change"] == score[3]  # Player3 sits in seat 3 of that log


def test_unknown_player_link(data_dir, open_page):
    at = open_page(data_dir, "players", player="nobody")
    assert any("No player called `nobody`" in e.value for e in at.error)


# ----------------------------------------------------------------------------- replay


def test_replay_tiles_after_first_chow(data_dir, open_page):
    match, lines = src.first_text_game()
    game_id = f"botzone-{match}"
    hands, rivers, (claimant, discarder, run, claimed) = src.hands_until_first_chi(lines)
    chow_seq = next(e.seq for e in _events(data_dir, game_id) if e.type == "chow")
    at = open_page(data_dir, "replay", game=game_id, seq=str(chow_seq))
    assert at.slider[0].value == chow_seq
    assert f"<b>Event {chow_seq} of" in _markdown(at)
    table = next(m.value for m in at.markdown if '<div class="pp-seat' in m.value)
    blocks = _seat_blocks(table)
    for seat in range(4):
        shown = Counter(TILE_GLYPH.findall(_section(blocks[seat], "hand")))
        assert shown == Counter({src.glyph(t): n for t, n in hands[seat].items() if n}), seat
        river = TILE_GLYPH.findall(_section(blocks[seat], "discards"))
        assert river == [src.glyph(t) for t in rivers[seat]], seat
    sets = _section(blocks[claimant], "sets")
    # the claimed tile lies sideways on the side it came from: the set's tiles, in any order
    assert Counter(TILE_GLYPH.findall(sets)) == Counter(src.glyph(t) for t in run)
    assert f"chow ← seat {discarder} (上家 previous)" in sets  # the discarder sits before the claimant
    # the claimed discard is shown faded in the discarder's river
    assert 'pp-tile claimed' in _section(blocks[discarder], "discards")

    # one seat's view: the others' concealed tiles are backs
    at.radio[0].set_value("seat 0").run()
    table = next(m.value for m in at.markdown if '<div class="pp-seat' in m.value)
    other = _section(_seat_blocks(table)[claimant], "hand")
    assert TILE_GLYPH.findall(other) == ["\U0001F02B"] * sum(hands[claimant].values())
    assert at.query_params["seat"] == ["0"] or at.query_params["seat"] == "0"


def test_replay_steps_and_jumps(data_dir, open_page):
    match, _lines = src.first_text_game()
    game_id = f"botzone-{match}"
    events = _events(data_dir, game_id)
    at = open_page(data_dir, "replay", game=game_id, seq="0")
    assert at.slider[0].value == 0
    buttons = {b.label: b for b in at.button}
    buttons["forward ▶"].click().run()
    assert at.slider[0].value == 1
    {b.label: b for b in at.button}["next claim ⏭"].click().run()
    first_claim = next(e.seq for e in events if e.type in ("chow", "pung")
                       or (e.type == "kong" and e.payload.kind == "melded"))
    assert at.slider[0].value == first_claim
    {b.label: b for b in at.button}["◀ back"].click().run()
    assert at.slider[0].value == first_claim - 1
    {b.label: b for b in at.button}["next win ⏭"].click().run()
    win = next(e for e in events if e.type == "win_declared")
    assert at.slider[0].value == win.seq
    # the win in the source: "Player 1 Hu B7"
    assert any("Win: seat 1" in s.value for s in at.success)
    assert at.query_params["seq"] in (str(win.seq), [str(win.seq)])
    kongs = [e.seq for e in events if e.type == "kong"]
    {b.label: b for b in at.button}["⏮ start"].click().run()
    {b.label: b for b in at.button}["next kong ⏭"].click().run()
    assert at.slider[0].value == (kongs[0] if kongs else 0)


def test_replay_finding_marked_at_its_event(data_dir, open_page):
    result = [int(x) for x in src.pmn_tags()["Result"].split()]
    at = open_page(data_dir, "replay", game=src.PMN_GAME, seq="0")
    assert "Findings in this game: 1" in [e.label for e in at.expander]
    # the finding is at the score_reported event carrying the PMN Result line
    report = next(e.seq for e in _events(data_dir, src.PMN_GAME)
                  if e.type == "score_reported" and e.payload.score_changes == result)
    assert f"⚠ findings at events {report}" in [c.value for c in at.caption]
    {b.label: b for b in at.button}["next finding ⚠"].click().run()
    seq = at.slider[0].value
    assert seq == report
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "reported_score_mismatch" in errors[0]
    assert f"reported {result}" in errors[0] and "computed [-40, 28, -16, 28]" in errors[0]
    assert f"Finding at event {seq}" in errors[0]


def test_replay_unknown_game_and_event(data_dir, open_page):
    at = open_page(data_dir, "replay", game="no-such-game", seq="3")
    assert any("There is no game `no-such-game`" in e.value for e in at.error)
    links = at.main.get("page_link")  # the sidebar holds the menu
    assert len(links) == src.totals()["games"]
    at = open_page(data_dir, "replay", game=src.PMN_GAME, seq="100000")
    assert any(f"Game `{src.PMN_GAME}` has no event 100000" in e.value for e in at.error)
    assert at.slider[0].value == 0


# ----------------------------------------------------------------------------- dispute


def test_dispute_pmn_game(data_dir, open_page):
    result = [int(x) for x in src.pmn_tags()["Result"].split()]
    assert result == [-32, 36, -8, 36]
    at = open_page(data_dir, "dispute", game=src.PMN_GAME)
    assert at.selectbox[0].value == src.PMN_GAME
    n_events = len(_events(data_dir, src.PMN_GAME))
    assert any(s.value.startswith(f"Intact: {n_events} events") for s in at.success)
    findings = _df(at, "rule source")
    assert list(findings["rule"]) == ["reported_score_mismatch"]
    assert "[-32, 36, -8, 36]" in findings["what"][0] and "[-40, 28, -16, 28]" in findings["what"][0]
    assert findings["rule source"][0].startswith("docs/reference/DESIGN.md §4")
    scores = _df(at, "reported changes")
    bad = scores[scores["agrees"] != "✓"]
    assert list(bad["reported changes"]) == [" ".join(f"{x:+d}" for x in result)]
    assert list(bad["computed changes"]) == ["-40 +28 -16 +28"]
    # two winners (M1 M3); each win's fans side by side with the source's
    assert len(at.expander) == len(src.pmn_winners()) == 2
    fans = _df(at, "same")
    assert set(fans["same"]) == {"✓"}
    md = _markdown(at)
    assert "Mixed Straight 花龙" in md and "winning hand" in md


def test_dispute_clean_game(data_dir, open_page):
    match, lines = src.first_text_game()
    at = open_page(data_dir, "dispute", game=f"botzone-{match}")
    assert any("No finding" in s.value for s in at.success)
    score_line = next(ln for ln in lines if ln.startswith("Score "))
    reported = [int(x) for x in score_line.split()[1:]]
    table = _df(at, "seat", "computed", "reported")
    assert list(table["reported"]) == reported
    assert list(table["computed"]) == reported  # Botzone's judge and paipu agree on this game


def test_dispute_unknown_game(data_dir, open_page):
    at = open_page(data_dir, "dispute", game="nope")
    assert any("There is no game `nope`" in e.value for e in at.error)


# ----------------------------------------------------------------------------- empty data


@pytest.mark.parametrize("page", [None, "fans", "players", "replay", "dispute"])
def test_empty_data_directory(tmp_path, open_page, page):
    at = open_page(tmp_path, page)
    assert any("No games yet" in i.value for i in at.info)
    assert any(f"paipu quickstart --data {tmp_path}" in c.value for c in at.get("code"))
    assert list(tmp_path.iterdir()) == []  # read-only: nothing created


def test_log_without_export(data_dir, tmp_path, open_page):
    (tmp_path / "events.sqlite").write_bytes((data_dir / "events.sqlite").read_bytes())
    if (data_dir / "events.sqlite-wal").exists():
        (tmp_path / "events.sqlite-wal").write_bytes((data_dir / "events.sqlite-wal").read_bytes())
    at = open_page(tmp_path)
    assert any("has not been exported" in i.value for i in at.info)
    assert any(c.value == f"paipu export --data {tmp_path}" for c in at.get("code"))
    at = open_page(tmp_path, "replay", game=src.PMN_GAME, seq="100")  # replays need no export
    assert at.slider[0].value == 100


def test_damaged_export(data_dir, tmp_path, open_page):
    import shutil

    shutil.copytree(data_dir / "parquet", tmp_path / "parquet")
    part = next((tmp_path / "parquet" / "wins").rglob("*.parquet"))
    part.write_bytes(part.read_bytes() + b"tampered")
    at = open_page(tmp_path)
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and part.name in errors[0] and "paipu export --repair" in errors[0]


def test_tampered_game(data_dir, tmp_path, open_page):
    """An event edited behind the store's back (its triggers dropped) breaks the chain: the
    dispute page says where and does not replay; the replay page refuses the game."""
    for name in ("events.sqlite", "events.sqlite-wal"):
        if (data_dir / name).exists():
            (tmp_path / name).write_bytes((data_dir / name).read_bytes())
    src.tamper_pmn_event_50(tmp_path / "events.sqlite")
    at = open_page(tmp_path, "dispute", game=src.PMN_GAME)
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and errors[0].startswith("BROKEN at event 50")
    assert not at.dataframe  # nothing replayed from corrupt data
    at = open_page(tmp_path, "replay", game=src.PMN_GAME, seq="10")
    assert any("event 50 is corrupt" in e.value for e in at.error)
