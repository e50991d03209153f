"""Botzone judge JSON logs → canonical events (README of botzone-mcr-matchlog-json).

Expected values come from the README and from reading the judge records themselves."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from ingest_helpers import JSON_DIR, load

LITE = sorted(JSON_DIR.glob("*_lite.json"))
DOWNLOAD = JSON_DIR / "botzone_download_2026-6-2_131856_seat1.log"


def _displays(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    logs = data["logs"] if isinstance(data, dict) else data
    return [r["output"]["display"] for r in logs if "output" in r]


def test_seven_files_seven_games_six_wins_one_draw():
    games, issues = [], []
    for p in [*LITE, DOWNLOAD]:
        g, i = load(p)
        games += g
        issues += i
    assert issues == []
    assert len(games) == 7  # README: 6 _lite.json + 1 downloaded .log, one game each
    assert sum(g.count("win_declared") for g in games) == 6
    assert sum(g.count("exhaustive_draw") for g in games) == 1  # 6a206f7f…: GANG then HUANG
    assert {g.game_id for g in games} >= {f"botzone-{p.name[:24]}" for p in LITE}


@pytest.mark.parametrize("path", [*LITE, DOWNLOAD], ids=lambda p: p.name[:12])
def test_event_counts_follow_the_judge_actions(path):
    (g,), _ = load(path)
    acts = Counter(d["action"] for d in _displays(path))
    c = Counter(e.type for e in g.events)
    assert c["tile_drawn"] == acts["DRAW"]
    # PENG and CHI carry the claimer's next discard
    assert c["tile_discarded"] == acts["PLAY"] + acts["PENG"] + acts["CHI"]
    assert c["pung"] == acts["PENG"] and c["chow"] == acts["CHI"]
    assert c["kong"] == acts["GANG"] + acts["BUGANG"]
    assert c["tiles_dealt"] == 4 and c["game_started"] == c["hand_started"] == 1
    for e in g.events:
        assert e.metadata["format"] == "botzone-json" and isinstance(e.metadata["record"], int)


def test_peng_claims_the_last_discard_then_discards_its_tile():
    path = JSON_DIR / "6a2074c758ebe27b197debaf_lite.json"
    (g,), _ = load(path)
    # record 90: player 1 PLAY W4; record 92: player 2 PENG, display tile B9
    i = next(i for i, e in enumerate(g.events) if e.metadata["record"] == 92)
    pung, nxt = g.events[i], g.events[i + 1]
    assert pung.type == "pung" and (pung.payload.seat, pung.payload.tile) == (2, "W4")
    claimed = g.events[pung.payload.discard_seq]
    assert claimed.metadata["record"] == 90
    assert (claimed.payload.seat, claimed.payload.tile) == (1, "W4")
    assert nxt.type == "tile_discarded" and (nxt.payload.seat, nxt.payload.tile) == (2, "B9")


def test_bugang_and_hu_with_reported_fans():
    (g,), _ = load(JSON_DIR / "6a2074c758ebe27b197debaf_lite.json")
    kong = next(e for e in g.events if e.type == "kong").payload
    assert (kong.kind, kong.seat, kong.tile) == ("added", 3, "B9")  # record 168
    score = next(e for e in g.events if e.type == "score_reported").payload
    assert score.total == 18  # README: 18 fan
    assert score.score_changes == [-8, -8, -26, 42]
    assert ("全求人", 6, 1) in [(f.name, f.points, f.count) for f in score.fans]
    win = next(e for e in g.events if e.type == "win_declared").payload
    # record 204: player 2 PLAY B2, record 206: player 3 HU
    assert (win.seat, win.tile, win.from_seat, win.self_drawn) == (3, "B2", 2, False)


def test_gang_melded_or_concealed_and_the_lost_chow():
    (g,), _ = load(JSON_DIR / "6a2045aa58ebe27b197dc65e_lite.json")
    kongs = [e for e in g.events if e.type == "kong"]
    # record 82: GANG by 0 on player 2's PLAY T2 (record 80); record 124: GANG by 2 after DRAW F3
    assert [(k.payload.kind, k.payload.seat, k.payload.tile) for k in kongs] == [
        ("melded", 0, "T2"), ("concealed", 2, "F3")]
    assert g.events[kongs[0].payload.discard_seq].metadata["record"] == 80
    # record 81: responses {"0": "GANG", "3": "CHI T2 W6"}: seat 3's chow lost
    (lost,) = [e.payload for e in g.events if e.type == "pass"]
    assert (lost.seat, lost.claim, lost.tiles) == (3, "chow", ["T1", "T2", "T3"])
    assert lost.discard_seq == kongs[0].payload.discard_seq
    win = next(e for e in g.events if e.type == "win_declared").payload
    assert win.self_drawn and win.seat == 0  # README: zimo 9 fan


def test_hand_started_keeps_the_wall_and_the_prevalent_wind():
    (g,), _ = load(JSON_DIR / "6a20243a58ebe27b197dabab_lite.json")
    hs = g.events[1]
    data = json.loads((JSON_DIR / "6a20243a58ebe27b197dabab_lite.json").read_text("utf-8"))
    init = json.loads(data["initdata"])
    assert hs.metadata["source_wall"] == init["walltiles"].split()
    assert len(hs.metadata["source_wall"]) == 136 and "wall_layout" in hs.metadata
    assert hs.payload.wall == []  # four per-seat walls are not one draw-order wall
    assert hs.payload.prevalent_wind == "F3"  # quan 2
    assert hs.payload.seed == str(init["srand"])
    assert g.events[0].payload.players == ["Player0", "Player1", "Player2", "Player3"]


def test_downloaded_log_has_no_wall_and_a_content_id():
    (g,), _ = load(DOWNLOAD)
    assert g.game_id.startswith("botzone-anon-")
    assert g.events[1].payload.wall == [] and "source_wall" not in g.events[1].metadata
    score = next(e for e in g.events if e.type == "score_reported").payload
    assert score.total == 18 and score.fans[0].name == "三色三节高"  # README


def test_a_draw_that_contradicts_the_wall_is_reported(tmp_path):
    src = JSON_DIR / "6a2074c758ebe27b197debaf_lite.json"
    data = json.loads(src.read_text(encoding="utf-8"))
    assert data["logs"][4]["output"]["display"]["tile"] == "B7"  # seat 0's first draw
    data["logs"][4]["output"]["display"]["tile"] = "B1"
    p = tmp_path / src.name
    p.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    games, (issue,) = load(p)
    assert games == [] and issue.record == 4 and "its wall gives B7" in issue.reason


def test_truncated_json_is_one_issue(tmp_path):
    src = JSON_DIR / "6a2062b358ebe27b197ddd5d_lite.json"
    p = tmp_path / src.name
    p.write_bytes(src.read_bytes()[:20000])
    games, (issue,) = load(p)
    assert games == [] and "not JSON" in issue.reason


def test_a_deal_of_the_wrong_size_is_stored_and_found(tmp_path):
    """Issue 13 item 7: the real download (no walltiles) with seat 0's DEAL hand cut to 12
    tiles imports whole; the replayer in audit mode reports deal_mismatch on that record."""
    import json

    from replayer.replay import run

    records = json.loads(DOWNLOAD.read_text(encoding="utf-8"))
    deal = next(i for i, r in enumerate(records)
                if isinstance(r.get("output"), dict) and r["output"]["display"].get("action") == "DEAL")
    records[deal]["output"]["display"]["hand"][0].pop()
    path = tmp_path / DOWNLOAD.name
    path.write_text(json.dumps(records), encoding="utf-8")
    (game,), issues = load(path)
    assert issues == []
    findings = run(game.events, mode="audit").findings
    assert any(f.rule_id == "deal_mismatch" and game.events[f.seq].metadata["record"] == deal for f in findings)
