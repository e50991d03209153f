"""Checking the log: ``verify`` (hash chains + audit replay of games) and ``quickstart`` (the
bundled real logs imported, verified and summarised)."""

from __future__ import annotations

import warnings

from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from paipu.cli.console import JsonListStream, clipped, console, progress, say
from paipu.cli.errors import EXIT_INTEGRITY, EXIT_OK, EXIT_PROBLEMS, CliError
from paipu.cli.options import DEFAULT_DATA, DataOpt, OutOpt, open_store
from paipu.cli.root import command
from eventlog.words import plural

__all__ = ["verify", "quickstart"]



def _in_chinese(name: str, computed: tuple) -> str:
    """A reported fan name as the computed lines name it (their Chinese name) when it matches
    one of them (replayer.audit.fan_keys: either name, or the MCR aliases), so the reported
    and the computed fans are listed in one language; else the source's own spelling."""
    from replayer.audit import fan_keys

    keys = fan_keys(computed)
    by_key = {keys.line(f): f.name_zh or f.name_en for f in computed}
    return by_key.get(keys.reported(name), name)

def _verify_one(store, game_id: str, *, listed: bool = False):
    """The chain check and, when intact, the audit replay of the events it read (one read):
    replayer.log_verify.verify_and_audit, as gRPC VerifyLog checks each game."""
    from replayer.log_verify import verify_and_audit

    return verify_and_audit(store, game_id, listed=listed)


def _print_audit(chain, audit, *, verbose: bool = True) -> bool:
    ok = chain.ok and audit is not None and audit.ok
    mark = "ok" if ok else "FAIL"
    chain_txt = "chain ok" if chain.ok else f"chain BROKEN at seq {chain.first_bad_seq}: {chain.reason}"
    if audit is None:
        say(f"{mark} {chain.game_id}: {chain_txt}")
        return ok
    say(
        f"{mark} {chain.game_id}: {chain_txt}, {plural(audit.events, 'event')}, {plural(audit.hands, 'hand')}, "
        f"{plural(len(audit.wins), 'win')}, {plural(audit.draws, 'draw')}, {plural(len(audit.findings), 'finding')}"
    )
    if verbose or not ok:
        for f in audit.findings:
            say(f"    finding: {f}")
        for w in audit.wins:
            fans = " + ".join((f"{x.name_zh}×{x.count}" if x.count > 1 else x.name_zh) + x.note for x in w.fans)
            rep = " + ".join(f"{n}×{c}" if c > 1 else n for n, _p, c in ((_in_chinese(n, w.fans), p, c)
                                                                         for n, p, c in w.reported_fans))
            state = "agrees" if (w.fans_agree is not False and w.score_agrees is not False) else "DISAGREES"
            if w.reported is not None and w.reported.unverifiable and w.score_agrees is None:
                state = f"cannot be checked ({w.reported.unverifiable})"
            if w.reported_fans and w.fans_agree is None:
                state += " (the source's fan names are unreadable: only the totals were compared)"
            say(
                f"    win seq {w.seq} seat {w.seat} {w.tile}: computed {'-' if w.points is None else w.points} [{fans}] {list(w.changes) if w.changes else '-'}",
            )
            if w.reported is not None:
                say(
                    f"      reported {'-' if w.reported.total is None else w.reported.total} [{rep}] "
                    f"{list(w.reported.score_changes) if w.reported.score_changes else '-'}: {state}",
                )
    return ok


def _games_to_verify(store, game_ids):
    """The games to check — those given, else every game found in the events themselves (not
    only the stream records) — and the :class:`CorruptDatabase` met listing them (then the
    games the stream records name, as far as they read), or None."""
    from eventlog.store.errors import CorruptDatabase

    if game_ids:
        try:  # every id checked before any game is: an unknown one is exit 2 at once
            known = set(store.raw_game_ids())
        except CorruptDatabase:
            return list(game_ids), None  # each game says for itself what survives
        missing = [g for g in dict.fromkeys(game_ids) if g not in known]
        if missing:
            from eventlog.store.base import GameNotFound

            if len(missing) == 1:
                raise GameNotFound(missing[0])
            raise CliError(f"no such games: {', '.join(repr(g) for g in missing)} (`paipu games` lists them)")
        return list(game_ids), None
    from replayer.log_verify import games_to_verify

    return games_to_verify(store)


