"""One test per scoring and settlement rule of docs/reference/rules/changsha.md §2, §3 and §5
(expected values worked from the rules text), and the options of §6."""

from __future__ import annotations

import pytest

from eventlog import tiles as T
from replayer.findings import RulesetError
from replayer.rules.changsha.dealer import next_dealer
from replayer.rules.changsha.evaluate import (
    DeclarationError,
    Unit,
    WinInput,
    check_declaration,
    evaluate_win,
    opening_holdings,
)
from replayer.rules.changsha.options import DEFAULT_OPTIONS as D
from replayer.rules.changsha.options import parse_options
from replayer.rules.changsha.settlement import (
    bird_seat,
    kong_money,
    pay,
    settle_opening,
    settle_winner,
)
from replayer.state import DeclaredMeld


def tiles(text: str) -> tuple[str, ...]:
    return tuple(T.parse(text))


def meld(kind: str, text: str, kong_kind: str | None = None, frm: int | None = 1) -> DeclaredMeld:
    return DeclaredMeld(kind=kind, tiles=tiles(text), seq=0, from_seat=None if kong_kind == "concealed" else frm,
                        kong_kind=kong_kind)


def units(concealed: str, win: str, *, melds=(), self_drawn=False, context="plain", options=D):
    ev = evaluate_win(WinInput(tiles(concealed), tuple(melds), win, self_drawn, context), options)
    return ev if not ev.legal else (ev.category, [(u.id, u.count) for u in ev.units])


# --- §3.1 small win: 4 sets + a pair of rank 2, 5 or 8 ------------------------------------------

def test_small_win_needs_a_258_pair():
    assert units("123m456p789s234s5m", "W5") == ("small", [("small_win", 1)])
    ev = units("123m456p789s234s3m", "W3")
    assert not ev.legal and ev.rule_id == "pair_not_258"


def test_not_a_winning_hand():
    ev = units("123m456p789s234s5m", "W9")
    assert not ev.legal and ev.rule_id == "not_a_winning_hand"


# --- §3.3 big wins ------------------------------------------------------------------------------

def test_heavenly_and_earthly_still_need_a_258_pair_without_a_shape():
    assert units("123m456p789s234s5m", "W5", self_drawn=True, context="heavenly") == ("big", [("heavenly", 1)])
    assert not units("123m456p789s234s3m", "W3", self_drawn=True, context="heavenly").legal  # 天胡不能乱将
    assert units("123m456p789s234s5m", "W5", context="earthly") == ("big", [("earthly", 1)])
    assert not units("123m456p789s234s3m", "W3", context="earthly").legal


def test_all_pungs_takes_any_pair():
    assert units("111777m4443s", "T3", melds=[meld("pung", "666p")], self_drawn=True) == ("big", [("all_pungs", 1)])
    # a chow among the melds: no 碰碰胡 and the pair 3s is not 2/5/8 -> no win
    assert not units("111777m4443s", "T3", melds=[meld("chow", "456p")]).legal


def test_all_258_needs_no_set_structure():
    # 2m 5m 8m 2s 5s 8s 2p 5p 8p ... all of rank 2/5/8 but no sets at all
    assert units("258m258s258p25m8s2p", "B8") == ("big", [("all_258", 1)])


def test_full_flush_with_any_pair_and_with_another_big_win_adds_one_unit():
    assert units("1112345678999s", "T3") == ("big", [("full_flush", 1)])  # 11 123 345 678 999: 乱将
    cat, us = units("1122334466779s", "T9")
    assert cat == "big" and us == [("full_flush", 1), ("seven_pairs", 1)]  # §7 Ex 5: 2 units


def test_haidi_wins():
    assert units("123m456p789s234s5m", "W5", self_drawn=True, context="haidi") == ("big", [("last_tile_draw", 1)])
    assert units("123m456p789s234s5m", "W5", context="haidi") == ("big", [("last_tile_claim", 1)])
    assert not units("123m456p789s234s3m", "W3", context="haidi").legal  # 2/5/8 unless a shape


def test_seven_pairs_and_luxury_seven_pairs():
    assert units("1133m2244p5566s7s", "T7") == ("big", [("seven_pairs", 1)])
    assert units("1111m2244p5566s7s", "T7") == ("big", [("luxury_seven_pairs", 1)])
    assert units("1111m2244p5566s7s", "T7", options=parse_options({"haohua_units": 2})) == (
        "big", [("luxury_seven_pairs", 2)])
    # two quartets: one 豪华 (§8.6)
    assert units("1111m2222p5566s7s", "T7") == ("big", [("luxury_seven_pairs", 1)])
    # a declared concealed kong is a meld: no seven pairs
    ev = units("2244p5566s79s", "T7", melds=[meld("kong", "1111m", "concealed")])
    assert not ev.legal


