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

from replayer.rules.shared.vector_lines import score_lines as _score_lines

from .situation import FanResult, Meld, WinSituation

__all__ = ["VectorCase", "VectorError", "read_vectors", "situation_from_json", "result_to_json", "oracle_args"]

_WIND_NUMBER = {"E": 0, "S": 1, "W": 2, "N": 3}


class VectorError(ValueError):
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


def situation_from_json(obj: dict[str, Any]) -> WinSituation:
    """Build a :class:`WinSituation` from one vector object. Raises ``KeyError``/``TypeError``
    on missing or mistyped fields (wrapped with file and line by :func:`read_vectors`)."""
    melds = tuple(
        Meld(
            type=m["type"],
            tiles=tuple(m["tiles"]),
            concealed=bool(m.get("concealed", False)),
            claimed_from=m.get("claimed_from"),
            claimed_tile=m.get("claimed_tile"),
        )
        for m in obj.get("melds", [])
    )
    return WinSituation(
        hand=tuple(obj["hand"]),
        win_tile=obj["win_tile"],
        melds=melds,
        self_drawn=bool(obj.get("self_drawn", False)),
        last_tile=bool(obj.get("last_tile", False)),
        kong_related=bool(obj.get("kong_related", False)),
        last_of_wall=bool(obj.get("last_of_wall", False)),
        seat_wind=obj.get("seat_wind", "E"),
        prevalent_wind=obj.get("prevalent_wind", "E"),
        flowers=int(obj.get("flowers", 0)),
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
