"""From a :class:`~replayer.rules.mcr.situation.WinSituation` to the readings that can be
scored: one :class:`~.base.WinContext` per way of seeing the hand as a winning shape.

Everything here works on dense tile indices and count tuples; the decompositions and waits are
memoised in :mod:`replayer.rules.shared.decompose`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress
from typing import NamedTuple

from eventlog.errors import InvalidArgument
from eventlog import tiles as T
from replayer.rules.shared.decompose import decompose, waits
from replayer.rules.shared.shapes import (
    KNITTED_STRAIGHTS,
    honors_and_knitted,
    is_seven_pairs,
    is_thirteen_orphans,
    knitted_straight_in,
    seven_shifted_pairs_suit,
)

from ..options import McrOptions
from ..situation import WinSituation
from .base import Facts, WinContext, facts_of_mask
from .combine import chow_fans, pung_fans

_WIND = {"E": 27, "S": 28, "W": 29, "N": 30}


class McrInputError(InvalidArgument):
    """A win situation that is malformed (wrong tile count, bad meld, a fifth copy …)."""


class Hand(NamedTuple):
    """A situation in dense form, with the win flags corrected as the reference does, and what
    the declared melds give every reading."""

    standing: tuple[int, ...]  # concealed tiles incl. the winning tile
    melds: tuple[tuple[str, tuple[int, ...], bool], ...]  # (kind, tiles, concealed kong?)
    counts: tuple[int, ...]  # every tile, melds included (a kong counts 4)
    win: int
    self_drawn: bool
    last_tile: bool
    kong_win: bool
    last_of_wall: bool
    seat_wind: int
    prevalent_wind: int
    flowers: int
    facts: Facts  # of the tile kinds in counts
    meld_sets: tuple[tuple[str, tuple[int, ...]], ...]  # (kind, tiles) of the melds
    meld_chows: tuple[int, ...]  # lowest tile of each chow meld
    meld_pungs: tuple[int, ...]  # tile of each pung or kong meld
    melded_kongs: int
    concealed_kongs: int
    open_melds: int  # melds other than concealed kongs
    kinds: int  # the tile kinds in counts as a bit mask (bit t for kind t)
    concealed_kong_sets: tuple[tuple[int, ...], ...]  # tiles of each concealed kong (暗杠)


#: Builds a named tuple from a tuple of all its fields, without the keyword-handling constructor.
_new = tuple.__new__

_INDEX = {code: i for i, code in enumerate(T.PLAYING_TILES)}
_KINDS = range(34)
_BIT = tuple(1 << t for t in _KINDS)
#: Every well-formed meld written in ascending tile order: (type, codes) -> dense tiles.
_MELD_TILES: dict[tuple[str, tuple[str, ...]], tuple[int, ...]] = {}
for _t, _code in enumerate(T.PLAYING_TILES):
    _MELD_TILES["pung", (_code,) * 3] = (_t,) * 3
    _MELD_TILES["kong", (_code,) * 4] = (_t,) * 4
    if _t < 27 and _t % 9 <= 6:
        _MELD_TILES["chow", tuple(T.PLAYING_TILES[_t:_t + 3])] = (_t, _t + 1, _t + 2)


def _idx(tile: str, where: str) -> int:
    i = _INDEX.get(tile)
    if i is None:
        raise McrInputError(f"{where}: not a playing tile: {tile!r} (W1-9, T1-9, B1-9, F1-4, J1-3)")
    return i


def _meld_tiles(m, where: str) -> tuple[int, ...]:
    """The dense tiles of a declared meld, ascending; raises naming ``where``."""
    tiles = tuple(sorted(_idx(t, where) for t in m.tiles))
    if m.type == "chow":
        ok = len(tiles) == 3 and tiles[0] < 27 and tiles[0] % 9 <= 6 and tiles == (tiles[0], tiles[0] + 1, tiles[0] + 2)
    elif m.type == "pung":
        ok = len(tiles) == 3 and len(set(tiles)) == 1
    elif m.type == "kong":
        ok = len(tiles) == 4 and len(set(tiles)) == 1
    else:
        raise McrInputError(f"{where}: unknown meld type {m.type!r} (chow, pung, kong)")
    if not ok:
        raise McrInputError(f"{where}: {list(m.tiles)} is not a {m.type}")
    return tiles


def prepare(s: WinSituation) -> Hand:
    """Check ``s`` and put it in dense form. Raises :class:`McrInputError` naming the field."""
    melds = []
    standing = [0] * 34
    meld_chows: list[int] = []
    meld_pungs: list[int] = []
    melded_kongs = concealed_kongs = 0
    for n, m in enumerate(s.melds):
        kind = m.type
        tiles = _MELD_TILES.get((kind, tuple(m.tiles)))
        if tiles is None:  # written in another order, or malformed
            tiles = _meld_tiles(m, f"melds[{n}]")
        concealed = bool(m.concealed)
        if concealed and kind != "kong":
            raise McrInputError(f"melds[{n}]: only a kong can be concealed")
        melds.append((kind, tiles, concealed))
        if kind == "chow":
            meld_chows.append(tiles[0])
        else:
            meld_pungs.append(tiles[0])
            if kind == "kong":
                if concealed:
                    concealed_kongs += 1
                else:
                    melded_kongs += 1
    expected = 13 - 3 * len(s.melds)
    if len(s.hand) != expected:
        raise McrInputError(
            f"hand: {len(s.hand)} tiles with {len(s.melds)} melds, expected {expected} (without the winning tile)"
        )
    try:
        for t in map(_INDEX.__getitem__, s.hand):
            standing[t] += 1
    except KeyError:
        for tile in s.hand:
            _idx(tile, "hand")  # raises naming the tile
        raise
    win = _idx(s.win_tile, "win_tile")
    standing[win] += 1
    concealed_tiles = tuple(standing)
    if melds:
        for _, tiles, _ in melds:
            for t in tiles:
                standing[t] += 1
        counts = tuple(standing)  # now with the melds
    else:
        counts = concealed_tiles
    if max(counts) > 4:
        over = [T.PLAYING_TILES[i] for i, c in enumerate(counts) if c > 4]
        raise McrInputError(f"more than four copies of {', '.join(over)}")
    if s.seat_wind not in _WIND or s.prevalent_wind not in _WIND:
        raise McrInputError(f"winds must be E, S, W or N: seat {s.seat_wind!r}, prevalent {s.prevalent_wind!r}")
    if not 0 <= s.flowers <= 8:
        raise McrInputError(f"flowers: {s.flowers} (0..8)")

    # Flag corrections (README "Flags as generated"): a held copy of the winning tile rules out
    # 和绝张; three copies in melds make it the fourth; no kong → no replacement-tile win; a
    # robbed tile cannot be held.
    held_win = concealed_tiles[win]
    fixed_win = counts[win] - held_win  # in melds: a chow holds one copy, a pung three, a kong four
    last_tile = s.last_tile
    if held_win != 1:
        last_tile = False
    if fixed_win == 3:
        last_tile = True
    kong_win = s.kong_related
    if kong_win:
        if s.self_drawn:
            kong_win = any(kind == "kong" for kind, _, _ in melds)
        else:
            kong_win = fixed_win == 0 and held_win == 1
    if melds:
        meld_sets = tuple([(kind, tiles) for kind, tiles, _ in melds])
        meld_chows_t, meld_pungs_t = tuple(meld_chows), tuple(meld_pungs)
    else:
        meld_sets = meld_chows_t = meld_pungs_t = ()
    kinds = sum(map(_BIT.__getitem__, compress(_KINDS, counts)))
    return _new(Hand, (
        concealed_tiles, tuple(melds), counts, win, s.self_drawn, last_tile, kong_win,
        s.last_of_wall, _WIND[s.seat_wind], _WIND[s.prevalent_wind], s.flowers,
        facts_of_mask(kinds), meld_sets, meld_chows_t, meld_pungs_t, melded_kongs, concealed_kongs,
        len(melds) - concealed_kongs, kinds,
        tuple([tiles for kind, tiles, concealed in melds if concealed]) if concealed_kongs else (),
    ))


def _context(hand: Hand, options: McrOptions, shape: str, sets, pair: int, wait: str | None,
             detail: str = "", knitted: tuple[int, ...] = (), chows: tuple[int, ...] | None = None,
             pungs: tuple[int, ...] | None = None, concealed_pungs: int = 0,
             concealed_sets: tuple[tuple[int, ...], ...] = ()) -> WinContext:
    if chows is None or pungs is None:
        chows = tuple(sorted(tiles[0] for kind, tiles in sets if kind == "chow"))
        pungs = tuple(sorted(tiles[0] for kind, tiles in sets if kind != "chow"))
    combos = chow_fans(chows, pair, options.fan_table) if len(chows) >= 2 else ()
    if len(pungs) >= 2:
        combos += pung_fans(pungs, options.fan_table)
    return _new(WinContext, (
        shape, hand.facts, hand.counts, hand.win, tuple(sets), chows, pungs, pair,
        hand.melded_kongs, hand.concealed_kongs, concealed_pungs, hand.open_melds,
        combos, wait, hand.self_drawn, hand.last_tile,
        hand.kong_win, hand.last_of_wall, hand.seat_wind, hand.prevalent_wind, hand.flowers,
        detail, knitted, options.concealed_and_melded_kong, concealed_sets, hand.concealed_kong_sets,
    ))


def _wait_position(groups, win: int) -> str | None:
    """Where the winning tile sits among the concealed groups: edge before closed before single."""
    edge = closed = single = False
    for kind, tiles in groups:
        if kind == "chow":
            if tiles[1] == win:
                closed = True
            elif win in tiles:
                edge = True
        elif kind == "pair" and tiles[0] == win:
            single = True
    return "edge" if edge else "closed" if closed else "single" if single else None


def _minus(counts: tuple[int, ...], tiles) -> tuple[int, ...]:
    c = list(counts)
    for t in tiles:
        c[t] -= 1
    return tuple(c)


#: One division of the concealed tiles as a reading needs it: (sets as (kind, tiles), lowest
#: tiles of the chows, tiles of the pungs, the pungs' tiles, the pair tile); chows and pungs
#: ascending.
DivisionParts = tuple[tuple[tuple[str, tuple[int, ...]], ...], tuple[int, ...], tuple[int, ...],
                      tuple[tuple[int, ...], ...], int]


@lru_cache(maxsize=1 << 14)
def divisions(standing: tuple[int, ...]) -> tuple[DivisionParts, ...]:
    """The divisions of the concealed tiles ``standing`` (:func:`decompose`, in its order),
    each taken apart once for every hand of that shape (memoised on the counts)."""
    out = []
    for division in decompose(standing):
        sets = division.sets  # sorted by tiles: chows and pungs come out ascending
        out.append((
            tuple([(g.kind, g.tiles) for g in sets]),
            tuple([g.tiles[0] for g in sets if g.kind == "chow"]),
            tuple([g.tiles[0] for g in sets if g.kind == "pung"]),
            tuple([g.tiles for g in sets if g.kind == "pung"]),
            division.pair.tiles[0],
        ))
    return tuple(out)


def _regular(hand: Hand, options: McrOptions, parts: DivisionParts, unique, detail: str) -> WinContext:
    """The reading of one division; ``unique()`` says whether the hand waited on one tile
    (asked only when the winning tile sits where a wait fan could count)."""
    win = hand.win
    hand_sets, hand_chows, hand_pungs, pung_sets, pair = parts
    # where the winning tile sits among the concealed groups: edge before closed before single
    edge = closed = False
    for t in hand_chows:
        if win == t + 1:
            closed = True
        elif t <= win <= t + 2:
            edge = True
    if hand.melds:
        concealed_sets = [tiles for kind, tiles, ckong in hand.melds if ckong]
        concealed_sets += pung_sets
        chows = tuple(sorted((*hand.meld_chows, *hand_chows))) if hand.meld_chows else hand_chows
        pungs = tuple(sorted((*hand.meld_pungs, *hand_pungs))) if hand.meld_pungs else hand_pungs
        sets = hand.meld_sets + hand_sets
    else:
        concealed_sets = list(pung_sets)
        chows, pungs, sets = hand_chows, hand_pungs, hand_sets
    if not hand.self_drawn and not (edge or closed) and win in hand_pungs:
        # a pung completed by a discard is an exposed pung (unless the tile fits a chow)
        concealed_sets.remove((win, win, win))
    wait = "edge" if edge else "closed" if closed else "single" if pair == win else None
    if wait is not None and not unique():
        wait = None
    table = options.fan_table
    combos = chow_fans(chows, pair, table) if len(chows) >= 2 else ()
    if len(pungs) >= 2:
        combos += pung_fans(pungs, table)
    return _new(WinContext, (  # as _context, without its defaults
        "regular", hand.facts, hand.counts, win, sets, chows, pungs, pair,
        hand.melded_kongs, hand.concealed_kongs, len(concealed_sets), hand.open_melds,
        combos, wait, hand.self_drawn, hand.last_tile,
        hand.kong_win, hand.last_of_wall, hand.seat_wind, hand.prevalent_wind, hand.flowers,
        detail, (), options.concealed_and_melded_kong, tuple(concealed_sets), hand.concealed_kong_sets,
    ))


def _knitted(hand: Hand, options: McrOptions, seq: tuple[int, ...]) -> WinContext | None:
    residual = _minus(hand.standing, seq)
    divisions = decompose(residual)
    if len(divisions) != 1:
        return None
    div = divisions[0]
    hand_sets = [(g.kind, g.tiles) for g in div.sets]
    sets = [(kind, tiles) for kind, tiles, _ in hand.melds] + hand_sets
    win = hand.win
    wait = None
    in_body = win in seq
    if not hand.melds:
        if (options.knitted_straight_waits or not in_body) and residual[win] >= 1:
            rest = _minus(residual, (win,))
            if len(waits(rest, seven_pairs=False)) == 1:
                wait = _wait_position(hand_sets + [("pair", div.pair.tiles)], win)
    elif not in_body:
        wait = "single"  # with one meld the rest is the pair
    elif options.knitted_straight_waits and hand.standing[win] == 3:
        wait = "single"  # a pair of the winning tile beside its copy in the knitted part
    return _context(hand, options, "knitted_straight", sets, div.pair.tiles[0], wait, knitted=seq)


def _is_nine_gates(hand: Hand) -> bool:
    before = _minus(hand.standing, (hand.win,))
    suit = hand.win // 9 if hand.win < 27 else -1
    if suit < 0:
        return False
    block = before[9 * suit: 9 * suit + 9]
    return block == (3, 1, 1, 1, 1, 1, 1, 1, 3) and sum(before) == 13


def _knitted_straight_in(standing: tuple[int, ...]) -> tuple[int, ...] | None:
    """:func:`knitted_straight_in`, asked only when nine numbered kinds are held."""
    return knitted_straight_in(standing) if standing[:27].count(0) <= 18 else None


#: The knitted straights as bit masks of their nine kinds, in the order of KNITTED_STRAIGHTS.
_KNITTED = tuple((seq, sum(1 << t for t in seq)) for seq in KNITTED_STRAIGHTS)
_SUIT_KINDS = (0x1FF, 0x1FF << 9, 0x1FF << 18)
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@lru_cache(maxsize=1 << 14)
def concealed_shape(standing: tuple[int, ...], win: int, kinds: int) -> tuple:
    """Which irregular shape a fully concealed hand has, in the reference's order of trial:
    ``("seven_pairs", shifted)``, ``("honors_knitted", kind, numbered tiles)``,
    ``("thirteen_orphans",)``, ``("knitted", sequence)``, ``("nine_gates",)`` or ``()``.
    ``kinds``: the kinds of ``standing`` as a bit mask (bit t for kind t). Memoised on the
    counts and the winning tile. Each test is tried only when the counts allow it (seven
    pairs: no odd count; honors-and-knitted: single tiles only; thirteen orphans: 13 kinds;
    knitted straight: its nine kinds held; nine gates: the winning tile's suit only)."""
    if 1 not in standing and 3 not in standing and is_seven_pairs(standing):
        return ("seven_pairs", seven_shifted_pairs_suit(standing) is not None)
    if 2 not in standing and 3 not in standing and 4 not in standing:
        kind = honors_and_knitted(standing)
        if kind is not None:
            return ("honors_knitted", kind, tuple(t for t in range(27) if standing[t]))
    if standing.count(0) == 21 and is_thirteen_orphans(standing):
        return ("thirteen_orphans",)
    for seq, mask in _KNITTED:  # the first knitted straight whose nine kinds are all held
        if kinds & mask == mask:
            return ("knitted", seq)
    if win < 27 and kinds == _SUIT_KINDS[win // 9]:
        lo = 9 * (win // 9)
        block = list(standing[lo: lo + 9])
        block[win - lo] -= 1
        if tuple(block) == _NINE_GATES and sum(standing) == 14:
            return ("nine_gates",)
    return ()


@lru_cache(maxsize=None)
def _has_shape(table_id: str, shape: str) -> bool:
    from .tables import table

    return shape in table(table_id).shapes


def readings(hand: Hand, options: McrOptions) -> tuple[WinContext | None, list[WinContext]]:
    """The special reading (if any) and the regular readings of ``hand``, in the order the
    reference meets them. Regular readings are only produced when there is no special reading
    or the special reading is seven pairs (a regular reading may then score higher)."""
    special = None
    regular_detail = ""
    knitted_straight = options.fan_table == "mcr" or _has_shape(options.fan_table, "knitted_straight")
    if not hand.melds:
        shape = concealed_shape(hand.standing, hand.win, hand.kinds)  # no melds: kinds are the standing's
        kind = shape[0] if shape else ""
        if kind == "knitted" and not knitted_straight:  # no 组合龙 in this fan table
            kind = "nine_gates" if _is_nine_gates(hand) else ""
        if kind == "seven_pairs":
            special = _context(hand, options, "seven_pairs", (), -1, None, "shifted" if shape[1] else "")
        elif kind == "honors_knitted":
            numbered = shape[2]
            special = _context(hand, options, "honors_knitted", (), -1, None, shape[1],
                               knitted=numbered if len(numbered) == 9 else ())
        elif kind == "thirteen_orphans":
            special = _context(hand, options, "thirteen_orphans", (), -1, None)
        elif kind == "knitted":
            special = _knitted(hand, options, shape[1])
            if special is None and _is_nine_gates(hand):
                regular_detail = "nine_gates"
        elif kind == "nine_gates":
            regular_detail = "nine_gates"
    elif knitted_straight and len(hand.melds) == 1 and (seq := _knitted_straight_in(hand.standing)) is not None:
        special = _knitted(hand, options, seq)
    if special is not None and (special.shape != "seven_pairs" or special.detail == "shifted"):
        return special, []
    parts = divisions(hand.standing)
    if not parts:
        return special, []
    def unique() -> bool:
        return _single_wait(hand.standing, hand.win)

    return special, [_regular(hand, options, d, unique, regular_detail) for d in parts]


@lru_cache(maxsize=1 << 14)
def _single_wait(standing: tuple[int, ...], win: int) -> bool:
    """Whether the hand before the winning tile ``win`` (``standing`` without it) waited on
    one tile only (seven pairs waits included). Memoised on the hand."""
    return len(waits(_minus(standing, (win,)))) == 1
