"""Sichuan's own table events, each with its one handler, registered with the ruleset
(``RulesetSpec.events``); their protobuf messages are in proto/paipu/v1/sichuan_events.proto,
carried in ``RulesetEvent``:

* ``sichuan.void_suit_declared`` — 定缺, the void-suit declaration (§2, ``dingque_declared``);
* ``sichuan.ready_declared`` — 唱歌 / 跳舞, announcing a ready hand, with its waits shown for
  跳舞 (§5.2, ``declarations``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Literal

from eventlog import events as ev
from eventlog import tiles as T
from paipu.v1 import sichuan_events_pb2
from replayer.context import Ctx, need_game
from replayer.state import TableState

__all__ = ["ReadyDeclared", "VoidSuitDeclared", "ready_declared", "void_suit_declared"]


class VoidSuitDeclared(ev.Payload):
    """定缺: ``seat`` declares ``suit`` (W 万, T 条 or B 筒) void — it will hold none of it when
    it wins (§2, option ``dingque_declared``). Once per seat per hand, after the deal and
    before the dealer's first discard."""

    TYPE: ClassVar[str] = "sichuan.void_suit_declared"
    PROTO: ClassVar[Any] = sichuan_events_pb2.SichuanVoidSuitDeclared
    seat: ev.Seat
    suit: Literal["W", "T", "B"]

    def words(self, who: Callable[[int], tuple[str, str]]) -> tuple[str, str]:
        """``("East declares 万 void (定缺)", "东家定缺：万")``."""
        en, zh = who(self.seat)
        name = {"W": "万", "T": "条", "B": "饼"}[self.suit]
        return f"{en} declares {name} void (定缺)", f"{zh}定缺：{name}"


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


class ReadyDeclared(ev.Payload):
    """唱歌 / 跳舞: ``seat`` announces it is ready; ``waits`` shows its waiting tiles (跳舞),
    empty for 唱歌 (§5.2, option ``declarations``). A player who has not announced may not
    discard a dancer's winning tile."""

    TYPE: ClassVar[str] = "sichuan.ready_declared"
    PROTO: ClassVar[Any] = sichuan_events_pb2.SichuanReadyDeclared
    seat: ev.Seat
    waits: list[ev.PlayTile] = []

    def words(self, who: Callable[[int], tuple[str, str]]) -> tuple[str, str]:
        """唱歌 (no waits shown) or 跳舞 (waits shown)."""
        en, zh = who(self.seat)
        if not self.waits:
            return f"{en} announces a ready hand (唱歌)", f"{zh}唱歌（报听）"
        shown = T.to_unicode(list(self.waits)) + " " + " ".join(self.waits)
        return f"{en} announces a ready hand, waiting on {shown} (跳舞)", f"{zh}跳舞：听 {shown}"


def ready_declared(ctx: Ctx, state: TableState, p: ReadyDeclared) -> TableState:
    """The one handler of ``sichuan.ready_declared``: a finding without option
    ``declarations``, for a seat that is out of the hand or not ready, or for shown waits that
    are not its waits (§5.2); records the declaration in the ruleset's hand memory."""
    if not need_game(ctx, state):
        return state
    rs = ctx.ruleset
    if not getattr(rs.options, "declarations", False):
        ctx.breach("declarations_not_in_options", f"seat {p.seat} declares a ready hand, but option declarations "
                                                  "is off", p.seat)
    if state.phase not in ("discard", "claims", "dealing"):
        ctx.breach("event_out_of_phase", f"seat {p.seat} declares a ready hand in phase {state.phase!r}", p.seat)
    new, found = rs.declare_ready(state, p.seat, tuple(p.waits))  # type: ignore[attr-defined]
    for b in found:
        ctx.breach(b[0], b[1], b[2])
    return new
