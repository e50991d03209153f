"""The decision review (replayer/review.py) and the shared shape-distance engine
(replayer/rules/shared/winning_shapes.py).

Every expected shanten, improving tile and unseen count below was worked out by hand from
the rules text, not from the code: a hand's shanten is the fewest tiles a winning hand holds
that it does not, minus one (minus the wild tiles it holds, Nanchang §4.2). The shapes:
MCR — four sets and a pair, 七对, 十三幺, 全不靠, 组合龙 (docs/reference/rules/competition.md Part
B3); Nanchang — wind / dragon chows, jing wild (docs/reference/rules/nanchang.md §4.1–4.2,
§5.2, §6); Sichuan — 缺一门 with the declared void suit (docs/reference/rules/sichuan.md §2).
"""

from __future__ import annotations

import pytest

from eventlog import events as ev
from eventlog import tiles as T
from eventlog.store import open_store
from replayer.review import LABEL, review_game, review_position
from replayer.rules.base import get_ruleset
from replayer.rules.shared.decompose import ORDERED_HONOR_CHOWS, PAIR_258
from replayer.rules.shared.winning_shapes import (
    RegularShape, WinningShapes, shape_distances, shanten, suits_tiles,
)
from replayer.state import TableState


def counts(tiles: str) -> tuple[int, ...]:
    c = [0] * 34
    for t in tiles.split():
        c[T.index(t)] += 1
    return tuple(c)


def unseen_all(hand: str, **seen: int) -> list[int]:
    """4 copies of each kind minus those in ``hand`` and ``seen`` (tile → copies seen elsewhere)."""
    u = [4 - n for n in counts(hand)]
    for t, n in seen.items():
        u[T.index(t)] -= n
    return u


MCR = get_ruleset("mcr").winning_shapes(TableState(), 0)


def review(hand: str, shapes: WinningShapes, unseen: list[int], melds=()):
    before, options = review_position(counts(hand), melds, shapes, unseen)
    return before, {o.tile: o for o in options}, options


# --- MCR ---------------------------------------------------------------------------------------


def test_mcr_regular_two_honor_singles():
    # W123 T456 B789 F1F1 J1 J2 F4: three sets and a pair; one more set is two tiles away
    # (a pung of J1/J2/F4 needs two more) → shanten 1 after any honor single goes; the tiles
    # that help are the other two singles (each makes a second pair: ready on a 双碰) and a
    # third F1 (the pung F1F1F1, then ready on the single as the pair: 单钓).
    hand = "W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 J1 J2 F4"
    u = unseen_all(hand, F4=1)  # one F4 already in a river: 2 unseen
    before, by, options = review(hand, MCR, u)
    assert before == 1
    assert by["F4"].shanten == 1 and dict(by["F4"].improving) == {"F1": 2, "J1": 3, "J2": 3}
    assert by["J1"].shanten == 1 and dict(by["J1"].improving) == {"F1": 2, "J2": 3, "F4": 2}
    assert by["J2"].shanten == 1 and dict(by["J2"].improving) == {"F1": 2, "J1": 3, "F4": 2}
    assert options[0].tile == "F4" and options[0].count == 8  # keeps the most unseen improving tiles
    assert by["W1"].shanten == 2  # breaking a set costs a step


def test_mcr_seven_pairs():
    # five pairs + W9 T9 B5 B6: seven pairs is one away after discarding any single
    # (6 − 5 pairs = 1); the regular shape is farther (four partials + a pair: 8 − 4 − 1 = 3).
    hand = "W1 W1 T2 T2 B3 B3 F1 F1 J1 J1 W9 T9 B5 B6"
    before, by, options = review(hand, MCR, unseen_all(hand))
    assert before == 1
    d = shape_distances(counts("W1 W1 T2 T2 B3 B3 F1 F1 J1 J1 T9 B5 B6"), (), MCR)
    assert d["seven_pairs"] == 1 and d["regular"] == 3
    assert dict(by["W9"].improving) == {"T9": 3, "B5": 3, "B6": 3}
    assert {o.tile for o in options if o.count == 9 and o.shanten == 1} == {"W9", "T9", "B5", "B6"}
    assert by["W1"].shanten == 2


