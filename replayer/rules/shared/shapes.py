"""Irregular winning shapes on 34-count vectors: seven pairs, thirteen orphans, knitted tiles.

Definitions follow the MCR fan table (shared/rules/competition.md Part B3; 七对 19,
十三幺 7, 组合龙 35, 全不靠 34, 七星不靠 20) and are shared so that other rulesets that know
these shapes (e.g. seven pairs in Sichuan/Changsha) test them the same way.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

__all__ = [
    "KNITTED_STRAIGHTS",
    "THIRTEEN_ORPHANS",
    "is_seven_pairs",
    "seven_shifted_pairs_suit",
    "is_thirteen_orphans",
    "knitted_straight_in",
    "honors_and_knitted",
    "seven_pairs_fill",
    "thirteen_orphans_fill",
    "ROTTEN_RANK_SETS",
    "rotten_fill",
]

#: The six knitted straights (组合龙): 147, 258, 369 spread over the three suits, in the
#: order the MCR reference tries them (W147 T258 B369, W147 T369 B258, W258 T147 B369, …).
KNITTED_STRAIGHTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(9 * suit + r for suit, start in enumerate(starts) for r in (start, start + 3, start + 6)))
    for starts in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)

#: One of each terminal and honor (十三幺 needs all 13 plus a duplicate of one).
THIRTEEN_ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def is_seven_pairs(counts: tuple[int, ...]) -> bool:
    """14 tiles, every kind an even count (four identical tiles are two pairs)."""
    return sum(counts) == 14 and all(c % 2 == 0 for c in counts)


def seven_shifted_pairs_suit(counts: tuple[int, ...]) -> int | None:
    """The suit (0 W, 1 T, 2 B) of seven consecutive pairs of one suit (连七对), else None."""
    if not is_seven_pairs(counts):
        return None
    for suit in range(3):
        block = counts[9 * suit: 9 * suit + 9]
        for start in range(3):
            if all(block[start + k] == 2 for k in range(7)) and sum(block) == 14:
                return suit
    return None


def is_thirteen_orphans(counts: tuple[int, ...]) -> bool:
    """14 tiles: every terminal and honor, one of them twice, nothing else."""
    return sum(counts) == 14 and all(counts[t] >= 1 for t in THIRTEEN_ORPHANS) and all(
        counts[t] == 0 for t in range(34) if t not in THIRTEEN_ORPHANS
    )


@lru_cache(maxsize=1 << 14)
def knitted_straight_in(counts: tuple[int, ...]) -> tuple[int, ...] | None:
    """The first knitted straight (in :data:`KNITTED_STRAIGHTS` order) whose nine tiles are
    all present in ``counts``, or None."""
    for seq in KNITTED_STRAIGHTS:
        if all(counts[t] for t in seq):
            return seq
    return None


def honors_and_knitted(counts: tuple[int, ...]) -> str | None:
    """Classify 14 single tiles of knitted suits and distinct honors.

    Returns ``"greater"`` for 七星不靠 (all seven honors + seven knitted suit tiles),
    ``"lesser"`` for 全不靠 (5 or 6 honors, 8 or 9 knitted suit tiles), else None."""
    if sum(counts) != 14 or any(c > 1 for c in counts):
        return None
    numbered = tuple(t for t in range(27) if counts[t])
    if not 7 <= len(numbered) <= 9:
        return None
    if not any(set(numbered) <= set(seq) for seq in KNITTED_STRAIGHTS):
        return None
    honors = sum(counts[27:])
    return "greater" if honors == 7 else "lesser"


# --- shapes with wildcards (Nanchang 精, shared/rules/nanchang.md §6.3–6.5) -------------------


def seven_pairs_fill(counts: tuple[int, ...], wildcards: int = 0) -> tuple[int, ...] | None:
    """Seven pairs from the real tiles ``counts`` and ``wildcards`` wild tiles (14 in all),
    four identical tiles counting as two pairs. Returns the tiles the wildcards stand for
    (ascending; a pair of wildcards stands for a pair of the lowest tile kind absent from the
    hand), or None when no seven pairs can be made."""
    if sum(counts) + wildcards != 14:
        return None
    odd = [t for t, n in enumerate(counts) if n % 2]
    if len(odd) > wildcards:
        return None
    spare = wildcards - len(odd)  # even, since the total is 14
    absent = [t for t in range(34) if counts[t] == 0]
    stand = list(odd)
    for k in range(spare // 2):
        stand += [absent[k], absent[k]]
    return tuple(sorted(stand))


def thirteen_orphans_fill(counts: tuple[int, ...], wildcards: int = 0) -> tuple[int, ...] | None:
    """十三幺 / 九幺 (one of each terminal and honor plus one duplicate) from the real tiles
    ``counts`` and ``wildcards`` wild tiles, 14 in all (Shangrao 九幺,
    shared/rules/jiangxi_variants.md §11, §13.20). Returns the tiles the wildcards stand for
    (ascending; the missing kinds, then — when no real tile is doubled — a second copy of the
    first orphan), or None."""
    if sum(counts) + wildcards != 14:
        return None
    if any(counts[t] for t in range(34) if t not in THIRTEEN_ORPHANS):
        return None
    doubled = [t for t in THIRTEEN_ORPHANS if counts[t] >= 2]
    if len(doubled) > 1 or any(counts[t] > 2 for t in THIRTEEN_ORPHANS):
        return None
    missing = [t for t in THIRTEEN_ORPHANS if counts[t] == 0]
    stand = missing + ([] if doubled else [missing[0] if missing else THIRTEEN_ORPHANS[0]])
    if len(stand) != wildcards:
        return None
    return tuple(sorted(stand))


def _rotten(ranks: tuple[int, ...]) -> bool:
    return all(b - a >= 3 for a, b in zip(ranks, ranks[1:]))


#: Every set of ranks (0-based, ascending) of one suit in which any two differ by >= 3
#: (十三烂: 147, 148, 149, 158, 159, 169, 258, 259, 269, 369 and their subsets).
ROTTEN_RANK_SETS: tuple[tuple[int, ...], ...] = tuple(
    r for n in range(4) for r in combinations(range(9), n) if _rotten(r)
)


@lru_cache(maxsize=1 << 14)
def rotten_fill(counts: tuple[int, ...], wildcards: int = 0, *, min_honors: int = 0,
                wild_honors: bool = True) -> tuple[int, ...] | None:
    """十三烂 (thirteen rotten, shared/rules/nanchang.md §6.4) from real tiles ``counts`` and
    ``wildcards`` wild tiles, 14 in all: every honor at most once; within a suit any two
    ranks differ by >= 3. ``min_honors``: the hand must hold at least that many different
    honors (7 for 七星十三烂, §6.5); ``wild_honors=False``: wildcards may not stand for honors
    (option ``qixing_wild = suited_only``). Returns the tiles the wildcards stand for
    (ascending), or None."""
    if sum(counts) + wildcards != 14 or any(n > 1 for n in counts):
        return None
    suited_free: list[int] = []
    for suit in range(3):
        have = tuple(r for r in range(9) if counts[9 * suit + r])
        if not _rotten(have):
            return None
        best = max((r for r in ROTTEN_RANK_SETS if set(have) <= set(r)), key=len)
        suited_free += [9 * suit + r for r in best if r not in have]
    honor_free = [t for t in range(27, 34) if not counts[t]] if wild_honors else []
    need = max(0, min_honors - sum(counts[27:]))
    if need > len(honor_free) or need > wildcards:
        return None
    stand = honor_free[:need]
    pool = suited_free + honor_free[need:]
    if len(pool) < wildcards - need:
        return None
    return tuple(sorted(stand + pool[: wildcards - need]))
