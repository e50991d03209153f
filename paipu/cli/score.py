"""``paipu score``: score winning hands, in bulk from a vectors file or one hand explained fan
by fan."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from paipu.cli.console import console, say
from paipu.cli.errors import CliError
from paipu.cli.melds import parse_meld
from paipu.cli.options import output_file
from paipu.cli.root import command
from paipu.cli.ruleset_options import (build_ruleset, check_options, check_ruleset, check_tiles, parse_options,
                                      tile_set_words)
from eventlog.words import plural

__all__ = ["score"]

_WIND_LETTERS = ("E", "S", "W", "N")


def _with_options(lines, options: dict[str, Any]):
    """Each JSON object line gets ``options`` (``--option``) over its own ``options``."""
    for line in lines:
        try:
            obj = json.loads(line) if line.strip() else None
        except json.JSONDecodeError:
            obj = None
        if isinstance(obj, dict):
            own = obj.get("options")
            obj["options"] = {**(own if isinstance(own, dict) else {}), **options}
            line = json.dumps(obj, ensure_ascii=False) + "\n"
        yield line


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


def _open_file(flag: str, path: Path, mode: str) -> Any:
    """``path`` opened as UTF-8 text; CliError naming the flag and the file in words (never a
    raw errno) when it cannot be."""
    try:
        return path.open(mode, encoding="utf-8")
    except FileNotFoundError:
        where = "no such file" if mode == "r" else f"no such directory {path.parent}"
        raise CliError(f"{flag} {path}: {where}") from None
    except IsADirectoryError:
        raise CliError(f"{flag} {path}: a directory, not a file") from None
    except PermissionError:
        raise CliError(f"{flag} {path}: permission denied") from None
    except OSError as e:
        raise CliError(f"{flag} {path}: {e.strerror or e}") from None


def _score_vectors(ruleset: str, vectors: Path, out: Path | None, preset: str | None = None,
                   options: dict[str, Any] | None = None) -> None:
    """``score --vectors FILE``: one JSON line out per situation, scored by the ruleset's
    ``vectors.score_lines`` (schemas: tests/data/<ruleset>/README.md). ``preset``: the
    preset every case without its own ``preset`` field is scored under; ``options``
    (``--option``) override each case's own."""
    from replayer.findings import RulesetError
    from replayer.rules.base import vector_scorer

    check_ruleset(preset or ruleset)
    check_options(preset or ruleset, options or {})
    try:
        score_lines = vector_scorer(ruleset)
    except RulesetError:
        from replayer.rules.base import get_spec, known_rulesets

        able = [r for r in known_rulesets() if get_spec(r).score_vectors is not None]
        raise CliError(f"--vectors with --ruleset {preset or ruleset}: it scores no vectors file "
                       f"(rulesets that do: {', '.join(able)})") from None
    src = sys.stdin if str(vectors) == "-" else _open_file("--vectors", vectors, "r")
    dst = _open_file("--out", output_file("--out", out), "w") if out else sys.stdout
    n = bad = 0
    try:
        lines = src if preset is None else _with_preset(src, preset)
        if options:
            lines = _with_options(lines, options)
        try:
            for res in score_lines(lines, source="<stdin>" if str(vectors) == "-" else str(vectors)):
                dst.write(json.dumps(res, ensure_ascii=False) + "\n")
                n += 1
                bad += "bad situation" in str(res.get("error", ""))
        except UnicodeDecodeError as e:
            raise CliError(f"--vectors {vectors}: not UTF-8 text (byte 0x{e.object[e.start]:02x} after "
                           f"line {n + 1}); a vectors file is JSON Lines") from None
    finally:
        if src is not sys.stdin:
            src.close()
        if out:
            dst.close()
    if not n:  # an empty file (or blank lines only) is a mistake, not a run with nothing to report
        raise CliError(f"--vectors {'<stdin>' if str(vectors) == '-' else vectors}: no cases (the file holds "
                       "no JSON line; schema: tests/data/<ruleset>/README.md)")
    if out:
        console.print(f"{plural(n, 'case')} scored -> {out}")
    if bad:  # every line was written; the malformed ones still fail the run
        where = "<stdin>" if str(vectors) == "-" else str(vectors)
        say(f"error: {where}: {bad} of {n} lines are malformed (\"bad situation\", each named above by its line)",
            err=True, style="red")
        raise typer.Exit(1)


