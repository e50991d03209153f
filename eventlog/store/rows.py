"""Reading stored rows: turn one row into a :class:`StoredEvent` trusting nothing
(:func:`inspect_row`), and check that a run of rows has no hole (:class:`GameLinks`,
:class:`LogLinks`). Every read path of every backend goes through here.

Payloads handed to readers are shared between readers (parsed once per distinct stored
text) and deeply immutable: their lists and dicts are :class:`FrozenList` /
:class:`FrozenDict`, which compare and serialise like ``list``/``dict`` but refuse any
change, so one reader can never change what another reads.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from typing import Any, NoReturn

from pydantic import BaseModel, ValidationError

from eventlog.errors import validation_line
from eventlog.events import PAYLOAD_TYPES, EventError, StoredEvent, construct, parse_payload, payload_version, upcast
from eventlog.hashing import GENESIS_HASH, chain_body_text, chain_hash, link_hash
from eventlog.store.errors import CorruptEvent, MissingEvents
from eventlog.store.types import COLUMNS, Row

__all__ = ["inspect_row", "inspect_values", "inspect_run", "FrozenList", "FrozenDict", "freeze", "GameLinks", "LogLinks",
           "clear_payload_cache"]


# --------------------------------------------------------------------------- immutable payloads


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(f"{type(self).__name__} is read-only: a stored event's payload cannot be changed "
                    "(copy it first, e.g. list(x) / dict(x))")


class FrozenList(list):
    """A ``list`` that refuses every change (equal to, and serialised as, a plain list)."""

    __slots__ = ()
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse

    def __reduce__(self):
        return (FrozenList, (list(self),))

    def __hash__(self) -> int:  # type: ignore[override]  # list says unhashable; this one is immutable, hashed like a tuple
        return hash(tuple(self))


class FrozenDict(dict):
    """A ``dict`` that refuses every change (equal to, and serialised as, a plain dict)."""

    __slots__ = ()
    pop = popitem = clear = update = setdefault = _refuse
    __setitem__ = __delitem__ = __ior__ = _refuse

    def __reduce__(self):
        return (FrozenDict, (dict(self),))


#: Values :func:`freeze` returns as they are, by exact type (most of a payload: tiles, seats).
_ATOMS = frozenset({str, int, float, bool, type(None)})


def freeze(value: Any) -> Any:
    """Make ``value`` deeply immutable in place where it is a (frozen) pydantic model, and
    return frozen copies of lists and dicts. Other values are returned as they are."""
    if type(value) in _ATOMS:
        return value
    if isinstance(value, BaseModel):
        for name, item in value.__dict__.items():
            frozen = freeze(item)
            if frozen is not item:
                value.__dict__[name] = frozen
        return value
    if isinstance(value, FrozenList | FrozenDict):
        return value
    if isinstance(value, list | tuple) and not isinstance(value, str):
        atoms = _ATOMS
        items = [v if type(v) in atoms else freeze(v) for v in value]
        return tuple(items) if isinstance(value, tuple) else FrozenList(items)
    if isinstance(value, dict):
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    return value


# --------------------------------------------------------------------------- one row

#: What NewEvent stores as event_id: str(uuid.UUID(...)), lower-case hex with hyphens.
_CANONICAL_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

#: Parsed (frozen) payloads by (type, stored payload text): draws and discards repeat, while a
#: game's deal and start are new texts every game. Bounded in two generations so that memory
#: stays the same however many games are read (issue 19): when this one holds
#: :data:`_PAYLOAD_CACHE_SIZE` texts it becomes :data:`_payload_older` and a new one starts;
#: a text asked for again is moved back from the older one (not parsed again), the others
#: are dropped at the next turn. At most twice the size is held (~10 MB).
_PAYLOAD_CACHE_SIZE = 4096
_payload_cache: dict[tuple[str, str, int, Any], Any] = {}
_payload_older: dict[tuple[str, str, int, Any], Any] = {}


def clear_payload_cache() -> None:
    """Forget every parsed payload (both generations): the next read of each text parses it."""
    _payload_cache.clear()
    _payload_older.clear()

_COLUMN_TYPES: tuple[tuple[str, type], ...] = (
    ("position", int),
    ("game_id", str),
    ("seq", int),
    ("event_id", str),
    ("type", str),
    ("schema_version", int),
    ("payload", str),
    ("metadata", str),
    ("recorded_at", str),
    ("prev_hash", str),
    ("hash", str),
)


_json_string = json.encoder.encode_basestring  # what hashing encodes a str with
#: Event type -> (its JSON string, its payloads' current schema version, its core payload
#: class or None) for the types read so far (a payload parsed): the version is the class's.
_type_info: dict[str, tuple[str, int, Any]] = {}


def _type_info_of(type_: str) -> tuple[str, int, Any]:
    """``type_``'s entry of :data:`_type_info`, made afresh when its core class changed."""
    info = _type_info.get(type_)
    model = PAYLOAD_TYPES.get(type_)
    if info is None or info[2] is not model:
        info = _type_info[type_] = (_json_string(type_), payload_version(type_), model)
    return info


