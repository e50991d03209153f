"""Decomposition of a hand into sets and a pair, and the waits of a hand.

Shared by every ruleset (shared/DESIGN.md §6 "shared mechanisms"). A hand is a count vector
of length 34 over dense tile indices (``W1`` = 0 … ``J3`` = 33, see :mod:`eventlog.tiles`),
always passed as a *tuple* so results can be memoised on it.

A *set* is a chow (three consecutive tiles of one suit) or a pung (three identical tiles);
a winning regular hand is ``n`` sets and one pair. Parameters that other rulesets need:

- ``honor_chows``: also accept "chows" of three different winds and of the three dragons
  中发白 (Nanchang, shared/rules/nanchang.md).
- ``honor_chows`` may also be a tuple of the honor triples allowed as chows (dense indices,
  ascending), e.g. :data:`ORDERED_HONOR_CHOWS` (only 东南西, 南西北 and 中发白; Ganzhou,
  shared/rules/jiangxi_variants.md §3); ``True`` is every three different winds and 中发白.
- ``pair_tiles``: the tile kinds the pair may be (None: any), e.g. :data:`PAIR_258` (the
  将 must be a suited 2, 5 or 8: Pingxiang 258, Changsha); a wild may stand for one.
- ``wildcards``: number of wild tiles (Nanchang 精) that may stand for any tile. ``counts``
  then holds only the real tiles. A wildcard inside a set is listed in ``Group.wild`` as the
  tile it stands for; a set or pair made of wildcards only has kind ``"wild_set"`` /
  ``"wild_pair"`` and no tiles (it can be any set or pair).

Results list divisions in one fixed order: sets sorted by their tiles, divisions sorted by
their sequence of sets (lexicographic, a pung of ``t`` before the chow starting at ``t``).
That is the order in which the MCR reference calculator meets them, which decides ties.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import chain, combinations, combinations_with_replacement, product
from operator import mul
from threading import Lock
from typing import NamedTuple

__all__ = [
    "Group",
    "Division",
    "decompose",
    "is_complete",
    "waits",
    "seven_pairs_waits",
    "can_complete",
    "first_division",
    "NUM_KINDS",
    "PAIR_258",
    "ORDERED_HONOR_CHOWS",
    "HonorChows",
]

NUM_KINDS = 34
#: Suited 2, 5 and 8 of every suit (dense indices): the pair of a 258 hand (将).
PAIR_258: tuple[int, ...] = tuple(9 * s + r for s in range(3) for r in (1, 4, 7))
#: Honor chows in order only: 东南西, 南西北 (no wrap) and 中发白.
ORDERED_HONOR_CHOWS: tuple[tuple[int, int, int], ...] = ((27, 28, 29), (28, 29, 30), (31, 32, 33))
#: ``honor_chows``: False (none), True (any three different winds, 中发白) or the allowed triples.
HonorChows = bool | tuple[tuple[int, int, int], ...]
_WINDS = (27, 28, 29, 30)
_DRAGONS = (31, 32, 33)


class Group(NamedTuple):
    """One set or the pair. ``tiles`` are dense indices in ascending order.

    ``kind`` is ``"chow"``, ``"pung"`` or ``"pair"``; ``wild`` lists the tiles of ``tiles``
    that wildcards stand for (always empty without wildcards)."""

    kind: str
    tiles: tuple[int, ...]
    wild: tuple[int, ...] = ()


class Division(NamedTuple):
    """A regular winning shape: ``sets`` (ascending by tiles) and the ``pair``."""

    sets: tuple[Group, ...]
    pair: Group


def _pung(t: int) -> Group:
    return Group("pung", (t, t, t))


def _chow(t: int) -> Group:
    return Group("chow", (t, t + 1, t + 2))


# --- per-block decomposition -------------------------------------------------------------
# A hand splits into independent blocks: each suit (9 kinds), the winds, the dragons.
# Each block's decompositions are memoised on its own small count tuple.


# --- which suit blocks are complete: a table ------------------------------------------------
# Every way to lay out at most four sets in one suit is enumerated once (3,406 blocks, ~3 ms),
# keyed by the block's counts packed a byte a rank. As in :func:`_numbered_block`, a kind
# makes at most one pung (six copies of a kind are not two pungs: counts above four only
# occur in structural wait checks). A block of 3n tiles (n <= 4) is all sets exactly when its
# key is there. A block of 3n + 2 tiles is sets and a pair when taking the pair away leaves
# a key that is there; the pair's rank r is fixed modulo 3, since every set's ranks sum to a
# multiple of 3: sum(rank * count) = 2r (mod 3), so at most three ranks are tried. Blocks of
# more than 14 tiles are enumerated as before.

_SUIT_TABLE_MAX = 14  # 4 sets + a pair
_NOT_COMPLETE = (False, False)
_ALL_SETS = (True, False)
_SETS_AND_PAIR = (False, True)
_suit_table: frozenset[int] | None = None
_suit_table_lock = Lock()
#: the key of one more copy of rank r
_ONE_MORE = tuple(1 << 8 * r for r in range(9))
#: rank index modulo 3
_RESIDUE = (0, 1, 2, 0, 1, 2, 0, 1, 2)


def _suit_key(counts: Sequence[int]) -> int:
    """The counts of one suit packed a byte a rank (rank 1 lowest). Raises ValueError for a
    count outside 0..255."""
    return int.from_bytes(bytes(counts), "little")


def _complete_suits() -> frozenset[int]:
    """Keys of the suit blocks that are 0-4 sets (no pair). Built once, under a lock (the
    gRPC server scores from a thread pool); never changed afterwards."""
    global _suit_table
    table = _suit_table
    if table is None:
        with _suit_table_lock:
            if _suit_table is None:
                _suit_table = frozenset(
                    sum(3 << 8 * r for r in pungs) + sum(0x010101 << 8 * r for r in chows)
                    for n in range(5) for k in range(n + 1)
                    for pungs in combinations(range(9), k)
                    for chows in combinations_with_replacement(range(7), n - k)
                )
            table = _suit_table
    return table


def _pair_ranks(counts: Sequence[int], extra: int = -1) -> tuple[int, int, int]:
    """The ranks (0-based) the pair of ``counts`` (plus one copy of rank ``extra``) can have
    if it is sets and a pair: those congruent to 2 * sum(rank * count) modulo 3."""
    w = sum(map(mul, counts, _RESIDUE)) + (_RESIDUE[extra] if extra >= 0 else 0)
    r = 2 * w % 3
    return (r, r + 3, r + 6)


def _suit_status_of(key: int, counts: Sequence[int], total: int) -> tuple[bool, bool]:
    """(can be all sets, can be sets + one pair) of one suit of at most 14 tiles: ``key``
    its :func:`_suit_key`, ``total`` its number of tiles."""
    sets = _complete_suits()
    left = total % 3
    if left == 0:
        return _ALL_SETS if key in sets else _NOT_COMPLETE
    if left == 2:
        for r in _pair_ranks(counts):
            if counts[r] >= 2 and key - (2 << 8 * r) in sets:
                return _SETS_AND_PAIR
    return _NOT_COMPLETE


def _suit_status(counts: Sequence[int]) -> tuple[bool, bool] | None:
    """(can be all sets, can be sets + one pair) of one suit's counts from the table, None
    when the table does not cover them (more than 14 tiles, a negative count)."""
    total = sum(counts)
    if total > _SUIT_TABLE_MAX:
        return None
    try:
        key = _suit_key(counts)
    except ValueError:
        return None
    return _suit_status_of(key, counts, total)


@lru_cache(maxsize=1 << 16)
def _numbered_block(counts: tuple[int, ...]) -> tuple[tuple[bool, tuple[tuple[str, int], ...]], ...]:
    """All ways to split one suit's 9 counts into sets and at most one pair.

    Returns ``(has_pair, groups)`` with groups as ``(kind, rank_index)``; chows are keyed by
    their lowest rank index. Branches whose remaining tiles the completion table says cannot
    be finished are not followed (the same splits, found in the same order)."""
    out: list[tuple[bool, tuple[tuple[str, int], ...]]] = []
    status = _suit_status(counts)
    if status == _NOT_COMPLETE:
        return ()
    _split_suit(list(counts), 0, False, [], out, status is not None)
    return tuple(out)


def _split_suit(c: list[int], i: int, pair: bool, acc: list[tuple[str, int]],
                out: list[tuple[bool, tuple[tuple[str, int], ...]]], prune: bool) -> None:
    """:func:`_numbered_block` from rank ``i`` on (a module function, not a closure: a
    recursive closure is a reference cycle left to the garbage collector)."""
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        out.append((pair, tuple(acc)))
        return
    n = c[i]
    # the copies of the lowest tile go to k chows starting here, maybe a pung, maybe the pair
    for pung in (0, 1):
        for pr in (0, 1):
            if pr and pair:
                continue
            k = n - 3 * pung - 2 * pr
            if k < 0:
                continue
            if k and (i > 6 or c[i + 1] < k or c[i + 2] < k):
                continue
            c[i] -= n
            if k:
                c[i + 1] -= k
                c[i + 2] -= k
            rest = _suit_status_of(_suit_key(c), c, sum(c)) if prune else (True, True)
            if rest[0] or (rest[1] and not (pr or pair)):  # else the rest cannot be finished
                added = [("pung", i)] * pung + [("chow", i)] * k + [("pair", i)] * pr
                acc.extend(added)
                _split_suit(c, i + 1, pair or bool(pr), acc, out, prune)
                del acc[len(acc) - len(added):]
            c[i] += n
            if k:
                c[i + 1] += k
                c[i + 2] += k


@lru_cache(maxsize=1 << 12)
def _honor_block(counts: tuple[int, ...], chows: bool) -> tuple[tuple[bool, tuple[tuple[str, tuple[int, ...]], ...]], ...]:
    """Split one honor block (winds or dragons) into pungs, at most one pair and — when
    ``chows`` — "chows" of three different tiles of the block (Nanchang 风/箭 chows)."""
    out: list[tuple[bool, tuple[tuple[str, tuple[int, ...]], ...]]] = []
    _split_honors(list(counts), False, [], (0, 0, 0), out, chows)
    return tuple(out)


def _split_honors(c: list[int], pair: bool, acc: list[tuple[str, tuple[int, ...]]], min_chow: tuple[int, ...],
                  out: list[tuple[bool, tuple[tuple[str, tuple[int, ...]], ...]]], chows: bool) -> None:
    """:func:`_honor_block` of what is left in ``c`` (a module function, not a closure)."""
    size = len(c)
    i = 0
    while i < size and c[i] == 0:
        i += 1
    if i == size:
        out.append((pair, tuple(acc)))
        return
    # honor chows first (lowest tile i is in one), in ascending order to avoid repeats
    if chows:
        for j in range(i + 1, size):
            for k in range(j + 1, size):
                key = (i, j, k)
                if c[j] and c[k] and key >= min_chow:
                    c[i] -= 1
                    c[j] -= 1
                    c[k] -= 1
                    acc.append(("chow", key))
                    _split_honors(c, pair, acc, key, out, chows)
                    acc.pop()
                    c[i] += 1
                    c[j] += 1
                    c[k] += 1
    n = c[i]
    if n in (2, 3, 5):
        for pung in (0, 1):
            for pr in (0, 1):
                if (pr and pair) or 3 * pung + 2 * pr != n:
                    continue
                c[i] = 0
                added = [("pung", (i, i, i))] * pung + [("pair", (i, i))] * pr
                acc.extend(added)
                _split_honors(c, pair or bool(pr), acc, (0, 0, 0), out, chows)
                del acc[len(acc) - len(added):]
                c[i] = n


_BlockParts = tuple[tuple[bool, tuple[Group, ...], Group | None], ...]


def _parts(groups_per_split) -> _BlockParts:
    """(has a pair, the sets sorted by tiles, the pair or None) of each split of a block."""
    out = []
    for has_pair, groups in groups_per_split:
        sets = sorted((g for g in groups if g.kind != "pair"), key=_tiles_of)
        pair = next((g for g in groups if g.kind == "pair"), None)
        out.append((has_pair, tuple(sets), pair))
    return tuple(out)


def _tiles_of(g: Group) -> tuple[int, ...]:
    return g.tiles


@lru_cache(maxsize=1 << 16)
def _block_groups_numbered(base: int, counts: tuple[int, ...]) -> _BlockParts:
    res = []
    for has_pair, groups in _numbered_block(counts):
        gs = []
        for kind, r in groups:
            t = base + r
            if kind == "pung":
                gs.append(_pung(t))
            elif kind == "chow":
                gs.append(_chow(t))
            else:
                gs.append(Group("pair", (t, t)))
        res.append((has_pair, gs))
    return _parts(res)


@lru_cache(maxsize=1 << 12)
def _block_groups_honor(base: int, counts: tuple[int, ...], chows: bool) -> _BlockParts:
    return _parts(
        (has_pair, [Group(kind, tuple(base + x for x in tiles)) for kind, tiles in groups])
        for has_pair, groups in _honor_block(counts, chows)
    )


@lru_cache(maxsize=1 << 16)
def decompose(counts: tuple[int, ...], *, wildcards: int = 0, honor_chows: HonorChows = False,
              pair_tiles: tuple[int, ...] | None = None) -> tuple[Division, ...]:
    """Every division of ``counts`` (a 34-tuple, 3n + 2 tiles) into n sets and one pair
    (a pair of a kind in ``pair_tiles`` when given; honor chows as ``honor_chows``).

    Returns an empty tuple when the tiles do not form a regular winning shape. Order: see the
    module docstring. With ``wildcards``, ``counts`` holds the real tiles only and wild
    positions are listed in ``Group.wild``. Raises :class:`ValueError` for a vector that is not
    34 long or negative wildcards."""
    if len(counts) != NUM_KINDS:
        raise ValueError(f"a count vector has 34 entries, got {len(counts)}")
    if wildcards < 0:
        raise ValueError(f"wildcards must be >= 0, got {wildcards}")
    if wildcards or isinstance(honor_chows, tuple):
        divs = _decompose_wild(counts, wildcards, honor_chows)
        return divs if pair_tiles is None else tuple(d for d in divs if _pair_ok(d.pair, pair_tiles))
    if sum(counts) % 3 != 2:
        return ()
    # Blocks without tiles add nothing; a block that cannot be completed ends the search (for
    # a suit, the completion table answers without enumerating). Within a block the sets are
    # sorted, and the blocks hold ascending tile ranges, so their concatenation is sorted.
    blocks = []
    for lo, hi, numbered in _BLOCKS:
        part = counts[lo:hi]
        if not any(part):
            continue
        parts = _block_groups_numbered(lo, part) if numbered else _block_groups_honor(lo, part, honor_chows)
        if not parts:
            return ()
        blocks.append(parts)
    out: list[Division] = []
    for combo in product(*blocks):
        pair: Group | None = None
        pairs = 0
        for has_pair, _, p in combo:
            if has_pair:
                pairs += 1
                pair = p
        if pairs != 1:
            continue
        assert pair is not None
        sets = combo[0][1] if len(combo) == 1 else tuple(chain.from_iterable(c[1] for c in combo))
        out.append(Division(sets, pair))
    if len(out) > 1:
        out.sort(key=_division_key)
    if pair_tiles is not None:
        out = [d for d in out if _pair_ok(d.pair, pair_tiles)]
    return tuple(out)


def _division_key(d: Division) -> tuple[tuple[int, ...], ...]:
    return tuple(g.tiles for g in d.sets)


def _pair_ok(pair: Group, pair_tiles: tuple[int, ...]) -> bool:
    return pair.kind == "wild_pair" or pair.tiles[0] in pair_tiles


_BLOCKS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 31, False), (31, 34, False))


@lru_cache(maxsize=1 << 16)
def _block_additions(counts: tuple[int, ...], numbered: bool, honor_chows: bool) -> tuple[tuple[int, tuple[bool, bool]], ...]:
    """For each tile x of the block: the block's completion status once x is added."""
    total = sum(counts)
    if numbered and 0 <= total < _SUIT_TABLE_MAX and min(counts) >= 0:
        # one tile more makes 3n (all sets), 3n + 2 (sets and a pair) or 3n + 1 (neither)
        sets = _complete_suits()
        key = _suit_key(counts)
        left = (total + 1) % 3
        if left == 0:
            return tuple((x, _ALL_SETS) for x, one in enumerate(_ONE_MORE) if key + one in sets)
        if left == 1:
            return ()
        found = []
        for x, one in enumerate(_ONE_MORE):
            with_x = key + one
            for r in _pair_ranks(counts, x):
                if counts[r] + (r == x) >= 2 and with_x - (2 << 8 * r) in sets:
                    found.append((x, _SETS_AND_PAIR))
                    break
        return tuple(found)
    out = []
    c = list(counts)
    for x in range(len(counts)):
        c[x] += 1
        st = _block_complete(tuple(c), numbered, honor_chows)
        c[x] -= 1
        if st[0] or st[1]:
            out.append((x, st))
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _block_complete(counts: tuple[int, ...], numbered: bool, honor_chows: bool) -> tuple[bool, bool]:
    """(can be all sets, can be sets + one pair) for one block."""
    if numbered and (st := _suit_status(counts)) is not None:
        return st
    if not any(counts):
        return (True, False)
    parts = _numbered_block(counts) if numbered else _honor_block(counts, honor_chows)
    return (any(not p for p, _ in parts), any(p for p, _ in parts))