#: ``paipu verify`` exit statuses (also in its --help): the meanings every command shares
#: (paipu/cli/errors.py EXIT_STATUSES).
EXIT_FINDINGS = EXIT_PROBLEMS


def _win_json(w) -> dict:
    rep = w.reported
    return {
        "seq": w.seq, "seat": w.seat, "tile": w.tile, "legal": w.legal, "points": w.points,
        "fans": [{"name": f.name_en, "name_zh": f.name_zh, "count": f.count, "points": f.points,
                  "provisional": f.provisional} for f in w.fans],
        "changes": list(w.changes) if w.changes else None,
        "reported": None if rep is None else {
            "total": rep.total,
            "score_changes": list(rep.score_changes) if rep.score_changes else None,
            "fans": [{"name": n, "points": p, "count": c} for n, p, c in w.reported_fans],
            "unverifiable": rep.unverifiable or None,
        },
        "fans_agree": w.fans_agree, "score_agrees": w.score_agrees,
    }


def _game_json(chain, audit) -> dict:
    from replayer.log_verify import disagreements

    out: dict = {
        "game_id": chain.game_id,
        "chain": {"ok": chain.ok, "events": chain.events, "first_bad_seq": chain.first_bad_seq,
                  "reason": chain.reason},
        "ok": bool(chain.ok and audit is not None and audit.ok),
    }
    if audit is not None:
        out.update(
            ruleset=audit.ruleset, events=audit.events, hands=audit.hands, draws=audit.draws,
            findings=[{"seq": f.seq, "rule_id": f.rule_id, "message": f.message, "source": f.source,
                       "seat": f.seat, "hand_number": f.hand_number} for f in audit.findings],
            wins=[_win_json(w) for w in audit.wins],
            disagreements=disagreements(audit),
        )
    return out


def _verify_and_export(store, ids, data, out, workers, cluster, report, advance) -> tuple[list[str], dict]:
    """``paipu verify --export``: the games the export replays are checked, audited and
    exported from one read and one replay each (analytics.export.outcomes.verified_outcome);
    returns the ids left to verify the usual way (already exported, or asked for by id but
    not new) and the export's report as ``paipu export --json`` gives it."""
    from paipu.cli.analysis import export_json

    from analytics.export import export
    from analytics.export.outcomes import verified_outcome

    wanted = set(ids)
    done: set[str] = set()

    def on_outcome(o) -> None:
        if o.verdict is not None and o.game_id in wanted:
            done.add(o.game_id)
            report(*o.verdict)
            advance()

    target = out if out is not None else data / "parquet"
    rep = export(store, target, data_dir=data, workers=workers, cluster=cluster,
                 outcome=verified_outcome, on_outcome=on_outcome)
    say(f"exported {plural(rep.games, 'game')} ({plural(rep.hands, 'hand')}, {rep.reexported} re-exported) to "
        f"{target}; log position {rep.previous_checkpoint} → {rep.checkpoint}", err=True)  # as `paipu export` says it
    return [g for g in ids if g not in done], export_json(rep, target)


def _what_if(store, chain, audit, as_ruleset, option):
    """The what-if comparison of one verified game (None when its chain is broken). A bad
    option is one line naming the flag and the options or values that would do (exit 2)."""
    from eventlog.errors import PaipuError
    from paipu.cli.review import what_if_options
    from paipu.cli.ruleset_options import options_error
    from replayer.whatif import what_if

    if not chain.ok or audit is None:
        return None
    opts = what_if_options(option)
    try:
        return what_if(store.read_game(chain.game_id), as_ruleset, opts)
    except PaipuError as e:
        target = as_ruleset or audit.ruleset
        if opts and target:
            raise options_error(target, opts, e) from None
        raise


