"""One finished game → the rows of every fact table (analytics/schema.py).

The game is replayed in audit mode (replayer/replay.py); everything computed — scores,
wins, fans, settlement — comes from the replay, and what the source reported
(``score_reported``, ``game_ended.final_scores``) is kept beside it in ``reported_*``
columns. Hands without ``hand_ended`` (a game cut short) have no rows; games without
``game_ended`` are not exported at all (:func:`game_facts` returns None), so a live game
appears once it is over (docs/analytics.md, "Which games are exported").

Ruleset-neutral: the fans of a win are read from the ruleset's explained score when it
has ``fans`` items with ``name_en``, ``name_zh``, ``points`` and ``count`` (MCR's
``FanResult``); a ruleset without them gives wins with no fan rows.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from typing import Any

from analytics.schema import ACTIONS, TABLES
from eventlog.events import GameEnded, GameStarted, StoredEvent
from replayer.explained import ExplainedScore, ScoreLine
from replayer.replay import ReplayStep, replay_steps
from replayer.state import TableState, WinRecord

__all__ = ["GameFacts", "FactsCollector", "game_facts", "game_date"]

_DATE_FORMATS = ("%Y-%m-%d", "%Y.%m.%d", "%Y/%m/%d")


#: Each table's columns in file order (analytics/schema.py, without the ``ruleset``
#: partition column): the order of the values in a row of :attr:`GameFacts.rows`.
COLUMNS: dict[str, tuple[str, ...]] = {t.name: tuple(t.columns) for t in TABLES}


@dataclass
class GameFacts:
    """The rows of one finished game, per table name, plus where it sits in the log.

    ``rows[table]``: one tuple per row, its values in the order of the table's columns
    (:data:`COLUMNS`, analytics/schema.py) — what the Parquet writer turns into columns
    and what crosses process boundaries (a tuple pickles without its column names);
    :meth:`records` gives them as dicts."""

    game_id: str
    ruleset: str
    end_position: int
    last_position: int
    rows: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)

    def count(self, table: str) -> int:
        return len(self.rows.get(table, ()))

    def records(self, table: str) -> list[dict[str, Any]]:
        """The rows of ``table`` as ``{column: value}`` dicts."""
        names = COLUMNS[table]
        return [dict(zip(names, row)) for row in self.rows.get(table, ())]


def _put(rows: dict[str, list[tuple[Any, ...]]], table: str, values: dict[str, Any]) -> None:
    """Add one row of ``table`` given as ``{column: value}`` (every column of the table,
    no other; KeyError / ValueError otherwise)."""
    names = COLUMNS[table]
    if len(values) != len(names):
        raise ValueError(f"a {table} row has the columns {sorted(values)}, the table {sorted(names)}")
    rows[table].append(tuple([values[c] for c in names]))


#: The shape the store writes ``recorded_at`` in (eventlog/store: UTC, microseconds, ``Z``).
_STORED_TIME = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})\.([0-9]{6})Z")


def _recorded_at(text: str) -> datetime | None:
    if not text:
        return None
    stored = _STORED_TIME.fullmatch(text)
    if stored is not None:  # the store's own shape: what strptime below reads, without its parser
        try:
            year, month, day, hour, minute, second, micro = map(int, stored.groups())
            return datetime(year, month, day, hour, minute, second, micro, tzinfo=timezone.utc)
        except ValueError:
            pass
    try:
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
    except ValueError:
        try:
            return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)
        except ValueError:
            return None


def game_date(first: StoredEvent, recorded_at: datetime | None = None) -> date | None:
    """The game's date: game_started metadata ``date`` (``YYYY-MM-DD``, ``YYYY.MM.DD`` or
    ``YYYY/MM/DD``, as PMN's ``Date`` tag) when present and readable, else the UTC date of
    the event's ``recorded_at`` (``recorded_at``: that time already read, else it is read
    here); None when neither is known."""
    text = first.metadata.get("date")
    if isinstance(text, str):
        for fmt in _DATE_FORMATS:
            try:
                return datetime.strptime(text.strip(), fmt).date()
            except ValueError:
                pass
    rec = recorded_at if recorded_at is not None else _recorded_at(first.recorded_at)
    return rec.date() if rec else None


def _fan_items(score: ExplainedScore | None) -> tuple[ScoreLine, ...]:
    """The items of a win's explained score (replayer/explained.py)."""
    return score.lines() if score is not None else ()


