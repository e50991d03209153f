"""From a :class:`~replayer.rules.mcr.situation.WinSituation` to the readings that can be
scored: one :class:`~.base.WinContext` per way of seeing the hand as a winning shape.

Everything here works on dense tile indices and count tuples; the decompositions and waits are
memoised in :mod:`replayer.rules.shared.decompose`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from replayer import tiles as T
from replayer.rules.shared.decompose import Division, decompose, waits
from replayer.rules.shared.shapes import (
    honors_and_knitted,
    is_seven_pairs,
    is_thirteen_orphans,
    knitted_straight_in,
    seven_shifted_pairs_suit,
)

from ..options import McrOptions
from ..situation import WinSituation
from .base import WinContext, facts_of
from .combine import chow_fans, pung_fans

_WIND = {"E": 27, "S": 28, "W": 29, "N": 30}


class McrInputError(ValueError):
    """A win situation that is malformed (wrong tile count, bad meld, a fifth copy …)."""


class Hand(NamedTuple):
    """A situation in dense form, with the win flags corrected as the reference does."""

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


_INDEX = {code: i for i, code in enumerate(T.PLAYING_TILES)}


def _idx(tile: str, where: str) -> int:
    i = _INDEX.get(tile)
    if i is None:
        raise McrInputError(f"{where}: not a playing tile: {tile!r} (W1-9, T1-9, B1-9, F1-4, J1-3)")
    return i


def prepare(s: WinSituation) -> Hand:
    """Check ``s`` and put it in dense form. Raises :class:`McrInputError` naming the field."""
    melds = []
    fixed = [0] * 34
    for n, m in enumerate(s.melds):
        where = f"melds[{n}]"
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
        if m.concealed and m.type != "kong":
            raise McrInputError(f"{where}: only a kong can be concealed")
        melds.append((m.type, tiles, bool(m.concealed and m.type == "kong")))
        for t in tiles:
            fixed[t] += 1
    expected = 13 - 3 * len(s.melds)
    if len(s.hand) != expected:
        raise McrInputError(
            f"hand: {len(s.hand)} tiles with {len(s.melds)} melds, expected {expected} (without the winning tile)"
        )
    standing = [0] * 34
    for t in s.hand:
        standing[_idx(t, "hand")] += 1
    win = _idx(s.win_tile, "win_tile")
    standing[win] += 1
    counts = tuple(map(int.__add__, standing, fixed))
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
    fixed_win = sum(
        (1 if kind == "chow" else len(tiles)) for kind, tiles, _ in melds if win in tiles
    )
    last_tile = s.last_tile
    if standing[win] != 1:
        last_tile = False
    if fixed_win == 3:
        last_tile = True
    kong_win = s.kong_related
    if kong_win:
        if s.self_drawn:
            kong_win = any(kind == "kong" for kind, _, _ in melds)
        else:
            kong_win = fixed_win == 0 and standing[win] == 1
    return Hand(
        tuple(standing), tuple(melds), counts, win, s.self_drawn, last_tile, kong_win,
        s.last_of_wall, _WIND[s.seat_wind], _WIND[s.prevalent_wind], s.flowers,
    )


def _context(hand: Hand, options: McrOptions, shape: str, sets, pair: int, wait: str | None,
             detail: str = "", knitted: tuple[int, ...] = (), hand_pungs_won: bool = False) -> WinContext:
    chows = tuple(sorted(tiles[0] for kind, tiles in sets if kind == "chow"))
    pungs = tuple(sorted(tiles[0] for kind, tiles in sets if kind != "chow"))
    mk = sum(1 for kind, _, conc in hand.melds if kind == "kong" and not conc)
    ck = sum(1 for kind, _, conc in hand.melds if kind == "kong" and conc)
    open_melds = sum(1 for _, _, conc in hand.melds if not conc)
    return WinContext(
        shape=shape,
        facts=_facts(hand.counts),
        counts=hand.counts,
        win=hand.win,
        sets=tuple(sets),
        chows=chows,
        pungs=pungs,
        pair=pair,
        melded_kongs=mk,
        concealed_kongs=ck,
        concealed_pungs=0,
        open_melds=open_melds,
        combos=chow_fans(chows, pair) + pung_fans(pungs),
        wait=wait,
        self_drawn=hand.self_drawn,
        last_tile=hand.last_tile,
        kong_win=hand.kong_win,
        last_of_wall=hand.last_of_wall,
        seat_wind=hand.seat_wind,
        prevalent_wind=hand.prevalent_wind,
        flowers=hand.flowers,
        detail=detail,
        knitted=knitted,
        kong_fan=options.concealed_and_melded_kong,
    )


@lru_cache(maxsize=1 << 14)
def _facts(counts: tuple[int, ...]):
    return facts_of(frozenset(i for i, c in enumerate(counts) if c))


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


def _regular(hand: Hand, options: McrOptions, division: Division, unique: bool, detail: str) -> WinContext:
    meld_sets = [(kind, tiles) for kind, tiles, _ in hand.melds]
    hand_sets = [(g.kind, g.tiles) for g in division.sets]
    pair = division.pair.tiles[0]
    ck = sum(1 for kind, _, conc in hand.melds if kind == "kong" and conc)
    concealed = ck + sum(1 for kind, _ in hand_sets if kind == "pung")
    if not hand.self_drawn and not any(kind == "chow" and hand.win in tiles for kind, tiles in hand_sets):
        # a pung completed by a discard is an exposed pung (unless the tile fits a chow)
        if any(kind == "pung" and tiles[0] == hand.win for kind, tiles in hand_sets):
            concealed -= 1
    wait = _wait_position(hand_sets + [("pair", division.pair.tiles)], hand.win) if unique else None
    ctx = _context(hand, options, "regular", meld_sets + hand_sets, pair, wait, detail)
    return ctx._replace(concealed_pungs=concealed)


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


@lru_cache(maxsize=1 << 14)
def concealed_shape(standing: tuple[int, ...], win: int) -> tuple:
    """Which irregular shape a fully concealed hand has, in the reference's order of trial:
    ``("seven_pairs", shifted)``, ``("honors_knitted", kind, numbered tiles)``,
    ``("thirteen_orphans",)``, ``("knitted", sequence)``, ``("nine_gates",)`` or ``()``.
    Memoised on the count tuple and the winning tile."""
    if is_seven_pairs(standing):
        return ("seven_pairs", seven_shifted_pairs_suit(standing) is not None)
    kind = honors_and_knitted(standing)
    if kind is not None:
        return ("honors_knitted", kind, tuple(t for t in range(27) if standing[t]))
    if is_thirteen_orphans(standing):
        return ("thirteen_orphans",)
    seq = knitted_straight_in(standing)
    if seq is not None:
        return ("knitted", seq)
    if win < 27:
        suit = win // 9
        block = list(standing[9 * suit: 9 * suit + 9])
        block[win % 9] -= 1
        if block == [3, 1, 1, 1, 1, 1, 1, 1, 3] and sum(standing) == 14:
            return ("nine_gates",)
    return ()


def readings(hand: Hand, options: McrOptions) -> tuple[WinContext | None, list[WinContext]]:
    """The special reading (if any) and the regular readings of ``hand``, in the order the
    reference meets them. Regular readings are only produced when there is no special reading
    or the special reading is seven pairs (a regular reading may then score higher)."""
    special = None
    regular_detail = ""
    if not hand.melds:
        shape = concealed_shape(hand.standing, hand.win)
        kind = shape[0] if shape else ""
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
    elif len(hand.melds) == 1 and (seq := knitted_straight_in(hand.standing)) is not None:
        special = _knitted(hand, options, seq)
    if special is not None and (special.shape != "seven_pairs" or special.detail == "shifted"):
        return special, []
    divisions = decompose(hand.standing)
    if not divisions:
        return special, []
    unique = len(waits(_minus(hand.standing, (hand.win,)))) == 1
    return special, [_regular(hand, options, d, unique, regular_detail) for d in divisions]