def test_kong_wins():
    assert units("123m456p789s234s5m", "W5", self_drawn=True, context="kaigang") == ("big", [("kong_replacement_win", 1)])
    assert units("123m456p789s234s5m", "W5", context="kaigang") == ("big", [("kong_reveal_claim", 1)])
    assert units("123m456p789s234s5m", "W5", context="robbed_kong") == ("big", [("robbing_the_kong", 1)])
    assert not units("123m456p789s234s3m", "W3", context="robbed_kong").legal


def test_all_melded_any_pair_self_drawn_or_discard():
    ms = [meld("chow", "123m"), meld("pung", "444p"), meld("chow", "789s"), meld("kong", "6666s", "concealed")]
    assert units("1s", "T1", melds=ms) == ("big", [("all_melded", 1)])
    assert units("1s", "T1", melds=ms, self_drawn=True) == ("big", [("all_melded", 1)])


def test_big_units_add_and_small_is_dropped_for_big():
    # 碰碰胡 + 清一色 (all in one suit, pungs) + 杠上开花 = 3 units
    cat, us = units("111222444s8s", "T8", melds=[meld("pung", "666s")], self_drawn=True, context="kaigang")
    assert cat == "big" and us == [("all_pungs", 1), ("full_flush", 1), ("kong_replacement_win", 1)]


# --- §3.2 opening small wins --------------------------------------------------------------------

def test_opening_holdings():
    # Ex 6: 333m 1m 5m 6m 9m 777p 2p 4p 8p — 缺一色 (no bamboo) and 六六顺
    assert opening_holdings(tiles("3331569m777248p")) == {"missing_suit": 1, "two_pungs": 1}
    # two quartets: 四喜 x2, and they are two pungs for 六六顺 (§8.5)
    assert opening_holdings(tiles("1111m3333p12345s")) == {"four_identical": 2, "two_pungs": 1}
    assert opening_holdings(tiles("1133m113467p134s")) == {"no_258": 1}


def test_declarations_are_checked():
    check_declaration("four_identical", tiles("7777p"), dealer=False)
    with pytest.raises(DeclarationError):
        check_declaration("four_identical", tiles("777p8p"), dealer=False)
    with pytest.raises(DeclarationError):  # the dealer shows 14 tiles
        check_declaration("no_258", tiles("1133m113467p134s"), dealer=True)
    with pytest.raises(DeclarationError):
        check_declaration("missing_suit", tiles("1133m113467p135s"), dealer=False)
    with pytest.raises(DeclarationError):
        check_declaration("two_pungs", tiles("333m7778p"), dealer=False)


# --- §5 payments, §5.1 birds --------------------------------------------------------------------

def test_payment_table_of_section_5():
    small, big = 10, 60
    # small self-draw by the dealer: 20 each; by a non-dealer: dealer 20, others 10
    assert pay(winner=0, discarder=None, units=1, value=small, dealer=0, hits_on=(), options=D)[0] == (60, -20, -20, -20)
    assert pay(winner=2, discarder=None, units=1, value=small, dealer=0, hits_on=(), options=D)[0] == (-20, -10, 40, -10)
    # small discard: 10, 20 if the discarder or the winner is the dealer
    assert pay(winner=1, discarder=2, units=1, value=small, dealer=0, hits_on=(), options=D)[0] == (0, 10, -10, 0)
    assert pay(winner=1, discarder=0, units=1, value=small, dealer=0, hits_on=(), options=D)[0] == (-20, 20, 0, 0)
    assert pay(winner=0, discarder=3, units=1, value=small, dealer=0, hits_on=(), options=D)[0] == (20, 0, 0, -20)
    # big: 70 / 70-60 / 60-70
    assert pay(winner=0, discarder=None, units=1, value=big, dealer=0, hits_on=(), options=D)[0] == (210, -70, -70, -70)
    assert pay(winner=1, discarder=None, units=1, value=big, dealer=0, hits_on=(), options=D)[0] == (-70, 190, -60, -60)
    assert pay(winner=1, discarder=2, units=1, value=big, dealer=0, hits_on=(), options=D)[0] == (0, 60, -60, 0)
    # k units: base = units x value, surcharge once (Ex 5: 2 x 60 + 10)
    assert pay(winner=1, discarder=0, units=2, value=big, dealer=0, hits_on=(), options=D)[0] == (-130, 130, 0, 0)


def test_bird_seat_counts_from_the_dealer():
    # 1,5,9 -> dealer; 2,6 -> 下家; 3,7 -> 对家; 4,8 -> 上家
    assert [bird_seat(r, 2) for r in range(1, 10)] == [2, 3, 0, 1, 2, 3, 0, 1, 2]


