"""Conversion between the pydantic events (eventlog/events.py) and the protobuf contract
(proto/paipu/v1/events.proto).

* :func:`to_proto` — ``NewEvent -> events_pb2.Event``, ``StoredEvent -> events_pb2.RecordedEvent``.
* :func:`from_proto` — the reverse; every event coming off the wire is validated exactly
  like a JSON event (:func:`eventlog.events.parse_event`), so a malformed one raises
  :class:`~eventlog.events.EventError` naming the field by its JSON-form path
  (``payload.seat``, ``event_id``, ``metadata``).
* :func:`encoded_from_proto` — ``events_pb2.Event ->`` the store's encoded event (canonical
  JSON texts), the server's append path: the same checks and the same bytes as
  ``from_proto`` then :meth:`~eventlog.store.planning.Batch.encode`, at a fraction of the
  cost (issue 19); :func:`encoded_events_from_proto` — the same for every event of a
  request, in one pass.

The mapping is by field name and checked by tests (tests/eventlog/test_proto.py): the
``payload`` oneof case is the event type, each payload field is the proto field of the
same name, except that

* JSON objects (``metadata``, ``ruleset_options``) are the ``*_json`` string fields,
  compact JSON keeping key order; ``""`` is ``{}``. (Not google.protobuf.Struct: it would
  turn every number into a double and change the hash-chain encoding.)
* a ``Literal`` field is an enum whose value names are the enum's prefix plus the upper-cased
  literal (``kong_replacement`` <-> ``TILE_SOURCE_KONG_REPLACEMENT``); ``*_UNSPECIFIED``
  means "absent", i.e. the model's default (``None``, ``"wall"``) or, where the field is
  required (``Kong.kind``), an error.
* ``None`` is an unset ``optional`` field or an unset message (``SeatScores``).
* an empty repeated field stands for the model's default when the field has one
  (``GameStarted.initial_scores``: ``[0, 0, 0, 0]``), else for ``[]``.
* ``schema_version`` 0 is read as the current version.

Round trip JSON -> pydantic -> proto -> pydantic -> JSON is the identity (hypothesis test
in tests/eventlog/test_proto.py).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable
from typing import Any, overload

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from pydantic import BaseModel, ValidationError

from eventlog.errors import json_error, validation_problem
from eventlog.events import (
    PAYLOAD_TYPES,
    SCHEMA_VERSION,
    EventError,
    NewEvent,
    Payload,
    OpeningWin,
    ReportedFan,
    StoredEvent,
    parse_event,
    payload_model,
    validate_payload,
)
from eventlog.hashing import canonical_text
from eventlog.store.planning import EncodedEvent, encode_payload
from paipu.v1 import events_pb2

__all__ = ["to_proto", "from_proto", "encoded_from_proto", "encoded_events_from_proto", "payload_to_proto", "payload_from_proto", "NESTED_MODELS"]

#: Nested (non-payload) message types and the pydantic model each one maps to.
NESTED_MODELS: dict[str, type[BaseModel]] = {"paipu.v1.ReportedFan": ReportedFan, "paipu.v1.OpeningWin": OpeningWin}
_SEAT_SCORES = "paipu.v1.SeatScores"
RULESET_CASE = "ruleset_event"  # the oneof case of every ruleset's own event type
_JSON_SUFFIX = "_json"


# ----------------------------------------------------------------------------- JSON text
_compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode  # = json.dumps(..., these)


def _dump_json(obj: dict[str, Any]) -> str:
    return _compact(obj) if obj else ""


_scan = json.decoder.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _loads(text: str) -> Any:
    """``json.loads(text)``: the scanner ``json.loads`` ends in, called directly for a text
    that is one JSON value and nothing else (a third of the cost for a small object); any
    other text (leading or trailing space, an error to report) goes through ``json.loads``."""
    try:
        obj, end = _scan(text, 0)
    except (StopIteration, json.JSONDecodeError):
        return json.loads(text)
    return obj if end == len(text) else json.loads(text)


#: Deepest nesting of arrays and objects accepted in a JSON text field.
MAX_JSON_DEPTH = 64


def _load_json(text: str, field: str) -> dict[str, Any]:
    if not text:
        return {}
    depth = json_depth(text) if text.count("[") + text.count("{") > MAX_JSON_DEPTH else 0
    if depth > MAX_JSON_DEPTH:
        raise EventError(f"{field}: nested {depth} levels deep; at most {MAX_JSON_DEPTH} are allowed", field)
    try:
        obj = _loads(text)
    except json.JSONDecodeError as e:
        raise EventError(f"{field}: {json_error(e)}", field) from None
    if not isinstance(obj, dict):
        raise EventError(f"{field}: must be a JSON object", field)
    return obj


def json_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in the JSON text ``text`` (brackets inside strings
    not counted), found without parsing: a hostile text cannot exhaust the parser's stack."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


# ----------------------------------------------------------------------------- enums
@functools.cache
def _enum_prefix(fd: FieldDescriptor) -> str:
    # TileSource -> TILE_SOURCE_ (buf STANDARD: every value is prefixed by the enum name)
    name = fd.enum_type.name
    return "".join("_" + c if c.isupper() and i else c for i, c in enumerate(name)).upper() + "_"


def _enum_number(fd: FieldDescriptor, value: str, path: str) -> int:
    v = fd.enum_type.values_by_name.get(_enum_prefix(fd) + value.upper())
    if v is None:  # a Literal of the model with no enum value: a contract bug, not bad input
        raise EventError(f"{path}: {value!r} has no {fd.enum_type.full_name} value", path)
    return v.number


# ----------------------------------------------------------------------------- models
def _fill(msg: Message, data: dict[str, Any], path: str) -> None:
    """Set the fields of ``msg`` from a model's JSON dump ``data`` (already validated)."""
    _writer(msg.DESCRIPTOR)(msg, data, path)


