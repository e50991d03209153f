"""Cheap necessary conditions for a Nanchang win: could these tiles make any winning shape?

Source: shared/rules/nanchang.md §6.1–6.5 (standard hand incl. wind / dragon chows, 大七对,
小七对, 十三烂, 七星十三烂), §4.1 (正精 = the indicator, 副精 = its successor), §4.2 (a jing
may be wild). Wild feasibility is monotone — a wild may stand for its own kind — so a hand
whose jing are *all* wild is the most a hand can do: when that reading has no shape, no
interpretation of :func:`replayer.rules.nanchang.evaluate.evaluate` has one and the win is
a 诈胡. The play rules use this to skip evaluations (弃胡 checks) and as the ruleset's
``could_win`` (legal actions, simulation), where the indicator is unknown and every
indicator is tried.

The standard shape is decided block by block (萬, 條, 筒, winds, dragons: no set or pair
crosses a block, §5.2): the fewest wilds making a block into sets, or sets + the pair, are
found with the shared decomposition (:func:`replayer.rules.shared.decompose.can_complete`
on that block alone) and memoised on the block's count vector. Everything is keyed on count
vectors, never on tile objects.
"""

from __future__ import annotations

from functools import lru_cache

from eventlog import tiles as _tiles
from replayer.rules.nanchang.options import NanchangOptions
from replayer.rules.shared import decompose as _dec
from replayer.rules.shared import shapes as _shapes

__all__ = ["BLOCKS", "clear_caches", "standard_ok", "could_win_shape", "could_win_any_jing"]

#: Dense-index ranges (start, stop) of the blocks no set or pair crosses.
BLOCKS: tuple[tuple[int, int], ...] = ((0, 9), (9, 18), (18, 27), (27, 31), (31, 34))
_BLOCK_OF = tuple(next(b for b, (lo, hi) in enumerate(BLOCKS) if lo <= i < hi) for i in range(34))
#: The 副精 of each 正精 (§4.1; always in the same block).
_SUCC = tuple(_tiles.index(_tiles.next_in_cycle(_tiles.code(i))) for i in range(34))
_MAX_WILD = 8  # 4 正精 + 4 副精
_TOO_MANY = _MAX_WILD + 1


@lru_cache(maxsize=None)
def _block_needs(block: int, part: tuple[int, ...]) -> tuple[int, int]:
    """(fewest wilds making the block's tiles ``part`` into sets only, … into sets and one
    pair); :data:`_TOO_MANY` when more than any hand holds. An empty block needs (0, 2)."""
    lo, hi = BLOCKS[block]
    v = (0,) * lo + part + (0,) * (34 - hi)
    n = sum(part)
    out = []
    for pair in (False, True):
        k = ((2 if pair else 0) - n) % 3
        while k <= _MAX_WILD and not _dec.can_complete(v, wildcards=k, pair=pair, honor_chows=True):
            k += 3
        out.append(k if k <= _MAX_WILD else _TOO_MANY)
    return out[0], out[1]


