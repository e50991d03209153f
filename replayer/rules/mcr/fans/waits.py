"""Wait fans (独听): Edge Wait 边张, Closed Wait 嵌张, Single Wait 单钓将.

They count only when the hand before the winning tile waited on that one tile alone; which of
the three applies is read from where the winning tile sits in the chosen reading (edge before
closed before single, one of them at most). The context computes ``ctx.wait``
(:mod:`.context`); for knitted straights see
:attr:`~replayer.rules.mcr.options.McrOptions.knitted_straight_waits`.
Source: shared/rules/competition.md Part B3.
"""

from __future__ import annotations

from .base import ON_WIN, Fan, WinContext, codes


def _wait(kind: str):
    def count(ctx: WinContext) -> int:
        return int(ctx.wait == kind)

    return count


def _wait_on(ctx: WinContext):
    """The set or pair that the winning tile completed."""
    w = ctx.win
    if ctx.wait == "single":
        return (codes((w, w)),)
    for kind, tiles in ctx.sets:
        if kind == "chow" and w in tiles:
            return (codes(tiles),)
    return (codes((w,)),)


FANS = (
    Fan(77, "edge_wait", "Edge Wait", "独听・边张", 1, _wait("edge"), _wait_on, reads=ON_WIN),
    Fan(78, "closed_wait", "Closed Wait", "独听・嵌张", 1, _wait("closed"), _wait_on, reads=ON_WIN),
    Fan(79, "single_wait", "Single Wait", "独听・单钓", 1, _wait("single"), _wait_on, reads=ON_WIN),
)
