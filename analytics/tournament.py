"""Tournaments: games grouped into rounds (轮次), tables and sessions (局), players and teams,
and the standings a referee signs (docs/reference/rules/competition.md §A10; MCR table points).

A tournament is an append-only file of records, ``<data>/tournaments/<name>.jsonl`` (one
JSON object a line; records are never rewritten — a correction is a new record):

* ``created``: the scoring system and its parameters;
* ``game``: a game of the event log in round ``round``, at table ``table``, session ``session``;
* ``team``: a team and its players;
* ``penalty``: points a referee takes from (or gives to) a player in the standings, with the
  rule it applies — penalties inside a game are events of the game (``penalty``,
  ``referee_ruling``) and count through its final scores.

Scoring systems (:class:`Created`):

* ``mcr_table_points`` — each game ranks its table 4/2/1/0 by final score; players with
  equal scores share the places they hold (computed exactly in twelfths: 48/24/12/0, so two
  tied first get (48 + 24) / 2 = 36 = 3 points). Ranking: table points, then the sum of
  game scores.
* ``cjm_standard`` — 竞技麻将 (§A10): a player's 局分 is the final chips of a game (局); the
  总局分 of a round at a table is the sum over its sessions; the table's first (ties: every
  tied player) gains the round's 标准分 (``first_points``, default 1; ``second_points`` for
  second, at every table or only the best second across tables). Ranking: 标准分, then
  总局分. Teams: the sum of members' 标准分, then 总局分.

Standings are computed by replaying every game (its ruleset from game_started, audit mode):
the same log gives the same standings, byte for byte in the CSV and Parquet exports
(:data:`STANDINGS_COLUMNS`).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from eventlog.errors import InvalidArgument, PaipuError, validation_line, validation_problem
from eventlog.players import is_log_stream
from eventlog.store.base import EventStore
from replayer.replay import replay

__all__ = [
    "Created", "GameRecord", "TeamRecord", "PenaltyRecord", "PENALTY_LIMIT", "Tournament", "TournamentError",
    "TournamentArgument", "TournamentNotFound", "TournamentExists", "last_round", "check_round",
    "check_penalty_points", "CJM_PENALTY_UNIT", "CJM_PENALTY_MAX",
    "GameResult", "Standing", "STANDINGS_COLUMNS", "add_game", "add_penalty", "add_team", "record", "results", "table_points", "standings",
    "standings_rows",
    "write_csv", "write_parquet",
]

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class TournamentError(PaipuError, ValueError):
    """A bad tournament name, record, file or game; the message says where and why, in words a
    gRPC client can read too: no server path, no command to run — those are the ``hint`` the
    CLI prints after it. This class itself: a request the tournament's present state refuses
    (gRPC FAILED_PRECONDITION: a game or seat already taken, a player not in the tournament).

    Structured fields (gRPC ErrorInfo metadata, only those that apply): ``tournament`` (its
    name), ``game_id``, ``player``, ``team``, ``line`` (of a damaged tournament file)."""

    fields: ClassVar[tuple[str, ...]] = ("tournament", "game_id", "player", "team", "line")

    def __init__(self, message: str, *, hint: str = "", **where: Any) -> None:
        super().__init__(message)
        self.hint = hint
        for name in TournamentError.fields:
            setattr(self, name, where.pop(name, None))
        if where:
            raise TypeError(f"TournamentError: no field {sorted(where)}")

    def details(self) -> dict[str, Any]:
        return {name: v for name in self.fields if (v := getattr(self, name, None)) is not None}


class TournamentArgument(InvalidArgument, TournamentError):
    """A value given is refused (gRPC INVALID_ARGUMENT): a bad tournament name, a record field
    (``field`` names it: ``table``, ``points``, ``round``), a stream that is not a game."""

    fields = ("field", *TournamentError.fields)

    def __init__(self, message: str, field: str = "", *, hint: str = "", **where: Any) -> None:
        TournamentError.__init__(self, message, hint=hint, **where)
        self.field = field


class TournamentNotFound(TournamentError):
    """No such tournament, or no such game in the event log (gRPC NOT_FOUND)."""

    grpc_code = "NOT_FOUND"


class TournamentExists(TournamentError):
    """A tournament of that name exists already (gRPC ALREADY_EXISTS)."""

    grpc_code = "ALREADY_EXISTS"


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


_R = TypeVar("_R", bound=_Record)


class Created(_Record):
    """The tournament's scoring system. ``first_points``/``second_points``: 标准分 per round
    (``cjm_standard``); ``second_scope``: "table" (every table's second) or "best" (the best
    second across the round's tables, §A10)."""

    kind: Literal["created"] = "created"
    scoring: Literal["mcr_table_points", "cjm_standard"] = "mcr_table_points"
    first_points: int = Field(1, ge=0)
    second_points: int = Field(0, ge=0)
    second_scope: Literal["table", "best"] = "table"
    title: str = ""


class GameRecord(_Record):
    kind: Literal["game"] = "game"
    game_id: str = Field(min_length=1)
    round: int = Field(ge=1)
    table: str = Field(min_length=1)
    session: int = Field(1, ge=1)


class TeamRecord(_Record):
    kind: Literal["team"] = "team"
    team: str = Field(min_length=1)
    players: list[str] = Field(min_length=1)


#: The largest penalty, in points either way: far beyond any game score (a 88-fan MCR limit
#: hand is worth hundreds, a table's chips thousands), and well inside the int64 of the
#: standings columns.
PENALTY_LIMIT = 100_000


class PenaltyRecord(_Record):
    """``points`` added to the player's game-score total (negative = taken away; at most
    :data:`PENALTY_LIMIT` either way), with the rule applied, e.g. ``competition.md §A9``;
    ``round``: the round it belongs to."""

    kind: Literal["penalty"] = "penalty"
    player: str = Field(min_length=1)
    points: int = Field(ge=-PENALTY_LIMIT, le=PENALTY_LIMIT)
    rule: str = Field(min_length=1)
    reason: str = ""
    round: int = Field(1, ge=1)
    referee: str = ""


Record = Annotated[Union[Created, GameRecord, TeamRecord, PenaltyRecord], Field(discriminator="kind")]
_RECORD: TypeAdapter[Any] = TypeAdapter(Record)


def record(cls: type[_R], **fields: Any) -> _R:
    """``cls(**fields)`` (a record class of this module), a bad field raised as one line
    naming it (eventlog.errors.validation_line): TournamentArgument ``points: must be at least
    -100000, got -999999`` with ``field`` = ``points``."""
    try:
        return cls(**fields)
    except ValidationError as e:
        where, why = validation_problem(e, known=cls.model_fields)
        raise TournamentArgument(f"{where}: {why}" if where else why, where) from None


@dataclass(frozen=True)
class Tournament:
    """A tournament as read from its file: the first record is ``created``."""

    name: str
    created: Created
    games: tuple[GameRecord, ...] = ()
    teams: tuple[TeamRecord, ...] = ()
    penalties: tuple[PenaltyRecord, ...] = ()

    @staticmethod
    def path(data: Path, name: str) -> Path:
        if not _NAME.match(name or ""):
            raise TournamentArgument(f"tournament name {name!r}: use 1-64 letters, digits, '_', '.', '-'", "name")
        return data / "tournaments" / f"{name}.jsonl"

    @classmethod
    def create(cls, data: Path, name: str, created: Created) -> Tournament:
        p = cls.path(data, name)
        if p.exists():
            raise TournamentExists(f"tournament {name!r} already exists", hint=str(p), tournament=name)
        p.parent.mkdir(parents=True, exist_ok=True)
        _append(p, created)
        return cls(name, created)

    @classmethod
    def load(cls, data: Path, name: str) -> Tournament:
        p = cls.path(data, name)
        if not p.exists():
            raise TournamentNotFound(f"no tournament {name!r}", tournament=name,
                                     hint=f"in {data}; create it with `paipu tournament create`")
        recs = []
        for lineno, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                recs.append(_RECORD.validate_json(line))
            except ValidationError as e:
                raise TournamentError(validation_line(e, f"tournament {name!r}, line {lineno} of its file: "),
                                      hint=f"{p}:{lineno}", tournament=name, line=lineno) from None
        if not recs or not isinstance(recs[0], Created):
            raise TournamentError(f"tournament {name!r}, line 1 of its file: the first record must be 'created'",
                                  hint=f"{p}:1", tournament=name, line=1)
        return cls(name, recs[0],
                   tuple(r for r in recs if isinstance(r, GameRecord)),
                   tuple(r for r in recs if isinstance(r, TeamRecord)),
                   tuple(r for r in recs if isinstance(r, PenaltyRecord)))

    def add(self, data: Path, record: GameRecord | TeamRecord | PenaltyRecord) -> Tournament:
        """Append ``record``; a game already in the tournament, or a (round, table, session)
        already taken, is refused."""
        if isinstance(record, GameRecord):
            for g in self.games:
                if g.game_id == record.game_id:
                    raise TournamentError(f"game {record.game_id!r} is already in round {g.round}, table {g.table}",
                                          tournament=self.name, game_id=record.game_id)
                if (g.round, g.table, g.session) == (record.round, record.table, record.session):
                    raise TournamentError(f"round {g.round}, table {g.table}, session {g.session} already holds "
                                          f"game {g.game_id!r}", tournament=self.name, game_id=g.game_id)
        if isinstance(record, TeamRecord):
            for t in self.teams:
                if t.team == record.team:
                    raise TournamentError(f"team {record.team!r}: the name is taken", tournament=self.name,
                                          team=record.team)
                taken = sorted(set(t.players) & set(record.players))
                if taken:
                    who = ", ".join(taken)
                    raise TournamentError(f"team {record.team!r}: {who} {'is' if len(taken) == 1 else 'are'} "
                                          f"already in team {t.team!r}", tournament=self.name, team=record.team,
                                          player=taken[0])
        _append(self.path(data, self.name), record)
        return Tournament.load(data, self.name)


def _append(p: Path, record: _Record) -> None:
    line = json.dumps(record.model_dump(mode="json"), ensure_ascii=False, sort_keys=True)
    with p.open("a", encoding="utf-8") as f:
        f.write(line + "\n")
        f.flush()


# -- results of games ----------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """One game of the tournament replayed: players by seat, final scores (after penalties and
    rulings in the game), whether it reached game_ended, and its findings. ``provisional``: a
    legal win of the game was scored with a provisional value (e.g. a cjm_chips pattern,
    competition.md §A6.2), so its scores are provisional too."""

    record: GameRecord
    ruleset: str
    players: tuple[str, ...]
    scores: tuple[int, ...]
    finished: bool
    findings: int
    rulings: tuple[str, ...] = ()
    provisional: bool = False


def check_game_stream(store: EventStore, game_id: str) -> None:
    """Refuse (TournamentArgument, field ``game_id``) a stream of the log that is not a game:
    the log's own streams (``paipu:players``, eventlog/players.py) and any stream whose first
    event is not ``game_started`` (docs/events.md: a game begins with it); TournamentNotFound
    when the log has no such stream."""
    first = next(iter(store.read_game(game_id, limit=1)), None)
    if first is None:
        raise TournamentNotFound(f"game {game_id!r} is not in the event log", hint="`paipu games` lists the games",
                                 game_id=game_id)
    if is_log_stream(game_id) or first.type != "game_started":
        what = ("the log's own stream" if is_log_stream(game_id)
                else f"its first event is {first.type}, not game_started")
        raise TournamentArgument(f"game_id {game_id!r}: not a game ({what}); only games can be added", "game_id",
                                 hint="`paipu games` lists them", game_id=game_id)


def game_result(store: EventStore, record: GameRecord) -> GameResult:
    """``record``'s game replayed. Raises TournamentNotFound (no such stream) or
    TournamentArgument (a stream that is not a game: :func:`check_game_stream`)."""
    check_game_stream(store, record.game_id)
    events = list(store.read_game(record.game_id))
    state, findings, provisional = None, 0, False
    for step in replay(events, mode="audit"):
        state, findings = step.state, findings + len(step.findings)
        if step.event.type == "win_declared":
            provisional = provisional or any(
                line.provisional for w in state.wins if w.seq == step.event.seq and w.legal and w.score is not None
                for line in w.score.lines())
    assert state is not None
    start = events[0].payload
    players = tuple(getattr(start, "players", None) or [f"seat {i}" for i in range(4)])
    rulings = tuple(
        f"event {e.seq}: {getattr(e.payload, 'ruling', '') or getattr(e.payload, 'reason', '')}".strip()
        for e in events if e.type in ("referee_ruling", "penalty"))
    return GameResult(record, getattr(start, "ruleset", ""), players, tuple(state.scores),
                      state.phase == "game_over", findings, rulings, provisional)


def add_game(data: Path, store: EventStore, name: str, record: GameRecord) -> tuple[Tournament, GameResult]:
    """Add ``record`` to tournament ``name`` once its game is found in ``store`` and replayed
    (what ``paipu tournament add-game`` and the gRPC AddGame do). Raises TournamentError."""
    t = Tournament.load(data, name)
    res = game_result(store, record)
    for g in t.games:
        if g.round != record.round or g.table == record.table or record.game_id in (x.game_id for x in t.games):
            continue  # (a game added twice is refused as such by Tournament.add)
        for start in store.read_game(g.game_id, limit=1):
            both = sorted(set(getattr(start.payload, "players", None) or ()) & set(res.players))
            if both:
                raise TournamentError(
                    f"game {record.game_id!r}: {', '.join(both)} already "
                    f"{'sits' if len(both) == 1 else 'sit'} at table {g.table} in round {g.round} "
                    f"(game {g.game_id!r}); a player sits at one table a round", tournament=t.name,
                    game_id=record.game_id, player=both[0])
    return t.add(data, record), res


def _known_players(t: Tournament, store: EventStore) -> set[str]:
    known = {p for tm in t.teams for p in tm.players}
    for g in t.games:
        for start in store.read_game(g.game_id, limit=1):
            known.update(getattr(start.payload, "players", None) or ())
    return known


def _unknown_player(t: Tournament, player: str, known: set[str]) -> TournamentError:
    return TournamentError(
        f"player {player!r} is not in tournament {t.name!r} (add their game or team first); "
        f"known players: {', '.join(sorted(known)) or 'none yet'}", tournament=t.name, player=player)


def add_team(data: Path, store: EventStore, name: str, record: TeamRecord) -> Tournament:
    """Add ``record`` to tournament ``name`` when every player of it plays one of the
    tournament's games (game_started in ``store``); an unknown player is refused with the
    message of :func:`add_penalty`; a player already in a team, or a team name taken, too
    (what ``paipu tournament team`` and the gRPC AddTeam do). Raises TournamentError."""
    t = Tournament.load(data, name)
    known = _known_players(t, store)
    for p in record.players:
        if p not in known:
            raise _unknown_player(t, p, known)
    return t.add(data, record)


def add_penalty(data: Path, store: EventStore, name: str, record: PenaltyRecord) -> Tournament:
    """Add ``record`` to tournament ``name`` when its player is one of the tournament: a
    player of its games (game_started in ``store``) or of its teams (a registered player who
    has not played, e.g. a no-show). A game can be added as soon as it has started, so a
    player is known from their first game on. Raises TournamentError naming the known
    players (what ``paipu tournament penalty`` and the gRPC AddPenalty do)."""
    t = Tournament.load(data, name)
    known = _known_players(t, store)
    if record.player not in known:
        raise _unknown_player(t, record.player, known)
    rounds = sorted({g.round for g in t.games})
    if record.round not in rounds:
        raise TournamentArgument(
            f"round {record.round}: no game of tournament {t.name!r} is in round {record.round} (rounds with "
            f"games: {', '.join(map(str, rounds)) or 'none yet'}); a penalty belongs to a round that holds "
            f"games — add the round's games first", "round", tournament=t.name)
    check_penalty_points(t, record)
    return t.add(data, record)


#: 罚分 of the chip format (competition.md §A9): "in units of 10, at most 50 per decision".
CJM_PENALTY_UNIT, CJM_PENALTY_MAX = 10, 50


def check_penalty_points(t: Tournament, record: PenaltyRecord) -> None:
    """Refuse (TournamentArgument, field ``points``) a penalty the tournament's rules do not
    allow. A ``cjm_standard`` tournament plays the chip format, whose 罚分 is "in units of 10, at
    most 50 per decision" (docs/reference/rules/competition.md §A9; the same rule the replayer
    checks inside a game, finding ``penalty_units``); one record is one decision, taken
    (negative) or awarded to the disadvantaged player (positive, §A9), never doubled: 倍打
    (§A6.4) doubles a hand's transfers, and a tournament penalty belongs to no hand. An
    ``mcr_table_points`` tournament has no penalty scale in our rules texts: any amount up to
    :data:`PENALTY_LIMIT` either way."""
    if t.created.scoring != "cjm_standard":
        return
    points = record.points
    if points % CJM_PENALTY_UNIT or abs(points) > CJM_PENALTY_MAX:
        raise TournamentArgument(
            f"points {points}: a penalty in a cjm_standard tournament is 罚分 in units of {CJM_PENALTY_UNIT}, at most "
            f"{CJM_PENALTY_MAX} per decision (competition.md §A9): a multiple of {CJM_PENALTY_UNIT} from "
            f"-{CJM_PENALTY_MAX} to {CJM_PENALTY_MAX}", "points",
            tournament=t.name, player=record.player)


def last_round(t: Tournament) -> int:
    """The last round of ``t``: the highest round of a game or a penalty (0 with neither).
    Every penalty added by :func:`add_penalty` is in a round that holds games; a file written
    before that rule may hold a later one, which the standings count and their header names."""
    return max([g.round for g in t.games] + [p.round for p in t.penalties], default=0)


def check_round(t: Tournament, through_round: int | None, field: str = "through_round") -> int:
    """The round the standings go through: ``through_round``, or :func:`last_round` when
    None. Raises TournamentArgument naming ``field`` for a round past the last one."""
    last = last_round(t)
    if through_round is None:
        return last
    if not 1 <= through_round <= last:
        have = f"rounds 1 to {last}" if last > 1 else "round 1 only" if last else "no games yet"
        raise TournamentArgument(f"{field} {through_round}: tournament {t.name!r} has {have}", field,
                                 tournament=t.name)
    return through_round


def results(store: EventStore, t: Tournament) -> list[GameResult]:
    """Every game of ``t`` replayed, in the order added. A record naming a stream that is not
    a game (added before add_game refused them, e.g. ``paipu:players``) is left out: it has no
    players or scores (:func:`not_games` names such records)."""
    out = []
    for g in t.games:
        try:
            out.append(game_result(store, g))
        except TournamentArgument as e:
            if e.field != "game_id":
                raise
    return out


def not_games(store: EventStore, t: Tournament) -> list[str]:
    """The ids of ``t``'s game records whose stream is not a game (left out of the standings)."""
    out = []
    for g in t.games:
        try:
            check_game_stream(store, g.game_id)
        except TournamentArgument:
            out.append(g.game_id)
    return out