def _needs(counts: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    return tuple(_block_needs(b, counts[lo:hi]) for b, (lo, hi) in enumerate(BLOCKS))


def _standard_need(needs: tuple[tuple[int, int], ...]) -> int:
    sets = sum(s for s, _ in needs)
    return min(sets - s + p for s, p in needs)


def standard_ok(real: tuple[int, ...], wild: int) -> bool:
    """``real`` (34-count vector) and ``wild`` wildcards make four sets (chows incl. three
    different winds / 中发白, pungs) and a pair in any number — equal to
    ``decompose.can_complete(real, wildcards=wild, honor_chows=True)``."""
    if (sum(real) + wild) % 3 != 2:
        return False
    return _standard_need(_needs(real)) <= wild


def _irregular_ok(real: tuple[int, ...], wild: int, options: NanchangOptions) -> bool:
    if _shapes.seven_pairs_fill(real, wild) is not None:
        return True
    if options.jiuyao_factor is not None and _shapes.thirteen_orphans_fill(real, wild) is not None:
        return True
    # 七星十三烂 is a 十三烂 (more honors, fewer places for a wild): one check covers both
    return (options.shisanlan or options.lanhu) and _shapes.rotten_fill(real, wild) is not None


def could_win_shape(counts: tuple[int, ...], wild: tuple[int, ...], jing: tuple[int, ...], melds: int,
                    options: NanchangOptions) -> bool:
    """A necessary condition for a legal win: ``counts`` (34-count vector of the concealed
    tiles *with* the winning tile) and ``melds`` declared sets make 14 tiles and some enabled
    shape when ``wild`` (n of each jing kind ``jing``, dense indices; empty without jing) are
    all wild. False → :func:`~replayer.rules.nanchang.evaluate.evaluate` finds no shape.
    Stricter options (``honor_chi``, ``pair_258``) are not applied: a superset stays a
    necessary condition."""
    if sum(counts) + 3 * melds != 14:
        return False
    if any(wild):
        c = list(counts)
        for j, n in zip(jing, wild):
            c[j] -= n
        counts = tuple(c)
    w = sum(wild)
    if standard_ok(counts, w):
        return True  # 大七对 (pungs only) is one division of the standard shape
    return melds == 0 and _irregular_ok(counts, w, options)


def could_win_any_jing(counts: tuple[int, ...], melds: int, options: NanchangOptions) -> bool:
    """:func:`could_win_shape` for an unknown indicator: True when under some indicator
    (every held jing wild, 正精 and 副精) the hand reaches a shape — never False for a hand
    that :func:`~replayer.rules.nanchang.evaluate.evaluate` finds legal under any indicator
    and any ``jing_mode`` (successor-only jing are a subset; ``none`` is checked without)."""
    if sum(counts) + 3 * melds != 14:
        return False
    if options.jing_mode == "none":
        return could_win_shape(tuple(counts), (), (), melds, options)
    if options.jiuyao_factor is not None and melds == 0 and \
            sum(1 for i in range(34) if counts[i] and i not in _shapes.THIRTEEN_ORPHANS) <= 2:
        return True  # 九幺 with its non-orphan kinds as wild jing (checked exactly by evaluate)
    return _any_jing(tuple(counts), melds == 0, options.shisanlan or options.lanhu)


@lru_cache(maxsize=1 << 16)
def _any_jing(counts: tuple[int, ...], concealed_only: bool, shisanlan: bool) -> bool:
    needs = _needs(counts)
    sets = sum(s for s, _ in needs)
    # the pair in block b, given sets everywhere: sets + pair_over[b]; best_other[b]: in another block
    pair_over = [p - s for s, p in needs]
    best_other = [min(pair_over[i] for i in range(len(BLOCKS)) if i != b) for b in range(len(BLOCKS))]
    odd = sum(n & 1 for n in counts)
    multi = [i for i in range(34) if counts[i] > 1]  # 十三烂 holds at most one of a kind
    for j1 in range(34):  # each indicator: its jing pair lies in one block
        j2 = _SUCC[j1]
        a, b = counts[j1], counts[j2]
        w = a + b
        if w == 0:
            if j1:
                continue  # the no-wild reading: checked once, at j1 = 0
            nb = needs[0]
            blk = 0
        else:
            blk = _BLOCK_OF[j1]
            lo, hi = BLOCKS[blk]
            part = list(counts[lo:hi])
            part[j1 - lo] = 0
            part[j2 - lo] = 0
            nb = _block_needs(blk, tuple(part))
        base = sets - needs[blk][0] + nb[0]
        if base + min(nb[1] - nb[0], best_other[blk]) <= w:
            return True
        if not concealed_only:
            continue
        if odd - (a & 1) - (b & 1) <= w:
            return True  # 小七对: the jing fill the odd kinds (14 tiles are checked by the caller)
        if shisanlan and all(i in (j1, j2) for i in multi):
            real = list(counts)
            real[j1] = 0
            real[j2] = 0
            if _shapes.rotten_fill(tuple(real), w) is not None:
                return True
    return False


def clear_caches() -> None:
    """Forget the memoised block needs and hand checks (cold-cache benchmarks)."""
    _block_needs.cache_clear()
    _any_jing.cache_clear()
