"""The Jiangxi presets in play (issue 17 items 2 and 4): games logged under a preset replay
with its options, keep the preset's name as their ruleset, and settle as the reference
vectors say; the table rules of the options are findings; the simulator plays legal games
under every preset (the 200-game run is scripts/simulate_presets.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from eventlog import events as ev
from eventlog.convert import from_proto, to_proto
from replayer.replay import replay, run
from replayer.rules.base import get_ruleset, presets
from replayer.rules.nanchang.events import BaoFlown, BaoPung, SixPairsShown
from replayer.simulate.engine import SimulationConfig, simulate_game
from replayer.state import to_dict

from .game import as_events, hand_from_vector, with_offsets

DATA = Path(__file__).resolve().parents[2] / "data" / "jiangxi" / "settlement_vectors.jsonl"
CASES = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
NANCHANG_PRESETS = sorted(n for n, (base, _) in presets().items() if base == "nanchang")


# the tile set itself is the core's tile accounting (a wind under 120_no_winds is its
# tile_count_exceeded); 发 set aside and several winners are replayed by their own tests below:
# these vectors are checked by the vector path only
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


# --- 六对摊牌: Nanchang's own table event nanchang.six_pairs_shown (jiangxi_variants.md §5, §13.12)

DOC = Path(__file__).resolve().parents[3] / "docs" / "events.md"


def test_the_docs_examples_parse_and_round_trip_through_protobuf():
    lines = re.findall(r"^```json nanchang\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.S | re.M)
    want = [(SixPairsShown(seat=2, tiles=["W1", "W1", "W8", "W8", "T4", "T4", "T7", "T7", "B6", "B6", "J1", "J1"]),
             "NanchangSixPairsShown"),
            (BaoFlown(seat=2, tile="H3"), "NanchangBaoFlown"),
            (BaoPung(seat=1, tiles=["H1", "H3", "H7"], discard_seq=26), "NanchangBaoPung")]
    assert len(lines) == len(want)
    for line, (payload, message) in zip(lines, want):
        e = ev.parse_event(line)
        assert e.type == payload.TYPE and e.payload == payload
        msg = to_proto(e)
        assert msg.WhichOneof("payload") == "ruleset_event"
        assert msg.ruleset_event.payload.type_url.endswith("paipu.v1." + message)
        assert from_proto(msg) == e
        assert payload.TYPE.split(".")[1] not in ev.EVENT_TYPES  # a ruleset's own type, not a core one
    # a 宝 is a flower: a playing tile is refused
    with pytest.raises(ev.EventError):
        ev.parse_payload("nanchang.bao_flown", {"seat": 0, "tile": "W1"})


def _with_show(case):
    """A vector's hand with the six pairs shown at the shower's first turn (after its first
    draw; the dealer: before its first discard)."""
    events = _events({**case, "players": [{k: v for k, v in p.items() if k != "early_show"}
                                          for p in case["players"]]})
    shower = next(i for i, p in enumerate(case["players"]) if p.get("early_show"))
    tiles = case["players"][shower]["concealed"]
    pairs = sorted(t for t in set(tiles) for _ in range(tiles.count(t) // 2 * 2))[:12]
    payloads = [e.payload for e in events]
    at = next(i for i, p in enumerate(payloads) if isinstance(p, ev.TileDrawn) and p.seat == shower) + 1
    if shower == case["dealer"]:
        at = next(i for i, p in enumerate(payloads) if isinstance(p, ev.TileDiscarded))
    payloads.insert(at, SixPairsShown(seat=shower, tiles=pairs))
    # seq = list index: the win's discard_seq moves with the inserted event
    payloads = [q.model_copy(update={"discard_seq": q.discard_seq + 1})
                if isinstance(q, ev.WinDeclared) and q.discard_seq is not None and q.discard_seq >= at else q
                for q in payloads]
    return payloads, at


JDZ3 = next(c for c in CASES if c["id"] == "jx-jingdezhen-03")


def test_six_pairs_shown_are_paid_with_the_hand():
    """景德镇 六对摊牌 (qidui_early_show): jx-jingdezhen-03 replayed with its show as an event
    settles as the vector (early_show [-2, 6, -2, -2], total [-4, 4, -3, 3])."""
    payloads, _ = _with_show(JDZ3)
    result = run(as_events(payloads, game_id=JDZ3["id"]), mode="strict")
    assert not result.findings
    assert list(result.state.hands[-1].changes) == JDZ3["expected"]["total"]
    assert get_ruleset("jingdezhen").seat_notes(result.state)[1] == "six pairs shown 六对摊牌"
    win = result.state.wins[-1]
    parts = dict(win.score.settlement_parts())
    assert list(parts["early_show"]) == JDZ3["expected"]["components"]["early_show"]


def test_the_show_is_paid_on_an_exhaustive_draw_too():
    """"不管有没有和别人都要付钱给你" (seed 000; §13.12: paid on any outcome): the same hand cut
    before the win and drawn out pays the shower 1 from each seat, 2 from the dealer."""
    payloads, at = _with_show(JDZ3)
    shower = payloads[at].seat
    win_at = next(i for i, p in enumerate(payloads) if isinstance(p, ev.WinDeclared))
    # the winning discard stands; nobody wins on it and the hand is called drawn (audit mode:
    # tiles are left in the wall, which is the only finding)
    cut = payloads[:win_at] + [ev.ExhaustiveDraw(), ev.HandEnded(hand_number=1)]
    result = run(as_events(cut, game_id="jdz-draw"), mode="audit")
    assert {f.rule_id for f in result.findings} <= {"exhaustive_draw_with_tiles_left"}
    dealer = JDZ3["dealer"]
    want = [0, 0, 0, 0]
    for o in range(4):
        if o != shower:
            amount = 2 if dealer in (shower, o) else 1
            want[o] -= amount
            want[shower] += amount
    assert list(result.state.hands[-1].changes) == want


def test_a_show_needs_the_option_the_turn_no_sets_and_six_held_pairs():
    payloads, at = _with_show(JDZ3)
    show = payloads[at]

    def findings(p, gid):
        return [(f.rule_id, f.source.split(" (")[0]) for f in run(as_events(p, game_id=gid),
                                                                   mode="audit").findings]

    section = "docs/reference/rules/jiangxi_variants.md §5, §13.12"
    # without the option (Ji'an) the show is a finding and pays nothing
    ji_an = [payloads[0].model_copy(update={"ruleset": "ji_an"})] + payloads[1:]
    assert findings(ji_an, "ja")[:1] == [("qidui_early_show", section)]
    # out of turn: shown before the shower drew
    early = payloads[:at - 1] + [show] + payloads[at - 1:at] + payloads[at + 1:]
    assert findings(early, "early")[:1] == [("qidui_early_show", section)]
    # pairs it does not hold; tiles that are not pairs
    fake = show.model_copy(update={"tiles": ["W2", "W2"] + list(show.tiles[2:])})
    assert findings(payloads[:at] + [fake], "fake") == [("qidui_early_show", section)]
    odd = show.model_copy(update={"tiles": ["W1", "W8"] + list(show.tiles[1:2]) + list(show.tiles[3:])})
    assert findings(payloads[:at] + [odd], "odd") == [("qidui_early_show", section)]
    # a second show
    assert findings(payloads[:at + 1] + [show], "twice") == [("qidui_early_show", section)]


def test_a_shown_hand_is_locked():
    """§13.12 "the hand is then locked": the shower keeps its pairs (discarding one is a
    finding) and makes no meld; discarding its odd tile is fine."""
    payloads, at = _with_show(JDZ3)
    show = payloads[at]
    seat = show.seat
    locked = payloads[:at + 1] + [ev.TileDiscarded(seat=seat, tile=show.tiles[0])]
    got = run(as_events(locked, game_id="locked"), mode="audit").findings
    assert [f.rule_id for f in got] == ["qidui_early_show"]
    assert not run(as_events(payloads[:at + 2], game_id="ok"), mode="strict").findings
    # a pung by the shower: W1 W1 shown, another W1 discarded by the next seat
    after = payloads[:at + 2]
    nxt = (seat + 1) % 4
    pung = after + [ev.TileDrawn(seat=nxt, tile="W1"), ev.TileDiscarded(seat=nxt, tile="W1"),
                    ev.Pung(seat=seat, tile="W1", discard_seq=len(after) + 1)]
    got = run(as_events(pung, game_id="pung"), mode="audit").findings
    assert "qidui_early_show" in [f.rule_id for f in got]


def test_six_pairs_shown_in_a_game_of_another_ruleset():
    payloads, at = _with_show(JDZ3)
    changsha = [ev.GameStarted(ruleset="changsha", players=["A", "B", "C", "D"], initial_scores=[0, 0, 0, 0])]
    got = run(as_events(changsha + payloads[1:at + 1], game_id="cs"), mode="audit").findings
    assert "event_not_in_ruleset" in [f.rule_id for f in got]


def test_the_simulator_shows_six_pairs_under_jingdezhen():
    shown = 0
    for g in range(12):
        game = simulate_game(SimulationConfig(ruleset="jingdezhen", seed="presets", hands_per_game=1), g)
        shows = [e for e in game.events if e.type == "nanchang.six_pairs_shown"]
        if not shows:
            continue
        shown += 1
        events = [ev.parse_event(line.decode()) for line in game.jsonl_lines()]
        steps = list(replay(events, mode="strict"))
        seat = shows[0].payload.seat
        assert all(sum(h.changes) == 0 for h in steps[-1].state.hands)
        # the shower is paid 1 by each other seat (2 with the dealer) at the hand's end
        final = next(s.state for s in reversed(steps) if s.state.wins or s.state.exhaustive_draw)
        dealer = final.dealer
        want = [0, 0, 0, 0]
        for o in range(4):
            if o != seat:
                amount = 2 if dealer in (seat, o) else 1
                want[o] -= amount
                want[seat] += amount
        if final.wins:
            assert list(dict(final.wins[0].score.settlement_parts())["early_show"]) == want
    assert shown >= 1


# --- several winners on one discard in play (multiple_winners, jiangxi_variants.md §5, §13.11)

MULTI = [c for c in CASES if c["outcome"].get("winners")]


def _multi_events(case):
    """The vector's hand won by the first winner, then the others on the same discard."""
    first, *others = case["outcome"]["winners"]
    payloads = [e.payload for e in _events({**case, "outcome": {**case["outcome"], "winner": first}})]
    win = payloads[-2]
    assert isinstance(win, ev.WinDeclared)
    return payloads[:-1] + [win.model_copy(update={"seat": s}) for s in others] + payloads[-1:]


