"""Who deals the next Changsha hand (docs/reference/rules/changsha.md §2, rules A–G, and §8.12).

A. the first hand: given by the log (random). B. the winner. C. the 海底 taker when nobody won.
D. the first seat offered the 海底 when everybody passed it. E. the seat that drew the last
tile as a kong replacement (no 海底). F. 通炮 (several winners on one tile): the discarder.
G. two or more seats won at the start (opening small wins, 天胡): the seat the start bird hits —
the opening dice bird, else the 天胡's first bird, counted from the dealer (§8.12); without such
a bird A–F decide. G, when it applies, decides even if someone wins later.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from replayer.rules.changsha.settlement import bird_seat

__all__ = ["NextDealer", "next_dealer"]

DealerRule = Literal["B", "C", "D", "E", "F", "G"]


@dataclass(frozen=True)
class NextDealer:
    """The next hand's dealer ``seat`` and the ``rule`` letter of §2 that decided it."""

    seat: int
    rule: DealerRule


def next_dealer(*, dealer: int, start_winners: Collection[int], start_bird_rank: int | None,
                winners: Sequence[int], discarder: int | None,
                haidi_first_offered: int | None = None, haidi_taker: int | None = None,
                last_replacement: int | None = None) -> NextDealer:
    """Apply §2 G, then B/F (a win), then C/D/E (an exhaustive draw).

    ``start_winners``: seats that won at the start (declarers of opening small wins, the dealer
    for 天胡); ``start_bird_rank``: the rank of the start bird (the opening dice sum, or the
    天胡's first bird tile), None when there is none. ``winners``/``discarder``: the hand's
    winners and the seat that paid for their tile (None for a self-draw). For a draw:
    ``haidi_first_offered``/``haidi_taker`` or, without a 海底, ``last_replacement``. Raises
    ValueError when a draw names none of them."""
    if len(set(start_winners)) >= 2 and start_bird_rank is not None:
        return NextDealer(bird_seat(start_bird_rank, dealer), "G")
    if winners:
        if len(winners) == 1:
            return NextDealer(winners[0], "B")
        if discarder is None:
            raise ValueError("several winners need the discarder (通炮)")
        return NextDealer(discarder, "F")
    if haidi_taker is not None:
        return NextDealer(haidi_taker, "C")
    if haidi_first_offered is not None:
        return NextDealer(haidi_first_offered, "D")
    if last_replacement is not None:
        return NextDealer(last_replacement, "E")
    raise ValueError("an exhaustive draw needs the 海底 (first offered / taker) or the last replacement drawer")
