"""``paipu score``: score winning hands, in bulk from a vectors file or one hand explained fan
by fan."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from paipu.cli.console import console, say
from paipu.cli.errors import CliError
from paipu.cli.melds import parse_meld
from paipu.cli.root import command

__all__ = ["score"]

_WIND_LETTERS = ("E", "S", "W", "N")
_SCORING_RULESETS = ("mcr", "nanchang", "sichuan", "changsha")


def _situation_json(sit) -> dict[str, Any]:
    """A WinSituation in the vector schema (what score_case reads)."""
    import dataclasses

    d = dataclasses.asdict(sit)
    d["hand"] = list(sit.hand)
    d["melds"] = [{**dataclasses.asdict(m), "tiles": list(m.tiles)} for m in sit.melds]
    return d


def _with_preset(lines, preset: str):
    """Each JSON object line without a ``preset`` gets ``preset`` (``--ruleset PRESET``);
    other lines pass unchanged (the scorer reports them)."""
    for line in lines:
        try:
            obj = json.loads(line) if line.strip() else None
        except json.JSONDecodeError:
            obj = None
        if isinstance(obj, dict) and "preset" not in obj:
            obj["preset"] = preset
            line = json.dumps(obj, ensure_ascii=False) + "\n"
        yield line


def _score_vectors(ruleset: str, vectors: Path, out: Path | None, preset: str | None = None) -> None:
    """``score --vectors FILE``: one JSON line out per situation, scored by the ruleset's
    ``vectors.score_lines`` (schemas: tests/data/<ruleset>/README.md). ``preset``: the
    preset every case without its own ``preset`` field is scored under."""
    import importlib

    score_lines = importlib.import_module(f"replayer.rules.{ruleset}.vectors").score_lines
    src = sys.stdin if str(vectors) == "-" else vectors.open(encoding="utf-8")
    dst = out.open("w", encoding="utf-8") if out else sys.stdout
    n = bad = 0
    try:
        for res in score_lines(src if preset is None else _with_preset(src, preset), source=str(vectors)):
            dst.write(json.dumps(res, ensure_ascii=False) + "\n")
            n += 1
            bad += "bad situation" in str(res.get("error", ""))
    finally:
        if src is not sys.stdin:
            src.close()
        if out:
            dst.close()
    if out:
        console.print(f"{n} cases scored -> {out}")
    if bad:  # every line was written; the malformed ones still fail the run
        say(f"error: {bad} of {n} lines are malformed (\"bad situation\")", err=True, style="red")
        raise typer.Exit(1)


@command()
def score(
    ruleset: Annotated[str, typer.Option("--ruleset", help="Ruleset id (mcr, nanchang, sichuan, changsha), or a preset of one with --vectors (e.g. ganzhou: cases without a \"preset\" field are scored under it).")] = "mcr",
    vectors: Annotated[Path | None, typer.Option("--vectors", help="JSON Lines of situations (schema: tests/data/<ruleset>/README.md); '-' for stdin.")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the JSON Lines here instead of stdout.")] = None,
    hand: Annotated[str | None, typer.Option("--hand", help='Concealed tiles without the winning tile, e.g. "W1 W2 W3 ..." or "123m456p".')] = None,
    win: Annotated[str | None, typer.Option("--win", help="The winning tile.")] = None,
    meld: Annotated[list[str] | None, typer.Option("--meld", help="A declared set TYPE:TILES[@FROM] (chow, pung, kong, ckong); repeat.")] = None,
    self_drawn: Annotated[bool, typer.Option("--self-drawn", help="Won by self-draw (自摸).")] = False,
    last_tile: Annotated[bool, typer.Option("--last-tile", help="Last copy of the winning tile (和绝张).")] = False,
    kong: Annotated[bool, typer.Option("--kong", help="Kong replacement win (with --self-drawn) or robbing a kong.")] = False,
    last_of_wall: Annotated[bool, typer.Option("--last-of-wall", help="The last tile of the wall.")] = False,
    seat_wind: Annotated[str, typer.Option("--seat-wind", help="E, S, W or N.")] = "E",
    prevalent_wind: Annotated[str, typer.Option("--prevalent-wind", help="E, S, W or N.")] = "E",
    flowers: Annotated[int, typer.Option("--flowers", min=0, max=8, help="Flower tiles (1 point each).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="With --hand: print the JSON line instead of a table.")] = False,
) -> None:
    """Score winning hands: in bulk from a vectors file (one JSON line out per case), or one
    hand given with --hand/--win, explained fan by fan with the tiles each fan counts."""
    preset = None
    if ruleset not in _SCORING_RULESETS:
        from replayer.rules.base import presets

        base = presets().get(ruleset, (None, {}))[0]
        if base not in _SCORING_RULESETS or vectors is None:
            raise CliError(f"unknown ruleset {ruleset!r} for scoring (known: {', '.join(_SCORING_RULESETS)}, "
                           "or a preset of one with --vectors)")
        ruleset, preset = base, ruleset
    if vectors is not None:
        _score_vectors(ruleset, vectors, out, preset)
        return
    if ruleset != "mcr":
        raise CliError(f"--ruleset {ruleset} scores end-of-hand situations: give --vectors FILE")
    from eventlog import tiles as T
    from replayer.rules.mcr.fans.calculator import score as mcr_score
    from replayer.rules.mcr.situation import WinSituation
    from replayer.rules.mcr.vectors import score_case

    if not hand or not win:
        raise CliError("give --vectors FILE, or --hand TILES and --win TILE (see --help)")
    for w, name in ((seat_wind, "--seat-wind"), (prevalent_wind, "--prevalent-wind")):
        if w not in _WIND_LETTERS:
            raise CliError(f"{name} must be E, S, W or N, got {w!r}")
    wins = T.parse(win)
    if len(wins) != 1:
        raise CliError(f"--win takes one tile, got {win!r}")
    sit = WinSituation(
        hand=tuple(T.parse(hand)),
        win_tile=wins[0],
        melds=tuple(parse_meld(m) for m in (meld or [])),
        self_drawn=self_drawn,
        last_tile=last_tile,
        kong_related=kong,
        last_of_wall=last_of_wall,
        seat_wind=seat_wind,  # type: ignore[arg-type]
        prevalent_wind=prevalent_wind,  # type: ignore[arg-type]
        flowers=flowers,
    )
    n_tiles = len(sit.hand) + 3 * len(sit.melds)
    if n_tiles != 13:
        raise CliError(f"hand + melds hold {n_tiles} tiles (a kong counts 3); a waiting hand holds 13")
    res = mcr_score(sit)
    if as_json:
        print(json.dumps(score_case({**_situation_json(sit), "id": "hand"}), ensure_ascii=False))
        return
    say(f"hand {T.to_unicode(sit.hand)} + {T.to_unicode(sit.win_tile)}  ({' '.join(sit.hand)} + {sit.win_tile})")
    if not res.is_win:
        raise CliError(res.error or "not a winning hand")
    t = Table("fan", "中文", "points", "count", "counted on")
    for f in res.fans:
        t.add_row(f.name_en, f.name_zh, str(f.points), str(f.count), "  ".join(" ".join(g) for g in f.tiles))
    console.print(t)
    say(f"total {res.total} ({res.total_without_flowers} without flowers)")
    if not res.meets_minimum:
        raise CliError(f"not a legal win: {res.total_without_flowers} fans without flowers, below the 8-fan minimum")
