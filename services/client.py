"""A thin client of ``paipu.v1.EventLogService`` (services/server.py) with the store's API,
plus IngestService (:meth:`EventLogClient.ingest_log`) and ReplayService
(:meth:`~EventLogClient.get_state`, :meth:`~EventLogClient.step_through`,
:meth:`~EventLogClient.verify`, :meth:`~EventLogClient.verify_log`, which return the
``paipu.v1`` messages).

:class:`EventLogClient` has the read/write methods of :class:`eventlog.store.base.EventStore`
(``append``, ``read_game``, ``list_games`` — paged —, ``subscribe``, ``version``) with the same
arguments, results and exceptions, so code written against a local store runs against a
server unchanged::

    with EventLogClient("127.0.0.1:50051") as log:
        res = log.append("g1", events, expected_version=NO_STREAM)
        for ev in log.read_game("g1"):
            ...

Errors: the server's status is turned back into the exception the server raised, rebuilt
from the status details (services/status.py), never from the message text —
WrongExpectedVersion (with ``.current``), StreamAlreadyExists, GameNotFound,
IdempotencyConflict, CorruptEvent, EventError (``.field``: ``events[i].payload.seat``) or
another ValueError for a bad argument; anything else (server down: UNAVAILABLE, deadline, …)
raises :class:`RemoteError` (a StoreError) carrying the gRPC code.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import grpc
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

import replayer.rules.base  # noqa: F401 - installs the loader of the rulesets' own event types (RulesetEvent)
from eventlog.convert import from_proto, to_proto
from eventlog.errors import InvalidArgument, PaipuError
from eventlog.events import NewEvent, StoredEvent
from eventlog.store.base import (
    ANY,
    NO_STREAM,
    AppendResult,
    CaughtUp,
    ExpectedVersion,
    GameInfo,
    GameNotFound,
    IdempotencyConflict,
    StoreError,
    StreamAlreadyExists,
    WrongExpectedVersion,
)
from paipu.v1 import event_log_service_pb2 as pb
from paipu.v1 import event_log_service_pb2_grpc as pb_grpc
from paipu.v1 import ingest_service_pb2, ingest_service_pb2_grpc
from paipu.v1 import replay_service_pb2, replay_service_pb2_grpc
from paipu.v1 import tournament_service_pb2 as tournament_pb
from paipu.v1 import tournament_service_pb2_grpc as tournament_pb_grpc
from services.status import ERROR_DOMAIN

if TYPE_CHECKING:
    from eventlog.ingest.load import IngestReport

__all__ = ["EventLogClient", "RemoteError", "error_from_rpc", "check_target", "UPLOAD_CHUNK_BYTES"]

#: Bytes per message of an IngestLog upload.
UPLOAD_CHUNK_BYTES = 256 * 1024

_MAX_MESSAGE_BYTES = 64 * 1024 * 1024  # as services.server.MAX_MESSAGE_BYTES


class RemoteError(StoreError):
    """A gRPC failure with no store meaning (server unreachable, deadline, internal error).

    ``code`` is the ``grpc.StatusCode``, ``server_message`` the server's message (the
    structured field; ``details()`` is every PaipuError's field mapping)."""

    fields = ("server_message",)

    def __init__(self, code: grpc.StatusCode, server_message: str) -> None:
        super().__init__(f"event-log server: {code.name}: {server_message}")
        self.code = code
        self.server_message = server_message


def _details(err: grpc.RpcError) -> tuple[error_details_pb2.ErrorInfo | None, error_details_pb2.BadRequest | None]:
    """ErrorInfo and BadRequest from the rich status of ``err`` (None when absent)."""
    info: error_details_pb2.ErrorInfo | None = None
    bad: error_details_pb2.BadRequest | None = None
    status = rpc_status.from_call(err)
    if status is not None:
        for any_ in status.details:
            if any_.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                any_.Unpack(info)
            elif any_.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                any_.Unpack(bad)
    return info, bad


#: Codes that report the server's own state, not the request: raised as RemoteError.
_SERVER_SIDE = (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNAVAILABLE)


