"""Findings: rule breaches found while replaying a game (shared/DESIGN.md §6).

In **audit** mode (an imported log) every breach becomes a :class:`Finding` and the event is
still applied as it happened. In **strict** mode (a live table) the first breach raises
:class:`ReplayError` carrying the same finding, and the event is refused (the state before
it is kept).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from eventlog.errors import InvalidArgument, PaipuError

Mode = Literal["audit", "strict"]
MODES: tuple[str, ...] = ("audit", "strict")


@dataclass(frozen=True)
class Finding:
    """One rule breach.

    ``seq``: the event's sequence number in its game stream. ``rule_id``: a stable snake_case
    id (e.g. ``chow_wrong_seat``, ``tile_not_held``, ``false_win``). ``message``: what was
    wrong, in words, with the tiles and seats involved. ``source``: where the rule is written,
    e.g. ``"docs/reference/rules/competition.md §B1"`` or ``"seed 001"``. ``seat``: the seat at fault
    when there is one. ``hand_number``: the hand the event belongs to (None outside a hand).
    """

    seq: int
    rule_id: str
    message: str
    source: str
    seat: int | None = None
    hand_number: int | None = None

    def __str__(self) -> str:
        who = f" seat {self.seat}" if self.seat is not None else ""
        return f"event {self.seq}{who}: [{self.rule_id}] {self.message} ({self.source})"


@dataclass(frozen=True)
class Breach:
    """A rule breach as a ruleset's hook reports it (:meth:`Ruleset.check_event`,
    :meth:`Ruleset.observe`, a ruleset event's handler): the replayer adds the event's seq,
    the rule's source and the hand to make it a :class:`Finding`."""

    rule_id: str
    message: str
    seat: int | None = None


class ReplayError(PaipuError):
    """Raised in strict mode at the first rule breach; ``finding`` says which (its ``seq``
    and ``rule_id`` are the error's fields)."""

    fields = ("seq", "rule_id")

    def __init__(self, finding: Finding) -> None:
        super().__init__(str(finding))
        self.finding = finding
        self.seq = finding.seq
        self.rule_id = finding.rule_id


class RulesetError(InvalidArgument):
    """A ruleset id or ruleset options that cannot be used (unknown id, bad option value)."""
