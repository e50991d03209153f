"""Nanchang's own table events, each with its one handler, registered with the ruleset
(``RulesetSpec.events``) and played by the Jiangxi presets whose options enable them; their
protobuf messages are in proto/paipu/v1/nanchang_events.proto, carried in ``RulesetEvent``:

* ``nanchang.six_pairs_shown`` — 六对摊牌, six pairs laid down at one's own turn
  (docs/reference/rules/jiangxi_variants.md §5, §13.12; option ``qidui_early_show``, 景德镇);
* ``nanchang.bao_flown`` — 飞宝, a 宝 (one of the eight flowers, kept in the hand) discarded
  (§8, §13.17; option ``flower_bao``, 鹰潭);
* ``nanchang.bao_pung`` — a 宝 pung: two held 宝 and the one just flown (§8, §13.17).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import Field

from eventlog import events as ev
from paipu.v1 import nanchang_events_pb2
from replayer.accounting import take
from replayer.context import Ctx, need_game
from replayer.handlers.claims import add_meld, claim_discard
from replayer.handlers.tiles import tile_discarded
from replayer.state import DeclaredMeld, TableState, replace

__all__ = ["BaoFlown", "BaoPung", "SixPairsShown", "bao_flown", "bao_pung", "six_pairs_shown"]


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



class BaoFlown(ev.Payload):
    """飞宝: at its turn ``seat`` discards ("flies") the 宝 ``tile`` — one of the eight flowers,
    which under ``flower_bao`` are kept in the hand, never set aside (jiangxi_variants.md §8,
    §13.17). A discard in every other respect (the turn passes, claims are open: only a 宝
    pung takes it); each 宝 the winner flew doubles its win with ``fly_bao_doubling``."""

    TYPE: ClassVar[str] = "nanchang.bao_flown"
    PROTO: ClassVar[Any] = nanchang_events_pb2.NanchangBaoFlown
    seat: ev.Seat
    tile: ev.FlowerTile


def bao_flown(ctx: Ctx, state: TableState, p: BaoFlown) -> TableState:
    """The one handler of ``nanchang.bao_flown``: without ``flower_bao`` a finding
    ``flower_bao``; then the table's own discard (replayer/handlers/tiles.py: turn, tile
    held, hand size, the river, claims open) — one mechanism for every discard."""
    if not need_game(ctx, state):
        return state
    if not getattr(ctx.ruleset.options, "flower_bao", False):
        ctx.breach("flower_bao", f"seat {p.seat} flies {p.tile}, but option flower_bao is off", p.seat)
    # the core's discard event admits playing tiles only; its handler takes any held tile
    return tile_discarded(ctx, state, ev.TileDiscarded.model_construct(seat=p.seat, tile=p.tile))


class BaoPung(ev.Payload):
    """A 宝 pung: ``seat``, holding two 宝, claims the 宝 just flown (``discard_seq``: the seq
    of that ``nanchang.bao_flown``); ``tiles``: the three distinct flowers of the meld
    (jiangxi_variants.md §8 "wait for others' flown 宝 to pon", §13.17; data README: a pung of
    three distinct flowers, the third claimed from a flown 宝)."""

    TYPE: ClassVar[str] = "nanchang.bao_pung"
    PROTO: ClassVar[Any] = nanchang_events_pb2.NanchangBaoPung
    seat: ev.Seat
    tiles: Annotated[list[ev.FlowerTile], Field(min_length=3, max_length=3)]
    discard_seq: ev.Seq


def bao_pung(ctx: Ctx, state: TableState, p: BaoPung) -> TableState:
    """The one handler of ``nanchang.bao_pung``: a finding ``flower_bao`` without the option,
    for tiles that are not three different flowers or do not include the flown one; the
    claim's own checks are the table's (replayer/handlers/claims.py ``claim_discard``: the
    latest open discard, another seat's, priority); the seat's two other 宝 leave its hand
    and the meld is declared; the seat discards next."""
    if not need_game(ctx, state):
        return state
    seat = p.seat
    if not getattr(ctx.ruleset.options, "flower_bao", False):
        ctx.breach("flower_bao", f"seat {seat} declares a 宝 pung, but option flower_bao is off", seat)
    found = state.find_discard(p.discard_seq)
    flown = found[2].tile if found is not None else None
    if len(set(p.tiles)) != 3 or flown not in p.tiles:
        ctx.breach("flower_bao", f"seat {seat}'s 宝 pung {' '.join(p.tiles)} is not three different 宝 with the "
                                 f"flown {flown}", seat)
    claimed = flown if flown in p.tiles else p.tiles[0]
    state, discarder = claim_discard(ctx, state, seat, p.discard_seq, claimed, "pung")
    own = list(p.tiles)
    own.remove(claimed)
    for t in own:
        state = take(ctx, state, seat, t)
    meld = DeclaredMeld("pung", tuple(p.tiles), ctx.seq, claimed, discarder, p.discard_seq)
    state = add_meld(state, seat, meld)
    return replace(state, phase="discard", turn=seat, pending=None, last_draw=None)