@command()
def score(
    ruleset: Annotated[str, typer.Option("--ruleset", help="Ruleset id or preset (`paipu rulesets` lists them); with --vectors a preset scores every case without its own preset field.")] = "mcr",
    vectors: Annotated[Path | None, typer.Option("--vectors", help="JSON Lines of situations (schema: tests/data/<ruleset>/README.md); '-' for stdin.")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the JSON Lines here instead of stdout.")] = None,
    hand: Annotated[str | None, typer.Option("--hand", help='Concealed tiles without the winning tile, e.g. "W1 W2 W3 ..." or "123m456p".')] = None,
    win: Annotated[str | None, typer.Option("--win", help="The winning tile.")] = None,
    meld: Annotated[list[str] | None, typer.Option("--meld", help="A declared set TYPE:TILES[@FROM] (chow, pung, kong, ckong = concealed kong); FROM is whom the claimed tile came from: 1 = 上家 the previous seat (the default; a chow only from it), 2 = 对家 opposite, 3 = 下家 the next seat; repeat.")] = None,
    self_drawn: Annotated[bool, typer.Option("--self-drawn", help="Won by self-draw (自摸).")] = False,
    last_tile: Annotated[bool, typer.Option("--last-tile", help="Last copy of the winning tile (和绝张).")] = False,
    kong: Annotated[bool, typer.Option("--kong", help="Kong replacement win (with --self-drawn) or robbing a kong; refused where the ruleset's scoring does not read it (a flag that would change nothing).")] = False,
    last_of_wall: Annotated[bool, typer.Option("--last-of-wall", help="The last tile of the wall (refused where the ruleset's scoring does not read it).")] = False,
    seat_wind: Annotated[str, typer.Option("--seat-wind", help="E, S, W or N.")] = "E",
    prevalent_wind: Annotated[str, typer.Option("--prevalent-wind", help="E, S, W or N.")] = "E",
    flowers: Annotated[int, typer.Option("--flowers", min=0, max=8, help="Flower tiles (1 point each).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="With --hand: print the JSON line instead of a table (same exit status).")] = False,
    option: Annotated[list[str] | None, typer.Option("--option", metavar="NAME=VALUE", help="A named interpretation of the ruleset, repeatable (`paipu rulesets NAME` lists them; MCR e.g. knitted_straight_waits=false). With --vectors it overrides each case's own options.")] = None,
    context: Annotated[list[str] | None, typer.Option("--context", metavar="NAME=VALUE", help="With --hand: the table the hand is scored at, repeatable. " + CONTEXT_HELP)] = None,
) -> None:
    """Score winning hands: in bulk from a vectors file (one JSON line out per case), or one
    hand given with --hand/--win (seat 0's; a discard comes from the previous seat), scored by
    the ruleset's own win check and explained item by item with the tiles each counts.

    Exit status with --hand (table or --json alike): 0 = a legal win; 1 = not a legal win
    (no winning shape, or below the ruleset's minimum: the items are still listed); 2 = input
    that cannot happen (each error names the flag)."""
    from replayer.rules.base import presets

    options = parse_options(option)
    preset = None
    if vectors is not None and ruleset in presets() and presets()[ruleset][0] != ruleset:
        ruleset, preset = presets()[ruleset][0], ruleset
    if vectors is not None:
        hand_flags = [f for f, v in (("--hand", hand), ("--win", win), ("--meld", meld), ("--context", context),
                                     ("--json", as_json), ("--self-drawn", self_drawn), ("--last-tile", last_tile),
                                     ("--kong", kong), ("--last-of-wall", last_of_wall), ("--flowers", flowers),
                                     ("--seat-wind", seat_wind != "E"), ("--prevalent-wind", prevalent_wind != "E"))
                      if v]
        if hand_flags:  # they describe one hand; each vectors case carries its own
            raise CliError(f"--vectors with {', '.join(hand_flags)}: those describe one hand (--hand); "
                           "each case of a vectors file carries its own — give one or the other")
        _score_vectors(ruleset, vectors, out, preset, options)
        return
    if out is not None:
        raise CliError(f"--out {out} is where --vectors writes its results; with --hand the result is "
                       "printed (--json for a JSON line)")
    from eventlog import tiles as T
    from replayer.explained import payment_steps
    from replayer.rules.base import WinContext, base_of, get_spec, score_unit_of

    if not hand or not win:
        raise CliError("give --vectors FILE, or --hand TILES and --win TILE (see --help)")
    for w, name in ((seat_wind, "--seat-wind"), (prevalent_wind, "--prevalent-wind")):
        if w not in _WIND_LETTERS:
            raise CliError(f"{name} must be E, S, W or N, got {w}")
    wins = _tiles("--win", win)
    if len(wins) != 1:
        raise CliError(f"--win {win}: one tile, got {len(wins)}")
    concealed = tuple(_tiles("--hand", hand))
    melds = tuple(_meld(m) for m in (meld or []))
    n_tiles = len(concealed) + 3 * len(melds)
    if n_tiles != 13:
        raise CliError(f"hand + melds hold {n_tiles} tiles (a kong counts 3); a waiting hand holds 13")
    rs = build_ruleset(ruleset, options)
    for flag, ts in (("--win", wins), ("--hand", concealed)):
        fl = [t for t in ts if rs.play.is_flower(t)]
        if fl:  # flowers are set aside and replaced, never held or won on: --flowers counts them
            raise CliError(f"{flag} {' '.join(fl)}: a flower (H1-H8) is never {'the winning tile' if flag == '--win' else 'held in the hand'}; "
                           f"give flowers with --flowers N (the playing tiles of {ruleset}: "
                           f"{tile_set_words(tuple(0 if i >= 34 else c for i, c in enumerate(rs.play.tile_copies)))})")
    # a tile the ruleset is played without cannot be in the hand: input that cannot happen (2)
    check_tiles(ruleset, rs.play.tile_copies, [("--hand", concealed), ("--win", wins),
                                               *((f"--meld {m}", d.tiles) for m, d in zip(meld or [], melds)),
                                               ("--flowers", T.FLOWERS[:flowers])])
    _check_meld_kinds(ruleset, rs, meld or [], melds)
    ctx_values = parse_context(context, rs, ruleset)
    assumed = assumed_context(ruleset, rs, ctx_values)
    spec = get_spec(base_of(ruleset))
    reads_others_wild = "others_hold_wild" in spec.score_context and rs.play.wildcards
    check_flags(ruleset, rs, self_drawn=self_drawn, kong=kong, last_of_wall=last_of_wall, last_tile=last_tile,
                seat_wind=seat_wind, prevalent_wind=prevalent_wind)
    if ctx_values.get("kong_reveal") and kong:
        raise CliError("--context kong_reveal=yes with --kong: a 开杠 reveals the tiles in place of the kong's "
                       "replacement, and a robbed kong reveals none — say one or the other")
    if ctx_values.get("kong_reveal") and self_drawn and not any(m.kind == "kong" for m in melds):
        raise CliError("--context kong_reveal=yes with --self-drawn is a win on seat 0's own 开杠 reveal (杠上开花), "
                       "but no kong is declared: add --meld kong:TILE@FROM or ckong:TILE")
    ctx_values.setdefault("scores", tuple(rs.initial_scores()))  # what the seats hold at the start
    table = _table(ctx_values, last_of_wall=last_of_wall, concealed=concealed, melds=melds)
    unit = score_unit_of(ruleset)
    # the hand is seat 0's; a discard comes from the previous seat (3)
    ctx = WinContext(
        seat=0, tile=wins[0], self_drawn=self_drawn, from_seat=None if self_drawn else 3,
        robbing_kong=kong and not self_drawn, kong_related=kong, last_of_wall=last_of_wall,
        visible_copies=3 if last_tile else 0, concealed=concealed, melds=melds,
        seat_wind=T.WINDS[_WIND_LETTERS.index(seat_wind)], prevalent_wind=T.WINDS[_WIND_LETTERS.index(prevalent_wind)],
        flowers=tuple(T.FLOWERS[:flowers]), first_draw=ctx_values.get("first_draw", False),
        others_hold_wild=ctx_values.get("others_hold_wild", True) if reads_others_wild else None,
        kong_reveal=ctx_values.get("kong_reveal", False) if "kong_reveal" in spec.score_context else None,
    )
    _check_situation(ctx, last_tile=last_tile)
    verdict = rs.score_win(table, ctx)
    lines = verdict.explained.lines() if verdict.explained is not None else ()
    reason = reason_words(verdict.message) if not verdict.legal else ""
    if not verdict.legal and rs.play.wildcards and table.wildcard_indicator is None:
        # the ruleset could not judge the hand without the table's wildcard: input missing (2)
        raise CliError(f"{reason} — {ruleset} plays with a wildcard indicator: give it with "
                       "--context wildcard_indicator=TILE")
    # who pays what: the ruleset's settlement of the win at this table (dealer, discarder, caps …)
    settlement = rs.settle_win(table, ctx, verdict) if verdict.legal else None
    payments = [p for p in (settlement.payments if settlement is not None else ()) if p.amount]
    penalty = None if verdict.legal else _false_win_penalty(rs, table, ctx, verdict)
    steps = payment_steps(verdict.explained) if verdict.legal else ()
    dealer = table.dealer if table.dealer is not None else 0
    if as_json:
        print(json.dumps({
            "ruleset": ruleset, "legal": verdict.legal, "total": verdict.points, "total_unit": unit.total[1],
            "item_unit": unit.item,
            "items": [dataclasses.asdict(x) for x in lines],
            "excluded": [dataclasses.asdict(x) for x in (verdict.explained.excluded() if verdict.explained else ())],
            "rule_id": verdict.rule_id, "message": reason,
            "payments": [{"payer": p.payer, "payee": p.payee, "amount": p.amount, "reason": p.reason,
                          "roles": _roles(p.payer, ctx, dealer)} for p in payments],
            "changes": list(settlement.changes) if settlement is not None else None,
            "payment_steps": list(steps),
            "penalty": None if penalty is None else {
                "rule_source": rs.rule_source(verdict.rule_id or "false_win"),
                "payments": [{"payer": p.payer, "payee": p.payee, "amount": p.amount, "reason": p.reason}
                             for p in penalty.payments if p.amount],
                "changes": list(penalty.changes)},
            "assumed": assumed,
        }, ensure_ascii=False))
        if not verdict.legal:
            raise typer.Exit(1)
        return
    say(f"hand {T.to_unicode(concealed)} + {T.to_unicode(wins[0])}  ({' '.join(concealed)} + {wins[0]})")
    if lines:
        t = Table("item", "中文", unit.item, "count", "counted on")
        for f in lines:
            value = f"×{f.factor}" if f.points is None and f.factor is not None else str(f.value)
            t.add_row(f.name_en, f.name_zh, f"{value}{f.note}", str(f.count),
                      "  ".join(" ".join(g) for g in f.tiles) or "(the win)")
        console.print(t)
        say(f"total {unit.amount(verdict.points)}" + (f" ({unit.source})" if unit.source else ""))
        if steps:
            say("to payment: " + " → ".join(steps))
        if payments:
            how = "self-drawn" if ctx.self_drawn else f"on seat {ctx.from_seat}'s {'kong' if ctx.robbing_kong else 'discard'}"
            say(f"payments: seat 0{' (dealer)' if dealer == 0 else ''} wins {how}; dealer seat {dealer}")
        for reason_, group in _by_reason(payments):
            parts = ", ".join(f"seat {p.payer}{_roles_words(p.payer, ctx, dealer)} {p.amount}" for p in group)
            say(f"  {reason_}: {parts} = {sum(p.amount for p in group)} to seat 0")
        if settlement is not None:
            say(f"score changes (seats 0-3): {list(settlement.changes)}")
    if assumed:
        say("assumed (not given; --context NAME=VALUE says otherwise): "
            + "; ".join(f"{k}={v} ({CONTEXT_DEFAULTS[k][1]})" for k, v in assumed.items()))
    if not verdict.legal:
        say(f"not a legal win: {reason}", err=True, style="red")
        if penalty is not None:
            say(f"declared all the same, it is a false win; the penalty ({rs.rule_source(verdict.rule_id or 'false_win')}):")
            for p in penalty.payments:
                if p.amount:
                    say(f"  {p.reason}: seat {p.payer} pays seat {p.payee} {p.amount}")
            say(f"score changes (seats 0-3): {list(penalty.changes)}")
        raise typer.Exit(1)


def _false_win_penalty(rs: Any, table: Any, ctx: Any, verdict: Any) -> Any:
    """What the ruleset settles when seat 0 declares this hand that is not a legal win all
    the same (``Ruleset.false_win_penalty`` at this table, the declared win on record: e.g.
    cjm_chips §A5, a win on a zero-chip player's discard); None when it settles nothing."""
    import dataclasses as dc

    from replayer.state import WinRecord

    declared = WinRecord(0, 0, ctx.tile, ctx.self_drawn, ctx.from_seat, ctx.robbing_kong, False,
                         verdict.situation, verdict.explained, verdict.points, None, None, ctx)
    return rs.false_win_penalty(dc.replace(table, wins=table.wins + (declared,)), 0)


def _roles(seat: int, ctx: Any, dealer: int) -> list[str]:
    """What a paying seat is to the win: ``discarder`` (the winning tile was its discard),
    ``robbed konger`` (the win robbed its added kong, 抢杠: it pays as the ruleset says,
    often as a discarder would — but it discarded nothing), ``dealer``."""
    taken = "robbed konger" if ctx.robbing_kong else "discarder"
    return [r for r, on in ((taken, seat == ctx.from_seat), ("dealer", seat == dealer)) if on]


def _roles_words(seat: int, ctx: Any, dealer: int) -> str:
    roles = _roles(seat, ctx, dealer)
    return f" ({', '.join(roles)})" if roles else ""


def _by_reason(payments: list[Any]) -> list[tuple[str, list[Any]]]:
    """Payments grouped by reason, in the order the ruleset made them."""
    out: dict[str, list[Any]] = {}
    for p in payments:
        out.setdefault(p.reason, []).append(p)
    return list(out.items())


#: ``score --context NAME=VALUE``: the table facts a ruleset's scoring may read beside the hand
#: (fields of the ruleset-neutral replayer.state.TableState), each with how its value is written.
CONTEXT_NAMES: dict[str, str] = {
    "wildcard_indicator": "TILE — the turned-up wildcard indicator of the hand (rulesets played with wildcards, e.g. nanchang's 精; the ruleset derives its wild tiles from it)",
    "dealer": "SEAT 0-3 — who deals (the hand is seat 0's; default 0)",
    "scores": "A,B,C,D — the seats' scores or chips before the win (default: what the ruleset starts a game with)",
    "first_draw": "yes|no — the win comes in the hand's first go-around, nothing claimed or konged before: the dealer's dealt 14 (天胡), a win on the dealer's first discard or a first draw (地胡), where the ruleset has them (default no)",
    "kong_reveal": "yes|no — the winning tile is one a 开杠 (open kong) revealed: with --self-drawn seat 0's own (杠上开花), else seat 3's (杠上炮), where the ruleset has them, e.g. changsha §4 (default no)",
    "others_hold_wild": "yes|no — another seat holds a wild tile (nanchang's 精, as its §4.3 attributes them): one hand cannot tell, so the default is yes — no 德中德 (§6.7) and no 霸王 doubling (§9.1) for this hand, the other seats' own wild tiles not counted; no: nobody else holds one (rulesets played with wildcards)",
}
#: what ``score`` takes for a context name the ruleset reads when ``--context`` does not give it
#: (printed as assumed; wildcard_indicator has none: a wildcard ruleset asks for it)
CONTEXT_DEFAULTS: dict[str, tuple[str, str]] = {
    "dealer": ("0", "seat 0 deals"),
    "first_draw": ("no", "not the hand's first go-around"),
    "kong_reveal": ("no", "the winning tile is no 开杠 reveal"),
    "others_hold_wild": ("yes", "another seat holds a wild tile: no 德中德, no 霸王, its own wild tiles not counted"),
}
CONTEXT_HELP = "NAME is " + "; ".join(f"{k}={v}" for k, v in CONTEXT_NAMES.items()) + "."


def parse_context(texts: list[str] | None, rs: Any, ruleset: str) -> dict[str, Any]:
    """``--context NAME=VALUE`` values as TableState fields (``first_draw``: a bool for
    WinContext.first_draw); CliError naming the flag for an unknown name, a bad value, a
    wildcard indicator for a ruleset without wildcards, or a name the ruleset's scoring does not
    read (RulesetSpec.score_context: it would change nothing)."""
    from replayer.rules.base import base_of, get_spec

    used = get_spec(base_of(ruleset)).score_context
    out: dict[str, Any] = {}
    for text in texts or ():
        name, eq, value = text.partition("=")
        name, value = name.strip(), value.strip()
        if not eq or name not in CONTEXT_NAMES:
            raise CliError(f"--context {text}: expected NAME=VALUE with NAME one of {', '.join(CONTEXT_NAMES)}")
        if name in ("wildcard_indicator", "others_hold_wild") and not rs.play.wildcards:
            raise CliError(f"--context {text}: {ruleset} is played without a wildcard indicator")
        if name not in used:
            raise CliError(f"--context {text}: {ruleset} scores a hand without its {name}, so it would change "
                           f"nothing (the context {ruleset} reads: {', '.join(used) or 'none'})")
        if name == "wildcard_indicator":
            tiles = _tiles("--context wildcard_indicator", value)
            if len(tiles) != 1:
                raise CliError(f"--context {text}: the indicator is one tile")
            check_tiles(ruleset, rs.play.tile_copies, [("--context wildcard_indicator", tiles)])
            out[name] = tiles[0]
        elif name in ("first_draw", "others_hold_wild", "kong_reveal"):
            if value not in ("yes", "no"):
                raise CliError(f"--context {text}: {name} is yes or no")
            out[name] = value == "yes"
        elif name == "dealer":
            if value not in ("0", "1", "2", "3"):
                raise CliError(f"--context {text}: the dealer is a seat 0-3")
            out[name] = int(value)
        else:
            try:
                scores = tuple(int(x) for x in value.split(","))
            except ValueError:
                scores = ()
            if len(scores) != 4:
                raise CliError(f"--context {text}: scores are four whole numbers A,B,C,D (seats 0-3)")
            out[name] = scores
    return out


def _option_words(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def check_flags(ruleset: str, rs: Any, *, self_drawn: bool, kong: bool, last_of_wall: bool, last_tile: bool,
                seat_wind: str, prevalent_wind: str) -> None:
    """Refuse a situation flag ``ruleset``'s scoring does not read (RulesetSpec.score_flags,
    under the options of ``rs``): it would change nothing — as ``--context`` is refused."""
    from replayer.rules.base import SCORE_FLAGS, ScoreFlag, base_of, get_spec

    spec = get_spec(base_of(ruleset))
    given = [name for name, on in (("kong_replacement", self_drawn and kong), ("robbing_kong", kong and not self_drawn),
                                   ("last_draw", self_drawn and last_of_wall),
                                   ("last_discard", last_of_wall and not self_drawn), ("last_tile", last_tile),
                                   ("seat_wind", seat_wind != "E"), ("prevalent_wind", prevalent_wind != "E")) if on]
    if not given:
        return
    reads = {f.name if isinstance(f, ScoreFlag) else f: f.when if isinstance(f, ScoreFlag) else ()
             for f in spec.score_flags}
    options = {k: _option_words(v) for k, v in rs.options_dict().items()}
    notes = dict(spec.score_flag_notes)
    for name in given:
        flags = SCORE_FLAGS[name]
        if name not in reads:
            always = [n for n, when in reads.items() if not when]
            raise CliError(f"{flags}: {ruleset} scores a hand without it ({name.replace('_', ' ')}), so it would "
                           "change nothing" + (f": {notes[name]}" if name in notes else "")
                           + f" (the situations {ruleset} reads: "
                           + (", ".join(f"{n} {SCORE_FLAGS[n]}" for n in always) or "none") + ")")
        when = reads[name]
        if when and not any(options.get(k) == v for k, _, v in (w.partition("=") for w in when)):
            raise CliError(f"{flags}: {ruleset} reads it ({name.replace('_', ' ')}) only with "
                           f"{' or '.join('--option ' + w for w in when)}, so here it would change nothing")


def assumed_context(ruleset: str, rs: Any, given: dict[str, Any]) -> dict[str, str]:
    """The context names ``ruleset``'s scoring reads (RulesetSpec.score_context) that
    ``--context`` did not give, with the value taken for each (:data:`CONTEXT_DEFAULTS`), in
    the spec's order; a name with no default (wildcard_indicator) is left out."""
    from replayer.rules.base import base_of, get_spec

    out = {}
    for name in get_spec(base_of(ruleset)).score_context:
        if name in given or name not in CONTEXT_DEFAULTS:
            continue
        if name == "others_hold_wild" and not rs.play.wildcards:
            continue
        out[name] = CONTEXT_DEFAULTS[name][0]
    return out


#: Tiles left in the wall when the win is not on the last tile: mid-hand, so no ruleset reads
#: an exhausted wall (海底) into a hand not given --last-of-wall.
_MID_HAND_WALL = 50


def _table(context: dict[str, Any], *, last_of_wall: bool, concealed: tuple[str, ...] = (),
           melds: tuple[Any, ...] = ()) -> Any:
    """The TableState a hand is scored at: the ruleset-neutral table with ``--context``, the
    wall empty only with ``--last-of-wall``, seat 0 holding ``concealed`` and ``melds`` (a
    ruleset may read the winner's sets from the table as in a replay)."""
    import dataclasses as dc

    from eventlog import tiles as T
    from replayer.state import SeatState, TableState

    counts = [0] * 34
    for t in concealed:
        counts[T.index(t)] += 1
    seat0 = SeatState(counts=tuple(counts), tiles=tuple(concealed), melds=tuple(melds), dealt=True)
    state = TableState(wall_remaining=0 if last_of_wall else _MID_HAND_WALL, dealer=0, first_dealer=0)
    state = dc.replace(state, seats=(seat0, *state.seats[1:]))
    scores = context.get("scores")
    if scores is not None:
        s0, s1, s2, s3 = (dc.replace(st, score=v) for st, v in zip(state.seats, scores))
        state = dc.replace(state, seats=(s0, s1, s2, s3), initial_scores=scores, hand_start_scores=scores)
    if "dealer" in context:
        state = dc.replace(state, dealer=context["dealer"], first_dealer=context["dealer"])
    if "wildcard_indicator" in context:
        state = dc.replace(state, wildcard_indicator=context["wildcard_indicator"])
    return state


def _tiles(flag: str, text: str) -> list[str]:
    """Tiles of a flag, any notation; CliError naming the flag when one is not a tile."""
    from eventlog import tiles as T

    try:
        return T.parse(text)
    except T.TileError as e:
        raise CliError(f"{flag} {text}: {e}") from None


def reason_words(message: str) -> str:
    """A ruleset's message for a false win, once: without the words the CLI prints before it
    ("not a legal win", the scored seat 0 — the hand of ``--hand`` is always seat 0's) and
    without a part repeated ("not a winning hand: not a winning hand: …")."""
    parts: list[str] = []
    for part in message.split(": "):
        p = part.strip()
        if not parts and (p == "seat 0" or p.startswith("not a legal win")):
            continue
        if parts and p == parts[-1]:
            continue
        parts.append(p)
    return ": ".join(parts) or message


def _meld(text: str) -> Any:
    """``--meld TEXT`` parsed; a bad tile in it is named with the flag."""
    from eventlog import tiles as T

    try:
        return parse_meld(text)
    except T.TileError as e:
        raise CliError(f"--meld {text}: {e}") from None


def _check_meld_kinds(ruleset: str, rs: Any, texts: list[str], melds: tuple[Any, ...]) -> None:
    """Refuse a chow in a ruleset played without chows (``PlayRules.chow`` "none"), naming
    the flag and the ruleset's rule source: such a hand cannot happen (exit 2)."""
    if rs.play.chow != "none":
        return
    for text, m in zip(texts, melds):
        if m.kind == "chow":
            raise CliError(f"--meld {text}: {ruleset} has no chow ({rs.rule_source('chow_not_allowed')})")


def _check_situation(ctx: Any, *, last_tile: bool) -> None:
    """Refuse a hand that cannot happen, naming the flag (issue 11 item 12). ``ctx`` is the
    :class:`~replayer.rules.base.WinContext` built from the flags."""
    held = list(ctx.concealed)
    in_melds = [t for m in ctx.melds for t in m.tiles]
    kongs = [m for m in ctx.melds if m.kind == "kong"]
    if ctx.last_of_wall and ctx.kong_related and not ctx.self_drawn:
        raise CliError("--last-of-wall with --kong but without --self-drawn: 海底捞月 is a win on the "
                       "last discard (docs/reference/rules/competition.md §B3: \"和打出的最后一张牌\") and "
                       "a robbed kong is no discard, so the two cannot happen together")
    if ctx.kong_related and ctx.self_drawn and not kongs:
        raise CliError("--kong with --self-drawn is a win on a kong replacement (杠上开花), "
                       "but no kong is declared: add --meld kong:TILE@FROM or ckong:TILE")
    if ctx.kong_related and not ctx.self_drawn:
        mine = held.count(ctx.tile) + in_melds.count(ctx.tile)
        if mine:
            raise CliError(f"--kong without --self-drawn is robbing a kong (抢杠和) of {ctx.tile}, "
                           f"but this hand holds {mine} {ctx.tile} of its own: the konger has the "
                           "other three copies")
    if last_tile and ctx.tile in held:
        raise CliError(f"--last-tile (和绝张, the last copy: the other three are shown on the table) "
                       f"but the concealed hand holds another {ctx.tile}")
    counts: dict[str, int] = {}
    for t in held + in_melds + [ctx.tile]:
        counts[t] = counts.get(t, 0) + 1
    over = sorted(t for t, c in counts.items() if c > 4)
    if over:
        raise CliError(f"--hand/--meld/--win: more than four of {', '.join(over)}")
