from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CreateTournamentRequest(_message.Message):
    __slots__ = ("name", "scoring", "first_points", "second_points", "second_scope", "title")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SCORING_FIELD_NUMBER: _ClassVar[int]
    FIRST_POINTS_FIELD_NUMBER: _ClassVar[int]
    SECOND_POINTS_FIELD_NUMBER: _ClassVar[int]
    SECOND_SCOPE_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    name: str
    scoring: str
    first_points: int
    second_points: int
    second_scope: str
    title: str
    def __init__(self, name: _Optional[str] = ..., scoring: _Optional[str] = ..., first_points: _Optional[int] = ..., second_points: _Optional[int] = ..., second_scope: _Optional[str] = ..., title: _Optional[str] = ...) -> None: ...

class TournamentInfo(_message.Message):
    __slots__ = ("name", "scoring", "games", "teams", "penalties", "rounds")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SCORING_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    TEAMS_FIELD_NUMBER: _ClassVar[int]
    PENALTIES_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    name: str
    scoring: str
    games: int
    teams: int
    penalties: int
    rounds: int
    def __init__(self, name: _Optional[str] = ..., scoring: _Optional[str] = ..., games: _Optional[int] = ..., teams: _Optional[int] = ..., penalties: _Optional[int] = ..., rounds: _Optional[int] = ...) -> None: ...

class AddGameRequest(_message.Message):
    __slots__ = ("name", "game_id", "round", "table", "session")
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    name: str
    game_id: str
    round: int
    table: str
    session: int
    def __init__(self, name: _Optional[str] = ..., game_id: _Optional[str] = ..., round: _Optional[int] = ..., table: _Optional[str] = ..., session: _Optional[int] = ...) -> None: ...

class AddTeamRequest(_message.Message):
    __slots__ = ("name", "team", "players")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    name: str
    team: str
    players: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., team: _Optional[str] = ..., players: _Optional[_Iterable[str]] = ...) -> None: ...

class AddPenaltyRequest(_message.Message):
    __slots__ = ("name", "player", "points", "rule", "reason", "round", "referee")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    REFEREE_FIELD_NUMBER: _ClassVar[int]
    name: str
    player: str
    points: int
    rule: str
    reason: str
    round: int
    referee: str
    def __init__(self, name: _Optional[str] = ..., player: _Optional[str] = ..., points: _Optional[int] = ..., rule: _Optional[str] = ..., reason: _Optional[str] = ..., round: _Optional[int] = ..., referee: _Optional[str] = ...) -> None: ...

class GetStandingsRequest(_message.Message):
    __slots__ = ("name", "through_round")
    NAME_FIELD_NUMBER: _ClassVar[int]
    THROUGH_ROUND_FIELD_NUMBER: _ClassVar[int]
    name: str
    through_round: int
    def __init__(self, name: _Optional[str] = ..., through_round: _Optional[int] = ...) -> None: ...

class GetStandingsResponse(_message.Message):
    __slots__ = ("lines", "unfinished_games")
    LINES_FIELD_NUMBER: _ClassVar[int]
    UNFINISHED_GAMES_FIELD_NUMBER: _ClassVar[int]
    lines: _containers.RepeatedCompositeFieldContainer[StandingLine]
    unfinished_games: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, lines: _Optional[_Iterable[_Union[StandingLine, _Mapping]]] = ..., unfinished_games: _Optional[_Iterable[str]] = ...) -> None: ...

class StandingLine(_message.Message):
    __slots__ = ("tournament", "through_round", "kind", "rank", "name", "team", "games", "table_points", "table_points_x12", "standard_points", "score", "penalty_points", "scoring", "provisional")
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    THROUGH_ROUND_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    TABLE_POINTS_FIELD_NUMBER: _ClassVar[int]
    TABLE_POINTS_X12_FIELD_NUMBER: _ClassVar[int]
    STANDARD_POINTS_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    PENALTY_POINTS_FIELD_NUMBER: _ClassVar[int]
    SCORING_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_FIELD_NUMBER: _ClassVar[int]
    tournament: str
    through_round: int
    kind: str
    rank: int
    name: str
    team: str
    games: int
    table_points: float
    table_points_x12: int
    standard_points: int
    score: int
    penalty_points: int
    scoring: str
    provisional: bool
    def __init__(self, tournament: _Optional[str] = ..., through_round: _Optional[int] = ..., kind: _Optional[str] = ..., rank: _Optional[int] = ..., name: _Optional[str] = ..., team: _Optional[str] = ..., games: _Optional[int] = ..., table_points: _Optional[float] = ..., table_points_x12: _Optional[int] = ..., standard_points: _Optional[int] = ..., score: _Optional[int] = ..., penalty_points: _Optional[int] = ..., scoring: _Optional[str] = ..., provisional: _Optional[bool] = ...) -> None: ...
