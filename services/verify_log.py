"""``ReplayService.VerifyLog``: the whole log checked as ``paipu verify`` checks it
(proto/paipu/v1/replay_service.proto, VerifyLog), with the same functions
(replayer/log_verify.py; eventlog/verify.py verify_log; eventlog/parallel.py map_games).

:func:`verify_log_messages` yields one ``GameVerdict`` per game in the log's order (only the
games that are not ok with ``problems_only``), then the ``VerifyLogSummary``. It is lazy: a
game is checked when the next message is asked for, so a call the client cancels stops at the
game in hand, and ``active()`` (the call's ``context.is_active``) is asked before each game is
begun, for a run that sends nothing while its games are ok; with worker processes the pool is
ended when the generator is closed or stops.
Every message is small: a verdict counts findings by rule instead of listing them, and every
text in it is clipped to :data:`TEXT_BYTES` (services/status.py clip).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

from eventlog.parallel import map_games
from eventlog.store.base import EventStore
from eventlog.store.streams import is_log_stream
from eventlog.verify import ChainReport, verify_log
from paipu.v1 import replay_service_pb2 as pb
from replayer.audit import GameAudit
from replayer.log_verify import (
    LogStreamCheck,
    check_log_stream,
    disagreements,
    game_verdict,
    games_to_verify,
    log_verdict,
    run_verdict,
    verify_listed,
)
from services.status import clip

__all__ = ["TEXT_BYTES", "verify_log_messages", "game_verdict_message"]

#: Longest text (a chain's reason, a problem of the log) in a VerifyLog message, in wire bytes.
TEXT_BYTES = 1024


def game_verdict_message(chain: ChainReport, audit: GameAudit | None) -> pb.GameVerdict:
    """The ``paipu.v1.GameVerdict`` of one game's chain report and (intact chain) audit."""
    msg = pb.GameVerdict(game_id=chain.game_id, ok=game_verdict(chain, audit) == "ok", chain_ok=chain.ok,
                         events=chain.events, chain_reason=clip(chain.reason, TEXT_BYTES))
    if chain.first_bad_seq is not None:
        msg.first_bad_seq = chain.first_bad_seq
    if audit is not None:
        msg.replayed = True
        msg.ruleset = audit.ruleset or ""
        msg.findings_total = len(audit.findings)
        by_rule = Counter(f.rule_id for f in audit.findings)
        msg.findings_by_rule.extend(pb.RuleCount(rule_id=r, count=n) for r, n in sorted(by_rule.items()))
        msg.disagreements = disagreements(audit)
    return msg


def _stream_message(c: LogStreamCheck) -> pb.LogStreamVerdict:
    msg = pb.LogStreamVerdict(stream=c.stream, chain_ok=c.chain.ok, events=c.chain.events,
                              chain_reason=clip(c.chain.reason, TEXT_BYTES), not_belonging=len(c.strays))
    if c.chain.first_bad_seq is not None:
        msg.first_bad_seq = c.chain.first_bad_seq
    return msg


def verify_log_messages(
    store: EventStore, *, problems_only: bool = False, workers: int = 1, active: Callable[[], bool] = lambda: True
) -> Iterator[pb.VerifyLogResponse]:
    """The messages of a VerifyLog call over ``store`` (see the module doc). ``workers``: worker
    processes checking games (eventlog/parallel.py; 1 = in this thread). Stops, sending nothing
    more, once ``active()`` is false."""
    ids, unreadable = games_to_verify(store)
    damage = getattr(store, "damage", None) or unreadable  # as paipu verify: a salvaged store's loss first
    streams = [check_log_stream(store, g) for g in ids if is_log_stream(g)]
    games = [g for g in ids if not is_log_stream(g)]
    counts: Counter[str] = Counter()
    with map_games(store, games, verify_listed, workers=workers) as results:
        for _ in games:
            if not active():  # asked before each game is begun
                return
            chain, audit = next(results)
            verdict = game_verdict(chain, audit)
            counts[verdict] += 1
            if not problems_only or verdict != "ok":
                yield pb.VerifyLogResponse(game=game_verdict_message(chain, audit))
    if not active():
        return
    log = log_verdict(verify_log(store), damage, streams)
    broken, findings = counts["broken"], counts["findings"]
    summary = pb.VerifyLogSummary(
        games=len(games), intact=counts["ok"], chains_intact=len(games) - broken, broken_chains=broken,
        with_findings=findings, log_damaged=log.damaged,
        verdict=run_verdict(broken, findings, log.damaged, any(c.strays for c in streams)),
        log=pb.LogVerdict(ok=log.ok, events=log.events, head=log.head,
                          problems=[clip(p, TEXT_BYTES) for p in log.problems]),
        log_streams=[_stream_message(c) for c in streams],
    )
    if log.checkpoint is not None:
        summary.log.checkpoint = log.checkpoint
    yield pb.VerifyLogResponse(summary=summary)