_Set = Callable[[Message, Any, str], None]


@functools.cache
def _writer(descriptor: Descriptor) -> Callable[[Message, dict[str, Any], str], None]:
    """What :func:`_fill` does for messages of ``descriptor``, decided once per message type
    (one setter per key of the model's JSON dump). A value that does not fit its field
    (an int beyond its range) raises EventError naming ``<path>.<key>``."""
    setters: dict[str, _Set] = {}
    for fd in descriptor.fields:
        if fd.name.endswith(_JSON_SUFFIX):
            setters[fd.name[: -len(_JSON_SUFFIX)]] = _json_setter(fd.name)
        else:
            setters[fd.name] = _field_setter(fd)

    def write(msg: Message, data: dict[str, Any], path: str) -> None:
        for key, value in data.items():
            if value is None:
                continue  # unset optional / message field
            try:
                setters[key](msg, value, path)
            except (ValueError, TypeError) as e:  # e.g. an int beyond the proto field's range
                where = f"{path}.{key}"
                raise EventError(f"{where}: {e}", where) from None

    return write


def _json_setter(name: str) -> _Set:
    def json_text(msg: Message, value: Any, path: str) -> None:
        setattr(msg, name, _dump_json(value))

    return json_text


def _field_setter(fd: FieldDescriptor) -> _Set:
    name = fd.name
    if fd.type == FieldDescriptor.TYPE_ENUM:
        prefix = _enum_prefix(fd)
        numbers = {v.name[len(prefix):].lower(): v.number for v in fd.enum_type.values}

        def enum(msg: Message, value: Any, path: str) -> None:
            number = numbers.get(value) if isinstance(value, str) and value == value.lower() else None
            if number is None:
                setattr(msg, name, _enum_number(fd, value, f"{path}.{name}"))
            else:
                setattr(msg, name, number)

        return enum
    if fd.type == FieldDescriptor.TYPE_MESSAGE and fd.message_type.full_name == _SEAT_SCORES:

        def seat_scores(msg: Message, value: Any, path: str) -> None:
            getattr(msg, name).values.extend(value)

        return seat_scores
    if fd.type == FieldDescriptor.TYPE_MESSAGE:  # repeated nested model
        item_writer = _writer(fd.message_type)

        def messages(msg: Message, value: Any, path: str) -> None:
            field = getattr(msg, name)
            for i, item in enumerate(value):
                item_writer(field.add(), item, f"{path}.{name}[{i}]")

        return messages

    def plain(msg: Message, value: Any, path: str) -> None:
        if isinstance(value, list):
            getattr(msg, name).extend(value)
        else:
            setattr(msg, name, value)

    return plain


