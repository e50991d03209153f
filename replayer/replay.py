"""The deterministic replayer: table state after every event, with findings (DESIGN.md §6).

``apply(state, event, ruleset, mode)`` is a pure function: the same state and event give
the same new state and findings, with no clock, randomness or unordered iteration.
``replay(events)`` folds it over a game's events; :func:`replayer.snapshots.state_at`
jumps to one event (with a snapshot cache its caller owns).

``replay_game(events)`` is the batch path (批量重放: ``paipu export``, ``paipu verify``): the
same states and findings, from one :class:`~replayer.state.WorkingState` per game that the
handlers declared :func:`~replayer.context.in_place` (draws, discards, the deal, passes)
update in place — a draw or a discard changes its seat's tile lists and the tile
accounting where they are (:meth:`~replayer.state.WorkingState.change_seat`), folded into
frozen seats only when something reads them; the other handlers and the ruleset's hooks
are given frozen snapshots and their result is taken over. No frozen state is built per
event unless a caller asks for one (``step.state.snapshot()``). Both paths take the same step per event (``_Game.step``,
with the ruleset, the handler table and the event context resolved once per game):
``apply`` takes it on a working copy of the state it is given and freezes the result.

The ruleset comes from the game_started event (``ruleset`` + ``ruleset_options``) unless
one is given (``ruleset=``: re-score the same game under another ruleset — what-if and
dispute review).

Modes (replayer.findings): **audit** applies every event as it happened and reports each
breach as a :class:`Finding`; **strict** raises :class:`ReplayError` at the first breach
and leaves the state as it was before the refused event.

Where things are: one handler per event type in ``replayer/handlers/`` (dispatched by
type through ``replayer.handlers.HANDLERS``, checked at import against the event types),
tile accounting and the wall in ``replayer/accounting.py``, the per-event context and its
guards in ``replayer/context.py``, snapshots in ``replayer/snapshots.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from eventlog import events as ev
from replayer.context import Ctx, Handler, is_in_place, need_game, working_form
from replayer.findings import MODES, Finding, Mode
from replayer.handlers import HANDLERS
from replayer.handlers.tiles import settle_hidden_deal
from replayer.rules.base import Ruleset, RulesetDefaults, get_ruleset, ruleset_handler
from replayer.state import TableState, WorkingState, fast_init

__all__ = ["ReplayStep", "ReplayResult", "apply", "replay", "replay_game", "replay_steps", "run"]


@fast_init
@dataclass(frozen=True)
class ReplayStep:
    """One replayed event: the event, the state after it, and its findings."""

    event: Any
    state: TableState
    findings: tuple[Finding, ...]


@fast_init
@dataclass(frozen=True)
class ReplayResult:
    """A whole replay: the final state and every finding in event order."""

    state: TableState
    findings: tuple[Finding, ...]



def _event_and_seq(event: Any, previous_seq: int) -> tuple[Any, int]:
    """``(event, seq)`` for an event given to a replay: a stored event keeps its envelope
    ``seq``; a dict or JSON text is parsed (eventlog.events.parse_event) and keeps its
    ``"seq"`` when it has an int one; otherwise the seq is ``previous_seq + 1``."""
    stored_seq = getattr(event, "seq", None)
    if stored_seq is not None:
        return event, stored_seq
    if isinstance(event, (dict, str)):
        seq_hint = event.get("seq") if isinstance(event, dict) else None
        return ev.parse_event(event), seq_hint if isinstance(seq_hint, int) else previous_seq + 1
    return event, previous_seq + 1


def apply(
    state: TableState, event: Any, ruleset: Ruleset | None = None, mode: Mode = "audit"
) -> tuple[TableState, tuple[Finding, ...]]:
    """Apply one event to ``state``.

    ``event``: a StoredEvent / NewEvent (or a dict parsed with eventlog.events.parse_event);
    its ``seq`` is taken from the envelope when present, else ``state.seq + 1``.
    ``ruleset``: None → the game's own (from game_started). Returns the new state and the
    findings of this event. Raises :class:`ReplayError` (strict mode) at a breach,
    :class:`replayer.findings.RulesetError` for an unknown ruleset / bad options,
    ValueError for an unknown mode.

    The same step as the batch replay (:class:`_Game`), on a working copy of ``state``
    that is frozen afterwards: ``state`` itself is never changed (in strict mode the
    refused event leaves it as it was)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    game = _Game(mode, ruleset, state)
    findings = game.step(event)
    return game.w.snapshot(), findings


