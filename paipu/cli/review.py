"""The review desk on the command line: ``review`` (the rules-based decision review of a seat's
discards, replayer/review.py) and ``dispute`` (the self-contained dispute page of a game,
dashboard/package.py). ``verify --as`` (what-if scoring) lives with ``verify`` in check.py."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from paipu.cli.console import ordinal_mean, plural, say
from paipu.cli.errors import EXIT_INTEGRITY, CliError
from paipu.cli.options import DEFAULT_DATA, DataOpt, open_store, output_file
from paipu.cli.root import command

__all__ = ["review", "dispute", "what_if_options"]


def _events(data: Path, game_id: str) -> list:
    store = open_store(data, must_exist=True)
    try:
        events = list(store.read_game(game_id))
    finally:
        store.close()
    if not events:
        raise CliError(f"there is no game {game_id!r} in {data}")
    return events


def what_if_options(options: list[str] | None) -> dict:
    """``--option K=V`` values as a dict (V read as JSON, else a string): the parser every
    command shares (:func:`paipu.cli.ruleset_options.parse_options`)."""
    from paipu.cli.ruleset_options import parse_options

    return parse_options(options)


def _tiles_n(n: int, kinds: int) -> str:
    """``2 improving kinds, 1 copy unseen``: the kinds of tile that would improve the hand and
    the copies of them this seat has not seen (what is still there to draw or claim)."""
    return f"{kinds} improving kind{'s' if kinds != 1 else ''}, {n} cop{'ies' if n != 1 else 'y'} unseen"


def _against_best(d) -> str:
    """The played discard's improving tiles against the best discards' — compared only at the
    same shanten: a best discard that reaches a lower shanten is said so, not counted against
    tiles that improve another shanten."""
    from replayer.review import shanten_words

    played = _tiles_n(d.improving_count, len(d.improving))
    best = d.options[0] if d.options else None
    if best is None or best.shanten == d.shanten_after:
        return f"{played} vs {d.best_count} at best"  # the best: most unseen copies at that shanten
    return (f"{played} at {shanten_words(d.shanten_after)}; the best discards reach "
            f"{shanten_words(best.shanten)} with {_tiles_n(best.count, len(best.improving))}")


def _summary_words(s) -> str:
    """A seat's (or all reviewed seats') summary line, never "0 of 0"."""
    if not s.discards:
        kept = "no discard reviewed"
    else:
        kept = (f"{s.kept_best} of {plural(s.discards, 'discard')} kept the maximum "
                f"({100 * s.share_kept_best:.0f} %)")
    if not s.hands:
        ready = "no reviewable hand"
    elif not s.ready_hands:
        ready = f"never ready in {plural(s.hands, 'hand')}"
    else:
        ready = (f"ready in {s.ready_hands} of {plural(s.hands, 'hand')}, at discard "
                 f"{ordinal_mean(s.mean_ready_turn)} on average")
    return f"{kept}; {ready}"


def _waits_words(d) -> str:
    """`` on 🀋 B5 (self-drawn only) 🀎 B8``: the tiles the hand wins with after the discard
    (legal wins only), each saying when it wins one way only; or why a hand one tile from the
    shape is not ready (no wait wins legally)."""
    from eventlog import tiles as T

    if d.no_wait:
        return " (one tile from the shape, but no wait wins legally: not ready)"
    if not d.waits:
        return ""
    return " on " + " ".join(f"{T.to_unicode(w.tile)} {w.tile}" + (f" ({w.how})" if w.how else "") for w in d.waits)


@command()
def review(
    game_id: Annotated[str, typer.Argument(help="The game to review.")],
    seat: Annotated[list[int], typer.Option("--seat", min=0, max=3, help="The seat to review (repeat for several).")],
    hand: Annotated[Optional[int], typer.Option("--hand", min=1, help="Only this hand, counted from 1 as the text shows (hand_started's hand_number + 1; --json keeps hand_number).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object: every reviewed discard with all its options, summaries per seat and in all.")] = False,
    data: DataOpt = DEFAULT_DATA,
) -> None:
    """Rules-based efficiency review of a seat's discards — not an AI's opinion.

    At each discard: the shanten (向听数) before and after under the game's own winning shapes,
    the improving tiles (有效牌) with the copies still unseen from that seat's view, the
    discards that keep the most of them, and whether the played one was among them; then the
    share of discards that kept the maximum and the hands in which the seat became ready.
    Exit 0; 2 when the command could not run (no such game, bad arguments)."""
    from eventlog import tiles as T
    from eventlog.describe import hand_ordinal
    from replayer.review import review_game, review_json, shanten_change_words, shanten_words

    events = _events(data, game_id)
    r = review_game(events, seats=seat, hand=None if hand is None else hand - 1)
    if hand is not None and not r.hands:
        raise CliError(f"--hand {hand}: game {game_id} has no hand {hand} (hands are counted from 1)")
    if as_json:
        sys.stdout.write(json.dumps(review_json(r), ensure_ascii=False, sort_keys=True) + "\n")
        return
    say(r.label)
    say(f"game {r.game_id} ({r.ruleset}); winning shapes: {'; '.join(r.shape_sources) or 'the ruleset defaults'}")
    for h in r.hands:
        head = f"hand {hand_ordinal(h.hand_number)}, seat {h.seat}"
        if not h.reviewable:
            say(f"{head}: not reviewable — {h.reason}")
            continue
        ready = f"ready after discard {h.ready_turn} (event {h.ready_seq})" if h.ready_turn else "never ready"
        say(f"{head}: {plural(len(h.discards), 'discard')}, {sum(d.kept_best for d in h.discards)} kept the most improving "
            f"tiles; {ready}{'; won' if h.won else ''}")
        for d in h.discards:
            mark = "best" if d.kept_best else f"best: {' '.join(T.to_unicode(t) + ' ' + t for t in d.best)}"
            wild = f" jing {' '.join(d.wildcards)}" if d.wildcards else ""
            if d.no_win:  # a complete shape below the minimum: said beside the hand before the discard
                change = (f"{shanten_words(d.shanten_before)} (a complete shape, no legal win) -> "
                          f"{shanten_words(d.shanten_after)}")
            else:  # "stays ready (听牌) on …", "2 from ready -> 1 from ready"
                change = shanten_change_words(d.shanten_before, d.shanten_after, arrow="->")
            say(f"  #{d.turn:<2} event {d.seq:<4} {''.join(T.to_unicode(t) for t in d.hand)}{wild}  "
                f"discard {T.to_unicode(d.played)} {d.played}: {change}{_waits_words(d)}, {_against_best(d)} — {mark}")
    summaries = list(r.seats) + ([r.total] if len(r.seats) > 1 else [])  # "all" only over several seats
    for s in summaries:
        who = "all reviewed seats" if s.seat < 0 else f"seat {s.seat}"
        say(f"{who}: {_summary_words(s)}")


@command()
def dispute(
    game_id: Annotated[str, typer.Argument(help="The game in dispute.")],
    out: Annotated[Path, typer.Option("--out", help="The HTML file to write (one self-contained page).", dir_okay=False)],
    as_ruleset: Annotated[Optional[list[str]], typer.Option("--as", metavar="RULESET", help="A what-if: re-score under this ruleset or preset (repeat for several) [default: every preset of the game's base ruleset].")] = None,
    option: Annotated[Optional[list[str]], typer.Option("--option", metavar="K=V", help="An option for the what-if (repeatable; with no --as: the game's own ruleset with these options; with several --as: each option goes to those of them that have it).")] = None,
    data: DataOpt = DEFAULT_DATA,
) -> None:
    """Write one self-contained HTML page about GAME_ID that a third party can read offline:
    the events, the hash chain (with the commands that re-check it), the findings, the
    rulings, computed vs reported scores and the what-if results. Exit 0; 2 when the
    command could not run."""
    from dashboard.package import dispute_html
    from eventlog.verify import verify_game
    from replayer.audit import audit_game
    from replayer.rules.base import base_of, presets
    from eventlog.errors import PaipuError
    from replayer.whatif import what_if

    from paipu.cli.ruleset_options import options_error, options_per_ruleset

    opts = what_if_options(option)
    # a bad --as or --option is 2 before anything is read
    per_target = options_per_ruleset(list(as_ruleset or ()), opts, "--option", "--as")
    from eventlog.store.errors import GameNotFound

    store = open_store(data, must_exist=True)
    try:
        try:
            chain = verify_game(store, game_id)  # never raises on bad data: says where it breaks
        except GameNotFound:
            raise CliError(f"there is no game {game_id!r} in {data}") from None
        # a broken chain: only the events before the break are trusted (and shown)
        events = list(store.read_game(game_id)) if chain.ok else _trusted_events(store, game_id, chain)
        if chain.ok and not events:
            raise CliError(f"there is no game {game_id!r} in {data}")
    finally:
        store.close()
    audit = audit_game(events) if chain.ok else None
    whatifs = []
    failed: list[tuple[str, str]] = []
    if audit is not None and audit.ruleset is not None:
        targets: list[str | None] = list(as_ruleset or ())
        if not targets:
            if opts:
                targets = [None]
            else:
                base = base_of(audit.ruleset)
                targets = [name for name, (b, _o) in presets().items() if b == base and name not in (audit.ruleset, base)]
        for target in targets:
            try:
                whatifs.append(what_if(events, target, per_target.get(target, opts) if target is not None else opts))
            except PaipuError as e:  # an unknown ruleset or option: said on the page and here
                if opts and target is None:  # the user's --option for the game's own ruleset: 2
                    raise options_error(audit.ruleset, opts, e) from None
                failed.append((target or audit.ruleset, str(e)))
                say(f"what-if as {target or audit.ruleset}: {e}", err=True)
    output_file("--out", out).write_text(dispute_html(events, chain, audit, whatifs, failed), encoding="utf-8")
    if not chain.ok:  # the page says what can be said; the status says the log is damaged (3)
        say(f"game {game_id}: {broken_chain_words(chain, len(events))}; wrote {out} with the chain check and "
            f"the trusted {plural(len(events), 'event')}", err=True)
        raise typer.Exit(EXIT_INTEGRITY)
    say(f"wrote {out}: {plural(len(events), 'event')}, chain intact, "
        f"{plural(len(audit.findings) if audit else 0, 'finding')}, {plural(len(whatifs), 'what-if result')}")


def _trusted_events(store, game_id: str, chain) -> list:
    """The events before a broken chain's first bad seq, as far as they still read (the
    store checks each one it reads; none when even those do not)."""
    from eventlog.errors import PaipuError

    first = chain.first_bad_seq or 0
    out: list = []
    if not first:
        return out
    try:
        for e in store.read_game(game_id, limit=first):
            out.append(e)
    except PaipuError:
        pass  # what read before the damage is still trusted; the rest is not
    return out


def broken_chain_words(chain, trusted: int) -> str:
    """One line on a broken chain: where it breaks, why, and which events are still trusted
    (those before the break, re-hashed and linked) — the events are not replayed."""
    at = chain.first_bad_seq
    if trusted:
        kept = (f"events 0–{trusted - 1} re-hash and link, so they are trusted; event {at} and every later one "
                "are not")
    else:
        kept = "no event is trusted"
    return (f"the hash chain is broken at event {at} ({chain.reason}): {kept}, so the game is not replayed "
            "(corrupt data is never scored)")
