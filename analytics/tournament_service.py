"""``paipu.v1.TournamentService`` (proto/paipu/v1/tournament_service.proto): the operations of
``paipu tournament`` over gRPC, on the tournaments of a data directory and the games of its
event store (analytics/tournament.py; docs/reference/rules/competition.md §A10).

The servicer only translates messages: every rule (names, unique games and seats of a round,
standings) is analytics/tournament.py's, and its errors (TournamentError, a PaipuError) become
gRPC statuses in the server's call interceptor (services/status.py): NOT_FOUND for an unknown
tournament or game, INVALID_ARGUMENT naming the field for a bad name or value (one line, from
``record``), ALREADY_EXISTS for a name taken, FAILED_PRECONDITION for what the tournament's
state refuses (a game or seat taken, a player not in it). Writes are serialised
by one lock: a tournament file is append-only and checked before each append.

:func:`register` is what ``paipu serve`` passes to ``services.server.build_server`` as an
extra service (the services layer does not import analytics).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from analytics.tournament import (
    Created, GameRecord, PenaltyRecord, TeamRecord, Tournament, add_game, add_penalty, add_team, check_round,
    record, results, standings_rows,
)
from eventlog.store.base import EventStore
from paipu.v1 import tournament_service_pb2 as pb
from paipu.v1 import tournament_service_pb2_grpc as pb_grpc

__all__ = ["SERVICE_NAME", "TournamentServicer", "register"]

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["TournamentService"].full_name
#: The standings columns a StandingLine carries (not the title; the unfinished games are
#: GetStandingsResponse.unfinished_games).
_LINE_FIELDS = frozenset(pb.StandingLine.DESCRIPTOR.fields_by_name)


def _info(t: Tournament) -> pb.TournamentInfo:
    return pb.TournamentInfo(name=t.name, scoring=t.created.scoring, games=len(t.games), teams=len(t.teams),
                             penalties=len(t.penalties), rounds=max((g.round for g in t.games), default=0))


class TournamentServicer(pb_grpc.TournamentServiceServicer):
    """The tournaments in ``data`` (``<data>/tournaments/``) over the games of ``store``."""

    def __init__(self, store: EventStore, data: str | Path) -> None:
        self.store = store
        self.data = Path(data)
        self._lock = threading.Lock()

    def CreateTournament(self, request: pb.CreateTournamentRequest, context: Any) -> pb.TournamentInfo:
        fields: dict[str, Any] = {"title": request.title}
        if request.scoring:
            fields["scoring"] = request.scoring
        if request.HasField("first_points"):
            fields["first_points"] = request.first_points
        if request.HasField("second_points"):
            fields["second_points"] = request.second_points
        if request.second_scope:
            fields["second_scope"] = request.second_scope
        created = record(Created, **fields)
        with self._lock:
            return _info(Tournament.create(self.data, request.name, created))

    def AddGame(self, request: pb.AddGameRequest, context: Any) -> pb.TournamentInfo:
        rec = record(GameRecord, game_id=request.game_id, round=request.round, table=request.table,
                     session=request.session or 1)
        with self._lock:
            t, _ = add_game(self.data, self.store, request.name, rec)
        return _info(t)

    def AddTeam(self, request: pb.AddTeamRequest, context: Any) -> pb.TournamentInfo:
        rec = record(TeamRecord, team=request.team, players=list(request.players))
        with self._lock:
            return _info(add_team(self.data, self.store, request.name, rec))

    def AddPenalty(self, request: pb.AddPenaltyRequest, context: Any) -> pb.TournamentInfo:
        rec = record(PenaltyRecord, player=request.player, points=request.points, rule=request.rule,
                     reason=request.reason, round=request.round or 1, referee=request.referee)
        with self._lock:
            return _info(add_penalty(self.data, self.store, request.name, rec))

    def GetStandings(self, request: pb.GetStandingsRequest, context: Any) -> pb.GetStandingsResponse:
        t = Tournament.load(self.data, request.name)
        games = results(self.store, t)
        through = request.through_round if request.HasField("through_round") else None
        check_round(t, through)
        rows = standings_rows(t, games, through_round=through)
        return pb.GetStandingsResponse(
            lines=[pb.StandingLine(**{k: v for k, v in row.items() if k in _LINE_FIELDS}) for row in rows],
            unfinished_games=[r.record.game_id for r in games if not r.finished],
        )


def register(data: str | Path):
    """An extra service for ``services.server.build_server``: ``(store, server) -> name``
    adds a :class:`TournamentServicer` on ``data`` and returns its full service name."""

    def add(store: EventStore, server: Any) -> str:
        pb_grpc.add_TournamentServiceServicer_to_server(TournamentServicer(store, data), server)
        return SERVICE_NAME

    return add