def _read(msg: Message, model: type[BaseModel]) -> dict[str, Any]:
    """The model's input dict from ``msg``; absent fields are left out (model default)."""
    return _reader(msg.DESCRIPTOR, model)(msg)


_Op = Callable[[Message, dict[str, Any]], None]


@functools.cache
def _reader(descriptor: Descriptor, model: type[BaseModel]) -> Callable[[Message], dict[str, Any]]:
    """What :func:`_read` does for messages of ``descriptor``, decided once per message type:
    one small step per field (the descriptor walk and the enum names cost more than the
    reading itself, ~20 µs an event, on the append path)."""
    ops = tuple(_field_op(fd, model) for fd in descriptor.fields)

    def read(msg: Message) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for op in ops:
            op(msg, out)
        return out

    return read


def _field_op(fd: FieldDescriptor, model: type[BaseModel]) -> _Op:
    name = fd.name
    if name.endswith(_JSON_SUFFIX):
        key = name[: -len(_JSON_SUFFIX)]
        where = f"payload.{key}"

        def json_object(msg: Message, out: dict[str, Any]) -> None:
            out[key] = _load_json(getattr(msg, name), where)

        return json_object
    if fd.type == FieldDescriptor.TYPE_ENUM:
        prefix = len(_enum_prefix(fd))
        literals = {v.number: v.name[prefix:].lower() for v in fd.enum_type.values if v.number != 0}

        def enum(msg: Message, out: dict[str, Any]) -> None:
            number = getattr(msg, name)
            if number:  # 0 is *_UNSPECIFIED: the model's default
                out[name] = literals.get(number, f"<unknown {number}>")

        return _present(fd, enum)
    if fd.type == FieldDescriptor.TYPE_MESSAGE and fd.message_type.full_name == _SEAT_SCORES:

        def seat_scores(msg: Message, out: dict[str, Any]) -> None:
            out[name] = list(getattr(msg, name).values)

        return _present(fd, seat_scores)
    if fd.type == FieldDescriptor.TYPE_MESSAGE:
        nested = NESTED_MODELS[fd.message_type.full_name]
        read_item = _reader(fd.message_type, nested)

        def messages(msg: Message, out: dict[str, Any]) -> None:
            out[name] = [read_item(item) for item in getattr(msg, name)]

        return _present(fd, messages)
    if fd.is_repeated:
        required = model.model_fields[name].is_required()

        def repeated(msg: Message, out: dict[str, Any]) -> None:
            value = getattr(msg, name)
            if value or required:  # empty: the model's default, when it has one
                out[name] = list(value)

        return repeated

    def scalar(msg: Message, out: dict[str, Any]) -> None:
        out[name] = getattr(msg, name)

    return _present(fd, scalar)


def _present(fd: FieldDescriptor, op: _Op) -> _Op:
    """``op`` only when the field is set, for a field with presence (``optional``, a message)."""
    if not fd.has_presence:
        return op
    name = fd.name

    def when_set(msg: Message, out: dict[str, Any]) -> None:
        if msg.HasField(name):
            op(msg, out)

    return when_set


# ----------------------------------------------------------------------------- payloads
def payload_to_proto(payload: Payload) -> tuple[str, Message]:
    """``(oneof case, message)`` for a payload; the case is the event type.

    Raises EventError when a value does not fit its proto field (e.g. int64 overflow)."""
    if payload.TYPE not in PAYLOAD_TYPES:  # a ruleset's own event type
        proto = type(payload).PROTO
        if proto is None:
            raise EventError(f"{payload.TYPE}: the ruleset declares no protobuf message for it", "type")
        own = proto()
        _fill(own, payload.model_dump(mode="json"), "payload")
        wrapper = events_pb2.RulesetEvent(type=payload.TYPE)
        wrapper.payload.Pack(own)
        return RULESET_CASE, wrapper
    msg = getattr(events_pb2, type(payload).__name__)()
    _fill(msg, payload.model_dump(mode="json"), "payload")
    return payload.TYPE, msg