@pytest.mark.parametrize("case", MULTI, ids=[c["id"] for c in MULTI])
def test_several_winners_on_one_discard_settle_as_the_vector(case):
    """一炮双响 / 三响: jx-jingdezhen-01 (two winners) and -02 (three) replayed as whole hands
    settle as their vectors; under ji_an (one winner) jx-ji_an-05's second winner is refused."""
    result = run(as_events(_multi_events(case), game_id=case["id"]), mode="audit")
    if "error" in case["expected"]:
        assert case["expected"]["error"] == "multiple_winners"
        assert [f.rule_id for f in result.findings] == ["one_winner_per_discard"]
        return
    assert not result.findings
    assert list(result.state.hands[-1].changes) == case["expected"]["total"]
    assert [w.seat for w in result.state.wins if w.legal] == case["outcome"]["winners"]


def test_a_fourth_winner_is_too_many_in_jingdezhen():
    case = next(c for c in MULTI if c["id"] == "jx-jingdezhen-02")
    payloads = _multi_events(case)
    opts = [payloads[0].model_copy(update={"ruleset_options": {"multiple_winners": 2}})] + payloads[1:]
    got = run(as_events(opts, game_id="two"), mode="audit").findings
    assert [f.rule_id for f in got] == ["too_many_winners"]
    assert "jiangxi_variants.md" in got[0].source