def _reported_changes(state: TableState) -> tuple[int, ...] | None:
    """The hand's reported score changes: a whole-hand report (no winner) wins; else the
    sum of the per-winner reports that carry changes; None when nothing was reported."""
    with_changes = [(r.winner, r.score_changes) for r in state.reported if r.score_changes is not None]
    if not with_changes:
        return None
    whole = [changes for winner, changes in with_changes if winner is None]
    if whole:
        return tuple(whole[-1])
    return tuple(sum(changes[i] for _, changes in with_changes) for i in range(4))


def _reported_total(state: TableState, seat: int) -> int | None:
    totals = [r.total for r in state.reported if r.winner == seat and r.total is not None]
    return totals[-1] if totals else None


#: What the hand's summary (``seat_results``) counts per seat, as :attr:`_HandTracker.tally`
#: holds it: six counts a seat (seat * 6 + one of these).
_DISCARDS, _CHOWS, _PUNGS = 0, 1, 2
_KONGS = {"melded": 3, "concealed": 4, "added": 5}
if tuple(ACTIONS.columns) != ("game_id", "hand_number", "seq", "turn", "seat", "player", "action", "tile",
                              "detail", "from_seat"):  # the order _HandTracker.act writes
    raise ImportError(f"analytics.facts is out of step with the actions table: {ACTIONS.columns}")


class _HandTracker:
    """Actions and turns of the hand in progress (rows held until hand_ended)."""

    __slots__ = ("game_id", "players", "hand_number", "first_seq", "dealer", "actions", "turn", "open_turn",
                 "events", "findings", "tally", "last_play")

    def __init__(self, game_id: str, players: Sequence[str], hand_number: int, dealer: int,
                 first_seq: int = 0) -> None:
        self.game_id = game_id
        self.players = players
        self.hand_number = hand_number
        self.first_seq = first_seq  # the hand_started event: score-log entries after it are this hand's
        self.dealer = dealer
        self.actions: list[tuple[Any, ...]] = []  # rows of the actions table
        self.turn = -1
        self.open_turn: int | None = None  # seat whose turn is open (holds 14)
        self.events = 0
        self.findings = 0
        #: per seat (seat * 6 + _DISCARDS, _CHOWS, _PUNGS or a _KONGS kind): the seat's
        #: discards, chows, pungs and kongs by kind, counted as their actions are recorded
        self.tally = [0] * 24
        #: the highest seq of an action that is play (not a win, not a pass; -1: none yet)
        self.last_play = -1

    def start_turn(self, seat: int) -> None:
        self.turn += 1
        self.open_turn = seat

    def act(self, seq: int, seat: int, action: str, tile: str | None, detail: str | None = None,
            from_seat: int | None = None) -> None:
        players = self.players
        if seq > self.last_play and action != "win" and action != "pass":
            self.last_play = seq
        self.actions.append((
            self.game_id, self.hand_number, seq, self.turn if self.turn > 0 else 0, seat,
            players[seat] if seat < len(players) else "", action, tile, detail, from_seat,
        ))


def _drawn(hand: _HandTracker, e: Any, p: Any, state: TableState) -> None:
    seat = p.seat
    if p.source == "wall":  # a turn starts (start_turn)
        hand.turn += 1
        hand.open_turn = seat
    hand.act(e.seq, seat, "draw", p.tile, p.source)


def _discarded(hand: _HandTracker, e: Any, p: Any, state: TableState) -> None:
    seat = p.seat
    if hand.open_turn != seat:  # the dealer's first discard from a dealt 14: a turn starts
        hand.turn += 1
    hand.act(e.seq, seat, "discard", p.tile)
    hand.tally[seat * 6 + _DISCARDS] += 1
    hand.open_turn = None


def _chowed(hand: _HandTracker, e: Any, p: Any, state: TableState) -> None:
    hand.start_turn(p.seat)
    hand.act(e.seq, p.seat, "chow", p.claimed_tile, None, _discarder(state, p.discard_seq))
    hand.tally[p.seat * 6 + _CHOWS] += 1


def _punged(hand: _HandTracker, e: Any, p: Any, state: TableState) -> None:
    hand.start_turn(p.seat)
    hand.act(e.seq, p.seat, "pung", p.tile, None, _discarder(state, p.discard_seq))
    hand.tally[p.seat * 6 + _PUNGS] += 1