def replay(
    events: Iterable[Any], *, mode: Mode = "audit", ruleset: Ruleset | None = None
) -> Iterator[ReplayStep]:
    """Replay a game's events in order, yielding a :class:`ReplayStep` per event whose
    state is a frozen :class:`TableState` (one per event: keep any of them).
    Raises :class:`ReplayError` in strict mode at the first breach."""
    state = TableState()
    for e in events:
        state, findings = apply(state, e, ruleset, mode)
        yield ReplayStep(e, state, findings)


def replay_game(
    events: Iterable[Any], *, mode: Mode = "audit", ruleset: Ruleset | None = None
) -> Iterator[ReplayStep]:
    """Replay a game's events in order in one working state (the batch path, see the module
    doc), yielding a :class:`ReplayStep` per event whose ``state`` is that
    :class:`~replayer.state.WorkingState`: read it before asking for the next step, or keep
    ``step.state.snapshot()``. States (as snapshots) and findings are those of
    :func:`replay`; after the last step the working state holds the final state. Raises
    :class:`ReplayError` in strict mode at the first breach (the working state is then
    left part-way through the refused event)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    game = _Game(mode, ruleset)
    w, step = game.w, game.step
    for e in events:
        yield ReplayStep(e, w, step(e))


def replay_steps(
    events: Iterable[Any], *, mode: Mode = "audit", ruleset: Ruleset | None = None
) -> Iterator[tuple[Any, WorkingState, tuple[Finding, ...]]]:
    """:func:`replay_game` as plain ``(event, working state, findings)`` tuples, with no
    :class:`ReplayStep` object per event: what the collectors that read every step at once
    take (the export's facts, the audit). The same working state every time: read it before
    asking for the next step."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    game = _Game(mode, ruleset)
    w, step = game.w, game.step
    for e in events:
        yield e, w, step(e)


_NO_FINDINGS: tuple[Finding, ...] = ()


class _Game:
    """One game being replayed — the one step both paths take per event (:func:`apply`
    on a working copy of a frozen state, :func:`replay_game` / :func:`run` on one working
    state per game) — and what it resolves once per game rather than per event: the
    ruleset (again only when the state's ruleset fields become other objects: a
    game_started), the event's :class:`~replayer.context.Ctx` (one per game, reset per
    event), and per event type the handler, whether it works in place and whether the
    ruleset has hooks."""

    __slots__ = ("w", "held", "mode", "ruleset", "rs", "rs_of", "plans", "ctx")

    def __init__(self, mode: Mode, ruleset: Ruleset | None, state: TableState | None = None) -> None:
        self.w = WorkingState.of(TableState() if state is None else state)
        self.held = self.w.__dict__  # the working state's fields, read and written per event
        self.mode = mode
        self.ruleset = ruleset
        self.rs: Ruleset | None = ruleset
        # the (ruleset_id, ruleset_options) objects ``rs`` was resolved for; None: never
        self.rs_of: tuple[Any, Any] | None = None
        self.plans: dict[str, tuple[Handler, bool, bool]] = {}
        self.ctx = Ctx(-1, self.w, ruleset, mode)

    def _resolve(self, payload: ev.Payload) -> Ruleset | None:
        """:func:`_ruleset_for` the working state (or this event's game_started); a new
        ruleset object gets its own handler plans and context."""
        held = self.held
        rs = _ruleset_for(self.w, payload)
        self.rs_of = None if isinstance(payload, ev.GameStarted) else (held["ruleset_id"], held["ruleset_options"])
        if rs is not self.rs:
            self.rs = rs
            self.plans = {}
            self.ctx.set_ruleset(rs)
        return rs

    def _plan(self, type_: str) -> tuple[Handler, bool, bool]:
        rs = self.rs
        h = _handler(rs, type_)
        plan = self.plans[type_] = (working_form(h), is_in_place(h), rs is not None and _has_hooks(rs))
        return plan

    def step(self, event: Any) -> tuple[Finding, ...]:
        """Apply one event to the working state ``w`` (the state after it is then in ``w``):
        its findings, like :func:`apply`'s."""
        w, held = self.w, self.held
        seq = getattr(event, "seq", None)
        if seq is None:
            event, seq = _event_and_seq(event, held["seq"])
        payload = event.payload
        rs = self.rs
        if self.ruleset is None:
            of = self.rs_of
            if of is None or of[1] is not held["ruleset_options"] or of[0] is not held["ruleset_id"] \
                    or isinstance(payload, ev.GameStarted):
                rs = self._resolve(payload)
        plan = self.plans.get(event.type)
        if plan is None:
            plan = self._plan(event.type)
        handler, in_place, hooks = plan
        ctx = self.ctx
        ctx.seq = seq
        ctx.hand_number = held["hand_number"]  # findings name the hand the event was played in
        if seq != held["seq"] + 1:
            ctx.breach("event_out_of_order", f"event seq {seq} follows seq {held['seq']}")
        if held["deal_owed"] and held["phase"] == "dealing":
            # a dealer's deal the record hides: its 14th came with it if it acts before drawing
            w.absorb(settle_hidden_deal(ctx, w, payload))
        if in_place and not hooks:  # the common case: no frozen state at all
            after = handler(ctx, w, payload)
            if after is not w:
                w.absorb(after)
        else:
            # a handler not declared in place, and the ruleset's hooks
            # (replayer/rules/base.py Ruleset: check_event names its own breaches before the
            # handler runs; observe updates what it remembers, TableState.rule_memory, once
            # the event is applied) see the state before the event frozen (they may keep
            # it); ``observe`` reads the state after it in ``w`` and, like any code written
            # for frozen states, changes it only by returning a copy (replace of a working
            # state is a frozen copy)
            before = w.snapshot()
            if hooks:
                assert rs is not None
                for b in rs.check_event(before, payload):
                    ctx.breach(b.rule_id, b.message, b.seat)
            w.absorb(handler(ctx, w if in_place else before, payload))
            if hooks:
                assert rs is not None
                after, later = rs.observe(before, payload, w)  # returns w, or a frozen copy of it
                w.absorb(after)
                for b in later:
                    ctx.breach(b.rule_id, b.message, b.seat)
        if type(payload) is ev.GameStarted:  # the source's own scoring format (envelope metadata)
            meta = getattr(event, "metadata", None)
            scoring = meta.get("scoring") if isinstance(meta, dict) else None
            held["source_scoring"] = scoring.strip() or None if isinstance(scoring, str) else None
        held["seq"] = seq  # the envelope's seq and game id, written straight into the working state
        game_id = getattr(event, "game_id", None)
        if game_id:
            held["game_id"] = game_id
        return ctx.take_findings() if ctx.findings else _NO_FINDINGS


def _has_hooks(rs: Ruleset) -> bool:
    """Whether the ruleset has its own ``check_event`` or ``observe`` (else the defaults of
    :class:`~replayer.rules.base.RulesetDefaults`: no breach, nothing remembered)."""
    cls = type(rs)
    known = _HOOKS.get(cls)
    if known is None:
        known = _HOOKS[cls] = (getattr(cls, "check_event", None) is not RulesetDefaults.check_event
                               or getattr(cls, "observe", None) is not RulesetDefaults.observe)
    return known


_HOOKS: dict[type, bool] = {}


def run(events: Iterable[Any], *, mode: Mode = "audit", ruleset: Ruleset | None = None) -> ReplayResult:
    """Replay a whole game: the final state and all findings (what ``paipu verify`` needs),
    through the batch path (:func:`replay_game`)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    game = _Game(mode, ruleset)
    step = game.step
    found: list[Finding] = []
    for e in events:
        findings = step(e)
        if findings:
            found.extend(findings)
    return ReplayResult(game.w.snapshot(), tuple(found))


def _handler(rs: Ruleset | None, type_: str) -> Handler:
    """The one handler of an event type: the core's (replayer.handlers), else the one the
    game's ruleset declares for its own event type (RulesetSpec.events)."""
    h = HANDLERS.get(type_)
    if h is None and rs is not None:
        h = ruleset_handler(rs.id, type_)
    return h if h is not None else _foreign_event


def _foreign_event(ctx: Ctx, state: TableState, p: ev.Payload) -> TableState:
    """A ruleset event type the game's ruleset does not declare: a finding, no change."""
    if need_game(ctx, state):
        ctx.breach("event_not_in_ruleset",
                   f"event type {p.TYPE!r} is not an event of ruleset {ctx.ruleset.id!r}")
    return state


@lru_cache(maxsize=64)
def _cached_ruleset(ruleset_id: str, options_json: str) -> Ruleset:
    return get_ruleset(ruleset_id, json.loads(options_json))


def _ruleset_for(state: TableState, payload: ev.Payload) -> Ruleset | None:
    if isinstance(payload, ev.GameStarted):
        return _cached_ruleset(payload.ruleset, json.dumps(payload.ruleset_options, sort_keys=True))
    if state.ruleset_id is None:
        return None
    # A game's states share one ruleset_options tuple (copy-on-write), so the last lookup
    # is reused while the same tuple object comes back (held here: its id cannot be reused).
    global _last_ruleset
    last = _last_ruleset
    if last is not None and last[1] is state.ruleset_options and last[0] == state.ruleset_id:
        return last[2]
    rs = _cached_ruleset(state.ruleset_id, json.dumps(dict(state.ruleset_options), sort_keys=True))
    _last_ruleset = (state.ruleset_id, state.ruleset_options, rs)
    return rs


_last_ruleset: tuple[str, tuple[tuple[str, Any], ...], Ruleset] | None = None