def test_mcr_thirteen_orphans():
    # twelve of the thirteen orphans (no 白 J3) + W5 W5: after W5, 13 − 12 kinds − no pair = 1;
    # J3 or a second copy of any orphan held makes it ready.
    hand = "W1 W9 T1 T9 B1 B9 F1 F2 F3 F4 J1 J2 W5 W5"
    before, by, _ = review(hand, MCR, unseen_all(hand))
    assert before == 1
    imp = dict(by["W5"].improving)
    assert imp["J3"] == 4 and len(imp) == 13 and by["W5"].count == 4 + 12 * 3


def test_mcr_lesser_honors_and_knitted_tiles():
    # 全不靠 from W147 T258 B369 + honors: W1 W4 W7 T2 T5 T8 B3 B6 + 东南西 中发 = 13 of them,
    # plus W5 (outside the knitted set). Discarding W5 leaves a ready hand waiting on the
    # three kinds of the set it lacks: B9, F4 (北), J3 (白).
    hand = "W1 W4 W7 T2 T5 T8 B3 B6 F1 F2 F3 J1 J2 W5"
    before, by, options = review(hand, MCR, unseen_all(hand))
    assert before == 0
    assert by["W5"].shanten == 0 and dict(by["W5"].improving) == {"B9": 4, "F4": 4, "J3": 4}
    assert options[0].tile == "W5" and by["W1"].shanten == 1


def test_mcr_knitted_straight_with_a_set_and_a_pair():
    # 组合龙 W147 T258 B369 complete + W2 W3 F1 F1 J1: after J1, a set (W1 or W4 completes
    # W2 W3) and the pair F1 F1 → ready on W1 and W4 (one of each already held: 3 unseen).
    hand = "W1 W4 W7 T2 T5 T8 B3 B6 B9 W2 W3 F1 F1 J1"
    before, by, options = review(hand, MCR, unseen_all(hand))
    assert before == 0
    assert dict(by["J1"].improving) == {"W1": 3, "W4": 3}
    assert options[0].tile == "J1" and by["F1"].shanten == 1


def test_mcr_declared_sets_count():
    # two declared sets: two sets and a pair to make from W2 W3 W4 T5 T6 B9 B9 + J1
    shapes = MCR
    melds = ((T.index("F1"),) * 3, (T.index("J2"),) * 3)
    c = counts("W2 W3 W4 T5 T6 B9 B9 J1")
    before, options = review_position(c, melds, shapes, unseen_all("W2 W3 W4 T5 T6 B9 B9 J1", F1=3, J2=3))
    assert before == 0
    top = options[0]
    assert top.tile == "J1" and dict(top.improving) == {"T4": 4, "T7": 4}


# --- Nanchang: jing wild, honor chows ------------------------------------------------------------


def test_nanchang_jing_are_wild_and_honor_chows_count():
    # indicator W5: 正精 W5, 副精 W6 (§4.1). Hand: one W5 (wild) + T123 T456 B789 + J2 J3
    # (a partial 中发白 chow, §5.2) + F1 + W9. After W9: the jing stands for the missing one
    # of J1 / the F1 pair → ready; improving: J1, F1 and every jing kind (a second wild).
    rs = get_ruleset("nanchang")
    shapes = WinningShapes(regular=(RegularShape(honor_chows=True),), special=("seven_pairs", "rotten"),
                           wildcards=(T.index("W5"), T.index("W6")))
    state = TableState(wildcard_indicator="W5")
    assert rs.winning_shapes(state, 0).wildcards == shapes.wildcards  # the ruleset supplies them
    hand = "W5 T1 T2 T3 T4 T5 T6 B7 B8 B9 J2 J3 F1 W9"
    u = unseen_all(hand, W5=1)  # the indicator is face up
    before, by, options = review(hand, rs.winning_shapes(state, 0), u)
    assert before == 0
    assert dict(by["W9"].improving) == {"W5": 2, "W6": 4, "F1": 3, "J1": 4}
    assert dict(by["F1"].improving) == {"W5": 2, "W6": 4, "W9": 3, "J1": 4}
    assert {o.tile for o in options[:2]} == {"W9", "F1"} and options[0].count == 13
    assert by["J2"].shanten == 1  # breaking the dragon partial: a new set + a pair to find
    # without honor chows J2 J3 is no partial: one step farther
    plain = WinningShapes(wildcards=shapes.wildcards)
    assert shanten(counts("W5 T1 T2 T3 T4 T5 T6 B7 B8 B9 J2 J3 F1"), (), plain) == 1
    # without the jing wild (the W5 a plain tile: J1 and a second W5 or F1 to find): one step
    assert shanten(counts("W5 T1 T2 T3 T4 T5 T6 B7 B8 B9 J2 J3 F1"), (), WinningShapes(
        regular=(RegularShape(honor_chows=True),))) == 1


