"""Counts in words for every output a person reads (CLI lines, summaries): ``1 game``,
``2 games`` — the one helper, so no line says "1 games". A leaf: imports nothing of paipu."""

from __future__ import annotations

__all__ = ["plural"]

#: Plurals that are not the word plus "s".
_IRREGULAR = {"match": "matches", "penalty": "penalties", "this": "these"}


def plural(n: int, word: str, words: str | None = None) -> str:
    """``n`` and the noun in the number it needs: ``plural(1, "game")`` → ``1 game``,
    ``plural(0, "game")`` → ``0 games``, ``plural(2, "penalty")`` → ``2 penalties``
    (``words``: the plural when it is neither regular nor known here)."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {words or _IRREGULAR.get(word, word + 's')}"
