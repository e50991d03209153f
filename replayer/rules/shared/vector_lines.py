"""Scoring vector files line by line, for any ruleset (``paipu score --vectors``).

A ruleset's ``vectors`` module offers ``score_case(obj) -> dict`` for one JSON object;
:func:`score_lines` applies it to a JSON Lines stream and turns a bad line into
``{"id", "error"}`` naming the source and line number, so one bad case never stops a run.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

__all__ = ["score_lines"]


def score_lines(
    lines: Iterable[str], score_case: Callable[[dict[str, Any]], dict[str, Any]], *, source: str = "-"
) -> Iterator[dict[str, Any]]:
    """Score every non-blank JSON line of ``lines`` with ``score_case``."""
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        obj: Any = None
        try:
            obj = json.loads(line)
            if not isinstance(obj, dict):
                yield {"id": lineno, "error": f"{source}:{lineno}: bad situation: not a JSON object"}
                continue
            yield score_case(obj)
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as e:
            case_id = obj.get("id", lineno) if isinstance(obj, dict) else lineno
            yield {"id": case_id, "error": f"{source}:{lineno}: bad situation: {type(e).__name__}: {e}"}