def test_nanchang_thirteen_rotten_with_a_jing():
    # 十三烂 (§6.4): W1 W4 W7 T2 T5 B3 B9 (rotten per suit) + 东南西北中发 and one jing W5
    # (indicator W4 → 正精 W4, 副精 W5: the W4 is a jing too — 2 wild, 12 real rotten tiles)
    shapes = get_ruleset("nanchang").winning_shapes(TableState(wildcard_indicator="W4"), 0)
    c = counts("W1 W4 W7 T2 T5 B3 B9 F1 F2 F3 F4 J1 J2 W5")
    # real rotten tiles: W1 W7 T2 T5 B3 B9 + six honors = 12, two wild → complete
    assert shape_distances(c, (), shapes)["rotten"] == -1


def test_nanchang_ordered_honor_chows_and_258_pair_are_data():
    ganzhou = get_ruleset("ganzhou").winning_shapes(TableState(), 0)
    assert ganzhou.regular[0].honor_chows == ORDERED_HONOR_CHOWS
    # 东南北 is no chow in Ganzhou (only 东南西, 南西北): F1 F2 F4 is a partial (F3 to find)
    c = counts("T1 T2 T3 T4 T5 T6 B7 B8 B9 F1 F2 F4 W9 W9")
    assert shape_distances(c, (), ganzhou)["regular"] == 0
    assert shape_distances(c, (), WinningShapes(regular=(RegularShape(honor_chows=True),)))["regular"] == -1
    pingxiang = get_ruleset("pingxiang").winning_shapes(TableState(), 0)
    assert pingxiang.regular[0].pair_tiles == PAIR_258
    # a W9 pair does not count in Pingxiang: the 258 pair is still to find (one tile: T2 T2 …)
    c = counts("T1 T2 T3 T4 T5 T6 B7 B8 B9 F1 F2 F3 W9 W9")
    assert shape_distances(c, (), pingxiang)["regular"] == 1


# --- Sichuan: the void suit -------------------------------------------------------------------------


def test_sichuan_void_suit():
    # void suit 筒 B declared: B5 and B8 must go and count for nothing. W111 W456 T234 T77 T9:
    # three sets + T77; one more set: T8 (T789 + T77 with one more T7), T7 (T777 + T99) or T9
    # (T77 + T99 …) each leave one tile to find → shanten 1, improving T7 T8 T9.
    keep = suits_tiles(0, 1)
    shapes = WinningShapes(regular=(RegularShape(tiles=keep),), special=("seven_pairs",), special_tiles=keep)
    hand = "W1 W1 W1 W4 W5 W6 T2 T3 T4 T7 T7 T9 B5 B8"
    u = [0 if T.index(t) >= 27 else n for t, n in zip(T.ALL_TILES, unseen_all(hand))]
    before, by, options = review(hand, shapes, u)
    assert before == 1
    assert dict(by["B5"].improving) == {"T7": 2, "T8": 4, "T9": 3}
    assert {o.tile for o in options[:2]} == {"B5", "B8"} and options[0].count == 9
    assert by["T9"].shanten == 2
    # the same tiles with 万 declared void instead: the W sets are worth nothing
    keep_tb = suits_tiles(1, 2)
    assert shanten(counts("W1 W1 W1 W4 W5 W6 T2 T3 T4 T7 T7 T9 B5"), (),
                   WinningShapes(regular=(RegularShape(tiles=keep_tb),))) > 1
    # a declared set in the void suit makes every shape unreachable
    assert shanten(counts("W1 W1 W1 T2 T3 T4 T7 T7 T9 W5 W6"), ((T.index("B5"),) * 3,), shapes) >= 99


