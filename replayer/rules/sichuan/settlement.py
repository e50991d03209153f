"""Sichuan settlement, component by component (docs/reference/rules/sichuan.md §3, §5.4, §7, §8).

A hand is settled as it happens (§8): kong payments at the kong (下雨/刮风, §3), win payments
at the win (§5.4), 呼叫转移 right after a 杠上炮 win, and at an exhaustive draw 查花猪,
查大叫 and 退税 (§7). Components (each a zero-sum 4-vector, in 底金 × ``dijin``):

``kong`` · ``win`` · ``hujiao_zhuanyi`` · ``huazhu`` · ``chajiao`` · ``tuishui``

:class:`Ledger` is the one implementation: it is fed the hand's occurrences in order
(:class:`KongOcc`, :class:`WinOcc`, :class:`PassOcc`, :class:`DrawOcc`, then :meth:`Ledger.exhaust`)
and keeps who is still in, each kong's income, the 过水不胡 memory and the payments. The
replayer's ruleset (``play.py``) and the settlement vectors (``vectors.py``) both use it.
A player who has won never pays or receives again (§3, seed 002 五.4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from eventlog import tiles as _tiles
from replayer.rules.sichuan.evaluate import (
    MeldKey,
    Wait,
    WinFacts,
    WinValue,
    evaluate_win,
    ready_waits,
    suits_of,
)
from replayer.rules.sichuan.options import SichuanOptions
from replayer.state import Payment

__all__ = [
    "COMPONENTS",
    "KONG_FACTOR",
    "DrawCheck",
    "DrawOcc",
    "Illegal",
    "KongOcc",
    "Ledger",
    "Meld",
    "PassOcc",
    "SeatHand",
    "SettledWin",
    "WinOcc",
    "Winner",
    "meld_keys",
]

COMPONENTS = ("kong", "win", "hujiao_zhuanyi", "huazhu", "chajiao", "tuishui")
KongKind = Literal["concealed", "melded", "added"]

#: §3: 直杠 (melded) 2 × 底金 from the discarder; 补杠 (added) 1 × 底金 and 暗杠 (concealed)
#: 2 × 底金 from every other player still in.
KONG_FACTOR: dict[str, int] = {"melded": 2, "added": 1, "concealed": 2}


@dataclass(frozen=True)
class Meld:
    """A declared set: ``kind`` pung/kong, ``tile``, ``kong_kind`` for a kong, ``from_seat``."""

    kind: Literal["pung", "kong"]
    tile: str
    kong_kind: KongKind | None = None
    from_seat: int | None = None


def meld_keys(melds: tuple[Meld, ...]) -> tuple[MeldKey, ...]:
    return tuple(sorted((_tiles.index(m.tile), 4 if m.kind == "kong" else 3) for m in melds))


def _counts(tiles: tuple[str, ...]) -> tuple[int, ...]:
    c = [0] * 34
    for t in tiles:
        c[_tiles.index(t)] += 1
    return tuple(c)


@dataclass(frozen=True)
class SeatHand:
    """A seat's tiles: ``concealed`` (13 − 3 × melds; a winner's without the winning tile)
    and ``melds``."""

    seat: int
    concealed: tuple[str, ...]
    melds: tuple[Meld, ...] = ()

    def key(self) -> tuple[tuple[int, ...], tuple[MeldKey, ...]]:
        return _counts(self.concealed), meld_keys(self.melds)


@dataclass(frozen=True)
class KongOcc:
    """A kong that stands (a robbed 补杠 is no kong, §5.3): ``seat``, ``kind``, ``tile``,
    ``from_seat`` (the discarder of a 直杠)."""

    seat: int
    kind: KongKind
    tile: str
    from_seat: int | None = None


Winner = SeatHand


@dataclass(frozen=True)
class WinOcc:
    """One winning tile and its winners (§5): ``discarder`` — the discarder, the robbed seat
    for ``robbed_kong``, None for a self-draw; several ``winners`` only on a discard or a
    robbed kong (一炮多响), in turn order from the discarder."""

    tile: str
    winners: tuple[SeatHand, ...]
    discarder: int | None = None
    robbed_kong: bool = False
    kong_replacement: bool = False
    after_kong: bool = False
    heavenly: bool = False
    earthly: bool = False
    last_tile: bool = False


@dataclass(frozen=True)
class PassOcc:
    """``seat`` could have won on ``tile`` and did not (§5.2): offered by ``discarder`` (None:
    its own draw), ``robbed_kong`` / ``after_kong`` as for a win, ``wall_left`` tiles left."""

    seat: int
    tile: str
    hand: SeatHand
    discarder: int | None
    wall_left: int
    robbed_kong: bool = False
    after_kong: bool = False


@dataclass(frozen=True)
class DrawOcc:
    """``seat`` drew a tile (lifts its 过水不胡, §5.2, §12.13)."""

    seat: int


@dataclass(frozen=True)
class SettledWin:
    """A settled winner: ``occurrence`` index, ``seat``, the priced ``value``, ``payers``
    and ``amount`` received."""

    occurrence: int
    seat: int
    value: WinValue
    payers: tuple[int, ...]
    amount: int


@dataclass(frozen=True)
class DrawCheck:
    """§7 for one player still in at the exhaustive draw: ``huazhu`` (花猪), ``wait`` (None
    when not ready) and ``paid_fan`` (capped best fan)."""

    seat: int
    huazhu: bool
    wait: Wait | None

    @property
    def ready(self) -> bool:
        return self.wait is not None and not self.huazhu


@dataclass(frozen=True)
class Illegal:
    """An illegal occurrence: ``rule`` (``guoshui_bu_hu`` §5.2, ``hou4zhang_bihu`` §5.2,
    ``seat_out`` §4, ``false_win``, ``void_suit``), ``occurrence``, ``seat``, ``passed_fan`` /
    ``fan`` for 过水不胡, and a ``message``."""

    rule: str
    occurrence: int
    seat: int
    message: str
    passed_fan: int | None = None
    fan: int | None = None


class LedgerError(Exception):
    """Raised by :class:`Ledger` for an illegal occurrence; ``illegal`` says which."""

    def __init__(self, illegal: Illegal):
        super().__init__(illegal.message)
        self.illegal = illegal


@dataclass
class _Kong:
    seat: int
    kind: str
    tile: str
    income: list[Payment]
    moved: bool = False


@dataclass
class Ledger:
    """The settlement of one hand, fed occurrence by occurrence (see the module docstring).

    ``dealer``: the hand's dealer; ``void_suits``: declared void suits (0 W, 1 T, 2 B) per
    seat with ``dingque_declared``. Illegal occurrences raise :class:`LedgerError`."""

    options: SichuanOptions
    dealer: int = 0
    void_suits: tuple[int, int, int, int] | None = None
    out: list[bool] = field(default_factory=lambda: [False] * 4)
    payments: dict[str, list[Payment]] = field(default_factory=lambda: {c: [] for c in COMPONENTS})
    wins: list[SettledWin] = field(default_factory=list)
    kongs: list[_Kong] = field(default_factory=list)
    passed_fan: dict[int, int] = field(default_factory=dict)
    first_win: tuple[int, ...] | None = None  # winners of the first win event
    first_win_from: int | None = None
    win_events: int = 0
    checks: tuple[DrawCheck, ...] | None = None
    n: int = 0  # occurrences seen
    last_kong: _Kong | None = None

    # --- who is in ------------------------------------------------------------------------
    def still_in(self) -> tuple[int, ...]:
        return tuple(s for s in range(4) if not self.out[s])

    @property
    def over(self) -> bool:
        """The hand is over after a win (§4): at the first win event in ``standard`` mode, at
        the third winner (one seat left) in 血战."""
        if self.options.mode == "standard":
            return self.win_events > 0
        return sum(self.out) >= 3

    def _void(self, seat: int) -> int | None:
        return None if self.void_suits is None else self.void_suits[seat]

    def _require_in(self, seat: int, what: str) -> None:
        if self.out[seat]:
            raise LedgerError(Illegal("seat_out", self.n, seat,
                                      f"seat {seat} has already won and takes no further part ({what}; §4)"))

    # --- occurrences ----------------------------------------------------------------------
    def kong(self, occ: KongOcc) -> tuple[Payment, ...]:
        """§3: pay a kong now; returns its payments (component ``kong``)."""
        self._require_in(occ.seat, "kong")
        d = self.options.dijin
        factor = KONG_FACTOR[occ.kind]
        if occ.kind == "melded":
            if occ.from_seat is None or occ.from_seat == occ.seat:
                raise ValueError("a melded kong (直杠) names the discarder in from")
            payers: tuple[int, ...] = (occ.from_seat,)
        else:
            payers = tuple(s for s in self.still_in() if s != occ.seat)
        pays = [Payment(p, occ.seat, factor * d, f"kong_{occ.kind}") for p in payers]
        self.payments["kong"].extend(pays)
        k = _Kong(occ.seat, occ.kind, occ.tile, list(pays))
        self.kongs.append(k)
        self.last_kong = k
        self.passed_fan.pop(occ.seat, None)  # the replacement draw lifts 过水不胡 (§12.13)
        self.n += 1
        return tuple(pays)

    def draw(self, occ: DrawOcc) -> None:
        self.passed_fan.pop(occ.seat, None)
        self.n += 1

    def pass_(self, occ: PassOcc) -> None:
        """§5.2: remember the passed fan (过水不胡); a pass with ≤ 4 tiles left is illegal
        (后4张必胡, §12.14)."""
        self._require_in(occ.seat, "pass")
        if occ.wall_left <= 4:
            raise LedgerError(Illegal("hou4zhang_bihu", self.n, occ.seat,
                                      f"seat {occ.seat} passed a win with {occ.wall_left} tiles left in the wall "
                                      "(后4张必胡, §5.2)"))
        if occ.discarder is not None:
            value = self.value(occ.hand, occ.tile, WinFacts(after_kong=occ.after_kong, robbed_kong=occ.robbed_kong))
            if value.legal:
                self.passed_fan[occ.seat] = max(self.passed_fan.get(occ.seat, -1), value.fan)
        self.n += 1

    def value(self, hand: SeatHand, tile: str, facts: WinFacts) -> WinValue:
        concealed, melds = hand.key()
        return evaluate_win(concealed, melds, tile, facts, self.options, self._void(hand.seat))

    def win(self, occ: WinOcc) -> list[SettledWin]:
        """§5.4: price and pay each winner; §3 呼叫转移 after a 杠上炮. Raises
        :class:`LedgerError` for a false win, 过水不胡 or a winner who is out."""
        idx = self.n
        self_drawn = occ.discarder is None
        if self_drawn and len(occ.winners) != 1:
            raise ValueError("a self-drawn win has one winner")
        if occ.discarder is not None:
            self._require_in(occ.discarder, "discarder of a winning tile")
        kong_tile = None
        if occ.kong_replacement and self.last_kong is not None:
            kong_tile = self.last_kong.tile
        facts = WinFacts(self_drawn=self_drawn, kong_replacement=occ.kong_replacement, kong_tile=kong_tile,
                         after_kong=occ.after_kong, robbed_kong=occ.robbed_kong, heavenly=occ.heavenly,
                         earthly=occ.earthly, last_tile=occ.last_tile)
        values: list[tuple[SeatHand, WinValue]] = []
        for w in occ.winners:
            self._require_in(w.seat, "win")
            v = self.value(w, occ.tile, facts)
            if not v.legal:
                raise LedgerError(Illegal(v.rule_id or "false_win", idx, w.seat,
                                          f"seat {w.seat}: not a legal win on {occ.tile}: {v.message}"))
            if not self_drawn and w.seat in self.passed_fan and v.fan <= self.passed_fan[w.seat]:
                p = self.passed_fan[w.seat]
                raise LedgerError(Illegal("guoshui_bu_hu", idx, w.seat,
                                          f"seat {w.seat} passed a win worth {p} fan and, without drawing since, "
                                          f"wins a discard worth {v.fan} fan (过水不胡, §5.2)", p, v.fan))
            values.append((w, v))
        settled = []
        for w, v in values:
            payers = (occ.discarder,) if occ.discarder is not None else tuple(s for s in self.still_in() if s != w.seat)
            pays = [Payment(p, w.seat, v.per_payer, "win") for p in payers]
            self.payments["win"].extend(pays)
            sw = SettledWin(idx, w.seat, v, tuple(payers), v.per_payer * len(payers))
            settled.append(sw)
            self.wins.append(sw)
        if occ.after_kong and self.options.hujiao_zhuanyi and self.last_kong is not None \
                and self.last_kong.seat == occ.discarder and not self.last_kong.moved:
            k = self.last_kong
            total = sum(p.amount for p in k.income)
            if total:
                self.payments["hujiao_zhuanyi"].append(Payment(k.seat, occ.winners[0].seat, total, "hujiao_zhuanyi"))
            k.moved = True
        for w in occ.winners:
            self.out[w.seat] = True
            self.passed_fan.pop(w.seat, None)
        if self.first_win is None:
            self.first_win = tuple(w.seat for w in occ.winners)
            self.first_win_from = occ.discarder
        self.win_events += 1
        self.last_kong = None
        self.n += 1
        return settled

    def exhaust(self, hands: tuple[SeatHand, ...]) -> tuple[DrawCheck, ...]:
        """§7 at an exhaustive draw: 查花猪, 查大叫 (each ready player's best wait), 退税.
        ``hands``: every player still in (with ``mode = standard`` and no winner: all four,
        §12.19)."""
        seats = sorted(h.seat for h in hands)
        if seats != list(self.still_in()):
            raise ValueError(f"the hands at the draw must be the players still in {list(self.still_in())}, got {seats}")
        d = self.options.dijin
        checks = []
        for h in sorted(hands, key=lambda h: h.seat):
            concealed, melds = h.key()
            void = self._void(h.seat)
            suits = suits_of(concealed, melds)
            huazhu = (void in suits) if void is not None else len(suits) == 3
            wait = None if huazhu else ready_waits(concealed, melds, void)
            checks.append(DrawCheck(h.seat, huazhu, wait))
        self.checks = tuple(checks)
        pigs = [c for c in checks if c.huazhu]
        clean = [c for c in checks if not c.huazhu]
        pig_amount = d * 2 ** self.options.effective_huazhu_fan
        for p in pigs:
            for c in clean:
                self.payments["huazhu"].append(Payment(p.seat, c.seat, pig_amount, "huazhu"))
        for nr in clean:
            if nr.ready:
                continue
            for r in clean:
                if r.ready:
                    assert r.wait is not None
                    amt = d * 2 ** self.options.capped(r.wait.best_fan)
                    self.payments["chajiao"].append(Payment(nr.seat, r.seat, amt, "chajiao"))
        if self.options.tuishui:
            not_ready = {c.seat for c in checks if not c.ready}
            for k in self.kongs:
                if k.seat in not_ready and not k.moved:
                    for p in k.income:
                        self.payments["tuishui"].append(Payment(k.seat, p.payer, p.amount, "tuishui"))
        self.n += 1
        return self.checks

    # --- results --------------------------------------------------------------------------
    def component(self, name: str) -> tuple[int, int, int, int]:
        ch = [0, 0, 0, 0]
        for p in self.payments[name]:
            ch[p.payer] -= p.amount
            ch[p.payee] += p.amount
        return (ch[0], ch[1], ch[2], ch[3])

    def components(self) -> dict[str, tuple[int, int, int, int]]:
        return {c: self.component(c) for c in COMPONENTS}

    def total(self) -> tuple[int, int, int, int]:
        comps = self.components().values()
        return tuple(sum(v[s] for v in comps) for s in range(4))  # type: ignore[return-value]

    def next_dealer(self) -> int:
        """§1: the first winner; the discarder (or robbed seat) when the first win event had
        several winners (§12.16); nobody won: the dealer (``draw_dealer = same``) or the next
        seat."""
        if self.first_win is not None:
            if len(self.first_win) > 1 and self.first_win_from is not None:
                return self.first_win_from
            return self.first_win[0]
        return self.dealer if self.options.draw_dealer == "same" else (self.dealer + 1) % 4
