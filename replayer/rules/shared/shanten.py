"""Distance to a win (向听数, shanten) on 34-count vectors, written once for every ruleset.

The shanten of a hand is the number of tile exchanges it is away from being ready
(听牌): −1 is a complete hand, 0 is ready, 1 needs one more useful tile, and so on. It is a
heuristic for simulation bots (replayer/simulate/bots.py), not a rule: nothing replayed
depends on it.

Shapes: the regular shape (``4 − melds`` sets and a pair, shared/DESIGN.md §6), and, with no
declared sets, seven pairs (七对) and thirteen orphans (十三幺) — the irregular shapes most
rulesets share (shapes in replayer/rules/shared/shapes.py). Ruleset-specific shapes
(MCR 全不靠, 组合龙) and wildcards are not considered: the value is then an upper bound.

The regular shanten uses the usual block decomposition: each suit's nine counts are split
into sets (m), partial sets (t: two tiles of a set, pairs included) and at most one pair
(p), memoised per block; honors form pungs and pairs only. The hand's value is
``2·need − 2m − min(t, need − m) − p`` maximised over the blocks' combinations, where
``need = 4 − melds``.
"""

from __future__ import annotations

from functools import lru_cache

from replayer.rules.shared.shapes import THIRTEEN_ORPHANS

__all__ = ["shanten", "regular_shanten", "seven_pairs_shanten", "thirteen_orphans_shanten"]

_Options = tuple[tuple[int, int, int], ...]  # (sets, partial sets, pair used 0/1)


def _pareto(opts: set[tuple[int, int, int]]) -> _Options:
    """Drop options another option with the same pair use dominates (as many sets and
    partial sets); sorted for determinism. (An option with the pair never dominates one
    without: another block may need to supply the pair.)"""
    keep = [
        o for o in opts
        if not any(q != o and q[2] == o[2] and q[0] >= o[0] and q[1] >= o[1] for q in opts)
    ]
    return tuple(sorted(keep))


@lru_cache(maxsize=1 << 15)
def _suit_block(counts: tuple[int, ...]) -> _Options:
    """Every useful (sets, partials, pair) split of one suit's nine counts."""
    i = 0
    while i < 9 and counts[i] == 0:
        i += 1
    if i == 9:
        return ((0, 0, 0),)
    c = list(counts)
    out: set[tuple[int, int, int]] = set()

    def sub(removed: tuple[int, ...], add: tuple[int, int, int]) -> None:
        for k in removed:
            c[k] -= 1
        for m, t, p in _suit_block(tuple(c)):
            if add[2] and p:
                continue
            out.add((m + add[0], t + add[1], p + add[2]))
        for k in removed:
            c[k] += 1

    if c[i] >= 3:
        sub((i, i, i), (1, 0, 0))
    if i <= 6 and c[i + 1] and c[i + 2]:
        sub((i, i + 1, i + 2), (1, 0, 0))
    if c[i] >= 2:
        sub((i, i), (0, 0, 1))  # the pair (雀头)
        sub((i, i), (0, 1, 0))  # a pair as a partial pung
    if i <= 7 and c[i + 1]:
        sub((i, i + 1), (0, 1, 0))
    if i <= 6 and c[i + 2]:
        sub((i, i + 2), (0, 1, 0))
    sub((i,), (0, 0, 0))  # tile i left isolated
    return _pareto(out)


@lru_cache(maxsize=1 << 12)
def _honor_block(counts: tuple[int, ...]) -> _Options:
    """Honors form no chows: pungs, pairs (one may be the pair) and isolated tiles."""
    m = sum(1 for c in counts if c >= 3)
    pairs = sum(1 for c in counts if c == 2)
    return ((m, pairs, 0), (m, pairs - 1, 1)) if pairs else ((m, 0, 0),)


@lru_cache(maxsize=1 << 16)
def _merge(a: _Options, b: _Options) -> _Options:
    """The options of two blocks together (sums, at most one pair), Pareto-pruned. The
    blocks' option lists take few distinct values, so this memoises well."""
    return _pareto({(m1 + m2, t1 + t2, p1 + p2) for m1, t1, p1 in a for m2, t2, p2 in b if not (p1 and p2)})


@lru_cache(maxsize=1 << 16)
def _best(opts: _Options, need: int) -> int:
    best = 0
    for m, t, p in opts:
        m = min(m, need)
        v = 2 * m + min(t, need - m) + p
        if v > best:
            best = v
    return 2 * need - best


@lru_cache(maxsize=1 << 18)
def regular_shanten(counts: tuple[int, ...], melds: int = 0) -> int:
    """Shanten for the regular shape of ``4 − melds`` sets and a pair.

    ``counts``: 34-count vector of the concealed tiles (3n+1 or 3n+2 tiles). Returns −1 for
    a complete hand. Raises ValueError for a vector that is not 34 long or ``melds`` outside
    0..4."""
    if len(counts) != 34:
        raise ValueError(f"a count vector has 34 entries, got {len(counts)}")
    if not 0 <= melds <= 4:
        raise ValueError(f"melds must be 0..4, got {melds}")
    opts = _merge(
        _merge(_suit_block(counts[0:9]), _suit_block(counts[9:18])),
        _merge(_suit_block(counts[18:27]), _honor_block(counts[27:34])),
    )
    return _best(opts, 4 - melds)


def seven_pairs_shanten(counts: tuple[int, ...]) -> int:
    """Shanten for seven pairs (七对; four identical tiles count as two pairs, as in MCR)."""
    pairs = sum(c // 2 for c in counts)
    return 6 - min(pairs, 7)


def thirteen_orphans_shanten(counts: tuple[int, ...]) -> int:
    """Shanten for thirteen orphans (十三幺): 13 − kinds held − (1 if one is paired)."""
    kinds = sum(1 for t in THIRTEEN_ORPHANS if counts[t])
    pair = any(counts[t] >= 2 for t in THIRTEEN_ORPHANS)
    return 13 - kinds - (1 if pair else 0)


@lru_cache(maxsize=1 << 18)
def shanten(counts: tuple[int, ...], melds: int = 0, *, irregular: bool = True) -> int:
    """The smallest shanten over the regular shape and — with ``irregular`` and no declared
    sets — seven pairs and thirteen orphans. See :func:`regular_shanten` for arguments."""
    best = regular_shanten(counts, melds)
    if irregular and melds == 0 and sum(counts) >= 13:
        best = min(best, seven_pairs_shanten(counts), thirteen_orphans_shanten(counts))
    return best