def table_points(scores: Sequence[int]) -> tuple[int, ...]:
    """MCR table points of one game in twelfths: 48/24/12/0 by final score, equal scores
    sharing the places they hold (two tied first: (48 + 24) / 2 = 36 each)."""
    places = (48, 24, 12, 0)
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    out = [0] * len(scores)
    k = 0
    while k < len(order):
        j = k
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[k]]:
            j += 1
        share = sum(places[k:j + 1])
        n = j - k + 1
        if share % n:
            raise AssertionError("48/24/12/0 split between tied players is always whole twelfths")
        for i in order[k:j + 1]:
            out[i] = share // n
        k = j + 1
    return tuple(out)


# -- standings -------------------------------------------------------------------------------


@dataclass
class Standing:
    """One player's (or team's) line. ``table_points_x12``: MCR table points × 12;
    ``standard_points``: 标准分 (cjm); ``score``: sum of final game scores (cjm: 总局分) with
    tournament penalties; ``penalty_points``: the tournament penalties in ``score``;
    ``provisional``: a game counted here holds a score at a provisional value;
    ``unfinished``: the player's games without game_ended yet, left out of every total."""

    name: str
    team: str = ""
    games: int = 0
    table_points_x12: int = 0
    standard_points: int = 0
    score: int = 0
    penalty_points: int = 0
    rank: int = 0
    members: tuple[str, ...] = field(default_factory=tuple)
    provisional: bool = False
    unfinished: int = 0

    @property
    def table_points(self) -> Fraction:
        return Fraction(self.table_points_x12, 12)