#: What :func:`inspect_run` calls per row, looked up once.
_sha256 = hashlib.sha256
_new_object = object.__new__
_STORED_FIELDS = frozenset(StoredEvent.model_fields)
#: The setters of a pydantic model's four slots (what ``object.__setattr__`` finds for
#: them, without the lookup): :func:`eventlog.events.construct` without the call.
_SET_SLOTS = tuple(BaseModel.__dict__[name].__set__ for name in
                   ("__dict__", "__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__"))


_scan_once = json.decoder.JSONDecoder().scan_once  # type: ignore[attr-defined]  # the C scanner, set in __init__


def _loads(text: str) -> Any:
    """``json.loads(text)``, the same value and the same errors, minus its wrapper's
    whitespace scans for the texts the store writes (canonical JSON: no whitespace around):
    a text the scanner reads whole from its first character is what ``json.loads`` would
    return; anything else goes through ``json.loads`` itself."""
    try:
        value, end = _scan_once(text, 0)
        if end == len(text):
            return value
    except (StopIteration, ValueError):
        pass
    return json.loads(text)


def _exact_column_types(row: Row) -> bool:
    """Every column of :data:`_COLUMN_TYPES` holds exactly its type (what the backends
    return); anything else (a subclass, a wrong type) is checked column by column."""
    g = row.get
    return (type(g("position")) is int and type(g("seq")) is int and type(g("schema_version")) is int
            and type(g("game_id")) is str and type(g("event_id")) is str and type(g("type")) is str
            and type(g("payload")) is str and type(g("metadata")) is str and type(g("recorded_at")) is str
            and type(g("prev_hash")) is str and type(g("hash")) is str)


def _hash_of_stored_text(row: Row) -> str:
    """The row's chain hash built straight from its stored JSON texts (the store writes
    payload and metadata as canonical JSON). Only a match is trusted; any other row is
    checked the slow way, through decoded objects."""
    return link_hash(
        row["prev_hash"],
        chain_body_text(
            game_id=row["game_id"],
            seq=row["seq"],
            event_id=row["event_id"],
            type_=row["type"],
            schema_version=row["schema_version"],
            payload_text=row["payload"],
            metadata_text=row["metadata"],
            recorded_at=row["recorded_at"],
        ),
    )


def _parsed_payload(type_: str, text: str, value: dict[str, Any], version: int) -> Any:
    """The (read-only) payload model of a stored payload text, upgraded from the stored
    ``version`` through the registered upcasters (:func:`eventlog.events.upcast`) when it is
    older than today's model; the cache key names the model, so a new one parses afresh."""
    key = (type_, text, version, PAYLOAD_TYPES.get(type_))
    payload = _payload_cache.get(key)
    if payload is None:
        payload = _payload_older.pop(key, None)
        if payload is None:
            if version != payload_version(type_):
                value = upcast(type_, version, value)
            payload = freeze(parse_payload(type_, value, stored=True))
        if len(_payload_cache) >= _PAYLOAD_CACHE_SIZE:  # the next generation (the same dicts: readers hold them)
            _payload_older.clear()
            _payload_older.update(_payload_cache)
            _payload_cache.clear()
        _payload_cache[key] = payload
    return payload


