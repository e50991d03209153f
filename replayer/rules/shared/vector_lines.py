"""Scoring vector files line by line, for any ruleset (``paipu score --vectors``).

A ruleset's ``vectors`` module offers ``score_case(obj) -> dict`` for one JSON object;
:func:`score_lines` applies it to a JSON Lines stream and turns a bad line into
``{"id", "error"}`` naming the source and line number, so one bad case never stops a run.
Every ruleset reads its case lines through a strict pydantic model with :func:`validate_case`,
whose error names the field (``players[0].melds[1].tiles``); the line is named here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from eventlog.errors import json_error, validation_line

__all__ = ["field_error", "score_lines", "validate_case"]

M = TypeVar("M", bound=BaseModel)

def field_error(e: ValidationError, *, prefix: tuple = (), known: Any = None) -> ValueError:
    """The first problem of a failed validation as one line naming the field, in the words
    every paipu message uses (eventlog.errors.validation_line), e.g.
    ``players[0].melds[1].type: must be one of 'chow', 'pung' or 'kong', got 'set'`` (list
    positions in brackets; the input is left out for a missing field; an unknown top-level
    field lists ``known``)."""
    return ValueError(validation_line(e, prefix=prefix, known=known))


def validate_case(model: type[M], obj: Any) -> M:
    """``obj`` read through ``model``. Raises ValueError naming the field (:func:`field_error`)."""
    try:
        return model.model_validate(obj)
    except ValidationError as e:
        raise field_error(e, known=model.model_fields) from None


def score_lines(
    lines: Iterable[str], score_case: Callable[[dict[str, Any]], dict[str, Any]], *, source: str = "-"
) -> Iterator[dict[str, Any]]:
    """Score every non-blank JSON line of ``lines`` with ``score_case``. A bad line gives
    ``{"id", "error"}``: the id is a string, as a case's own (the case's id, else
    ``"line N"``); the error names the source and line and says what is wrong in words."""
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        obj: Any = None
        try:
            obj = json.loads(line.rstrip("\r\n"))  # a column of the line, not of a line after it
            if not isinstance(obj, dict):
                yield {"id": f"line {lineno}", "error": f"{source}:{lineno}: bad situation: not a JSON object"}
                continue
            yield score_case(obj)
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as e:
            case_id = obj.get("id") if isinstance(obj, dict) else None
            yield {"id": f"line {lineno}" if case_id is None else str(case_id),
                   "error": f"{source}:{lineno}: bad situation: {_in_words(e)}"}


def _in_words(e: Exception) -> str:
    """What is wrong with a case line, without Python's exception names."""
    if isinstance(e, json.JSONDecodeError):
        return json_error(e, line=False)
    if isinstance(e, KeyError):
        return f"missing field {e.args[0]!r}" if e.args else "a required field is missing"
    return str(e) or "unreadable case"