def error_from_rpc(err: grpc.RpcError) -> Exception:
    """The exception an error of a paipu service stands for: the same
    :class:`~eventlog.errors.PaipuError` class the server raised (named by
    ``ErrorInfo.reason``), with the same fields (``ErrorInfo.metadata["fields"]``) and
    message; a ValueError (:class:`~eventlog.errors.InvalidArgument`, ``field`` from the
    BadRequest) for another INVALID_ARGUMENT; else — a server-side failure (INTERNAL), a server
    shutting down or unreachable (UNAVAILABLE), a deadline — :class:`RemoteError` carrying the code."""
    code = err.code()
    message = err.details() or ""
    info, bad = _details(err)
    if info is not None and info.domain == ERROR_DOMAIN and code not in _SERVER_SIDE:
        cls = PaipuError.lookup(info.reason)
        if cls is not None:
            try:
                fields = json.loads(info.metadata.get("fields", "{}"))
            except ValueError:
                fields = None
            if isinstance(fields, dict):
                return cls.rebuild(message, fields)
    if code == grpc.StatusCode.INVALID_ARGUMENT:
        field = bad.field_violations[0].field if bad is not None and bad.field_violations else ""
        return InvalidArgument(message, field)
    return RemoteError(code, message)


def check_target(target: str) -> str:
    """Return ``target`` if it is ``HOST:PORT`` (IPv6 host in brackets) with a port 1..65535;
    a gRPC ``unix:`` address passes as it is. Raises ValueError naming the target otherwise
    (gRPC itself would wrap 99999 round to 34463)."""
    if target.startswith("unix:"):
        return target
    host, sep, port = target.rpartition(":")
    if not sep or not host or host.endswith(":") and not host.startswith("["):
        raise ValueError(f"server address {target!r}: expected HOST:PORT, e.g. 127.0.0.1:50051")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"server address {target!r}: port must be a number 1..65535, got {port!r}")
    return target