def _print_what_if(w) -> None:
    """Both scorings side by side: option changes, each win, findings of one side only."""
    from eventlog.describe import plain_value

    def opts(o) -> str:  # {name=value ...}, never a Python dict
        return "{" + plain_value(dict(o)) + "}" if o else "(default options)"

    def pts(v) -> str:
        return "-" if v is None else str(v)

    say(f"    what-if: {w.ruleset_before} {opts(w.options_before)} -> {w.ruleset_after} {opts(w.options_after)}: "
        + ("DIFFERS" if w.differs else "same result"))
    for c in w.option_changes:
        say(f"      option {c.name}: {c.before} -> {c.after} ({c.source})")
    for x in w.wins:
        legal = lambda b: "legal" if b else "not a legal win"  # noqa: E731
        mark = "*" if x.differs else " "
        say(f"    {mark} win seq {x.seq} seat {x.seat} {x.tile}: {legal(x.legal_before)} {pts(x.points_before)} "
            f"{list(x.changes_before) if x.changes_before else '-'} | what-if {legal(x.legal_after)} {pts(x.points_after)} "
            f"{list(x.changes_after) if x.changes_after else '-'}")
        for d in x.fans:
            say(f"        {d.name_en} {d.name_zh}: {d.before or '-'} | {d.after or '-'} ({d.source})")
        for rule_id, message, source in x.reasons_after:
            if rule_id != "reported_score_mismatch":
                say(f"        what-if finding [{rule_id}] {message} ({source})")
    for f in w.findings_only_after:
        if f.rule_id != "reported_score_mismatch" and not any(f.seq == x.seq for x in w.wins):
            say(f"      what-if only: {f}")
    start = (f" (from {list(w.start_after)}, the starting scores of {w.ruleset_after})"
             if w.start_after is not None else "")
    say(f"      final scores {list(w.scores_before)} | what-if {list(w.scores_after)}{start}")


