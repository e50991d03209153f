"""The gRPC ingest service ``paipu.v1.IngestService`` (proto/paipu/v1/ingest_service.proto).

:class:`IngestServicer` — ``IngestLog``: a client-streamed upload of one game-log file
(a header with the file name and optional format, then the bytes in chunks). The chunks
are written to a temporary spool file as they arrive (the file is never held in memory),
then parsed and stored by :func:`eventlog.ingest.load.ingest_files` — the same code as a
local ``paipu ingest`` — and the spool file is removed. The reply is the ingest report:
games stored, skipped as duplicates, and the games that could not be stored with file,
line or record, reason and game id.

The spool file carries the uploaded file's own name (its last path component) inside a
private temporary directory, so every event's metadata ``source`` is what a local ingest
of that file would write, and a file ingested locally and then uploaded (or the other way
round) is recognised as a duplicate.

Errors (status codes and details as in services/server.py :func:`status_for`):
INVALID_ARGUMENT with a BadRequest naming ``header`` (missing / repeated header),
``header.file_name`` (empty, no name, longer than 255 bytes) or ``header.format`` (unknown, or the file is in
no known format: the message lists the known formats); UNAUTHENTICATED /
PERMISSION_DENIED (recorder role needed, docs/reference/DESIGN.md §9).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import grpc

from eventlog.ingest import known_formats, sniff
from eventlog.ingest.base import ParseIssue, UnknownFormatError
from eventlog.ingest.load import ingest_files
from eventlog.store.base import EventStore
from paipu.v1 import ingest_service_pb2 as pb
from paipu.v1 import ingest_service_pb2_grpc as pb_grpc
from services.status import BadArgument

__all__ = ["SERVICE_NAME", "MAX_FILE_NAME_BYTES", "IngestServicer", "spool_name"]

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["IngestService"].full_name  # paipu.v1.IngestService
#: Longest uploaded file name (its last path component), in bytes of UTF-8: what a file
#: system takes (``NAME_MAX``); a longer one is INVALID_ARGUMENT, not a failed spool file.
MAX_FILE_NAME_BYTES = 255


def spool_name(file_name: str) -> str:
    """The last path component of ``file_name`` (``/`` or ``\\`` separated), used as the
    spool file's name. Raises :class:`BadArgument` (``header.file_name``) when there is
    none (empty, ``.``, ``..``, a trailing separator, a NUL) or when it is longer than a
    file name may be (:data:`MAX_FILE_NAME_BYTES` bytes of UTF-8, the usual ``NAME_MAX``)."""
    name = re.split(r"[\\/]", file_name)[-1]
    if name in ("", ".", "..") or "\x00" in name:
        raise BadArgument(
            f"header.file_name must name a file, got {file_name!r}", "header.file_name"
        )
    size = len(name.encode("utf-8", errors="surrogatepass"))
    if size > MAX_FILE_NAME_BYTES:
        raise BadArgument(
            f"header.file_name is {size} bytes long; a file name has at most {MAX_FILE_NAME_BYTES}",
            "header.file_name",
        )
    return name


class IngestServicer(pb_grpc.IngestServiceServicer):
    """``paipu.v1.IngestService`` over ``store`` (thread-safe; shared with the other
    services; access control and error statuses are the server's interceptors).
    ``spool_dir``: where the temporary upload directories go (default: the system
    temporary directory)."""

    def __init__(self, store: EventStore, *, spool_dir: str | Path | None = None) -> None:
        self._store = store
        self._spool_dir = None if spool_dir is None else str(spool_dir)

    def IngestLog(
        self, request_iterator: Iterator[pb.IngestLogRequest], context: grpc.ServicerContext
    ) -> pb.IngestLogResponse:
        header = self._header(request_iterator)
        name = spool_name(header.file_name)
        fmt = header.format if header.HasField("format") else None
        if fmt is not None and fmt not in known_formats():
            raise BadArgument(
                f"unknown format {fmt!r}; known formats: {', '.join(known_formats())}",
                "header.format",
            )
        with tempfile.TemporaryDirectory(prefix="paipu-ingest-", dir=self._spool_dir) as tmp:
            path = Path(tmp) / name
            size = self._spool(request_iterator, path)
            if fmt is None:
                try:
                    fmt = sniff(path)
                except UnknownFormatError:
                    raise BadArgument(
                        f"{header.file_name}: format not recognised; known formats: "
                        f"{', '.join(known_formats())} (name one in header.format)",
                        "header.format",
                    ) from None
            report = ingest_files(self._store, [path], format=fmt, workers=0)  # parsed in this server process
            spooled = str(path)
            issues = [_issue(i, header.file_name, spooled) for i in report.errors]
        return pb.IngestLogResponse(
            format=fmt,
            stored_game_ids=report.stored,
            duplicate_game_ids=report.duplicates,
            issues=issues,
            events=report.events,
            bytes=size,
        )

    @staticmethod
    def _header(requests: Iterator[pb.IngestLogRequest]) -> pb.IngestLogHeader:
        first = next(requests, None)
        if first is None or first.WhichOneof("content") != "header":
            raise BadArgument("the first message of an upload must be the header (file name, format)", "header")
        return first.header

    @staticmethod
    def _spool(requests: Iterator[pb.IngestLogRequest], path: Path) -> int:
        size = 0
        with open(path, "wb") as f:
            for msg in requests:
                if msg.WhichOneof("content") != "chunk":
                    raise BadArgument("an upload has exactly one header, as its first message", "header")
                f.write(msg.chunk)
                size += len(msg.chunk)
        return size


def _issue(issue: ParseIssue, file_name: str, spooled: str) -> pb.IngestIssue:
    """The wire form of ``issue``, naming the client's file instead of the spool file."""
    msg = pb.IngestIssue(
        file_name=file_name if issue.path == spooled else issue.path,
        reason=issue.reason.replace(spooled, file_name),
    )
    if issue.line is not None:
        msg.line = issue.line
    if issue.record is not None:
        msg.record = issue.record
    if issue.game_id is not None:
        msg.game_id = issue.game_id
    return msg
