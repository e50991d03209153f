"""Read the shared MCR fan vectors (tests/data/mcr/README.md, "Schema") into
:class:`WinSituation` objects, write results as JSON lines, and build the reference
calculator's arguments for a situation (README "Passing a case to the oracle").
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eventlog.errors import InvalidArgument
from eventlog import tiles as _tiles
from replayer.rules.shared.vector_lines import score_lines as _score_lines

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


def _bool(obj: dict[str, Any], key: str, name: str | None = None) -> bool:
    v = obj.get(key, False)
    if not isinstance(v, bool):
        raise ValueError(f"{name or key}: must be a JSON boolean (true/false), got {v!r}")
    return v


def _tile(v: Any, name: str) -> str:
    if not isinstance(v, str):
        raise ValueError(f"{name}: a tile is a string such as \"W1\", got {v!r}")
    try:
        _tiles.index(v)
    except ValueError:
        raise ValueError(f"{name}: not a tile code: {v!r}") from None
    return v


def _tile_list(v: Any, name: str) -> tuple[str, ...]:
    if not isinstance(v, list):
        raise ValueError(f"{name}: must be a list of tile strings, got {v!r}")
    return tuple(_tile(t, f"{name}[{i}]") for i, t in enumerate(v))


def _optional_int(v: Any, name: str, allowed: tuple[int, ...]) -> int | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or v not in allowed:
        raise ValueError(f"{name}: must be one of {', '.join(map(str, allowed))}, got {v!r}")
    return v


def _meld(m: Any, name: str) -> Meld:
    if not isinstance(m, dict):
        raise ValueError(f"{name}: a meld is a JSON object, got {m!r}")
    kind = m.get("type")
    if kind not in ("chow", "pung", "kong"):
        raise ValueError(f"{name}.type: must be chow, pung or kong, got {kind!r}")
    if "tiles" not in m:
        raise ValueError(f"{name}.tiles: missing")
    claimed = m.get("claimed_tile")
    return Meld(
        type=kind,
        tiles=_tile_list(m["tiles"], f"{name}.tiles"),
        concealed=_bool(m, "concealed", f"{name}.concealed"),
        claimed_from=_optional_int(m.get("claimed_from"), f"{name}.claimed_from", (1, 2, 3)),
        claimed_tile=None if claimed is None else _tile(claimed, f"{name}.claimed_tile"),
    )


def _wind(obj: dict[str, Any], name: str) -> str:
    v = obj.get(name, "E")
    if v not in _WIND_NUMBER or not isinstance(v, str):
        raise ValueError(f"{name}: must be one of E, S, W, N, got {v!r}")
    return v


def situation_from_json(obj: dict[str, Any]) -> WinSituation:
    """Build a :class:`WinSituation` from one vector object (schema: tests/data/mcr/README.md).

    Strict: ``hand`` a list of tile strings, ``win_tile`` a tile string, ``melds`` a list of
    objects (``type`` chow/pung/kong, ``tiles`` tile strings, ``concealed`` boolean,
    ``claimed_from`` 0..3, ``claimed_tile`` a tile), the flags (``self_drawn``, ``last_tile``,
    ``kong_related``, ``last_of_wall``) JSON booleans, ``flowers`` an integer 0..8,
    ``seat_wind``/``prevalent_wind`` one of E S W N. Raises ``ValueError`` naming the field."""
    if not isinstance(obj, dict):
        raise ValueError(f"situation: not a JSON object: {obj!r}")
    if "hand" not in obj:
        raise ValueError("hand: missing")
    if "win_tile" not in obj:
        raise ValueError("win_tile: missing")
    melds_v = obj.get("melds", [])
    if not isinstance(melds_v, list):
        raise ValueError(f"melds: must be a list of meld objects, got {melds_v!r}")
    flowers = obj.get("flowers", 0)
    if isinstance(flowers, bool) or not isinstance(flowers, int) or not 0 <= flowers <= 8:
        raise ValueError(f"flowers: must be an integer 0..8, got {flowers!r}")
    return WinSituation(
        hand=_tile_list(obj["hand"], "hand"),
        win_tile=_tile(obj["win_tile"], "win_tile"),
        melds=tuple(_meld(m, f"melds[{i}]") for i, m in enumerate(melds_v)),
        self_drawn=_bool(obj, "self_drawn"),
        last_tile=_bool(obj, "last_tile"),
        kong_related=_bool(obj, "kong_related"),
        last_of_wall=_bool(obj, "last_of_wall"),
        seat_wind=_wind(obj, "seat_wind"),  # type: ignore[arg-type]
        prevalent_wind=_wind(obj, "prevalent_wind"),  # type: ignore[arg-type]
        flowers=flowers,
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
    """``paipu score --vectors`` output for one situation: ``{"id", "fans", "total"}`` for a
    legal win (total includes flowers), else ``{"id", "error"}`` — not a winning shape, or
    below the 8-fan minimum (flowers do not count toward it; tests/data/mcr/README.md)."""
    from replayer.rules.mcr.fans.calculator import score

    case_id = obj.get("id")
    result = score(situation_from_json(obj))
    if not result.is_win:
        return {"id": case_id, "error": result.error or "not a winning hand"}
    if not result.meets_minimum:
        return {
            "id": case_id,
            "error": f"below the 8-fan minimum: {result.total_without_flowers} fans without flowers "
            "(flowers do not count toward it)",
        }
    return {
        "id": case_id,
        "fans": [
            {"name_en": f.name_en, "name_zh": f.name_zh, "points": f.points, "count": f.count}
            for f in result.fans
        ],
        "total": result.total,
    }


def score_lines(lines: Iterable[str], *, source: str = "-") -> Iterator[dict[str, Any]]:
    """Score every non-blank JSON line; a bad line gives ``{"id", "error"}`` naming
    ``source`` and the line number."""
    return _score_lines(lines, score_case, source=source)
