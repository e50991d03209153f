"""The gRPC replay service ``paipu.v1.ReplayService`` (proto/paipu/v1/replay_service.proto).

:class:`ReplayServicer` over an event store and the replayer (audit mode, docs/reference/DESIGN.md §6):

* ``GetState(game_id, seq, seat?)`` — the table right after event ``seq``, with the event
  and its findings (:func:`table_state_message`);
* ``StepThrough(game_id, from_seq, to_seq?, seat?)`` — one table per event, in seq order;
* ``Verify(game_id, as_ruleset?, options_json?)`` — hash chain (eventlog/verify.py) and, when
  intact, the audit replay (replayer/audit.py): findings and, per win, computed vs reported
  fans and scores; with a what-if ruleset or options, both scorings side by side
  (replayer/whatif.py); the reply kept under the reply limit (``reply_bytes``, by default
  4 MiB less 64 KiB: services/verify_reply.py), its long lists cut to their first items with
  ``truncated`` set and every total kept;
* ``VerifyStream`` — the same verdict in parts, each under the limit, never cut;
* ``VerifyLog(problems_only?)`` — the whole log as ``paipu verify`` checks it, one verdict per
  game and a summary (services/verify_log.py, replayer/log_verify.py);
* ``Review(game_id, seats, hand?)`` — the rules-based decision review of the seats' discards
  (replayer/review.py).

A **seat view** (``seat`` given) shows that seat as it sees the table: every other seat's
concealed tiles are withheld (only their number is given), another seat's concealed
kong lies face down (kind only, no tiles), and the event that produced the state is
redacted by the one seat-view rule, :func:`eventlog.view.seat_view`, before it becomes
protobuf: what each payload class declares private (``Payload.PRIVATE``; for the core types
``tiles_dealt``/``tile_drawn`` of another seat lose their tiles, ``hand_started`` its wall,
seed and metadata, another seat's concealed kong its tile, another seat's lost claim its
tiles; a ruleset's own type declares its own) is withheld; ``TableState.redacted`` says so
(docs/reference/DESIGN.md §6, §8 "one seat's view").

Errors: NOT_FOUND (GAME_NOT_FOUND) for a game with no events; INVALID_ARGUMENT with a
BadRequest naming ``seq`` / ``from_seq`` / ``to_seq`` / ``seat`` and the valid range, or
``game_id`` for one of the log's own streams (``paipu:players``, eventlog/store/streams.py:
no game to replay or review);
DATA_LOSS for a damaged stored event; FAILED_PRECONDITION (STATE_NOT_CARRIED {game_id, seq})
for a table holding a number the messages cannot carry (a game stored before the number
ranges were checked, docs/events.md "Number ranges"); the viewer role is needed when tokens
are on.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import grpc

from eventlog.convert import MAX_JSON_DEPTH, json_depth, to_proto
from eventlog.errors import PaipuError
from eventlog.events import StoredEvent
from eventlog.store.base import EventStore, GameNotFound
from eventlog.store.streams import LOG_STREAMS, is_log_stream, log_stream_words, stray_events
from eventlog.verify import ChainReport, verify_game
from eventlog.view import seat_view
from replayer.actions import WinningTile
from replayer.audit import GameAudit, WinAudit, audit_game
from replayer.findings import Finding, RulesetError
from replayer.review import DiscardOption, GameReview, SeatSummary, review_game
from replayer.rules.base import known_ids
from replayer.whatif import WhatIf, what_if
from replayer.replay import apply
from replayer.snapshots import SnapshotCache, state_at
from replayer.state import DeclaredMeld, ReportedScore, SeatState, TableState
from replayer.view import seat_state_view
from paipu.v1 import events_pb2
from paipu.v1 import replay_service_pb2 as pb
from paipu.v1 import replay_service_pb2_grpc as pb_grpc
from services.status import BadArgument
from services.verify_reply import REPLY_BYTES, fit_reply, reply_parts
from services.verify_log import verify_log_messages

__all__ = [
    "SERVICE_NAME",
    "ReplayServicer",
    "table_state_message",
    "verify_message",
    "finding_message",
    "what_if_message",
    "review_message",
]

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["ReplayService"].full_name  # paipu.v1.ReplayService

_MELD_KINDS = {"chow": pb.MELD_KIND_CHOW, "pung": pb.MELD_KIND_PUNG, "kong": pb.MELD_KIND_KONG}
_KONG_KINDS = {
    None: events_pb2.KONG_KIND_UNSPECIFIED,
    "concealed": events_pb2.KONG_KIND_CONCEALED,
    "melded": events_pb2.KONG_KIND_MELDED,
    "added": events_pb2.KONG_KIND_ADDED,
}


# ----------------------------------------------------------------------------- messages
def finding_message(f: Finding) -> pb.Finding:
    """The wire form of a replayer :class:`~replayer.findings.Finding`."""
    msg = pb.Finding(seq=f.seq, rule_id=f.rule_id, message=f.message, source=f.source)
    if f.seat is not None:
        msg.seat = f.seat
    if f.hand_number is not None:
        msg.hand_number = f.hand_number
    return msg


def _meld(m: DeclaredMeld, face_down: bool) -> pb.Meld:
    msg = pb.Meld(kind=_MELD_KINDS[m.kind], kong_kind=_KONG_KINDS[m.kong_kind], seq=m.seq)
    if not face_down:
        msg.tiles.extend(m.tiles)
    if m.claimed_tile is not None:
        msg.claimed_tile = m.claimed_tile
    if m.from_seat is not None:
        msg.from_seat = m.from_seat
    if m.discard_seq is not None:
        msg.discard_seq = m.discard_seq
    if m.added_seq is not None:
        msg.added_seq = m.added_seq
    return msg


def _seat(i: int, st: SeatState, hidden: bool) -> pb.SeatState:
    """One seat of a state; ``hidden``: another seat's in a seat view, whose state is already
    the one that seat sees (:func:`replayer.view.seat_state_view`: no concealed tile in it)."""
    msg = pb.SeatState(
        seat=i,
        concealed_count=st.concealed_size,
        unknown_tiles=st.hidden,
        hidden_from_view=hidden,
        melds=[_meld(m, hidden and m.concealed) for m in st.melds],
        flowers=st.flowers,
        score=st.score,
        wind=st.wind or "",
    )
    if st.dead_hand is not None:  # 相公 (SeatState.dead_hand): public, as at the table
        msg.dead_hand = st.dead_hand
    msg.miscount = st.miscount
    msg.concealed_tiles.extend(st.tiles)  # empty for another seat in a seat view
    for d in st.discards:
        dm = msg.discards.add(seq=d.seq, tile=d.tile)
        if d.claimed_by is not None:
            dm.claimed_by = d.claimed_by
    return msg


def table_state_message(
    state: TableState,
    event: StoredEvent,
    findings: Sequence[Finding] = (),
    *,
    seat: int | None = None,
) -> pb.TableState:
    """The wire form of the table ``state`` produced by ``event`` (a stored event) with its
    ``findings``; ``seat`` (0..3) makes it that seat's view (see the module doc): the event is
    redacted by :func:`eventlog.view.seat_view` before it is converted, and ``redacted`` says
    whether anything was withheld; the table is the one that seat sees
    (:func:`replayer.view.seat_state_view`, the same rule as every other reader's)."""
    try:
        return _table_state_message(state, event, findings, seat)
    except ValueError as e:  # protobuf: a number beyond its field (sint64 …)
        if isinstance(e, PaipuError):
            raise
        raise StateNotCarried(
            f"game {event.game_id!r} seq {event.seq}: the table holds a number the contract cannot carry "
            f"({e}): the game has a number stored before the ranges were checked (docs/events.md "
            f"\"Number ranges\"); `paipu replay {event.game_id} --at {event.seq}` shows it",
            event.game_id, event.seq) from None


class StateNotCarried(PaipuError):
    """The table at an event holds a number the TableState message cannot carry (a score
    beyond sint64 from a game stored before the number ranges were checked): gRPC
    FAILED_PRECONDITION naming the game and seq; the events themselves are served
    (``RecordedEvent.stored_payload_json``)."""

    grpc_code = "FAILED_PRECONDITION"
    fields = ("game_id", "seq")

    def __init__(self, message: str, game_id: str, seq: int) -> None:
        super().__init__(message)
        self.game_id, self.seq = game_id, seq


def _table_state_message(state: TableState, event: StoredEvent, findings: Sequence[Finding],
                         seat: int | None) -> pb.TableState:
    shown = seat_view(event, seat)
    state = seat_state_view(state, seat)
    msg = pb.TableState(
        game_id=state.game_id or event.game_id,
        seq=event.seq,
        event=to_proto(shown),
        findings=[finding_message(f) for f in findings],
        ruleset=state.ruleset_id or "",
        ruleset_options_json=(
            json.dumps(dict(state.ruleset_options), ensure_ascii=False, separators=(",", ":"))
            if state.ruleset_options
            else ""
        ),
        players=state.players,
        phase=pb.Phase.Value("PHASE_" + state.phase.upper()),
        prevalent_wind=state.prevalent_wind or "",
        hands_finished=len(state.hands),
        wall_remaining=state.wall_remaining,
        wildcard_indicator=state.wildcard_indicator or "",
        seats=[_seat(i, st, seat is not None and seat != i) for i, st in enumerate(state.seats)],
        game_over=state.game_over,
    )
    for name in ("turn", "dealer", "hand_number"):
        value = getattr(state, name)
        if value is not None:
            setattr(msg, name, value)
    if state.pending is not None:
        msg.pending_discard_seq = state.pending.seq
    if seat is not None:
        msg.view_seat = seat
        msg.redacted = shown is not event
    return msg


def _scores(values: Sequence[int] | None) -> events_pb2.SeatScores | None:
    return None if values is None else events_pb2.SeatScores(values=values)


def _reported(r: ReportedScore) -> pb.ReportedScoreComparison:
    msg = pb.ReportedScoreComparison(
        seq=r.seq,
        score_changes=_scores(r.score_changes),
        computed_changes=_scores(r.computed_changes),
        agrees=r.agrees,
        unverifiable=r.unverifiable,
    )
    for name, points, count in r.fans:
        fan = msg.fans.add(name=name, count=count)
        if points is not None:
            fan.points = points
    for name in ("winner", "total", "computed_total"):
        value = getattr(r, name)
        if value is not None:
            setattr(msg, name, value)
    return msg


def _win(w: WinAudit) -> pb.WinAudit:
    msg = pb.WinAudit(
        seq=w.seq,
        seat=w.seat,
        tile=w.tile,
        self_drawn=w.self_drawn,
        legal=w.legal,
        changes=_scores(w.changes),
        reported=_reported(w.reported) if w.reported is not None else None,
    )
    for f in w.fans:
        line = msg.fans.add(name_en=f.name_en, name_zh=f.name_zh, count=f.count, provisional=f.provisional)
        if f.points is not None:
            line.points = f.points
        for group in f.tiles:
            line.groups.add(tiles=group)
    for name in ("hand_number", "from_seat", "points", "fans_agree", "score_agrees"):
        value = getattr(w, name)
        if value is not None:
            setattr(msg, name, value)
    return msg


def verify_message(chain: ChainReport, audit: GameAudit | None) -> pb.VerifyResponse:
    """The wire form of a chain report and (when the chain is intact) the game's audit."""
    chain_msg = pb.ChainReport(ok=chain.ok, events=chain.events, reason=chain.reason)
    if chain.first_bad_seq is not None:
        chain_msg.first_bad_seq = chain.first_bad_seq
    msg = pb.VerifyResponse(
        game_id=chain.game_id, ok=chain.ok and audit is not None and audit.ok, chain=chain_msg
    )
    if audit is not None:
        msg.audit.CopyFrom(
            pb.GameAudit(
                ruleset=audit.ruleset or "",
                hands=audit.hands,
                events=audit.events,
                wins=[_win(w) for w in audit.wins],
                draws=audit.draws,
                findings=[finding_message(f) for f in audit.findings],
                ok=audit.ok,
                wins_total=len(audit.wins),
            )
        )
        _count_findings(msg.audit, [f.rule_id for f in audit.findings])
    return msg


def _count_findings(audit: pb.GameAudit, rule_ids: Sequence[str]) -> None:
    """``findings_total`` and ``findings_by_rule`` (in rule_id order) of ``audit``."""
    audit.findings_total = len(rule_ids)
    audit.findings_by_rule.extend(pb.RuleCount(rule_id=r, count=n) for r, n in sorted(Counter(rule_ids).items()))


def what_if_message(w: WhatIf) -> pb.WhatIfComparison:
    """The wire form of a what-if comparison (replayer/whatif.py)."""

    def opts(o: dict) -> str:
        return json.dumps(o, ensure_ascii=False, sort_keys=True, separators=(",", ":"))

    msg = pb.WhatIfComparison(
        ruleset_before=w.ruleset_before, options_before_json=opts(w.options_before),
        ruleset_after=w.ruleset_after, options_after_json=opts(w.options_after),
        option_changes=[pb.OptionChange(name=c.name, before=c.before, after=c.after, meaning=c.meaning,
                                        source=c.source) for c in w.option_changes],
        findings_only_before=[finding_message(f) for f in w.findings_only_before],
        findings_only_after=[finding_message(f) for f in w.findings_only_after],
        scores_before=_scores(w.scores_before), scores_after=_scores(w.scores_after), differs=w.differs,
        wins_total=len(w.wins), findings_only_before_total=len(w.findings_only_before),
        findings_only_after_total=len(w.findings_only_after),
    )
    if w.start_after is not None:  # another base ruleset starts from its own scores (absent: the record's)
        msg.start_after.CopyFrom(_scores(w.start_after))
    for x in w.wins:
        wm = msg.wins.add(
            seq=x.seq, seat=x.seat, tile=x.tile, legal_before=x.legal_before, legal_after=x.legal_after,
            changes_before=_scores(x.changes_before), changes_after=_scores(x.changes_after), differs=x.differs,
            fans=[pb.FanDifference(id=d.id, name_en=d.name_en, name_zh=d.name_zh, before=d.before, after=d.after,
                                   source=d.source) for d in x.fans],
            reasons_before=[pb.Finding(seq=x.seq, rule_id=r, message=m, source=s) for r, m, s in x.reasons_before],
            reasons_after=[pb.Finding(seq=x.seq, rule_id=r, message=m, source=s) for r, m, s in x.reasons_after],
        )
        for name in ("hand_number", "points_before", "points_after"):
            value = getattr(x, name)
            if value is not None:
                setattr(wm, name, value)
    return msg


def _improving(pairs: Sequence[tuple[str, int]]) -> list[pb.ImprovingTile]:
    return [pb.ImprovingTile(tile=t, unseen=n) for t, n in pairs]


def _summary(s: SeatSummary) -> pb.ReviewSummary:
    msg = pb.ReviewSummary(discards=s.discards, kept_best=s.kept_best, hands=s.hands, ready_hands=s.ready_hands)
    if s.seat >= 0:
        msg.seat = s.seat
    if s.mean_ready_turn is not None:
        msg.mean_ready_turn = s.mean_ready_turn
    return msg


def _waits(waits: Sequence[WinningTile]) -> list[pb.WinningTile]:
    return [pb.WinningTile(tile=w.tile, self_drawn=w.self_drawn, on_discard=w.on_discard) for w in waits]


def _option(o: DiscardOption) -> pb.DiscardOption:
    return pb.DiscardOption(tile=o.tile, shanten=o.shanten, improving=_improving(o.improving), improving_count=o.count,
                            waits=_waits(o.waits), no_wait=o.no_wait)


def review_message(r: GameReview) -> pb.ReviewResponse:
    """The wire form of a decision review (replayer/review.py)."""
    msg = pb.ReviewResponse(game_id=r.game_id, label=r.label, ruleset=r.ruleset or "",
                            shape_sources=r.shape_sources, seats=[_summary(s) for s in r.seats],
                            total=_summary(r.total))
    for h in r.hands:
        hm = msg.hands.add(seat=h.seat, won=h.won, reviewable=h.reviewable, reason=h.reason)
        for name in ("hand_number", "ready_turn", "ready_seq"):
            value = getattr(h, name)
            if value is not None:
                setattr(hm, name, value)
        for d in h.discards:
            hm.discards.add(
                seq=d.seq, turn=d.turn, hand=d.hand, wildcards=d.wildcards, played=d.played,
                shanten_before=d.shanten_before, shanten_after=d.shanten_after,
                improving=_improving(d.improving), improving_count=d.improving_count, best=d.best,
                best_count=d.best_count, kept_best=d.kept_best, options=[_option(o) for o in d.options],
                no_win=d.no_win, waits=_waits(d.waits), no_wait=d.no_wait,
            )
    return msg


def _log_stream_verdict(store: EventStore, stream: str) -> pb.VerifyResponse:
    """Verify of one of the log's own streams (``paipu:players``, eventlog/store/streams.py):
    its hash chain, and — a stream that is no game is not replayed — one finding
    ``event_not_in_log_stream`` per stored event it does not hold (a game event appended before
    such appends were refused), as ``paipu verify`` names them."""
    chain = verify_game(store, stream)  # GameNotFound when the log has no such stream
    msg = verify_message(chain, None)
    if not chain.ok:
        return msg
    holds = " and ".join(sorted(LOG_STREAMS.get(stream, ()))) or "nothing (no such log stream)"
    findings = [pb.Finding(seq=seq, rule_id="event_not_in_log_stream",
                           message=f"a {kind} event does not belong in {stream}: the log's own stream, not a game, "
                                   f"holds {holds} only",
                           source="docs/events.md (player_aliased: the log's own streams)")
                for seq, kind in stray_events(stream, store.read_game(stream))]
    msg.audit.CopyFrom(pb.GameAudit(events=chain.events, findings=findings, ok=not findings))
    _count_findings(msg.audit, [f.rule_id for f in findings])
    msg.ok = not findings
    return msg


# ----------------------------------------------------------------------------- service
class ReplayServicer(pb_grpc.ReplayServiceServicer):
    """``paipu.v1.ReplayService`` over ``store`` (thread-safe; shared with the other
    services; access control and error statuses are the server's interceptors).
    ``reply_bytes``: the largest Verify reply and VerifyStream message (bytes; default
    :data:`services.verify_reply.REPLY_BYTES`, under a gRPC client's default 4 MiB).
    ``verify_workers``: worker processes a VerifyLog call checks games in (1: in its own
    thread; eventlog/parallel.py)."""

    def __init__(self, store: EventStore, reply_bytes: int = REPLY_BYTES, *, verify_workers: int = 1) -> None:
        self._store = store
        self._reply_bytes = reply_bytes
        self._verify_workers = verify_workers
        self._snapshots = SnapshotCache()  # this servicer's own, locked: gRPC threads share it

    def _events(self, game_id: str) -> list[StoredEvent]:
        """The events of the game ``game_id``; INVALID_ARGUMENT (``game_id``) for one of the
        log's own streams (``paipu:players``: player aliases, no game to replay or review)."""
        if is_log_stream(game_id):
            raise BadArgument(f"game_id {log_stream_words(game_id)}: there is nothing to replay or review "
                              "(its chain: Verify)", "game_id")
        events = list(self._store.read_game(game_id))  # the store checks seqs are 0..n-1 (index = seq)
        if not events:
            raise GameNotFound(game_id)
        return events

    @staticmethod
    def _check_seq(game_id: str, events: Sequence[StoredEvent], seq: int, field: str) -> None:
        if seq >= len(events):
            raise BadArgument(
                f"{field} {seq} is out of range: game {game_id!r} has events 0..{len(events) - 1}", field
            )

    @staticmethod
    def _seat(request: Any) -> int | None:
        if not request.HasField("seat"):
            return None
        if request.seat > 3:
            raise BadArgument(f"seat must be 0..3, got {request.seat}", "seat")
        return request.seat

    def _before(self, events: Sequence[StoredEvent], seq: int) -> TableState:
        """The state before event ``seq`` (from the servicer's snapshot cache)."""
        return state_at(events, seq - 1, mode="audit", cache=self._snapshots) if seq > 0 else TableState()

    def GetState(self, request: pb.GetStateRequest, context: grpc.ServicerContext) -> pb.GetStateResponse:
        seat = self._seat(request)
        events = self._events(request.game_id)
        self._check_seq(request.game_id, events, request.seq, "seq")
        event = events[request.seq]
        state, findings = apply(self._before(events, request.seq), event, None, "audit")
        return pb.GetStateResponse(state=table_state_message(state, event, findings, seat=seat))

    def StepThrough(
        self, request: pb.StepThroughRequest, context: grpc.ServicerContext
    ) -> Iterator[pb.StepThroughResponse]:
        seat = self._seat(request)
        events = self._events(request.game_id)
        first = request.from_seq
        self._check_seq(request.game_id, events, first, "from_seq")
        last = request.to_seq if request.HasField("to_seq") else len(events) - 1
        self._check_seq(request.game_id, events, last, "to_seq")
        if last < first:
            raise BadArgument(f"to_seq {last} is before from_seq {first}", "to_seq")
        state = self._before(events, first)
        for event in events[first : last + 1]:
            state, findings = apply(state, event, None, "audit")
            if not context.is_active():
                return
            yield pb.StepThroughResponse(state=table_state_message(state, event, findings, seat=seat))

    def Verify(self, request: pb.VerifyRequest, context: grpc.ServicerContext) -> pb.VerifyResponse:
        return fit_reply(self._verdict(request), self._reply_bytes)

    def VerifyStream(self, request: pb.VerifyRequest, context: grpc.ServicerContext) -> Iterator[pb.VerifyResponse]:
        for part in reply_parts(self._verdict(request), self._reply_bytes):
            if not context.is_active():
                return
            yield part

    def _verdict(self, request: pb.VerifyRequest) -> pb.VerifyResponse:
        """The whole verdict of Verify, of any size."""
        options: dict[str, Any] = {}
        if request.options_json:
            depth = json_depth(request.options_json)  # a hostile nesting must not exhaust the parser's stack
            if depth > MAX_JSON_DEPTH:
                raise BadArgument(f"options_json: nested {depth} levels deep; at most {MAX_JSON_DEPTH} are allowed",
                                  "options_json")
            try:
                options = json.loads(request.options_json)
            except ValueError as e:
                raise BadArgument(f"options_json is not JSON: {e}", "options_json") from None
            if not isinstance(options, dict):
                raise BadArgument("options_json must be a JSON object", "options_json")
        if request.HasField("as_ruleset") and request.as_ruleset not in known_ids():
            raise BadArgument(f"as_ruleset {request.as_ruleset!r}: unknown ruleset or preset (known: "
                              f"{', '.join(known_ids())})", "as_ruleset")
        asked = request.HasField("as_ruleset") or bool(options)
        if is_log_stream(request.game_id):  # the log's own stream: its chain and its event types, no replay
            if asked:
                raise BadArgument(f"{request.game_id!r} is the log's own stream, not a game: there is nothing to "
                                  "score (as_ruleset, options_json)", "as_ruleset" if request.HasField(
                                      "as_ruleset") else "options_json")
            return _log_stream_verdict(self._store, request.game_id)
        chain = verify_game(self._store, request.game_id)
        audit = audit_game(self._store.read_game(request.game_id)) if chain.ok else None
        msg = verify_message(chain, audit)
        if asked and audit is not None:
            target = request.as_ruleset if request.HasField("as_ruleset") else None
            try:
                w = what_if(self._store.read_game(request.game_id), target, options)
            except RulesetError as e:  # the ruleset is known (above): its options refuse these
                raise BadArgument(f"options_json: {e}", "options_json") from None
            msg.what_if.CopyFrom(what_if_message(w))
        return msg

    def VerifyLog(self, request: pb.VerifyLogRequest, context: grpc.ServicerContext) -> Iterator[pb.VerifyLogResponse]:
        yield from verify_log_messages(self._store, problems_only=request.problems_only,
                                       workers=self._verify_workers, active=context.is_active)

    def Review(self, request: pb.ReviewRequest, context: grpc.ServicerContext) -> pb.ReviewResponse:
        seats = tuple(request.seats) or (0, 1, 2, 3)
        bad = [s for s in seats if s > 3]
        if bad:
            raise BadArgument(f"seats must be 0..3, got {bad[0]}", "seats")
        events = self._events(request.game_id)
        hand = request.hand if request.HasField("hand") else None
        r = review_game(events, seats=seats, hand=hand)
        if hand is not None and not r.hands:  # as `paipu review --hand`: a hand the game lacks is the caller's mistake
            numbers = sorted({getattr(e.payload, "hand_number", 0) for e in events if e.type == "hand_started"})
            have = f"hand_numbers {numbers[0]}..{numbers[-1]}" if numbers else "no hands"
            raise BadArgument(f"hand {hand}: game {request.game_id!r} has no hand with hand_number {hand} "
                              f"({have}; hand_number counts from 0)", "hand")
        return review_message(r)
