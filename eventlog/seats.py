"""Seats at the table: four seats 0..3 in turn order (DESIGN.md §3: the seat after ``s`` in
play is its 下家). Some rulesets let seats leave a hand before it ends (血战到底: a winner
takes no further part); ``in_hand[s]`` says whether seat ``s`` still plays.

:func:`next_seat` is the one answer to "who is next": the replayer's turn, claims and the
exhaustion of a seat's wall, legal actions, the simulator and the ingest builder all ask it.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["SEATS", "ALL_IN", "next_seat", "seats_after", "distance"]

SEATS = 4
ALL_IN: tuple[bool, bool, bool, bool] = (True, True, True, True)


def next_seat(seat: int, in_hand: Sequence[bool] = ALL_IN) -> int:
    """The first seat after ``seat`` in turn order that is still in the hand; ``seat``
    itself when no other seat is (``seat`` need not be in the hand)."""
    for k in range(1, SEATS):
        s = (seat + k) % SEATS
        if in_hand[s]:
            return s
    return seat


def seats_after(seat: int, in_hand: Sequence[bool] = ALL_IN) -> tuple[int, ...]:
    """The other seats still in the hand, in turn order after ``seat`` (claims on a discard
    are offered in this order: the nearest first)."""
    return tuple(s for s in ((seat + k) % SEATS for k in range(1, SEATS)) if in_hand[s])


def distance(seat: int, origin: int) -> int:
    """How far ``seat`` comes after ``origin`` in turn order (0 = ``origin`` itself, 1 = its
    下家 …): "nearer to the discarder" compares these."""
    return (seat - origin) % SEATS