def _payload_into(event: events_pb2.Event, payload: Payload) -> None:
    """Set ``event``'s payload (:func:`payload_to_proto` written in place: no copy)."""
    if payload.TYPE not in PAYLOAD_TYPES:
        event.ruleset_event.CopyFrom(payload_to_proto(payload)[1])
        return
    msg = getattr(event, payload.TYPE)
    msg.SetInParent()  # a payload without fields is set too
    _fill(msg, type(payload).__pydantic_serializer__.to_python(payload, mode="json"), "payload")


def payload_from_proto(ev: events_pb2.Event) -> tuple[str, dict[str, Any]]:
    """``(type, payload dict)`` of an Event, not yet validated.

    Raises EventError (field ``payload``) when no payload is set."""
    case = ev.WhichOneof("payload")
    if case is None:
        raise EventError("the event has no payload (set one of the payload oneof)", "payload")
    if case == RULESET_CASE:
        t = ev.ruleset_event.type
        model = payload_model(t)
        if model is None or model.PROTO is None:
            raise EventError(f"unknown event type {t!r}: no ruleset declares it with a protobuf message", "type")
        own = model.PROTO()
        if not ev.ruleset_event.payload.Unpack(own):
            raise EventError(f"{t}: the payload is {ev.ruleset_event.payload.type_url!r}, expected "
                             f"{own.DESCRIPTOR.full_name}", "payload")
        return t, _read(own, model)
    return case, _read(getattr(ev, case), PAYLOAD_TYPES[case])


# ----------------------------------------------------------------------------- envelopes
def _event_to_proto(ev: NewEvent | StoredEvent) -> events_pb2.Event:
    out = events_pb2.Event(event_id=ev.event_id, metadata_json=_dump_json(ev.metadata))
    _payload_into(out, ev.payload)
    try:
        out.schema_version = ev.schema_version
    except ValueError as e:
        raise EventError(f"schema_version: {e}", "schema_version") from None
    return out


def _event_without_payload(ev: StoredEvent) -> events_pb2.Event:
    """The envelope of a stored event whose payload its typed message cannot carry (a number
    beyond sint64 or uint64, stored before the ranges of docs/events.md "Number ranges" were
    checked): ``RecordedEvent.stored_payload_json`` carries the payload."""
    out = events_pb2.Event(event_id=ev.event_id, metadata_json=_dump_json(ev.metadata))
    try:
        out.schema_version = ev.schema_version
    except ValueError as e:
        raise EventError(f"schema_version: {e}", "schema_version") from None
    return out


@overload
def to_proto(ev: StoredEvent) -> events_pb2.RecordedEvent: ...
@overload
def to_proto(ev: NewEvent) -> events_pb2.Event: ...
def to_proto(ev: NewEvent | StoredEvent) -> events_pb2.Event | events_pb2.RecordedEvent:
    """``NewEvent -> Event``; ``StoredEvent -> RecordedEvent``. Raises EventError when a
    value of a new event does not fit the contract's field (e.g. an int beyond int64); a
    stored event's payload that does not fit travels as JSON text
    (``RecordedEvent.stored_payload_json``)."""
    if isinstance(ev, StoredEvent):
        try:
            event = _event_to_proto(ev)
            stored_type = stored_json = ""
        except EventError:  # stored before its number range was checked: carried as stored
            event = _event_without_payload(ev)
            stored_type, stored_json = ev.type, _dump_json(ev.payload_json())
        return events_pb2.RecordedEvent(
            event=event,
            stored_type=stored_type,
            stored_payload_json=stored_json,
            game_id=ev.game_id,
            seq=ev.seq,
            position=ev.position,
            recorded_at=ev.recorded_at,
            prev_hash=ev.prev_hash,
            hash=ev.hash,
        )
    if isinstance(ev, NewEvent):
        return _event_to_proto(ev)
    raise TypeError(f"to_proto takes a NewEvent or StoredEvent, not {type(ev).__name__}")