def _konged(hand: _HandTracker, e: Any, p: Any, state: TableState) -> None:
    if p.kind == "melded":
        hand.start_turn(p.seat)
    frm = _discarder(state, p.discard_seq) if p.kind == "melded" else None
    hand.act(e.seq, p.seat, "kong", p.tile, p.kind, frm)
    hand.tally[p.seat * 6 + _KONGS[p.kind]] += 1


def _passed(hand: _HandTracker, e: Any, p: Any, state: TableState) -> None:
    hand.act(e.seq, p.seat, "pass", None, p.claim, _discarder(state, p.discard_seq))


def _flowered(hand: _HandTracker, e: Any, p: Any, state: TableState) -> None:
    hand.act(e.seq, p.seat, "flower", p.flower)


def _won(hand: _HandTracker, e: Any, p: Any, state: TableState) -> None:
    how = "self_drawn" if p.self_drawn else ("robbing_kong" if p.robbing_kong else "discard")
    hand.act(e.seq, p.seat, "win", p.tile, how, None if p.self_drawn else p.from_seat)


#: The events that are a row of the actions table, by event type.
_ACTS: dict[str, Callable[[_HandTracker, Any, Any, TableState], None]] = {
    "tile_drawn": _drawn, "tile_discarded": _discarded, "chow": _chowed, "pung": _punged, "kong": _konged,
    "pass": _passed, "flower_replaced": _flowered, "win_declared": _won,
}


def game_facts(events: Sequence[StoredEvent], *, steps: Iterable[ReplayStep] | None = None) -> GameFacts | None:
    """Replay one game (``events`` in seq order, all of one stream) and build its rows.

    ``steps``: the audit-mode replay of exactly these events when the caller already has
    it; else the game is replayed through the batch path
    (:func:`replayer.replay.replay_game`). Returns None when the game is not finished (no
    ``game_ended``) or has no ``game_started``. Raises
    :class:`replayer.findings.RulesetError` for an unknown ruleset (the caller reports the
    game)."""
    collector = FactsCollector.start(events)
    if collector is None:
        return None
    if steps is None:
        take = collector.take
        for e, state, findings in replay_steps(events):
            take(e, state, findings)
    else:
        for step in steps:
            collector.step(step)
    return collector.result()


