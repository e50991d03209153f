"""Which sets combine into which pattern fans: the combination principles of MCR.

shared/rules/competition.md Part B2 lists them: 不重复 (a fan implied by a bigger one is not
counted), 不拆移 (a set used in a fan is not split to make another), 不得相同 (sets that made
a fan together do not make the same fan again), 套算一次 (a set not yet used may combine once
with a used one). They are applied here the way the reference calculator applies them:

Chows, four of them: a four-chow fan (一色四步高, 一色四同顺) takes all four; else the first
three-chow fan found (trying chows 0-1-2, 0-1-3, 0-2-3, 1-2-3 in sorted order) plus at most
one two-chow fan between the fourth chow and one of the three (一般高 before 喜相逢 before
连六 before 老少副); else two-chow fans over all pairs, at most (3 − unrelated chows), cutting
repeats first, from 老少副 back to 一般高. Three chows: a three-chow fan, else at most two
two-chow fans. The terminal-chow hands (三色/一色双龙会) with a pair of 5 take all four.

Pungs, four of them: a four-pung fan; else the first three-pung fan (same trial order) plus at
most one two-pung fan between the fourth pung and one of the three; else two-pung fans over
all pairs. Three pungs: a three-pung fan, else all pairs. Two: the pair.

Results are memoised on the sorted tiles of the sets and the fan table: a table without a
pattern fan (the 1998 table has no 连六, 三同刻, 三风刻: :mod:`.tables`) allocates the sets as
if that pattern did not exist, so the sets are free for the fans the table has.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from .chows import (
    FOUR_CHOW_PATTERNS,
    TERMINAL_CHOW_PATTERNS,
    THREE_CHOW_PATTERNS,
    TWO_CHOW_PATTERNS,
)
from .pungs import FOUR_PUNG_PATTERNS, THREE_PUNG_PATTERNS, TWO_PUNG_PATTERNS

Found = tuple[tuple[str, tuple[tuple[int, ...], ...]], ...]

_ALL_PATTERNS = {
    "two_chow": TWO_CHOW_PATTERNS, "three_chow": THREE_CHOW_PATTERNS, "four_chow": FOUR_CHOW_PATTERNS,
    "terminal_chow": TERMINAL_CHOW_PATTERNS, "two_pung": TWO_PUNG_PATTERNS,
    "three_pung": THREE_PUNG_PATTERNS, "four_pung": FOUR_PUNG_PATTERNS,
}


@lru_cache(maxsize=None)
def _patterns(kind: str, table: str) -> tuple:
    """The patterns of ``kind`` that fan table ``table`` has, in the reference's order."""
    if table == "mcr":
        return _ALL_PATTERNS[kind]
    from .tables import table as _table

    absent = _table(table).absent
    return tuple((fid, p) for fid, p in _ALL_PATTERNS[kind] if fid not in absent)


_TRIPLES = ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0))  # (three used, the free one)
_TWO_CHOW_ORDER = tuple(fid for fid, _ in TWO_CHOW_PATTERNS)  # a table without one never finds it


def _chow(t: int) -> tuple[int, ...]:
    return (t, t + 1, t + 2)


def _pung(t: int) -> tuple[int, ...]:
    return (t, t, t)


def _first(patterns, *args) -> str | None:
    for fid, pattern in patterns:
        if pattern(*args):
            return fid
    return None


# The pattern tests of two and three sets, memoised on their tiles (at most a few thousand
# keys each): a reading that was never met is then built from tests met before.


@lru_cache(maxsize=None)
def _two_chow_fan(a: int, b: int, table: str = "mcr") -> str | None:
    return _first(_patterns("two_chow", table), a, b)


@lru_cache(maxsize=None)
def _three_chow_fan(three: tuple[int, int, int], table: str = "mcr") -> str | None:
    return _first(_patterns("three_chow", table), three)


@lru_cache(maxsize=None)
def _two_pung_fan(a: int, b: int, table: str = "mcr") -> str | None:
    return _first(_patterns("two_pung", table), a, b)


@lru_cache(maxsize=None)
def _three_pung_fan(three: tuple[int, int, int], table: str = "mcr") -> str | None:
    return _first(_patterns("three_pung", table), three)


