"""What ``paipu verify`` checks of a whole log, shared by the CLI (paipu/cli/check.py) and gRPC
``ReplayService.VerifyLog`` (services/replay_service.py), so both give the same verdicts:

* :func:`games_to_verify` — every stream id found in the events themselves (not only in the
  stream records: :meth:`EventStore.raw_game_ids`); when the database cannot list them, the ids
  its stream records name, with the :class:`CorruptDatabase` met;
* :func:`verify_and_audit` — one game: its hash chain (eventlog/verify.py) and, when it is
  intact, the audit replay (replayer/audit.py) of the events the check read (one read);
  :func:`verify_listed` the same for an id the store itself listed (a top-level function, so
  :func:`eventlog.parallel.map_games` can send it to worker processes);
* :func:`check_log_stream` — one of the log's own streams (``paipu:players``,
  eventlog/store/streams.py): its hash chain and the events it holds that do not belong there
  (a game event appended before such appends were refused); a stream that is no game is not
  replayed;
* :func:`game_verdict` and :func:`disagreements` — how a game's check is counted;
* :func:`run_verdict` — the whole run's verdict (``paipu verify``'s exit status);
* :func:`log_verdict` — the log's own check (every position, the running hash, the
  checkpoint: :func:`eventlog.verify.verify_log`) with what else was found damaged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from eventlog.store.base import EventStore
from eventlog.store.errors import CorruptDatabase
from eventlog.store.streams import LOG_STREAMS, stray_events
from eventlog.verify import ChainReport, LogReport, verify_game, verify_game_events
from eventlog.words import plural
from replayer.audit import GameAudit, audit_game

__all__ = ["LogStreamCheck", "games_to_verify", "verify_and_audit", "verify_listed", "check_log_stream",
           "game_verdict", "disagreements", "LogVerdict", "log_verdict", "run_verdict"]


def games_to_verify(store: EventStore) -> tuple[list[str], CorruptDatabase | None]:
    """Every stream id of the log — games and the log's own streams — found in the events
    themselves (then those only a stream record names), and None; when the database cannot
    list them: the ids the stream records name, as far as they read, and the
    :class:`CorruptDatabase` met (the caller says so: the log is damaged)."""
    try:
        return store.raw_game_ids(), None
    except CorruptDatabase as e:
        try:
            return [g.game_id for g in store.list_games()], e
        except CorruptDatabase:
            return [], e


def verify_and_audit(store: EventStore, game_id: str, *, listed: bool = False) -> tuple[ChainReport, GameAudit | None]:
    """The chain check of ``game_id`` and, when the chain is intact, the audit replay of the
    events it read (None when broken: a damaged history is not replayed). ``listed``: the id
    came from the store itself (a game it lists but cannot find is a failed report, not
    GameNotFound). Raises GameNotFound (not ``listed``, no such game)."""
    chain, events = verify_game_events(store, game_id, listed=listed)
    audit = audit_game(events) if events is not None else None
    return chain, audit


def verify_listed(store: EventStore, game_id: str) -> tuple[ChainReport, GameAudit | None]:
    """:func:`verify_and_audit` of an id the store listed (picklable for worker processes)."""
    return verify_and_audit(store, game_id, listed=True)


def game_verdict(chain: ChainReport, audit: GameAudit | None) -> str:
    """``"ok"`` (chain intact, no finding, every reported score agrees), ``"broken"`` (the
    chain is broken or events are missing: ``paipu verify`` exit 3) or ``"findings"`` (rule
    findings or reported fans / scores that disagree: exit 1)."""
    if not chain.ok:
        return "broken"
    return "ok" if audit is not None and audit.ok else "findings"


def disagreements(audit: GameAudit) -> int:
    """The wins whose reported fans or score disagree with the computed ones, plus the reported
    scores of no win (a draw's, the final ones) that disagree."""
    return (sum(1 for w in audit.wins if w.fans_agree is False or w.score_agrees is False)
            + sum(1 for r in audit.reported if not r.agrees and r.winner is None))


@dataclass(frozen=True)
class LogStreamCheck:
    """One of the log's own streams checked: its ``chain`` and, when intact, the events it holds
    that do not belong there, ``strays`` ``(seq, event type)`` in seq order."""

    stream: str
    chain: ChainReport
    strays: tuple[tuple[int, str], ...]

    @property
    def holds(self) -> str:
        """The event types the stream holds, in words."""
        return " and ".join(sorted(LOG_STREAMS.get(self.stream, ()))) or "nothing (no such log stream)"

    @property
    def broken_words(self) -> str:
        """``"paipu:players: chain BROKEN at seq 3: …"``; "" when the chain is intact."""
        c = self.chain
        return "" if c.ok else f"{self.stream}: chain BROKEN at seq {c.first_bad_seq}: {c.reason}"

    @property
    def strays_words(self) -> str:
        """The events that do not belong there, in one line (the first ten by seq); "" for none."""
        n = len(self.strays)
        if not n:
            return ""
        return (f"{self.stream}: {plural(n, 'event')} {'does' if n == 1 else 'do'} not belong there "
                f"(the log's own stream, not a game, holds {self.holds} only): "
                + ", ".join(f"seq {q} {t}" for q, t in self.strays[:10])
                + (f" … ({n - 10} more)" if n > 10 else ""))


def check_log_stream(store: EventStore, stream: str) -> LogStreamCheck:
    """The chain of the log's own stream ``stream`` and, when intact, its stray events.
    Raises GameNotFound when the log has no such stream."""
    chain = verify_game(store, stream)
    strays = tuple(stray_events(stream, store.read_game(stream))) if chain.ok else ()
    return LogStreamCheck(stream, chain, strays)


@dataclass(frozen=True)
class LogVerdict:
    """The verdict on the log itself, as ``paipu verify --json`` gives it (``"log"``):
    ``ok`` when every position is present, the running hash agrees with the head and the
    checkpoint, and nothing was found damaged when the store was opened; ``events`` rows walked,
    ``head`` the recorded last position, ``checkpoint`` its position (None: the backend keeps
    none); ``problems`` in words (the log's, the damage, the broken chains of its own streams).
    ``damaged``: not ``ok``, or one of the log's own streams has a broken chain (exit 3)."""

    ok: bool
    events: int
    head: int
    checkpoint: int | None
    problems: tuple[str, ...]
    damaged: bool


def log_verdict(log: LogReport, damage: Exception | None, streams: Sequence[LogStreamCheck]) -> LogVerdict:
    """:class:`LogVerdict` of ``log`` (:func:`eventlog.verify.verify_log`), ``damage`` (what
    opening or listing the store met: a salvaged store's loss, a CorruptDatabase; None) and the
    checks of the log's own streams."""
    broken = [c.broken_words for c in streams if c.broken_words]
    ok = log.ok and damage is None
    problems = (*log.problems, *([str(damage)] if damage is not None else []), *broken)
    return LogVerdict(ok, log.events, log.head, log.checkpoint, problems, not ok or bool(broken))


def run_verdict(broken_chains: int, with_findings: int, log_damaged: bool, strays: bool) -> str:
    """The verdict on a run of ``paipu verify`` (its exit status, paipu/cli/check.py):
    ``"damaged"`` (3) when a game's chain is broken or the log is damaged, else ``"findings"`` (1)
    when a game has rule findings or disagreements or a log stream holds events that do not
    belong there (``strays``), else ``"ok"`` (0)."""
    if broken_chains or log_damaged:
        return "damaged"
    return "findings" if with_findings or strays else "ok"
