"""One export run: which games to export, in which order, and the report.

See :mod:`analytics.export` for the layout, blocks, checkpoint and crash safety."""

from __future__ import annotations

import functools
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from analytics.export.errors import DamagedExport, ExportError, repair_command
from analytics.export.files import fsync_dir, locked, verify_file
from analytics.export.manifest import MANIFEST, Manifest, block_key, part_path, read_manifest
from analytics.export.outcomes import GameOutcome, Outcome, game_outcome, game_outcome_upto
from analytics.export.writer import ALIASES_FILE, BlockWriter, clean_leftovers, write_aliases
from analytics.schema import TABLES
from eventlog.events import EventError, parse_payload
from eventlog.parallel import PARALLEL_GAMES, default_workers, map_games
from eventlog.players import is_log_stream, read_aliases
from eventlog.store.base import EventStore
from eventlog.store.types import GameInfo

__all__ = ["BLOCK_POSITIONS", "FLUSH_ROWS", "PARALLEL_GAMES", "ExportReport", "export", "default_workers"]

#: Log positions per block (~2,400 MCR hands of ~110 events): bounds the rows held in
#: memory and rewritten when the newest block grows.
BLOCK_POSITIONS = 1 << 18
#: Rows (all tables) held before the pending blocks are written and a checkpoint committed.
FLUSH_ROWS = 400_000
#: Where ``rebuild`` builds the new export (inside the output directory: its lock covers
#: it, renames stay on one file system) and where the replaced one waits to be deleted.
REBUILD_DIR, REPLACED_DIR = ".rebuild", ".replaced"


@dataclass
class ExportReport:
    """What one export run did. ``checkpoint``: the log position now covered;
    ``games``: finished games written (new or re-exported); ``reexported``: of those,
    games already exported that got later events; ``unfinished``: streams without
    game_ended (not exported yet); ``skipped``: (game id, reason) of games that could not
    be replayed; ``damaged``: (game id, reason) of games the log cannot serve intact (a
    damaged row, a hole, a lost tail: not exported, named, tried again by every run); ``rows``: rows written per table for these games; ``files``: part files
    written; ``repaired``: blocks rebuilt because a file was damaged."""

    checkpoint: int = 0
    previous_checkpoint: int = 0
    games: int = 0
    hands: int = 0
    reexported: int = 0
    unfinished: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    damaged: list[tuple[str, str]] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)
    files: int = 0
    repaired: list[str] = field(default_factory=list)
    #: why a block was rebuilt without ``repair`` (a part file missing or cut short)
    repair_reasons: dict[str, str] = field(default_factory=dict)
    #: wall seconds spent reading + replaying games (waiting for workers) and writing
    #: Parquet + manifests: where the time goes (not written anywhere)
    seconds: dict[str, float] = field(default_factory=dict)


def _damaged_blocks(out: Path, manifest: Manifest, command: str) -> list[str]:
    bad = []
    for key in sorted(manifest.blocks):
        r, b = key.split("/")
        blk = manifest.blocks[key]
        for t in TABLES:
            try:
                verify_file(out, part_path(t.name, r, int(b), blk.version), blk.files[t.name], command)
            except DamagedExport:
                bad.append(key)
                break
    return bad


def _missing_blocks(out: Path, manifest: Manifest) -> list[tuple[str, str]]:
    """(block, why) for each block with a part file that is missing or not of the size the
    manifest records: one ``stat`` per file, cheap enough for every run (``repair`` also
    compares the checksums)."""
    bad = []
    for key in sorted(manifest.blocks):
        r, b = key.split("/")
        blk = manifest.blocks[key]
        for t in TABLES:
            rel = part_path(t.name, r, int(b), blk.version)
            try:
                size = (out / rel).stat().st_size
            except FileNotFoundError:
                bad.append((key, f"{rel} was missing"))
                break
            if size != blk.files[t.name].bytes:
                bad.append((key, f"{rel} was {size} bytes, written as {blk.files[t.name].bytes}"))
                break
    return bad


def _games_ended_in(store: EventStore, start: int, stop: int) -> list[str]:
    """Ids of the games whose game_ended lies at a position in [start, stop)."""
    ids = []
    for e in store.read_all(from_position=max(start, 1), limit=max(stop - max(start, 1), 0)):
        if e.type == "game_ended":
            ids.append(e.game_id)
    return ids


def _games_without_record(store: EventStore, games: list[GameInfo], head: int) -> list[str]:
    """Ids of the games with events in the log but no stream record (a record deleted: the
    export goes by the records, :meth:`EventStore.list_games`), in order of first position.
    Every event up to ``head`` belongs to a recorded stream, so the records count at least
    ``head`` events (more when appends came after ``head`` was read); only when they count
    fewer are the stored rows' game ids read (:meth:`EventStore.raw_game_ids`)."""
    if sum(g.event_count for g in games) >= head:
        return []
    recorded = {g.game_id for g in games}
    return [gid for gid in store.raw_game_ids() if gid not in recorded]


