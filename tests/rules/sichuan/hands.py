"""Whole Sichuan hands as event logs for the replay tests.

:class:`SichuanHand` writes one hand with the shared :class:`GameBuilder`
(tests/replayer/replay_builder.py) and keeps what the tests need to write it legally: the
tiles still in the wall (108-tile set minus what was dealt and drawn), each seat's
concealed tiles, who is still in. :meth:`SichuanHand.fill` plays "draw and discard the
drawn tile" turns with tiles nobody still in could win on (so no 过水不胡 / 后4张必胡 is
triggered by filler), in turn order, until the wall holds a given number of tiles."""

from __future__ import annotations

from collections import Counter
from typing import Any

from eventlog import tiles as T
from replayer.rules.sichuan.evaluate import WinFacts, evaluate_win
from replayer.rules.sichuan.options import SichuanOptions
from tests.replayer.replay_builder import GameBuilder, tl

ALL = [f"{s}{r}" for s in "WTB" for r in range(1, 10) for _ in range(4)]


class SichuanHand:
    def __init__(self, hands: dict[int, str], *, dealer: int = 0, options: dict[str, Any] | None = None,
                 game_id: str = "sc", early: str = "", reserve: str = "") -> None:
        """``hands``: each seat's dealt tiles (the dealer's 14). ``early``: tiles to put
        first in the filler order (a ready player's waits, so they pass while the wall is
        long). ``reserve``: tiles the script draws itself (never used as filler)."""
        self.g = GameBuilder(game_id, ruleset="sichuan", options=options or {})
        self.options = SichuanOptions(**(options or {}))
        self.dealer = dealer
        self.g.hand(0, dealer)
        self.concealed: dict[int, list[str]] = {}
        self.melds: dict[int, list[tuple[str, str]]] = {s: [] for s in range(4)}
        pool = Counter(ALL)
        for k in range(4):
            s = (dealer + k) % 4
            tiles = tl(hands[s])
            self.g.deal(s, " ".join(tiles))
            self.concealed[s] = list(tiles)
            pool.subtract(tiles)
        self.wall_left = 108 - 53
        self.out: set[int] = set()
        self.early = tl(early) if early else []
        self.reserved = Counter(tl(reserve)) if reserve else Counter()
        for t in self.early:
            pool[t] -= 1
        pool.subtract(self.reserved)
        assert all(n >= 0 for n in pool.values()), pool
        self.pool = sorted(pool.elements(), key=lambda t: (T.index(t)))

    # -- moves --------------------------------------------------------------------------
    def draw(self, seat: int, tile: str, source: str = "wall", *, filler: bool = False) -> int:
        self._take(tile, filler)
        self.wall_left -= 1
        self.concealed[seat].append(tile)
        return self.g.draw(seat, tile, source)

    def discard(self, seat: int, tile: str) -> int:
        self.concealed[seat].remove(tile)
        return self.g.discard(seat, tile)

    def pung(self, seat: int, tile: str, dseq: int) -> int:
        for _ in range(2):
            self.concealed[seat].remove(tile)
        self.melds[seat].append(("pung", tile))
        return self.g.pung(seat, tile, dseq)

    def kong(self, seat: int, kind: str, tile: str, dseq: int | None = None) -> int:
        n = {"concealed": 4, "melded": 3, "added": 1}[kind]
        for _ in range(n):
            self.concealed[seat].remove(tile)
        if kind == "added":
            self.melds[seat].remove(("pung", tile))
        self.melds[seat].append(("kong", tile))
        return self.g.kong(seat, kind, tile, dseq)

    def win(self, seat: int, tile: str, *, from_seat: int | None = None, dseq: int | None = None,
            robbing: bool = False) -> int:
        self.out.add(seat)
        return self.g.win(seat, tile, from_seat=from_seat, dseq=dseq, robbing=robbing)

    def _take(self, tile: str, filler: bool = False) -> None:
        if not filler and self.reserved[tile] > 0:
            self.reserved[tile] -= 1
        elif tile in self.early:
            self.early.remove(tile)
        else:
            self.pool.remove(tile)

    # -- filler -------------------------------------------------------------------------
    def _wins_on(self, seat: int, tile: str) -> bool:
        c = [0] * 34
        for t in self.concealed[seat]:
            c[T.index(t)] += 1
        melds = tuple(sorted((T.index(t), 4 if k == "kong" else 3) for k, t in self.melds[seat]))
        if len(self.concealed[seat]) + 3 * len(melds) != 13:
            return False
        return evaluate_win(tuple(c), melds, tile, WinFacts(), self.options).legal

    def safe_tile(self, drawer: int) -> str:
        for t in list(self.early) + self.pool:
            if t in self.early and self.wall_left <= 5:
                continue
            if t in self.early:
                return t
            if not any(self._wins_on(s, t) for s in range(4) if s not in self.out):
                return t
        raise AssertionError("no safe filler tile left")

    def next_seat(self, seat: int) -> int:
        for k in range(1, 4):
            s = (seat + k) % 4
            if s not in self.out:
                return s
        return seat

    def turn(self, seat: int) -> int:
        """``seat`` draws a safe tile and discards it; returns the discard's seq."""
        t = self.safe_tile(seat)
        self.draw(seat, t, filler=True)
        return self.discard(seat, t)

    def fill(self, seat: int, until: int = 0) -> int:
        """Filler turns from ``seat`` on (in turn order over the seats still in) until the
        wall holds ``until`` tiles; returns the seat whose turn comes next."""
        while self.wall_left > until:
            self.turn(seat)
            seat = self.next_seat(seat)
        return seat

    def events(self):
        return self.g.events()
