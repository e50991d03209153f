"""A ``paipu.v1.VerifyResponse`` kept under a byte limit (proto/paipu/v1/replay_service.proto,
``Verify`` "Reply size" and ``VerifyStream``).

A game's verdict carries lists that grow with the log — its findings, its wins, the what-if's
wins and findings — and a long log full of breaches makes a reply of many MiB, which a gRPC
client refuses (by default it receives at most 4 MiB: grpc-go, grpc-java, grpcurl, Python) with a
transport error instead of the verdict. Two ways out, both keeping every total:

* :func:`fit_reply` — one message: the first items of each list that fit, in order,
  ``truncated`` set (``Verify``);
* :func:`reply_parts` — several messages, each under the limit, whose merge in order
  (``MergeFrom``: repeated fields are appended) is the whole reply (``VerifyStream``).

The lists, in the order they are filled: :data:`LISTS`. An item is never split.
"""

from __future__ import annotations

from collections.abc import Iterator

from google.protobuf.message import Message

from paipu.v1 import replay_service_pb2 as pb

__all__ = ["REPLY_BYTES", "LISTS", "fit_reply", "reply_parts"]

#: The default reply limit in bytes: 4 MiB (a gRPC client's default receive limit) less 64 KiB.
REPLY_BYTES = 4 * 1024 * 1024 - 64 * 1024

#: ``(sub-message, repeated field)`` of a VerifyResponse that grow with the game, in order.
LISTS: tuple[tuple[str, str], ...] = (
    ("audit", "findings"),
    ("audit", "wins"),
    ("what_if", "wins"),
    ("what_if", "findings_only_before"),
    ("what_if", "findings_only_after"),
)

#: Room for the sub-messages' own tags and length prefixes, which grow with what they hold.
_SLACK = 16


def _varint_bytes(n: int) -> int:
    return max(1, (n.bit_length() + 6) // 7)


def _cost(item: Message) -> int:
    """Bytes ``item`` adds to its repeated field: tag (field numbers < 16: one byte), length, body."""
    n = item.ByteSize()
    return 1 + _varint_bytes(n) + n


def _take_lists(msg: pb.VerifyResponse) -> list[tuple[str, str, list[Message]]]:
    """Empty the lists of ``msg``; returns their items (copies, in order) by list."""
    whole = pb.VerifyResponse()
    whole.CopyFrom(msg)
    out: list[tuple[str, str, list[Message]]] = []
    for parent, name in LISTS:
        if not msg.HasField(parent):
            continue
        items = list(getattr(getattr(whole, parent), name))
        if items:
            del getattr(getattr(msg, parent), name)[:]
            out.append((parent, name, items))
    return out


def fit_reply(msg: pb.VerifyResponse, limit: int = REPLY_BYTES) -> pb.VerifyResponse:
    """``msg`` itself when it takes at most ``limit`` bytes; else ``msg`` with each list cut to
    its first items that fit (filled in :data:`LISTS` order) and ``truncated`` set. Totals and
    every other field are kept. Changes ``msg`` in place."""
    if msg.ByteSize() <= limit:
        return msg
    msg.truncated = True
    lists = _take_lists(msg)
    room = limit - msg.ByteSize() - _SLACK
    added: list[tuple[str, str]] = []
    for parent, name, items in lists:
        n = 0
        for item in items:
            cost = _cost(item)
            if cost > room:
                break
            room -= cost
            n += 1
        if n:
            getattr(getattr(msg, parent), name).extend(items[:n])
            added += [(parent, name)] * n
    while msg.ByteSize() > limit and added:  # the estimate is exact but for prefixes: a guard
        parent, name = added.pop()
        getattr(getattr(msg, parent), name).pop()
    return msg


def reply_parts(msg: pb.VerifyResponse, limit: int = REPLY_BYTES) -> Iterator[pb.VerifyResponse]:
    """``msg`` as messages of at most ``limit`` bytes each (an item larger than that alone in
    its message): first the verdict with every list empty, then ``game_id`` and list items in
    :data:`LISTS` order. Merging them in order gives ``msg``. Changes ``msg`` (its lists are
    emptied: it is the first message)."""
    lists = _take_lists(msg)
    yield msg
    base = pb.VerifyResponse(game_id=msg.game_id).ByteSize() + _SLACK
    part, size, count = pb.VerifyResponse(game_id=msg.game_id), base, 0
    for parent, name, items in lists:
        for item in items:
            cost = _cost(item)
            if count and size + cost > limit:
                yield part
                part, size, count = pb.VerifyResponse(game_id=msg.game_id), base, 0
            getattr(getattr(part, parent), name).append(item)
            size += cost
            count += 1
    if count:
        yield part
