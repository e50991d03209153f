"""The per-event size limit (docs/events.md "Event size"): an event whose payload and
metadata, as stored (their canonical JSON texts, UTF-8), exceed :data:`MAX_EVENT_BYTES` is
refused at append, wherever a batch is checked (:meth:`eventlog.store.planning.Batch.encode`
and ``of_encoded``: the CLI, ingest, the Python API, the gRPC services).

Why 1 MiB: every reader must be able to read back what was written. gRPC clients refuse a
message over 4 MiB unless told otherwise (grpc-go, grpc-java, grpcurl, Python's default), and
the services send an event inside a message: a ReadGame/Subscribe batch (at most about
:data:`MAX_EVENT_BYTES` beyond its 1 MiB target), a GetState/StepThrough table (the event and
the table). An event's wire form is never larger than its stored texts plus its envelope
(ids, hashes, game id: under 2 KiB), so with this limit every response stays under 4 MiB.
Table events are a few hundred bytes; the largest real ones (a game_started with a long
source note, a hand_started with its wall) are a few KiB."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from eventlog.errors import InvalidArgument

__all__ = ["MAX_EVENT_BYTES", "EventTooLarge", "check_event_sizes", "check_event_size_columns"]

#: Largest payload + metadata of one event, in bytes of their stored (canonical JSON, UTF-8) texts.
MAX_EVENT_BYTES = 1024 * 1024
_SURELY_FITS = MAX_EVENT_BYTES // 4  # characters: UTF-8 takes at most 4 bytes a character


class EventTooLarge(InvalidArgument):
    """An event over :data:`MAX_EVENT_BYTES` (gRPC INVALID_ARGUMENT naming ``events[i]``,
    ErrorInfo reason EVENT_TOO_LARGE {field, size, limit})."""

    fields = ("field", "size", "limit")

    def __init__(self, message: str, field: str, size: int, limit: int) -> None:
        super().__init__(message, field)
        self.size, self.limit = size, limit


def check_event_sizes(texts: Iterable[tuple[str, str]], where: str = "events") -> None:
    """Raise :class:`EventTooLarge` naming ``{where}[i]`` for the first of ``texts`` (each
    event's ``(payload, metadata)`` canonical JSON texts, in order) whose texts exceed
    :data:`MAX_EVENT_BYTES` in UTF-8. One ``len`` an event for the usual ones."""
    for i, (payload, metadata) in enumerate(texts):
        if len(payload) + len(metadata) <= _SURELY_FITS:
            continue
        size = len(payload.encode("utf-8", "surrogatepass")) + len(metadata.encode("utf-8", "surrogatepass"))
        if size > MAX_EVENT_BYTES:
            raise EventTooLarge(
                f"{where}[{i}]: the event is {size:,} bytes (its payload and metadata as stored, JSON); at most "
                f"{MAX_EVENT_BYTES:,} (1 MiB) per event, so that any gRPC client, whose default limit is 4 MiB a "
                f"message, can read it back (docs/events.md \"Event size\")", f"{where}[{i}]", size, MAX_EVENT_BYTES)


def check_event_size_columns(payloads: Sequence[str], metadata: Sequence[str], where: str = "events") -> None:
    """:func:`check_event_sizes` of a batch given as its two columns of texts (one per event,
    in order): the longest payload and the longest metadata together surely fit (two passes
    in C, no Python step an event: a bulk import's sealed game), else each event checked."""
    if payloads and max(map(len, payloads)) + max(map(len, metadata), default=0) <= _SURELY_FITS:
        return
    check_event_sizes(zip(payloads, metadata), where)
