"""Changsha settlement vectors (tests/data/changsha/README.md "Schema"): read a hand situation
(opening declarations, kongs, the final win or exhaustive draw), evaluate and settle it, and
write the result as one JSON object.

The situation is read through pydantic models (strict types: tiles are suited tile codes,
seats integers 0..3, flags JSON booleans); a malformed situation raises ValueError naming the
field. A situation that is well formed but breaks a rule (a declaration the shown tiles do not
prove, a false win, birds that are not the tiles the rules turn) gives ``{"id", "error"}``
naming the rule and its section.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictInt,
)

from eventlog import tiles as _tiles
from eventlog.errors import PaipuError
from replayer.rules.changsha.dealer import next_dealer
from replayer.rules.changsha.evaluate import (
    DeclarationError,
    Unit,
    WinInput,
    check_declarations,
    evaluate_win,
)
from replayer.rules.changsha.options import ChangshaOptions, parse_options
from replayer.rules.changsha.settlement import (
    Components,
    OpeningResult,
    WinnerResult,
    add,
    kong_money,
    settle_opening,
    settle_winner,
)
from replayer.rules.shared.vector_lines import score_lines as _score_lines, validate_case
from replayer.state import DeclaredMeld

__all__ = ["Situation", "score_case", "score_lines", "situation_from_json"]


def _suited(v: Any) -> str:
    if not isinstance(v, str) or not _tiles.is_valid(v):
        raise ValueError(f"not a tile code: {v!r}")
    if _tiles.is_honor(v) or _tiles.is_flower(v):
        raise ValueError(f"{v}: Changsha plays 108 suited tiles, no honors or flowers (changsha.md §1)")
    return v


Tile = Annotated[str, BeforeValidator(_suited)]
Seat = Annotated[StrictInt, Field(ge=0, le=3)]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Declaration(_Model):
    seat: Seat
    kind: Literal["four_identical", "no_258", "missing_suit", "two_pungs"]
    tiles: list[Tile]


class Opening(_Model):
    declarations: list[Declaration] = []
    dice: Annotated[StrictInt, Field(ge=2, le=12)] | None = None


class Meld(_Model):
    type: Literal["chow", "pung", "kong"]
    kong_kind: Literal["melded", "added", "concealed"] | None = None
    tiles: list[Tile]
    from_: Seat | None = Field(None, alias="from")


class KongOccurrence(_Model):
    type: Literal["kong"]
    seat: Seat
    kong_kind: Literal["melded", "added", "concealed"]
    tile: Tile
    from_: Seat | None = Field(None, alias="from")
    mode: Literal["buzhang", "kaigang"]
    dice: Annotated[StrictInt, Field(ge=2, le=12)] | None = None
    revealed: list[Tile] = []


class Winner(_Model):
    seat: Seat
    win_tile: Tile
    concealed: list[Tile]
    melds: list[Meld] = []


class Haidi(_Model):
    first_offered: Seat
    taker: Seat | None = None


class WinOccurrence(_Model):
    type: Literal["win"]
    context: Literal["plain", "heavenly", "earthly", "haidi", "kaigang", "robbed_kong"]
    discarder: Seat | None = None
    wall_left: Annotated[StrictInt, Field(ge=0, le=55)]
    haidi: Haidi | None = None
    winners: Annotated[list[Winner], Field(min_length=1, max_length=3)]
    birds: list[Tile] = []


class DrawOccurrence(_Model):
    type: Literal["draw"]
    haidi: Haidi | None = None
    last_replacement: Seat | None = None


Occurrence = Annotated[KongOccurrence | WinOccurrence | DrawOccurrence, Field(discriminator="type")]


class Situation(BaseModel):
    """One vector line (tests/data/changsha/README.md). ``expected``, ``source`` and ``note``
    are carried but not read."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: Any = None
    source: str | None = None
    note: str | None = None
    options: dict[str, Any] = {}
    dealer: Seat
    opening: Opening = Opening()
    occurrences: Annotated[list[Occurrence], Field(min_length=1)]
    expected: Any = None


