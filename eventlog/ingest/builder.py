"""Turn table actions read from a source log into one game's canonical events.

Every importer speaks to a :class:`GameBuilder` in table terms (deal, draw, discard,
chow, pung, kong, win …); the builder numbers the events, attaches the source location
as metadata and derives what the source leaves implicit from the actions so far:

* which discard a claim takes (the latest one) and its sequence number;
* whether a draw comes from the wall, replaces a kong or replaces a flower;
* whether an unqualified kong is melded (on another seat's discard) or concealed;
* whether a win is self-drawn, on a discard, robbing an added kong, or a further
  winner on the same tile.

The builder **translates; it does not judge** (issue 13 item 7, DESIGN.md §6): a draw
out of turn, a discard of a tile the seat does not hold, a fifth copy of a tile or a
chow by the wrong seat is stored as written, and the replayer reports it as a finding
in audit mode (its rule ids: ``wrong_seat_to_act``, ``tile_not_held``,
``tile_count_exceeded``, ``chow_wrong_seat`` …). Only what cannot be written as an
event at all raises :class:`~eventlog.ingest.base.IngestError` (the importer reports it
as a :class:`~eventlog.ingest.base.ParseIssue` with file and line): a tile code that
does not exist, a claim when no tile was ever discarded, a win whose tile is unknown.

Turn order follows DESIGN.md §3: seats 0..3, the next player is ``seat + 1``.

**Each payload is validated and encoded once** — and a payload equal to one seen before is
not validated again: the builder keeps each validated payload with its canonical JSON
text (:func:`eventlog.hashing.canonical_text` of its JSON form) under the fields it was
made from, so the thousands of identical draws and discards of a big import cost one
validation each (pydantic's validation is a function of the fields: equal fields, one
payload; fields it refuses are refused every time, with the same message). The payloads
written once a hand — the deals, the reported score, the game's end — seldom repeat; when
their fields are plainly valid (exact types, within range) the payload and its text are
made directly (:data:`_PLAIN`: the model and the bytes validation and encoding give), and
anything else is validated. With the
payload it keeps what every event of it takes from it (:data:`Entry`: type, text, schema
version, its part of the game's fingerprint), made once. The game is kept as records (the
entry and the source location — a bare line number, the common case, or the location
given); :class:`BuiltEvents` turns them into :class:`~eventlog.events.NewEvent` objects
only when someone reads them, and into the store's encoded form
(:meth:`BuiltEvents.encoded`, :meth:`BuiltEvents.fingerprinted`) without them, a game's
metadata texts from one template per file — or straight into its sealed rows, column by
column (:meth:`BuiltEvents.sealed`: the bulk import).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import ValidationError

from eventlog.errors import validation_line
from eventlog.events import (
    POINTS_LIMIT,
    EventError,
    GameEnded,
    NewEvent,
    Payload,
    ReportedFan,
    ScoreReported,
    TilesDealt,
    construct,
    parse_payload,
    game_event_ids,
)
from eventlog.ingest.base import (
    EncodedGame,
    FingerprintedGame,
    IngestError,
    ImportedGame,
    fingerprint_of_parts,
    fingerprint_part,
)
from eventlog.store.planning import SealedBatch, encode_metadata, encode_payload
from eventlog import tiles as _tiles

__all__ = ["GameBuilder", "BuiltEvents", "chow_run", "check_tile"]

#: What the last table action was (enough to translate the next one; not a rules state).
Last = Literal["start", "draw", "claim", "discard", "kong", "flower", "win", "drawn_game"]

CLAIM_WORDS = ("chow", "pung", "kong", "win")


_TILE_CODES = frozenset(_tiles.ALL_TILES)
#: A string as canonical JSON (eventlog.hashing encodes every string with it).
_json_string = json.encoder.encode_basestring


def check_tile(code: str) -> str:
    """``code`` if it is a canonical tile (eventlog.tiles); IngestError otherwise."""
    if type(code) is str and code in _TILE_CODES:
        return code
    if not isinstance(code, str) or not _tiles.is_valid(code):
        raise IngestError(f"unknown tile code {code!r}")
    return code


def chow_run(middle: str) -> list[str]:
    """The run whose middle tile is ``middle`` (Botzone and PMN name a chow by it).
    IngestError when no run has that middle tile (an honor, a 1 or a 9): the chow
    cannot be written down."""
    check_tile(middle)
    if middle[0] not in _tiles.SUITS or middle[1] not in "2345678":
        raise IngestError(f"{middle} cannot be the middle tile of a chow")
    s, r = middle[0], int(middle[1])
    return [f"{s}{r - 1}", middle, f"{s}{r + 1}"]


#: One validated payload as the builder keeps it: ``(type, payload, canonical JSON text,
#: schema version, fingerprint part)`` — everything the event's stored row and its game's
#: fingerprint (:func:`~eventlog.ingest.base.fingerprint_part`) take from it, made once.
Entry = tuple[str, Payload, str, int, str]

#: Entries by the fields they were made from (``(type, (name, value), …)``, lists as
#: tuples). Bounded: emptied when full.
_PAYLOADS: dict[tuple[Any, ...], Entry] = {}
_PAYLOADS_MAX = 1 << 15
#: Payloads written once a hand or game (a deal, the scores): seldom the same twice, not kept.
#: (A hand's start and end are: few different ones — the wind, the hand number.)
_ONCE_A_HAND = frozenset({"game_started", "tiles_dealt", "score_reported", "game_ended"})


def _frozen(fields: dict[str, Any]) -> tuple[Any, ...] | None:
    """The fields as a hashable key (lists of plain values as tuples), or None."""
    out = []
    for k, v in fields.items():
        if type(v) is list:
            if not all(type(x) in (str, int) for x in v):
                return None
            v = tuple(v)
        elif type(v) not in (str, int, bool, type(None)):
            return None
        out.append((k, v))
    return tuple(out)


def _points(v: Any) -> bool:
    """``v`` is what a ``Points`` field keeps as it is: an int (not a bool) within ±10⁹."""
    return type(v) is int and -POINTS_LIMIT <= v <= POINTS_LIMIT


def _four_points(v: Any) -> bool:
    return type(v) is list and len(v) == 4 and all(type(x) is int and -POINTS_LIMIT <= x <= POINTS_LIMIT for x in v)


def _seat(v: Any) -> bool:
    return type(v) is int and 0 <= v <= 3


def _ints_text(v: list[int] | None) -> str:
    """The canonical JSON of a list of ints (an int's JSON is ``str``), or of None."""
    return "null" if v is None else f"[{','.join(map(str, v))}]"


def _plain_tiles_dealt(fields: dict[str, Any]) -> tuple[Payload, str] | None:
    """``tiles_dealt`` of a seat 0..3 and canonical tile codes (which validate as they are)."""
    seat, tiles = fields.get("seat"), fields.get("tiles")
    if (len(fields) != 2 or not _seat(seat) or type(tiles) is not list
            or not all(type(t) is str and t in _TILE_CODES for t in tiles)):
        return None
    # a tile code is letters and a digit: its JSON string is the code between quotes
    quoted = '","'.join(tiles)
    text = f'{{"seat":{seat},"tiles":["{quoted}"]}}' if tiles else f'{{"seat":{seat},"tiles":[]}}'
    return construct(TilesDealt, {"seat": seat, "tiles": list(tiles)}), text


def _plain_game_ended(fields: dict[str, Any]) -> tuple[Payload, str] | None:
    """``game_ended`` of four scores (or None)."""
    scores = fields.get("final_scores")
    if len(fields) != 1 or "final_scores" not in fields or not (scores is None or _four_points(scores)):
        return None
    value = None if scores is None else list(scores)
    return construct(GameEnded, {"final_scores": value}), f'{{"final_scores":{_ints_text(value)}}}'


_FAN_KEYS = frozenset({"name", "points", "count"})
_SCORE_KEYS = frozenset({"winner", "score_changes", "fans", "total", "text"})


def _plain_score_reported(fields: dict[str, Any]) -> tuple[Payload, str] | None:
    """``score_reported`` with every field given (what :meth:`GameBuilder.score_reported`
    passes), each fan a dict of name, points (or None) and count."""
    if fields.keys() != _SCORE_KEYS:
        return None
    winner, changes, fans, total, text = (fields["winner"], fields["score_changes"], fields["fans"],
                                          fields["total"], fields["text"])
    if (not (winner is None or _seat(winner)) or not (changes is None or _four_points(changes))
            or not (total is None or _points(total)) or type(text) is not str or type(fans) is not list):
        return None
    made, texts = [], []
    s = _json_string
    for f in fans:
        if type(f) is not dict or f.keys() != _FAN_KEYS:
            return None
        name, points, count = f["name"], f["points"], f["count"]
        if type(name) is not str or not (points is None or _points(points)) or not _points(count):
            return None
        made.append(construct(ReportedFan, {"name": name, "points": points, "count": count}))
        texts.append(f'{{"count":{count},"name":{s(name)},"points":{"null" if points is None else points}}}')
    changes = None if changes is None else list(changes)
    payload = construct(ScoreReported, {"winner": winner, "score_changes": changes, "fans": made, "total": total,
                                        "text": text})
    return payload, (f'{{"fans":[{",".join(texts)}],"score_changes":{_ints_text(changes)},"text":{s(text)},'
                     f'"total":{"null" if total is None else total},"winner":{"null" if winner is None else winner}}}')


#: Payloads written once a hand whose fields, when they are plainly valid (exact types,
#: within range), make the payload and its canonical JSON text directly: what validating
#: them and encoding the model gives (tests/ingest: every bundled game both ways), at a
#: tenth of the cost — four deals, a score and the end of every game. Anything else (None)
#: goes through validation, which refuses it or says what it makes of it.
_PLAIN: dict[str, Any] = {
    "tiles_dealt": _plain_tiles_dealt,
    "game_ended": _plain_game_ended,
    "score_reported": _plain_score_reported,
}


def _entry(type_: str, fields: dict[str, Any]) -> Entry:
    """The :data:`Entry` of the validated payload of ``type_`` made of ``fields``;
    IngestError when the fields do not make a valid payload."""
    plain = _PLAIN.get(type_)
    if plain is not None:
        made = plain(fields)
        if made is not None:
            payload, text = made
            return (type_, payload, text, type(payload).SCHEMA_VERSION, fingerprint_part(type_, text))
    return _validated_entry(type_, fields)


def _validated_entry(type_: str, fields: dict[str, Any]) -> Entry:
    """:func:`_entry` by validating ``fields`` (the general way)."""
    key: tuple[Any, ...] | None = None
    if type_ not in _ONCE_A_HAND:
        try:
            key = (type_, *fields.items())
            hit = _PAYLOADS.get(key)
        except TypeError:  # a list among the values
            frozen = _frozen(fields)
            key = (type_, *frozen) if frozen is not None else None
            hit = _PAYLOADS.get(key) if key is not None else None
        if hit is not None:
            return hit
    try:
        payload: Payload = parse_payload(type_, fields)
    except ValidationError as e:  # pydantic's many lines and URL, as our one line
        raise IngestError(validation_line(e)) from None
    except (EventError, ValueError, TypeError) as e:
        raise IngestError(str(e).splitlines()[0]) from None
    text = encode_payload(type_, payload)[0]
    made = (type_, payload, text, type(payload).SCHEMA_VERSION, fingerprint_part(type_, text))
    if key is not None:
        if len(_PAYLOADS) >= _PAYLOADS_MAX:
            _PAYLOADS.clear()
        _PAYLOADS[key] = made
    return made


#: The payloads of the table actions (:meth:`GameBuilder.draw`, ``discard``, claims, wins) by
#: their *shape* and field values: ``(shape, value, …)`` — one flat tuple made by the
#: action itself, no keyword arguments, no field names — with the type beside each
#: payload and its text (an :data:`Entry`). A shape (:data:`_SHAPES`) is one event type with its fields always
#: given in one order, so the values alone say which payload it is. What a draw or a
#: discard costs (nine events in ten of a game): one lookup here. Bounded like
#: :data:`_PAYLOADS`.
_BY_SHAPE: dict[tuple[Any, ...], Entry] = {}
#: shape -> (event type, field names in the order of the values).
_SHAPES: dict[str, tuple[str, tuple[str, ...]]] = {
    "draw": ("tile_drawn", ("seat", "tile", "source")),
    "discard": ("tile_discarded", ("seat", "tile")),
    "chow": ("chow", ("seat", "tiles", "claimed_tile", "discard_seq")),
    "pung": ("pung", ("seat", "tile", "discard_seq")),
    "melded_kong": ("kong", ("seat", "kind", "tile", "discard_seq")),
    "kong": ("kong", ("seat", "kind", "tile")),
    "pass": ("pass", ("seat", "discard_seq", "claim", "tiles")),
    "win": ("win_declared", ("seat", "tile", "self_drawn", "from_seat", "discard_seq", "robbing_kong")),
}


def _shaped(key: tuple[Any, ...]) -> Entry:
    """The entry of :data:`_BY_SHAPE` for ``key`` (made by :func:`_entry` from the named
    fields, tuples given as lists); IngestError as :func:`_entry`."""
    type_, names = _SHAPES[key[0]]
    made = _entry(type_, {n: list(v) if type(v) is tuple else v for n, v in zip(names, key[1:])})
    if len(_BY_SHAPE) >= _PAYLOADS_MAX:
        _BY_SHAPE.clear()
    _BY_SHAPE[key] = made
    return made


#: A value :func:`_metadata_template` puts where the location goes (an int no source has).
_MARK = 7_318_273_645_546_372_819


#: Where an event was read, as the builder keeps it: a line number (:meth:`GameBuilder.at_line`,
#: the location ``{"line": n}``) or the location itself.
Location = int | dict[str, Any]
#: One recorded event: its payload's :data:`Entry` and where it was read.
Record = tuple[Entry, Location]


def _location(loc: Location) -> dict[str, Any]:
    return {"line": loc} if type(loc) is int else dict(loc)  # type: ignore[arg-type]


class BuiltEvents:
    """One game's events as the builder recorded them (:data:`Record` each), with the
    metadata common to all (``meta``)."""

    def __init__(self, game_id: str, meta: dict[str, Any], records: list[Record]) -> None:
        self.game_id = game_id
        self.meta = meta
        self.records = records

    def __len__(self) -> int:
        return len(self.records)

    def new_events(self) -> list[NewEvent]:
        """The events (ids :func:`~eventlog.events.game_event_ids`, metadata = ``meta`` and
        the location), as ``NewEvent.of`` makes them; the payloads are validated already."""
        ids = game_event_ids(self.game_id, len(self.records))
        meta = self.meta
        return [
            construct(NewEvent, {"event_id": event_id, "type": entry[0], "payload": entry[1],
                                 "metadata": {**meta, **_location(loc)}, "schema_version": entry[3]})
            for event_id, (entry, loc) in zip(ids, self.records)
        ]

    def encoded(self) -> EncodedGame:
        """The events as the store takes them (the texts :meth:`eventlog.store.planning.Batch.encode`
        writes for :meth:`new_events`), without making the events: a location that is a line
        number is put into the metadata text encoded once for the game's file."""
        first = self.records[0] if self.records else None
        return EncodedGame(self._encoded(), self._ruleset(),
                           {**self.meta, **_location(first[1])} if first is not None else dict(self.meta))

    def fingerprinted(self) -> FingerprintedGame:
        """:meth:`encoded`'s events with the content fingerprint
        (:func:`~eventlog.ingest.base.fingerprint_of_texts`, from the parts kept with the
        payloads) in the first one's metadata (the bulk import chains them as they come,
        :meth:`eventlog.store.planning.SealedBatch.of`)."""
        fp = fingerprint_of_parts([r[0][4] for r in self.records])
        return FingerprintedGame(iter(self._encoded(fp)), self._ruleset(), fp)

    def sealed(self, recorded_at: str, log: tuple[int, str] | None = None) -> tuple[SealedBatch, str]:
        """``(batch, fingerprint)``: :meth:`fingerprinted`'s events sealed at ``recorded_at``
        (:meth:`SealedBatch.of <eventlog.store.planning.SealedBatch.of>`, ``log`` as there) —
        the same rows, made from the records as columns: no tuple per event. Raises
        :class:`~eventlog.errors.InvalidArgument` as :meth:`SealedBatch.of` does."""
        records = self.records
        entries = [r[0] for r in records]
        fp = fingerprint_of_parts([e[4] for e in entries])
        if not records:
            return SealedBatch.of(self.game_id, [], recorded_at, self._ruleset(), log), fp
        ids = game_event_ids(self.game_id, len(records))  # canonical UUIDs; a payload class's version is an int
        return SealedBatch.of_columns(self.game_id, ids, [e[0] for e in entries], [e[3] for e in entries],
                                      [e[2] for e in entries], self._metadata_texts(fp), recorded_at,
                                      self._ruleset(), log, canonical_ids=True), fp

    def _ruleset(self) -> str | None:
        first = self.records[0][0] if self.records else None
        ruleset = getattr(first[1], "ruleset", None) if first is not None and first[0] == "game_started" else None
        return ruleset if isinstance(ruleset, str) else None

    def _encoded(self, fingerprint: str | None = None) -> list[tuple[str, str, int, str, str]]:
        """``(event_id, type, schema_version, payload_text, metadata_text)`` per event, the
        first one's metadata with ``fingerprint`` when given (:meth:`_metadata_texts`)."""
        records = self.records
        if not records:
            return []
        ids = game_event_ids(self.game_id, len(records))
        return [(i, e[0], e[3], e[2], m) for i, (e, _), m in zip(ids, records, self._metadata_texts(fingerprint))]

    def _metadata_texts(self, fingerprint: str | None = None) -> list[str]:
        """Each event's metadata text: ``meta`` and its location, the first one's with
        ``fingerprint`` when given; a location that is a line number put into the metadata
        text of the game's lines (:func:`_metadata_template`)."""
        records = self.records
        if not records:
            return []
        meta = self.meta
        extra = {"fingerprint": fingerprint} if fingerprint is not None else {}
        out = [encode_metadata({**meta, **_location(records[0][1]), **extra})]
        line = _metadata_template(meta, "line")
        other = _Metadata(meta)
        if line is None:
            out += [other.text(loc) for _, loc in records[1:]]
            return out
        head, tail = line
        out += [f"{head}{loc}{tail}" if type(loc) is int else other.text(loc) for _, loc in records[1:]]
        return out


class _Metadata:
    """The metadata texts of a game's events whose location is not a bare line number."""

    def __init__(self, meta: dict[str, Any]) -> None:
        self.meta = meta
        self.templates: dict[str, tuple[str, str] | None] = {}

    def text(self, loc: Location) -> str:
        loc = _location(loc)
        if len(loc) == 1:
            ((k, v),) = loc.items()
            if type(v) is int:
                if k not in self.templates:
                    self.templates[k] = _metadata_template(self.meta, k)
                tpl = self.templates[k]
                if tpl is not None:
                    return f"{tpl[0]}{v}{tpl[1]}"
        return encode_metadata({**self.meta, **loc})


#: :func:`_metadata_template` by key and metadata (the games of a file share theirs). Bounded.
_TEMPLATES: dict[tuple[Any, ...], tuple[str, str]] = {}


def _metadata_template(meta: dict[str, Any], key: str) -> tuple[str, str] | None:
    """The canonical metadata text of ``{**meta, key: n}`` split where the int ``n`` goes
    (JSON writes an int as ``str(n)``), or None when ``key`` is one of ``meta``'s."""
    if key in meta:
        return None
    # kept for metadata of strings only (1, 1.0 and True are one key, not one text)
    cache_key = (key, *meta.items()) if all(type(v) is str for v in meta.values()) else None
    made = _TEMPLATES.get(cache_key) if cache_key is not None else None
    if made is not None:
        return made
    parts = encode_metadata({**meta, key: _MARK}).split(str(_MARK))
    if len(parts) != 2:
        return None
    made = (parts[0], parts[1])
    if cache_key is not None:
        if len(_TEMPLATES) >= 256:
            _TEMPLATES.clear()
        _TEMPLATES[cache_key] = made
    return made


class GameBuilder:
    """Accumulates one game's events; see the module docstring.

    ``meta`` is the metadata common to every event (``source``, ``format``); the
    importer sets the location of the current action with :meth:`at` before each call.
    Seats are 0..3; tiles are canonical codes (the importer converts its notation)."""

    def __init__(self, game_id: str, meta: dict[str, Any]) -> None:
        self.game_id = game_id
        self.meta = dict(meta)
        self._records: list[Record] = []
        self._loc: Location = {}
        self.dealer = 0
        self.hand_number: int | None = None
        self._last: Last = "start"
        self._actor = 0
        self._last_draw: list[str | None] = [None] * 4
        self._discard: tuple[int, int, str] | None = None  # seq, seat, tile
        self._kong: tuple[int, int, str, str] | None = None  # seq, seat, tile, kind
        self._win_source: dict[str, Any] | None = None
        self._winners: list[int] = []

    # -- plumbing -------------------------------------------------------------------
    def at(self, **loc: Any) -> GameBuilder:
        """Set the source location (``line=``, ``record=``, ``token=`` …) of what follows."""
        self._loc = loc
        return self

    def at_line(self, line: int) -> GameBuilder:
        """:meth:`at` ``(line=line)``, the location of most events of a text format, kept
        as the number alone (its metadata text is made from the game's template)."""
        self._loc = line
        return self

    @property
    def location(self) -> dict[str, Any]:
        """The source location set by the last :meth:`at` (or :meth:`at_line`)."""
        return _location(self._loc)

    @property
    def events(self) -> list[NewEvent]:
        """The events so far (made on each call: see :class:`BuiltEvents`)."""
        return BuiltEvents(self.game_id, self.meta, list(self._records)).new_events()

    def emit(self, type_: str, **fields: Any) -> int:
        """Append an event of ``type_``; returns its sequence number in the game.
        IngestError when the fields do not make a valid payload."""
        seq = len(self._records)
        self._records.append((_entry(type_, fields), self._loc))
        return seq

    def _act(self, key: tuple[Any, ...]) -> int:
        """Append the table action ``key`` (``(shape, value, …)``, :data:`_SHAPES`): what
        :meth:`emit` of its type and named fields appends, by one lookup."""
        made = _BY_SHAPE.get(key)
        if made is None:
            made = _shaped(key)
        records = self._records
        records.append((made, self._loc))
        return len(records) - 1

    def build(self, source_path: str, first_line: int) -> ImportedGame:
        return ImportedGame.built(
            self.game_id, BuiltEvents(self.game_id, self.meta, self._records), source_path, first_line,
            self.meta.get("format", ""),
        )

    def _set(self, last: Last, actor: int) -> None:
        self._last, self._actor = last, actor

    # -- hand framing ---------------------------------------------------------------
    def game_started(
        self,
        players: Sequence[str],
        *,
        ruleset: str = "mcr",
        source: str = "",
        initial_scores: Sequence[int] | None = None,
        ruleset_options: dict[str, Any] | None = None,
    ) -> int:
        fields: dict[str, Any] = {
            "ruleset": ruleset,
            "players": list(players),
            "source": source,
            "ruleset_options": ruleset_options or {},
        }
        if initial_scores is not None:
            fields["initial_scores"] = list(initial_scores)
        return self.emit("game_started", **fields)

    def hand_started(
        self,
        hand_number: int,
        prevalent_wind: str,
        dealer: int,
        *,
        wall: Sequence[str] = (),
        seed: str | None = None,
    ) -> int:
        for t in wall:
            check_tile(t)
        self.dealer = dealer
        self.hand_number = hand_number
        self._set("start", dealer)
        self._last_draw = [None] * 4
        self._discard = self._kong = self._win_source = None
        self._winners = []
        return self.emit(
            "hand_started",
            hand_number=hand_number,
            prevalent_wind=prevalent_wind,
            dealer=dealer,
            wall=list(wall),
            seed=seed,
        )

    def deal(self, seat: int, tiles: Sequence[str]) -> int:
        for t in tiles:
            check_tile(t)
        return self.emit("tiles_dealt", seat=seat, tiles=list(tiles))

    # -- the turn -------------------------------------------------------------------
    def draw(self, seat: int, tile: str | None) -> int:
        source = "wall"
        if seat == self._actor and self._last == "kong":
            source = "kong_replacement"
        elif seat == self._actor and self._last == "flower":
            source = "flower_replacement"
        if tile is not None and tile not in _TILE_CODES:
            check_tile(tile)
        self._last_draw[seat] = tile
        self._last, self._actor, self._kong = "draw", seat, None
        key = ("draw", seat, tile, source)  # self._act(key), inline: half the lines of a game
        made = _BY_SHAPE.get(key)
        if made is None:
            made = _shaped(key)
        records = self._records
        records.append((made, self._loc))
        return len(records) - 1

    def flower(self, seat: int, flower: str) -> int:
        check_tile(flower)
        self._set("flower", seat)
        return self.emit("flower_replaced", seat=seat, flower=flower)

    def discard(self, seat: int, tile: str) -> int:
        if tile not in _TILE_CODES:
            check_tile(tile)
        key = ("discard", seat, tile)  # self._act(key), inline: the other half
        made = _BY_SHAPE.get(key)
        if made is None:
            made = _shaped(key)
        records = self._records
        seq = len(records)
        records.append((made, self._loc))
        self._discard = (seq, seat, tile)
        self._last, self._actor = "discard", seat
        return seq

    def last_drawn(self, seat: int) -> str:
        """The tile ``seat`` just drew (for "discard the drawn tile" notations)."""
        t = self._last_draw[seat]
        if self._last != "draw" or self._actor != seat or t is None:
            raise IngestError(f"seat {seat} discards 'the drawn tile' but did not just draw one")
        return t

    def _claimed(self, seat: int, what: str) -> tuple[int, int, str]:
        """The discard a claim takes: the latest one (the replayer judges whether it was
        still open and whose it was)."""
        if self._discard is None:
            raise IngestError(f"{what} by seat {seat}, but no tile has been discarded this hand")
        return self._discard

    def chow(self, seat: int, middle: str) -> int:
        """Chow named by its middle tile; the claimed tile is the last discard (when it is
        not in the run, the run's middle tile is written as claimed and the replayer
        reports the mismatch)."""
        run = chow_run(middle)
        seq, _by, tile = self._claimed(seat, "a chow")
        self._set("claim", seat)
        return self._act(("chow", seat, tuple(run), tile if tile in run else middle, seq))

    def pung(self, seat: int, tile: str | None = None) -> int:
        seq, _by, discarded = self._claimed(seat, "a pung")
        if tile is not None:
            check_tile(tile)
        self._set("claim", seat)
        return self._act(("pung", seat, tile or discarded, seq))

    def melded_kong(self, seat: int, tile: str | None = None) -> int:
        seq, _by, discarded = self._claimed(seat, "a melded kong")
        if tile is not None:
            check_tile(tile)
        out = self._act(("melded_kong", seat, "melded", tile or discarded, seq))
        self._kong = (out, seat, tile or discarded, "melded")
        self._set("kong", seat)
        return out

    def concealed_kong(self, seat: int, tile: str) -> int:
        check_tile(tile)
        out = self._act(("kong", seat, "concealed", tile))
        self._kong = (out, seat, tile, "concealed")
        self._set("kong", seat)
        return out

    def added_kong(self, seat: int, tile: str) -> int:
        check_tile(tile)
        out = self._act(("kong", seat, "added", tile))
        self._kong = (out, seat, tile, "added")
        self._set("kong", seat)
        return out

    def kong(self, seat: int, tile: str | None) -> int:
        """A kong the source does not qualify: melded when it follows another seat's
        discard, concealed otherwise (then the tile must be given)."""
        if self._last == "discard" and seat != self._actor:
            return self.melded_kong(seat, tile)
        if tile is None:
            raise IngestError(f"a kong by seat {seat} names no tile and follows no discard")
        return self.concealed_kong(seat, tile)

    def lost_claim(self, seat: int, claim: str, tiles: Sequence[str]) -> int:
        """A claim on the current discard (or robbable kong) that lost on priority."""
        if claim not in CLAIM_WORDS:
            raise IngestError(f"unknown claim {claim!r}")
        for t in tiles:
            check_tile(t)
        target = self.claim_target()
        seq = target[0] if target is not None else None
        return self._act(("pass", seat, seq, claim, tuple(tiles)))

    def win(self, seat: int, tile: str | None = None) -> int:
        """Self-drawn after the seat's own draw, on the last discard, robbing an added
        kong, or a further winner on the same tile (several winners)."""
        last, a = self._last, self._actor
        if last == "win" and self._win_source is not None:
            src = dict(self._win_source)
        elif last == "discard" and seat != a and self._discard is not None:
            seq, by, t = self._discard
            src = {"tile": t, "self_drawn": False, "from_seat": by,
                   "discard_seq": seq, "robbing_kong": False}
        elif last == "kong" and seat != a and self._kong is not None and self._kong[3] == "added":
            seq, by, t, _ = self._kong
            src = {"tile": t, "self_drawn": False, "from_seat": by,
                   "discard_seq": seq, "robbing_kong": True}
        else:
            drawn = self._last_draw[seat] if seat == a else None
            src = {"tile": drawn, "self_drawn": True, "from_seat": None,
                   "discard_seq": None, "robbing_kong": False}
        if tile is not None:
            check_tile(tile)
            src["tile"] = tile  # as written; the replayer compares it with the table
        if src["tile"] is None:
            raise IngestError(f"the winning tile of seat {seat} is unknown")
        self._win_source = src
        self._winners.append(seat)
        self._set("win", seat)
        return self._act(("win", seat, src["tile"], src["self_drawn"], src["from_seat"], src["discard_seq"],
                          src["robbing_kong"]))

    def claim_target(self) -> tuple[int, int, str] | None:
        """``(seq, seat, tile)`` of what a claim now would take: the last discard, or an
        added kong that may be robbed; None when nothing can be claimed."""
        if self._last == "discard" and self._discard is not None:
            return self._discard
        if self._last == "kong" and self._kong is not None and self._kong[3] == "added":
            return self._kong[:3]
        return None

    @property
    def winners(self) -> list[int]:
        return list(self._winners)

    @property
    def phase(self) -> str:
        """The last table action: start, draw, claim, discard, kong, flower, win, drawn_game."""
        return self._last

    @property
    def hand_over(self) -> bool:
        """A win or an exhaustive draw has been written in this hand."""
        return self._last in ("win", "drawn_game")

    def exhaustive_draw(self) -> int:
        self._set("drawn_game", self._actor)
        return self.emit("exhaustive_draw")

    def score_reported(
        self,
        *,
        winner: int | None = None,
        score_changes: Sequence[int] | None = None,
        fans: Sequence[ReportedFan] = (),
        total: int | None = None,
        text: str = "",
    ) -> int:
        return self.emit(
            "score_reported",
            winner=winner,
            score_changes=list(score_changes) if score_changes is not None else None,
            fans=[f.model_dump() for f in fans],
            total=total,
            text=text,
        )

    def hand_ended(self) -> int:
        if self.hand_number is None:
            raise IngestError("a hand ends that never started")
        return self.emit("hand_ended", hand_number=self.hand_number)

    def game_ended(self, final_scores: Sequence[int] | None = None) -> int:
        return self.emit(
            "game_ended", final_scores=list(final_scores) if final_scores is not None else None
        )
