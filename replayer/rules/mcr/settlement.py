"""MCR settlement: who pays whom after a win (1998 scoring formula) or a false win.

Source: seed 001 (和牌方的得分＝（底分+基本分）×3 for a self-draw; ＝底分×3+基本分（点炮者付）
on a discard), shared/rules/competition.md §B2:

* self-drawn (自摸): **each** of the three others pays ``8 + P``;
* on a discard (点和): each of the three others pays the base ``8``; the discarder also
  pays ``P``;
* robbing a kong (抢杠和) is a win on the konger's tile: the konger pays as the discarder
  (seed 003: 依靠 … 抢杠而和牌均为点和，… 被抢杠的一方称为"放炮者").

``P`` (基本分) is the fan total *with* flowers (1 point each; flowers add to P but not to
the 8-fan minimum, competition.md §B2). Every settlement is zero-sum (asserted by
:class:`replayer.state.Settlement`).
"""

from __future__ import annotations

from replayer.state import Payment, Settlement

BASE_POINTS = 8  # 底分 (seed 001)
#: the rule text behind a win's payments and a false win's (a payment's ``source``: a
#: disputed score names the rule that decides it, replayer/itemized.py)
WIN_SOURCE = "docs/reference/rules/competition.md §B2 (seed 001: 底分 8 + 基本分 P)"
FALSE_WIN_SOURCE = "docs/reference/rules/competition.md §B1, §A9 (错和; the amount: option false_win_penalty_points)"


def settle_win(
    winner: int, points: int, *, self_drawn: bool, discarder: int | None, base: int = BASE_POINTS,
    robbed_kong: bool = False,
) -> Settlement:
    """Score changes of an MCR win worth ``points`` (P, flowers included).

    ``discarder``: the seat that discarded the winning tile (or whose added kong was
    robbed, ``robbed_kong``: it pays as the discarder, and its payment says so); None when
    self-drawn. Raises ValueError for inconsistent seats."""
    if not 0 <= winner <= 3:
        raise ValueError(f"winner must be a seat 0..3, got {winner}")
    if points < 0:
        raise ValueError(f"fan points cannot be negative, got {points}")
    others = [s for s in range(4) if s != winner]
    if self_drawn:
        if discarder is not None:
            raise ValueError("a self-drawn win has no discarder")
        pays = [Payment(s, winner, base + points, f"self-drawn: {base} + {points}", WIN_SOURCE) for s in others]
    else:
        if discarder is None or discarder == winner or not 0 <= discarder <= 3:
            raise ValueError(f"a win on a discard needs a discarder other than the winner, got {discarder}")
        pays = [
            Payment(s, winner, base + points,
                    f"{'robbed kong (as the discarder)' if robbed_kong else 'discarder'}: {base} + {points}", WIN_SOURCE)
            if s == discarder
            else Payment(s, winner, base, f"base: {base}", WIN_SOURCE)
            for s in others
        ]
    return Settlement.from_payments(pays)


def false_win_penalty(offender: int, per_player: int) -> Settlement:
    """The false-win (错和) penalty: the offender pays ``per_player`` to each of the three
    others (10 each → −30 / +10 +10 +10 with the default option)."""
    if per_player < 0:
        raise ValueError(f"penalty points cannot be negative, got {per_player}")
    return Settlement.from_payments(
        [Payment(offender, s, per_player, "false win (错和)", FALSE_WIN_SOURCE) for s in range(4) if s != offender]
    )