def _unfit_reason(store: EventStore, game_id: str, why: str) -> str:
    """Why a game's rows did not fit the Parquet columns, named by the stored event that holds
    the number (the first whose payload today's event model refuses: an event stored before
    its range was checked, docs/events.md "Number ranges"); ``why`` (pyarrow's words) when no
    single event holds it (a sum beyond a column)."""
    for e in store.read_game(game_id):
        try:
            parse_payload(e.type, e.payload.model_dump(mode="json"))
        except EventError as err:
            return f"seq {e.seq}: {err} (stored before the range was checked; not exported)"
    return why


def export(
    store: EventStore,
    out_dir: Path | str,
    *,
    rebuild: bool = False,
    repair: bool = False,
    block_positions: int = BLOCK_POSITIONS,
    flush_rows: int = FLUSH_ROWS,
    data_dir: Path | str | None = None,
    on_file: Callable[[Path], None] | None = None,
    workers: int | None = None,
    cluster: str | None = None,
    on_start: Callable[[int], None] | None = None,
    on_game: Callable[[str], None] | None = None,
    outcome: Callable[[int, EventStore, str], GameOutcome] = game_outcome_upto,
    on_outcome: Callable[[GameOutcome], None] | None = None,
) -> ExportReport:
    """Export the finished games of ``store`` not yet exported to ``out_dir``.

    ``rebuild``: forget the existing export and write everything again. ``repair``: first
    check every part file (size and checksum) and re-export the blocks with a missing or
    damaged file; without it, a block whose part file is missing or not of its written size
    is re-exported all the same (``report.repaired``, ``report.repair_reasons``).
    ``block_positions`` applies to a new export (an existing one keeps its own).
    ``on_file(path)`` is called after each part file is in place, ``on_start(n)`` with the
    number of games to replay, ``on_game(game_id)`` after each (progress bars).
    ``outcome(head, store, game_id)`` reads and replays one new game (default
    :func:`~analytics.export.outcomes.game_outcome_upto`; ``paipu verify --export`` passes
    :func:`~analytics.export.outcomes.verified_outcome`, which also checks and audits it in
    the same replay) and ``on_outcome`` gets each such outcome, in the export's order.
    ``workers`` > 1 replays games in that many processes (a SQLite store only; the
    results are taken in the same order, so the files are the same); None (the default):
    :func:`default_workers` of the number of games to export. ``cluster``: the address of a
    Dask distributed scheduler whose workers replay the games instead
    (:func:`eventlog.parallel.map_games`; a SQLite file they can reach or PostgreSQL). Either
    way the results are taken in game order, so the Parquet files are byte-identical.

    A game the log cannot serve intact (:class:`~eventlog.store.CorruptEvent`,
    :class:`~eventlog.store.MissingEvents`) does not stop the run: the other games are
    exported, it is named in ``report.damaged`` and in the manifest, and tried again by
    every later run. So is a game whose events have no stream record (the records count
    fewer events than the log's head: :func:`_games_without_record`).

    Raises :class:`ExportError` when another export holds the directory or the log is
    behind the export's checkpoint (another data directory?), :class:`DamagedExport` when
    a block that must be merged has a bad file (use ``repair``) or the manifest is
    invalid (use ``rebuild``)."""
    out = Path(out_dir)
    with locked(out):
        for leftover in (REBUILD_DIR, REPLACED_DIR):  # a crashed rebuild's (never read)
            shutil.rmtree(out / leftover, ignore_errors=True)
        if not rebuild:
            manifest = read_manifest(out, data_dir) or Manifest.empty(block_positions)
            return _run(store, out, out, manifest, repair=repair, flush_rows=flush_rows, data_dir=data_dir,
                        on_file=on_file, workers=workers, cluster=cluster, on_start=on_start, on_game=on_game,
                        outcome=outcome, on_outcome=on_outcome)
        # A rebuild is built aside and swapped in at the end: until then the previous export
        # stays as it was, also when the rebuild fails (a damaged alias stream, an interrupt).
        aside = out / REBUILD_DIR
        try:
            report = _run(store, aside, out, Manifest.empty(block_positions), repair=False, flush_rows=flush_rows,
                          data_dir=data_dir, on_file=on_file, workers=workers, cluster=cluster, on_start=on_start,
                          on_game=on_game, outcome=outcome, on_outcome=on_outcome)
        except BaseException:
            shutil.rmtree(aside, ignore_errors=True)
            raise
        _swap_in(aside, out)
        return report


def _swap_in(aside: Path, out: Path) -> None:
    """Put the export built in ``aside`` in place of the one in ``out``: each table's
    directory and the alias file moved over (the old ones moved out of the way first), the
    manifest last, then the old files deleted. Renames within one directory: a crash in
    between leaves part files the manifest does not list as written — noticed by every
    reader and rebuilt by the next ``paipu export`` (missing) or ``--repair`` (checksum)."""
    old = out / REPLACED_DIR
    shutil.rmtree(old, ignore_errors=True)
    old.mkdir()
    for name in [t.name for t in TABLES] + [ALIASES_FILE]:
        if (out / name).exists():
            os.rename(out / name, old / name)
        if (aside / name).exists():
            os.rename(aside / name, out / name)
    os.replace(aside / MANIFEST, out / MANIFEST)
    fsync_dir(out)
    shutil.rmtree(old, ignore_errors=True)
    shutil.rmtree(aside, ignore_errors=True)