def _key(t: Tournament, s: Standing) -> tuple:
    if t.created.scoring == "mcr_table_points":
        return (-s.table_points_x12, -s.score)
    return (-s.standard_points, -s.score)


def _rank(t: Tournament, lines: list[Standing]) -> list[Standing]:
    lines.sort(key=lambda s: (_key(t, s), s.name))
    for i, s in enumerate(lines):
        s.rank = lines[i - 1].rank if i and _key(t, lines[i - 1]) == _key(t, s) else i + 1
    return lines


def standings(t: Tournament, results: Iterable[GameResult], *, through_round: int | None = None,
              teams: bool = False) -> list[Standing]:
    """The ranked standings after every round up to ``through_round`` (all by default):
    players, or teams with ``teams`` (§A10: members' 标准分, then 总局分; MCR: table points,
    then score). Ties share a rank. A game without game_ended has no result yet: it counts
    in no total (games, points, score) and only in ``unfinished``."""
    results = [r for r in results if through_round is None or r.record.round <= through_round]
    unfinished = [r for r in results if not r.finished]
    results = [r for r in results if r.finished]
    team_of = {p: tm.team for tm in t.teams for p in tm.players}
    lines: dict[str, Standing] = {}

    def line(name: str) -> Standing:
        if name not in lines:
            lines[name] = Standing(name, team_of.get(name, ""))
        return lines[name]

    for r in results:
        tp = table_points(r.scores)
        for seat, name in enumerate(r.players):
            s = line(name)
            s.games += 1
            s.score += r.scores[seat]
            s.table_points_x12 += tp[seat]
            s.provisional = s.provisional or r.provisional
    for r in unfinished:
        for name in r.players:
            line(name).unfinished += 1
    if t.created.scoring == "cjm_standard":
        _standard_points(t, results, line)
    for p in t.penalties:
        if through_round is None or p.round <= through_round:
            s = line(p.player)
            s.score += p.points
            s.penalty_points += p.points
    players = list(lines.values())
    if not teams:
        return _rank(t, players)
    by_team: dict[str, Standing] = {}
    for s in players:
        if not s.team:
            continue
        tm = by_team.setdefault(s.team, Standing(s.team, s.team))
        tm.games += s.games
        tm.table_points_x12 += s.table_points_x12
        tm.standard_points += s.standard_points
        tm.score += s.score
        tm.penalty_points += s.penalty_points
        tm.provisional = tm.provisional or s.provisional
        tm.unfinished += s.unfinished
        tm.members = tuple(sorted(tm.members + (s.name,)))
    return _rank(t, list(by_team.values()))