class EventLogClient:
    """A connection to an EventLogService at ``target`` (``HOST:PORT``), insecure channel.

    ``timeout`` (seconds) bounds each unary call (Append, ListGames, health); the streams
    (ReadGame, Subscribe) have no deadline. An unreachable server fails at once
    (RemoteError UNAVAILABLE); a bad ``target`` raises ValueError (:func:`check_target`). ``token`` is sent as
    ``authorization: Bearer TOKEN`` on every call (servers started with tokens need it;
    a missing or weak one raises RemoteError UNAUTHENTICATED / PERMISSION_DENIED). Use as a
    context manager or call :meth:`close`. Thread-safe (one channel, shared)."""

    def __init__(self, target: str, *, timeout: float | None = 30.0, token: str | None = None) -> None:
        self.target = check_target(target)
        self.timeout = timeout
        self._md = (("authorization", f"Bearer {token}"),) if token else None
        self._channel = grpc.insecure_channel(
            target,
            options=[
                ("grpc.max_receive_message_length", _MAX_MESSAGE_BYTES),
                ("grpc.max_send_message_length", _MAX_MESSAGE_BYTES),
            ],
        )
        self._stub = pb_grpc.EventLogServiceStub(self._channel)
        self._ingest = ingest_service_pb2_grpc.IngestServiceStub(self._channel)
        self._replay = replay_service_pb2_grpc.ReplayServiceStub(self._channel)
        self._tournaments = tournament_pb_grpc.TournamentServiceStub(self._channel)

    # ---- writes -------------------------------------------------------------------
    def append(
        self,
        game_id: str,
        events: Sequence[NewEvent],
        expected_version: ExpectedVersion = ANY,
    ) -> AppendResult:
        """As :meth:`EventStore.append`: atomic, durable when it returns.

        Raises WrongExpectedVersion (``.current``), StreamAlreadyExists,
        IdempotencyConflict, EventError (``.field`` = ``events[i]....``), ValueError,
        RemoteError."""
        request = self._append_request(game_id, events, expected_version)
        try:
            res = self._stub.Append(request, timeout=self.timeout, metadata=self._md)
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None
        return AppendResult(
            game_id=game_id,
            first_seq=res.first_seq,
            last_seq=res.last_seq,
            first_position=res.first_position,
            last_position=res.last_position,
            version=res.version,
            duplicate=res.duplicate,
        )

    def append_stream(
        self, batches: Iterable[tuple[str, Sequence[NewEvent], ExpectedVersion]]
    ) -> list[AppendResult | StoreError]:
        """Bulk append over one AppendStream call: ``(game_id, events, expected_version)``
        batches, committed by the server many per durable transaction, each all or nothing.
        Returns once the stream is done, one result per batch in order: its
        :class:`AppendResult`, or the :class:`WrongExpectedVersion` /
        :class:`StreamAlreadyExists` / :class:`IdempotencyConflict` that refused it (nothing
        of it written). Raises EventError / ValueError for a malformed batch (the call
        fails; the groups committed before it stay: sending again is safe), RemoteError."""
        sent: list[str] = []

        def requests() -> Iterator[pb.AppendRequest]:
            for game_id, events, expected in batches:
                sent.append(game_id)
                yield self._append_request(game_id, events, expected)

        try:
            res = self._stub.AppendStream(requests(), metadata=self._md)
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None
        out: list[AppendResult | StoreError] = []
        for game_id, r in zip(sent, res.results):
            if r.WhichOneof("outcome") == "appended":
                a = r.appended
                out.append(AppendResult(game_id=game_id, first_seq=a.first_seq, last_seq=a.last_seq,
                                        first_position=a.first_position, last_position=a.last_position,
                                        version=a.version, duplicate=a.duplicate))
            elif r.refused.reason == "IDEMPOTENCY_CONFLICT":
                out.append(IdempotencyConflict(game_id, "", r.refused.message))
            elif r.refused.reason == "STREAM_ALREADY_EXISTS":
                out.append(StreamAlreadyExists(game_id, NO_STREAM, r.refused.current_version))
            else:
                out.append(WrongExpectedVersion(game_id, ANY, r.refused.current_version))
        return out

    def _append_request(self, game_id: str, events: Sequence[NewEvent], expected_version: ExpectedVersion) -> pb.AppendRequest:
        msgs = []
        for i, ev in enumerate(events):
            if isinstance(ev, StoredEvent):  # re-appending a stored event: its Event part
                msgs.append(to_proto(ev).event)
            elif isinstance(ev, NewEvent):
                msgs.append(to_proto(ev))
            else:
                raise ValueError(f"events[{i}] is a {type(ev).__name__}, not a NewEvent")
        request = pb.AppendRequest(game_id=game_id, events=msgs)
        if expected_version == NO_STREAM:
            request.no_stream.SetInParent()
        elif expected_version == ANY:
            request.any.SetInParent()
        elif isinstance(expected_version, int) and not isinstance(expected_version, bool):
            request.exact = expected_version
        else:
            raise ValueError(
                f"expected_version must be {ANY!r}, {NO_STREAM!r} or a version >= -1, got {expected_version!r}"
            )
        return request

    # ---- reads --------------------------------------------------------------------
    def read_game(
        self,
        game_id: str,
        from_seq: int = 0,
        limit: int | None = None,
        backward: bool = False,
    ) -> Iterator[StoredEvent]:
        """As :meth:`EventStore.read_game` (``from_seq=-1`` with ``backward``: from the last
        event). Raises GameNotFound at call time; the iterator raises CorruptEvent."""
        if from_seq == -1 and not backward:
            raise ValueError("from_seq=-1 (the end) is only meaningful with backward=True")
        if from_seq < -1:
            raise ValueError(f"from_seq must be an int >= 0 (or -1 backward), got {from_seq!r}")
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be None or an int >= 0, got {limit!r}")
        if limit == 0:
            return iter(())
        request = pb.ReadGameRequest(game_id=game_id, limit=limit or 0, backward=backward)
        if from_seq != -1:
            request.from_seq = from_seq
        call = self._stub.ReadGame(request, metadata=self._md)
        try:  # the first message (or the error) now, so GameNotFound is raised at call time
            first = next(call)
        except StopIteration:
            return iter(())
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None
        return self._read_rest(first, call)

    @staticmethod
    def _read_rest(first: pb.ReadGameResponse, call: Any) -> Iterator[StoredEvent]:
        try:
            for msg in first.events:
                yield from_proto(msg)
            for batch in call:
                for msg in batch.events:
                    yield from_proto(msg)
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None
        finally:
            call.cancel()  # no-op when the stream is complete; frees it when abandoned

    def list_games(self, *, ruleset: str | None = None, page_size: int = 0) -> list[GameInfo]:
        """As :meth:`EventStore.list_games` (ordered by first position): every game, read page
        by page (ListGames ``page_token`` / ``next_page_token``, ``page_size`` games a page,
        0 = the server's default), so no reply passes a client's receive limit at any log size.
        ``ruleset``: only the games of this ruleset id or preset. Games appended while it pages
        are listed when they come after the pages read. Raises RemoteError."""
        return list(self.iter_games(ruleset=ruleset, page_size=page_size))

    def iter_games(self, *, ruleset: str | None = None, page_size: int = 0) -> Iterator[GameInfo]:
        """:meth:`list_games` a page at a time: each page is asked for when the one before
        is used up (one ListGames call per page). Raises RemoteError, ValueError (a bad
        ``page_size``) from the call of the page that fails."""
        token = ""
        while True:
            request = pb.ListGamesRequest(page_size=page_size, page_token=token, ruleset=ruleset or "")
            try:
                res = self._stub.ListGames(request, timeout=self.timeout, metadata=self._md)
            except grpc.RpcError as e:
                raise error_from_rpc(e) from None
            for g in res.games:
                yield GameInfo(
                    game_id=g.game_id,
                    version=g.version,
                    event_count=g.event_count,
                    first_position=g.first_position,
                    last_position=g.last_position,
                    ruleset=g.ruleset or None,
                )
            if not res.next_page_token:
                return
            token = res.next_page_token

    def version(self, game_id: str) -> int:
        """As :meth:`EventStore.version`: the game's last seq, -1 when it has no events."""
        try:
            last = next(self.read_game(game_id, from_seq=-1, limit=1, backward=True), None)
        except GameNotFound:
            return -1
        return last.seq if last is not None else -1

    def subscribe(
        self, from_position: int = 1, *, stop: threading.Event | None = None
    ) -> Iterator[StoredEvent | CaughtUp]:
        """As :meth:`EventStore.subscribe`: events from ``from_position`` on, one CaughtUp,
        then live events. Ends when ``stop`` is set or the consumer closes the iterator
        (both cancel the call); raises RemoteError if the server goes away."""
        if from_position < 0:
            raise ValueError(f"from_position must be an int >= 0, got {from_position!r}")
        call = self._stub.Subscribe(pb.SubscribeRequest(from_position=from_position), metadata=self._md)
        if stop is not None:
            threading.Thread(target=_cancel_when_set, args=(stop, call), daemon=True).start()
        return self._subscription(call, stop)

    @staticmethod
    def _subscription(call: Any, stop: threading.Event | None) -> Iterator[StoredEvent | CaughtUp]:
        try:
            for msg in call:
                if msg.WhichOneof("content") == "caught_up":
                    yield CaughtUp(msg.caught_up.position)
                else:
                    for ev in msg.events.events:
                        yield from_proto(ev)
        except grpc.RpcError as e:
            if e.code() == grpc.StatusCode.CANCELLED and stop is not None and stop.is_set():
                return
            raise error_from_rpc(e) from None
        finally:
            call.cancel()

    # ---- IngestService ------------------------------------------------------------
    def ingest_log(self, path: str | Path, format: str | None = None) -> IngestReport:
        """Upload the game-log file ``path`` to IngestService (format sniffed by the server
        unless named) and return its report, as :func:`eventlog.ingest.load.ingest_files`
        would locally: ``stored`` / ``duplicates`` game ids, ``errors`` as ParseIssue
        (``path`` is ``str(path)``, with line or record, reason, game id), ``events``.

        The file is streamed in :data:`UPLOAD_CHUNK_BYTES` chunks (never read whole); the
        call has no deadline. Raises FileNotFoundError, UnknownFormatError (unknown format,
        or a file the server recognises in no format; the message lists the known ones),
        ValueError (a bad header), RemoteError (UNAUTHENTICATED / PERMISSION_DENIED: a
        recorder token is needed when the server has tokens)."""
        from eventlog.ingest.base import ParseIssue, UnknownFormatError, path_text
        from eventlog.ingest.load import IngestReport

        p = Path(path)
        f = open(p, "rb")  # FileNotFoundError before anything is sent

        def messages() -> Iterator[ingest_service_pb2.IngestLogRequest]:
            with f:
                # a name that is not UTF-8 goes as a local import records it (name_text): the
                # wire's strings are UTF-8, and a surrogate escape failed the whole upload
                header = ingest_service_pb2.IngestLogHeader(file_name=path_text(path))
                if format is not None:
                    header.format = format
                yield ingest_service_pb2.IngestLogRequest(header=header)
                while chunk := f.read(UPLOAD_CHUNK_BYTES):
                    yield ingest_service_pb2.IngestLogRequest(chunk=chunk)

        try:
            res = self._ingest.IngestLog(messages(), metadata=self._md)
        except grpc.RpcError as e:
            err = error_from_rpc(e)
            _info, bad = _details(e)
            if bad is not None and bad.field_violations and bad.field_violations[0].field == "header.format":
                raise UnknownFormatError(str(err)) from None
            raise err from None
        finally:
            f.close()
        return IngestReport(
            stored=list(res.stored_game_ids),
            duplicates=list(res.duplicate_game_ids),
            errors=[
                ParseIssue(
                    i.file_name,
                    i.line if i.HasField("line") else None,
                    i.reason,
                    i.game_id if i.HasField("game_id") else None,
                    i.record if i.HasField("record") else None,
                )
                for i in res.issues
            ],
            events=res.events,
        )

    # ---- ReplayService ------------------------------------------------------------
    def get_state(self, game_id: str, seq: int, seat: int | None = None) -> replay_service_pb2.TableState:
        """The table right after event ``seq`` of ``game_id`` (a ``paipu.v1.TableState``
        message: seats, melds, discards, wall, phase, the event and its findings); with
        ``seat``, the other seats' concealed tiles are withheld (counts only).

        Raises GameNotFound, ValueError (seq or seat out of range; the message gives the
        game's range), RemoteError."""
        request = replay_service_pb2.GetStateRequest(game_id=game_id, seq=seq)
        if seat is not None:
            request.seat = seat
        try:
            return self._replay.GetState(request, timeout=self.timeout, metadata=self._md).state
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None

    def step_through(
        self, game_id: str, from_seq: int = 0, to_seq: int | None = None, seat: int | None = None
    ) -> Iterator[replay_service_pb2.TableState]:
        """The table after each event ``from_seq..to_seq`` (inclusive; None = the last
        event), in seq order, as ``paipu.v1.TableState`` messages; ``seat`` as in
        :meth:`get_state`. A stream without deadline; GameNotFound / ValueError are
        raised at call time."""
        request = replay_service_pb2.StepThroughRequest(game_id=game_id, from_seq=from_seq)
        if to_seq is not None:
            request.to_seq = to_seq
        if seat is not None:
            request.seat = seat
        call = self._replay.StepThrough(request, metadata=self._md)
        try:
            first = next(call)
        except StopIteration:
            return iter(())
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None
        return self._states(first, call)

    @staticmethod
    def _states(first: Any, call: Any) -> Iterator[replay_service_pb2.TableState]:
        try:
            yield first.state
            for msg in call:
                yield msg.state
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None
        finally:
            call.cancel()

    def verify(self, game_id: str, *, as_ruleset: str | None = None,
               options: dict[str, Any] | None = None) -> replay_service_pb2.VerifyResponse:
        """Hash chain report and (when the chain is intact) the audit replay of ``game_id``:
        findings and, per win, computed vs reported fans and score changes (a
        ``paipu.v1.VerifyResponse``); with ``as_ruleset`` / ``options``, also the what-if
        scoring (``what_if``; under another base ruleset ``what_if.start_after`` holds the
        scores it starts from — that ruleset's own, e.g. 100-chip stacks, competition.md §A5 —
        as ``paipu verify --as`` prints them; absent when they are the record's). The whole
        verdict, however many findings the game has: read through ``VerifyStream`` (messages
        under the server's reply limit, merged here); from a server without it, ``Verify``,
        whose reply may then hold only the first items (``truncated``; the totals count them
        all). Raises GameNotFound, ValueError (unknown ruleset, bad options), RemoteError."""
        request = replay_service_pb2.VerifyRequest(game_id=game_id)
        if as_ruleset is not None:
            request.as_ruleset = as_ruleset
        if options:
            request.options_json = json.dumps(options, ensure_ascii=False, sort_keys=True)
        whole = replay_service_pb2.VerifyResponse()
        try:
            for part in self._replay.VerifyStream(request, timeout=self.timeout, metadata=self._md):
                whole.MergeFrom(part)  # repeated fields append: the parts' lists in order
            return whole
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.UNIMPLEMENTED:  # an older server: one Verify reply
                raise error_from_rpc(e) from None
        try:
            return self._replay.Verify(request, timeout=self.timeout, metadata=self._md)
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None

    def verify_log(self, *, problems_only: bool = False
                   ) -> Iterator[replay_service_pb2.GameVerdict | replay_service_pb2.VerifyLogSummary]:
        """The whole log checked as ``paipu verify`` checks it (ReplayService.VerifyLog): one
        ``paipu.v1.GameVerdict`` per game in the log's order (game id, ok, the chain, findings
        counted by rule, disagreements; with ``problems_only`` only the games that are not ok),
        then the ``paipu.v1.VerifyLogSummary`` (games, intact, broken chains, with findings,
        the log's own check, ``verdict`` "ok" / "findings" / "damaged" as ``paipu verify``
        exits 0 / 1 / 3). A stream without deadline; closing the iterator before its end cancels
        the call, which stops the server's work. Raises RemoteError (UNAUTHENTICATED /
        PERMISSION_DENIED: a viewer token is needed when the server has tokens; UNIMPLEMENTED: a
        server without VerifyLog) when the call fails — at the first item, or where it broke off.
        ::

            for item in log.verify_log(problems_only=True):
                if isinstance(item, replay_service_pb2.GameVerdict):
                    print(item.game_id, {r.rule_id: r.count for r in item.findings_by_rule})
                else:
                    print(item.games, item.with_findings, item.verdict)"""
        call = self._replay.VerifyLog(replay_service_pb2.VerifyLogRequest(problems_only=problems_only),
                                      metadata=self._md)
        return self._verdicts(call)

    @staticmethod
    def _verdicts(call: Any) -> Iterator[replay_service_pb2.GameVerdict | replay_service_pb2.VerifyLogSummary]:
        try:
            for msg in call:
                yield getattr(msg, msg.WhichOneof("content"))
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None
        finally:
            call.cancel()  # no-op when the stream is complete; stops the server's work when abandoned

    def review(self, game_id: str, seats: Sequence[int] = (), hand: int | None = None) -> replay_service_pb2.ReviewResponse:
        """The rules-based decision review of ``seats`` (empty: all) in ``game_id`` (only hand
        ``hand`` when given), a ``paipu.v1.ReviewResponse``. Raises GameNotFound, ValueError
        (a seat outside 0..3), RemoteError."""
        request = replay_service_pb2.ReviewRequest(game_id=game_id, seats=list(seats))
        if hand is not None:
            request.hand = hand
        try:
            return self._replay.Review(request, timeout=self.timeout, metadata=self._md)
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None

    # ---- tournaments (proto/paipu/v1/tournament_service.proto) -----------------------
    def _tournament_call(self, method: str, request: Any) -> Any:
        try:
            return getattr(self._tournaments, method)(request, timeout=self.timeout, metadata=self._md)
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None

    def create_tournament(self, name: str, *, scoring: str = "", first_points: int | None = None,
                          second_points: int | None = None, second_scope: str = "",
                          title: str = "") -> tournament_pb.TournamentInfo:
        """Create tournament ``name`` (``scoring``: mcr_table_points | cjm_standard). Needs a
        referee. Raises RemoteError (FAILED_PRECONDITION: the name is taken)."""
        return self._tournament_call("CreateTournament", tournament_pb.CreateTournamentRequest(
            name=name, scoring=scoring, first_points=first_points, second_points=second_points,
            second_scope=second_scope, title=title))

    def add_tournament_game(self, name: str, game_id: str, *, round: int, table: str,
                            session: int = 1) -> tournament_pb.TournamentInfo:
        """Add a game of the log to round ``round``, table ``table``, session ``session``."""
        return self._tournament_call("AddGame", tournament_pb.AddGameRequest(
            name=name, game_id=game_id, round=round, table=table, session=session))

    def add_tournament_team(self, name: str, team: str, players: Sequence[str]) -> tournament_pb.TournamentInfo:
        return self._tournament_call("AddTeam", tournament_pb.AddTeamRequest(name=name, team=team, players=list(players)))

    def add_tournament_penalty(self, name: str, player: str, points: int, *, rule: str, reason: str = "",
                               round: int = 1, referee: str = "") -> tournament_pb.TournamentInfo:
        """Points added to (negative: taken from) ``player``'s score total, with the rule applied."""
        return self._tournament_call("AddPenalty", tournament_pb.AddPenaltyRequest(
            name=name, player=player, points=points, rule=rule, reason=reason, round=round, referee=referee))

    def tournament_standings(self, name: str, through_round: int | None = None) -> tournament_pb.GetStandingsResponse:
        """The standings (players, then teams), as the CSV/Parquet export's rows."""
        return self._tournament_call("GetStandings", tournament_pb.GetStandingsRequest(
            name=name, through_round=through_round))

    # ---- service health -----------------------------------------------------------
    def health(self, service: str = "") -> str:
        """The server's health status name (``"SERVING"``) for ``service`` ("" = server)."""
        stub = health_pb2_grpc.HealthStub(self._channel)
        try:
            res = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=self.timeout)
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None
        return health_pb2.HealthCheckResponse.ServingStatus.Name(res.status)

    # ---- lifetime -----------------------------------------------------------------
    def close(self) -> None:
        self._channel.close()

    def __enter__(self) -> EventLogClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _cancel_when_set(stop: threading.Event, call: Any) -> None:
    while not stop.wait(0.1):
        if call.done():
            return
    call.cancel()
