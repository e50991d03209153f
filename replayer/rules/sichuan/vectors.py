"""Sichuan settlement vectors (tests/data/sichuan/README.md "Schema"): read a whole hand, settle
it with the :class:`~replayer.rules.sichuan.settlement.Ledger`, and write the result as one
JSON object — ``paipu score --ruleset sichuan --vectors FILE``.

Input lines are validated by pydantic models (strict: tiles are tile codes, seats 0..3,
flags JSON booleans, unknown fields refused). Output per case::

    {"id", "components": {kong, win, hujiao_zhuanyi, huazhu, chajiao, tuishui},
     "total", "wins": [{event, seat, pattern, pattern_fan, additions, fan, paid_fan,
     per_payer, payers, amount, items}], "draw_check": [...] | null, "next_dealer"}

or, for a hand that cannot be settled, ``{"id", "error", "illegal": {rule, event, seat, …}}``
(an illegal replay: 过水不胡, 后4张必胡, a false win, a seat acting after it won).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from eventlog import tiles as _tiles
from replayer.rules.shared.vector_lines import score_lines as _score_lines, validate_case
from replayer.rules.sichuan.evaluate import SUIT_LETTERS
from replayer.rules.sichuan.options import parse_options
from replayer.rules.sichuan.settlement import (
    DrawOcc,
    KongOcc,
    Ledger,
    LedgerError,
    Meld,
    PassOcc,
    SeatHand,
    WinOcc,
)

__all__ = ["VectorCase", "score_case", "score_lines", "settle_case"]


def _suited(t: str) -> str:
    _tiles.index(t)  # ValueError for a bad code
    if t[0] not in SUIT_LETTERS:
        raise ValueError(f"{t!r} is not a Sichuan tile (W, T or B 1..9)")
    return t


Tile = Annotated[str, AfterValidator(_suited)]
Seat = Annotated[int, Field(ge=0, le=3)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class MeldIn(_Model):
    type: Literal["pung", "kong"]
    kong_kind: Literal["concealed", "melded", "added"] | None = None
    tiles: list[Tile]
    from_: Seat | None = Field(None, alias="from")

    def meld(self) -> Meld:
        n = 4 if self.type == "kong" else 3
        if len(self.tiles) != n or len(set(self.tiles)) != 1:
            raise ValueError(f"a {self.type} is {n} identical tiles, got {self.tiles}")
        if (self.type == "kong") != (self.kong_kind is not None):
            raise ValueError(f"kong_kind is set for a kong only, got {self.type} with {self.kong_kind!r}")
        return Meld(self.type, self.tiles[0], self.kong_kind, self.from_)


class HandIn(_Model):
    seat: Seat
    concealed: list[Tile]
    melds: list[MeldIn] = []

    def hand(self, *, winner: bool = False) -> SeatHand:
        need = 13 - 3 * len(self.melds)
        if len(self.concealed) != need:
            raise ValueError(f"seat {self.seat}: {len(self.melds)} melds need {need} concealed tiles, got {len(self.concealed)}")
        return SeatHand(self.seat, tuple(self.concealed), tuple(m.meld() for m in self.melds))


class KongIn(_Model):
    type: Literal["kong"]
    seat: Seat
    kong_kind: Literal["concealed", "melded", "added"]
    tile: Tile
    from_: Seat | None = Field(None, alias="from")


class WinIn(_Model):
    type: Literal["win"]
    tile: Tile
    discarder: Seat | None = None
    robbed_kong: bool = False
    kong_replacement: bool = False
    after_kong: bool = False
    heavenly: bool = False
    earthly: bool = False
    last_tile: bool = False
    winners: list[HandIn] = Field(min_length=1, max_length=3)


class PassIn(_Model):
    type: Literal["pass"]
    seat: Seat
    tile: Tile
    discarder: Seat | None = None
    robbed_kong: bool = False
    after_kong: bool = False
    wall_left: int = Field(ge=0)
    concealed: list[Tile]
    melds: list[MeldIn] = []


class DrawIn(_Model):
    type: Literal["draw"]
    seat: Seat


EventIn = Annotated[KongIn | WinIn | PassIn | DrawIn, Field(discriminator="type")]


class EndIn(_Model):
    type: Literal["wall_exhausted", "three_won", "first_win"]
    hands: list[HandIn] = []


class VectorCase(_Model):
    """One case of tests/data/sichuan/README.md (``expected``, ``source``, ``note`` are read
    and ignored)."""

    id: str
    source: str = ""
    note: str = ""
    options: dict[str, Any] = {}
    dealer: Seat = 0
    void_suits: list[Literal["W", "T", "B"]] | None = Field(None, min_length=4, max_length=4)
    events: list[EventIn]
    end: EndIn | None = None
    expected: dict[str, Any] | None = None


def settle_case(case: VectorCase) -> Ledger:
    """Run the case's occurrences through a :class:`Ledger`. Raises :class:`LedgerError` for
    an illegal occurrence, ValueError for an inconsistent case."""
    options = parse_options(case.options)
    voids = None
    if case.void_suits is not None:
        if not options.dingque_declared:
            raise ValueError("void_suits is given but option dingque_declared is off")
        voids = tuple(SUIT_LETTERS.index(v) for v in case.void_suits)
    elif options.dingque_declared:
        raise ValueError("option dingque_declared needs void_suits")
    ledger = Ledger(options, case.dealer, voids)  # type: ignore[arg-type]
    for e in case.events:
        if ledger.over:
            raise ValueError(f"event {ledger.n}: the hand is already over (§4)")
        if isinstance(e, KongIn):
            ledger = ledger.kong(KongOcc(e.seat, e.kong_kind, e.tile, e.from_))
        elif isinstance(e, WinIn):
            ledger = ledger.win(WinOcc(e.tile, tuple(w.hand() for w in e.winners), e.discarder, e.robbed_kong,
                              e.kong_replacement, e.after_kong, e.heavenly, e.earthly, e.last_tile))
        elif isinstance(e, PassIn):
            hand = HandIn(seat=e.seat, concealed=e.concealed, melds=e.melds).hand()
            ledger = ledger.pass_(PassOcc(e.seat, e.tile, hand, e.discarder, e.wall_left, e.robbed_kong, e.after_kong))
        else:
            ledger = ledger.draw(DrawOcc(e.seat))
    end = case.end
    if end is None:
        raise ValueError("the case has no end (an illegal replay must stop at an illegal event)")
    if end.type == "wall_exhausted":
        if ledger.over:
            raise ValueError("end wall_exhausted, but the hand was already over")
        ledger = ledger.exhaust(tuple(h.hand() for h in end.hands))
    elif end.type == "three_won" and (options.mode != "xuezhan" or sum(ledger.out) != 3):
        raise ValueError(f"end three_won, but {sum(ledger.out)} players won")
    elif end.type == "first_win" and (options.mode != "standard" or not ledger.win_events):
        raise ValueError("end first_win needs mode standard and a win")
    return ledger


def result(case_id: Any, ledger: Ledger) -> dict[str, Any]:
    """The output object of a settled hand (see the module docstring)."""
    wins = []
    for w in ledger.wins:
        v = w.value
        assert v.reading is not None
        wins.append({
            "event": w.occurrence, "seat": w.seat, "pattern": v.reading.pattern,
            "pattern_fan": v.reading.pattern_fan,
            "additions": [{"id": a, "fan": f} for a, f in v.additions],
            "fan": v.fan, "paid_fan": v.paid_fan, "per_payer": v.per_payer,
            "payers": list(w.payers), "amount": w.amount,
            "items": [{"id": i.id, "name": i.name_en, "name_zh": i.name_zh, "fan": i.fan, "count": i.count,
                       "tiles": [list(t) for t in i.tiles]} for i in v.items],
        })
    checks = None
    if ledger.checks is not None:
        checks = []
        for c in ledger.checks:
            row: dict[str, Any] = {"seat": c.seat, "huazhu": c.huazhu, "ready": c.ready}
            if c.ready:
                assert c.wait is not None
                row.update(waits=list(c.wait.tiles), best_fan=c.wait.best_fan,
                           paid_fan=ledger.options.capped(c.wait.best_fan), best_tiles=list(c.wait.best_tiles))
            checks.append(row)
    comps = ledger.components()
    return {"id": case_id, "components": {k: list(v) for k, v in comps.items()}, "total": list(ledger.total()),
            "wins": wins, "draw_check": checks, "next_dealer": ledger.next_dealer()}


def score_case(obj: dict[str, Any]) -> dict[str, Any]:
    """One output object for one vector object (see the module docstring). Raises
    ValueError naming the field for a malformed case."""
    case = validate_case(VectorCase, obj)
    try:
        ledger = settle_case(case)
    except LedgerError as e:
        il = e.illegal
        detail: dict[str, Any] = {"rule": il.rule, "event": il.occurrence, "seat": il.seat}
        if il.passed_fan is not None:
            detail.update(passed_fan=il.passed_fan, fan=il.fan)
        return {"id": case.id, "error": f"event {il.occurrence}: [{il.rule}] {il.message}", "illegal": detail}
    return result(case.id, ledger)


def score_lines(lines: Iterable[str], *, source: str = "-") -> Iterator[dict[str, Any]]:
    """Score every non-blank JSON line; a bad line gives ``{"id", "error"}`` naming
    ``source`` and the line number."""
    return _score_lines(lines, score_case, source=source)
