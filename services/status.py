"""Errors as gRPC statuses: what every paipu service answers when a call fails.

A :class:`~eventlog.errors.PaipuError` names its own status code (``grpc_code``) and its
structured fields; :func:`status_for` turns it into a ``google.rpc.Status`` with

* ``ErrorInfo`` (domain :data:`ERROR_DOMAIN`, reason ``GAME_NOT_FOUND`` …): one metadata key
  per field (``game_id``, ``current_version`` …, as text) and ``fields``, the same fields as
  one JSON object, from which the client rebuilds the same exception class
  (services/client.py) — no message text is parsed on either side;
* ``BadRequest`` with one ``FieldViolation`` when the error names a ``field`` (first in the
  details, before the ErrorInfo).

Another ValueError is INVALID_ARGUMENT (a caller's mistake); anything else is INTERNAL.
Every string that goes back is bounded (:data:`MAX_MESSAGE_CHARS`, :data:`MAX_FIELD_CHARS`)
by what it costs on the wire, not by its characters (:func:`clip`): ``grpc-message`` carries
each non-ASCII byte percent-encoded (three bytes), JSON escapes control characters (six),
so a client's 70,000-character id — ASCII, CJK or NULs — never makes the trailers exceed the
8 KiB a gRPC client accepts by default (its hard limit is 16 KiB).

| error                 | code                | ErrorInfo reason and metadata                      |
|-----------------------|---------------------|----------------------------------------------------|
| StreamAlreadyExists   | ALREADY_EXISTS      | STREAM_ALREADY_EXISTS {game_id, expected_version, current_version} |
| WrongExpectedVersion  | ABORTED             | WRONG_EXPECTED_VERSION {same}                      |
| GameNotFound          | NOT_FOUND           | GAME_NOT_FOUND {game_id}                           |
| IdempotencyConflict   | FAILED_PRECONDITION | IDEMPOTENCY_CONFLICT {game_id, event_id, reason}   |
| CorruptEvent          | DATA_LOSS           | CORRUPT_EVENT {game_id, seq, position, reason}     |
| StoreClosed           | UNAVAILABLE         | STORE_CLOSED                                       |
| EventError, other InvalidArgument, ValueError | INVALID_ARGUMENT | BadRequest (the field path) |
| other                 | INTERNAL            |                                                    |
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from eventlog.errors import InvalidArgument, PaipuError

__all__ = [
    "ERROR_DOMAIN",
    "MAX_MESSAGE_CHARS",
    "MAX_FIELD_CHARS",
    "BadArgument",
    "clip",
    "wire_cost",
    "status_for",
    "abort",
]

#: ``google.rpc.ErrorInfo.domain`` of every error the paipu services report.
ERROR_DOMAIN = "paipu.v1"
#: Longest status message sent back, in wire bytes (:func:`wire_cost`; longer ones are cut,
#: saying how long they were).
MAX_MESSAGE_CHARS = 1024
#: Longest text of one field value in the details, in wire bytes.
MAX_FIELD_CHARS = 256

#: A request field the services refuse (INVALID_ARGUMENT naming ``field``).
BadArgument = InvalidArgument


def _char_cost(ch: str) -> int:
    o = ord(ch)
    if 0x20 <= o < 0x7F:
        return 3 if ch in '%"\\' else 1  # percent-encoded in grpc-message / escaped in JSON
    if o < 0x80:
        return 6  # a control character: \u00XX in JSON, %XX in grpc-message
    return 3 * len(ch.encode("utf-8", errors="surrogatepass"))


def wire_cost(text: str) -> int:
    """The most bytes ``text`` can take in a status: in ``grpc-message`` (every byte but
    printable ASCII percent-encoded as ``%XX``) or as a JSON string in the details."""
    if text.isascii() and text.isprintable() and not any(c in text for c in '%"\\'):
        return len(text)
    return sum(_char_cost(c) for c in text)


def clip(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` when its :func:`wire_cost` is at most ``limit``, else as much of its start
    as fits, and how long it was (in characters)."""
    if len(text) <= limit // 12 or wire_cost(text) <= limit:  # 12: a 4-byte character
        return text
    tail = f"… ({len(text)} characters)"
    budget = limit - wire_cost(tail)
    cut = 0
    for ch in text:
        budget -= _char_cost(ch)
        if budget < 0:
            break
        cut += 1
    return text[:cut] + tail


def _value(v: Any) -> Any:
    """A field value fit for the details: scalars as they are, long text clipped, anything
    else as (clipped) text."""
    if v is None or isinstance(v, (bool, int, float)):
        return v
    return clip(str(v), MAX_FIELD_CHARS)


def _pack(detail: Any) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(detail)
    return packed


def status_for(exc: BaseException) -> status_pb2.Status:
    """The ``google.rpc.Status`` reporting ``exc`` (see the module doc)."""
    message = clip(str(exc) or type(exc).__name__)
    if isinstance(exc, PaipuError):
        code = getattr(code_pb2, exc.grpc_code)
        fields = {name: _value(v) for name, v in exc.details().items()}
        status = status_pb2.Status(code=code, message=message)
        if "field" in fields or code == code_pb2.INVALID_ARGUMENT:
            status.details.append(_pack(_bad_request(str(fields.get("field") or ""), message)))
        metadata = {exc.wire_names.get(k, k): "" if v is None else str(v) for k, v in fields.items()}
        metadata["fields"] = json.dumps(fields, ensure_ascii=False, sort_keys=True)
        info = error_details_pb2.ErrorInfo(reason=type(exc).reason_code(), domain=ERROR_DOMAIN, metadata=metadata)
        status.details.append(_pack(info))
        return status
    if isinstance(exc, ValueError):
        status = status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=message)
        status.details.append(_pack(_bad_request("", message)))
        return status
    return status_pb2.Status(code=code_pb2.INTERNAL, message=message)


def _bad_request(field: str, description: str) -> error_details_pb2.BadRequest:
    return error_details_pb2.BadRequest(
        field_violations=[
            error_details_pb2.BadRequest.FieldViolation(field=clip(field, MAX_FIELD_CHARS), description=description)
        ]
    )


def abort(context: grpc.ServicerContext, exc: BaseException) -> NoReturn:
    """End the call with the status of ``exc`` (:func:`status_for`); raises, as
    ``context.abort`` does."""
    context.abort_with_status(rpc_status.to_status(status_for(exc)))
    raise AssertionError("unreachable")  # pragma: no cover - abort_with_status raises
