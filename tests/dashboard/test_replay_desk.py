"""The replay page as a review desk (issue 21 items 1 and 7), in Streamlit's AppTest, for every
ruleset and a preset: the event in words in English and Chinese, seats by wind; discards as a
pond of rows of six with each claimed tile marked with who took it; a set's claimed tile turned
sideways; the winning hand laid out with the winning tile apart and its fans beside it; Nanchang's
jing marked; a timeline with a marker per claim, kong, win and finding; the scores over the hands
as a chart; a button for every key binding. Expected values come from the events and the rules
text (desk_games.py) or the bundled source files (dash_sources.py), not from the page's code."""

from __future__ import annotations

import json
import re

import dash_sources as src
import desk_games as G
import pytest

from eventlog.store import open_store


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    d = tmp_path_factory.mktemp("desk")
    return d, G.make_data(d)


def _md(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def _table(at) -> str:
    return next(m.value for m in at.markdown if '<div class="pp-seat' in m.value)


def _blocks(at) -> list[str]:
    return _table(at).split('<div class="pp-seat')[1:]


@pytest.mark.parametrize("ruleset", list(G.RULESETS))
def test_win_in_words_laid_out_with_its_tile_apart(desk, open_page, ruleset):
    d, games = desk
    events = games[ruleset]
    win = G.first(events, "win_declared")
    assert win is not None
    at = open_page(d, "replay", game=G.game_id(ruleset), seq=str(win.seq))
    md = _md(at)
    p = win.payload
    who = G.wind_of(events, p.seat, win.seq)
    words = re.search(r'<div class="pp-words">(.*?)</div><div class="pp-words-zh">(.*?)</div>', md)
    en, zh = (re.sub(r"<[^>]+>", "", x) for x in words.groups())
    assert en.startswith(f"{G.WIND_EN[who]} wins") and p.tile[1] in en
    assert zh.startswith(G.WIND_ZH[who]) and "和" in zh
    if not p.self_drawn:
        assert en.endswith(f"from {G.WIND_EN[G.wind_of(events, p.from_seat, win.seq)]}")
    block = md.split('<div class="pp-win">', 1)[1]
    # the winning tile set apart, after the hand and the sets
    apart = block.split('<span class="apart">', 1)[1]
    assert f'<span class="c">{p.tile}</span>' in apart.split("</span></span>", 1)[0] + "</span>"
    assert "pp-tile win" in apart
    assert "<table>" in block and "番种" in block  # the fans or conditions beside the hand


def test_mcr_sample_win_fans_beside_the_hand(data_dir, open_page):
    """The first Botzone text game: "Player 1 Hu B7" / "Fan 9 混一色*1+箭刻*1+老少副*1"."""
    match, lines = src.first_text_game()
    hu = next(i for i, ln in enumerate(lines) if re.match(r"Player \d Hu ", ln))
    seat, tile = int(lines[hu].split()[1]), lines[hu].split()[3]
    fans = [f.split("*")[0] for f in lines[hu + 1].split()[2].split("+")]
    store = open_store(data_dir)
    try:
        win = next(e for e in store.read_game(f"botzone-{match}") if e.type == "win_declared")
    finally:
        store.close()
    at = open_page(data_dir, "replay", game=f"botzone-{match}", seq=str(win.seq))
    block = _md(at).split('<div class="pp-win">', 1)[1]
    assert f"(seat {seat}) wins" in block
    assert f'<span class="c">{tile}</span>' in block.split('<span class="apart">', 1)[1][:400]
    table = block.split("<table>", 1)[1]
    for zh in fans:
        assert f"<td>{zh}</td>" in table, zh


@pytest.mark.parametrize("ruleset", ["mcr", "nanchang", "changsha"])
def test_pond_rows_of_six_and_claims_marked(desk, open_page, ruleset):
    d, games = desk
    events = games[ruleset]
    claim = G.first(events, "chow", "pung")
    discard = next(e for e in events if e.seq == claim.payload.discard_seq)
    at = open_page(d, "replay", game=G.game_id(ruleset), seq=str(claim.seq))
    blocks = _blocks(at)
    pond = blocks[discard.payload.seat].split('<div class="pp-pond">', 1)[1]
    taker = G.wind_of(events, claim.payload.seat, claim.seq)
    assert f'<span class="m">→{"东南西北"[taker]}</span>' in pond
    assert "pp-tile claimed" in pond
    assert "grid-template-columns:repeat(6" in _md(at)  # the pond's six columns (stylesheet)
    # the claimant's set: the claimed tile lies sideways
    sets = blocks[claim.payload.seat].split('<span class="pp-label">sets', 1)[1]
    claimed = claim.payload.claimed_tile if claim.type == "chow" else claim.payload.tile
    assert re.search(rf'pp-tile last side"[^>]*><span class="g">.</span><span class="c">{claimed}</span>', sets)
    if claim.type == "chow":  # a chow is always from the previous seat: its tile on the left
        assert sets.split('<span class="pp-meld">', 1)[1].startswith('<span class="pp-tile last side"')


@pytest.mark.parametrize("ruleset", ["nanchang", "ji_an"])
def test_jing_marked(desk, open_page, ruleset):
    d, games = desk
    events = games[ruleset]
    ind = G.first(events, "wildcard_indicator_revealed")
    at = open_page(d, "replay", game=G.game_id(ruleset), seq=str(ind.seq + 1))
    table = _table(at)
    zheng, fu = ind.payload.indicator, G.successor(ind.payload.indicator)
    head = table.split('<div class="pp-grid">', 1)[0]
    assert "正精" in head and "副精" in head
    assert re.search(rf'pp-tile\s*wild" title="{zheng} [^"]*正精', head)
    assert re.search(rf'pp-tile\s*wild" title="{fu} [^"]*副精', head)
    # every copy of a jing in a hand shown is marked, and nothing else is
    for m in re.finditer(r'<span class="pp-tile ([^"]*)" title="(\w\d) ', table.split('<div class="pp-grid">', 1)[1]):
        assert ("wild" in m.group(1).split()) == (m.group(2) in (zheng, fu)), m.group(0)


def test_sichuan_kong_in_words_and_on_timeline(desk, open_page):
    d, games = desk
    events = games["sichuan"]
    kong = G.first(events, "kong")
    at = open_page(d, "replay", game=G.game_id("sichuan"), seq=str(kong.seq))
    md = _md(at)
    timeline = md.split('<div class="pp-timeline"', 1)[1].split("</div>", 1)[0]
    hand_events = [e for e in events if e.type not in ("game_started",)]
    want = {"claim": sum(e.type in ("chow", "pung") for e in hand_events),
            "kong": sum(e.type == "kong" for e in hand_events),
            "win": sum(e.type == "win_declared" for e in hand_events)}
    for kind, n in want.items():
        assert timeline.count(f'class="mk {kind}"') == n, kind
    assert f"seq={kong.seq}" in timeline
    words = re.search(r'<div class="pp-words">(.*?)</div>', md).group(1)
    assert "kong" in words


def test_scores_chart_and_key_buttons(desk, open_page):
    from dashboard.keys import REPLAY_KEYS

    d, games = desk
    events = games["mcr1998"]
    at = open_page(d, "replay", game=G.game_id("mcr1998"), seq=str(events[-1].seq))
    labels = {b.label for b in at.button}
    assert set(REPLAY_KEYS.values()) <= labels
    charts = at.get("vega_lite_chart")
    assert len(charts) == 1
    spec = json.loads(charts[0].proto.spec)
    assert "Scores over the hands" in json.dumps(spec["title"] if "title" in spec else spec)
    assert spec["layer"][0]["encoding"]["y"]["field"] == "score"


def test_hand_keys_step_between_hands(data_dir, open_page):
    """↑/↓ buttons: the next hand's start, then back to its start from inside it."""
    match, _ = src.first_text_game()
    store = open_store(data_dir)
    try:
        starts = [e.seq for e in store.read_game(f"botzone-{match}") if e.type == "hand_started"]
    finally:
        store.close()
    at = open_page(data_dir, "replay", game=f"botzone-{match}", seq="0")
    {b.label: b for b in at.button}["▼ hand"].click().run()
    assert at.slider[0].value == starts[0]
    {b.label: b for b in at.button}["forward ▶"].click().run()
    {b.label: b for b in at.button}["▲ hand"].click().run()
    assert at.slider[0].value == starts[0]