@overload
def from_proto(msg: events_pb2.RecordedEvent) -> StoredEvent: ...
@overload
def from_proto(msg: events_pb2.Event) -> NewEvent: ...
def from_proto(msg: events_pb2.Event | events_pb2.RecordedEvent) -> NewEvent | StoredEvent:
    """``Event -> NewEvent``; ``RecordedEvent -> StoredEvent``.

    Validates like :func:`~eventlog.events.parse_event`: raises EventError whose ``field``
    is the JSON-form path of the bad field (``payload.seat``, ``event_id`` …). A
    RecordedEvent is an event the log holds: its payload is parsed as stored
    (:func:`~eventlog.events.parse_payload` ``stored=True``), from ``stored_payload_json``
    when the server sent it so."""
    if isinstance(msg, events_pb2.RecordedEvent):
        new = _new_event(msg.event, stored=True, stored_type=msg.stored_type,
                         stored_payload=msg.stored_payload_json)
        try:
            return StoredEvent(
                event_id=new.event_id,
                type=new.type,
                payload=new.payload,
                metadata=new.metadata,
                schema_version=new.schema_version,
                game_id=msg.game_id,
                seq=msg.seq,
                position=msg.position,
                recorded_at=msg.recorded_at,
                prev_hash=msg.prev_hash,
                hash=msg.hash,
            )
        except ValidationError as e:  # pragma: no cover - every proto value fits the model
            loc, why = validation_problem(e)
            raise EventError(f"{loc}: {why}" if loc else why, loc) from None
    if not isinstance(msg, events_pb2.Event):
        raise TypeError(f"from_proto takes an Event or RecordedEvent, not {type(msg).__name__}")
    return _new_event(msg)


def _new_event(msg: events_pb2.Event, *, stored: bool = False, stored_type: str = "",
               stored_payload: str = "") -> NewEvent:
    if stored_type:
        type_, payload = stored_type, _load_json(stored_payload, "payload")
    else:
        type_, payload = payload_from_proto(msg)
    return parse_event(
        {
            "event_id": msg.event_id,
            "type": type_,
            "payload": payload,
            "metadata": _load_json(msg.metadata_json, "metadata"),
            "schema_version": msg.schema_version or SCHEMA_VERSION,
        },
        stored=stored,
    )


# ----------------------------------------------------------------------------- the append path
#: What the validator of the envelope returns unchanged (``str(uuid.UUID(v))``): an event id
#: written so needs no second look.
_CANONICAL_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def encoded_from_proto(msg: events_pb2.Event) -> EncodedEvent:
    """The event as the store writes it (:class:`~eventlog.store.planning.EncodedEvent`:
    canonical JSON texts of payload and metadata) straight from the wire, without building
    the :class:`NewEvent` — the append path of the gRPC service (issue 19).

    The payload is read into its model's input dict (:func:`_read`), validated once by its
    model (:func:`~eventlog.events.validate_payload`: the one definition of what is valid)
    and encoded by :func:`~eventlog.store.planning.encode_payload`, the encoding
    :meth:`Batch.encode` uses — so the texts, and every hash over them, are byte for byte
    those of ``EncodedEvent.of(from_proto(msg))`` (tests/eventlog/test_proto_append_path.py
    checks every bundled game's events). The text of a payload is a function of its
    message's bytes, so it is kept (:class:`_PayloadTexts`): the draws and discards that make
    most of a log are validated once per distinct message, not once per event. An event id
    not in canonical UUID form, a ``schema_version`` other than the payload's (an upcast), a
    ruleset's own message and a missing payload take the ``from_proto`` path itself.

    The metadata is encoded as :func:`~eventlog.store.planning.encode_metadata` encodes
    ``from_proto``'s: what ``json`` parses is already its own ``to_jsonable_python`` form, so
    its canonical text (:func:`~eventlog.hashing.canonical_text`) is the same.

    Raises :class:`~eventlog.events.EventError` exactly as :func:`from_proto` does (the same
    checks in the same order: payload fields, metadata, then the payload's model)."""
    case = msg.WhichOneof("payload")
    direct = _DIRECT.get(case)
    if direct is None:  # no payload (the error), or a ruleset's own message (unpacked there)
        return EncodedEvent.of(from_proto(msg))
    model, read = direct
    sub = getattr(msg, case)
    key = (case, sub.SerializeToString())
    known = _PAYLOAD_TEXTS.get(key)
    data = read(sub) if known is None else None  # (a known payload was read without error)
    metadata = _load_json(msg.metadata_json, "metadata")
    version = msg.schema_version or SCHEMA_VERSION
    event_id = msg.event_id
    if version != model.SCHEMA_VERSION or not _CANONICAL_UUID.fullmatch(event_id):
        return EncodedEvent.of(from_proto(msg))
    if known is None:
        assert data is not None
        known = encode_payload(case, validate_payload(model, case, data))
        _PAYLOAD_TEXTS.put(key, known)
    return EncodedEvent(event_id, case, version, known[0], canonical_text(metadata), known[1])