def _standard_points(t: Tournament, results: list[GameResult], line) -> None:
    """§A10: per round and table, 总局分 = the sum of the table's 局分; the first (all tied
    first) gain ``first_points``; the second ``second_points`` (every table's, or the best
    second across the round's tables)."""
    c = t.created
    totals: dict[tuple[int, str], dict[str, int]] = {}
    for r in results:
        tab = totals.setdefault((r.record.round, r.record.table), {})
        for seat, name in enumerate(r.players):
            tab[name] = tab.get(name, 0) + r.scores[seat]
    best_second: dict[int, list[tuple[int, str]]] = {}
    for (rnd, _table), tab in sorted(totals.items()):
        values = sorted(set(tab.values()), reverse=True)
        for name, v in tab.items():
            if v == values[0]:
                line(name).standard_points += c.first_points
        if c.second_points and len(values) > 1:
            seconds = [(v, name) for name, v in tab.items() if v == values[1]]
            if c.second_scope == "table":
                for _, name in seconds:
                    line(name).standard_points += c.second_points
            else:
                best_second.setdefault(rnd, []).extend(seconds)
    for seconds in best_second.values():
        top = max(v for v, _ in seconds)
        for v, name in seconds:
            if v == top:
                line(name).standard_points += c.second_points


#: The columns of the ``standings`` export (CSV and Parquet), in order, with their meaning.
STANDINGS_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("tournament", "string", "tournament name"),
    ("title", "string", "the tournament's title (`create --title`; '' without one)"),
    ("through_round", "int64", "standings after rounds 1..through_round"),
    ("kind", "string", "player | team"),
    ("rank", "int64", "1 = first; equal keys share a rank"),
    ("name", "string", "player name as in game_started, or team name"),
    ("team", "string", "the player's team ('' without one)"),
    ("games", "int64", "finished games played (a team: its members' games)"),
    ("unfinished", "int64", "games without game_ended yet: left out of every total until they end"),
    ("table_points", "double", "MCR table points 4/2/1/0 with ties split (mcr_table_points)"),
    ("table_points_x12", "int64", "table_points × 12, exact"),
    ("standard_points", "int64", "标准分 (cjm_standard, competition.md §A10)"),
    ("score", "int64", "sum of final game scores incl. penalties (cjm: 总局分, chips)"),
    ("penalty_points", "int64", "tournament penalties included in score"),
    ("scoring", "string", "mcr_table_points | cjm_standard"),
    ("provisional", "bool", "a game counted holds a score at a provisional value (cjm_chips patterns, "
                            "competition.md §A6.2): the line is provisional until a federation confirms them"),
)


