"""Nanchang settlement vectors (tests/data/nanchang/README.md "Schema") and the Jiangxi
variants' (tests/data/jiangxi/README.md: the same plus ``preset``, meld ``claimed``,
``flowers``, ``early_show``, ``winners``, ``last_tile``, ``last_drawer``): read an end-of-hand
situation, evaluate and settle it, and write the result as one JSON object.

Extension of the schema (optional keys, for the §11 options): ``lower_indicator`` (下精
indicator), ``dealt`` (four lists: each seat's dealt tiles), ``previous_indicator`` (the
previous hand's indicator, 回头一笑).

Options resolve as nanchang.md §10 defaults ← jiangxi_variants.md §1 defaults ← the preset
(``replayer/rules/presets/*.toml``) ← the case's ``options``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, model_validator

from eventlog import tiles as _tiles
from replayer.findings import RulesetError
from replayer.rules.base import presets
from replayer.rules.nanchang.evaluate import WinEvaluation, WinInput, evaluate
from replayer.rules.nanchang.options import NanchangOptions, parse_options
from replayer.rules.nanchang.settlement import (
    HandSituation,
    MeldInfo,
    PlayerTiles,
    nobody_holds_jing,
    settle_hand,
)
from replayer.rules.nanchang.table_rules import check_situation
from replayer.rules.shared.vector_lines import score_lines as _score_lines, validate_case

__all__ = ["VectorCase", "situation_from_json", "score_case", "score_lines"]


def _tile(t: str) -> str:
    try:
        _tiles.index(t)
    except ValueError:
        raise ValueError(f"not a tile code: {t!r}") from None
    return t


Tile = Annotated[str, AfterValidator(_tile)]
Seat = Annotated[StrictInt, Field(ge=0, le=3)]


class _Model(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="forbid", populate_by_name=True)


class MeldIn(_Model):
    """A declared set: ``from`` the seat the claimed tile came from (null for a concealed
    kong), ``claimed`` the tile taken (Jiangxi)."""

    type: Literal["chow", "pung", "kong"]
    kong_kind: Literal["concealed", "melded", "added"] | None = None
    tiles: list[Tile]
    from_: Seat | None = Field(None, alias="from")
    claimed: Tile | None = None

    @model_validator(mode="after")
    def _shape(self) -> MeldIn:
        if self.type == "kong" and self.kong_kind is None:
            raise ValueError("kong_kind: a kong needs concealed, melded or added")
        n = 4 if self.type == "kong" else 3
        if len(self.tiles) != n:
            raise ValueError(f"tiles: a {self.type} has {n} tiles, got {len(self.tiles)}")
        return self

    def meld(self) -> MeldInfo:
        return MeldInfo(self.type, tuple(self.tiles), self.kong_kind if self.type == "kong" else None,
                        self.from_, self.claimed)


class PlayerIn(_Model):
    """One seat's tiles at the end of the hand (the winner's concealed tiles without the
    winning tile)."""

    concealed: list[Tile] = []
    melds: list[MeldIn] = []
    unclaimed_discards: list[Tile] = []
    flowers: list[Tile] = []
    early_show: bool = False

    def tiles(self) -> PlayerTiles:
        return PlayerTiles(concealed=tuple(self.concealed), melds=tuple(m.meld() for m in self.melds),
                           unclaimed_discards=tuple(self.unclaimed_discards), flowers=tuple(self.flowers),
                           early_show=self.early_show)


class OutcomeIn(_Model):
    """How the hand ended: ``win`` (``winner`` or ``winners`` in turn order from the
    discarder, ``win_tile``; ``discarder`` null for a self-draw), ``draw`` or ``false_win``
    (``offender``)."""

    type: Literal["win", "draw", "false_win"]
    winner: Seat | None = None
    winners: Annotated[list[Seat], Field(min_length=1, max_length=3)] | None = None
    win_tile: Tile | None = None
    discarder: Seat | None = None
    robbed_from: Seat | None = None
    kong_replacement: bool = False
    heavenly: bool = False
    earthly: bool = False
    last_tile: bool = False
    offender: Seat | None = None
    last_drawer: Seat | None = None

    @model_validator(mode="after")
    def _win(self) -> OutcomeIn:
        if self.type == "win":
            if self.winner is None and not self.winners:
                raise ValueError("winner: a win needs a winner seat 0..3 (or winners)")
            if self.win_tile is None:
                raise ValueError("win_tile: a win needs its winning tile")
        return self


class VectorCase(_Model):
    """One line of tests/data/nanchang/README.md "Schema" or tests/data/jiangxi/README.md
    (``expected``, ``source`` and ``note`` are read and ignored)."""

    id: str | int | None = None
    source: str = ""
    note: str = ""
    preset: str | None = None
    options: dict[str, Any] | None = None
    indicator: Tile | None = None
    indicator_drawn: bool = False
    lower_indicator: Tile | None = None
    previous_indicator: Tile | None = None
    dealer: Seat = 0
    first_discards: list[Tile] | None = None
    dealt: Annotated[list[list[Tile]], Field(min_length=4, max_length=4)] | None = None
    players: Annotated[list[PlayerIn], Field(min_length=4, max_length=4)]
    outcome: OutcomeIn
    expected: dict[str, Any] | None = None


def resolve_options(case: VectorCase) -> NanchangOptions:
    """The options of a case: its ``preset`` (a Nanchang-based preset) and its ``options``
    on top. Raises :class:`RulesetError` for an unknown preset or a bad option."""
    raw = dict(case.options or {})
    name = case.preset
    if name is not None:
        found = presets().get(name)
        if found is None:
            raise RulesetError(f"preset: unknown preset {name!r} (known: {', '.join(sorted(presets()))})")
        base, popts = found
        if base != "nanchang":
            raise RulesetError(f"preset: {name!r} is a {base} preset, not a Nanchang one")
        raw = {**popts, **raw}
    return parse_options(raw)


def situation_from_json(obj: dict[str, Any]) -> tuple[HandSituation, NanchangOptions]:
    """The :class:`HandSituation` and options of one vector object, read through the strict
    model :class:`VectorCase` (tile lists are lists of tile codes, flags JSON booleans, seats
    integers 0..3, four players, unknown fields refused). Raises ValueError naming the field
    (``players[0].melds[1].tiles: …``) or :class:`replayer.findings.RulesetError` for a bad
    preset or option."""
    case = validate_case(VectorCase, obj)
    options = resolve_options(case)
    out = case.outcome
    if options.jing_mode != "none" and case.indicator is None:
        raise ValueError(f"indicator: required with jing_mode {options.jing_mode}")
    first = case.first_discards or []
    winners = tuple(out.winners or ())
    sit = HandSituation(
        indicator=case.indicator if options.jing_mode != "none" else None,
        dealer=case.dealer,
        players=tuple(p.tiles() for p in case.players),  # type: ignore[arg-type]
        outcome=out.type,
        winner=out.winner if out.winner is not None else (winners[0] if winners else None),
        win_tile=out.win_tile if out.type == "win" else None,
        discarder=out.discarder,
        robbed_from=out.robbed_from,
        kong_replacement=out.kong_replacement,
        heavenly=out.heavenly,
        earthly=out.earthly,
        offender=out.offender,
        chaozhuang=len(first) >= 4 and len(set(first[:4])) == 1,
        lower_indicator=case.lower_indicator,
        dealt=tuple(tuple(h) for h in case.dealt) if case.dealt else None,
        previous_indicator=case.previous_indicator,
        jing_mode=options.jing_mode,
        winners=winners,
        last_tile=out.last_tile,
    )
    return sit, options


def _discarded(sit: HandSituation, seat: int) -> tuple[str, ...]:
    """Every tile ``seat`` discarded: its unclaimed discards and the tiles others claimed from
    it (飞宝 counts both)."""
    out = list(sit.players[seat].unclaimed_discards)
    for o, p in enumerate(sit.players):
        if o != seat:
            out += [m.claimed for m in p.melds if m.from_seat == seat and m.claimed is not None]
    return tuple(out)


def evaluate_situation(sit: HandSituation, options: NanchangOptions, winner: int | None = None) -> WinEvaluation:
    """The win evaluation of ``winner`` (default: the situation's winner) in a situation whose
    outcome is a win."""
    winner = sit.winner if winner is None else winner
    assert winner is not None and sit.win_tile is not None
    p = sit.players[winner]
    if sit.robbed_from is not None:
        source, frm = "robbed", sit.robbed_from
    elif sit.discarder is not None:
        source, frm = "discard", sit.discarder
    else:
        source, frm = "self_drawn", None
    win = WinInput(p.concealed, p.melds, sit.win_tile, source, winner, sit.dealer, frm,  # type: ignore[arg-type]
                   sit.kong_replacement, sit.heavenly, sit.earthly, p.flowers, _discarded(sit, winner), sit.last_tile)
    return evaluate(win, sit.kinds, options, nobody_holds_jing=nobody_holds_jing(sit, options))


def _rule(ev: WinEvaluation) -> str:
    return "not_a_winning_hand" if ev.rule_id == "false_win" else ev.rule_id or "not_a_winning_hand"


def _win_json(ev: WinEvaluation) -> dict[str, Any]:
    out: dict[str, Any] = {
        "shape": ev.shape,
        "conditions": list(ev.conditions),
        "jing": [list(p) for p in (ev.interpretation.wild if ev.interpretation else ())],
    }
    if ev.counts:
        out["counts"] = dict(ev.counts)
    return out


def score_case(obj: dict[str, Any]) -> dict[str, Any]:
    """One output object: ``{"id", "components", "total", "win": {"shape", "conditions",
    "jing": [[jing, stands for], …][, "counts"]} | null[, "wins": [...]]}`` or ``{"id",
    "error", "rule"}`` when the situation breaks a rule of its options (``rule``: the rule id
    of the jiangxi data README's "Illegal wins", e.g. ``discard_win_allowed``). A Jiangxi case
    (with ``preset``) lists every component of that schema, ``early_show`` included. Raises on
    a malformed situation (see :func:`situation_from_json`)."""
    sit, options = situation_from_json(obj)
    winners = sit.all_winners
    first = obj.get("first_discards") or []
    broken = check_situation(sit.players, winners, sit.discarder, sit.win_tile, options,
                             tuple(first) + ((sit.indicator,) if sit.indicator else ()))
    if broken is not None:
        return {"id": obj.get("id"), "error": f"not a legal situation: [{broken[0]}] {broken[1]}", "rule": broken[0]}
    evs: list[WinEvaluation] = []
    for w in winners:
        ev = evaluate_situation(sit, options, w)
        if not ev.legal:
            return {"id": obj.get("id"), "error": f"not a legal win: [{ev.rule_id}] {ev.message}", "rule": _rule(ev)}
        evs.append(ev)
    comps = settle_hand(sit, options, evaluations=evs)
    parts = comps.as_dict()
    if "preset" in obj and "early_show" not in parts:
        parts = {k: parts.get(k, [0, 0, 0, 0]) for k in ("jing", "gangjing", "kong", "chaozhuang", "early_show")} | {
            k: v for k, v in parts.items() if k not in ("jing", "gangjing", "kong", "chaozhuang")}
    res: dict[str, Any] = {"id": obj.get("id"), "components": parts, "total": list(comps.total)}
    if len(evs) > 1:
        res["win"] = None
        res["wins"] = [{"winner": w, **_win_json(e)} for w, e in zip(winners, evs)]
    else:
        res["win"] = _win_json(evs[0]) if evs else None
    return res


def score_lines(lines: Iterable[str], *, source: str = "-") -> Iterator[dict[str, Any]]:
    """Score every non-blank JSON line; a bad line gives ``{"id", "error"}`` naming
    ``source`` and the line number."""
    return _score_lines(lines, score_case, source=source)