def test_sichuan_ruleset_states_the_void_suit():
    rs = get_ruleset("sichuan", {"dingque_declared": True})
    undeclared = rs.winning_shapes(TableState(), 0)
    assert undeclared.max_suits == 2 and undeclared.special == ("seven_pairs",)
    # W111 W456 T234 T77 T9 B5 B8 with no void declared: still the nearest two suits (W, T)
    c = counts("W1 W1 W1 W4 W5 W6 T2 T3 T4 T7 T7 T9 B5")
    assert shanten(c, (), undeclared) == 1


# --- whole games ------------------------------------------------------------------------------------


def _stored(tmp_path, game_id, payloads_or_events):
    store = open_store(tmp_path)
    try:
        events = [e if isinstance(e, ev.NewEvent) else ev.NewEvent.of(e, id_seed=f"{game_id}/{i}")
                  for i, e in enumerate(payloads_or_events)]
        store.append(game_id, events)
        return list(store.read_game(game_id))
    finally:
        store.close()


def _check_game(review, events):
    """What the rules say of every review, whatever the game."""
    assert review.label == LABEL and "not an AI" in review.label
    for h in review.hands:
        for d in h.discards:
            assert d.shanten_after >= d.shanten_before  # a discard never brings a hand closer
            assert d.best and (d.kept_best == (d.played in d.best))
            best = d.options[0]
            assert all(o.shanten > best.shanten or o.count <= best.count for o in d.options)
    return review


def test_bundled_mcr_game_end_to_end():
    from eventlog.ingest import parse_file
    from paipu.samples import sample_files

    f = next(p for p in sample_files() if "matchlog" in str(p))
    game = next(g for g in parse_file(f) if hasattr(g, "events"))
    store_events = [e for e in game.events]
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        events = _stored(Path(d), "bz", store_events)
    r = _check_game(review_game(events, seats=(0, 1, 2, 3)), events)
    assert r.ruleset == "mcr" and r.total.discards == sum(len(h.discards) for h in r.hands) > 0
    # the rules say: a seat that won on a discard or a draw was ready after its last discard,
    # and its winning tile was one of the tiles that improved that hand
    wins = [e for e in events if e.type == "win_declared"]
    for w in wins:
        h = next(h for h in r.hands if h.seat == w.payload.seat)
        last = [d for d in h.discards if d.seq < w.seq][-1]
        assert last.shanten_after == 0 and w.payload.tile in dict(last.improving)
        assert h.won and h.ready_turn is not None
    s = r.seats[0]
    assert 0 <= s.kept_best <= s.discards


def _simulated(tmp_path, ruleset, options, seed):
    from replayer.simulate.engine import SimulationConfig, simulate_game

    g = simulate_game(SimulationConfig(ruleset=ruleset, options=options, seed=seed, hands_per_game=1), 0)
    return _stored(tmp_path, g.game_id, list(g.events))


def test_simulated_nanchang_hand_with_jing(tmp_path):
    events = _simulated(tmp_path, "nanchang", {}, 3)
    r = _check_game(review_game(events, seats=(0,), hand=None), events)
    ind = next(e.payload.indicator for e in events if e.type == "wildcard_indicator_revealed")
    jing = {ind, T.next_in_cycle(ind)}
    ds = [d for h in r.hands for d in h.discards]
    assert ds and all(set(d.wildcards) == jing for d in ds)


def test_simulated_sichuan_hand_with_declared_voids(tmp_path):
    events = _simulated(tmp_path, "sichuan", {"dingque_declared": True}, 5)
    r = _check_game(review_game(events, seats=(1,)), events)
    ds = [d for h in r.hands for d in h.discards]
    assert ds
    # a tile of the declared void suit is never worth keeping: discarding it never raises the shanten
    void = next(e.payload for e in events if e.type.endswith("void_suit_declared") and e.payload.seat == 1)
    suit = "WTB".index(str(getattr(void, "suit")))
    for d in ds:
        for o in d.options:
            if T.index(o.tile) // 9 == suit:
                assert o.shanten == d.shanten_before


def test_review_refuses_a_bad_seat():
    with pytest.raises(ValueError):
        review_game([], seats=(4,))


