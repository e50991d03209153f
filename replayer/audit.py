"""Audit of a whole game: what ``paipu verify``, ``paipu quickstart`` and dispute review show.

``audit_game(events)`` replays a game in audit mode and gathers, per win, the computed
score next to the score the source reported, plus every finding. Nothing here decides a
rule: legality, fans and settlement come from the replayer and the game's ruleset; this
module only lines them up.

Reported fan names are matched to computed fans by the ruleset's name table (MCR: Chinese
name with or without the 独听・ prefix, English name, or the fan's number in the official
table — PMN writes numbers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from replayer.explained import ScoreLine
from replayer.findings import Finding, RulesetError
from replayer.itemized import entries_settled
from replayer.replay import ReplayStep, replay_steps
from replayer.rules.base import Ruleset, ScoreUnit
from replayer.state import ReportedScore, SettledPayment, TableState, WinRecord, WorkingState

__all__ = ["WinAudit", "DrawAudit", "GameAudit", "AuditCollector", "audit_game", "fan_key", "fan_keys", "FanKeys"]


@dataclass(frozen=True)
class WinAudit:
    """A declared win: computed fans/points/settlement and what the source reported.

    ``fans_agree``/``score_agrees`` are None when the source reported nothing to compare;
    ``score_agrees`` is also None when the report reads tiles the record hides and cannot be
    checked (``reported.unverifiable`` says why; one seat's view)."""

    hand_number: int | None
    seq: int
    seat: int
    tile: str
    self_drawn: bool
    from_seat: int | None
    legal: bool
    fans: tuple[ScoreLine, ...]
    points: int | None
    changes: tuple[int, int, int, int] | None
    reported: ReportedScore | None
    reported_fans: tuple[tuple[str, int | None, int], ...]
    fans_agree: bool | None
    score_agrees: bool | None

    @property
    def computed_words(self) -> str:
        """``computed 8 points``, or why no points were computed, in words."""
        return self.computed_words_in(ScoreUnit())

    def computed_words_in(self, unit: ScoreUnit) -> str:
        """:attr:`computed_words` in the game's ruleset's unit (``score_unit_of``): ``computed
        1 unit`` (Changsha), ``computed 0 fan`` (Sichuan)."""
        if self.points is not None:
            return f"computed {unit.amount(self.points)}"
        why = "the win is not legal" if not self.legal else "the winner's hand is hidden in this record"
        return f"no points computed ({why})"


@dataclass(frozen=True)
class DrawAudit:
    """A hand that ended in an exhaustive draw (流局 / 荒庄): its ``hand_number`` (0-based),
    the ``seq`` of its exhaustive_draw event, what the ruleset's ``settle_exhaustive_draw``
    settled there (``changes`` per seat 0..3, points; all 0 when nothing is paid) and its
    ``payments``, each with its rule item and source (replayer/itemized.py shows them by rule)."""

    hand_number: int | None
    seq: int
    changes: tuple[int, int, int, int]
    payments: tuple[SettledPayment, ...]

    @property
    def title(self) -> str:
        """``Hand 1, event 40: exhaustive draw (流局/荒庄) — the draw settles +20 +11 -48 +17``,
        or ``… — nothing is paid at the draw``; hands counted from 1."""
        n = "?" if self.hand_number is None else str(self.hand_number + 1)
        paid = ("nothing is paid at the draw" if not any(self.changes) else
                "the draw settles " + " ".join(f"{x:+d}" for x in self.changes))
        return f"Hand {n}, event {self.seq}: exhaustive draw (流局/荒庄) — {paid}"


@dataclass(frozen=True)
class GameAudit:
    """Everything checked about one game. ``ok``: no finding and every reported score agrees.
    ``exhaustive_draws``: each hand that ended in an exhaustive draw, with its settlement."""

    game_id: str
    ruleset: str | None
    hands: int
    events: int
    wins: tuple[WinAudit, ...]
    draws: int
    findings: tuple[Finding, ...]
    state: TableState
    reported: tuple[ReportedScore, ...] = ()
    exhaustive_draws: tuple[DrawAudit, ...] = ()

    @property
    def no_win_words(self) -> str:
        """What a game with no win says instead of its wins: ``No win in this game: hand 1
        ended in an exhaustive draw (流局/荒庄).`` (hands counted from 1), else ``No win in
        this game.``; "" when there is a win."""
        if self.wins:
            return ""
        if not self.exhaustive_draws:
            return "No win in this game."
        hands = ["?" if d.hand_number is None else str(d.hand_number + 1) for d in self.exhaustive_draws]
        which = f"hand {hands[0]}" if len(hands) == 1 else f"hands {', '.join(hands)}"
        return f"No win in this game: {which} ended in an exhaustive draw (流局/荒庄)."

    @property
    def ok(self) -> bool:
        return not self.findings and all(
            w.fans_agree is not False and w.score_agrees is not False for w in self.wins
        )


def fan_key(name: str) -> str:
    """Normalise a reported or computed fan name to a key both sides share: the fan id a
    ruleset's name table (:attr:`~replayer.rules.base.RulesetSpec.fan_id`, e.g. MCR's aliases
    and numbers) gives any spelling of one of its fans, else the name as written."""
    for lookup in _fan_tables():
        key = lookup(name)
        if key:
            return key
    return name.strip()


@lru_cache(maxsize=1)
def _fan_tables() -> tuple[Callable[[str], str | None], ...]:
    """The fan name tables of every registered ruleset (in id order)."""
    from replayer.rules.base import get_spec, known_rulesets

    return tuple(t for t in (get_spec(r).fan_id for r in known_rulesets()) if t is not None)


def _fan_lines(win: WinRecord) -> tuple[ScoreLine, ...]:
    """The items of the win's explained score (replayer/explained.py)."""
    return win.score.lines() if win.score is not None else ()


def _unreadable(name: str) -> bool:
    """A fan name damaged in the source: an encoding loss turned it into ``???`` or left
    U+FFFD replacement characters in it."""
    n = name.strip()
    return not n or all(c in "?\ufffd" for c in n) or "\ufffd" in n


class FanKeys(NamedTuple):
    line: Callable[[ScoreLine], str]
    reported: Callable[[str], str]
    known: Callable[[str], bool]  # a reported name that matches a line or a known spelling


def fan_keys(computed: tuple[ScoreLine, ...]) -> FanKeys:
    """``(line, reported, known)``: the functions that put a computed fan line and a
    reported fan name on one key — a reported name matches a computed line by either of
    its names first (any ruleset), then through the MCR name table (aliases, numbers).
    What :func:`_compare_fans` compares, and what the dashboard lines up."""

    def line_key(f: ScoreLine) -> str:
        return fan_key(f.name_zh or f.name_en)

    by_name: dict[str, str] = {}
    for f in computed:
        for n in (f.name_en, f.name_zh, f.name_en.lower()):
            if n:
                by_name.setdefault(n, line_key(f))

    def reported_key(name: str) -> str:
        n = name.strip()
        return by_name.get(n) or by_name.get(n.lower()) or fan_key(n)

    def known(name: str) -> bool:
        n = name.strip()
        return n in by_name or n.lower() in by_name or fan_key(n) != n

    return FanKeys(line_key, reported_key, known)


def _compare_fans(
    computed: tuple[ScoreLine, ...], reported: tuple[tuple[str, int | None, int], ...]
) -> bool | None:
    """Same fans with the same counts? (names matched by :func:`fan_keys`). None when the
    source's names are unreadable or decode to no known name (nothing to compare)."""
    if any(_unreadable(name) for name, _p, _c in reported):
        return None
    line_key, reported_key, known = fan_keys(computed)
    # Names are compared only when every reported name is a known one (of a computed
    # line, or an MCR fan spelling): a name that decodes to nothing known — a file read
    # in the wrong encoding — says nothing about the fans; the totals are still compared.
    if not all(known(name) for name, _p, _c in reported):
        return None
    mine: dict[str, int] = {}
    for f in computed:
        k = line_key(f)
        mine[k] = mine.get(k, 0) + f.count
    theirs: dict[str, int] = {}
    for name, _points, count in reported:
        k = reported_key(name)
        theirs[k] = theirs.get(k, 0) + count
    # Sources omit flowers from their fan lists when there are none; compare what both name.
    mine.pop("flower_tiles", None)
    theirs.pop("flower_tiles", None)
    return mine == theirs


class AuditCollector:
    """What :func:`audit_game` gathers, taken one replayed event at a time: feed it every
    :class:`~replayer.replay.ReplayStep` of one audit-mode replay in order (:meth:`step`;
    a working state is read at once, never kept), then :meth:`result`. Lets one replay
    feed the audit and other readers (``paipu verify --export``: the export's facts)."""

    def __init__(self) -> None:
        self.state: TableState = TableState()
        self.findings: list[Finding] = []
        self.wins: list[tuple[int | None, WinRecord]] = []
        self.reported: list[ReportedScore] = []
        self.events = 0
        self.draws = 0
        self.draw_audits: list[DrawAudit] = []

    def step(self, step: ReplayStep) -> None:
        self.take(step.event, step.state, step.findings)

    def take(self, event: Any, state: TableState, findings: tuple[Finding, ...]) -> None:
        """:meth:`step` given the step's event, state and findings
        (:func:`replayer.replay.replay_steps`)."""
        self.events += 1
        self.state = state
        if findings:
            self.findings.extend(findings)
        t = event.type
        if t == "win_declared" and state.wins:
            self.wins.append((state.hand_number, state.wins[-1]))
        elif t == "score_reported" and state.reported:
            self.reported.append(state.reported[-1])
        if t in ("score_reported", "hand_ended"):
            self._refresh_wins(state)
        elif t == "exhaustive_draw":
            self.draws += 1
            self.draw_audits.append(_draw_audit(state.seq, state))  # the seq replay gave it (a NewEvent has none)

    def _refresh_wins(self, state: TableState) -> None:
        """The hand's wins as they stand now: what its later events settle for a win (e.g.
        Changsha's birds) is part of it (``WinRecord.changes``)."""
        now = {w.seq: w for w in state.wins}
        if now:
            self.wins = [(h, now.get(w.seq, w)) if h == state.hand_number else (h, w) for h, w in self.wins]

    def result(self) -> GameAudit:
        """The audit of the steps taken (its ``state`` frozen: the last step's)."""
        state = self.state.snapshot() if isinstance(self.state, WorkingState) else self.state
        out: list[WinAudit] = []
        for hand_number, w in self.wins:
            rep = _reported_for(w, self.reported)
            lines = _fan_lines(w)
            rep_fans = rep.fans if rep is not None else ()
            out.append(
                WinAudit(
                    hand_number=hand_number,
                    seq=w.seq,
                    seat=w.seat,
                    tile=w.tile,
                    self_drawn=w.self_drawn,
                    from_seat=w.from_seat,
                    legal=w.legal,
                    fans=lines,
                    points=w.points,
                    changes=w.changes,
                    reported=rep,
                    reported_fans=rep_fans,
                    fans_agree=_compare_fans(lines, rep_fans) if rep_fans else None,
                    score_agrees=_score_agrees(rep),
                )
            )
        return GameAudit(
            game_id=state.game_id,
            ruleset=state.ruleset_id,
            hands=state.hands_started,
            events=self.events,
            wins=tuple(out),
            draws=self.draws,
            findings=tuple(self.findings),
            state=state,
            reported=tuple(self.reported),
            exhaustive_draws=tuple(self.draw_audits),
        )


def _draw_audit(seq: int, state: TableState) -> DrawAudit:
    """What the exhaustive draw at event ``seq`` settled: the ``exhaustive_draw`` score entries
    of that event (replayer/handlers/wins.py ``exhaustive_draw``)."""
    entries = []
    for e in reversed(state.score_log):  # the newest entries are this event's: stop before them
        if e.seq < seq:
            break
        if e.kind == "exhaustive_draw" and e.seq == seq:
            entries.append(e)
    changes, paid = entries_settled(reversed(entries))
    return DrawAudit(state.hand_number, seq, changes, paid)


def audit_game(
    events: Iterable[Any], *, ruleset: Ruleset | None = None, steps: Iterable[ReplayStep] | None = None
) -> GameAudit:
    """Replay ``events`` (one game, in seq order) in audit mode and line up computed and
    reported scores. ``ruleset`` overrides the game's own (what-if review). ``steps``: the
    audit-mode replay of exactly these events when the caller already has it. Replays
    through the batch path (:func:`replayer.replay.replay_steps`)."""
    collector = AuditCollector()
    if steps is not None:
        for step in steps:
            collector.step(step)
        return collector.result()
    met: list[Any] = []

    def seen(evs: Iterable[Any]) -> Iterable[Any]:
        for e in evs:
            met[:] = [e]
            yield e

    take = collector.take
    try:
        for e, state, findings in replay_steps(seen(events), mode="audit", ruleset=ruleset):
            take(e, state, findings)
    except RulesetError as err:
        if ruleset is not None or not met:  # a what-if's own ruleset: the caller's argument
            raise
        return unplayable_audit(collector, met[0], err)
    return collector.result()


def unplayable_audit(collector: AuditCollector, event: Any, error: RulesetError) -> GameAudit:
    """The audit of a game its ruleset cannot replay (an unknown ruleset or options its model
    refuses, stored before game_started was checked at the door: docs/events.md
    "game_started"): what was replayed before ``event``, and one finding naming it — the log
    is intact, the game cannot be checked (``paipu verify`` exit 1)."""
    done = collector.result()
    payload = event.payload if event.type == "game_started" else None
    finding = Finding(
        seq=event.seq, rule_id="ruleset_unavailable",
        message=f"{error}: the game cannot be replayed or checked",
        source='docs/events.md "game_started"',
    )
    return dataclasses.replace(
        done, game_id=done.game_id or event.game_id,
        ruleset=done.ruleset or (payload.ruleset if payload is not None else None),
        findings=(*done.findings, finding),
    )


def _score_agrees(rep: ReportedScore | None) -> bool | None:
    """False when something compared disagrees; None when nothing was reported, or when what
    was reported could not be checked (``ReportedScore.unverifiable``: it reads hidden tiles)
    and nothing else disagrees; True otherwise."""
    if rep is None:
        return None
    if not rep.agrees:
        return False
    return None if rep.unverifiable else True


def _reported_for(win: WinRecord, reported: list[ReportedScore]) -> ReportedScore | None:
    """The first score report after the win that names its winner (or names no winner)."""
    for r in reported:
        if r.seq > win.seq and (r.winner is None or r.winner == win.seat):
            return r
    return None