def standings_rows(t: Tournament, results: Sequence[GameResult], *, through_round: int | None = None) -> list[dict[str, Any]]:
    """Player lines then team lines as rows with :data:`STANDINGS_COLUMNS`."""
    last = through_round if through_round is not None else last_round(t)
    rows = []
    for kind, lines in (("player", standings(t, results, through_round=through_round)),
                        ("team", standings(t, results, through_round=through_round, teams=True))):
        for s in lines:
            rows.append({
                "tournament": t.name, "title": t.created.title, "through_round": last, "kind": kind, "rank": s.rank, "name": s.name,
                "team": s.team if kind == "player" else "", "games": s.games, "unfinished": s.unfinished,
                "table_points": float(s.table_points), "table_points_x12": s.table_points_x12,
                "standard_points": s.standard_points, "score": s.score, "penalty_points": s.penalty_points,
                "scoring": t.created.scoring, "provisional": s.provisional,
            })
    return rows


def write_csv(rows: Sequence[dict[str, Any]], path: Path | None = None) -> str:
    """The rows as CSV (header = the column names); written to ``path`` when given. A bool
    column reads ``true`` / ``false`` (as JSON and SQL write it; never Python's True/False)."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=[c for c, _, _ in STANDINGS_COLUMNS], lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: (("true" if v else "false") if isinstance(v, bool) else v) for k, v in r.items()})
    text = buf.getvalue()
    if path is not None:
        path.write_text(text, encoding="utf-8")
    return text


def write_parquet(rows: Sequence[dict[str, Any]], path: Path) -> None:
    """The rows as one Parquet file with the schema of :data:`STANDINGS_COLUMNS`."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    types = {"string": pa.string(), "int64": pa.int64(), "double": pa.float64(), "bool": pa.bool_()}
    schema = pa.schema([pa.field(c, types[t], nullable=False) for c, t, _ in STANDINGS_COLUMNS])
    table = pa.table({c: [r[c] for r in rows] for c, _, _ in STANDINGS_COLUMNS}, schema=schema)
    tmp = path.with_suffix(path.suffix + ".tmp")
    pq.write_table(table, tmp)
    tmp.replace(path)