def encoded_events_from_proto(msgs: Iterable[events_pb2.Event], where: str = "") -> list[EncodedEvent]:
    """:func:`encoded_from_proto` of each event of a request (``AppendRequest.events``), in
    order, in one pass — the same texts and the same errors, at less cost per event: an
    event whose payload message was validated before (a kept text, :class:`_PayloadTexts`)
    with a canonical event id and the payload's schema version only has its metadata read
    and encoded here (the checks :func:`encoded_from_proto` makes of such an event, in its
    order); every other event goes through :func:`encoded_from_proto` itself.

    Raises :class:`~eventlog.events.EventError` for the first event that is not valid,
    naming it and its field by their path in the request (``{where}events[3].payload.seat``;
    ``where`` is e.g. ``"requests[2]."``)."""
    out: list[EncodedEvent] = []
    append = out.append
    kept = _PAYLOAD_TEXTS.texts.get
    direct_of = _DIRECT.get
    canonical_id = _CANONICAL_UUID.fullmatch
    new = tuple.__new__  # EncodedEvent(...) without its Python-level __new__ (one per event)
    for i, msg in enumerate(msgs):
        try:
            case = msg.WhichOneof("payload")
            direct = direct_of(case)
            known = None if direct is None else kept((case, getattr(msg, case).SerializeToString()))
            if known is not None and direct is not None:
                text = msg.metadata_json
                metadata = canonical_text(_load_json(text, "metadata")) if text else "{}"
                version = msg.schema_version or SCHEMA_VERSION
                event_id = msg.event_id
                if version == direct[0].SCHEMA_VERSION and canonical_id(event_id):
                    append(new(EncodedEvent, (event_id, case, version, known[0], metadata, known[1])))
                    continue
            append(encoded_from_proto(msg))
        except EventError as e:
            path = f"{where}events[{i}]" + (f".{e.field}" if e.field else "")
            raise EventError(f"{where}events[{i}]: {e}", path) from None
    return out


class _PayloadTexts:
    """``(case, message bytes) -> (canonical text, ruleset)`` of payloads already validated,
    at most :data:`PAYLOAD_TEXTS` of them (emptied when full: a log's repeated payloads come
    back within a game). The bytes decide the text: the reader takes nothing else from the
    message, and the models are fixed while the process runs. Shared by the server's
    threads (a dict's get and set are atomic)."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        #: The kept texts, emptied in place (so a reader may hold on to ``texts.get``).
        self.texts: dict[tuple[str, bytes], tuple[str, str | None]] = {}

    def get(self, key: tuple[str, bytes]) -> tuple[str, str | None] | None:
        return self.texts.get(key)

    def put(self, key: tuple[str, bytes], value: tuple[str, str | None]) -> None:
        if len(self.texts) >= self._limit:
            self.texts.clear()
        self.texts[key] = value


#: Most payload texts kept by :func:`encoded_from_proto` (a few MB).
PAYLOAD_TEXTS = 16384
_PAYLOAD_TEXTS = _PayloadTexts(PAYLOAD_TEXTS)

#: Each core payload case: its model and the reader of its message (:func:`_reader`).
_DIRECT: dict[str, tuple[type[Payload], Callable[[Message], dict[str, Any]]]] = {
    case: (model, _reader(events_pb2.Event.DESCRIPTOR.fields_by_name[case].message_type, model))
    for case, model in PAYLOAD_TYPES.items()
}
