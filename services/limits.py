"""Bounds on what a request may carry, checked before any service sees it.

Protobuf ``uint64`` fields hold up to 2^64-1, but every seq, position and count paipu keeps
is a signed 64-bit integer (SQLite's, Arrow's): a value above :data:`MAX_INT64` is refused
as INVALID_ARGUMENT naming the field (``from_seq``, ``events[3].tile_discarded.discard_seq``)
instead of failing deep in the store. Echoed strings are bounded where statuses are made
(services/status.py); JSON text fields are bounded in depth where they are parsed
(eventlog/convert.py)."""

from __future__ import annotations

import functools
from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from services.status import BadArgument

__all__ = ["MAX_INT64", "check_request"]

#: Largest integer paipu stores (2^63 - 1).
MAX_INT64 = 2**63 - 1

_UNSIGNED_64 = (FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED64)


def check_request(msg: Message) -> None:
    """Raise :class:`~services.status.BadArgument` naming the first field of ``msg`` (or of a
    message inside it) whose unsigned 64-bit value exceeds :data:`MAX_INT64`.

    The walk is planned once per message type (:func:`_plan`): only the fields that are, or
    lead to, an unsigned 64-bit field are read — an AppendRequest of draws and discards costs
    one ``WhichOneof`` per event, not a walk over every field (the append path, issue 19).
    The order is that of a depth-first walk taking each message's own fields by number and
    then the messages inside it from the last to the first."""
    _check(msg, ())


#: ``(where, ...)``: the path to a message, kept as parts and written out only for an error.
_Where = tuple[Any, ...]


def _check(msg: Message, where: _Where) -> None:
    scalars, nested, oneofs = _plan(msg.DESCRIPTOR)
    for name, repeated in scalars:
        value = getattr(msg, name)
        if repeated:
            for i, v in enumerate(value):
                if v > MAX_INT64:
                    _refuse(where, name, i, v)
        elif value > MAX_INT64:
            _refuse(where, name, None, value)
    inside: list[tuple[str, Any, bool]] = []  # (field, its value, repeated) in field order
    for name, repeated in nested:
        if repeated:
            value = getattr(msg, name)
            if len(value):
                inside.append((name, value, True))
        elif msg.HasField(name):
            inside.append((name, getattr(msg, name), False))
    for oneof, members in oneofs:  # at most one member is set: no order to keep among them
        case = msg.WhichOneof(oneof)
        if case in members:
            inside.append((case, getattr(msg, case), False))
            if len(inside) > 1:
                inside.sort(key=lambda item: msg.DESCRIPTOR.fields_by_name[item[0]].number)
    for name, value, repeated in reversed(inside):  # the last message first, as a stack walk
        if not repeated:
            _check(value, (where, name, None))
            continue
        scalars_in, nested_in, oneofs_in = _plan(value[0].DESCRIPTOR)
        if not scalars_in and not nested_in and len(oneofs_in) == 1:
            # e.g. AppendRequest.events: only the set payload can hold a bound, so look at
            # its case here instead of walking each event
            oneof, members = oneofs_in[0]
            for i in range(len(value) - 1, -1, -1):
                if value[i].WhichOneof(oneof) in members:
                    _check(value[i], (where, name, i))
        else:
            for i in range(len(value) - 1, -1, -1):
                _check(value[i], (where, name, i))


def _refuse(where: _Where, name: str, index: int | None, value: int) -> None:
    path = _path((where, name, index))
    raise BadArgument(f"{path} must be at most 2^63-1, got {value}", path)


def _path(where: _Where) -> str:
    parts = []
    while where:
        where, name, index = where
        parts.append(name if index is None else f"{name}[{index}]")
    return ".".join(reversed(parts))


@functools.cache
def _plan(descriptor: Descriptor) -> tuple[tuple[tuple[str, bool], ...], tuple[tuple[str, bool], ...],
                                           tuple[tuple[str, frozenset[str]], ...]]:
    """For messages of ``descriptor``, in field-number order: the unsigned 64-bit fields
    ``(name, repeated)``, the message fields outside a oneof that lead to one
    ``(name, repeated)``, and each oneof with its members that lead to one (a map's entries
    are not walked)."""
    fields = sorted(descriptor.fields, key=lambda fd: fd.number)
    scalars = tuple((fd.name, _is_repeated(fd)) for fd in fields if fd.type in _UNSIGNED_64)
    leading = [fd for fd in fields if fd.type == FieldDescriptor.TYPE_MESSAGE
               and not fd.message_type.GetOptions().map_entry and _reaches_unsigned(fd.message_type)]
    nested = tuple((fd.name, _is_repeated(fd)) for fd in leading if fd.containing_oneof is None)
    oneofs: dict[str, set[str]] = {}
    for fd in leading:
        if fd.containing_oneof is not None:
            oneofs.setdefault(fd.containing_oneof.name, set()).add(fd.name)
    return scalars, nested, tuple((o, frozenset(m)) for o, m in oneofs.items())


@functools.cache
def _reaches_unsigned(descriptor: Descriptor, _seen: frozenset[str] = frozenset()) -> bool:
    if descriptor.full_name in _seen:  # a recursive message type: its other fields decide
        return False
    seen = _seen | {descriptor.full_name}
    return any(
        fd.type in _UNSIGNED_64
        or (fd.type == FieldDescriptor.TYPE_MESSAGE and not fd.message_type.GetOptions().map_entry
            and _reaches_unsigned(fd.message_type, seen))
        for fd in descriptor.fields
    )


def _is_repeated(fd: Any) -> bool:
    return bool(fd.is_repeated)