class RuleBreach(PaipuError):
    """A well-formed situation that breaks a rule: ``rule_id`` and a message citing the spec."""

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"[{rule_id}] {message}")
        self.rule_id = rule_id


def situation_from_json(obj: dict[str, Any]) -> tuple[Situation, ChangshaOptions]:
    """The :class:`Situation` and options of one vector object. Raises ValueError naming the
    bad field, or :class:`replayer.findings.RulesetError` for bad options."""
    sit = validate_case(Situation, obj)
    options = parse_options(sit.options)
    occ = sit.occurrences
    if any(o.type != "kong" for o in occ[:-1]) or occ[-1].type == "kong":
        raise ValueError("occurrences: kongs, then exactly one final win or draw")
    if (sit.opening.dice is not None) != (options.opening_bird == "dice"):
        raise ValueError("opening.dice: present exactly when the option opening_bird is dice")
    for k in occ[:-1]:
        assert isinstance(k, KongOccurrence)
        if k.mode == "kaigang" and (k.dice is None or len(k.revealed) not in (1, 2)):
            raise ValueError("a kaigang kong needs dice and one or two revealed tiles")
        if k.mode == "buzhang" and (k.dice is not None or k.revealed):
            raise ValueError("a buzhang kong has no dice and no revealed tiles")
        if (k.from_ is None) != (k.kong_kind == "concealed"):
            raise ValueError("kong from: a seat for melded and added kongs, null for a concealed kong")
    return sit, options


def _meld(m: Meld) -> DeclaredMeld:
    size = 4 if m.type == "kong" else 3
    if len(m.tiles) != size:
        raise ValueError(f"a {m.type} has {size} tiles, got {len(m.tiles)}")
    if (m.type == "kong") != (m.kong_kind is not None):
        raise ValueError("kong_kind: given for kongs only")
    if m.type == "chow":
        ranks = sorted(_tiles.rank_of(t) for t in m.tiles)
        if len({_tiles.suit_of(t) for t in m.tiles}) != 1 or ranks != [ranks[0], ranks[0] + 1, ranks[0] + 2]:
            raise ValueError(f"a chow is three consecutive tiles of one suit, got {m.tiles}")
    elif len(set(m.tiles)) != 1:
        raise ValueError(f"a {m.type} is {size} identical tiles, got {m.tiles}")
    return DeclaredMeld(kind=m.type, tiles=tuple(_tiles.sort_tiles(m.tiles)), seq=0, from_seat=m.from_,
                        kong_kind=m.kong_kind)


def _openings(sit: Situation, options: ChangshaOptions) -> list[OpeningResult]:
    by_seat: dict[int, list[Declaration]] = {}
    for d in sit.opening.declarations:
        by_seat.setdefault(d.seat, []).append(d)
    out = []
    for seat in sorted(by_seat):
        try:
            units = check_declarations([(d.kind, d.tiles) for d in by_seat[seat]], dealer=seat == sit.dealer)
        except DeclarationError as e:
            raise RuleBreach(e.rule_id, f"seat {seat}: {e}") from None
        out.append(settle_opening(seat, units, dealer=sit.dealer, dice=sit.opening.dice, options=options))
    return out


