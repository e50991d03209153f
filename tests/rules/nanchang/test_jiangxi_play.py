"""The Jiangxi presets in play (issue 17 items 2 and 4): games logged under a preset replay
with its options, keep the preset's name as their ruleset, and settle as the reference
vectors say; the table rules of the options are findings; the simulator plays legal games
under every preset (the 200-game run is scripts/simulate_presets.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eventlog import events as ev
from replayer.replay import replay, run
from replayer.rules.base import get_ruleset, presets
from replayer.simulate.engine import SimulationConfig, simulate_game
from replayer.state import to_dict

from .game import as_events, hand_from_vector, with_offsets

DATA = Path(__file__).resolve().parents[2] / "data" / "jiangxi" / "settlement_vectors.jsonl"
CASES = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
NANCHANG_PRESETS = sorted(n for n, (base, _) in presets().items() if base == "nanchang")


# the tile set itself is the core's tile accounting (a wind under 120_no_winds is its
# tile_count_exceeded), and 发 / 宝 as kept or set-aside flowers need the table model's
# flowers-as-data: these vectors are checked by the vector path only
_NOT_REPLAYED = ("tileset", "fa_as_flower", "flower_bao")


def _plain(case) -> bool:
    """A meld-free single win without the table features a hand log cannot express here."""
    out = case["outcome"]
    if case["expected"].get("error") in _NOT_REPLAYED or case["preset"] in ("jiujiang", "yingtan"):
        return False
    return (out["type"] == "win" and out.get("winner") is not None and not out.get("last_tile")
            and not any(p.get("flowers") or p.get("early_show") or p["melds"] for p in case["players"])
            and not out.get("heavenly") and not out.get("earthly"))


def _events(case):
    hand = hand_from_vector(case)
    start = [ev.GameStarted(ruleset=case["preset"], ruleset_options=case["options"], players=["A", "B", "C", "D"],
                            initial_scores=[0, 0, 0, 0])]
    return as_events(with_offsets(start + hand), game_id=case["id"])


def _replayable(case) -> bool:
    if not _plain(case):
        return False
    try:
        hand_from_vector(case)
    except ValueError:
        return False
    return True


PLAIN = [c for c in CASES if _replayable(c)]


def test_enough_vectors_replay_as_whole_hands():
    assert len(PLAIN) >= 20
    assert len({c["preset"] for c in PLAIN}) >= 8


@pytest.mark.parametrize("case", PLAIN, ids=[c["id"] for c in PLAIN])
def test_a_replayed_hand_settles_as_its_vector(case):
    exp = case["expected"]
    result = run(_events(case), mode="audit")
    state = result.state
    assert state.ruleset_id == case["preset"]  # the preset's name is the game's ruleset
    if "error" in exp:
        assert [f.rule_id for f in result.findings][:1] == [exp["error"]]
        return
    assert not result.findings
    assert list(state.hands[-1].changes) == exp["total"]


def test_an_ordered_wind_chow_is_a_finding_in_ganzhou():
    deal = {0: "W3 W4 W5 T1 T2 T3 T4 T5 T6 B1 B1 F1 J3 F2", 1: "T7 T8 J1 J2 F2 F4 W6 W7 B5 B5 B6 B7 B8",
            2: "F2 F2 B2 B3 B4 T9 T9 T9 W6 W7 W8 W1 W1", 3: "W9 W9 B6 B7 B8 T1 T2 T3 W2 J1 B2 B2 T4"}
    for ruleset, tiles, ok in (("ganzhou", ["F1", "F2", "F4"], False), ("nanchang", ["F1", "F2", "F4"], True)):
        ps = [ev.GameStarted(ruleset=ruleset, ruleset_options={}, players=list("ABCD"), initial_scores=[0] * 4),
              ev.HandStarted(hand_number=1, prevalent_wind="F1", dealer=0)]
        ps += [ev.TilesDealt(seat=s, tiles=deal[s].split()) for s in range(4)]
        ps += [ev.WildcardIndicatorRevealed(indicator="J3", dice=[3, 4]), ev.TileDiscarded(seat=0, tile="F1"),
               ev.Chow(seat=1, tiles=tiles, claimed_tile="F1", discard_seq=7)]
        got = [f.rule_id for f in run(as_events(ps), mode="audit").findings]
        assert got == ([] if ok else ["honor_chi"]), ruleset


def test_no_chow_in_xinyu_and_fuzhou():
    for name in ("xinyu", "fuzhou"):
        rs = get_ruleset(name)
        assert rs.play.chow == "none" and rs.id == name


@pytest.mark.parametrize("name", NANCHANG_PRESETS)
def test_every_preset_simulates_a_legal_game(name):
    game = simulate_game(SimulationConfig(ruleset=name, seed="presets", hands_per_game=1), 0)
    assert game.events[0].payload.ruleset == name
    events = [ev.parse_event(line.decode()) for line in game.jsonl_lines()]
    steps = list(replay(events, mode="strict"))
    final = steps[-1].state
    assert final.ruleset_id == name and final.phase == "game_over"
    assert all(sum(e.changes) == 0 for e in final.score_log) and sum(final.scores) == 0
    again = list(replay(events, mode="strict"))
    assert ev.canonical_bytes(to_dict(again[-1].state)) == ev.canonical_bytes(to_dict(final))


def test_analytics_keep_presets_apart(tmp_path):
    """A preset's games are exported under their own ruleset partition (docs/analytics.md)."""
    from typer.testing import CliRunner

    from paipu.cli import app

    data = str(tmp_path / "data")
    for ruleset in ("ganzhou", "nanchang"):
        r = CliRunner().invoke(app, ["simulate", "--ruleset", ruleset, "--games", "1", "--hands-per-game", "1",
                                     "--seed", "apart", "--data", data])
        assert r.exit_code == 0, r.output
    r = CliRunner().invoke(app, ["export", "--data", data])
    assert r.exit_code == 0, r.output
    parts = sorted(p.name for p in (tmp_path / "data" / "parquet" / "games").iterdir())
    assert parts == ["ruleset=ganzhou", "ruleset=nanchang"]


def test_pingxiang_last_drawer_keeps_the_last_tile():
    """萍乡 (last_draw_no_discard, jiangxi_variants.md §10): a drawn hand ends right after the
    last draw — the simulator discards nothing — and a discard of the last tile is a finding."""
    game = next(g for g in (simulate_game(SimulationConfig(ruleset="pingxiang", seed="presets", hands_per_game=1), k)
                            for k in range(8)) if any(e.type == "exhaustive_draw" for e in g.events))
    types = [e.type for e in game.events]
    i = types.index("exhaustive_draw")
    assert types[i - 1] == "tile_drawn"
    events = [ev.parse_event(line.decode()) for line in game.jsonl_lines()]
    assert all(not s.findings for s in replay(events, mode="strict"))
    # the same hand under ji_an rules (the last drawer discards): a finding under pingxiang
    drawn = events[i - 1].payload
    payloads = [e.payload for e in events[:i]] + [ev.TileDiscarded(seat=drawn.seat, tile=drawn.tile)]
    got = run(as_events(payloads, game_id="px"), mode="audit").findings
    assert [f.rule_id for f in got] == ["last_draw_no_discard"]
