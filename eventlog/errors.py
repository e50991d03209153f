"""The root of paipu's errors: :class:`PaipuError`.

Every error paipu reports to a user (bad input, a refused append, a damaged log, a bad
option) is a PaipuError subclass carrying structured fields (``field``, ``game_id``, ``seq``,
``current`` …) beside its one-line message. The layers above read those, never the text:

* the CLI prints any PaipuError as one line and exits 2 (paipu/cli/errors.py); any other
  exception is an "internal error" (``paipu --debug`` shows the traceback);
* the gRPC services answer with the class's :attr:`~PaipuError.grpc_code` and a
  ``google.rpc.ErrorInfo`` whose ``reason`` is :meth:`~PaipuError.reason_code` and whose metadata
  are the fields (plus a ``google.rpc.BadRequest`` naming ``field`` when there is one)
  (services/status.py); the client rebuilds the same class with the same fields
  (:meth:`PaipuError.rebuild`, services/client.py).

A subclass declares its gRPC code and which attributes are its fields::

    class GameNotFound(StoreError):
        grpc_code = "NOT_FOUND"
        fields = ("game_id",)

This module is a leaf: it imports nothing of paipu.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

__all__ = ["PaipuError", "InvalidArgument", "json_error"]


class PaipuError(Exception):
    """Base of every user-facing paipu error (see the module doc).

    ``grpc_code``: the ``grpc.StatusCode`` name a service answers with (default
    FAILED_PRECONDITION: the request cannot be served in the present state). ``fields``: the
    names of the attributes that are the error's structured fields. ``wire_names``: an
    ErrorInfo metadata key per field when it differs from the attribute name."""

    grpc_code: ClassVar[str] = "FAILED_PRECONDITION"
    fields: ClassVar[tuple[str, ...]] = ()
    wire_names: ClassVar[dict[str, str]] = {}
    _by_reason: ClassVar[dict[str, type[PaipuError]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        PaipuError._by_reason.setdefault(cls.reason_code(), cls)

    @classmethod
    def reason_code(cls) -> str:
        """``ErrorInfo.reason``: the class name in UPPER_SNAKE_CASE (``GameNotFound`` →
        ``GAME_NOT_FOUND``)."""
        return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", cls.__name__).upper()

    def details(self) -> dict[str, Any]:
        """The structured fields: ``{name: value}`` for each name in :attr:`fields`."""
        return {name: getattr(self, name, None) for name in self.fields}

    @classmethod
    def lookup(cls, reason: str) -> type[PaipuError] | None:
        """The PaipuError class whose :meth:`reason_code` is ``reason`` (None if no such class
        has been imported)."""
        return PaipuError._by_reason.get(reason)

    @classmethod
    def rebuild(cls, message: str, details: dict[str, Any]) -> PaipuError:
        """An instance of ``cls`` with message ``message`` and the given field values, made
        without calling ``__init__`` (what a client does with a server's error details)."""
        err = Exception.__new__(cls)
        err.args = (message,)
        for name, value in details.items():
            setattr(err, name, value)
        return err

    def __reduce__(self) -> Any:  # keep the fields across pickling (worker processes)
        return (_rebuild, (type(self), self.args, self.__dict__))


def _rebuild(cls: type[PaipuError], args: tuple[Any, ...], attrs: dict[str, Any]) -> PaipuError:
    err = Exception.__new__(cls)
    err.args = args
    err.__dict__.update(attrs)
    return err


class InvalidArgument(PaipuError, ValueError):
    """A value the caller gave is refused (gRPC INVALID_ARGUMENT with a ``BadRequest``).
    ``field`` names it (``"seq"``, ``"header.format"``, ``"events[2].payload.seat"``; ``""``
    when unknown)."""

    grpc_code = "INVALID_ARGUMENT"
    fields = ("field",)

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


def json_error(e: Any, *, line: bool = True) -> str:
    """A ``json.JSONDecodeError`` in words with where it is: ``not JSON: unterminated string
    starting at line 3, column 4997`` (``line=False``: ``… at column 4997``, for a caller
    that names the file's line itself). Never Python's doubled "starting at at column"."""
    msg = str(getattr(e, "msg", e)).removesuffix(" at")  # "Unterminated string starting at"
    msg = msg[:1].lower() + msg[1:]
    where = f"line {getattr(e, 'lineno', 1)}, " if line else ""
    return f"not JSON: {msg} at {where}column {getattr(e, 'colno', 1)}"