class FactsCollector:
    """The rows of one finished game built while it is replayed: :meth:`start` with the
    game's events, then :meth:`step` with every :class:`~replayer.replay.ReplayStep` of
    their audit-mode replay in order (a working state is read at once, never kept), then
    :meth:`result`. Lets one replay feed the facts and the audit (``paipu verify
    --export``)."""

    def __init__(self, events: Sequence[StoredEvent], end: StoredEvent) -> None:
        self.events = events
        self.end = end
        self.first = first = events[0]
        self.game_id = first.game_id
        self.recorded_at = _recorded_at(first.recorded_at)
        self.day = game_date(first, self.recorded_at)
        self.rows: dict[str, list[tuple[Any, ...]]] = {name: [] for name in COLUMNS}
        self.state: TableState = TableState()
        self.hand: _HandTracker | None = None
        self.total_findings = 0
        self.hands_done = 0
        self.players: tuple[str, ...] = ()

    @classmethod
    def start(cls, events: Sequence[StoredEvent]) -> FactsCollector | None:
        """A collector for ``events``, or None when the game has no rows (not started with
        game_started, or not finished: no game_ended)."""
        if not events or events[0].type != "game_started":
            return None
        end = next((e for e in events if e.type == "game_ended"), None)
        if end is None:
            return None
        if not isinstance(events[0].payload, GameStarted) or not isinstance(end.payload, GameEnded):
            return None  # a payload of another type under these names cannot parse; for the checker
        return cls(events, end)

    def step(self, step: ReplayStep) -> None:
        self.take(step.event, step.state, step.findings)

    def take(self, e: Any, state: TableState, findings: tuple[Any, ...]) -> None:
        """:meth:`step` given the step's event, state and findings
        (:func:`replayer.replay.replay_steps`)."""
        self.state = state
        if findings:
            self.total_findings += len(findings)
        t = e.type
        hand = self.hand
        act = _ACTS.get(t)
        if act is not None and hand is not None:  # the common case: a move in a hand
            hand.events += 1
            if findings:
                hand.findings += len(findings)
            act(hand, e, e.payload, state)
            return
        if t == "hand_started":
            p = e.payload
            hand = self.hand = _HandTracker(self.game_id, self.players,
                                            state.hand_number if state.hand_number is not None else p.hand_number,
                                            state.dealer if state.dealer is not None else p.dealer, e.seq)
        elif t == "game_started":
            self.players = state.players
            if hand is not None:  # a game_started inside a hand (a damaged log): its actions name them
                hand.players = state.players
            return
        if hand is None:
            return
        hand.events += 1
        if findings:
            hand.findings += len(findings)
        if t == "hand_ended":
            _hand_rows(self.rows, self.game_id, self.players, state, hand, self.day)
            self.hands_done += 1
            self.hand = None

    def result(self) -> GameFacts:
        """The game's rows, from the steps taken (the last one's state is the final)."""
        final, first, end, events = self.state, self.first, self.end, self.events
        started, ended = first.payload, end.payload
        assert isinstance(started, GameStarted) and isinstance(ended, GameEnded)  # checked by start
        rec = self.recorded_at
        _put(self.rows, "games", {
            "game_id": self.game_id,
            "ruleset_options": json.dumps(dict(final.ruleset_options), sort_keys=True,
                                          separators=(",", ":"), ensure_ascii=False),
            "source": started.source,
            "source_format": str(first.metadata.get("format", "")),
            "source_file": str(first.metadata.get("source", "")),
            "players": list(final.players),
            "hands": self.hands_done,
            "initial_scores": list(final.initial_scores),
            "final_scores": list(final.scores),
            "reported_final_scores": list(ended.final_scores) if ended.final_scores is not None else None,
            "findings": self.total_findings,
            "event_count": len(events),
            "first_position": first.position,
            "end_position": end.position,
            "last_position": events[-1].position,
            "recorded_at": rec,
            "date": self.day,
        })
        return GameFacts(self.game_id, final.ruleset_id or started.ruleset, end.position,
                         events[-1].position, self.rows)


def _discarder(state: TableState, discard_seq: int | None) -> int | None:
    if discard_seq is None:
        return state.pending.seat if state.pending is not None else None
    found = state.find_discard(discard_seq)
    return found[0] if found else None