def inspect_row(row: Row) -> StoredEvent:
    """Turn a stored row into a :class:`StoredEvent`, trusting nothing.

    Checks the column types, that ``payload``/``metadata`` are JSON objects, that
    ``hash`` equals :func:`~eventlog.hashing.chain_hash` over the row as stored (not as
    re-encoded by today's models, so a later schema change cannot break old chains), and
    that the event parses. Raises :class:`CorruptEvent` saying what is wrong. Links
    between rows are :class:`GameLinks`' / :class:`LogLinks`'.

    The payload is shared with other readers of the same stored text and immutable; the
    metadata dict is the caller's own. A payload stored at an older ``schema_version`` is
    upgraded to today's model through the registered upcasters (after the hash check over the
    stored text); the event's ``schema_version`` then reads as today's."""
    gid, seq, pos = row.get("game_id"), row.get("seq"), row.get("position")

    def bad(reason: str) -> CorruptEvent:
        return CorruptEvent(gid, seq, pos, reason)

    if not _exact_column_types(row):  # the common case in one expression, else column by column
        for col, typ in _COLUMN_TYPES:
            value = row.get(col)
            if not isinstance(value, typ) or isinstance(value, bool):
                raise bad(f"column {col} holds {type(value).__name__}, not {typ.__name__}")
    game_id: str = row["game_id"]  # the types were checked just above
    seq_no: int = row["seq"]
    decoded: dict[str, dict[str, Any]] = {}
    current = payload_version(row["type"])
    cached = _payload_cache.get((row["type"], row["payload"], row["schema_version"], PAYLOAD_TYPES.get(row["type"])))
    for col in ("payload", "metadata"):
        if col == "payload" and cached is not None:
            continue
        try:
            value = _loads(row[col])
        except (ValueError, RecursionError) as e:
            raise bad(f"{col} is not JSON: {str(e)[:200]}") from None
        if not isinstance(value, dict):
            raise bad(f"{col} is not a JSON object")
        decoded[col] = value
    if _hash_of_stored_text(row) != row["hash"]:
        if "payload" not in decoded:
            decoded["payload"] = _loads(row["payload"])
        computed = chain_hash(
            row["prev_hash"],
            game_id=game_id,
            seq=seq_no,
            event_id=row["event_id"],
            type_=row["type"],
            schema_version=row["schema_version"],
            payload=decoded["payload"],
            metadata=decoded["metadata"],
            recorded_at=row["recorded_at"],
        )
        if computed != row["hash"]:
            raise bad(f"hash mismatch: stored {row['hash'][:16]}…, content hashes to {computed[:16]}…")
    try:
        payload = cached if cached is not None else _parsed_payload(
            row["type"], row["payload"], decoded["payload"], row["schema_version"]
        )
        if not _CANONICAL_UUID.fullmatch(row["event_id"]):
            raise EventError(f"event_id is not a canonical UUID: {row['event_id'][:80]!r}", "event_id")
    except ValidationError as e:
        raise bad(f"does not parse: {validation_line(e)[:300]}") from None
    except (EventError, ValueError) as e:
        raise bad(f"does not parse: {str(e)[:300]}") from None
    # Every field is checked above (types, JSON objects, hash, UUID, payload model), so the
    # envelope is assembled without a second validation pass.
    return construct(StoredEvent, {
        "event_id": row["event_id"], "type": row["type"], "payload": payload, "metadata": decoded["metadata"],
        "schema_version": current, "game_id": gid, "seq": seq, "position": pos,
        "recorded_at": row["recorded_at"], "prev_hash": row["prev_hash"], "hash": row["hash"],
    })


#: Below every position (:func:`inspect_run`'s default ``after``: a run judged without its
#: stream's record; :mod:`eventlog.verify` reads rows in position order).
_NO_FLOOR = -(1 << 63)


