"""Changsha payments (docs/reference/rules/changsha.md §5, §4 kong money), component by component.

Every function returns zero-sum 4-vectors (points, seats 0..3 in turn order):

* ``opening`` — opening small wins (起手小胡), each declaring seat paid as a small self-draw
  with its units added and the dealer surcharge once (§3.2, §5); ``opening_bird`` — the extra
  caused by the opening dice bird (``opening_bird = dice``, §8.11);
* ``kong`` — kong money (``kong_pay``, §4, §8.14), never doubled;
* ``win`` — a winner's payments without birds, dealer surcharge included (§5); ``bird`` — the
  extra caused by the birds (扎鸟, §5.1).

Payment of one winner (or declarer) by one payer (§5): ``units × value`` (value X for small
units, 6X for big ones) ``+ X`` when the dealer is the winner or that payer. A self-draw is
paid by the three others, a discard win (海底炮, 杠上炮 and 抢杠 included: the taker, the 开杠
player, the robbed player) by the discarder alone. Birds: per payer, the hits are the birds on
the winner or the discarder (discard win) or on the winner or that payer (self-draw); ``add``:
amount × (1 + hits), ``multiply``: amount × 2^hits; with ``bird_excludes_dealer_bonus`` the
surcharge is added after.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from eventlog import tiles as _tiles
from replayer.rules.changsha.evaluate import Unit, WinEvaluation
from replayer.rules.changsha.options import ChangshaOptions

__all__ = [
    "COMPONENT_ORDER",
    "ZERO",
    "Components",
    "OpeningResult",
    "Vec",
    "WinnerResult",
    "add",
    "bird_seat",
    "bird_seats",
    "kong_money",
    "pay",
    "settle_opening",
    "settle_winner",
]

Vec = tuple[int, int, int, int]
ZERO: Vec = (0, 0, 0, 0)
COMPONENT_ORDER = ("opening", "opening_bird", "kong", "win", "bird")


def add(*vecs: Iterable[int]) -> Vec:
    """Seat-wise sum of 4-vectors."""
    out = [0, 0, 0, 0]
    for v in vecs:
        for i, x in enumerate(v):
            out[i] += x
    return (out[0], out[1], out[2], out[3])


@dataclass(frozen=True)
class Components:
    """The settlement of one hand by component (COMPONENT_ORDER), each zero-sum."""

    opening: Vec = ZERO
    opening_bird: Vec = ZERO
    kong: Vec = ZERO
    win: Vec = ZERO
    bird: Vec = ZERO

    @property
    def total(self) -> Vec:
        return add(self.opening, self.opening_bird, self.kong, self.win, self.bird)

    def as_dict(self) -> dict[str, list[int]]:
        return {name: list(getattr(self, name)) for name in COMPONENT_ORDER}


def bird_seat(rank: int, origin: int) -> int:
    """The seat a bird of ``rank`` (1..9, or a dice sum 2..12) hits counting from ``origin``:
    ``origin + (rank − 1) mod 4`` in play order (§5.1: 1, 5, 9 → the origin; 2, 6 → its 下家;
    3, 7 → 对家; 4, 8 → 上家)."""
    return (origin + rank - 1) % 4


def bird_seats(birds: Sequence[str], origin: int) -> tuple[int, ...]:
    """The seat each bird tile hits, counting from ``origin`` (§5.1)."""
    return tuple(bird_seat(_tiles.rank_of(t), origin) for t in birds)


def pay(*, winner: int, discarder: int | None, units: int, value: int, dealer: int,
        hits_on: Sequence[int], options: ChangshaOptions) -> tuple[Vec, Vec]:
    """``(win, bird)`` vectors of one winner (or opening declarer) paid ``units × value`` by the
    discarder, or by every other seat when ``discarder`` is None, with the dealer surcharge and
    the birds ``hits_on`` (the seat each bird hits). See the module docstring."""
    x = options.unit
    win = [0, 0, 0, 0]
    bird = [0, 0, 0, 0]
    payers = [discarder] if discarder is not None else [s for s in range(4) if s != winner]
    for p in payers:
        base = units * value
        bonus = x if dealer in (winner, p) else 0
        amount = base + bonus
        involved = (winner, p)  # discard win: the discarder is the payer
        hits = sum(1 for s in hits_on if s in involved)
        factor = (1 + hits) if options.bird_mode == "add" else 2 ** hits
        final = base * factor + bonus if options.bird_excludes_dealer_bonus else amount * factor
        win[p] -= amount
        win[winner] += amount
        bird[p] -= final - amount
        bird[winner] += final - amount
    return (win[0], win[1], win[2], win[3]), (bird[0], bird[1], bird[2], bird[3])


@dataclass(frozen=True)
class OpeningResult:
    """One declaring seat's opening small wins: ``units`` (count per kind, canonical order),
    ``bird_seat`` (the seat the opening dice bird hits, None without one), and its
    ``opening`` / ``opening_bird`` vectors."""

    seat: int
    units: tuple[Unit, ...]
    bird_seat: int | None
    opening: Vec
    opening_bird: Vec

    @property
    def unit_count(self) -> int:
        return sum(u.count for u in self.units)


def settle_opening(seat: int, units: tuple[Unit, ...], *, dealer: int, dice: int | None,
                   options: ChangshaOptions) -> OpeningResult:
    """Pay one seat's opening small wins as one small self-draw of ``sum(counts)`` units
    (§3.2, §5: units add, the dealer surcharge once). With ``opening_bird = dice`` the dice sum
    ``dice`` is one bird counted from the dealer (or the declarer with ``bird_origin =
    winner``), effect as a self-draw bird (§8.11)."""
    n = sum(u.count for u in units)
    hit: int | None = None
    if options.opening_bird == "dice":
        if dice is None:
            raise ValueError("opening_bird = dice needs the dealer's dice sum")
        origin = seat if options.bird_origin == "winner" else dealer
        hit = bird_seat(dice, origin)
    win, bird = pay(winner=seat, discarder=None, units=n, value=options.unit, dealer=dealer,
                    hits_on=() if hit is None else (hit,), options=options)
    return OpeningResult(seat, units, hit, win, bird)


def kong_money(seat: int, kong_kind: str, options: ChangshaOptions) -> Vec:
    """Kong money (§4, §8.14): each other seat pays ``kong_pay.an`` for a concealed kong,
    ``kong_pay.ming`` for a melded or added one, at once; points, never doubled."""
    amount = options.kong_pay.an if kong_kind == "concealed" else options.kong_pay.ming
    v = [-amount] * 4
    v[seat] = 3 * amount
    return (v[0], v[1], v[2], v[3])


@dataclass(frozen=True)
class WinnerResult:
    """One winner's settlement: the ``evaluation`` (category, units), ``bird_seats`` (the seat
    each bird hits for this winner) and its ``win`` / ``bird`` vectors."""

    seat: int
    evaluation: WinEvaluation
    bird_seats: tuple[int, ...]
    win: Vec
    bird: Vec


def settle_winner(seat: int, evaluation: WinEvaluation, *, discarder: int | None, dealer: int,
                  birds: Sequence[str], options: ChangshaOptions) -> WinnerResult:
    """Pay one legal win (§5, §5.1; several winners on one discard are each settled against
    the discarder with the same birds, §5.2). ``birds``: the bird tiles turned for the hand."""
    value = options.unit * (6 if evaluation.category == "big" else 1)
    origin = seat if options.bird_origin == "winner" else dealer
    hits = bird_seats(birds, origin)
    win, bird = pay(winner=seat, discarder=discarder, units=evaluation.unit_count, value=value,
                    dealer=dealer, hits_on=hits, options=options)
    return WinnerResult(seat, evaluation, hits, win, bird)
