"""Incremental, deterministic Parquet export of the event log (shared/DESIGN.md §7).

Layout under the output directory (default ``<data>/parquet``)::

    _manifest.json                                   the committed state (see below)
    <table>/ruleset=<id>/part-<block>-<version>.parquet

**Blocks.** A finished game belongs to block ``end_position // block_positions`` of its
ruleset, where ``end_position`` is the global log position of its ``game_ended`` event.
One part file per table holds a block; ``version`` is the highest log position among the
events of the block's games. Positions only grow, so a new game always lands in the
newest block (or a later one) and older blocks are sealed — except when an exported game
receives events after its ``game_ended`` (a late referee ruling): its block is rewritten
with the game re-exported. Which games are in which file, their order and every byte
therefore depend only on the log up to the checkpoint: two exports of the same log give
identical files, whether done in one run or many.

**Checkpoint.** ``_manifest.json`` records ``checkpoint`` (the log position the export is
complete up to) and every part file with its row count, size and SHA-256. A run reads
only the streams whose last position is past the checkpoint (:meth:`EventStore.list_games`),
replays the finished ones (:func:`analytics.facts.game_facts`), merges them into their
blocks and commits a new manifest. Games without ``game_ended`` are skipped and picked up
by the run after they end.

**Crash safety.** Part files are written to hidden temporary files, fsynced and renamed
to names no committed manifest uses; the manifest is replaced the same way, last; files
of superseded versions are deleted only after that. A crash at any point leaves the
previous manifest and all its files intact; the next run deletes the leftovers and does
the work again. Readers (:func:`open_export`) use the files the manifest lists and check
their size and checksum, so a damaged or missing file is reported by name with the
command that rebuilds it (:class:`DamagedExport`), never read as wrong numbers.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import json
import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from eventlog.errors import PaipuError
from analytics.facts import GameFacts, game_facts
from analytics.schema import SCHEMA_ID, TABLES, Table
from eventlog.events import StoredEvent
from eventlog.parallel import map_games
from eventlog.store.base import EventStore, inspect_row
from replayer.findings import RulesetError

__all__ = [
    "BLOCK_POSITIONS",
    "MANIFEST",
    "ExportError",
    "DamagedExport",
    "ExportReport",
    "Export",
    "export",
    "default_workers",
    "open_export",
    "rebuild_command",
]

#: Log positions per block (~2,400 MCR hands of ~110 events): bounds the rows held in
#: memory and rewritten when the newest block grows.
BLOCK_POSITIONS = 1 << 18
MANIFEST = "_manifest.json"
FORMAT = 1
#: Rows (all tables) held before the pending blocks are written and a checkpoint committed.
FLUSH_ROWS = 400_000
#: From this many games to export on, :func:`export` uses every core by default.
PARALLEL_GAMES = 500
_PART = re.compile(r"^part-(\d{6})-(\d{12})\.parquet$")
_WRITE_OPTIONS: dict[str, Any] = {
    "compression": "zstd",
    "compression_level": 3,
    "row_group_size": 1 << 20,
    "write_statistics": True,
    "version": "2.6",
}


class ExportError(PaipuError):
    """The export cannot go on (no manifest, a log older than the export …)."""


def rebuild_command(out_dir: Path | str, data_dir: Path | str | None = None) -> str:
    """The shell command that rebuilds the damaged files of an export."""
    data = f" --data {data_dir}" if data_dir is not None else ""
    return f"paipu export --repair{data} --out {out_dir}"


class DamagedExport(ExportError):
    """A part file listed in the manifest is missing or not what was written.

    ``path``: the file; ``reason``: missing / size / checksum / unreadable;
    ``command``: what rebuilds it."""

    grpc_code = "DATA_LOSS"
    fields = ("path", "reason", "command")

    def __init__(self, path: Path, reason: str, command: str) -> None:
        super().__init__(f"{path}: {reason}; rebuild it with `{command}`")
        self.path = path
        self.reason = reason
        self.command = command


@dataclass
class ExportReport:
    """What one export run did. ``checkpoint``: the log position now covered;
    ``games``: finished games written (new or re-exported); ``reexported``: of those,
    games already exported that got later events; ``unfinished``: streams without
    game_ended (not exported yet); ``skipped``: (game id, reason) of games that could not
    be replayed; ``rows``: rows written per table for these games; ``files``: part files
    written; ``repaired``: blocks rebuilt because a file was damaged."""

    checkpoint: int = 0
    previous_checkpoint: int = 0
    games: int = 0
    hands: int = 0
    reexported: int = 0
    unfinished: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)
    files: int = 0
    repaired: list[str] = field(default_factory=list)
    #: wall seconds spent reading + replaying games (waiting for workers) and writing
    #: Parquet + manifests: where the time goes (not written anywhere)
    seconds: dict[str, float] = field(default_factory=dict)


# ----------------------------------------------------------------------------- manifest


def _block_key(ruleset: str, block: int) -> str:
    return f"{ruleset}/{block:06d}"


def _part_path(table: str, ruleset: str, block: int, version: int) -> str:
    return f"{table}/ruleset={ruleset}/part-{block:06d}-{version:012d}.parquet"


def _empty_manifest(block_positions: int) -> dict[str, Any]:
    return {"format": FORMAT, "schema": SCHEMA_ID, "block_positions": block_positions, "checkpoint": 0,
            "blocks": {}}


def _read_manifest(out: Path) -> dict[str, Any] | None:
    path = out / MANIFEST
    if not path.exists():
        return None
    try:
        m = json.loads(path.read_text(encoding="utf-8"))
        if m.get("format") != FORMAT or not isinstance(m.get("blocks"), dict):
            raise ValueError(f"format {m.get('format')!r}")
        int(m["checkpoint"]), int(m["block_positions"])
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise DamagedExport(path, f"unreadable manifest ({e})", f"paipu export --rebuild --out {out}") from None
    if m.get("schema") != SCHEMA_ID:
        raise ExportError(f"the export in {out} was written with other table columns (schema "
                          f"{m.get('schema')}, this paipu writes {SCHEMA_ID}); rebuild it with "
                          f"`paipu export --rebuild --out {out}`")
    return m


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """Write through a hidden temporary file in the same directory, fsync, rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    write(tmp)
    with open(tmp, "rb+") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    text = json.dumps(manifest, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    _atomic_write(out / MANIFEST, lambda p: p.write_text(text, encoding="utf-8"))


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


_VERIFIED: dict[tuple[str, int, int], str] = {}


def _verify_file(out: Path, rel: str, entry: dict[str, Any], command: str) -> Path:
    """Check one part file against its manifest entry (size, SHA-256; the hash of an
    unchanged file — same size and mtime — is remembered for the process)."""
    path = out / rel
    try:
        st = path.stat()
    except FileNotFoundError:
        raise DamagedExport(path, "missing", command) from None
    if st.st_size != entry["bytes"]:
        raise DamagedExport(path, f"size {st.st_size} bytes, the manifest says {entry['bytes']}", command)
    key = (str(path), st.st_size, st.st_mtime_ns)
    digest = _VERIFIED.get(key)
    if digest is None:
        digest = _sha256(path)
    if digest != entry["sha256"]:
        raise DamagedExport(path, "checksum differs from the manifest (the file was changed or damaged)", command)
    _VERIFIED[key] = digest
    return path


@contextlib.contextmanager
def _locked(out: Path) -> Iterator[None]:
    out.mkdir(parents=True, exist_ok=True)
    with open(out / ".lock", "w") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ExportError(f"another `paipu export` is writing {out}") from None
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


# ----------------------------------------------------------------------------- reading


class Export:
    """A committed export, as readers see it: the manifest and its verified files.

    ``data_dir`` only shapes the rebuild command in error messages."""

    def __init__(self, out_dir: Path | str, manifest: dict[str, Any], data_dir: Path | str | None = None) -> None:
        self.out = Path(out_dir)
        self.manifest = manifest
        self.command = rebuild_command(self.out, data_dir)

    @property
    def checkpoint(self) -> int:
        return int(self.manifest["checkpoint"])

    def rulesets(self) -> list[str]:
        return sorted({k.split("/")[0] for k in self.manifest["blocks"]})

    def entries(self, table: str, ruleset: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        """(relative path, manifest entry) of ``table``'s part files, in block order."""
        out = []
        for key in sorted(self.manifest["blocks"]):
            r, b = key.split("/")
            if ruleset is not None and r != ruleset:
                continue
            blk = self.manifest["blocks"][key]
            out.append((_part_path(table, r, int(b), blk["version"]), blk["files"][table]))
        return out

    def files(self, table: str, ruleset: str | None = None) -> list[Path]:
        """The verified part files of ``table`` (optionally one ruleset's). Raises
        :class:`DamagedExport` naming the first missing or damaged file."""
        return [_verify_file(self.out, rel, entry, self.command) for rel, entry in self.entries(table, ruleset)]

    def rows(self, table: str, ruleset: str | None = None) -> int:
        return sum(e["rows"] for _, e in self.entries(table, ruleset))


def open_export(out_dir: Path | str, data_dir: Path | str | None = None) -> Export:
    """The committed export in ``out_dir``. Raises :class:`ExportError` when there is none
    (with the command that makes one), :class:`DamagedExport` for an unreadable manifest."""
    out = Path(out_dir)
    m = _read_manifest(out)
    if m is None:
        data = f" --data {data_dir}" if data_dir is not None else ""
        raise ExportError(f"no analytics export in {out} (run `paipu export{data} --out {out}` first)")
    return Export(out, m, data_dir)


# ----------------------------------------------------------------------------- writing


def _arrow(t: Table, rows: list[dict[str, Any]]) -> pa.Table:
    # column by column: a quarter less time than Table.from_pylist on the actions table
    return pa.Table.from_pydict({c: [r[c] for r in rows] for c in t.schema.names}, schema=t.schema)


class _Writer:
    """One export run's state: the manifest being built and the pending blocks."""

    def __init__(self, out: Path, manifest: dict[str, Any], command: str,
                 on_file: Callable[[Path], None] | None) -> None:
        self.out = out
        self.manifest = manifest
        self.command = command
        self.on_file = on_file
        self.pending: dict[str, list[GameFacts]] = {}
        self.replaced: dict[str, set[str]] = {}
        self.pending_rows = 0
        self.superseded: list[str] = []
        self.files = 0
        self.write_seconds = 0.0

    def add(self, facts: GameFacts, key: str, replaces: bool) -> None:
        self.pending.setdefault(key, []).append(facts)
        if replaces:
            self.replaced.setdefault(key, set()).add(facts.game_id)
        self.pending_rows += sum(len(v) for v in facts.rows.values())

    def flush(self, checkpoint: int) -> None:
        """Write every pending block, then commit the manifest at ``checkpoint``."""
        started = time.perf_counter()
        for key in sorted(self.pending):
            self._write_block(key, self.pending[key], self.replaced.get(key, set()))
        self.manifest["checkpoint"] = checkpoint
        _write_manifest(self.out, self.manifest)
        current = _manifest_files(self.manifest)
        for rel in self.superseded:
            if rel not in current:  # a repaired block may keep its file names
                with contextlib.suppress(FileNotFoundError):
                    (self.out / rel).unlink()
        self.superseded = []
        self.pending, self.replaced, self.pending_rows = {}, {}, 0
        self.write_seconds += time.perf_counter() - started

    def _old_table(self, key: str, t: Table) -> pa.Table | None:
        blk = self.manifest["blocks"].get(key)
        if blk is None:
            return None
        r, b = key.split("/")
        rel = _part_path(t.name, r, int(b), blk["version"])
        path = _verify_file(self.out, rel, blk["files"][t.name], self.command)
        try:
            return pq.read_table(path, schema=t.schema)
        except (pa.ArrowException, OSError) as e:
            raise DamagedExport(path, f"unreadable ({e})", self.command) from None

    def _write_block(self, key: str, games: list[GameFacts], replaced: set[str]) -> None:
        ruleset, b = key.split("/")
        block = int(b)
        drop = pa.array(sorted(replaced | {g.game_id for g in games}), pa.string())
        tables: dict[str, pa.Table] = {}
        for t in TABLES:
            parts = []
            old = self._old_table(key, t)
            if old is not None and old.num_rows:
                parts.append(old.filter(pc.invert(pc.is_in(old["game_id"], value_set=drop))))
            rows = [row for g in games for row in g.rows[t.name]]
            parts.append(_arrow(t, rows))
            tables[t.name] = pa.concat_tables(parts)
        games_t = tables["games"]
        order_ids = games_t["game_id"]
        ends = games_t["end_position"]
        version = pc.max(games_t["last_position"]).as_py() or 0
        old_blk = self.manifest["blocks"].get(key)
        entry: dict[str, Any] = {"version": version, "files": {}}
        for t in TABLES:
            tab = tables[t.name]
            # rows in game order (game_ended position), then the table's own keys; the
            # sort is stable, so ties keep the order the replay produced them in
            idx = pc.index_in(tab["game_id"], value_set=order_ids)
            tab = tab.append_column("_end", pc.take(ends, idx))
            tab = tab.sort_by([("_end", "ascending")] + [(c, "ascending") for c in t.order])
            tab = tab.drop_columns(["_end"]).combine_chunks()
            rel = _part_path(t.name, ruleset, block, version)
            path = self.out / rel
            _atomic_write(path, lambda p, tab=tab: pq.write_table(tab, p, **_WRITE_OPTIONS))
            self.files += 1
            entry["files"][t.name] = {"rows": tab.num_rows, "bytes": path.stat().st_size, "sha256": _sha256(path)}
            if self.on_file is not None:
                self.on_file(path)
        if old_blk is not None and old_blk["version"] != version:
            self.superseded += [_part_path(t.name, ruleset, block, old_blk["version"]) for t in TABLES]
        self.manifest["blocks"][key] = entry


def _manifest_files(manifest: dict[str, Any]) -> set[str]:
    """Relative paths of every part file the manifest lists."""
    out = set()
    for key, blk in manifest["blocks"].items():
        r, b = key.split("/")
        out |= {_part_path(t.name, r, int(b), blk["version"]) for t in TABLES}
    return out


def _clean_leftovers(out: Path, manifest: dict[str, Any]) -> None:
    """Delete part and temporary files no committed manifest lists (a crashed run's)."""
    keep = _manifest_files(manifest)
    for t in TABLES:
        tdir = out / t.name
        if not tdir.is_dir():
            continue
        for part_dir in sorted(tdir.glob("ruleset=*")):
            for f in sorted(part_dir.iterdir()):
                rel = f"{t.name}/{part_dir.name}/{f.name}"
                if rel in keep:
                    continue
                if _PART.match(f.name) or (f.name.startswith(".part-") and f.name.endswith(".tmp")):
                    f.unlink()


def _game_events(store: EventStore, game_id: str, head: int) -> list[StoredEvent]:
    """The game's events up to log position ``head``, in seq order."""
    out = []
    for row in store.iter_raw(game_id):
        if row["position"] > head:
            break
        out.append(inspect_row(row))  # hash checked from the stored text, payloads reused
    return out


def _game_outcome(store: EventStore, game_id: str, head: int) -> tuple[str, Any, int]:
    """Read and replay one game up to ``head``: ("ok", GameFacts, last position),
    ("unfinished", None, …), ("skipped", reason, …) or ("empty", None, 0)."""
    events = _game_events(store, game_id, head)
    if not events:
        return "empty", None, 0
    last = events[-1].position
    try:
        facts = game_facts(events)
    except RulesetError as e:
        return "skipped", str(e), last
    if facts is None:
        return "unfinished", None, last
    return "ok", facts, last


def default_workers(games: int) -> int:
    """Worker processes for an export of ``games`` games when none are asked for: every
    core (``os.cpu_count()``) from :data:`PARALLEL_GAMES` games on, else 1 (starting
    the processes costs about a second)."""
    return max(1, os.cpu_count() or 1) if games >= PARALLEL_GAMES else 1


def _outcome_upto(head: int, store: EventStore, game_id: str) -> tuple[str, Any, int]:
    return _game_outcome(store, game_id, head)


def _damaged_blocks(out: Path, manifest: dict[str, Any], command: str) -> list[str]:
    bad = []
    for key in sorted(manifest["blocks"]):
        r, b = key.split("/")
        blk = manifest["blocks"][key]
        for t in TABLES:
            try:
                _verify_file(out, _part_path(t.name, r, int(b), blk["version"]), blk["files"][t.name], command)
            except DamagedExport:
                bad.append(key)
                break
    return bad


def _games_ended_in(store: EventStore, start: int, stop: int) -> list[str]:
    """Ids of the games whose game_ended lies at a position in [start, stop)."""
    ids = []
    for e in store.read_all(from_position=max(start, 1), limit=max(stop - max(start, 1), 0)):
        if e.type == "game_ended":
            ids.append(e.game_id)
    return ids


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
) -> ExportReport:
    """Export the finished games of ``store`` not yet exported to ``out_dir``.

    ``rebuild``: forget the existing export and write everything again. ``repair``: first
    check every part file and re-export the blocks with a missing or damaged file.
    ``block_positions`` applies to a new export (an existing one keeps its own).
    ``on_file(path)`` is called after each part file is in place (progress).
    ``workers`` > 1 replays games in that many processes (a SQLite store only; the
    results are taken in the same order, so the files are the same); None (the default):
    :func:`default_workers` of the number of games to export. ``cluster``: the address of a
    Dask distributed scheduler whose workers replay the games instead
    (:func:`eventlog.parallel.map_games`; a SQLite file they can reach or PostgreSQL). Either
    way the results are taken in game order, so the Parquet files are byte-identical.

    Raises :class:`ExportError` when another export holds the directory or the log is
    behind the export's checkpoint (another data directory?), :class:`DamagedExport` when
    a block that must be merged has a bad file (use ``repair``)."""
    out = Path(out_dir)
    report = ExportReport()
    started = time.perf_counter()
    with _locked(out):
        manifest = None if rebuild else _read_manifest(out)
        if manifest is None:
            manifest = _empty_manifest(block_positions)
            if rebuild:
                for t in TABLES:
                    shutil.rmtree(out / t.name, ignore_errors=True)
        _clean_leftovers(out, manifest)
        bp = int(manifest["block_positions"])
        checkpoint = int(manifest["checkpoint"])
        report.previous_checkpoint = checkpoint
        head = store.head_position()
        if head < checkpoint:
            raise ExportError(
                f"the event log ends at position {head}, but the export in {out} covers up to "
                f"{checkpoint}: is this the right --data? (`paipu export --rebuild` starts over)"
            )
        command = rebuild_command(out, data_dir)
        writer = _Writer(out, manifest, command, on_file)
        done: set[str] = set()

        def take(game_id: str, outcome: tuple[str, Any, int] | None = None) -> None:
            kind, value, last = outcome or _game_outcome(store, game_id, head)
            if kind == "empty":
                return
            if kind == "skipped":
                report.skipped.append((game_id, value))
                return
            if kind == "unfinished":
                report.unfinished += 1
                return
            facts: GameFacts = value
            key = _block_key(facts.ruleset, facts.end_position // bp)
            replaces = facts.end_position <= checkpoint
            writer.add(facts, key, replaces)
            done.add(game_id)
            report.games += 1
            report.reexported += int(replaces and last > checkpoint)
            report.hands += facts.count("hands")
            for name, rows in facts.rows.items():
                report.rows[name] = report.rows.get(name, 0) + len(rows)

        if repair:
            damaged = _damaged_blocks(out, manifest, command)
            rulesets = {g.game_id: g.ruleset for g in store.list_games()} if damaged else {}
            for key in damaged:
                report.repaired.append(key)
                r, b = key.split("/")
                blk = manifest["blocks"].pop(key)
                writer.superseded += [_part_path(t.name, r, int(b), blk["version"]) for t in TABLES]
                for gid in _games_ended_in(store, int(b) * bp, min((int(b) + 1) * bp, checkpoint + 1)):
                    if rulesets.get(gid) == r:
                        take(gid)

        changed = [g for g in sorted((g for g in store.list_games() if g.last_position > checkpoint),
                                     key=lambda g: g.last_position) if g.game_id not in done]
        n_workers = default_workers(len(changed)) if workers is None else workers
        with map_games(store, [g.game_id for g in changed], functools.partial(_outcome_upto, head),
                       workers=n_workers, cluster=cluster) as outcomes:
            for g, outcome in zip(changed, outcomes):
                take(g.game_id, outcome)
                if writer.pending_rows >= flush_rows:
                    writer.flush(min(g.last_position, head))
        writer.flush(head)
        report.checkpoint = head
        report.files = writer.files
        total = time.perf_counter() - started
        report.seconds = {"total": round(total, 3), "write": round(writer.write_seconds, 3),
                          "read_and_replay": round(total - writer.write_seconds, 3)}
    return report