def _hand_rows(rows: dict[str, list[tuple[Any, ...]]], game_id: str, players: Sequence[str],
               state: TableState, hand: _HandTracker, day: date | None) -> None:
    result = state.hands[-1]
    legal: list[WinRecord] = [w for w in state.wins if w.legal]
    first = legal[0] if legal else None
    n = result.hand_number
    outcome = "win" if legal else ("draw" if result.exhaustive_draw else "other")
    _put(rows, "hands", {
        "game_id": game_id,
        "hand_number": n,
        "prevalent_wind": result.prevalent_wind,
        "dealer": result.dealer,
        "outcome": outcome,
        "winner": first.seat if first else None,
        "winners": len(legal),
        "self_drawn": first.self_drawn if first else None,
        "discarder": None if first is None or first.self_drawn else first.from_seat,
        "win_tile": first.tile if first else None,
        "fan_total": first.points if first else None,
        "reported_total": _reported_total(state, first.seat) if first else None,
        "turns": hand.turn + 1,
        "events": hand.events,
        "findings": hand.findings,
        "date": day,
    })
    reported = _reported_changes(state)
    tally = hand.tally  # per seat: discards, chows, pungs, kongs by kind
    all_discards = tally[_DISCARDS] + tally[6 + _DISCARDS] + tally[12 + _DISCARDS] + tally[18 + _DISCARDS]
    dealt_in = {w.from_seat for w in legal if not w.self_drawn and w.from_seat is not None}
    # play went on after a win when a seat drew, discarded, claimed … later; further wins on
    # the same discard (several winners) and passes on it are no play: the hand ended there
    last_play = hand.last_play
    for seat in range(4):
        mine = [w for w in legal if w.seat == seat]
        left = min(w.seq for w in mine) if mine else None
        at = seat * 6
        _put(rows, "seat_results", {
            "game_id": game_id,
            "hand_number": n,
            "seat": seat,
            "player": players[seat] if seat < len(players) else "",
            "is_dealer": seat == result.dealer,
            "seat_wind": state.seats[seat].wind or "",
            "score_change": result.changes[seat],
            "reported_score_change": reported[seat] if reported is not None else None,
            "won": bool(mine),
            "left_at_seq": left if left is not None and last_play > left else None,
            "self_drawn": any(w.self_drawn for w in mine),
            "dealt_in": seat in dealt_in,
            "discards": tally[at + _DISCARDS],
            "discards_seen": all_discards - tally[at + _DISCARDS],
            "chows": tally[at + _CHOWS],
            "pungs": tally[at + _PUNGS],
            "melded_kongs": tally[at + _KONGS["melded"]],
            "concealed_kongs": tally[at + _KONGS["concealed"]],
            "added_kongs": tally[at + _KONGS["added"]],
            "date": day,
        })
    for w in legal:
        fans = _fan_items(w.score)
        player = players[w.seat] if w.seat < len(players) else ""
        _put(rows, "wins", {
            "game_id": game_id,
            "hand_number": n,
            "win_seq": w.seq,
            "seat": w.seat,
            "player": player,
            "win_tile": w.tile,
            "self_drawn": w.self_drawn,
            "discarder": None if w.self_drawn else w.from_seat,
            "robbing_kong": w.robbing_kong,
            "total": w.points if w.points is not None else 0,
            "fans": len(fans),
            "points_won": w.settlement.changes[w.seat] if w.settlement is not None else 0,
            "reported_total": _reported_total(state, w.seat),
            "date": day,
        })
        for f in fans:
            _put(rows, "fans", {
                "game_id": game_id,
                "hand_number": n,
                "win_seq": w.seq,
                "seat": w.seat,
                "player": player,
                "name_en": f.name_en,
                "name_zh": f.name_zh,
                "points": f.value,
                "count": f.count,
                "provisional": f.provisional,
                "date": day,
            })
        names = sorted({f.name_en for f in fans})
        for i, fan_a in enumerate(names):
            for fan_b in names[i + 1:]:
                _put(rows, "fan_pairs", {
                    "game_id": game_id,
                    "hand_number": n,
                    "win_seq": w.seq,
                    "seat": w.seat,
                    "player": player,
                    "fan_a": fan_a,
                    "fan_b": fan_b,
                    "date": day,
                })
    _component_rows(rows, game_id, players, state, hand, legal, day)
    rows["actions"].extend(hand.actions)


def _component_rows(rows: dict[str, list[tuple[Any, ...]]], game_id: str, players: Sequence[str],
                    state: TableState, hand: _HandTracker, legal: list[WinRecord],
                    day: date | None) -> None:
    """The hand's score changes split by component and by the event that made them. A
    settlement that names its components (``Settlement.parts``: Sichuan kong, win,
    hujiao_zhuanyi, huazhu, chajiao, tuishui) or a win whose explained score carries
    ``components`` (Nanchang: jing, gangjing, kong, chaozhuang, win, penalty) contributes
    each of them; any other win contributes its settlement as ``win``. Score-log entries of
    the hand that are not wins (penalties, rulings, kong or draw payments) add their parts,
    or their kind."""
    totals: dict[tuple[int, str], list[int]] = {}

    def add(seq: int, name: str, vec: Sequence[int]) -> None:
        acc = totals.setdefault((seq, name), [0, 0, 0, 0])
        for i in range(4):
            acc[i] += int(vec[i])

    for w in legal:
        parts = (w.settlement.parts if w.settlement is not None else ()) or \
            (w.score.settlement_parts() if w.score is not None else ())
        if parts:
            for name, vec in parts:
                add(w.seq, str(name), vec)
        elif w.settlement is not None:
            add(w.seq, "win", w.settlement.changes)
    for entry in state.score_log:
        if entry.seq > hand.first_seq and entry.kind != "win":
            for name, vec in entry.parts or ((entry.kind, entry.changes),):
                add(entry.seq, name, vec)
    for seq, name in sorted(totals):
        summed = totals[(seq, name)]
        if not any(summed):
            continue
        for seat in range(4):
            _put(rows, "score_components", {
                "game_id": game_id,
                "hand_number": hand.hand_number,
                "seq": seq,
                "seat": seat,
                "player": players[seat] if seat < len(players) else "",
                "component": name,
                "points": summed[seat],
                "date": day,
            })
