"""A small ruleset defined inside the tests (issue 14 item 7): a hand that goes on after a
win (血战到底-like), to drive the table model before any real such ruleset exists.

``blood_test``: 136 tiles, no flowers, no chow; any regular shape (sets + a pair), seven
pairs or thirteen orphans wins for 1 point — the discarder (or the robbed konger) pays the
winner 1, a self-drawn win is paid 1 by every other seat still in the hand. Options (a
pydantic model refusing unknown names): ``hand_end`` / ``hand_end_winners`` /
``winners_per_discard`` as in PlayRules, ``dead_wall`` (tiles never drawn: a short wall
makes an exhaustive draw easy to write), ``hands`` (hands per game).

Its own event type ``blood_test.void_suit_declared`` (like Sichuan's 定缺): during the deal a
seat declares a suit it will not win with; a win holding that suit is a false win
(``void_suit``). The protobuf message is built here from a descriptor (a real ruleset writes
proto/paipu/v1/<id>_events.proto and regenerates with scripts/gen_proto.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Literal

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from pydantic import BaseModel, ConfigDict

from eventlog import events as ev

from eventlog import tiles as T
from replayer.rules.base import (
    MECHANICS_SOURCES,
    HandPlan,
    PlayRules,
    RulesetDefaults,
    RulesetSpec,
    WinContext,
    WinScore,
    register,
    standard_shape,
    standard_tile_copies,
)
from replayer.context import Ctx, need_game
from replayer.findings import Breach
from replayer.state import DeclaredMeld, Payment, Settlement, TableState, replace

RULESET_ID = "blood_test"
SOURCE = "tests/replayer/continuing_ruleset.py (a test ruleset)"


def _proto_message() -> Any:
    """``paipu.v1.blood_test.VoidSuitDeclared {uint32 seat = 1; string suit = 2;}``."""
    f = descriptor_pb2.FieldDescriptorProto
    fdp = descriptor_pb2.FileDescriptorProto(name="paipu/v1/blood_test_events.proto",
                                             package="paipu.v1.blood_test", syntax="proto3")
    m = fdp.message_type.add(name="VoidSuitDeclared")
    m.field.add(name="seat", number=1, type=f.TYPE_UINT32, label=f.LABEL_OPTIONAL)
    m.field.add(name="suit", number=2, type=f.TYPE_STRING, label=f.LABEL_OPTIONAL)
    pool = descriptor_pool.Default()
    try:
        desc = pool.FindMessageTypeByName("paipu.v1.blood_test.VoidSuitDeclared")
    except KeyError:
        pool.Add(fdp)
        desc = pool.FindMessageTypeByName("paipu.v1.blood_test.VoidSuitDeclared")
    return message_factory.GetMessageClass(desc)


class VoidSuitDeclared(ev.Payload):
    """A seat declares the suit it will not hold when it wins (W, T or B)."""

    TYPE: ClassVar[str] = "blood_test.void_suit_declared"
    PROTO: ClassVar[Any] = _proto_message()
    seat: ev.Seat
    suit: Literal["W", "T", "B"]


@dataclass(frozen=True)
class BloodMemory:
    """The declared void suit of each seat this hand (None: not declared)."""

    void: tuple[str | None, str | None, str | None, str | None] = (None, None, None, None)


def void_suit_declared(ctx: Ctx, state: TableState, p: VoidSuitDeclared) -> TableState:
    """The one handler of ``blood_test.void_suit_declared``: during the deal, once per seat."""
    if not need_game(ctx, state):
        return state
    if state.phase != "dealing":
        ctx.breach("void_suit_out_of_phase", f"seat {p.seat} declares a void suit in phase {state.phase!r}", p.seat)
    mem = state.rule_memory if isinstance(state.rule_memory, BloodMemory) else BloodMemory()
    if mem.void[p.seat] is not None:
        ctx.breach("void_suit_twice", f"seat {p.seat} declares a void suit again", p.seat)
    void = list(mem.void)
    void[p.seat] = p.suit
    return replace(state, rule_memory=BloodMemory((void[0], void[1], void[2], void[3])))


class BloodOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    hand_end: Literal["first_win", "winners", "one_seat_left"] = "one_seat_left"
    hand_end_winners: int = 3
    winners_per_discard: int = 3
    dead_wall: int = 0
    hands: int = 1
    kong_replacements: int = 1
    flower_tiles: tuple[str, ...] | None = None


@dataclass(frozen=True)
class BloodRuleset(RulesetDefaults):
    options: BloodOptions
    id: str = RULESET_ID

    @cached_property
    def play(self) -> PlayRules:
        o = self.options
        return PlayRules(tile_copies=standard_tile_copies(flowers=False), chow="none", dead_wall=o.dead_wall,
                         winners_per_discard=o.winners_per_discard, hand_end=o.hand_end,
                         hand_end_winners=o.hand_end_winners, kong_replacements=o.kong_replacements,
                         flower_tiles=o.flower_tiles)

    def options_dict(self) -> dict[str, Any]:
        return self.options.model_dump()

    def seat_wind(self, seat: int, dealer: int) -> str:
        return T.WINDS[(seat - dealer) % 4]

    def next_hand(self, state: TableState) -> HandPlan | None:
        if len(state.hands) >= self.options.hands:
            return None
        first = state.first_dealer if state.first_dealer is not None else 0
        return HandPlan(dealer=(first + len(state.hands)) % 4, prevalent_wind="F1")

    def observe(self, before: TableState, payload: Any, after: TableState) -> tuple[TableState, list[Breach]]:
        if isinstance(payload, ev.HandStarted):
            return replace(after, rule_memory=BloodMemory()), []
        return after, []

    def score_win(self, state: TableState, win: WinContext) -> WinScore:
        mem = state.rule_memory
        suit = mem.void[win.seat] if isinstance(mem, BloodMemory) else None
        held = [*win.concealed, win.tile, *(t for m in win.melds for t in m.tiles)]
        if suit is not None and any(t[0] == suit for t in held):
            return WinScore(False, 0, rule_id="void_suit", message=f"the hand holds its declared void suit {suit}")
        counts = [0] * 34
        for t in (*win.concealed, win.tile):
            counts[T.index(t)] += 1
        if standard_shape(tuple(counts), len(win.melds)):
            return WinScore(True, 1)
        return WinScore(False, 0, rule_id="false_win", message="not a winning hand")

    def settle_win(self, state: TableState, win: WinContext, score: WinScore) -> Settlement:
        if win.from_seat is not None:
            return Settlement.from_payments([Payment(win.from_seat, win.seat, 1, "win")])
        return Settlement.from_payments([Payment(s, win.seat, 1, "self-drawn win")
                                         for s in range(4) if s != win.seat and state.in_hand[s]])

    def settle_kong(self, state: TableState, seat: int, meld: DeclaredMeld) -> Settlement | None:
        return None

    def settle_exhaustive_draw(self, state: TableState) -> Settlement | None:
        return None

    def false_win_penalty(self, state: TableState, seat: int) -> Settlement | None:
        return None

    def rule_source(self, rule_id: str) -> str:
        return f"{SOURCE}: {rule_id}" if rule_id == "seat_out_of_hand" else MECHANICS_SOURCES.get(rule_id, SOURCE)


def build(raw: Mapping[str, Any]) -> BloodRuleset:
    return BloodRuleset(BloodOptions.model_validate(dict(raw)))


RULESET = register(RulesetSpec(id=RULESET_ID, description="a test ruleset: the hand goes on after a win",
                               options_model=BloodOptions, build=build,
                               events=((VoidSuitDeclared, void_suit_declared),)))