@command()
def verify(
    game_ids: Annotated[Optional[list[str]], typer.Argument(help="Games to check (default: all).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar; print only the games with problems (and the summary).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object: every game (chain, findings, wins with computed and reported scores) and the summary; same exit status.")] = False,
    as_ruleset: Annotated[Optional[str], typer.Option("--as", metavar="RULESET", help="What-if scoring: also re-score each game under this ruleset or preset and show both side by side, each difference with its rule source (does not change the exit status).")] = None,
    option: Annotated[Optional[list[str]], typer.Option("--option", metavar="K=V", help="An option for the what-if (repeatable; without --as: the game's own ruleset with these options), e.g. --option knitted_straight_waits=false.")] = None,
    cluster: Annotated[Optional[str], typer.Option("--cluster", metavar="ADDRESS", help="Check the games on the workers of this Dask scheduler (tcp://host:8786; pip install 'paipu[cluster]'); the report is the same as a local run. The workers must reach the store: a SQLite file on a shared disk or `paipu --store postgresql://…`.")] = None,
    workers: Annotated[Optional[int], typer.Option("--workers", min=1, help="Check games in this many processes (same report); default: every core from 500 games on, else 1.")] = None,
    export_: Annotated[bool, typer.Option("--export", help="Also export the finished games not exported yet to Parquet (as `paipu export`, into --out), from the same read and replay of each game; those games are reported in the export's order (by last event).")] = False,
    out: OutOpt = None,
    data: DataOpt = DEFAULT_DATA,
) -> None:
    """Re-compute every hash chain and replay every game under its ruleset (audit mode):
    findings, computed vs reported fans and scores.

    Integrity (the log itself) and rules (what the games say) are kept apart. Exit
    status: 0 = every chain intact and no finding or disagreement; 1 = every chain intact
    but some game has rule findings or reported fans/scores that disagree with the
    computed ones (the log is sound; the games say something worth reading); 3 = a broken
    hash chain, missing events or a log shorter than its checkpoint (the log is damaged:
    that game is not replayed);
    2 = the command could not run (bad arguments, no store)."""
    import sys

    from eventlog.parallel import default_workers, map_games
    from eventlog.verify import verify_log
    from replayer.log_verify import log_verdict, run_verdict

    if out is not None and not export_:
        raise CliError(f"--out {out} is where --export writes Parquet; without --export nothing is "
                       "written (add --export, or drop --out)")
    what_if_on = as_ruleset is not None or bool(option)
    if as_ruleset is not None:  # checked before any game is read: a bad --as or --option is 2 at once
        from paipu.cli.review import what_if_options
        from paipu.cli.ruleset_options import build_ruleset

        build_ruleset(as_ruleset, what_if_options(option), "--option", "--as")
    from eventlog.store.errors import CorruptDatabase

    try:
        with warnings.catch_warnings():  # what opening says (anchored anew, checkpoint rewritten) is said below
            warnings.simplefilter("ignore")
            store = open_store(data, must_exist=True, salvage=True)
    except CorruptDatabase as e:  # damaged where the store is opened: integrity, not "could not run"
        say(str(e), err=True, style="bold red")
        raise typer.Exit(EXIT_INTEGRITY) from None
    broken = findings = 0
    games = JsonListStream(sys.stdout.write, "games") if as_json else None  # each game written as it is checked
    exported: dict | None = None  # --export: the export's report (as `paipu export --json`)
    log_streams_broken: list[str] = []
    log_streams: list[dict] = []  # the log's own streams checked (paipu:players …): not games, nothing to replay
    stray_problems: list[str] = []  # a log stream holding events that do not belong there (exit 1)
    own_streams: list = []  # their checks (replayer.log_verify.LogStreamCheck)
    try:
        damage = getattr(store, "damage", None)
        if damage is not None:  # said once: its message starts with DATA LOSS
            text = str(damage)
            say(text if text.startswith("DATA LOSS") else f"DATA LOSS: {text}", err=True, style="bold red")
        anew = getattr(store, "anchored_anew", None)
        if anew is not None:  # nothing to compare the log with: say so, loudly, but it is no proof of loss
            say(f"WARNING: {anew} Events lost before now (a damaged write-ahead log) cannot be detected.",
                err=True, style="bold yellow")
        read_only = getattr(store, "read_only_note", None)
        if read_only is not None:  # a read-only copy: verified as it is, nothing healed
            say(f"warning: {read_only}", err=True, style="bold yellow")
        fixed = getattr(store, "reanchored", None)
        if fixed is not None:  # the checkpoint alone was wrong, proven by the running hash: repaired, no loss
            say(f"note: {fixed}", err=True, style="bold yellow")
        ids, unreadable = _games_to_verify(store, game_ids)  # from the events, not only the records
        if unreadable is not None:
            damage = damage or unreadable
            say(str(unreadable), err=True, style="bold red")
        from eventlog.store.streams import is_log_stream
        from replayer.log_verify import check_log_stream, game_verdict, verify_listed

        # the log's own streams (paipu:players) are not games: their hash chain, and that they
        # hold only their own event types (a game event there was appended before it was refused)
        for gid in [g for g in ids if is_log_stream(g)]:
            own = check_log_stream(store, gid)
            own_streams.append(own)
            log_streams.append({"stream": gid, "ok": own.chain.ok, "events": own.chain.events,
                                "first_bad_seq": own.chain.first_bad_seq, "reason": own.chain.reason,
                                "not_belonging": [{"seq": q, "type": t} for q, t in own.strays]})
            if own.broken_words:
                log_streams_broken.append(own.broken_words)
            if own.strays_words:
                stray_problems.append(own.strays_words)
        ids = [g for g in ids if not is_log_stream(g)]
        n_workers = default_workers(len(ids)) if workers is None else workers

        def report(chain, audit) -> None:
            nonlocal broken, findings
            verdict = game_verdict(chain, audit)
            if verdict == "broken":
                broken += 1
            elif verdict == "findings":
                findings += 1
            wi = _what_if(store, chain, audit, as_ruleset, option) if what_if_on else None
            if games is not None:
                game = _game_json(chain, audit)
                if what_if_on:
                    from replayer.whatif import what_if_json

                    game["what_if"] = None if wi is None else what_if_json(wi)
                games.add(game)
            elif not quiet or not (chain.ok and audit is not None and audit.ok) or wi is not None:
                _print_audit(chain, audit, verbose=not quiet)
                if wi is not None:
                    _print_what_if(wi)

        with progress(quiet=quiet or as_json) as bar:
            task = bar.add_task("verifying", total=len(ids))
            rest = ids
            if export_:
                rest, exported = _verify_and_export(store, ids, data, out, n_workers, cluster, report,
                                                    lambda: bar.advance(task))
            one = _verify_one if game_ids else verify_listed
            with map_games(store, rest, one, workers=n_workers, cluster=cluster) as results:
                for chain, audit in results:
                    bar.advance(task)
                    report(chain, audit)
        log = verify_log(store) if not game_ids else None
    finally:
        store.close()
    n = len(ids)
    intact = n - broken - findings  # chain intact and no finding
    log_damaged = damage is not None or (log is not None and not log.ok) or bool(log_streams_broken)
    log_v = None if log is None else log_verdict(log, damage, own_streams)  # the log's verdict, as VerifyLog's
    for problem in log_streams_broken:
        say(f"log stream {problem}", err=True, style="bold red")
    for problem in stray_problems:
        say(f"log stream {problem}", err=True, style="bold red")
    if game_ids and not as_json:  # a log stream named: say what was checked (it has no game to replay)
        for ls in log_streams:
            if ls["ok"] and not ls["not_belonging"]:
                say(f"log stream {ls['stream']}: chain intact, {plural(ls['events'], 'event')} "
                    "(the log's own stream, not a game: nothing to replay)")
    status = {"damaged": EXIT_INTEGRITY, "findings": EXIT_FINDINGS, "ok": EXIT_OK}[
        run_verdict(broken, findings, log_damaged, bool(stray_problems))]
    if games is not None:
        games.close({
            "log_streams": log_streams,
            "log": None if log_v is None else {
                "ok": log_v.ok, "events": log_v.events, "head": log_v.head, "checkpoint": log_v.checkpoint,
                "problems": list(log_v.problems),
            },
            "summary": {"games": n, "intact": intact, "chains_intact": n - broken, "broken_chains": broken,
                        "with_findings": findings, "log_damaged": log_damaged, "exit_status": status},
        }, late={"export": exported} if export_ else None)
    else:
        if n or not game_ids or not log_streams:  # not "0 of 0 chains" for a log stream named alone
            say(f"{n - broken} of {n} chains intact, {intact} of them without findings; {broken} with a broken "
                f"chain or missing events (exit 3); {findings} with rule findings or disagreements (exit 1)"
                + ("; the log itself is DAMAGED (exit 3, above)" if log_damaged else ""))
        if log is not None:
            for problem in log.problems:
                if damage is not None and "checkpoint records" in problem and "checkpoint" in str(damage):
                    continue  # the same loss, said once above when the store was opened
                say(f"log: {problem}", err=True, style="bold red")
            if log.ok and damage is None:
                # "intact" only when every check passed: the log-level check alone (positions,
                # checkpoint) says nothing of the games' hash chains
                where = (f"{log.events} events, positions 1..{log.head}"
                         + (f", checkpoint at {log.checkpoint}" if log.checkpoint is not None else ""))
                if broken or log_streams_broken:
                    say(f"log NOT intact: positions 1..{log.head} present ({log.events} events)"
                        + (f", checkpoint at {log.checkpoint}" if log.checkpoint is not None else "")
                        + f"; {broken + len(log_streams_broken)} hash chain(s) BROKEN (above)")
                else:
                    say(f"log intact: {where}")
    if status:
        raise typer.Exit(status)


