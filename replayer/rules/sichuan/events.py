"""Sichuan's own table events (docs/reference/rules/sichuan.md §2): 定缺, the void-suit
declaration, with its one handler. Registered with the ruleset (``RulesetSpec.events``); the
protobuf message is ``paipu.v1.SichuanVoidSuitDeclared`` (proto/paipu/v1/sichuan_events.proto),
carried in ``RulesetEvent``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from eventlog import events as ev
from paipu.v1 import sichuan_events_pb2
from replayer.context import Ctx, need_game
from replayer.state import TableState

__all__ = ["VoidSuitDeclared", "void_suit_declared"]


class VoidSuitDeclared(ev.Payload):
    """定缺: ``seat`` declares ``suit`` (W 万, T 条 or B 筒) void — it will hold none of it when
    it wins (§2, option ``dingque_declared``). Once per seat per hand, after the deal and
    before the dealer's first discard."""

    TYPE: ClassVar[str] = "sichuan.void_suit_declared"
    PROTO: ClassVar[Any] = sichuan_events_pb2.SichuanVoidSuitDeclared
    seat: ev.Seat
    suit: Literal["W", "T", "B"]


def void_suit_declared(ctx: Ctx, state: TableState, p: VoidSuitDeclared) -> TableState:
    """The one handler of ``sichuan.void_suit_declared``: records the suit in the ruleset's
    hand memory; a declaration without ``dingque_declared``, a second one, or one after the
    dealer's first discard is a finding (§2)."""
    if not need_game(ctx, state):
        return state
    rs = ctx.ruleset
    if not getattr(rs.options, "dingque_declared", False):
        ctx.breach("void_suit_not_in_options", f"seat {p.seat} declares a void suit, but option dingque_declared is off",
                   p.seat)
    if state.phase != "dealing":
        ctx.breach("void_suit_out_of_phase", f"seat {p.seat} declares its void suit in phase {state.phase!r}; "
                                             "定缺 comes after the deal, before the dealer's first discard", p.seat)
    new, found = rs.declare_void(state, p.seat, p.suit)  # type: ignore[attr-defined]
    for b in found:
        ctx.breach(b[0], b[1], b[2])
    return new