# --- 九江 发 as a flower in play (fa_as_flower, jiangxi_variants.md §6, §13.18)


def _insert(payloads, at, new):
    """``new`` inserted at index ``at``; win discard_seq (= list index) moved with it."""
    out = payloads[:at] + list(new) + payloads[at:]
    return [q.model_copy(update={"discard_seq": q.discard_seq + len(new)})
            if isinstance(q, ev.WinDeclared) and q.discard_seq is not None and q.discard_seq >= at else q
            for q in out]


def _with_fa(case):
    """A vector's hand where each 发 of ``players[i].flowers`` was drawn at that seat's first
    draw, set aside and replaced from the tail (the replacement is the tile it drew)."""
    plain = {**case, "players": [{k: v for k, v in pl.items() if k != "flowers"} for pl in case["players"]]}
    payloads = [e.payload for e in _events(plain)]
    for seat, pl in enumerate(case["players"]):
        for _ in pl.get("flowers", ()):
            at = next(i for i, q in enumerate(payloads) if isinstance(q, ev.TileDrawn) and q.seat == seat)
            drawn = payloads[at]
            payloads = _insert(payloads[:at] + payloads[at + 1:], at, [
                ev.TileDrawn(seat=seat, tile="J2", source=drawn.source), ev.FlowerReplaced(seat=seat, flower="J2"),
                ev.TileDrawn(seat=seat, tile=drawn.tile, source="flower_replacement")])
            payloads = [q.model_copy(update={"discard_seq": q.discard_seq - 1})
                        if isinstance(q, ev.WinDeclared) and q.discard_seq is not None and q.discard_seq > at + 2
                        else q for q in payloads]
    return payloads


