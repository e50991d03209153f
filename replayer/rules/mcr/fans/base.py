"""The fan record and the frozen win context its predicate reads.

A fan is one small record (shared/STYLE.md): id, English and Chinese name, points, the fans it
excludes (不计) as data, and ``count(ctx)`` — how many times it counts on one reading of the
hand (0 = not at all). ``on(ctx)`` says which tiles it was counted on, for dispute review; it
is only called for the reading that wins.

Tiles inside a context are dense indices (``W1`` = 0 … ``J3`` = 33, :mod:`eventlog.tiles`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, repeat
from typing import NamedTuple, Union

from eventlog.tiles import PLAYING_TILES

#: An exclusion: a fan id (not counted at all) or ``(fan id, n)`` (n instances not counted,
#: e.g. Nine Gates 不计 one Pung of Terminals or Honors).
Exclusion = Union[str, tuple[str, int]]

Tiles = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Fan:
    """One MCR fan. ``number`` is its row in the reference table (tests/data/mcr/README.md),
    which is also the order of :attr:`FanResult.fans`. ``residual`` marks Chicken Hand, which
    counts only when nothing else does (flowers aside)."""

    number: int
    id: str
    name_en: str
    name_zh: str
    points: int
    count: Callable[["WinContext"], int]
    on: Callable[["WinContext"], Tiles]
    excludes: tuple[Exclusion, ...] = ()
    residual: bool = False
    #: True when ``count`` only reads the set-combination allocation (``ctx.combos``); the
    #: calculator then takes the count from that allocation directly (same result, faster).
    combination: bool = False
    #: The :class:`WinContext` fields ``count`` reads, when it reads only a few: the calculator
    #: then memoises the fan per value of those fields (one of the ``ON_*`` tuples below, so
    #: that fans reading the same fields are looked up together). ``None``: ``count`` is called
    #: on every reading.
    reads: tuple[str, ...] | None = None


#: Field groups for :attr:`Fan.reads`. A fan may name a group wider than what it reads.
ON_TILES = ("facts", "shape", "detail", "knitted")  # which tile kinds occur, and the shape
ON_PUNGS = ("shape", "pungs", "pair", "seat_wind", "prevalent_wind")  # pungs, pair and winds
ON_WIN = ("self_drawn", "last_of_wall", "kong_win", "open_melds", "last_tile", "wait",  # how it was won,
          "melded_kongs", "concealed_kongs", "concealed_pungs", "kong_fan")  # kongs, concealed pungs


class Facts(NamedTuple):
    """Properties of the set of tile kinds in a hand (hand, melds and winning tile)."""

    suits: int  # how many of the three suits occur
    has_honors: bool
    has_winds: bool
    has_dragons: bool
    all_simples: bool
    all_reversible: bool
    all_green: bool
    all_honors: bool
    all_terminals: bool
    all_terminals_or_honors: bool
    rank_range: str | None  # "lower_four" | "lower_tiles" | "upper_four" | "upper_tiles" | "middle_tiles"


_TERMINALS = frozenset({0, 8, 9, 17, 18, 26})
_GREEN = frozenset({10, 11, 12, 14, 16, 32})  # T2 T3 T4 T6 T8 發
# 推不倒: dots 1234589, bamboo 245689, White dragon
_REVERSIBLE = frozenset({18, 19, 20, 21, 22, 25, 26, 10, 12, 13, 14, 16, 17, 33})


def _mask(kinds) -> int:
    return sum(1 << t for t in kinds)


_SUIT_MASKS = tuple(0x1FF << 9 * s for s in range(3))
_WINDS_MASK = _mask(range(27, 31))
_DRAGONS_MASK = _mask(range(31, 34))
_SIMPLES_MASK = _mask(t for t in range(27) if t not in _TERMINALS)
_REVERSIBLE_MASK = _mask(_REVERSIBLE)
_GREEN_MASK = _mask(_GREEN)
_TERMINALS_MASK = _mask(_TERMINALS)
_TERMINALS_OR_HONORS_MASK = _TERMINALS_MASK | _WINDS_MASK | _DRAGONS_MASK


def facts_of(kinds: frozenset[int]) -> Facts:
    """:class:`Facts` for a set of tile kinds."""
    return facts_of_mask(_mask(kinds))


def _rank_range(ranks: int) -> str | None:
    """The rank range of a hand without honors whose ranks are the bits of ``ranks``."""
    if not ranks:
        return None
    low, high = (ranks & -ranks).bit_length(), ranks.bit_length()  # lowest, highest rank
    if high <= 4:
        return "lower_four" if ranks & 1 << 3 else "lower_tiles"
    if low >= 6:
        return "upper_four" if ranks & 1 << 5 else "upper_tiles"
    if low >= 4 and high <= 6:
        return "middle_tiles"
    return None


#: rank bits (bit r - 1 for rank r) -> rank range, for the 512 sets of ranks
_RANK_RANGES = tuple(_rank_range(ranks) for ranks in range(512))
_SUIT_MASK_0, _SUIT_MASK_1, _SUIT_MASK_2 = _SUIT_MASKS
_new_facts = tuple.__new__


@lru_cache(maxsize=1 << 14)
def facts_of_mask(mask: int) -> Facts:
    """:class:`Facts` for a set of tile kinds given as a bit mask (bit ``t`` for tile kind
    ``t``), memoised."""
    numbered = mask & 0x7FFFFFF  # bits 0..26
    has_honors = numbered != mask
    return _new_facts(Facts, (
        (numbered & _SUIT_MASK_0 != 0) + (numbered & _SUIT_MASK_1 != 0) + (numbered & _SUIT_MASK_2 != 0),
        has_honors,
        mask & _WINDS_MASK != 0,
        mask & _DRAGONS_MASK != 0,
        not mask & ~_SIMPLES_MASK,
        not mask & ~_REVERSIBLE_MASK,
        not mask & ~_GREEN_MASK,
        not numbered,
        not mask & ~_TERMINALS_MASK,
        not mask & ~_TERMINALS_OR_HONORS_MASK,
        None if has_honors else _RANK_RANGES[(numbered | numbered >> 9 | numbered >> 18) & 0x1FF],
    ))


class WinContext(NamedTuple):
    """One reading of a winning hand, frozen. Built by :mod:`.context`.

    ``shape``: ``"regular"`` (sets + pair), ``"seven_pairs"``, ``"thirteen_orphans"``,
    ``"honors_knitted"`` or ``"knitted_straight"`` (组合龙 + one set + pair).
    Sets are ``(kind, tiles)`` with kind ``chow``/``pung``/``kong`` and sorted dense tiles.
    """

    shape: str
    facts: Facts
    counts: tuple[int, ...]  # every tile of the hand (a kong counts 4)
    win: int
    sets: tuple[tuple[str, tuple[int, ...]], ...]
    chows: tuple[int, ...]  # lowest tile of each chow, sorted
    pungs: tuple[int, ...]  # tile of each pung or kong, sorted
    pair: int  # -1 without a pair
    melded_kongs: int
    concealed_kongs: int
    concealed_pungs: int  # concealed pungs and kongs (暗刻), after a discard win is applied
    open_melds: int  # declared melds other than concealed kongs
    combos: tuple[tuple[str, tuple[tuple[int, ...], ...]], ...]  # set-combination fans found
    wait: str | None  # "edge" | "closed" | "single" | None
    self_drawn: bool
    last_tile: bool
    kong_win: bool  # replacement tile (self-drawn) or robbing a kong (discard)
    last_of_wall: bool
    seat_wind: int  # dense index F1..F4
    prevalent_wind: int
    flowers: int
    detail: str  # shape detail: "shifted" seven pairs, "greater"/"lesser" honors-knitted, "nine_gates"
    knitted: tuple[int, ...]  # the knitted straight's nine tiles, if any
    kong_fan: str  # options.concealed_and_melded_kong
    concealed_sets: tuple[tuple[int, ...], ...] = ()  # tiles of each concealed pung or kong (暗刻)
    concealed_kong_sets: tuple[tuple[int, ...], ...] = ()  # tiles of each concealed kong (暗杠)


def _codes(tiles) -> tuple[str, ...]:
    return tuple(map(PLAYING_TILES.__getitem__, tiles))


#: The codes of every tile, chow, pung, kong and pair, by its dense tiles.
_SET_CODES: dict[tuple[int, ...], tuple[str, ...]] = {}
for _t in range(34):
    for _n in (1, 2, 3, 4):
        _SET_CODES[(_t,) * _n] = _codes((_t,) * _n)
    if _t < 27 and _t % 9 <= 6:
        _SET_CODES[(_t, _t + 1, _t + 2)] = _codes((_t, _t + 1, _t + 2))


def codes(tiles: tuple[int, ...]) -> tuple[str, ...]:
    """Dense indices → canonical codes (a tile, set or pair from a table)."""
    known = _SET_CODES.get(tiles)
    return known if known is not None else _codes(tiles)


def all_tiles(ctx: WinContext) -> Tiles:
    """The whole hand as one group (for fans about every tile)."""
    return _all_tiles(ctx.counts)


_BLOCK_RANGES = ((0, 9), (9, 18), (18, 27), (27, 31), (31, 34))


@lru_cache(maxsize=1 << 12)
def _all_tiles(counts: tuple[int, ...]) -> Tiles:
    tiles: tuple[str, ...] = ()
    for lo, hi in _BLOCK_RANGES:  # a suit, the winds, the dragons
        part = counts[lo:hi]
        if any(part):
            tiles += _block_codes(lo, part)
    return (tiles,)


@lru_cache(maxsize=1 << 14)
def _block_codes(lo: int, part: tuple[int, ...]) -> tuple[str, ...]:
    """The codes of one block's tiles (``part``: its counts from kind ``lo``), in order."""
    return tuple(chain.from_iterable(map(repeat, PLAYING_TILES[lo:lo + len(part)], part)))


def win_tile(ctx: WinContext) -> Tiles:
    return ((PLAYING_TILES[ctx.win],),)


def no_tiles(ctx: WinContext) -> Tiles:
    return ()


def combo_count(fan_id: str) -> Callable[[WinContext], int]:
    """Predicate: how many times the set-combination allocation (:mod:`.combine`) gave ``fan_id``."""

    def count(ctx: WinContext) -> int:
        return sum(1 for fid, _ in ctx.combos if fid == fan_id)

    return count


def combo_tiles(fan_id: str) -> Callable[[WinContext], Tiles]:
    def on(ctx: WinContext) -> Tiles:
        return tuple([tuple(chain.from_iterable(map(_SET_CODES.__getitem__, sets)))
                      for fid, sets in ctx.combos if fid == fan_id])

    return on


def sets_where(pred: Callable[[str, tuple[int, ...]], bool]) -> Callable[[WinContext], Tiles]:
    """``on`` function listing the sets that satisfy ``pred(kind, tiles)``."""

    def on(ctx: WinContext) -> Tiles:
        return tuple([_SET_CODES[tiles] for kind, tiles in ctx.sets if pred(kind, tiles)])

    return on