def test_bird_effects():
    # discard: a bird on the winner or the discarder doubles the discarder's payment
    assert pay(winner=1, discarder=2, units=1, value=10, dealer=0, hits_on=(2,), options=D) == ((0, 10, -10, 0), (0, 10, -10, 0))
    assert pay(winner=1, discarder=2, units=1, value=10, dealer=0, hits_on=(3,), options=D)[1] == (0, 0, 0, 0)
    # self-draw: on the winner every payer doubles; on another player only that one
    assert pay(winner=2, discarder=None, units=1, value=10, dealer=0, hits_on=(2,), options=D)[1] == (-20, -10, 40, -10)
    assert pay(winner=2, discarder=None, units=1, value=10, dealer=0, hits_on=(0,), options=D)[1] == (-20, 0, 20, 0)
    # several birds: add = one more single amount per hit; multiply = doubling per hit
    assert pay(winner=1, discarder=2, units=1, value=10, dealer=0, hits_on=(1, 2), options=D)[1] == (0, 20, -20, 0)
    mult = parse_options({"bird_mode": "multiply", "birds": 2})
    assert pay(winner=1, discarder=2, units=1, value=10, dealer=0, hits_on=(1, 2), options=mult)[1] == (0, 30, -30, 0)
    # the dealer surcharge is doubled too, unless bird_excludes_dealer_bonus
    assert pay(winner=1, discarder=0, units=1, value=60, dealer=0, hits_on=(1,), options=D)[1] == (-70, 70, 0, 0)
    excl = parse_options({"bird_excludes_dealer_bonus": True})
    assert pay(winner=1, discarder=0, units=1, value=60, dealer=0, hits_on=(1,), options=excl)[1] == (-60, 60, 0, 0)


def test_bird_origin_winner():
    opts = parse_options({"bird_origin": "winner"})
    ev = evaluate_win(WinInput(tiles("123m456p789s234s5m"), (), "W5", False, "plain"), opts)
    # rank 1 counted from the winner (seat 3) hits the winner
    assert settle_winner(3, ev, discarder=1, dealer=0, birds=("T1",), options=opts).bird_seats == (3,)
    assert settle_winner(3, ev, discarder=1, dealer=0, birds=("T1",), options=D).bird_seats == (0,)


def test_opening_wins_pay_as_small_self_draws_units_added():
    # Ex 6: W (seat 2) 六六顺 + 缺一色 -> E 30, S 20, N 20
    us = (Unit("missing_suit", 1, ()), Unit("two_pungs", 1, ()))
    res = settle_opening(2, us, dealer=0, dice=None, options=D)
    assert res.opening == (-30, -20, 70, -20) and res.opening_bird == (0, 0, 0, 0) and res.bird_seat is None
    # opening_bird = dice: sum 5 from the dealer hits the dealer -> the dealer pays double
    dice = parse_options({"opening_bird": "dice"})
    res = settle_opening(2, us, dealer=0, dice=5, options=dice)
    assert res.bird_seat == 0 and res.opening_bird == (-30, 0, 30, 0)


def test_kong_money_points_from_each_other_seat():
    opts = parse_options({"kong_pay": {"ming": 5, "an": 10}})
    assert kong_money(1, "melded", opts) == (-5, 15, -5, -5)
    assert kong_money(1, "added", opts) == (-5, 15, -5, -5)
    assert kong_money(3, "concealed", opts) == (-10, -10, -10, 30)
    assert kong_money(3, "concealed", D) == (0, 0, 0, 0)


# --- §2 dealer ----------------------------------------------------------------------------------

def test_dealer_rules():
    nd = lambda **kw: next_dealer(dealer=0, start_winners=kw.pop("sw", ()), start_bird_rank=kw.pop("sb", None),
                                  winners=kw.pop("w", ()), discarder=kw.pop("d", None), **kw)
    assert nd(w=[2]) == (nd(w=[2]).__class__(2, "B"))
    assert (nd(w=[1, 3], d=2).seat, nd(w=[1, 3], d=2).rule) == (2, "F")
    assert (nd(haidi_first_offered=1, haidi_taker=3).seat, nd(haidi_first_offered=1, haidi_taker=3).rule) == (3, "C")
    assert nd(haidi_first_offered=1).rule == "D" and nd(haidi_first_offered=1).seat == 1
    assert nd(last_replacement=2).rule == "E"
    # G: two seats won at the start and a start bird of rank 3 -> 对家 of the dealer, even after a win
    g = nd(sw={1, 3}, sb=3, w=[2])
    assert (g.seat, g.rule) == (2, "G")
    # one seat at the start, or no start bird: A-F
    assert nd(sw={1}, sb=3, w=[2]).rule == "B"
    assert nd(sw={1, 3}, sb=None, w=[2]).rule == "B"


# --- §6 options ---------------------------------------------------------------------------------

def test_options_defaults_and_refusals():
    assert (D.unit, D.birds, D.bird_origin, D.bird_mode, D.bird_excludes_dealer_bonus, D.opening_bird,
            D.kong_pay.ming, D.kong_pay.an, D.haohua_units, D.extra_opening_wins) == (
        10, 1, "dealer", "add", False, "none", 0, 0, 1, ())
    for bad in ({"birds": 3}, {"bird_origin": "east"}, {"unit": 0}, {"kong_pay": {"ming": -1}},
                {"extra_opening_wins": ["节节高"]}, {"no_such": 1}, {"haohua_units": 3}):
        with pytest.raises(RulesetError):
            parse_options(bad)
    with pytest.raises(RulesetError, match="§8.15"):
        parse_options({"extra_opening_wins": ["三同"]})
