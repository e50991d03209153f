"""Simulation bots: policies that pick one of the legal actions (replayer/actions.py).

A bot sees the table state and the actions open to its seat, and returns one of them. It
draws randomness only from the ``random.Random`` it was given (seeded by the engine), so a
game is a pure function of its seed.

* :class:`GreedyBot` — wins whenever allowed, sets flowers aside, declares every kong it
  may (so that kong paths, robbing a kong and kong-replacement wins occur), claims a chow
  or pung with probability ``claim_probability`` when it brings the hand closer to a win,
  and discards the tile that leaves the smallest distance to a win (shanten, replayer/
  rules/shared/shanten.py; ties: the most isolated tile, then the RNG). Under a ruleset
  whose winning hands hold at most ``PlayRules.max_suits`` suits (Sichuan 缺一门), it first
  voids the suit it holds fewest of (:func:`void_suit`): discards it, and neither pungs nor
  kongs it.
* :class:`RandomBot` — uniform over the legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from eventlog import tiles as _tiles
from replayer.actions import KONG_KINDS, Action
from replayer.rules.shared.shanten import shanten
from replayer.state import SeatState, TableState

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bot", "void_suit"]


class Bot(Protocol):
    name: str

    def choose(self, state: TableState, seat: int, actions: Sequence[Action]) -> Action:
        """One of ``actions`` (all of them ``seat``'s, never empty)."""
        ...


class RandomBot:
    """Uniform over the legal actions."""

    name = "random"

    def __init__(self, rng: random.Random, claim_probability: float = 0.5, max_suits: int | None = None,
                 declared_void: Callable[[TableState, int], int | None] | None = None) -> None:
        self.rng = rng

    def choose(self, state: TableState, seat: int, actions: Sequence[Action]) -> Action:
        return actions[self.rng.randrange(len(actions))]


def _minus(counts: tuple[int, ...], *tiles: str) -> tuple[int, ...]:
    c = list(counts)
    for t in tiles:
        c[_tiles.index(t)] -= 1
    return tuple(c)


def _isolation(counts: tuple[int, ...], i: int) -> int:
    """How connected tile ``i`` is in the hand (lower: a better discard): copies held and,
    for suited tiles, neighbours within two ranks."""
    n = 2 * (counts[i] - 1)
    if i < 27:
        r = i % 9
        for d, w in ((1, 2), (2, 1)):
            if r - d >= 0:
                n += w * min(counts[i - d], 1)
            if r + d <= 8:
                n += w * min(counts[i + d], 1)
    return n


def void_suit(st: SeatState, max_suits: int | None, declared: int | None = None) -> int | None:
    """The suit (0 W, 1 T, 2 B) a seat should empty first: its ``declared`` void suit (定缺)
    while it holds tiles of it; else, when winning hands hold at most ``max_suits`` suits and
    it holds more, the suit with the fewest concealed tiles among those it has no declared
    set of (ties: the lower suit); None when nothing must go."""
    if declared is not None:
        return declared if any(st.counts[9 * declared: 9 * declared + 9]) else None
    if max_suits is None:
        return None
    held = [sum(st.counts[9 * s: 9 * s + 9]) for s in range(3)]
    in_melds = {_tiles.index(m.tiles[0]) // 9 for m in st.melds if _tiles.index(m.tiles[0]) < 27}
    present = [s for s in range(3) if held[s] or s in in_melds]
    if len(present) <= max_suits:
        return None
    cands = [s for s in range(3) if held[s] and s not in in_melds]
    return min(cands, key=lambda s: (held[s], s)) if cands else None


class GreedyBot:
    """Shanten-greedy play (see the module docstring)."""

    name = "greedy"

    def __init__(self, rng: random.Random, claim_probability: float = 0.5, max_suits: int | None = None,
                 declared_void: Callable[[TableState, int], int | None] | None = None) -> None:
        if not 0.0 <= claim_probability <= 1.0:
            raise ValueError(f"claim_probability must be within 0..1, got {claim_probability}")
        self.rng = rng
        self.claim_probability = claim_probability
        self.max_suits = max_suits
        self.declared_void = declared_void

    def choose(self, state: TableState, seat: int, actions: Sequence[Action]) -> Action:
        if actions and actions[0].kind == "ruleset":
            return actions[0]  # a ruleset's own choice, listed best first (e.g. 定缺)
        for a in actions:
            if a.is_win:
                return a
        st = state.seats[seat]
        declared = self.declared_void(state, seat) if self.declared_void is not None else None
        void = void_suit(st, self.max_suits, declared)
        if void is not None:  # keep the suit to void out of sets
            kept = [a for a in actions if not (a.kind in ("pung", "chow", *KONG_KINDS) and a.tile is not None
                                                and _tiles.index(a.tile) // 9 == void)]
            actions = kept or actions
        for a in actions:
            if a.kind == "flower" or a.kind in KONG_KINDS:
                return a
        melds = len(st.melds)
        claims = [a for a in actions if a.kind in ("pung", "chow")]
        if claims and self.rng.random() < self.claim_probability:
            now = shanten(st.counts, melds)
            best = min(claims, key=lambda a: self._after_claim(st.counts, melds, a))
            if self._after_claim(st.counts, melds, best) < now:
                return best
        discards = [a for a in actions if a.kind == "discard"]
        if void is not None:
            discards = [a for a in discards if _tiles.index(a.tile or "") // 9 == void] or discards
        if discards:
            return self._discard(st.counts, melds, discards)
        passes = [a for a in actions if a.kind == "pass"]
        return passes[0] if passes else actions[0]

    @staticmethod
    def _after_claim(counts: tuple[int, ...], melds: int, a: Action) -> int:
        assert a.tile is not None
        used = (a.tile, a.tile) if a.kind == "pung" else tuple(a.tiles)
        if a.kind == "chow":
            used = tuple(used)
            k = used.index(a.tile)
            used = used[:k] + used[k + 1:]
        return shanten(_minus(counts, *used), melds + 1)

    def _discard(self, counts: tuple[int, ...], melds: int, discards: Sequence[Action]) -> Action:
        """The discard with the smallest shanten, then the most isolated tile, then the RNG.

        The shanten of the 14 tiles is the best any discard can leave (a complete hand
        leaves 0 at best), so candidates are tried from the most isolated and the search
        stops at the first isolation level that reaches it."""
        target = max(shanten(counts, melds), 0)
        cands = sorted((_isolation(counts, _tiles.index(a.tile or "")), _tiles.index(a.tile or ""), a) for a in discards)
        tied: list[Action] = []
        level = None
        for iso, _i, a in cands:
            if level is not None and iso > level:
                break
            if shanten(_minus(counts, a.tile or ""), melds) <= target:
                level = iso
                tied.append(a)
        if not tied:  # cannot happen by the argument above; kept as a safe fallback
            scored = [(shanten(_minus(counts, a.tile or ""), melds), iso, a) for iso, _i, a in cands]
            low = min((sh, iso) for sh, iso, _ in scored)
            tied = [a for sh, iso, a in scored if (sh, iso) == low]
        return tied[self.rng.randrange(len(tied))]


BOTS: dict[str, Callable[..., Bot]] = {"greedy": GreedyBot, "random": RandomBot}


def make_bot(name: str, rng: random.Random, claim_probability: float = 0.5, max_suits: int | None = None,
             declared_void: Callable[[TableState, int], int | None] | None = None) -> Bot:
    """A bot by name (``greedy`` or ``random``); ``max_suits``: the ruleset's
    ``PlayRules.max_suits``; ``declared_void``: the ruleset's ``void_suit`` (a seat's declared
    void suit). Raises ValueError for an unknown name."""
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOTS)})") from None
    return cls(rng, claim_probability, max_suits, declared_void)