def _check_win(sit: Situation, w: WinOccurrence, options: ChangshaOptions, kong: KongOccurrence | None) -> None:
    """Context consistency of the final win (changsha.md §3.3, §4, §5.1)."""
    self_drawn = w.discarder is None
    seats = [x.seat for x in w.winners]
    if len(set(seats)) != len(seats):
        raise ValueError("winners: a seat wins once")
    if self_drawn and len(seats) > 1:
        raise ValueError("winners: a self-draw has one winner")
    if w.discarder is not None and w.discarder in seats:
        raise ValueError("winners: the discarder cannot win on its own tile")
    if (w.haidi is not None) != (w.context == "haidi"):
        raise ValueError("haidi: given exactly for a haidi win")
    if w.context == "heavenly" and (not self_drawn or seats != [sit.dealer]):
        raise RuleBreach("heavenly_not_dealer", "天胡 is the dealer's self-drawn dealt hand (changsha.md §3.3 #1)")
    if w.context == "earthly" and (w.discarder != sit.dealer):
        raise RuleBreach("earthly_not_dealer_discard", "地胡 is a win on the dealer's first discard (changsha.md §3.3 #2)")
    if w.context in ("robbed_kong",) and self_drawn:
        raise RuleBreach("robbing_needs_robbed", "抢杠 names the robbed player as the payer (changsha.md §8.9)")
    if w.context == "haidi":
        assert w.haidi is not None
        if w.wall_left != 0:
            raise ValueError("wall_left: 0 for a haidi win")
        taker = w.haidi.taker
        if taker is None or (self_drawn and seats != [taker]) or (not self_drawn and w.discarder != taker):
            raise RuleBreach("haidi_taker", "海底捞月 is the taker's self-draw, 海底炮 is paid by the taker "
                                            "(changsha.md §4 海底漫游)")
        if len(w.birds) != 1 or any(x.win_tile != w.birds[0] for x in w.winners):
            raise RuleBreach("wrong_birds", "a 海底 win has exactly one bird, the 海底 tile (changsha.md §5.1, §8.10)")
    else:
        want = min(options.birds, w.wall_left)
        if len(w.birds) != want:
            raise RuleBreach("wrong_birds", f"{want} bird tile(s) are turned (birds = {options.birds}, "
                                            f"{w.wall_left} tiles left), got {len(w.birds)} (changsha.md §5.1, §8.10)")
    if w.context == "kaigang":
        if kong is None or kong.mode != "kaigang":
            raise RuleBreach("kaigang_missing", "a kaigang win follows a 开杠 (changsha.md §4)")
        payer = kong.seat
        if self_drawn and seats != [payer]:
            raise RuleBreach("kaigang_self_draw", "杠上开花 is the 开杠 player's own win (changsha.md §3.3 #10)")
        if not self_drawn and w.discarder != payer:
            raise RuleBreach("kaigang_payer", "杠上炮 is paid by the 开杠 player (changsha.md §4)")
        if any(x.win_tile not in kong.revealed for x in w.winners):
            raise RuleBreach("kaigang_tile", "a 开杠 win is on one of the revealed tiles (changsha.md §4)")
    elif not self_drawn and w.context != "kaigang" and len({x.win_tile for x in w.winners}) != 1:
        raise ValueError("winners: several winners win on the same tile (通炮)")


def score_case(obj: dict[str, Any]) -> dict[str, Any]:
    """One output object ``{"id", "components", "total", "opening", "wins", "next_dealer",
    "next_dealer_rule"}`` (tests/data/changsha/README.md) plus ``explained`` (per opening
    declarer and per winner: each unit's id, English and Chinese name, count, tiles and rule
    source), or ``{"id", "error"}`` for a
    situation that breaks a rule (a false win, an unproved declaration, wrong birds). Raises
    ValueError on a malformed situation (see :func:`situation_from_json`)."""
    sit, options = situation_from_json(obj)
    try:
        return _score(sit, options)
    except RuleBreach as e:
        return {"id": sit.id, "error": str(e)}