def inspect_run(
    rows: Sequence[tuple[Any, ...]], start: int, game_id: str, seq: int, link: str, out: list[StoredEvent],
    after: int = _NO_FLOOR,
) -> int:
    """Judge ``rows[start:]`` — one game's rows read forward as tuples in :data:`COLUMNS` order,
    the first expected to be seq ``seq`` with ``prev_hash`` ``link`` — as far as they are on
    the common path, in one loop; append their events to ``out`` and return the index of the
    first row not taken (``len(rows)`` when all were).

    A row is taken when it is what :class:`GameLinks` and :func:`inspect_values` accept at
    the cost of one SHA-256 and one metadata decode: the game's next seq, linked to the
    previous row, every column of exactly its type, a canonical event id, its hash equal to
    the hash of its stored texts (the bytes of :func:`eventlog.hashing.stored_row_hash`, with
    the parts a game's rows share — game id, ``recorded_at``, type — encoded once), its
    metadata text a JSON object as the store writes it (no whitespace around), and its payload
    text one this process has parsed (the shared cache) or one that parses now (canonical
    JSON, valid for today's model after any upcast; then cached). Its event is the one
    :func:`inspect_values` returns. At any other row it stops: the caller judges that row
    the usual way (links, then :func:`inspect_values`, which names what is wrong) and goes on
    from the next.

    Positions: a row is taken only when its position lies past the previous one's (the
    first past ``after``: the position of the row before the run, or the stream record's
    first position - 1). The other bound, the stream record's last position, the caller
    checks on the run's last event within the record (the positions rise)."""
    if type(game_id) is not str or type(link) is not str or type(seq) is not int:
        return start
    first = seq
    game_json = _json_string(game_id)
    rec_text: object = None
    rec_json = ""
    cache = _payload_cache
    core = PAYLOAD_TYPES
    types = _type_info
    uuid_ok = _CANONICAL_UUID.fullmatch
    scan = _scan_once
    sha256 = _sha256
    new, fields = _new_object, _STORED_FIELDS
    set_dict, set_fields, set_extra, set_private = _SET_SLOTS
    append = out.append
    try:
        for row in rows[start:] if start else rows:
            pos, gid, sq, eid, typ, ver, ptext, mtext, rec, prev, h = row  # ValueError: not 11 columns
            if not (sq == seq and prev == link and gid == game_id
                    and type(pos) is type(sq) is type(ver) is int and pos > after
                    and type(gid) is type(eid) is type(typ) is type(ptext) is type(mtext) is type(rec)
                    is type(prev) is type(h) is str):
                break
            if not uuid_ok(eid):
                break
            if rec != rec_text:
                rec_json, rec_text = _json_string(rec), rec
            model = core.get(typ)
            info = types.get(typ)
            type_json = info[0] if info is not None else _json_string(typ)
            # stored_row_hash's text; a canonical UUID is its own JSON string between quotes
            if sha256(f'{prev}\n{{"event_id":"{eid}","game_id":{game_json},"metadata":{mtext},'
                      f'"payload":{ptext},"recorded_at":{rec_json},"schema_version":{ver},"seq":{sq},'
                      f'"type":{type_json}}}'.encode()).hexdigest() != h:
                break
            meta, end = scan(mtext, 0)
            if end != len(mtext) or type(meta) is not dict:
                break
            payload = cache.get((typ, ptext, ver, model))
            if payload is None:  # a text not parsed yet: parsed (and validated) once, here
                value, end = scan(ptext, 0)
                if end != len(ptext) or type(value) is not dict:
                    break
                try:
                    payload = _parsed_payload(typ, ptext, value, ver)
                except Exception:  # noqa: BLE001 - the usual way meets it again, and names or raises it
                    break
            if info is None or info[2] is not model:  # a type whose payload parsed: its version is known
                info = _type_info_of(typ)
            event = new(StoredEvent)  # eventlog.events.construct, inline
            set_dict(event, {
                "event_id": eid, "type": typ, "payload": payload, "metadata": meta,
                "schema_version": info[1], "game_id": gid, "seq": sq, "position": pos,
                "recorded_at": rec, "prev_hash": prev, "hash": h,
            })
            set_fields(event, set(fields))
            set_extra(event, None)
            set_private(event, None)
            append(event)
            link = h
            after = pos
            seq += 1
    except (StopIteration, ValueError, TypeError, RecursionError):
        pass  # this row is judged the usual way
    return start + seq - first


def inspect_values(values: tuple[Any, ...]) -> StoredEvent:
    """:func:`inspect_row` of a row given as a tuple of its columns in :data:`COLUMNS` order
    (what the backends' tuple reads return, :meth:`EventStore.iter_raw_values`): the same
    event, or the same :class:`CorruptEvent`.

    The common case is :func:`inspect_run`'s (a run of this one row): every column of
    exactly its type, the row's hash equal to the hash of its stored texts (so the row is
    byte for byte what was appended), its payload text parsed by this process once, a
    canonical event id and a metadata object. Anything else — a hash over re-encoded
    objects, texts written with whitespace, any damage — goes through :func:`inspect_row`
    itself, which names what is wrong."""
    if len(values) == 11:
        out: list[StoredEvent] = []
        if inspect_run((values,), 0, values[1], values[2], values[9], out):
            return out[0]
    return inspect_row(dict(zip(COLUMNS, values)))


# --------------------------------------------------------------------------- runs of rows