def test_unseen_copies_count_a_claimed_discard_once(tmp_path):
    """Unseen copies from a seat's view (docs/reference/DESIGN.md §4 tile accounting): 4 of each
    kind minus the seat's own tiles, the rivers and the declared sets — a claimed discard once."""
    from replayer.replay import replay
    from replayer.review import unseen_copies

    events = _simulated(tmp_path, "mcr", {"flowers": False}, 11)
    rs = get_ruleset("mcr", {"flowers": False})
    for step in replay(events):
        st = step.state
        pung = next((m for s in st.seats for m in s.melds if m.kind == "pung" and m.discard_seq is not None), None)
        if pung is None:
            continue
        seat = next(i for i in range(4) if pung not in st.seats[i].melds)
        u = unseen_copies(st, seat, rs)
        t = T.index(pung.claimed_tile)
        held = st.seats[seat].counts[t]
        rivers = sum(1 for s in st.seats for d in s.discards if d.tile == pung.claimed_tile)
        in_sets = sum(m.tiles.count(pung.claimed_tile) for s in st.seats for m in s.melds if not m.concealed)
        claimed = sum(1 for s in st.seats for m in s.melds if m.claimed_tile == pung.claimed_tile
                      and m.discard_seq is not None)
        assert u[t] == 4 - held - rivers - in_sets + claimed
        assert u[t] <= 4 - 3 - held  # at least the three tiles of the pung are seen
        return
    pytest.skip("no pung in this simulated hand")


# --- "win" is the ruleset's own legal win ------------------------------------------------------

# Seat 2 draws T9 onto W123 W456 W789 T78 B55: 清龙 / Pure Straight (competition.md §A6.2 #2,
# Part B 16 points) — a legal win under both rulesets, which it declines by discarding T9.
_SEAT_0 = "T1 T1 T2 T3 B1 B1 B9 B9 F1 F1 F4 F4 J1 J3"
_SEAT_2 = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T7 T8 B5 B5"
_SEAT_3 = "T5 T5 T6 T6 T7 T7 B7 B8 B9 J2 J2 J2 W1"


def _declined_wins(ruleset: str, seat_1: str, draw_1: str, **kwargs):
    from replay_builder import GameBuilder

    g = GameBuilder(ruleset=ruleset, **kwargs)
    g.hand(0, dealer=0)
    for seat, tiles in enumerate((_SEAT_0, seat_1, _SEAT_2, _SEAT_3)):
        g.deal(seat, tiles)
    g.discard(0, "J3")
    g.draw(1, draw_1)
    g.discard(1, draw_1)
    g.draw(2, "T9")
    g.discard(2, "T9")
    r = _check_game(review_game(g.events(), seats=(1, 2)), None)
    return {h.seat: h.discards[0] for h in r.hands}


def test_a_complete_shape_below_the_chip_formats_minimum_is_not_a_win():
    # the user's hand: W234 W55 T123 B123 B678, self-drawn B8 (B5 also completes it: no single
    # wait) — none of the 12 technical patterns of competition.md §A6.2, so 无番禁和牌 (§A6.1.2):
    # no legal win. It is one exchange from a win at best: shanten 0, not "win".
    d = _declined_wins("cjm_chips", "W2 W3 W4 W5 W5 T1 T2 T3 B1 B2 B3 B6 B7", "B8",
                       initial_scores=[100, 100, 100, 100])
    assert d[1].shanten_before == 0 and d[1].no_win
    assert d[2].shanten_before == -1 and not d[2].no_win  # 清龙: a legal win, declined


def test_a_complete_shape_under_mcrs_eight_points_is_not_a_win():
    # W123 T456 B234 B678 F3F3 self-drawn B8 (B5 also wins: no wait fan): 不求人 4 and nothing
    # else (no 平和 with a wind pair, no chow fans among these four) — under the 8-point minimum
    # of competition.md Part B, and Chicken Hand counts only when nothing does.
    d = _declined_wins("mcr", "W1 W2 W3 T4 T5 T6 B2 B3 B4 B6 B7 F3 F3", "B8")
    assert d[1].shanten_before == 0 and d[1].no_win
    assert d[2].shanten_before == -1 and not d[2].no_win


# --- "ready" (听牌) is a legal win away, not only a shape away ----------------------------------

# Seat 1 after discarding the drawn B8: W123 T456 B234 B67 F3F3, a shape waiting on B5 or B8.


