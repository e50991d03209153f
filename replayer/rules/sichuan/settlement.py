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

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from eventlog import tiles as _tiles
from eventlog.errors import PaipuError
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
from replayer.state import (  # replace: the fast copy of a frozen dataclass
    Payment,
    replace,
)

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
#: the rule text behind each component's payments (a payment's ``source``: a disputed score
#: names the rule that decides it, replayer/itemized.py)
_SPEC = "docs/reference/rules/sichuan.md"
SOURCES = {
    "kong": f"{_SPEC} §3 (下雨 / 刮风: kong payments)",
    "win": f"{_SPEC} §5.4, §6 (who pays a win: 底金 × 2^fan)",
    "hujiao_zhuanyi": f"{_SPEC} §3, §12.11 (呼叫转移: the kong's income moves to the winner)",
    "huazhu": f"{_SPEC} §7 (查花猪: a 花猪 pays every other player still in)",
    "chajiao": f"{_SPEC} §7, §12.7 (查大叫: a player not ready pays each ready one)",
    "tuishui": f"{_SPEC} §3, §7, §12.12 (退税: kong income returned)",
}


def _pay(payer: int, payee: int, amount: int, component: str) -> Payment:
    """A payment of ``component`` (its reason) with the component's rule source."""
    return Payment(payer, payee, amount, component, SOURCES[component])
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


def net(payments: Iterable[Payment]) -> tuple[int, int, int, int]:
    """Net change per seat of ``payments`` (zero-sum by construction)."""
    ch = [0, 0, 0, 0]
    for p in payments:
        ch[p.payer] -= p.amount
        ch[p.payee] += p.amount
    return (ch[0], ch[1], ch[2], ch[3])


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

    def foreign(self) -> tuple[str, ...]:
        """The concealed tiles outside the 34 kinds (a flower, in a damaged log: the replayer
        has its ``flowers_not_used`` finding); the hand is then neither a win nor ready."""
        return tuple(t for t in self.concealed if _tiles.index(t) >= 34)


@dataclass(frozen=True)
class KongOcc:
    """A kong that stands (a robbed 补杠 is no kong, §5.3): ``seat``, ``kind``, ``tile``,
    ``from_seat`` (the discarder of a 直杠). ``tile`` None: a concealed kong the record does
    not show (one seat's view)."""

    seat: int
    kind: KongKind
    tile: str | None
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


class LedgerError(PaipuError):
    """Raised by :class:`Ledger` for an illegal occurrence; ``illegal`` says which."""

    def __init__(self, illegal: Illegal):
        super().__init__(illegal.message)
        self.illegal = illegal


@dataclass(frozen=True)
class KongIncome:
    """What one kong collected: ``income`` (its payments), ``moved`` once 呼叫转移 gave it
    to a 杠上炮 winner (then 退税 does not refund it, §12.12)."""

    seat: int
    kind: str
    tile: str | None
    income: tuple[Payment, ...]
    moved: bool = False


