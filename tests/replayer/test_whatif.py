"""What-if scoring (replayer/whatif.py): a game re-scored under another ruleset, preset or
options, side by side. Expected outcomes come from the rules text: under mcr1998 one seat wins
a discard (截和, docs/reference/rules/competition.md §B1); Shangrao wins by self-draw only
(option discard_win_allowed = false, docs/reference/rules/jiangxi_variants.md §11); an option
no win depends on changes nothing."""

from __future__ import annotations

import pytest

from eventlog.ingest import parse_file
from eventlog.store import open_store
from paipu.samples import sample_files
from replayer.rules.base import presets
from replayer.whatif import parse_option, what_if, what_if_json

PMN = "pmn-mahjongsoft.com-74621-1-3"


@pytest.fixture(scope="module")
def pmn_events(tmp_path_factory):
    f = next(p for p in sample_files() if p.suffix == ".pmn")
    (game,) = [g for g in parse_file(f) if hasattr(g, "events")]
    store = open_store(tmp_path_factory.mktemp("whatif"))
    try:
        store.append(PMN, list(game.events))
        return list(store.read_game(PMN))
    finally:
        store.close()


def test_one_win_under_mcr1998(pmn_events):
    wins = [e for e in pmn_events if e.type == "win_declared"]
    assert [w.payload.seat for w in wins] == [1, 3]  # both on seat 0's discard (the PMN Play tag)
    w = what_if(pmn_events, "mcr1998", win_seq=wins[1].seq)
    (x,) = w.wins
    assert x.seat == 3 and x.legal_before and not x.legal_after and x.points_after is None
    assert [r[0] for r in x.reasons_after] == ["one_winner_per_discard"] and "§B1" in x.reasons_after[0][2]
    assert all(d.after == "" and "§B3" in d.source for d in x.fans)
    with pytest.raises(ValueError, match="no declared win"):
        what_if(pmn_events, "mcr1998", win_seq=3)


def test_an_option_no_win_depends_on(pmn_events):
    w = what_if(pmn_events, None, {"knitted_straight_waits": False})
    assert not w.differs and w.ruleset_after == "mcr"
    (c,) = w.option_changes
    assert (c.name, c.after) == ("knitted_straight_waits", "false") and c.source
    j = what_if_json(w)
    assert j["differs"] is False and j["option_changes"][0]["name"] == "knitted_straight_waits"


def test_unknown_ruleset_or_option(pmn_events):
    from replayer.findings import RulesetError

    with pytest.raises(RulesetError):
        what_if(pmn_events, "no_such_ruleset")
    with pytest.raises(RulesetError):
        what_if(pmn_events, None, {"multiple_winners": "sometimes"})


def test_parse_option():
    assert parse_option("knitted_straight_waits=false") == ("knitted_straight_waits", False)
    assert parse_option("min_fans=6") == ("min_fans", 6)
    assert parse_option("fan_table=mcr1998") == ("fan_table", "mcr1998")
    with pytest.raises(ValueError):
        parse_option("no-equals-sign")


def test_nanchang_game_under_every_jiangxi_preset(tmp_path):
    from replayer.simulate.engine import SimulationConfig, simulate_game

    g = simulate_game(SimulationConfig(ruleset="nanchang", seed=7, hands_per_game=3), 0)
    store = open_store(tmp_path)
    try:
        store.append(g.game_id, list(g.events))
        events = list(store.read_game(g.game_id))
    finally:
        store.close()
    discard_wins = {e.seq for e in events if e.type == "win_declared" and e.payload.from_seat is not None}
    for name, (base, _opts) in presets().items():
        if base != "nanchang" or name == "nanchang":
            continue
        w = what_if(events, name)
        assert w.ruleset_after == name
        for c in w.option_changes[1:]:
            assert c.source.startswith("docs/reference/rules/"), (name, c)
        if name == "shangrao":
            assert discard_wins, "the simulated game has a win on a discard"
            for x in w.wins:
                if x.seq in discard_wins:
                    assert not x.legal_after and any(r[0] == "discard_win_allowed" for r in x.reasons_after)


# --- another base ruleset: the record's table, the other ruleset's scores ----------------------


def _sample_game(tmp_path_factory, game_id: str):
    game = next(g for f in sample_files() for g in parse_file(f)
                if hasattr(g, "events") and g.game_id == game_id)
    store = open_store(tmp_path_factory.mktemp("whatif_bz"))
    try:
        store.append(game_id, list(game.events))
        return list(store.read_game(game_id))
    finally:
        store.close()


def test_another_ruleset_keeps_the_records_walls(tmp_path_factory):
    # Botzone lays one wall per seat (its hand_started lists the four seats' walls); the game's
    # own replay finds every deal and draw where its walls put them. The chip format has no
    # such option, but how the table was built is a fact of the record: the what-if checks the
    # same walls, and the one thing it can say of them is that the record's tile set has no
    # flowers (136 tiles) while the chip format plays with them (competition.md §A6.3, 花牌)
    events = _sample_game(tmp_path_factory, "botzone-6a20243a58ebe27b197dabab")
    w = what_if(events, "cjm_chips")
    walls = [f for f in w.findings_only_after if f.rule_id == "wall_mismatch"]
    assert len(walls) == 1 and "tile set" in walls[0].message and "H1" in walls[0].message
    (c,) = w.option_changes  # the ruleset row names where each ruleset is written
    assert c.name == "ruleset" and c.source == ("docs/reference/rules/competition.md Part B | "
                                                "docs/reference/rules/competition.md Part A")
    # the chip format starts every player with 100 chips (§A5); seat 1's 小三元 + 缺一门 has none
    # of the 12 technical patterns (§A6.2): 无番禁和牌, nothing paid (the 诈和 penalty is the
    # referee's, §A9)
    assert w.start_after == (100, 100, 100, 100)
    assert not [f for f in w.findings_only_after if f.rule_id == "chip_stacks"]
    (x,) = w.wins
    assert x.legal_before and not x.legal_after
    assert w.scores_after == (100, 100, 100, 100)
    assert what_if_json(w)["after"]["start"] == [100, 100, 100, 100]


def test_a_legal_win_under_another_ruleset_pays_from_its_stacks(tmp_path_factory):
    # seat 2 self-draws B3 into B2_B4 with the other three B3 in the rivers: 夹绝张 4 (§A6.2 #8)
    # + 单张和牌 4 + 门清 8 (§A6.3) = T 16; a self-draw: each of the three pays T (§A6.4)
    events = _sample_game(tmp_path_factory, "botzone-61602cb45ddc087351c04362")
    w = what_if(events, "cjm_chips")
    (x,) = w.wins
    assert x.legal_after and x.points_after == 16 and x.changes_after == (-16, -16, 48, -16)
    assert w.scores_after == (84, 84, 148, 84)
