"""Conversion between the pydantic events (eventlog/events.py) and the protobuf contract
(proto/paipu/v1/events.proto).

* :func:`to_proto` — ``NewEvent -> events_pb2.Event``, ``StoredEvent -> events_pb2.RecordedEvent``.
* :func:`from_proto` — the reverse; every event coming off the wire is validated exactly
  like a JSON event (:func:`eventlog.events.parse_event`), so a malformed one raises
  :class:`~eventlog.events.EventError` naming the field by its JSON-form path
  (``payload.seat``, ``event_id``, ``metadata``).

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

import json
from typing import Any, overload

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from pydantic import BaseModel, ValidationError

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
)
from paipu.v1 import events_pb2

__all__ = ["to_proto", "from_proto", "payload_to_proto", "payload_from_proto", "NESTED_MODELS"]

#: Nested (non-payload) message types and the pydantic model each one maps to.
NESTED_MODELS: dict[str, type[BaseModel]] = {"paipu.v1.ReportedFan": ReportedFan, "paipu.v1.OpeningWin": OpeningWin}
_SEAT_SCORES = "paipu.v1.SeatScores"
RULESET_CASE = "ruleset_event"  # the oneof case of every ruleset's own event type
_JSON_SUFFIX = "_json"


# ----------------------------------------------------------------------------- JSON text
def _dump_json(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) if obj else ""


#: Deepest nesting of arrays and objects accepted in a JSON text field.
MAX_JSON_DEPTH = 64


def _load_json(text: str, field: str) -> dict[str, Any]:
    if not text:
        return {}
    depth = json_depth(text) if text.count("[") + text.count("{") > MAX_JSON_DEPTH else 0
    if depth > MAX_JSON_DEPTH:
        raise EventError(f"{field}: nested {depth} levels deep; at most {MAX_JSON_DEPTH} are allowed", field)
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise EventError(f"{field}: not JSON ({e.msg} at column {e.colno})", field) from None
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
def _enum_prefix(fd: FieldDescriptor) -> str:
    # TileSource -> TILE_SOURCE_ (buf STANDARD: every value is prefixed by the enum name)
    name = fd.enum_type.name
    return "".join("_" + c if c.isupper() and i else c for i, c in enumerate(name)).upper() + "_"


def _enum_number(fd: FieldDescriptor, value: str, path: str) -> int:
    v = fd.enum_type.values_by_name.get(_enum_prefix(fd) + value.upper())
    if v is None:  # a Literal of the model with no enum value: a contract bug, not bad input
        raise EventError(f"{path}: {value!r} has no {fd.enum_type.full_name} value", path)
    return v.number


def _enum_literal(fd: FieldDescriptor, number: int) -> str | None:
    """The literal of an enum number, None for *_UNSPECIFIED (0) and unknown numbers."""
    if number == 0:
        return None
    v = fd.enum_type.values_by_number.get(number)
    return v.name[len(_enum_prefix(fd)) :].lower() if v is not None else f"<unknown {number}>"


# ----------------------------------------------------------------------------- models
def _fill(msg: Message, data: dict[str, Any], path: str) -> None:
    """Set the fields of ``msg`` from a model's JSON dump ``data`` (already validated)."""
    fields = msg.DESCRIPTOR.fields_by_name
    for key, value in data.items():
        where = f"{path}.{key}"
        if value is None:
            continue  # unset optional / message field
        if isinstance(value, dict):
            setattr(msg, key + _JSON_SUFFIX, _dump_json(value))
            continue
        fd = fields[key]
        try:
            if fd.type == FieldDescriptor.TYPE_ENUM:
                setattr(msg, key, _enum_number(fd, value, where))
            elif fd.type == FieldDescriptor.TYPE_MESSAGE and fd.message_type.full_name == _SEAT_SCORES:
                getattr(msg, key).values.extend(value)
            elif fd.type == FieldDescriptor.TYPE_MESSAGE:  # repeated nested model
                for i, item in enumerate(value):
                    _fill(getattr(msg, key).add(), item, f"{where}[{i}]")
            elif isinstance(value, list):
                getattr(msg, key).extend(value)
            else:
                setattr(msg, key, value)
        except (ValueError, TypeError) as e:  # e.g. an int beyond the proto field's range
            raise EventError(f"{where}: {e}", where) from None


def _read(msg: Message, model: type[BaseModel]) -> dict[str, Any]:
    """The model's input dict from ``msg``; absent fields are left out (model default)."""
    out: dict[str, Any] = {}
    for fd in msg.DESCRIPTOR.fields:
        name = fd.name
        if name.endswith(_JSON_SUFFIX):
            key = name[: -len(_JSON_SUFFIX)]
            out[key] = _load_json(getattr(msg, name), f"payload.{key}")
            continue
        if fd.has_presence and not msg.HasField(name):
            continue
        value = getattr(msg, name)
        if fd.type == FieldDescriptor.TYPE_ENUM:
            lit = _enum_literal(fd, value)
            if lit is not None:
                out[name] = lit
        elif fd.type == FieldDescriptor.TYPE_MESSAGE and fd.message_type.full_name == _SEAT_SCORES:
            out[name] = list(value.values)
        elif fd.type == FieldDescriptor.TYPE_MESSAGE:
            nested = NESTED_MODELS[fd.message_type.full_name]
            out[name] = [_read(item, nested) for item in value]
        elif fd.is_repeated:
            if value or model.model_fields[name].is_required():
                out[name] = list(value)
        else:
            out[name] = value
    return out


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
    case, msg = payload_to_proto(ev.payload)
    out = events_pb2.Event(
        event_id=ev.event_id, metadata_json=_dump_json(ev.metadata), **{case: msg}
    )
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
    value does not fit the contract's field (e.g. an int beyond int64)."""
    if isinstance(ev, StoredEvent):
        return events_pb2.RecordedEvent(
            event=_event_to_proto(ev),
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
    is the JSON-form path of the bad field (``payload.seat``, ``event_id`` …)."""
    if isinstance(msg, events_pb2.RecordedEvent):
        new = from_proto(msg.event)
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
            err = e.errors()[0]
            loc = ".".join(str(p) for p in err["loc"])
            raise EventError(f"{loc}: {err['msg']}", loc) from None
    if not isinstance(msg, events_pb2.Event):
        raise TypeError(f"from_proto takes an Event or RecordedEvent, not {type(msg).__name__}")
    type_, payload = payload_from_proto(msg)
    return parse_event(
        {
            "event_id": msg.event_id,
            "type": type_,
            "payload": payload,
            "metadata": _load_json(msg.metadata_json, "metadata"),
            "schema_version": msg.schema_version or SCHEMA_VERSION,
        }
    )
