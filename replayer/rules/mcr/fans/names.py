"""Every spelling of an MCR fan a log may use, mapped to the fan's id: Chinese with or
without the 独听・ prefix (``嵌张`` = ``独听・嵌张``), English, the fan's number in the official
table (PMN writes numbers), and spellings seen in real logs (Botzone's ``单钓将``)."""

from __future__ import annotations

from functools import lru_cache

from .registry import FANS

#: Spellings found in real logs that are none of the above.
ALIASES = {"单钓将": "single_wait", "单钓": "single_wait", "坎张": "closed_wait"}


@lru_cache(maxsize=1)
def _index() -> dict[str, str]:
    out: dict[str, str] = {}
    for f in FANS:
        for alias in (f.name_zh, f.name_zh.split("・")[-1], f.name_en.lower(), str(f.number), f.id):
            out.setdefault(alias, f.id)
    return out


def fan_id(name: str) -> str | None:
    """The id of the MCR fan ``name`` spells, or None when it names no MCR fan."""
    n = name.strip()
    idx = _index()
    return idx.get(n) or idx.get(n.lower()) or idx.get(n.split("・")[-1]) or ALIASES.get(n)