def _run(store: EventStore, work: Path, out: Path, manifest: Manifest, *, repair: bool, flush_rows: int,
         data_dir: Path | str | None, on_file: Callable[[Path], None] | None, workers: int | None,
         cluster: str | None, on_start: Callable[[int], None] | None, on_game: Callable[[str], None] | None,
         outcome: Callable[[int, EventStore, str], GameOutcome],
         on_outcome: Callable[[GameOutcome], None] | None) -> ExportReport:
    """One export into ``work`` (``out``, or the directory a rebuild is built in) from
    ``manifest``; the messages name ``out``."""
    report = ExportReport()
    started = time.perf_counter()
    clean_leftovers(work, manifest)
    bp = manifest.block_positions
    checkpoint = manifest.checkpoint
    report.previous_checkpoint = checkpoint
    head = store.head_position()
    if head < checkpoint:
        raise ExportError(
            f"the event log ends at position {head}, but the export in {out} covers up to "
            f"{checkpoint}: is this the right --data? (`paipu export --rebuild` starts over)"
        )
    command = repair_command(out, data_dir)
    writer = BlockWriter(work, manifest, command, on_file)
    done: set[str] = set()

    def take(game_id: str, outcome: GameOutcome | None = None) -> None:
        o = outcome or game_outcome(store, game_id, head)
        if o.kind is Outcome.DAMAGED:
            report.damaged.append((game_id, o.reason))
            manifest.damaged[game_id] = o.reason
            return
        manifest.damaged.pop(game_id, None)
        if o.kind is Outcome.EMPTY:
            return
        if o.kind is Outcome.SKIPPED:
            report.skipped.append((game_id, o.reason))
            return
        if o.kind is Outcome.UNFINISHED:
            report.unfinished += 1
            return
        facts = o.facts
        assert facts is not None
        last = o.last_position
        key = block_key(facts.ruleset, facts.end_position // bp)
        replaces = facts.end_position <= checkpoint
        writer.add(facts, key, replaces)
        done.add(game_id)
        report.games += 1
        report.reexported += int(replaces and last > checkpoint)
        report.hands += facts.count("hands")
        for name, rows in facts.rows.items():
            report.rows[name] = report.rows.get(name, 0) + len(rows)

    def flush(checkpoint: int) -> None:
        writer.flush(checkpoint)
        for facts, why in writer.unfit:  # written without it: counted out again, named
            report.games -= 1
            report.hands -= facts.count("hands")
            for name, rows in facts.rows.items():
                report.rows[name] -= len(rows)
            done.discard(facts.game_id)
            report.skipped.append((facts.game_id, _unfit_reason(store, facts.game_id, why)))

    if repair:
        damaged = _damaged_blocks(work, manifest, command)
    else:  # a part file deleted or cut short is noticed by every run and rebuilt from the log
        missing = _missing_blocks(work, manifest)
        damaged = [key for key, _ in missing]
        report.repair_reasons.update(missing)
    if damaged:
        rulesets = {g.game_id: g.ruleset for g in store.list_games()}
        for key in damaged:
            report.repaired.append(key)
            r, b = key.split("/")
            blk = manifest.blocks.pop(key)
            writer.superseded += [part_path(t.name, r, int(b), blk.version) for t in TABLES]
            for gid in _games_ended_in(store, int(b) * bp, min((int(b) + 1) * bp, checkpoint + 1)):
                if rulesets.get(gid) == r:
                    take(gid)

    games = store.list_games()
    unrecorded = _games_without_record(store, games, head)
    for game_id in unrecorded:
        reason = f"game {game_id!r}: its events have no stream record (the record was deleted)"
        report.damaged.append((game_id, reason))
        manifest.damaged[game_id] = reason
    changed = [g for g in sorted((g for g in games if g.last_position > checkpoint),
                                 key=lambda g: g.last_position)
               if g.game_id not in done and not is_log_stream(g.game_id)]  # paipu:… streams are no games
    write_aliases(work, read_aliases(store))
    n_workers = default_workers(len(changed)) if workers is None else workers
    if on_start is not None:
        on_start(len(changed))
    with map_games(store, [g.game_id for g in changed], functools.partial(outcome, head),
                   workers=n_workers, cluster=cluster) as outcomes:
        for g, result in zip(changed, outcomes):
            take(g.game_id, result)
            if on_outcome is not None:
                on_outcome(result)
            if on_game is not None:
                on_game(g.game_id)
            if writer.pending_rows >= flush_rows:
                flush(min(g.last_position, head))
    # games the log could not serve intact before: named again until they read whole
    retry = sorted(set(manifest.damaged) - done - {g.game_id for g in changed} - set(unrecorded))
    for game_id in retry:
        take(game_id)
    flush(head)
    report.checkpoint = head
    report.files = writer.files
    total = time.perf_counter() - started
    report.seconds = {"total": round(total, 3), "write": round(writer.write_seconds, 3),
                      "read_and_replay": round(total - writer.write_seconds, 3)}
    return report
