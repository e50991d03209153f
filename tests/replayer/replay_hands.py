"""The hand-written hands shared by the replayer tests (each one is described where built)."""

from __future__ import annotations

from replay_builder import GameBuilder


def legal_hand(*, wall: bool = False, options: dict | None = None) -> tuple[GameBuilder, dict[str, int]]:
    """Hand 0, dealer seat 0, East round. Chow, pung, a concealed, a melded and an added
    kong, flowers in the deal and in play; seat 1 wins self-drawn after a flower
    replacement. Returns the builder and the seq of the named discards."""
    g = GameBuilder(options=options)
    s: dict[str, int] = {}
    g.hand(0, dealer=0, wind="F1", wall=wall)
    g.deal(0, "W3 T5 H1 B1 B2 B3 B4 B5 B6 T1 T1 F4 F4 J3")
    g.deal(1, "W1 W2 W4 W5 W6 W7 W8 W9 J1 J1 F2 T9 B8")
    g.deal(2, "B9 B9 B9 B9 F3 F3 T2 T3 T4 T6 T7 T8 B7")
    g.deal(3, "T5 T5 T5 J1 T6 T7 B2 B3 F1 F1 J2 J2 W9")
    g.flower(0, "H1", "F4")
    s["d_w3"] = g.discard(0, "W3")
    g.chow(1, "W1 W2 W3", "W3", s["d_w3"])
    s["d_t9"] = g.discard(1, "T9")
    g.draw(2, "H5")
    g.flower(2, "H5", "B7")
    g.kong(2, "concealed", "B9")
    g.draw(2, "T9", "kong_replacement")
    s["d_t9b"] = g.discard(2, "T9")
    g.draw(3, "W2")
    s["d_j1"] = g.discard(3, "J1")
    g.pung(1, "J1", s["d_j1"])
    s["d_b8"] = g.discard(1, "B8")
    g.draw(2, "J2")
    s["d_j2"] = g.discard(2, "J2")
    g.pung(3, "J2", s["d_j2"])
    s["d_w9"] = g.discard(3, "W9")
    g.draw(0, "B7")
    s["d_t5"] = g.discard(0, "T5")
    g.kong(3, "melded", "T5", s["d_t5"])
    g.draw(3, "J2", "kong_replacement")
    s["k_j2"] = g.kong(3, "added", "J2")
    g.draw(3, "T8", "kong_replacement")
    s["d_w2"] = g.discard(3, "W2")
    g.draw(0, "T1")
    s["d_j3"] = g.discard(0, "J3")
    g.draw(1, "H3")
    g.flower(1, "H3", "F2")
    s["win"] = g.win(1, "F2")
    return g, s


def robbing_hand(options: dict | None = None) -> tuple[GameBuilder, dict[str, int]]:
    """Seat 2 pungs B5 from seat 1, later draws the 4th B5 and adds it to a kong; seat 3,
    waiting on B5 (closed wait B4 _ B6), robs it (抢杠和)."""
    g = GameBuilder(options=options)
    s: dict[str, int] = {}
    g.hand(0, dealer=0, wind="F1")
    g.deal(0, "T1 T1 T1 T9 T9 T9 F1 F1 F1 J3 J3 J3 F4 T5")
    g.deal(1, "B5 B1 B1 B1 B2 B2 B2 B3 B3 B3 F3 F3 F3")
    g.deal(2, "B5 B5 B7 B7 B7 B8 B8 B8 T3 T3 T3 T4 T4")
    g.deal(3, "W1 W2 W3 W4 W5 W6 W7 W8 W9 B4 B6 T2 T2")
    g.discard(0, "T5")
    g.draw(1, "F2")
    s["d_b5"] = g.discard(1, "B5")
    g.pung(2, "B5", s["d_b5"])
    g.discard(2, "T4")
    g.draw(3, "J1")
    g.discard(3, "J1")
    g.draw(0, "J2")
    g.discard(0, "J2")
    g.draw(1, "F2")
    g.discard(1, "F2")
    g.draw(2, "B5")
    s["kong"] = g.kong(2, "added", "B5")
    s["win"] = g.win(3, "B5", from_seat=2, dseq=s["kong"], robbing=True)
    return g, s


def two_winners_hand(options: dict | None = None, *, order: tuple[int, ...] = (1, 3)) -> tuple[GameBuilder, dict[str, int]]:
    """The dealer's first discard B5 completes two hands: seat 1 (W1-W9, B4 B6, T2 T2:
    closed wait) and seat 3 (T1-T9, B3 B4, W5 W5: two-sided wait). ``order``: the order
    the two wins are recorded in."""
    g = GameBuilder(options=options)
    s: dict[str, int] = {}
    g.hand(0, dealer=0, wind="F1")
    g.deal(0, "B5 F1 F1 F1 F2 F2 F2 F3 F3 F3 J1 J1 J1 J2")
    g.deal(1, "W1 W2 W3 W4 W5 W6 W7 W8 W9 B4 B6 T2 T2")
    g.deal(2, "F4 F4 F4 J3 J3 J3 B7 B7 B7 B8 B8 B8 B9")
    g.deal(3, "T1 T2 T3 T4 T5 T6 T7 T8 T9 B3 B4 W5 W5")
    s["d_b5"] = g.discard(0, "B5")
    for seat in order:
        s[f"win{seat}"] = g.win(seat, "B5", from_seat=0, dseq=s["d_b5"])
    return g, s


HEAVENLY = "W1 W2 W3 W4 W5 W6 W7 W8 W9 J1 J1 J1 F2 F2"
OTHERS = ("T1 T1 T1 T1 T2 T2 T2 T2 T3 T3 T3 T3 T4",
          "B1 B1 B1 B1 B2 B2 B2 B2 B3 B3 B3 B3 B4",
          "T5 T5 T5 T5 T6 T6 T6 T6 T7 T7 T7 T7 T8")


def dealer_win_game(hands: int = 16, *, dealers: list[int] | None = None, options: dict | None = None,
                    game_id: str = "g16") -> GameBuilder:
    """``hands`` hands in which the dealer is dealt a complete hand and declares a self-drawn
    win at once (清龙 混一色 箭刻 不求人 单钓将). Dealer of hand n: ``dealers[n]`` or, by
    default, the seed 001 rotation (n mod 4), prevalent wind E, S, W, N by 4 hands."""
    g = GameBuilder(game_id, options=options)
    winds = ("F1", "F2", "F3", "F4")
    for n in range(hands):
        dealer = dealers[n] if dealers else n % 4
        g.hand(n, dealer=dealer, wind=winds[min(n // 4, 3)])
        g.deal(dealer, HEAVENLY)
        for k, tiles in enumerate(OTHERS):
            g.deal((dealer + 1 + k) % 4, tiles)
        g.win(dealer, "F2")
        g.end(n)
    return g
