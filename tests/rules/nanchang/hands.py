"""Helpers for Nanchang hand tests: hands in the project notation (W/T/B 1-9, F1-4, J1-3)."""

from __future__ import annotations

from eventlog import tiles as T
from replayer.rules.nanchang.evaluate import WinInput, evaluate
from replayer.rules.nanchang.jing import jing_kinds
from replayer.rules.nanchang.options import NanchangOptions
from replayer.rules.nanchang.settlement import MeldInfo


def tl(text: str) -> tuple[str, ...]:
    return tuple(T.parse(text))


def win(concealed: str, tile: str, *, indicator: str, source: str = "self_drawn", seat: int = 1, dealer: int = 0,
        from_seat: int | None = None, melds: tuple[MeldInfo, ...] = (), options: NanchangOptions | None = None,
        nobody: bool = False, **flags):
    if source != "self_drawn" and from_seat is None:
        from_seat = (seat + 3) % 4
    w = WinInput(tl(concealed), melds, tile, source, seat, dealer, from_seat, **flags)
    options = options or NanchangOptions()
    return evaluate(w, jing_kinds(indicator, options.jing_mode), options, nobody_holds_jing=nobody)
