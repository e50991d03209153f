"""Read the shared MCR fan vectors (tests/data/mcr/README.md, "Schema") into
:class:`WinSituation` objects, write results as JSON lines, and build the reference
calculator's arguments for a situation (README "Passing a case to the oracle").
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from eventlog.errors import InvalidArgument
from eventlog import tiles as _tiles
from replayer.rules.shared.vector_lines import field_error, score_lines as _score_lines, validate_case

from .situation import FanResult, Meld, WinSituation

__all__ = ["VectorCase", "VectorError", "read_vectors", "situation_from_json", "result_to_json", "oracle_args"]

_WIND_NUMBER = {"E": 0, "S": 1, "W": 2, "N": 3}


class VectorError(InvalidArgument):
    """A vector line that does not follow the schema; the message names file and line."""


@dataclass(frozen=True)
class VectorCase:
    """One line of a vector file: its id, generator category, situation and expected result
    (the ``expected`` object as written)."""

    id: str
    category: str
    situation: WinSituation
    expected: dict[str, Any]
    line: int


def _check_tile(v: str) -> str:
    try:
        _tiles.index(v)
    except ValueError:
        raise ValueError(f"not a tile code: {v!r}") from None
    return v


_Tile = Annotated[str, AfterValidator(_check_tile)]
_Wind = Literal["E", "S", "W", "N"]


class _MeldIn(BaseModel):
    """A declared set in a vector (README "Schema"): ``claimed_from`` 1..3 relative."""

    model_config = ConfigDict(strict=True, frozen=True)

    type: Literal["chow", "pung", "kong"]
    tiles: list[_Tile]
    concealed: bool = False
    claimed_from: Literal[1, 2, 3] | None = None
    claimed_tile: _Tile | None = None


class _SituationIn(BaseModel):
    """One vector's situation, read strictly: JSON booleans, integer flowers 0..8, tile
    strings, winds E S W N (other keys of the line — id, category, expected — are ignored)."""

    model_config = ConfigDict(strict=True, frozen=True, extra="ignore")

    hand: list[_Tile]
    win_tile: _Tile
    melds: list[_MeldIn] = []
    self_drawn: bool = False
    last_tile: bool = False
    kong_related: bool = False
    last_of_wall: bool = False
    seat_wind: _Wind = "E"
    prevalent_wind: _Wind = "E"
    flowers: int = Field(0, ge=0, le=8)


def situation_from_json(obj: dict[str, Any]) -> WinSituation:
    """Build a :class:`WinSituation` from one vector object (schema: tests/data/mcr/README.md),
    read through a strict pydantic model: ``hand`` a list of tile strings, ``win_tile`` a tile
    string, ``melds`` a list of objects (``type`` chow/pung/kong, ``tiles`` tile strings,
    ``concealed`` boolean, ``claimed_from`` 1..3, ``claimed_tile`` a tile), the flags JSON
    booleans, ``flowers`` an integer 0..8, ``seat_wind``/``prevalent_wind`` one of E S W N.
    Raises ``ValueError`` naming the field (``melds[0].type``)."""
    if not isinstance(obj, dict):
        raise ValueError(f"situation: not a JSON object: {obj!r}")
    v = validate_case(_SituationIn, obj)
    return WinSituation(
        hand=tuple(v.hand),
        win_tile=v.win_tile,
        melds=tuple(Meld(type=m.type, tiles=tuple(m.tiles), concealed=m.concealed, claimed_from=m.claimed_from,
                         claimed_tile=m.claimed_tile) for m in v.melds),
        self_drawn=v.self_drawn,
        last_tile=v.last_tile,
        kong_related=v.kong_related,
        last_of_wall=v.last_of_wall,
        seat_wind=v.seat_wind,
        prevalent_wind=v.prevalent_wind,
        flowers=v.flowers,
    )


def read_vectors(path: str | Path) -> Iterator[VectorCase]:
    """Yield the cases of a JSON-lines vector file in file order."""
    path = Path(path)
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                yield VectorCase(obj["id"], obj.get("category", ""), situation_from_json(obj), obj["expected"], n)
            except (ValueError, KeyError, TypeError) as exc:
                raise VectorError(f"{path}:{n}: bad vector line: {exc}") from None


def result_to_json(case_id: str, result: FanResult) -> str:
    """One JSON line in the shape of the vectors' ``expected`` object (plus ``id``, ``tiles``
    per fan, and ``is_win``/``error``)."""
    obj = {
        "id": case_id,
        "is_win": result.is_win,
        "fans": [
            {"name_en": f.name_en, "name_zh": f.name_zh, "points": f.points, "count": f.count,
             "tiles": [list(g) for g in f.tiles]}
            for f in result.fans
        ],
        "total": result.total,
        "total_without_flowers": result.total_without_flowers,
        "meets_8_fan_minimum": result.meets_minimum,
    }
    if result.error:
        obj["error"] = result.error
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def oracle_args(s: WinSituation) -> tuple:
    """Positional arguments for ``MahjongGB.MahjongFanCalculator`` (without ``verbose``):
    pack, hand, winTile, flowerCount, isSelfDrawn, is4thTile, isAboutKong, isWallLast,
    seatWind, prevalentWind."""
    pack = []
    for m in s.melds:
        if m.type == "chow":
            tiles = sorted(m.tiles, key=lambda t: (t[0], int(t[1:])))
            claimed = m.claimed_tile or tiles[1]
            pack.append(("CHI", tiles[1], tiles.index(claimed) + 1))
        else:
            kind = "PENG" if m.type == "pung" else "GANG"
            offer = 0 if m.concealed else (m.claimed_from or 1)
            pack.append((kind, m.tiles[0], offer))
    return (
        tuple(pack), tuple(s.hand), s.win_tile, s.flowers, s.self_drawn, s.last_tile,
        s.kong_related, s.last_of_wall, _WIND_NUMBER[s.seat_wind], _WIND_NUMBER[s.prevalent_wind],
    )


def score_case(obj: dict[str, Any]) -> dict[str, Any]:
    """``paipu score --vectors`` output for one situation: ``{"id", "fans", "total",
    "total_without_flowers", "meets_8_fan_minimum"}`` for a winning shape (total includes
    flowers); below the 8-fan minimum the fans are still listed, with ``error`` saying so
    (flowers do not count toward it; tests/data/mcr/README.md); ``{"id", "error"}`` when
    there is no winning shape. ``options`` (optional): :class:`McrOptions` fields."""
    from replayer.rules.mcr.fans.calculator import score
    from replayer.rules.mcr.options import McrOptions

    case_id = obj.get("id")
    raw = obj.get("options") or {}
    if not isinstance(raw, dict):
        raise ValueError(f"options: must be an object, got {raw!r}")
    try:
        options = McrOptions(**raw) if raw else None
    except ValidationError as e:  # one line naming options.<name>; an unknown name lists the fan options
        raise field_error(e, prefix=("options",), known=McrOptions.model_fields) from None
    result = score(situation_from_json(obj), options)
    if not result.is_win:
        return {"id": case_id, "error": result.error or "not a winning hand"}
    out: dict[str, Any] = {
        "id": case_id,
        "fans": [
            {"name_en": f.name_en, "name_zh": f.name_zh, "points": f.points, "count": f.count}
            for f in result.fans
        ],
        "total": result.total,
        "total_without_flowers": result.total_without_flowers,
        "meets_8_fan_minimum": result.meets_minimum,
    }
    if not result.meets_minimum:
        out["error"] = (f"below the 8-fan minimum: {result.total_without_flowers} fans without "
                        "flowers (flowers do not count toward it)")
    return out


def score_lines(lines: Iterable[str], *, source: str = "-") -> Iterator[dict[str, Any]]:
    """Score every non-blank JSON line; a bad line gives ``{"id", "error"}`` naming
    ``source`` and the line number."""
    return _score_lines(lines, score_case, source=source)
