"""Who pays whom in the chip format (docs/reference/rules/competition.md §A5–A8, §A10).

Amounts are chips (points of the 100-chip stack). Every function returns a zero-sum
:class:`~replayer.state.Settlement`; payments are made in the order given and each is
capped by what the payer has left (§A5 "盘面100分付完为止").

* win (§A6.4): on a discard the discarder pays 2T; self-drawn each of the three pays T;
  robbing a kong: the konger pays 3T; a liable player (包牌, §A8) pays 3T alone (for a
  discard win 3T or 2T: ``baopai_discard_amount``);
* 倍打 (§A6.4): every transfer of a hand dealt by a continuing dealer is doubled (never ×4);
* instant payments (§A7): added kong 4 from each, kong on a discard 12 from the discarder,
  concealed kong 6 from each, 花杠 8 from each, 追牌: the first of the four pays 4 to each;
* a win on a zero-chip player's discard (§A5): the winner pays the would-be win score to
  that player and ``zero_chip_penalty`` to each of the three others (seed 000 §38
  "应向无分者罚分和牌得分并向三家各赔付10分": the zero-chip player gets both).
"""

from __future__ import annotations

from collections.abc import Sequence

from replayer.state import Payment, Settlement

Chips = Sequence[int]
#: a payment to make: (payer, payee, amount, reason, source — the rule text behind it)
Due = tuple[int, int, int, str, str]

_SPEC = "docs/reference/rules/competition.md"
#: the rule text behind each kind of payment (a payment's ``source``: a disputed score names
#: the rule that decides it, replayer/itemized.py)
SOURCES = {
    "win": f"{_SPEC} §A6.4 (payment: the discarder pays 2T, a self-draw T from each)",
    "baopai": f"{_SPEC} §A8 (包牌: the liable player pays alone)",
    "robbed_kong": f"{_SPEC} §A6.4 (抢杠和: the konger pays 3T)",
    "zero_chip": f"{_SPEC} §A5 (a win on a zero-chip player's discard)",
    "instant": f"{_SPEC} §A7 (现场汇: instant payments)",
}


def _x(source: str, multiplier: int) -> str:
    """``source`` with the 倍打 doubling's rule when a continuing dealer's hand doubles it."""
    return f"{source}; {_SPEC} §A6.4 (倍打)" if multiplier > 1 else source

#: §A7 instant payments: (who pays, amount each).
KONG_PAYMENTS = {"added": ("each", 4), "melded": ("discarder", 12), "concealed": ("each", 6)}
FLOWER_KONG = 8
CHASE = 4  # 追牌


def capped(chips: Chips, payments: Sequence[Due]) -> Settlement:
    """The settlement of ``payments`` (payer, payee, amount, reason, source) made in order,
    each capped by the payer's chips at that moment (a payment of 0 is dropped)."""
    left = list(chips)
    out = []
    for payer, payee, amount, reason, source in payments:
        if payer == payee:
            raise ValueError(f"seat {payer} cannot pay itself")
        paid = max(0, min(amount, left[payer]))
        if paid:
            left[payer] -= paid
            left[payee] += paid
            note = reason if paid == amount else f"{reason}: {paid} of {amount} (chips run out)"
            out.append(Payment(payer, payee, paid, note, source))
    return Settlement.from_payments(out) if out else Settlement((0, 0, 0, 0))


def win_payments(winner: int, total: int, *, self_drawn: bool, discarder: int | None,
                 robbed_konger: int | None = None, liable: int | None = None,
                 liable_discard_amount: str = "3T", multiplier: int = 1) -> list[Due]:
    """The payments of a win worth T = ``total`` before caps (§A6.4, §A8)."""
    if total < 0:
        raise ValueError(f"T cannot be negative, got {total}")
    t = total * multiplier
    x = f" ×{multiplier} 倍打" if multiplier > 1 else ""
    if liable is not None and liable != winner:
        share = 2 if (not self_drawn and robbed_konger is None and liable_discard_amount == "2T") else 3
        return [(liable, winner, share * t, f"包牌: {share}T{x}", _x(SOURCES["baopai"], multiplier))]
    if robbed_konger is not None:
        return [(robbed_konger, winner, 3 * t, f"robbed kong 抢杠和: 3T{x}", _x(SOURCES["robbed_kong"], multiplier))]
    win = _x(SOURCES["win"], multiplier)
    if self_drawn:
        return [(s, winner, t, f"self-drawn: T{x}", win) for s in _after(winner)]
    if discarder is None or discarder == winner:
        raise ValueError("a win on a discard needs a discarder other than the winner")
    return [(discarder, winner, 2 * t, f"discard: 2T{x}", win)]


def zero_chip_penalty(winner: int, zero_seat: int, would_be: int, each: int,
                      multiplier: int = 1) -> list[Due]:
    """§A5: a win on a zero-chip player's discard: the winner pays ``would_be`` to that
    player and ``each`` to each of the three others, that player included ("向无分者罚分和牌
    得分并向三家各赔付10分", seed 000)."""
    src = _x(SOURCES["zero_chip"], multiplier)
    out: list[Due] = [(winner, zero_seat, would_be * multiplier, "win on a zero-chip discard (盘面无分者点炮，禁止和牌)", src)]
    out += [(winner, s, each * multiplier, "win on a zero-chip discard: penalty", src) for s in _after(winner)]
    return out


def kong_payments(konger: int, kind: str, discarder: int | None, multiplier: int = 1) -> list[Due]:
    """§A7 instant kong payments."""
    who, amount = KONG_PAYMENTS[kind]
    x = f" ×{multiplier}" if multiplier > 1 else ""
    if who == "discarder":
        if discarder is None:
            raise ValueError("a kong on a discard names its discarder")
    src = _x(SOURCES["instant"], multiplier)
    if who == "discarder":
        if discarder is None:
            raise ValueError("a kong on a discard names its discarder")
        return [(discarder, konger, amount * multiplier, f"点杠 {amount}{x}", src)]
    label = "补杠" if kind == "added" else "暗杠"
    return [(s, konger, amount * multiplier, f"{label} {amount}{x}", src) for s in _after(konger)]


def flower_kong_payments(seat: int, multiplier: int = 1) -> list[Due]:
    src = _x(SOURCES["instant"], multiplier)
    return [(s, seat, FLOWER_KONG * multiplier, f"花杠 {FLOWER_KONG}", src) for s in _after(seat)]


def chase_payments(first: int, multiplier: int = 1) -> list[Due]:
    """追牌: the first of four players who discarded the same tile in a row pays each other."""
    src = _x(SOURCES["instant"], multiplier)
    return [(first, s, CHASE * multiplier, f"追牌 {CHASE}", src) for s in _after(first)]


def _after(seat: int) -> list[int]:
    """The other three seats in turn order from ``seat``'s 下家."""
    return [(seat + k) % 4 for k in (1, 2, 3)]


def ends_session(chips: Chips, changes: Sequence[int], zero_players: int) -> bool:
    """Would ``changes`` bring the number of players at 0 chips to ``zero_players`` (局结,
    §A10) from fewer?"""
    before = sum(1 for c in chips if c <= 0)
    after = sum(1 for c, d in zip(chips, changes) if c + d <= 0)
    return before < zero_players <= after


def first_after(chips: Chips, changes: Sequence[int], seat: int) -> bool:
    """Is ``seat`` first (alone or tied) after ``changes``?"""
    after = [c + d for c, d in zip(chips, changes)]
    return after[seat] >= max(after)
