"""Random legal MCR winning situations for property and differential tests.

``random_situation(rng)`` draws one physically possible win (no tile more than four times,
flags consistent as in tests/data/mcr/README.md "Flags as generated") from a
``random.Random``; hypothesis feeds it a seeded ``Random`` so runs are reproducible.
"""

from __future__ import annotations

import random

from replayer.rules.mcr.situation import Meld, WinSituation
from replayer.rules.shared.shapes import KNITTED_STRAIGHTS, THIRTEEN_ORPHANS
from eventlog.tiles import PLAYING_TILES

WINDS = "ESWN"


def _tile(i: int) -> str:
    return PLAYING_TILES[i]


def _random_set(rng: random.Random, suit_bias: int | None) -> tuple[str, int]:
    """(kind, first tile index): chow or pung, often in one favoured suit."""
    if rng.random() < 0.5:
        suit = suit_bias if suit_bias is not None and rng.random() < 0.7 else rng.randrange(3)
        return "chow", 9 * suit + rng.randrange(7)
    if rng.random() < 0.3:
        return "pung", 27 + rng.randrange(7)
    suit = suit_bias if suit_bias is not None and rng.random() < 0.7 else rng.randrange(3)
    return "pung", 9 * suit + rng.randrange(9)


def _flags(rng: random.Random, hand: list[str], win: str, melds: list[Meld]) -> dict:
    self_drawn = rng.random() < 0.4
    held = hand.count(win)
    in_melds = sum(m.tiles.count(win) for m in melds)
    has_kong = any(m.type == "kong" for m in melds)
    kong_related = False
    last_of_wall = rng.random() < 0.08
    if rng.random() < 0.1 and not last_of_wall:
        if self_drawn and has_kong:
            kong_related = True
        elif not self_drawn and held == 0 and in_melds == 0:
            kong_related = True
    last_tile = kong_related and not self_drawn
    if held == 0 and not kong_related:
        last_tile = in_melds == 3 or rng.random() < 0.15
    return dict(
        self_drawn=self_drawn, last_tile=last_tile, kong_related=kong_related,
        last_of_wall=last_of_wall, seat_wind=rng.choice(WINDS), prevalent_wind=rng.choice(WINDS),
        flowers=rng.randrange(9) if rng.random() < 0.3 else 0,
    )


def _sorted(tiles) -> list[str]:
    return sorted(tiles, key=PLAYING_TILES.index)


def random_regular(rng: random.Random) -> WinSituation | None:
    """Four sets and a pair, some declared; None when the draw broke the four-copy limit."""
    suit_bias = rng.randrange(3) if rng.random() < 0.6 else None
    counts = [0] * 34
    sets = []
    for _ in range(4):
        kind, t = _random_set(rng, suit_bias)
        tiles = [t, t + 1, t + 2] if kind == "chow" else [t, t, t]
        if kind == "pung" and rng.random() < 0.2:
            kind = "kong"
            tiles.append(t)
        sets.append((kind, tiles))
        for x in tiles:
            counts[x] += 1
    pair = rng.randrange(34) if rng.random() < 0.3 else 9 * (suit_bias if suit_bias is not None else rng.randrange(3)) + rng.randrange(9)
    counts[pair] += 2
    if max(counts) > 4:
        return None
    n_melds = rng.choice((0, 0, 1, 1, 2, 3, 4))
    melds: list[Meld] = []
    concealed: list[int] = []
    order = list(range(4))
    rng.shuffle(order)
    kongs = [i for i in order if sets[i][0] == "kong"]
    declared = set(kongs) | set(order[: max(0, n_melds - len(kongs))])
    for i in range(4):
        kind, tiles = sets[i]
        if i in declared:
            codes = tuple(_tile(x) for x in tiles)
            if kind == "chow":
                melds.append(Meld("chow", codes, False, 1, rng.choice(codes)))
            elif kind == "pung":
                melds.append(Meld("pung", codes, False, rng.choice((1, 2, 3)), codes[0]))
            else:
                conc = rng.random() < 0.4
                melds.append(Meld("kong", codes, conc, None if conc else rng.choice((1, 2, 3)),
                                  None if conc else codes[0]))
        else:
            concealed.extend(tiles)
    concealed.extend([pair, pair])
    win = rng.choice(concealed)
    concealed.remove(win)
    hand = _sorted(_tile(x) for x in concealed)
    return WinSituation(hand=tuple(hand), win_tile=_tile(win), melds=tuple(melds),
                        **_flags(rng, hand, _tile(win), melds))


def random_special(rng: random.Random) -> WinSituation:
    """A concealed special shape: seven pairs, thirteen orphans, honors-and-knitted,
    knitted straight + set + pair, or nine gates."""
    kind = rng.choice(("seven_pairs", "thirteen_orphans", "honors_knitted", "knitted", "nine_gates"))
    if kind == "seven_pairs":
        while True:
            suit = rng.randrange(3)
            pool = [9 * suit + r for r in range(9)] * 2 + list(range(34))
            picks = [rng.choice(pool) for _ in range(7)]
            if all(picks.count(p) <= 2 for p in picks):
                tiles = [p for p in picks for _ in range(2)]
                break
    elif kind == "thirteen_orphans":
        tiles = list(THIRTEEN_ORPHANS) + [rng.choice(THIRTEEN_ORPHANS)]
    elif kind == "honors_knitted":
        seq = rng.choice(KNITTED_STRAIGHTS)
        n_honors = rng.choice((5, 6, 7))
        tiles = rng.sample(list(seq), 14 - n_honors) + rng.sample(range(27, 34), n_honors)
    elif kind == "knitted":
        seq = rng.choice(KNITTED_STRAIGHTS)
        while True:
            k, t = _random_set(rng, None)
            extra = [t, t + 1, t + 2] if k == "chow" else [t, t, t]
            pair = rng.randrange(34)
            tiles = list(seq) + extra + [pair, pair]
            if max(tiles.count(x) for x in tiles) <= 4:
                break
    else:
        suit = rng.randrange(3)
        tiles = [9 * suit + r for r in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)] + [9 * suit + rng.randrange(9)]
    win = rng.choice(tiles)
    tiles.remove(win)
    hand = _sorted(_tile(x) for x in tiles)
    return WinSituation(hand=tuple(hand), win_tile=_tile(win), melds=(), **_flags(rng, hand, _tile(win), []))


def random_situation(rng: random.Random) -> WinSituation:
    """A random legal win: mostly regular hands, a fifth special shapes."""
    if rng.random() < 0.2:
        return random_special(rng)
    while True:
        s = random_regular(rng)
        if s is not None:
            return s