def test_jiujiang_fa_set_aside_in_play_doubles_the_win():
    """jx-jiujiang-01: the winner set two 发 aside when it drew them; its discard win is ×4
    (win [-4, -8, 20, -8])."""
    case = next(c for c in CASES if c["id"] == "jx-jiujiang-01")
    result = run(as_events(_with_fa(case), game_id=case["id"]), mode="strict")
    assert result.state.seats[2].flowers == ("J2", "J2")
    assert list(result.state.hands[-1].changes) == case["expected"]["total"]
    assert dict(result.state.wins[-1].score.settlement_parts())["win"] == tuple(case["expected"]["components"]["win"])


def test_jiujiang_fa_is_never_played():
    """fa_as_flower: a 发 discarded, melded or won on is the finding fa_as_flower (jx-jiujiang-03:
    a win on a 发 kept in the hand)."""
    source = "docs/reference/rules/jiangxi_variants.md §6, §13.18"
    case = next(c for c in CASES if c["id"] == "jx-jiujiang-03")
    got = run(_events(case), mode="audit").findings
    assert (got[0].rule_id, got[0].source.split(" (")[0]) == ("fa_as_flower", source)
    ok = next(c for c in CASES if c["id"] == "jx-jiujiang-01")
    payloads = _with_fa(ok)
    first = next(i for i, q in enumerate(payloads) if isinstance(q, ev.TileDrawn))
    seat = payloads[first].seat
    kept = payloads[:first] + [ev.TileDrawn(seat=seat, tile="J2"), ev.TileDiscarded(seat=seat, tile="J2")]
    got = run(as_events(kept, game_id="fa"), mode="audit").findings
    assert [f.rule_id for f in got] == ["fa_as_flower"]
    # the same discard under jingdezhen (发 an ordinary tile, no jing either) is fine
    other = [kept[0].model_copy(update={"ruleset": "jingdezhen"})] + kept[1:]
    assert not run(as_events(other, game_id="fa2"), mode="audit").findings


# --- 鹰潭 宝 in play (flower_bao, fly_bao_doubling, jiangxi_variants.md §8, §13.17)


@pytest.mark.parametrize("cid", ["jx-yingtan-02", "jx-yingtan-03", "jx-yingtan-04"])
def test_yingtan_flown_bao_replayed_as_whole_hands(cid):
    """The 宝 are kept in the hand and flown (nanchang.bao_flown), never set aside: -02 (two
    flown, 碰碰和 self-draw: 2 × 2^2 …) and -03 (one flown, 清一色 ×4) settle as their vectors;
    -04's winner keeps two 宝 in its hand: the finding flower_bao."""
    case = next(c for c in CASES if c["id"] == cid)
    result = run(_events(case), mode="audit")
    if "error" in case["expected"]:
        assert [f.rule_id for f in result.findings][:1] == [case["expected"]["error"]]
        return
    assert not result.findings
    assert list(result.state.hands[-1].changes) == case["expected"]["total"]
    assert all(not s.flowers for s in result.state.seats)  # nothing set aside


