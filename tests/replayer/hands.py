"""The hand-written hands shared by the replayer tests (each one is described where built)."""

from __future__ import annotations

from tests.replayer.builder import GameBuilder


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