def is_complete(counts: tuple[int, ...], *, wildcards: int = 0, honor_chows: HonorChows = False,
                pair_tiles: tuple[int, ...] | None = None) -> bool:
    """True when ``counts`` (3n + 2 tiles with the wildcards) is n sets and a pair (of a kind
    in ``pair_tiles`` when given). Counts above 4 are allowed (the check is structural),
    which is what wait computation needs."""
    if wildcards or pair_tiles is not None or isinstance(honor_chows, tuple):
        return can_complete(counts, wildcards=wildcards, honor_chows=honor_chows, pair_tiles=pair_tiles)
    if sum(counts) % 3 != 2:
        return False
    pairs = 0
    for lo, hi, numbered in ((0, 9, True), (9, 18, True), (18, 27, True), (27, 31, False), (31, 34, False)):
        block = counts[lo:hi]
        if not any(block):
            continue
        no_pair, with_pair = _block_complete(block, numbered, honor_chows)
        if no_pair:
            continue
        if with_pair:
            pairs += 1
            if pairs > 1:
                return False
            continue
        return False
    return pairs == 1


def seven_pairs_waits(counts: tuple[int, ...]) -> tuple[int, ...]:
    """Waits of a 13-tile hand for seven pairs; four identical tiles count as two pairs."""
    if sum(counts) != 13:
        return ()
    # 13 tiles hold six pairs exactly when one kind has an odd count
    if sum(map((1).__and__, counts)) != 1:
        return ()
    return tuple(i for i, c in enumerate(counts) if c % 2 == 1)


