"""A small ruleset defined inside the tests (issue 14 item 7): a hand that goes on after a
win (血战到底-like), to drive the table model before any real such ruleset exists.

``blood_test``: 136 tiles, no flowers, no chow; any regular shape (sets + a pair), seven
pairs or thirteen orphans wins for 1 point — the discarder (or the robbed konger) pays the
winner 1, a self-drawn win is paid 1 by every other seat still in the hand. Options (a
pydantic model refusing unknown names): ``hand_end`` / ``hand_end_winners`` /
``winners_per_discard`` as in PlayRules, ``dead_wall`` (tiles never drawn: a short wall
makes an exhaustive draw easy to write), ``hands`` (hands per game).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

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
from replayer.state import DeclaredMeld, Payment, Settlement, TableState

RULESET_ID = "blood_test"
SOURCE = "tests/replayer/continuing_ruleset.py (a test ruleset)"


class BloodOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    hand_end: Literal["first_win", "winners", "one_seat_left"] = "one_seat_left"
    hand_end_winners: int = 3
    winners_per_discard: int = 3
    dead_wall: int = 0
    hands: int = 1


@dataclass(frozen=True)
class BloodRuleset(RulesetDefaults):
    options: BloodOptions
    id: str = RULESET_ID

    @cached_property
    def play(self) -> PlayRules:
        o = self.options
        return PlayRules(tile_copies=standard_tile_copies(flowers=False), chow="none", dead_wall=o.dead_wall,
                         winners_per_discard=o.winners_per_discard, hand_end=o.hand_end,
                         hand_end_winners=o.hand_end_winners)

    def options_dict(self) -> dict[str, Any]:
        return self.options.model_dump()

    def seat_wind(self, seat: int, dealer: int) -> str:
        return T.WINDS[(seat - dealer) % 4]

    def next_hand(self, state: TableState) -> HandPlan | None:
        if len(state.hands) >= self.options.hands:
            return None
        first = state.first_dealer if state.first_dealer is not None else 0
        return HandPlan(dealer=(first + len(state.hands)) % 4, prevalent_wind="F1")

    def score_win(self, state: TableState, win: WinContext) -> WinScore:
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
                               options_model=BloodOptions, build=build))
