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

__all__ = ["PaipuError", "InvalidArgument", "json_error", "field_path", "validation_problem", "validation_line"]


class PaipuError(Exception):
    """Base of every user-facing paipu error (see the module doc).

    ``grpc_code``: the ``grpc.StatusCode`` name a service answers with (default
    FAILED_PRECONDITION: the request cannot be served in the present state). ``fields``: the
    names of the attributes that are the error's structured fields. ``wire_names``: an
    ErrorInfo metadata key per field when it differs from the attribute name. ``hint``: the
    command line's advice, never part of the message (see the attribute)."""

    grpc_code: ClassVar[str] = "FAILED_PRECONDITION"
    fields: ClassVar[tuple[str, ...]] = ()
    #: Advice only the command line can act on — a command to run, a file of the data
    #: directory: the CLI prints it after the message (paipu/cli/errors.py); the services never
    #: send it (a gRPC client has no shell on the server and must not learn its paths).
    hint: str = ""
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
    fields: ClassVar[tuple[str, ...]] = ("field",)

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


#: An input shown in a validation message is cut to this many characters.
_SHOWN = 120


def field_path(loc: Any) -> str:
    """A pydantic error location as the field path our messages use: ``players[0].melds[1].tiles``
    (list positions in brackets)."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")


def _why(err: dict[str, Any], known: Any, unknown: str) -> str:
    kind, ctx = err.get("type", ""), err.get("ctx") or {}
    if kind == "missing":
        return "missing (a required field)"
    if kind == "extra_forbidden":
        names = ", ".join(sorted(known)) if known else ""
        return unknown + (f" (known: {names})" if names else "")
    if kind in ("string_too_short", "too_short"):
        n, unit = ctx.get("min_length"), "character" if kind.startswith("string") else "item"
        return "must not be empty" if n in (None, 1) else f"must have at least {n} {unit}s"
    if kind in ("string_too_long", "too_long"):
        unit = "character" if kind.startswith("string") else "item"
        return f"must have at most {ctx.get('max_length')} {unit}s"
    bounds = {"greater_than_equal": ("ge", "at least"), "less_than_equal": ("le", "at most"),
              "greater_than": ("gt", "more than"), "less_than": ("lt", "less than")}
    if kind in bounds and bounds[kind][0] in ctx:
        return f"must be {bounds[kind][1]} {ctx[bounds[kind][0]]}"
    if kind in ("literal_error", "enum") and "expected" in ctx:
        return f"must be one of {ctx['expected']}"
    words = {"int_parsing": "must be a whole number", "int_type": "must be a whole number",
             "int_from_float": "must be a whole number", "float_parsing": "must be a number",
             "float_type": "must be a number", "bool_parsing": "must be true or false",
             "bool_type": "must be true or false", "string_type": "must be text",
             "dict_type": "must be an object", "model_type": "must be an object",
             "list_type": "must be a list"}
    if kind in words:
        return words[kind]
    msg = str(err.get("msg", "")).removeprefix("Value error, ").removeprefix("Assertion failed, ")
    return msg[:1].lower() + msg[1:] if msg[:2] != msg[:2].upper() else msg


def validation_problem(e: Any, *, prefix: Any = (), known: Any = None,
                       unknown: str = "not a known field") -> tuple[str, str]:
    """The first problem of a pydantic ``ValidationError`` ``e`` in our words, as ``(field,
    why)``: ``("players[0].melds[1].tiles", "must have at least 3 items, got ['W1']")`` —
    never pydantic's multi-line text, its ``[type=…]`` or its URL. ``prefix``: location parts
    before the model's own (``("options",)``); ``known``: the field names a top-level unknown
    field could have been (listed in the message); ``unknown``: the words for a field the model
    does not have ("no such option" for a ruleset's options). Duck-typed (``e.errors()``): this module
    imports nothing."""
    errs = e.errors()
    if not errs:
        return "", str(e).splitlines()[0] if str(e) else type(e).__name__
    err = errs[0]
    loc = tuple(err.get("loc") or ())
    why = _why(err, known if len(loc) <= 1 else None, unknown)
    if err.get("type") not in ("missing", "extra_forbidden") and "input" in err \
            and not isinstance(err["input"], dict) and err["input"] != "":
        got = repr(err["input"])
        if len(got) > _SHOWN:
            got = got[: _SHOWN - 1] + "…"
        if got not in why:  # a message that names the value already ("not a tile code: 'Q9'")
            why = f"{why}, got {got}"
    return field_path((*prefix, *loc)), why


def validation_line(e: Any, where: str = "", *, prefix: Any = (), known: Any = None,
                    unknown: str = "not a known field") -> str:
    """:func:`validation_problem` as one line: ``{where}{field}: {why}`` (``where`` e.g.
    ``"f.jsonl:3: "``, ``"mcr option "``), or ``{where}{why}`` when no field is named."""
    field, why = validation_problem(e, prefix=prefix, known=known, unknown=unknown)
    return f"{where}{field}: {why}" if field else f"{where}{why}"