def _yingtan_01():
    """jx-yingtan-01 as a whole hand (dealer seat 0): seat 1 holds H1 H6 H7, flies H6, keeps
    the other two; seat 2 draws H3 and flies it; seat 1 pungs H1 H3 H7 and later wins on seat
    0's W7 (rivers and first discards as the vector gives them)."""
    case = next(c for c in CASES if c["id"] == "jx-yingtan-01")
    pl = [p["concealed"] for p in case["players"]]
    out = [ev.GameStarted(ruleset="yingtan", players=["A", "B", "C", "D"], initial_scores=[0, 0, 0, 0]),
           ev.HandStarted(hand_number=1, prevalent_wind="F1", dealer=0),
           ev.TilesDealt(seat=0, tiles=pl[0] + ["T4"]),
           ev.TilesDealt(seat=1, tiles=pl[1] + ["H1", "H6", "H7"]),
           ev.TilesDealt(seat=2, tiles=pl[2]), ev.TilesDealt(seat=3, tiles=pl[3]),
           ev.TileDiscarded(seat=0, tile="T4")]

    def turn(seat, drawn, gone=None):
        out.append(ev.TileDrawn(seat=seat, tile=drawn))
        gone = gone or drawn
        out.append(BaoFlown(seat=seat, tile=gone) if gone[0] == "H" else ev.TileDiscarded(seat=seat, tile=gone))
    turn(1, "T5", "H6"), turn(2, "B3"), turn(3, "T6")
    turn(0, "T3"), turn(1, "T9", "T5"), turn(2, "B7"), turn(3, "W2")
    turn(0, "F4"), turn(1, "F3", "T9"), turn(2, "T3"), turn(3, "T5")
    turn(0, "W1"), turn(1, "W1", "F3"), turn(2, "H3")
    out.append(BaoPung(seat=1, tiles=["H1", "H3", "H7"], discard_seq=len(out) - 1))
    out.append(ev.TileDiscarded(seat=1, tile="W1"))
    turn(2, "W6"), turn(3, "T4"), turn(0, "W7")
    out += [ev.WinDeclared(seat=1, tile="W7", self_drawn=False, from_seat=0, discard_seq=len(out) - 1),
            ev.HandEnded(hand_number=1)]
    return case, out


def test_yingtan_bao_pung_replayed_settles_as_the_vector():
    """jx-yingtan-01: four 宝 (one flown, three in the 宝 pung), a plain discard win:
    2 × 2^4 = 32 per payer, win [-128, 192, -32, -32]."""
    case, payloads = _yingtan_01()
    result = run(as_events(payloads, game_id="yt1"), mode="strict")
    assert result.state.seats[1].melds[0].tiles == ("H1", "H3", "H7")
    assert list(result.state.hands[-1].changes) == case["expected"]["total"]
    assert dict((l.id, l.count) for l in result.state.wins[-1].score.lines())["bao"] == 4


def test_yingtan_bao_rules_are_findings():
    """must-fly (a seat holding a single 宝 discards another tile: bao_must_fly, §8 [prov.]);
    a 宝 pung that does not hold the flown 宝; a 宝 flown in a game without flower_bao; a 宝
    set aside like a flower (flowers_not_used: under flower_bao nothing is set aside)."""
    _, payloads = _yingtan_01()
    i = next(k for k, p in enumerate(payloads) if isinstance(p, BaoFlown) and p.seat == 2)
    # seat 2 draws H3 and discards a playing tile instead of flying it
    wrong = payloads[:i] + [ev.TileDiscarded(seat=2, tile=payloads[4].tiles[0])]
    got = run(as_events(wrong, game_id="yt2"), mode="audit").findings
    assert [f.rule_id for f in got] == ["bao_must_fly"]
    assert "jiangxi_variants.md §8" in got[0].source
    bad = payloads[:i + 1] + [BaoPung(seat=1, tiles=["H1", "H6", "H7"], discard_seq=i)]
    got = run(as_events(bad, game_id="yt3"), mode="audit").findings
    assert [f.rule_id for f in got][:1] == ["flower_bao"]
    other = [payloads[0].model_copy(update={"ruleset": "jingdezhen"})] + payloads[1:9]
    got = run(as_events(other, game_id="yt4"), mode="audit").findings
    assert "flower_bao" in [f.rule_id for f in got]
    aside = payloads[:7] + [ev.TileDrawn(seat=1, tile="T5"), ev.FlowerReplaced(seat=1, flower="H6")]
    got = run(as_events(aside, game_id="yt5"), mode="audit").findings
    assert [f.rule_id for f in got][:1] == ["flowers_not_used"]