@command()
def quickstart(data: DataOpt = DEFAULT_DATA) -> None:
    """The main job on the bundled real logs: import them, verify every hash chain,
    replay every game under its ruleset, and print a summary."""
    from eventlog.ingest import parse_file
    from eventlog.ingest.base import ParseIssue
    from eventlog.ingest.load import store_game
    from paipu.samples import sample_files

    d = data
    files = sample_files()
    say(f"paipu quickstart: {len(files)} bundled log files -> {d}")
    store = open_store(d)
    stored = dup = 0
    issues: list[ParseIssue] = []
    audits = []
    chains = []
    try:
        games_by_file = [(f, list(parse_file(f))) for f in files]
        n_games = sum(len(g) for _f, g in games_by_file)
        with progress() as bar:
            task = bar.add_task("import, verify, replay", total=n_games)
            for _f, items in games_by_file:
                for item in items:
                    if isinstance(item, ParseIssue):
                        issues.append(item)
                    else:
                        done = store_game(store, item)
                        if done:
                            stored += 1
                        else:
                            dup += 1
                        chain, audit = _verify_one(store, done.game_id)
                        chains.append(chain)
                        if audit is not None:
                            audits.append(audit)
                    bar.advance(task)
    finally:
        store.close()
    _summary(stored, dup, issues, audits, chains)