class GameLinks:
    """Checks a run of one game's rows as a reader receives them: seqs consecutive
    (ascending, or descending for a backward read), each ``prev_hash`` linking to the
    previous event's ``hash``; raises :class:`MissingEvents` at the first hole. And
    positions rising with seq within the stream record's ``first_position`` …
    ``last_position`` (``bounds``); raises :class:`CorruptEvent` at the first row out of
    place (a row moved: the log's positions are dense and given in commit order).

    ``anchor``: for a forward read from seq ``s`` > 0, the hash of seq ``s - 1``; for a
    backward read, the ``prev_hash`` the first row's successor carries (None: unknown).
    ``record``: the stream record's (first position, last position, version) — a row up to
    seq ``version`` lies within the two positions; one past it (appended since the record
    was read) only past the previous row's; None: positions unchecked but for rising."""

    def __init__(self, game_id: str, first_seq: int, backward: bool, anchor: str | None,
                 record: tuple[int, int, int] | None = None) -> None:
        self.game_id = game_id
        self.expected = first_seq
        self.backward = backward
        self.link = anchor if (backward or first_seq > 0) else GENESIS_HASH
        self.last: StoredEvent | None = None
        self.record = record if record is not None else (_NO_FLOOR + 1, -_NO_FLOOR, -_NO_FLOOR)
        #: The position of the last row checked (the next one's must lie past it in the
        #: read's direction); at first just outside the record on the side the read comes from.
        self.position = self.record[1] + 1 if backward else self.record[0] - 1

    def check_position(self, seq: Any, pos: Any) -> None:
        """Raise :class:`CorruptEvent` when ``pos`` (of the row ``seq``, next in the read)
        does not lie past the previous row's position (in the read's direction) or lies
        outside the stream record's positions; a position or seq of another type is left
        to :func:`inspect_row`."""
        if type(pos) is not int or type(seq) is not int:
            return
        low, high, version = self.record
        if pos < low or (pos > high and seq <= version):
            raise CorruptEvent(self.game_id, seq, pos,
                               f"position {pos} lies outside the stream's record (positions {low}..{high})")
        if (pos >= self.position) if self.backward else (pos <= self.position):
            which = f"seq {seq + 1}'s" if self.backward else f"seq {seq - 1}'s"
            raise CorruptEvent(self.game_id, seq, pos, f"position {pos} does not "
                               f"{'fall' if self.backward else 'rise'} with seq ({which} is {self.position})")
        self.position = pos

    def check(self, row: Row) -> None:
        """Call with each row before inspecting it (row values may be of any type)."""
        self.check_values(row.get("seq"), row.get("position"), row.get("prev_hash"), row.get("hash"))

    def check_values(self, seq: Any, pos: Any, prev_hash: Any, hash_: Any) -> None:
        """:meth:`check` of a row given by its ``seq``, ``position``, ``prev_hash`` and
        ``hash`` columns (a tuple read)."""
        if seq != self.expected:
            raise MissingEvents(
                self.game_id, self.expected, pos,
                f"seq {self.expected} is missing (the next stored event is seq {seq!r})",
            )
        if self.backward:
            if self.link is not None and hash_ != self.link:
                raise MissingEvents(self.game_id, seq, pos,
                                    f"seq {seq} is not the event seq {seq + 1} links to (prev_hash)")
            self.link = prev_hash
            self.expected -= 1
        else:
            if self.link is not None and prev_hash != self.link:
                which = "the genesis hash" if seq == 0 else f"the hash of seq {seq - 1}"
                raise MissingEvents(self.game_id, seq, pos, f"seq {seq}: prev_hash does not link to {which}")
            self.link = hash_
            self.expected += 1
        self.check_position(seq, pos)


class LogLinks:
    """Checks a run of the whole log's rows by position: positions consecutive from
    ``first_position`` (descending for a backward read), and within each game seen seqs
    consecutive with ``prev_hash`` links. Raises :class:`MissingEvents` at the first hole."""

    def __init__(self, first_position: int, backward: bool) -> None:
        self.expected = first_position
        self.backward = backward
        self.games: dict[str, tuple[int, str]] = {}  # game -> (seq, link) at the frontier

    def check(self, row: Row) -> None:
        pos, gid, seq = row.get("position"), row.get("game_id"), row.get("seq")
        if pos != self.expected:
            raise MissingEvents(
                gid, seq, self.expected,
                f"position {self.expected} is missing (the next stored event is at position {pos!r})",
                message=f"the log has a hole: position {self.expected} is missing "
                        f"(the next stored event is at position {pos!r})",
            )
        self.expected += -1 if self.backward else 1
        if not isinstance(gid, str) or not isinstance(seq, int):
            return  # inspect_row reports the row itself
        known = self.games.get(gid)
        if self.backward:
            if known is not None and (seq != known[0] - 1 or row.get("hash") != known[1]):
                raise MissingEvents(gid, known[0] - 1, pos, f"seq {known[0] - 1} is missing or unlinked")
            self.games[gid] = (seq, row.get("prev_hash"))  # type: ignore[assignment]
        else:
            if known is None:
                if seq == 0 and row.get("prev_hash") != GENESIS_HASH:
                    raise MissingEvents(gid, 0, pos, "seq 0: prev_hash is not the genesis hash")
            elif seq != known[0] + 1 or row.get("prev_hash") != known[1]:
                raise MissingEvents(gid, known[0] + 1, pos, f"seq {known[0] + 1} is missing or unlinked")
            self.games[gid] = (seq, row.get("hash"))  # type: ignore[assignment]
