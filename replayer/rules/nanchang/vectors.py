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
from typing import Any

from replayer.rules.shared.vector_lines import score_lines as _score_lines
from eventlog import tiles as _tiles
from replayer.rules.nanchang.evaluate import WinEvaluation, WinInput, evaluate
from replayer.findings import RulesetError
from replayer.rules.base import presets
from replayer.rules.nanchang.options import NanchangOptions, parse_options
from replayer.rules.nanchang.table_rules import check_situation
from replayer.rules.nanchang.settlement import (
    HandSituation,
    MeldInfo,
    PlayerTiles,
    nobody_holds_jing,
    settle_hand,
)

__all__ = ["situation_from_json", "score_case", "score_lines"]


def _tile(t: Any) -> str:
    if not isinstance(t, str):
        raise TypeError(f"a tile is a string, got {t!r}")
    _tiles.index(t)  # raises ValueError for a bad code
    return t


def _tiles_of(v: Any, name: str) -> tuple[str, ...]:
    if not isinstance(v, list):
        raise ValueError(f"{name}: must be a list of tile strings, got {v!r}")
    try:
        return tuple(_tile(t) for t in v)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{name}: {e}") from None


def _flag(obj: dict[str, Any], name: str) -> bool:
    v = obj.get(name, False)
    if not isinstance(v, bool):
        raise ValueError(f"{name}: must be a JSON boolean (true/false), got {v!r}")
    return v


def _seat(obj: dict[str, Any], name: str, *, default: int | None = None) -> int | None:
    v = obj.get(name, default)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 3:
        raise ValueError(f"{name}: must be a seat 0..3, got {v!r}")
    return v


def _list(v: Any, name: str) -> list[Any]:
    if not isinstance(v, list):
        raise ValueError(f"{name}: must be a list, got {v!r}")
    return v


def _object(v: Any, name: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise ValueError(f"{name}: must be a JSON object, got {v!r}")
    return v


def _meld(m: dict[str, Any]) -> MeldInfo:
    m = _object(m, "meld")
    kind = m["type"]
    if kind not in ("chow", "pung", "kong"):
        raise ValueError(f"meld type must be chow, pung or kong, got {kind!r}")
    kk = m.get("kong_kind")
    if kind == "kong" and kk not in ("concealed", "melded", "added"):
        raise ValueError(f"a kong needs kong_kind concealed, melded or added, got {kk!r}")
    tiles = _tiles_of(m["tiles"], "meld tiles")
    if len(tiles) != (4 if kind == "kong" else 3):
        raise ValueError(f"a {kind} has {4 if kind == 'kong' else 3} tiles, got {len(tiles)}")
    claimed = m.get("claimed")
    return MeldInfo(kind, tiles, kk if kind == "kong" else None, _seat(m, "from"),
                    _tile(claimed) if claimed is not None else None)


def resolve_options(obj: dict[str, Any]) -> NanchangOptions:
    """The options of a case: its ``preset`` (a Nanchang-based preset) and its ``options``
    on top. Raises :class:`RulesetError` for an unknown preset or a bad option."""
    raw = dict(obj.get("options") or {})
    name = obj.get("preset")
    if name is not None:
        found = presets().get(name) if isinstance(name, str) else None
        if found is None:
            raise RulesetError(f"preset: unknown preset {name!r} (known: {', '.join(sorted(presets()))})")
        base, popts = found
        if base != "nanchang":
            raise RulesetError(f"preset: {name!r} is a {base} preset, not a Nanchang one")
        raw = {**popts, **raw}
    return parse_options(raw)


def situation_from_json(obj: dict[str, Any]) -> tuple[HandSituation, NanchangOptions]:
    """The :class:`HandSituation` and options of one vector object (strict: tile lists are
    lists of tile strings, flags JSON booleans, seats integers 0..3). Raises KeyError,
    ValueError (naming the field) or :class:`replayer.findings.RulesetError` on a bad field."""
    options = resolve_options(obj)
    players = obj["players"]
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise ValueError(f"players: must be a list of four objects, got {players!r}")
    if len(players) != 4:
        raise ValueError(f"four players expected, got {len(players)}")
    pts = tuple(
        PlayerTiles(
            concealed=_tiles_of(p.get("concealed", []), "concealed"),
            melds=tuple(_meld(m) for m in _list(p.get("melds", []), "melds")),
            unclaimed_discards=_tiles_of(p.get("unclaimed_discards", []), "unclaimed_discards"),
            flowers=_tiles_of(p.get("flowers", []), "flowers"),
            early_show=_flag(p, "early_show"),
        )
        for p in players
    )
    dealer = _seat(obj, "dealer", default=0)
    first = list(_tiles_of(obj.get("first_discards") or [], "first_discards"))
    chaozhuang = len(first) >= 4 and len(set(first[:4])) == 1
    out = _object(obj["outcome"], "outcome")
    kind = out["type"]
    if kind not in ("win", "draw", "false_win"):
        raise ValueError(f"outcome type must be win, draw or false_win, got {kind!r}")
    dealt = obj.get("dealt")
    if dealt is not None and not isinstance(dealt, list):
        raise ValueError(f"dealt: must be four lists of tiles, got {dealt!r}")
    winners = out.get("winners")
    if winners is not None:
        if not isinstance(winners, list) or not winners:
            raise ValueError(f"winners: must be a list of seats, got {winners!r}")
        winners = tuple(_seat({"w": w}, "w") for w in winners)
    indicator = obj.get("indicator")
    if options.jing_mode != "none" and indicator is None:
        raise ValueError(f"indicator: required with jing_mode {options.jing_mode}")
    winner = _seat(out, "winner")
    if winners and winner is None:
        winner = winners[0]
    sit = HandSituation(
        indicator=_tile(indicator) if indicator is not None and options.jing_mode != "none" else None,
        dealer=dealer,
        players=pts,  # type: ignore[arg-type]
        outcome=kind,
        winner=winner,
        win_tile=_tile(out["win_tile"]) if kind == "win" else None,
        discarder=_seat(out, "discarder"),
        robbed_from=_seat(out, "robbed_from"),
        kong_replacement=_flag(out, "kong_replacement"),
        heavenly=_flag(out, "heavenly"),
        earthly=_flag(out, "earthly"),
        offender=_seat(out, "offender"),
        chaozhuang=chaozhuang,
        lower_indicator=_tile(obj["lower_indicator"]) if obj.get("lower_indicator") else None,
        dealt=tuple(_tiles_of(h, "dealt") for h in dealt) if dealt else None,
        previous_indicator=_tile(obj["previous_indicator"]) if obj.get("previous_indicator") else None,
        jing_mode=options.jing_mode,
        winners=tuple(w for w in winners if w is not None) if winners else (),
        last_tile=_flag(out, "last_tile"),
    )
    if kind == "win" and sit.winner not in (0, 1, 2, 3):
        raise ValueError(f"a win needs a winner seat 0..3, got {sit.winner!r}")
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