def _limit_pairs(found: list[tuple[str, int, int]], limit: int) -> list[tuple[str, int, int]]:
    """Keep at most ``limit`` two-chow fans: first cut each repeated kind down to one, then
    cut whole kinds, both from the cheapest-ranked kind (老少副) back to 一般高."""
    kept = list(found)
    for keep_each in (1, 0):
        for fid in reversed(_TWO_CHOW_ORDER):
            while len(kept) > limit and sum(1 for f, _, _ in kept if f == fid) > keep_each:
                # drop the last one of this kind
                idx = max(i for i, (f, _, _) in enumerate(kept) if f == fid)
                del kept[idx]
    return kept


def chow_fans(chows: tuple[int, ...], pair: int, table: str = "mcr") -> Found:
    """Pattern fans of the chows (lowest tiles, sorted) of one reading; ``pair`` is the pair
    tile (-1 if none), used by the terminal-chow hands; ``table``: the fan table.

    Memoised on what the answer depends on: the pair only with four chows, and only when it
    is a suited 5 (the terminal-chow hands need one); any other pair is as no pair."""
    if len(chows) < 2:
        return ()
    if len(chows) < 4 or not (0 <= pair < 27 and pair % 9 == 4):
        pair = -1
    return _chow_fans(chows, pair, table)


@lru_cache(maxsize=1 << 14)
def _chow_fans(chows: tuple[int, ...], pair: int, table: str) -> Found:
    n = len(chows)
    if n == 4:
        fid = _first(_patterns("terminal_chow", table), chows, pair)
        if fid:
            return ((fid, tuple(_chow(t) for t in chows) + ((pair, pair),)),)
        fid = _first(_patterns("four_chow", table), chows)
        if fid:
            return ((fid, tuple(_chow(t) for t in chows)),)
        for i, j, k, free in _TRIPLES:
            three = (chows[i], chows[j], chows[k])
            fid = _three_chow_fan(three, table)
            if fid:
                out = [(fid, tuple(_chow(t) for t in three))]
                extra = [(_two_chow_fan(t, chows[free], table), t) for t in three]
                for two in _TWO_CHOW_ORDER:
                    partner = next((t for f, t in extra if f == two), None)
                    if partner is not None:
                        out.append((two, (_chow(partner), _chow(chows[free]))))
                        break
                return tuple(out)
        limit = 3
    else:
        if n == 3:
            fid = _three_chow_fan(chows, table)
            if fid:
                return ((fid, tuple(_chow(t) for t in chows)),)
        limit = 2 if n == 3 else 1
    found = []
    for a, b in combinations(range(n), 2):
        fid = _two_chow_fan(chows[a], chows[b], table)
        if fid:
            found.append((fid, a, b))
    if n == 4:
        related = {x for _, a, b in found for x in (a, b)}
        limit -= 4 - len(related) if found else 4
        limit = max(limit, 0)
    kept = _limit_pairs(found, limit) if n >= 3 else found
    return tuple((fid, (_chow(chows[a]), _chow(chows[b]))) for fid, a, b in kept)


def pung_fans(pungs: tuple[int, ...], table: str = "mcr") -> Found:
    """Pattern fans of the pungs and kongs (tiles, sorted) of one reading in fan table ``table``."""
    return _pung_fans(pungs, table) if len(pungs) >= 2 else ()


@lru_cache(maxsize=1 << 14)
def _pung_fans(pungs: tuple[int, ...], table: str) -> Found:
    n = len(pungs)
    if n == 4:
        fid = _first(_patterns("four_pung", table), pungs)
        if fid:
            return ((fid, tuple(_pung(t) for t in pungs)),)
        for i, j, k, free in _TRIPLES:
            three = (pungs[i], pungs[j], pungs[k])
            fid = _three_pung_fan(three, table)
            if fid:
                out = [(fid, tuple(_pung(t) for t in three))]
                for t in sorted((i, j, k)):
                    two = _two_pung_fan(pungs[t], pungs[free], table)
                    if two:
                        out.append((two, (_pung(pungs[t]), _pung(pungs[free]))))
                        break
                return tuple(out)
    elif n == 3:
        fid = _three_pung_fan(pungs, table)
        if fid:
            return ((fid, tuple(_pung(t) for t in pungs)),)
    out = []
    for a, b in combinations(pungs, 2):
        two = _two_pung_fan(a, b, table)
        if two:
            out.append((two, (_pung(a), _pung(b))))
    return tuple(out)
