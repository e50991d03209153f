"""Issue 11 items 13-15 on the dashboard: the Dispute page on a Nanchang game with wins
(it crashed: HandSituation has no melds) agrees with verify; the Replay page on a game of
one event (slider min = max); the source link written once-escaped; every heat-map label."""

from __future__ import annotations

import dash_sources as src
import pytest

from eventlog.events import GameStarted, NewEvent
from eventlog.store import open_store
from replayer.audit import audit_game
from replayer.simulate.engine import SimulationConfig, simulate_game

NANCHANG = "sim-nanchang"


@pytest.fixture(scope="module")
def nanchang_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("nanchang-data")
    game = simulate_game(SimulationConfig(ruleset="nanchang", seed=5, hands_per_game=3), 0)
    assert any(e.type == "win_declared" for e in game.events)
    store = open_store(d)
    try:
        store.append(NANCHANG, list(game.events))
        store.append("one-event", [NewEvent.of(GameStarted(ruleset="mcr", players=["a", "b", "c", "d"]),
                                               id_seed="one-event/0")])
    finally:
        store.close()
    return d, game


def test_dispute_page_on_a_nanchang_game_agrees_with_verify(nanchang_dir, open_page):
    d, game = nanchang_dir
    audit = audit_game(game.events)
    at = open_page(d, "dispute", game=NANCHANG)  # open_page asserts no exception
    tables = [t.value for t in at.dataframe if "same" in t.value.columns]
    assert len(tables) == len(audit.wins)
    for w, t in zip(audit.wins, tables):
        if w.fans_agree:
            assert "✗" not in set(t["same"]), t
    html = "\n".join(m.value for m in at.markdown)
    assert "winning hand" in html


def test_replay_page_on_a_game_of_one_event(nanchang_dir, open_page):
    d, _ = nanchang_dir
    at = open_page(d, "replay", game="one-event")
    assert not at.slider and any("one event" in c.value for c in at.caption)


def test_source_link_is_escaped_once(data_dir, open_page):
    at = open_page(data_dir, "replay", game=src.PMN_GAME, seq="0")
    html = "\n".join(m.value for m in at.markdown)
    # PMN Site tag: https://mahjongsoft.com/mcrm_replay.php?session=74621&game=1&table=3
    assert 'href="https://mahjongsoft.com/mcrm_replay.php?session=74621&amp;game=1&amp;table=3"' in html
    assert "&amp;amp;" not in html


def test_heat_map_names_every_column():
    import pandas as pd

    from dashboard.charts import heatmap

    fans = [f"fan {i}" for i in range(16)]
    df = pd.DataFrame([{"fan_a": a, "fan_b": b, "both": 1} for a in fans for b in fans])
    spec = heatmap(df, "t", fans).to_dict()
    enc = spec["layer"][0]["encoding"] if "layer" in spec else spec["encoding"]
    assert enc["x"]["axis"]["labelOverlap"] is False and enc["y"]["axis"]["labelOverlap"] is False
