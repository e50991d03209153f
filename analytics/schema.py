"""The Parquet fact tables of the analytics export (shared/DESIGN.md §7).

Seven tables, each hive-partitioned by ruleset (``<table>/ruleset=<id>/part-….parquet``);
the ``ruleset`` column lives in the directory name, not in the files (the convention
DuckDB, Spark and Trino share). Every column is described here once; ``docs/analytics.md``
shows the same tables (a test keeps the two in step).

The tables are ruleset-neutral: a *hand* has a dealer, a prevalent wind and an outcome, a
*win* has a winner, a discarder or a self-draw and a total, and ``fans`` holds the scoring
conditions of a win (MCR fans; another ruleset's conditions under its own names).

Seats are absolute (0..3 in turn order); tiles use the canonical codes (W1-9 T1-9 B1-9
F1-4 J1-3 H1-8, eventlog/tiles.py); points are the ruleset's score points.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

__all__ = ["Table", "TABLES", "TABLE_NAMES", "SCHEMA_ID", "table"]


def _f(name: str, typ: pa.DataType, doc: str, nullable: bool = False) -> pa.Field:
    return pa.field(name, typ, nullable=nullable, metadata={"doc": doc})


@dataclass(frozen=True)
class Table:
    """One fact table: its name, Arrow schema (column docs in field metadata ``doc``) and
    the columns that order its rows inside a part file (with the game's order first)."""

    name: str
    doc: str
    schema: pa.Schema
    order: tuple[str, ...]

    @property
    def columns(self) -> list[str]:
        return self.schema.names

    def doc_of(self, column: str) -> str:
        return self.schema.field(column).metadata[b"doc"].decode()


_GAME = _f("game_id", pa.string(), "the game (event stream) id")
_HAND = _f("hand_number", pa.int32(), "hand number within the game, from 0 (hand_started)")
_DATE = _f("date", pa.date32(), "the game's date: the source's date when it gives one "
                               "(game_started metadata `date`), else the UTC date the log "
                               "recorded game_started; null when neither is known", nullable=True)
_SEAT = _f("seat", pa.int8(), "absolute seat 0..3")
_PLAYER = _f("player", pa.string(), "the player in that seat (game_started players)")

GAMES = Table(
    "games",
    "one row per finished game (a stream with game_ended)",
    pa.schema([
        _GAME,
        _f("ruleset_options", pa.string(), "the game's ruleset options as canonical JSON "
                                           "(sorted keys), as the replayer bound them"),
        _f("source", pa.string(), "game_started source (e.g. the match URL); '' when none"),
        _f("source_format", pa.string(), "importer that produced the events (metadata "
                                         "`format`, e.g. botzone-text); '' for live games"),
        _f("source_file", pa.string(), "source file name (metadata `source`); '' when none"),
        _f("players", pa.list_(pa.string()), "the four players, seat 0..3"),
        _f("hands", pa.int32(), "finished hands (hand_ended) in the game"),
        _f("initial_scores", pa.list_(pa.int32()), "scores at game start, seat 0..3"),
        _f("final_scores", pa.list_(pa.int32()), "scores at game end as computed by the "
                                                 "replayer, seat 0..3"),
        _f("reported_final_scores", pa.list_(pa.int32()), "final scores the source reported "
                                                          "(game_ended), seat 0..3; null when "
                                                          "none", nullable=True),
        _f("findings", pa.int32(), "rule findings of the audit replay (0 = clean game)"),
        _f("event_count", pa.int32(), "events exported for the game"),
        _f("first_position", pa.int64(), "global log position of the game's first event"),
        _f("end_position", pa.int64(), "global log position of game_ended (orders games)"),
        _f("last_position", pa.int64(), "global log position of the last exported event"),
        _f("recorded_at", pa.timestamp("us", tz="UTC"), "when the log recorded game_started", nullable=True),
        _DATE,
    ]),
    ("game_id",),
)

HANDS = Table(
    "hands",
    "one row per finished hand (hand_ended)",
    pa.schema([
        _GAME,
        _HAND,
        _f("prevalent_wind", pa.string(), "prevalent wind F1..F4 (E S W N)"),
        _f("dealer", pa.int8(), "the dealer's seat"),
        _f("outcome", pa.string(), "'win' (at least one legal win), 'draw' (exhaustive "
                                   "draw) or 'other' (ended without either, e.g. a false win)"),
        _f("winner", pa.int8(), "seat of the first legal win; null unless outcome = 'win'",
           nullable=True),
        _f("winners", pa.int8(), "number of legal wins (more than 1 only with several "
                                 "winners on one discard)"),
        _f("self_drawn", pa.bool_(), "the first win was self-drawn; null without a win",
           nullable=True),
        _f("discarder", pa.int8(), "seat that discarded the winning tile (or whose kong was "
                                   "robbed); null when self-drawn or without a win",
           nullable=True),
        _f("win_tile", pa.string(), "the first win's winning tile; null without a win",
           nullable=True),
        _f("fan_total", pa.int32(), "the first win's computed total (MCR: fan points with "
                                    "flowers); null without a win", nullable=True),
        _f("reported_total", pa.int32(), "the total the source reported for the first win; "
                                         "null when none", nullable=True),
        _f("turns", pa.int32(), "turns taken: a turn starts with a wall draw, a chow, pung or "
                                "melded kong claim, or the dealer's first discard from a "
                                "dealt 14-tile hand (kong and flower replacements do not "
                                "start one)"),
        _f("events", pa.int32(), "events from hand_started to hand_ended inclusive"),
        _f("findings", pa.int32(), "rule findings of the audit replay in this hand"),
        _DATE,
    ]),
    ("game_id", "hand_number"),
)

SEAT_RESULTS = Table(
    "seat_results",
    "one row per seat per finished hand (four per hand)",
    pa.schema([
        _GAME,
        _HAND,
        _SEAT,
        _PLAYER,
        _f("is_dealer", pa.bool_(), "the seat dealt this hand"),
        _f("seat_wind", pa.string(), "seat wind F1..F4 in this hand"),
        _f("score_change", pa.int32(), "points won (+) or lost (−) in the hand, as computed "
                                       "by the replayer (settlements, penalties, rulings)"),
        _f("reported_score_change", pa.int32(), "the change the source reported; null when "
                                                "it reported none", nullable=True),
        _f("won", pa.bool_(), "the seat made a legal win"),
        _f("left_at_seq", pa.int32(), "seq of the win after which the seat left a hand that went "
                                      "on (血战到底: winners leave, the others play on); null when "
                                      "the seat played to the end of the hand", nullable=True),
        _f("self_drawn", pa.bool_(), "the seat won by self-draw"),
        _f("dealt_in", pa.bool_(), "the seat discarded a winning tile (or had its kong "
                                   "robbed): 点炮 / deal-in"),
        _f("discards", pa.int32(), "tiles the seat discarded in the hand"),
        _f("discards_seen", pa.int32(), "tiles the other three seats discarded in the hand "
                                        "(the seat's chances to claim)"),
        _f("chows", pa.int32(), "chows the seat claimed"),
        _f("pungs", pa.int32(), "pungs the seat claimed"),
        _f("melded_kongs", pa.int32(), "kongs the seat made on a discard (明杠)"),
        _f("concealed_kongs", pa.int32(), "concealed kongs (暗杠)"),
        _f("added_kongs", pa.int32(), "pungs the seat promoted to a kong (加杠)"),
        _DATE,
    ]),
    ("game_id", "hand_number", "seat"),
)

WINS = Table(
    "wins",
    "one row per legal win (a hand with several winners has several)",
    pa.schema([
        _GAME,
        _HAND,
        _f("win_seq", pa.int32(), "seq of the win_declared event (identifies the win)"),
        _SEAT,
        _PLAYER,
        _f("win_tile", pa.string(), "the winning tile"),
        _f("self_drawn", pa.bool_(), "self-drawn win"),
        _f("discarder", pa.int8(), "seat that discarded the tile (or whose kong was robbed); "
                                   "null when self-drawn", nullable=True),
        _f("robbing_kong", pa.bool_(), "won by robbing a kong"),
        _f("total", pa.int32(), "computed total (MCR: fan points with flowers)"),
        _f("fans", pa.int32(), "number of distinct fans (rows in the fans table)"),
        _f("points_won", pa.int32(), "the winner's gain from this win's settlement"),
        _f("reported_total", pa.int32(), "total the source reported for this winner; null "
                                         "when none", nullable=True),
        _DATE,
    ]),
    ("game_id", "hand_number", "win_seq"),
)

FANS = Table(
    "fans",
    "one row per fan (scoring condition) per legal win, computed by the replayer's ruleset "
    "(not the source's report)",
    pa.schema([
        _GAME,
        _HAND,
        _f("win_seq", pa.int32(), "seq of the win_declared event (joins wins.win_seq)"),
        _SEAT,
        _PLAYER,
        _f("name_en", pa.string(), "fan name in English (e.g. 'All Chows')"),
        _f("name_zh", pa.string(), "fan name in Chinese (e.g. '平和')"),
        _f("points", pa.int32(), "points of one instance of the fan"),
        _f("count", pa.int32(), "how many times the fan counts in this win"),
        _f("provisional", pa.bool_(), "the fan's value is provisional (a value the rules text marks "
           "unconfirmed, e.g. the cjm_chips pattern values of competition.md §A6.2)"),
        _DATE,
    ]),
    ("game_id", "hand_number", "win_seq", "name_en"),
)

FAN_PAIRS = Table(
    "fan_pairs",
    "one row per pair of distinct fans of one legal win (fan_a < fan_b by English name; a "
    "win with n fans has n(n-1)/2 rows), written by the export so that fan co-occurrence "
    "is a plain GROUP BY instead of a self-join of fans",
    pa.schema([
        _GAME,
        _HAND,
        _f("win_seq", pa.int32(), "seq of the win_declared event (joins wins.win_seq)"),
        _SEAT,
        _PLAYER,
        _f("fan_a", pa.string(), "the pair's first fan, English name (fans.name_en; the "
                                 "lower of the two in byte order)"),
        _f("fan_b", pa.string(), "the pair's second fan, English name (fans.name_en; the "
                                 "higher of the two in byte order)"),
        _DATE,
    ]),
    ("game_id", "hand_number", "win_seq", "fan_a", "fan_b"),
)

SCORE_COMPONENTS = Table(
    "score_components",
    "one row per seat per settlement component per event of a hand: the hand's score changes "
    "split by what paid them and when (MCR: win, penalty; Nanchang: jing, gangjing, kong, "
    "chaozhuang, win, penalty — the jing bonuses of 精 live here; Sichuan: kong at each kong, "
    "win and hujiao_zhuanyi at each win, huazhu, chajiao, tuishui at the exhaustive draw), "
    "each component zero-sum over the seats",
    pa.schema([
        _GAME,
        _HAND,
        _f("seq", pa.int32(), "seq of the event that made the change (the win, kong, exhaustive "
                              "draw, penalty …)"),
        _SEAT,
        _PLAYER,
        _f("component", pa.string(), "what the points are for: a ruleset's settlement "
                                     "component (e.g. win, jing, kong) or a score-log kind "
                                     "(penalty, ruling, exhaustive_draw)"),
        _f("points", pa.int32(), "the seat's net change from this component at this event"),
        _DATE,
    ]),
    ("game_id", "hand_number", "seq", "component", "seat"),
)

ACTIONS = Table(
    "actions",
    "one row per table action in a hand: draws, discards, claims, passes, wins, flowers",
    pa.schema([
        _GAME,
        _HAND,
        _f("seq", pa.int32(), "the event's seq in the game stream"),
        _f("turn", pa.int32(), "turn index in the hand (from 0, see hands.turns) during "
                               "which the action happened; a claim opens a new turn"),
        _SEAT,
        _PLAYER,
        _f("action", pa.string(), "draw | discard | chow | pung | kong | pass | win | flower"),
        _f("tile", pa.string(), "the tile drawn, discarded, claimed, melded (kong) or won; "
                                "null for a draw the source hides", nullable=True),
        _f("detail", pa.string(), "draw: wall | kong_replacement | flower_replacement; "
                                  "kong: concealed | melded | added; pass: the claim given "
                                  "up (chow | pung | kong | win) or null; win: self_drawn | "
                                  "discard | robbing_kong", nullable=True),
        _f("from_seat", pa.int8(), "claims and wins on a discard: the discarder's seat",
           nullable=True),
    ]),
    ("game_id", "hand_number", "seq"),
)

TABLES: tuple[Table, ...] = (GAMES, HANDS, SEAT_RESULTS, WINS, FANS, FAN_PAIRS, SCORE_COMPONENTS, ACTIONS)
TABLE_NAMES: tuple[str, ...] = tuple(t.name for t in TABLES)


def _schema_id() -> str:
    import hashlib

    text = "\n".join(
        f"{t.name}: {t.schema.to_string(show_field_metadata=False, show_schema_metadata=False)}"
        for t in TABLES)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


#: Fingerprint of the tables' names, columns and types, kept in the export manifest: an
#: export written with other columns must be rebuilt, not read.
SCHEMA_ID: str = _schema_id()


def table(name: str) -> Table:
    """The :class:`Table` called ``name``. Raises KeyError for an unknown table."""
    for t in TABLES:
        if t.name == name:
            return t
    raise KeyError(f"unknown table {name!r} (tables: {', '.join(TABLE_NAMES)})")