def test_a_shape_wait_under_mcrs_eight_points_is_not_ready():
    # B8: W123 T456 B234 B678 + F3 pair — 不求人 4 self-drawn, 门前清 2 on a discard, nothing
    # else (no 平和 with a wind pair; competition.md Part B "Minimum 8 points"); B5: the same
    # plus 连六 B234 B567 (1). Every wait stays under 8 both ways: not ready, never ready.
    d = _declined_wins("mcr", "W1 W2 W3 T4 T5 T6 B2 B3 B4 B6 B7 F3 F3", "B8")
    assert d[1].played == "B8" and d[1].shanten_after == 1 and d[1].no_wait and d[1].waits == ()
    assert d[1].improving == ()
    # T6 instead leaves W123 T45 B234 B678 F3F3, waiting on T3 / T6: T3 makes W123 B234 T345,
    # 三色三步高 6, + 门前清 2 on a discard = 8, + 不求人 4 self-drawn; T6 (W123 T456) has none.
    opt = {o.tile: o for o in d[1].options}
    assert opt["T6"].shanten == 0 and [(w.tile, w.self_drawn, w.on_discard) for w in opt["T6"].waits] == [("T3", True, True)]
    assert dict(opt["T6"].improving) == {"T3": 4} and "T6" in d[1].best


def test_a_wait_can_be_ready_self_drawn_only():
    # the same hand with the minimum at 4 (option min_fans): self-drawn, 不求人 4 (B8) or 5
    # (B5 with 连六) reach it; on a discard 门前清 2 (3 with 连六) does not (competition.md §B3)
    d = _declined_wins("mcr", "W1 W2 W3 T4 T5 T6 B2 B3 B4 B6 B7 F3 F3", "B8", options={"min_fans": 4})
    assert d[1].shanten_after == 0 and not d[1].no_wait
    assert [(w.tile, w.self_drawn, w.on_discard, w.how) for w in d[1].waits] == [
        ("B5", True, False, "self-drawn only"), ("B8", True, False, "self-drawn only")]


def test_a_shape_wait_without_a_chip_pattern_is_not_ready():
    # W234 W55 T123 B123 B67: B5 or B8 complete it with none of the 12 patterns of
    # competition.md §A6.2 — 无番禁和牌 (§A6.1.2): not ready. Discarding W4 instead waits on
    # W1 (W123 T123 B123: 全小, §A6.2 #9) and W4 (nothing): ready on W1 alone.
    d = _declined_wins("cjm_chips", "W2 W3 W4 W5 W5 T1 T2 T3 B1 B2 B3 B6 B7", "B8",
                       initial_scores=[100, 100, 100, 100])
    assert d[1].shanten_after == 1 and d[1].no_wait and not d[1].waits
    w4 = next(o for o in d[1].options if o.tile == "W4")
    assert w4.shanten == 0 and [w.tile for w in w4.waits] == ["W1"] and d[1].best == ("W4",)


def test_review_json_and_text_say_the_legal_waits(tmp_path):
    from replayer.review import review_json

    from replay_builder import GameBuilder

    g = GameBuilder(ruleset="mcr", options={"min_fans": 4})
    g.hand(0, dealer=0)
    for seat, tiles in enumerate((_SEAT_0, "W1 W2 W3 T4 T5 T6 B2 B3 B4 B6 B7 F3 F3", _SEAT_2, _SEAT_3)):
        g.deal(seat, tiles)
    g.discard(0, "J3")
    g.draw(1, "B8")
    g.discard(1, "B8")
    j = review_json(review_game(g.events(), seats=(1,)))
    d = j["hands"][0]["discards"][0]
    assert d["waits"] == [{"tile": "B5", "self_drawn": True, "on_discard": False},
                          {"tile": "B8", "self_drawn": True, "on_discard": False}]
    assert d["no_wait"] == "" and j["hands"][0]["ready_turn"] == 1
    # the command line says the waits and that each wins self-drawn only
    from typer.testing import CliRunner

    from paipu.cli import app

    _stored(tmp_path, "g1", g._with_walls())
    res = CliRunner().invoke(app, ["review", "g1", "--seat", "1", "--data", str(tmp_path)], catch_exceptions=False)
    assert res.exit_code == 0
    line = next(x for x in res.stdout.splitlines() if "discard" in x and "B8:" in x)
    assert "-> ready (听牌) on 🀝 B5 (self-drawn only) 🀠 B8 (self-drawn only)," in line, line
