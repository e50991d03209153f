"""One line of text for an event, tiles shown as Unicode glyphs beside their codes (DESIGN.md §3).

Used by the terminal replay (``paipu replay``) and the dashboard; it sits in the log layer so
neither imports the other."""

from __future__ import annotations

from typing import Any

from eventlog import tiles as T

__all__ = ["describe_event"]


def describe_event(event: Any) -> str:
    """One line for an event: ``seq type key=value ...``."""
    p = event.payload_json() if hasattr(event, "payload_json") else {}
    parts = []
    for k, v in p.items():
        if v in (None, [], {}, ""):
            continue
        if isinstance(v, str) and T.is_valid(v):
            v = f"{T.to_unicode(v)}{v}"
        elif isinstance(v, list) and v and all(isinstance(x, str) and T.is_valid(x) for x in v):
            v = " ".join(v) if len(v) > 20 else T.to_unicode(v) + " " + " ".join(v)
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            # nested records (opening wins shown): "kind: tiles; kind: tiles"
            v = "; ".join(
                " ".join(f"{T.to_unicode(y)} {' '.join(y)}" if isinstance(y, list) and all(
                    isinstance(z, str) and T.is_valid(z) for z in y) else str(y) for y in x.values())
                for x in v)
        parts.append(f"{k}={v}")
    return f"#{getattr(event, 'seq', '?')} {event.type} " + " ".join(parts)
