"""Nanchang's own table events, each with its one handler, registered with the ruleset
(``RulesetSpec.events``) and played by the Jiangxi presets whose options enable them; their
protobuf messages are in proto/paipu/v1/nanchang_events.proto, carried in ``RulesetEvent``:

* ``nanchang.six_pairs_shown`` — 六对摊牌, six pairs laid down at one's own turn
  (docs/reference/rules/jiangxi_variants.md §5, §13.12; option ``qidui_early_show``, 景德镇).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import Field

from eventlog import events as ev
from paipu.v1 import nanchang_events_pb2
from replayer.context import Ctx, need_game
from replayer.state import TableState

__all__ = ["SixPairsShown", "six_pairs_shown"]


class SixPairsShown(ev.Payload):
    """六对摊牌: at its own turn ``seat``, with no declared sets, lays down six pairs (``tiles``:
    the 12 tiles). Each other seat pays it 1 (2 where the shower or the payer is the dealer)
    with the hand's settlement, whatever the outcome (component ``early_show``); the hand is
    then locked: the pairs stay and the seat makes no meld, though it may still win
    (jiangxi_variants.md §5, §13.12; tests/data/jiangxi/README.md)."""

    TYPE: ClassVar[str] = "nanchang.six_pairs_shown"
    PROTO: ClassVar[Any] = nanchang_events_pb2.NanchangSixPairsShown
    seat: ev.Seat
    tiles: Annotated[list[ev.PlayTile], Field(min_length=12, max_length=12)]


def six_pairs_shown(ctx: Ctx, state: TableState, p: SixPairsShown) -> TableState:
    """The one handler of ``nanchang.six_pairs_shown``: a finding ``qidui_early_show`` without
    the option, out of the seat's turn, with declared sets, a second time, or for tiles that
    are not six pairs the seat holds (the state is then unchanged); otherwise the ruleset
    remembers the shown pairs (:meth:`NanchangRuleset.show_six_pairs`)."""
    if not need_game(ctx, state):
        return state
    new, found = ctx.ruleset.show_six_pairs(state, p.seat, tuple(p.tiles))  # type: ignore[attr-defined]
    for b in found:
        ctx.breach(b.rule_id, b.message, b.seat)
    return new