def _score(sit: Situation, options: ChangshaOptions) -> dict[str, Any]:
    openings = _openings(sit, options)
    kongs = [o for o in sit.occurrences[:-1] if isinstance(o, KongOccurrence)]
    final = sit.occurrences[-1]
    paid = kongs
    if (isinstance(final, WinOccurrence) and final.context == "robbed_kong" and kongs
            and kongs[-1].kong_kind == "added" and kongs[-1].seat == final.discarder):
        paid = kongs[:-1]  # the robbed kong itself pays no kong money (§8.9)
    kong_vec = add(*(kong_money(k.seat, k.kong_kind, options) for k in paid))
    winners: list[WinnerResult] = []
    if isinstance(final, WinOccurrence):
        _check_win(sit, final, options, kongs[-1] if kongs else None)
        for w in final.winners:
            melds = tuple(_meld(m) for m in w.melds)
            ev = evaluate_win(WinInput(tuple(w.concealed), melds, w.win_tile, final.discarder is None,
                                       final.context), options)
            if not ev.legal:
                raise RuleBreach(ev.rule_id or "false_win", f"seat {w.seat}: not a legal win: {ev.message}")
            winners.append(settle_winner(w.seat, ev, discarder=final.discarder, dealer=sit.dealer,
                                         birds=final.birds, options=options))
    comps = Components(
        opening=add(*(o.opening for o in openings)),
        opening_bird=add(*(o.opening_bird for o in openings)),
        kong=kong_vec,
        win=add(*(w.win for w in winners)),
        bird=add(*(w.bird for w in winners)),
    )
    start_winners = {o.seat for o in openings}
    start_bird: int | None = sit.opening.dice if options.opening_bird == "dice" else None
    if isinstance(final, WinOccurrence) and final.context == "heavenly":
        start_winners.add(sit.dealer)
        if start_bird is None and final.birds:
            start_bird = _tiles.rank_of(final.birds[0])
    if isinstance(final, WinOccurrence):
        nd = next_dealer(dealer=sit.dealer, start_winners=start_winners, start_bird_rank=start_bird,
                         winners=[w.seat for w in final.winners], discarder=final.discarder)
    else:
        assert isinstance(final, DrawOccurrence)
        if final.haidi is None and final.last_replacement is None:
            raise ValueError("draw: haidi or last_replacement")
        if final.haidi is None and (not kongs or kongs[-1].seat != final.last_replacement):
            raise RuleBreach("last_replacement", "the last replacement is drawn by the last kong's seat "
                                                 "(changsha.md §2 E)")
        nd = next_dealer(dealer=sit.dealer, start_winners=start_winners, start_bird_rank=start_bird,
                         winners=[], discarder=None,
                         haidi_first_offered=final.haidi.first_offered if final.haidi else None,
                         haidi_taker=final.haidi.taker if final.haidi else None,
                         last_replacement=final.last_replacement)
    return {
        "id": sit.id,
        "components": comps.as_dict(),
        "total": list(comps.total),
        "opening": [
            {"seat": o.seat, "units": [{"name": u.id, "count": u.count} for u in o.units],
             "unit_count": o.unit_count, "bird_seat": o.bird_seat}
            for o in openings
        ],
        "wins": [
            {"seat": w.seat, "category": w.evaluation.category,
             "units": [{"name": u.id, "count": u.count} for u in w.evaluation.units],
             "unit_count": w.evaluation.unit_count, "bird_seats": list(w.bird_seats),
             "win": list(w.win), "bird": list(w.bird)}
            for w in winners
        ],
        "next_dealer": nd.seat,
        "next_dealer_rule": nd.rule,
        "explained": {
            "opening": [{"seat": o.seat, "items": [_item(u) for u in o.units]} for o in openings],
            "wins": [{"seat": w.seat, "items": [_item(u) for u in w.evaluation.units]} for w in winners],
        },
    }


def _item(u: Unit) -> dict[str, Any]:
    """One unit explained: id, English and Chinese name, count, the tiles it counts, source."""
    return {"id": u.id, "name": u.name, "name_zh": u.chinese, "count": u.count,
            "tiles": list(u.tiles), "source": u.kind.source}


def score_lines(lines: Iterable[str], *, source: str = "-") -> Iterator[dict[str, Any]]:
    """Score every non-blank JSON line; a bad line gives ``{"id", "error"}`` naming ``source``
    and the line number."""
    return _score_lines(lines, score_case, source=source)