def test_the_simulator_flies_and_pungs_bao_under_yingtan():
    flown = pungs = 0
    for g in range(6):
        game = simulate_game(SimulationConfig(ruleset="yingtan", seed="presets", hands_per_game=1), g)
        flown += sum(e.type == "nanchang.bao_flown" for e in game.events)
        pungs += sum(e.type == "nanchang.bao_pung" for e in game.events)
        assert not any(e.type == "flower_replaced" for e in game.events)
        events = [ev.parse_event(line.decode()) for line in game.jsonl_lines()]
        assert not run(events, mode="strict").findings
    assert flown and pungs


def test_a_wind_in_a_jiujiang_game_cites_the_tile_set_option():
    """jx-jiujiang-04 (a wind under 120_no_winds): in play the table's tile accounting finds it,
    citing jiangxi_variants.md §1 tileset rather than Nanchang's 136 tiles."""
    case = next(c for c in CASES if c["id"] == "jx-jiujiang-04")
    got = run(_events(case), mode="audit").findings
    assert got and {f.rule_id for f in got} == {"tile_count_exceeded"}
    assert all(f.source.startswith("docs/reference/rules/jiangxi_variants.md §1") and "tileset" in f.source
               for f in got)


def _kong_then_fa(last_source: str):
    """九江: seat 1 draws its fourth W1, konges it, the replacement is 发 (set aside) and the 发's
    replacement B6 completes W1×4 W2 W3 W4 T2 T3 T4 B5 B5 B7 B8 + B6 (self-drawn)."""
    hands = {0: "W6 W6 W7 W8 W9 T6 T7 T8 T9 T9 B1 B2 B3 J1",
             1: "W1 W1 W1 W2 W3 W4 T2 T3 T4 B5 B5 B7 B8",
             2: "W5 W5 W6 W7 T1 T1 T5 T6 B2 B3 B4 B9 J3",
             3: "W2 W3 W4 T5 T6 T7 B1 B1 B4 B8 B9 J1 J3"}
    out = [ev.GameStarted(ruleset="jiujiang", players=["A", "B", "C", "D"], initial_scores=[0, 0, 0, 0]),
           ev.HandStarted(hand_number=1, prevalent_wind="F1", dealer=0)]
    out += [ev.TilesDealt(seat=s, tiles=t.split()) for s, t in hands.items()]
    out += [ev.TileDiscarded(seat=0, tile="J1"), ev.TileDrawn(seat=1, tile="W1"),
            ev.Kong(seat=1, kind="concealed", tile="W1"), ev.TileDrawn(seat=1, tile="J2", source="kong_replacement"),
            ev.FlowerReplaced(seat=1, flower="J2"), ev.TileDrawn(seat=1, tile="B6", source=last_source),
            ev.WinDeclared(seat=1, tile="B6", self_drawn=True), ev.HandEnded(hand_number=1)]
    return out


def test_jiujiang_a_win_on_the_fa_replacement_is_no_kong_replacement_win():
    """jiangxi_variants.md §13.18 / data README fa_as_flower: "A win on the replacement tile is
    an ordinary self-draw" — also when the 发 itself was a kong's replacement: self-drawn and
    ×2 for the one 发, no 杠开."""
    result = run(as_events(_kong_then_fa("flower_replacement"), game_id="jj-kf"), mode="strict")
    lines = {line.id: line for line in result.state.wins[-1].score.lines()}
    assert "self_drawn" in lines and "kong_replacement" not in lines
    assert lines["fa_flowers"].count == 1


def test_simulated_several_winners_report_what_the_table_settles():
    """景德镇 game 135 of seed "presets": seat 3 shows six pairs, then seats 3 and 1 win on one
    discard; the second winner's reported changes are its own win only (the hand's other
    components, the six-pair show among them, settle with the first), as the replay computes."""
    game = simulate_game(SimulationConfig(ruleset="jingdezhen", seed="presets", hands_per_game=1), 135)
    events = [ev.parse_event(line.decode()) for line in game.jsonl_lines()]
    result = run(events, mode="strict")
    assert [w.seat for w in result.state.wins] == [3, 1]
    reported = [e.payload for e in game.events if e.type == "score_reported"]
    assert [tuple(r.score_changes) for r in reported] == [w.settlement.changes for w in result.state.wins]