def _set(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


@dataclass(frozen=True)
class Ledger:
    """The settlement of one hand, fed occurrence by occurrence (see the module docstring).
    Immutable: each occurrence returns a new ledger (the replayer keeps it in its state).

    ``dealer``: the hand's dealer; ``void_suits``: declared void suits (0 W, 1 T, 2 B) per
    seat with ``dingque_declared``. Illegal occurrences raise :class:`LedgerError`."""

    options: SichuanOptions
    dealer: int = 0
    void_suits: tuple[int, int, int, int] | None = None
    out: tuple[bool, bool, bool, bool] = (False, False, False, False)
    payments: tuple[tuple[str, Payment], ...] = ()
    wins: tuple[SettledWin, ...] = ()
    kongs: tuple[KongIncome, ...] = ()
    passed_fan: tuple[int, int, int, int] = (-1, -1, -1, -1)  # -1: no pass since the last draw
    first_win: tuple[int, ...] | None = None  # winners of the first win event
    first_win_from: int | None = None
    win_events: int = 0
    checks: tuple[DrawCheck, ...] | None = None
    n: int = 0  # occurrences seen
    last_kong: int | None = None  # index in ``kongs`` of the kong just before (杠上花 / 杠上炮)
    hujiao_to: tuple[int, int] | None = None  # (seat, kong index): 呼叫转移 of the current 一炮多响 (§12.11)

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

    def void(self, seat: int) -> int | None:
        return None if self.void_suits is None else self.void_suits[seat]

    def _require_in(self, seat: int, what: str) -> None:
        if self.out[seat]:
            raise LedgerError(Illegal("seat_out", self.n, seat,
                                      f"seat {seat} has already won and takes no further part ({what}; §4)"))

    def _add(self, component: str, pays) -> tuple[tuple[str, Payment], ...]:
        return self.payments + tuple((component, p) for p in pays)

    # --- occurrences ----------------------------------------------------------------------
    def kong_payments(self, occ: KongOcc) -> tuple[Payment, ...]:
        """§3: what a kong collects now (component ``kong``): 直杠 from the discarder, 补杠 /
        暗杠 from every other player still in; nothing without 下雨 (option ``xiayu``), nor for
        a 直杠 with no discarder (``from_seat`` None or the konger's own seat)."""
        if occ.kind == "melded":
            # a damaged log: a 直杠 whose discard is missing (or its own) has nobody to pay
            # it; the replayer's claim finding (claim_not_latest_discard, claim_own_discard)
            # says why
            frm = occ.from_seat
            payers: tuple[int, ...] = () if frm is None or frm == occ.seat else (frm,)
        else:
            payers = tuple(s for s in self.still_in() if s != occ.seat)
        if not self.options.xiayu:
            return ()
        amount = KONG_FACTOR[occ.kind] * self.options.dijin
        return tuple(_pay(p, occ.seat, amount, "kong") for p in payers)

    def kong(self, occ: KongOcc) -> Ledger:
        """Pay a kong now (§3); the replacement draw lifts the konger's 过水不胡 (§12.13)."""
        self._require_in(occ.seat, "kong")
        pays = self.kong_payments(occ)
        return replace(self, payments=self._add("kong", pays),
                       kongs=self.kongs + (KongIncome(occ.seat, occ.kind, occ.tile, pays),),
                       last_kong=len(self.kongs), passed_fan=_set(self.passed_fan, occ.seat, -1), n=self.n + 1)

    def draw(self, occ: DrawOcc) -> Ledger:
        """A draw lifts the seat's 过水不胡 (§5.2)."""
        return replace(self, passed_fan=_set(self.passed_fan, occ.seat, -1), n=self.n + 1)

    def other(self) -> Ledger:
        """Any other occurrence (a discard, a pung): the kong before is no longer "just before"."""
        return replace(self, last_kong=None, n=self.n + 1)

    def pass_(self, occ: PassOcc) -> Ledger:
        """§5.2: remember the passed fan (过水不胡); a pass with ≤ 4 tiles left is illegal
        (后4张必胡, §12.14): :class:`LedgerError` (:meth:`passed` records it all the same)."""
        self._require_in(occ.seat, "pass")
        if occ.wall_left <= 4:
            raise LedgerError(Illegal("hou4zhang_bihu", self.n, occ.seat,
                                      f"seat {occ.seat} passed a win on {occ.tile} with {occ.wall_left} tiles left "
                                      "in the wall (后4张必胡, §5.2)"))
        return self.passed(occ)

    def passed(self, occ: PassOcc) -> Ledger:
        """A pass as it happened, legal or not: the passed fan is remembered (过水不胡, §5.2),
        so a pass that broke 后4张必胡 still bars the seat's later discard wins until it draws
        — it cannot break §5.2 again before then (one mistake, one finding)."""
        self._require_in(occ.seat, "pass")
        passed = self.passed_fan
        if occ.discarder is not None:
            value = self.value(occ.hand, occ.tile, WinFacts(after_kong=occ.after_kong, robbed_kong=occ.robbed_kong))
            if value.legal:
                passed = _set(passed, occ.seat, max(passed[occ.seat], value.fan))
        return replace(self, passed_fan=passed, n=self.n + 1)

    def value(self, hand: SeatHand, tile: str, facts: WinFacts) -> WinValue:
        """The priced win of ``hand`` on ``tile`` (legal or not)."""
        odd = hand.foreign() + ((tile,) if _tiles.index(tile) >= 34 else ())
        if odd:
            return WinValue(False, rule_id="false_win", message=f"{' '.join(odd)} is no Sichuan tile (§1)")
        concealed, melds = hand.key()
        return evaluate_win(concealed, melds, tile, facts, self.options, self.void(hand.seat))

    def win_facts(self, occ: WinOcc) -> WinFacts:
        kong_tile = None
        if occ.kong_replacement and self.last_kong is not None:
            kong_tile = self.kongs[self.last_kong].tile
        elif occ.kong_replacement:
            # a win scored on its own (paipu score --hand): the kong just declared is the
            # winner's last declared kong (§12.17, ``plus2_no_gen`` takes its 根 away)
            kongs = [m.tile for m in occ.winners[0].melds if m.kind == "kong"]
            kong_tile = kongs[-1] if kongs else None
        return WinFacts(self_drawn=occ.discarder is None, kong_replacement=occ.kong_replacement, kong_tile=kong_tile,
                        after_kong=occ.after_kong, robbed_kong=occ.robbed_kong, heavenly=occ.heavenly,
                        earthly=occ.earthly, last_tile=occ.last_tile)

    def check_win(self, hand: SeatHand, occ: WinOcc) -> WinValue:
        """Price ``hand`` winning on ``occ`` and check it: a false win, a winner or a
        discarder who is out, 过水不胡 (§5.2) raise :class:`LedgerError`."""
        self._require_in(hand.seat, "win")
        if occ.discarder is not None:
            self._require_in(occ.discarder, "discarder of a winning tile")
        v = self.value(hand, occ.tile, self.win_facts(occ))
        if not v.legal:
            raise LedgerError(Illegal(v.rule_id or "false_win", self.n, hand.seat,
                                      f"seat {hand.seat}: not a legal win on {occ.tile}: {v.message}"))
        passed = self.passed_fan[hand.seat]
        if occ.discarder is not None and passed >= 0 and v.fan <= passed:
            raise LedgerError(Illegal("guoshui_bu_hu", self.n, hand.seat,
                                      f"seat {hand.seat} passed a win worth {passed} fan and, without drawing since, "
                                      f"wins a discard worth {v.fan} fan (过水不胡, §5.2)", passed, v.fan))
        return v

    def win(self, occ: WinOcc, *, joins_previous: bool = False) -> Ledger:
        """§5.4: price and pay each winner; §3 呼叫转移 after a 杠上炮. ``joins_previous``:
        these winners take the same tile as the previous win occurrence (a replay declares
        一炮多响 one winner per event). Raises :class:`LedgerError` for a false win,
        过水不胡 or a seat that is out."""
        self_drawn = occ.discarder is None
        if self_drawn and len(occ.winners) != 1:
            raise ValueError("a self-drawn win has one winner")
        if occ.discarder is not None:
            self._require_in(occ.discarder, "discarder of a winning tile")
        values = [(w, self.check_win(w, occ)) for w in occ.winners]
        idx = self.n - 1 if joins_previous else self.n
        payments = self.payments
        wins = self.wins
        out = self.out
        passed = self.passed_fan
        for w, v in values:
            payers = (occ.discarder,) if occ.discarder is not None else tuple(s for s in self.still_in() if s != w.seat)
            payments += tuple(("win", _pay(p, w.seat, v.per_payer, "win")) for p in payers)
            wins += (SettledWin(idx, w.seat, v, tuple(payers), v.per_payer * len(payers)),)
        kongs = self.kongs
        last_kong = self.last_kong
        k = self.kongs[last_kong] if last_kong is not None else None
        hujiao_to = self.hujiao_to if joins_previous else None
        if occ.after_kong and self.options.hujiao_zhuanyi and last_kong is not None and k is not None \
                and k.seat == occ.discarder and not k.moved:
            # §12.11: the kong's income goes to the first winner in turn order from the
            # discarder, whatever order a log declares the winners of one discard in
            first = min((w.seat for w in occ.winners), key=lambda s: (s - k.seat) % 4)
            total = sum(p.amount for p in k.income)
            if total:
                payments += (("hujiao_zhuanyi", _pay(k.seat, first, total, "hujiao_zhuanyi")),)
            kongs = _set(kongs, last_kong, replace(k, moved=True))
            hujiao_to = (first, last_kong)
        elif occ.after_kong and hujiao_to is not None:
            # a winner of the same discard declared later sits nearer the discarder: it takes
            # the moved income over (§12.11)
            held, ki = hujiao_to
            d = self.kongs[ki].seat
            first = min((w.seat for w in occ.winners), key=lambda s: (s - d) % 4)
            if (first - d) % 4 < (held - d) % 4:
                total = sum(p.amount for p in self.kongs[ki].income)
                if total:
                    payments += (("hujiao_zhuanyi", _pay(held, first, total, "hujiao_zhuanyi")),)
                hujiao_to = (first, ki)
        for w in occ.winners:
            out = _set(out, w.seat, True)
            passed = _set(passed, w.seat, -1)
        first_win, first_from, events = self.first_win, self.first_win_from, self.win_events
        if first_win is None:
            first_win, first_from, events = tuple(w.seat for w in occ.winners), occ.discarder, events + 1
        elif joins_previous and events == 1:
            first_win = first_win + tuple(w.seat for w in occ.winners)
        elif not joins_previous:
            events += 1
        return replace(self, payments=payments, wins=wins, kongs=kongs, out=out, passed_fan=passed,
                       first_win=first_win, first_win_from=first_from, win_events=events, hujiao_to=hujiao_to,
                       last_kong=self.last_kong if joins_previous else None,
                       n=self.n if joins_previous else self.n + 1)

    def unscored_win(self, seat: int, discarder: int | None, *, joins_previous: bool = False) -> Ledger:
        """A win whose hand the record hides (one seat's view of another's win, DESIGN.md §8):
        the winner leaves (§4) and counts for the next dealer (§1) as any winner; it pays
        and is paid nothing here — its score is the reported one."""
        first_win, first_from, events = self.first_win, self.first_win_from, self.win_events
        if first_win is None:
            first_win, first_from, events = (seat,), discarder, events + 1
        elif joins_previous and events == 1:
            first_win = first_win + (seat,)
        elif not joins_previous:
            events += 1
        return replace(self, out=_set(self.out, seat, True), passed_fan=_set(self.passed_fan, seat, -1),
                       first_win=first_win, first_win_from=first_from, win_events=events,
                       last_kong=self.last_kong if joins_previous else None,
                       n=self.n if joins_previous else self.n + 1)

    def leave(self, seat: int) -> Ledger:
        """``seat`` leaves the hand without a win the rules count (the table took its false
        win, :func:`replayer.handlers.wins.left_after_false_win`): it pays and is paid nothing
        more (§3, §5.4 "still in the hand"), is no winner for the next dealer (§1), and §7
        does not read its hand."""
        return replace(self, out=_set(self.out, seat, True), passed_fan=_set(self.passed_fan, seat, -1))

    def draw_checks(self, hands: tuple[SeatHand, ...]) -> tuple[DrawCheck, ...]:
        """§7 readings of the players still in: 花猪, ready, best wait (memoised on counts)."""
        checks = []
        for h in sorted(hands, key=lambda h: h.seat):
            if h.foreign():
                checks.append(DrawCheck(h.seat, False, None))  # not ready (see SeatHand.foreign)
                continue
            concealed, melds = h.key()
            void = self.void(h.seat)
            suits = suits_of(concealed, melds)
            huazhu = (void in suits) if void is not None else len(suits) == 3
            wait = None if huazhu else ready_waits(concealed, melds, void)
            checks.append(DrawCheck(h.seat, huazhu, wait))
        return tuple(checks)

    def exhaust(self, hands: tuple[SeatHand, ...]) -> Ledger:
        """§7 at an exhaustive draw: 查花猪, 查大叫 (each ready player's best wait), 退税.
        ``hands``: every player still in (with ``mode = standard`` and no winner: all four,
        §12.19)."""
        seats = sorted(h.seat for h in hands)
        if seats != list(self.still_in()):
            raise ValueError(f"the hands at the draw must be the players still in {list(self.still_in())}, got {seats}")
        d = self.options.dijin
        checks = self.draw_checks(hands)
        pays: list[tuple[str, Payment]] = []
        pigs = [c for c in checks if c.huazhu]
        clean = [c for c in checks if not c.huazhu]
        pig_amount = d * 2 ** self.options.effective_huazhu_fan
        for p in pigs:
            for c in clean:
                pays.append(("huazhu", _pay(p.seat, c.seat, pig_amount, "huazhu")))
        for nr in clean:
            if nr.ready:
                continue
            for r in clean:
                if r.ready:
                    assert r.wait is not None
                    amt = d * 2 ** self.options.capped(r.wait.best_fan)
                    pays.append(("chajiao", _pay(nr.seat, r.seat, amt, "chajiao")))
        if self.options.tuishui:
            not_ready = {c.seat for c in checks if not c.ready}
            for k in self.kongs:
                if k.seat in not_ready and not k.moved:
                    pays += [("tuishui", _pay(k.seat, p.payer, p.amount, "tuishui")) for p in k.income]
        return replace(self, payments=self.payments + tuple(pays), checks=checks, n=self.n + 1)

    # --- results --------------------------------------------------------------------------
    def component(self, name: str) -> tuple[int, int, int, int]:
        """Net change per seat of one component."""
        return net(p for c, p in self.payments if c == name)

    def component_payments(self, name: str) -> tuple[Payment, ...]:
        return tuple(p for c, p in self.payments if c == name)

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
