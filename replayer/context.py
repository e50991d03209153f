"""The context of one event being replayed: who collects its findings, and the guards every
handler shares (a game has started, the phase allows the event, the seat is in turn).

:class:`Ctx` raises :class:`~replayer.findings.ReplayError` at the first breach in strict
mode and collects :class:`~replayer.findings.Finding` records in audit mode; each finding
names its rule and the rule's source (the ruleset's :meth:`rule_source`, or the shared
mechanics' sources in replayer/rules/base.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from replayer.findings import Finding, Mode, ReplayError
from replayer.rules.base import MECHANICS_SOURCES, PlayRules, Ruleset
from replayer.state import TableState, WorkingState

__all__ = ["Ctx", "Handler", "in_place", "is_in_place", "working_form", "need_game", "in_phase", "check_turn", "check_in_hand"]


class Ctx:
    """Collects the findings of one event; raises at the first one in strict mode.

    ``seq``: the event's; ``hand_number``: the hand it is played in (findings name it);
    ``rs``: the game's ruleset (None before a game_started); ``play``: its
    :class:`~replayer.rules.base.PlayRules` (None without a ruleset) and ``tile_copies``
    its copies per dense tile index — looked up once per ruleset, not per event. A replay
    keeps one context per game and moves it from event to event (:meth:`take_findings`)."""

    __slots__ = ("seq", "hand_number", "rs", "play", "tile_copies", "mode", "findings")

    def __init__(self, seq: int, state: TableState, ruleset: Ruleset | None, mode: Mode) -> None:
        self.seq = seq
        self.hand_number = state.hand_number  # findings name the hand the event was played in
        self.mode = mode
        self.findings: list[Finding] = []
        self.set_ruleset(ruleset)

    def set_ruleset(self, ruleset: Ruleset | None) -> None:
        """The game's ruleset from now on (and its play rules)."""
        self.rs = ruleset
        play = ruleset.play if ruleset is not None else None
        self.play: PlayRules = play  # type: ignore[assignment]  # guarded by need_game
        self.tile_copies: tuple[int, ...] = play.tile_copies if play is not None else ()

    def take_findings(self) -> tuple[Finding, ...]:
        """The findings collected so far, as a tuple; the context starts afresh."""
        found = tuple(self.findings)
        self.findings = []
        return found

    @property
    def ruleset(self) -> Ruleset:
        assert self.rs is not None  # guarded by need_game
        return self.rs

    def breach(self, rule_id: str, message: str, seat: int | None = None, *, also: str = "") -> None:
        """A finding of ``rule_id`` at this event (strict mode: :class:`ReplayError`); its source
        is the rule's (``also``: more rule text behind this finding, after it)."""
        source = self.rs.rule_source(rule_id) if self.rs else MECHANICS_SOURCES.get(rule_id, "docs/reference/DESIGN.md §4")
        if also:
            source = f"{source}; {also}"
        f = Finding(self.seq, rule_id, message, source, seat, self.hand_number)
        if self.mode == "strict":
            raise ReplayError(f)
        self.findings.append(f)


Handler = Callable[[Ctx, TableState, Any], TableState]

def in_place(handler: Callable[[Ctx, WorkingState, Any], TableState]) -> Handler:
    """Declare that ``handler`` works on a :class:`~replayer.state.WorkingState` (the replay
    step's, :class:`replayer.replay._Game`, on both paths): it reads the state it is given,
    changes it in place (:meth:`~replayer.state.WorkingState.change_seat`,
    :meth:`~replayer.state.WorkingState.change_seen`, through replayer/accounting.py) and
    writes its other fields with :func:`~replayer.state.evolve` (or returns a new state),
    and keeps no reference to it. Any other handler is given a frozen snapshot.

    Returns ``handler`` wrapped so that it may also be called with a frozen state (a
    ruleset's handler passing an event on to a core one): it then works on a working copy
    and returns a frozen state, never changing the one given. The replay step calls the
    handler itself (``.working``)."""

    def on_any_state(ctx: Ctx, state: TableState, p: Any) -> TableState:
        if state.__class__ is WorkingState:
            return handler(ctx, state, p)
        w = WorkingState.of(state)
        after = handler(ctx, w, p)
        return w.snapshot() if after is w else after

    functools.update_wrapper(on_any_state, handler)
    on_any_state.working = handler  # type: ignore[attr-defined]
    return on_any_state


def is_in_place(handler: Callable[..., Any]) -> bool:
    """Whether ``handler`` was declared with :func:`in_place`."""
    return callable(getattr(handler, "working", None))


def working_form(handler: Callable[..., Any]) -> Callable[..., Any]:
    """The handler a replay step calls on its working state: the in-place handler itself
    (``handler`` unwrapped, :func:`in_place`), else ``handler``."""
    working = getattr(handler, "working", None)
    return working if callable(working) else handler


def need_game(ctx: Ctx, state: TableState) -> bool:
    if state.phase == "pregame" or ctx.rs is None:
        ctx.breach("game_not_started", "no game_started event before this event")
        return False
    return True


def in_phase(ctx: Ctx, state: TableState, what: str, *phases: str) -> bool:
    """Whether ``state.phase`` is one of ``phases``; otherwise a breach: ``play_after_hand_end``
    when the hand is over (a win that ends it under the ruleset's ``PlayRules.hand_end``, or
    an exhaustive draw), else ``event_out_of_phase``."""
    if state.phase == "hand_over" and "hand_over" not in phases:
        winners = sum(1 for w in state.wins if w.legal)
        why = f"after {winners} win{'s' if winners != 1 else ''}" if winners else "after an exhaustive draw" \
            if state.exhaustive_draw else "already"
        ctx.breach("play_after_hand_end", f"{what} is not possible: the hand is over ({why})")
        return False
    if state.phase not in phases:
        ctx.breach("event_out_of_phase", f"{what} is not possible in phase {state.phase!r} "
                                         f"(expected {' or '.join(phases)})")
        return False
    return True


def check_turn(ctx: Ctx, state: TableState, seat: int, what: str) -> None:
    if state.turn is not None and seat != state.turn:
        ctx.breach("wrong_seat_to_act", f"seat {seat} {what}, but it is seat {state.turn}'s turn", seat)


def check_in_hand(ctx: Ctx, state: TableState, seat: int, what: str) -> None:
    """A seat that has left the hand (``TableState.in_hand``: it won in a hand that goes on)
    acts: the ``seat_out_of_hand`` breach."""
    if not state.in_hand[seat]:
        ctx.breach("seat_out_of_hand", f"seat {seat} {what}, but it has left the hand", seat)