@lru_cache(maxsize=1 << 16)
def waits(counts: tuple[int, ...], *, seven_pairs: bool = True, wildcards: int = 0,
          honor_chows: HonorChows = False, pair_tiles: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """Tiles that complete ``counts`` (3n + 1 tiles with the wildcards) into a regular shape
    (its pair of a kind in ``pair_tiles`` when given) — or, with ``seven_pairs`` and 13 tiles
    without wildcards, into seven pairs (any pairs). Structural: a wait on a tile whose four
    copies are all in the hand still counts (as the MCR reference does)."""
    if wildcards or pair_tiles is not None or isinstance(honor_chows, tuple):
        c = list(counts)
        found = set()
        for x in range(NUM_KINDS):
            c[x] += 1
            if can_complete(tuple(c), wildcards=wildcards, honor_chows=honor_chows, pair_tiles=pair_tiles):
                found.add(x)
            c[x] -= 1
        if seven_pairs and not wildcards:
            found.update(seven_pairs_waits(counts))
        return tuple(sorted(found))
    # Block by block: adding x changes only x's block; the hand is complete when every block
    # is sets (+ at most one pair) and exactly one block holds the pair (as
    # _one_pair_possible, counted once for all blocks: ``must`` hold the pair, ``may`` hold it).
    status = [_block_complete(counts[lo:hi], numbered, honor_chows) for lo, hi, numbered in _BLOCKS]
    bad = must = may = 0
    for np, wp in status:
        if not np:
            if wp:
                must += 1
            else:
                bad += 1
        elif wp:
            may += 1
    hits: list[int] = []
    if bad <= 1:
        for b, (lo, hi, numbered) in enumerate(_BLOCKS):
            np, wp = status[b]
            if bad and (np or wp):
                continue  # another block cannot be completed
            additions = _block_additions(counts[lo:hi], numbered, honor_chows)
            if not additions:
                continue
            o_must = must - (wp and not np)
            o_may = may - (np and wp)
            for x, (nx, wx) in additions:
                m = o_must + (not nx)
                if m == 1 or (m == 0 and (o_may or wx)):
                    hits.append(lo + x)
    if seven_pairs:
        extra = seven_pairs_waits(counts)
        if extra:
            return tuple(sorted(set(hits).union(extra)))
    return tuple(hits)


# --- with wildcards -----------------------------------------------------------------------


def _groups_with(i: int, c: tuple[int, ...], honor_chows: HonorChows, pair_tiles: tuple[int, ...] | None = None):
    """Every set or pair holding one real copy of tile ``i`` (the lowest real tile left), with
    wildcards filling what is missing: yields ``(group, real tiles used)``."""
    for n_real in (3, 2, 1):
        if c[i] >= n_real:
            yield Group("pung", (i, i, i), (i,) * (3 - n_real)), (i,) * n_real
    if pair_tiles is None or i in pair_tiles:
        for n_real in (2, 1):
            if c[i] >= n_real:
                yield Group("pair", (i, i), (i,) * (2 - n_real)), (i,) * n_real
    if i < 27:
        r = i % 9
        for start in (i - 2, i - 1, i):
            if start < i - r or start + 2 > i - r + 8:
                continue
            yield from _fill((start, start + 1, start + 2), i, c, "chow")
    elif isinstance(honor_chows, tuple):
        for tiles in honor_chows:
            if i in tiles:
                yield from _fill(tiles, i, c, "chow")
    elif honor_chows:
        block = range(27, 31) if i < 31 else range(31, 34)
        for a in block:
            for b in block:
                if i < a < b or a < i < b or a < b < i:
                    lo, mid, hi = sorted((i, a, b))
                    yield from _fill((lo, mid, hi), i, c, "chow")


def _fill(tiles: tuple[int, int, int], i: int, c: tuple[int, ...], kind: str):
    """Ways to make ``tiles`` from real copies (only tiles above ``i``, and ``i`` itself) and
    wildcards."""
    others = [t for t in tiles if t != i]
    for mask in range(4):
        real = [i]
        wild = []
        ok = True
        for k, t in enumerate(others):
            if mask >> k & 1:
                if t < i or c[t] < 1 + real.count(t):
                    ok = False
                    break
                real.append(t)
            else:
                wild.append(t)
        if ok:
            yield Group(kind, tiles, tuple(wild)), tuple(real)


@lru_cache(maxsize=1 << 16)
def _wild_split(counts: tuple[int, ...], wild: int, need_pair: bool, honor_chows: HonorChows) -> frozenset:
    i = next((t for t, n in enumerate(counts) if n), -1)
    if i < 0:
        # what is left are wildcards only
        rest = wild - 2 if need_pair else wild
        if rest < 0 or rest % 3:
            return frozenset()
        groups = (Group("wild_set", ()),) * (rest // 3) + ((Group("wild_pair", ()),) if need_pair else ())
        return frozenset({groups})
    out = set()
    for group, real in _groups_with(i, counts, honor_chows):
        used = len(group.wild)
        if used > wild or (group.kind == "pair" and not need_pair):
            continue
        c = list(counts)
        for t in real:
            c[t] -= 1
        for rest in _wild_split(tuple(c), wild - used, need_pair and group.kind != "pair", honor_chows):
            out.add(tuple(sorted((group, *rest), key=_group_key)))
    return frozenset(out)


def _group_key(g: Group):
    return (g.kind in ("wild_set", "wild_pair"), g.tiles, g.kind, g.wild)


def _decompose_wild(counts: tuple[int, ...], wild: int, honor_chows: HonorChows) -> tuple[Division, ...]:
    if (sum(counts) + wild) % 3 != 2:
        return ()
    out = []
    for groups in _wild_split(counts, wild, True, honor_chows):
        pair = next(g for g in groups if g.kind in ("pair", "wild_pair"))
        sets = tuple(g for g in groups if g is not pair)
        out.append(Division(sets, pair))
    out.sort(key=lambda d: (tuple(_group_key(g) for g in d.sets), _group_key(d.pair)))
    return tuple(out)


# --- feasibility only (no enumeration) ------------------------------------------------------


def can_complete(counts: tuple[int, ...], *, wildcards: int = 0, pair: bool = True,
                 honor_chows: HonorChows = False, chows: bool = True,
                 pair_tiles: tuple[int, ...] | None = None) -> bool:
    """True when ``counts`` (a 34-tuple of real tiles) plus ``wildcards`` wild tiles split into
    sets and — when ``pair`` — exactly one pair (``pair=False``: sets only, 3n tiles).

    ``chows=False`` allows pungs only (Nanchang 大七对 / 碰碰胡); ``honor_chows`` also takes three
    different winds or 中发白 as a chow (shared/rules/nanchang.md §5.2). A wildcard may stand
    for any tile, also one with four real copies in ``counts`` (the check is structural).
    Memoised on its arguments; the answer equals ``bool(decompose(...))`` for ``pair=True,
    chows=True``. ``pair_tiles``: the kinds the pair may be (a wild may stand for one).
    Raises ValueError for a vector that is not 34 long or negative wildcards."""
    if len(counts) != NUM_KINDS:
        raise ValueError(f"a count vector has 34 entries, got {len(counts)}")
    if wildcards < 0:
        raise ValueError(f"wildcards must be >= 0, got {wildcards}")
    if (sum(counts) + wildcards) % 3 != (2 if pair else 0):
        return False
    return _feasible(tuple(counts), wildcards, pair, honor_chows, chows, pair_tiles)


@lru_cache(maxsize=1 << 18)
def _feasible(counts: tuple[int, ...], wild: int, need_pair: bool, honor_chows: HonorChows, chows: bool,
              pair_tiles: tuple[int, ...] | None = None) -> bool:
    i = next((t for t, n in enumerate(counts) if n), -1)
    if i < 0:
        rest = wild - 2 if need_pair else wild
        return rest >= 0 and rest % 3 == 0 and (not need_pair or pair_tiles is None or bool(pair_tiles))
    for group, real in _groups_with(i, counts, honor_chows if chows else False, pair_tiles):
        if group.kind == "chow" and not chows:
            continue
        used = len(group.wild)
        if used > wild or (group.kind == "pair" and not need_pair):
            continue
        c = list(counts)
        for t in real:
            c[t] -= 1
        if _feasible(tuple(c), wild - used, need_pair and group.kind != "pair", honor_chows, chows, pair_tiles):
            return True
    return False


def first_division(counts: tuple[int, ...], *, wildcards: int = 0, honor_chows: HonorChows = False,
                   chows: bool = True, pair_tiles: tuple[int, ...] | None = None) -> Division | None:
    """One division of ``counts`` + ``wildcards`` into sets and a pair (pungs only when
    ``chows`` is False), found without enumerating them all: each step keeps the first group
    that :func:`can_complete` says can be finished. Wild-only sets / pairs have kind
    ``"wild_set"`` / ``"wild_pair"``. None when there is none."""
    if not can_complete(counts, wildcards=wildcards, honor_chows=honor_chows, chows=chows, pair_tiles=pair_tiles):
        return None
    groups: list[Group] = []
    c, wild, need_pair = tuple(counts), wildcards, True
    while True:
        i = next((t for t, n in enumerate(c) if n), -1)
        if i < 0:
            rest = wild - 2 if need_pair else wild
            groups += [Group("wild_set", ())] * (rest // 3)
            if need_pair:
                groups.append(Group("wild_pair", ()))
            break
        for group, real in _groups_with(i, c, honor_chows if chows else False, pair_tiles):
            used = len(group.wild)
            if (group.kind == "chow" and not chows) or used > wild or (group.kind == "pair" and not need_pair):
                continue
            nxt = list(c)
            for t in real:
                nxt[t] -= 1
            np = need_pair and group.kind != "pair"
            if _feasible(tuple(nxt), wild - used, np, honor_chows, chows, pair_tiles):
                groups.append(group)
                c, wild, need_pair = tuple(nxt), wild - used, np
                break
        else:  # pragma: no cover - can_complete said yes
            raise AssertionError("no group although the hand can be completed")
    pair = next(g for g in groups if g.kind in ("pair", "wild_pair"))
    sets = tuple(sorted((g for g in groups if g is not pair), key=_group_key))
    return Division(sets, pair)