def _summary(stored, dup, issues, audits, chains) -> None:
    """``chains``: every game's chain check (a broken one is not replayed, so has no audit:
    it is counted and named here, never dropped)."""
    games = len(chains)
    broken = [c for c in chains if not c.ok]
    hands = sum(a.hands for a in audits)
    wins = [w for a in audits for w in a.wins]
    draws = sum(a.draws for a in audits)
    findings = [(a.game_id, f) for a in audits for f in a.findings]
    disagree = [(a.game_id, w) for a in audits for w in a.wins if w.fans_agree is False or w.score_agrees is False]
    by_ruleset: dict[str, int] = {}
    for a in audits:
        by_ruleset[a.ruleset or "?"] = by_ruleset.get(a.ruleset or "?", 0) + 1
    t = Table(title="paipu quickstart", show_header=False)
    if broken:
        by_ruleset["not replayed (broken chain)"] = len(broken)
    t.add_row("games", f"{games} ({', '.join(f'{escape(k)}: {v}' for k, v in sorted(by_ruleset.items()))}); "
              f"{stored} newly stored, {dup} already stored")
    t.add_row("hash chains", f"{games - len(broken)} of {games} intact")
    t.add_row("hands", str(hands))
    t.add_row("wins", f"{len(wins)} ({sum(w.self_drawn for w in wins)} self-drawn)")
    t.add_row("exhaustive draws", str(draws))
    t.add_row("findings", str(len(findings)))
    fan_lists = [w for w in wins if w.reported_fans]
    fans_ok = sum(1 for w in fan_lists if w.fans_agree is True)
    fans_bad = sum(1 for w in fan_lists if w.fans_agree is False)
    unreadable = len(fan_lists) - fans_ok - fans_bad
    t.add_row(
        "reported fans",
        f"{fans_ok} of {len(fan_lists)} fan lists agree, {fans_bad} disagree"
        + (f", {unreadable} unreadable" if unreadable else ""),
    )
    scores = [r for a in audits for r in a.reported if r.score_changes is not None or r.total is not None]
    unchecked = sum(1 for r in scores if r.agrees and r.unverifiable)
    t.add_row("reported scores", f"{sum(r.agrees and not r.unverifiable for r in scores)} of {len(scores)} agree, "
              f"{sum(not r.agrees for r in scores)} disagree" + (f", {unchecked} cannot be checked" if unchecked else ""))
    if issues:
        t.add_row("import errors", str(len(issues)))
    console.print(t)
    for c in broken:
        say(f"  chain BROKEN in {c.game_id} at seq {c.first_bad_seq}: {c.reason} (the log is damaged; "
            f"not replayed: see `paipu verify {c.game_id}`)", err=True, style="bold red")
    for gid, f in findings:
        say(f"  finding in {gid}: {f}")
    for gid, w in disagree:
        say(f"  reported score differs in {gid} (win seq {w.seq}): see `paipu verify {gid}`")
    for issue in issues:
        say(f"import error: {clipped(str(issue))}", err=True, style="red")
    legal = [(a, w) for a in audits for w in a.wins if w.legal and w.points is not None]
    if legal:
        from eventlog import tiles as T

        a, w = max(legal, key=lambda aw: (aw[1].points, aw[0].game_id))
        fans = ", ".join(
            f"{x.name_en} {x.name_zh} {x.points}" + (f"×{x.count}" if x.count > 1 else "") + x.note for x in w.fans
        )
        from replayer.rules.base import score_unit_of

        say(
            f"biggest hand: {a.game_id}, seat {w.seat} on {T.to_unicode(w.tile)} {w.tile}"
            f" ({'self-drawn' if w.self_drawn else f'from seat {w.from_seat}'}): "
            f"{score_unit_of(a.ruleset).amount(w.points)} = {fans}",
        )
    console.print("next: `paipu games`, `paipu replay GAME_ID`, `paipu verify GAME_ID`")
    # Findings are the job's output (true rule breaches in real logs), not a failure of it;
    # a broken chain (exit 3, the log is damaged) or a file that did not import (exit 1) is.
    if broken:
        raise typer.Exit(EXIT_INTEGRITY)
    if issues:
        raise typer.Exit(EXIT_FINDINGS)
