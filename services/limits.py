"""Bounds on what a request may carry, checked before any service sees it.

Protobuf ``uint64`` fields hold up to 2^64-1, but every seq, position and count paipu keeps
is a signed 64-bit integer (SQLite's, Arrow's): a value above :data:`MAX_INT64` is refused
as INVALID_ARGUMENT naming the field (``from_seq``, ``events[3].tile_discarded.discard_seq``)
instead of failing deep in the store. Echoed strings are bounded where statuses are made
(services/status.py); JSON text fields are bounded in depth where they are parsed
(eventlog/convert.py)."""

from __future__ import annotations

from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from services.status import BadArgument

__all__ = ["MAX_INT64", "check_request"]

#: Largest integer paipu stores (2^63 - 1).
MAX_INT64 = 2**63 - 1

_UNSIGNED_64 = (FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED64)


def check_request(msg: Message) -> None:
    """Raise :class:`~services.status.BadArgument` naming the first field of ``msg`` (or of a
    message inside it) whose unsigned 64-bit value exceeds :data:`MAX_INT64`."""
    stack: list[tuple[str, Message]] = [("", msg)]
    while stack:
        prefix, m = stack.pop()
        for fd, value in m.ListFields():
            path = prefix + fd.name
            if fd.type == FieldDescriptor.TYPE_MESSAGE:
                if _is_repeated(fd):
                    if fd.message_type.GetOptions().map_entry:
                        continue
                    stack.extend((f"{path}[{i}].", sub) for i, sub in enumerate(value))
                else:
                    stack.append((path + ".", value))
            elif fd.type in _UNSIGNED_64:
                values = value if _is_repeated(fd) else (value,)
                for i, v in enumerate(values):
                    if v > MAX_INT64:
                        where = f"{path}[{i}]" if _is_repeated(fd) else path
                        raise BadArgument(f"{where} must be at most 2^63-1, got {v}", where)


def _is_repeated(fd: Any) -> bool:
    return bool(fd.is_repeated)
