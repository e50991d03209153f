"""Writing part files: one export run's pending blocks, merged with the committed ones,
sorted, written atomically and committed by a new manifest (see
:mod:`analytics.export`'s "Blocks" and "Crash safety")."""

from __future__ import annotations

import contextlib
import functools
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from analytics.export.errors import DamagedExport
from analytics.export.files import atomic_write, sha256, verify_file
from analytics.export.manifest import Block, Manifest, PartFile, part_path, write_manifest
from analytics.facts import GameFacts
from analytics.schema import TABLES, Table

__all__ = ["BlockWriter", "WRITE_OPTIONS", "manifest_files", "clean_leftovers", "write_aliases", "ALIASES_FILE",
           "ALIASES_SCHEMA"]

#: The player aliases of the log (eventlog/players.py), one file beside the tables.
ALIASES_FILE = "player_aliases.parquet"
ALIASES_SCHEMA = pa.schema([
    pa.field("alias", pa.string(), nullable=False, metadata={"doc": "another spelling of a player's name"}),
    pa.field("player", pa.string(), nullable=False, metadata={"doc": "the name every statistic uses for it"}),
])

WRITE_OPTIONS: dict[str, Any] = {
    "compression": "zstd",
    "compression_level": 3,
    "row_group_size": 1 << 20,
    "write_statistics": True,
    "version": "2.6",
}
_PART = re.compile(r"^part-(\d{6})-(\d{12})\.parquet$")


def _arrow(t: Table, games: list[list[tuple[Any, ...]]]) -> pa.Table:
    """The rows of some games (per game, tuples in the table's column order:
    :attr:`analytics.facts.GameFacts.rows`) as one Arrow table. Transposed game by game
    (a few hundred rows that lie together in memory) and the columns extended: one pass
    over all rows of a block (``zip(*rows)``, or a column at a time) is several times
    slower on a block's hundreds of thousands of rows."""
    names = t.schema.names
    columns: list[list[Any]] = [[] for _ in names]
    for rows in games:
        if rows:
            for column, values in zip(columns, zip(*rows), strict=True):
                column.extend(values)
    return pa.Table.from_pydict(dict(zip(names, columns)), schema=t.schema)


#: What pyarrow raises when a value does not fit its column (an int beyond int32, a wrong type).
_UNFIT = (OverflowError, pa.ArrowInvalid, pa.ArrowTypeError)


def _unfit_games(games: list[GameFacts]) -> dict[str, str]:
    """Game id -> why, for the games of a block whose rows do not fit the tables' columns
    (converted one game at a time: only after the whole block failed to convert)."""
    bad: dict[str, str] = {}
    for g in games:
        for t in TABLES:
            try:
                _arrow(t, [g.rows[t.name]])
            except _UNFIT as e:
                bad[g.game_id] = f"a value does not fit the Parquet table {t.name} ({e})"
                break
    return bad


#: Rows (all tables) of the pending games held as Python tuples before they are turned into
#: Arrow columns: a pending row takes ~70 bytes as Arrow against ~210 as tuples, so the rows
#: an export holds between two flushes (``FLUSH_ROWS``) take a third of the memory (issue 19).
ARROW_ROWS = 50_000


class _Pending:
    """One block's games not written yet: the ids of all of them (their old rows are dropped
    when the block is written), the games still held as tuples (``facts``), the tables of the
    games turned into Arrow already (``chunks``, per table, in game order), and the games left
    out because a value did not fit a column (``unfit``, with why)."""

    __slots__ = ("ids", "facts", "chunks", "unfit", "written")

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.facts: list[GameFacts] = []
        self.chunks: dict[str, list[pa.Table]] = {t.name: [] for t in TABLES}
        self.unfit: list[tuple[GameFacts, str]] = []
        self.written = 0  # games in chunks

    def to_arrow(self) -> None:
        """Turn the games held as tuples into Arrow tables (appended to ``chunks``); a game
        whose value does not fit a column goes to ``unfit`` instead (converted one game at a
        time: only after the whole lot failed to convert)."""
        games, self.facts = self.facts, []
        if not games:
            return
        try:
            new = {t.name: _arrow(t, [g.rows[t.name] for g in games]) for t in TABLES}
        except _UNFIT:  # one game's value beyond its column must not stop the others
            unfit = _unfit_games(games)
            self.unfit += [(g, unfit[g.game_id]) for g in games if g.game_id in unfit]
            games = [g for g in games if g.game_id not in unfit]
            new = {t.name: _arrow(t, [g.rows[t.name] for g in games]) for t in TABLES}
        for name, tab in new.items():
            self.chunks[name].append(tab)
        self.written += len(games)


class BlockWriter:
    """One export run's state: the manifest being built and the pending blocks."""

    def __init__(self, out: Path, manifest: Manifest, command: str,
                 on_file: Callable[[Path], None] | None) -> None:
        self.out = out
        self.manifest = manifest
        self.command = command
        self.on_file = on_file
        self.pending: dict[str, _Pending] = {}
        self.replaced: dict[str, set[str]] = {}
        self.pending_rows = 0
        self._tuple_rows = 0  # of the pending rows, those held as tuples (ARROW_ROWS)
        self.superseded: list[str] = []
        self.files = 0
        self.write_seconds = 0.0
        #: the games of the last flush left out because a value did not fit a column (an event
        #: stored before its number range was checked: docs/events.md "Number ranges"), with why
        self.unfit: list[tuple[GameFacts, str]] = []

    def add(self, facts: GameFacts, key: str, replaces: bool) -> None:
        block = self.pending.get(key)
        if block is None:
            block = self.pending[key] = _Pending()
        block.ids.append(facts.game_id)
        block.facts.append(facts)
        if replaces:
            self.replaced.setdefault(key, set()).add(facts.game_id)
        rows = sum(len(v) for v in facts.rows.values())
        self.pending_rows += rows
        self._tuple_rows += rows
        if self._tuple_rows >= ARROW_ROWS:
            for b in self.pending.values():
                b.to_arrow()
            self._tuple_rows = 0

    def flush(self, checkpoint: int) -> None:
        """Write every pending block, then commit the manifest at ``checkpoint``."""
        started = time.perf_counter()
        self.unfit = []
        for key in sorted(self.pending):
            self._write_block(key, self.pending[key], self.replaced.get(key, set()))
        self.manifest.checkpoint = checkpoint
        write_manifest(self.out, self.manifest)
        current = manifest_files(self.manifest)
        for rel in self.superseded:
            if rel not in current:  # a repaired block may keep its file names
                with contextlib.suppress(FileNotFoundError):
                    (self.out / rel).unlink()
        self.superseded = []
        self.pending, self.replaced, self.pending_rows, self._tuple_rows = {}, {}, 0, 0
        self.write_seconds += time.perf_counter() - started

    def _old_table(self, key: str, t: Table) -> pa.Table | None:
        blk = self.manifest.blocks.get(key)
        if blk is None:
            return None
        r, b = key.split("/")
        rel = part_path(t.name, r, int(b), blk.version)
        path = verify_file(self.out, rel, blk.files[t.name], self.command)
        try:
            return pq.read_table(path, schema=t.schema)
        except (pa.ArrowException, OSError) as e:
            raise DamagedExport(path, f"unreadable ({e})", self.command) from None

    def _write_block(self, key: str, pending: _Pending, replaced: set[str]) -> None:
        ruleset, b = key.split("/")
        block = int(b)
        drop = pa.array(sorted(replaced | set(pending.ids)), pa.string())
        pending.to_arrow()
        self.unfit += pending.unfit
        old_blk = self.manifest.blocks.get(key)
        if not pending.written and old_blk is None:
            return
        tables: dict[str, pa.Table] = {}
        for t in TABLES:
            parts = []
            old = self._old_table(key, t)
            if old is not None and old.num_rows:
                parts.append(old.filter(pc.invert(pc.is_in(old["game_id"], value_set=drop))))
            parts += pending.chunks[t.name] or [_arrow(t, [])]
            tables[t.name] = pa.concat_tables(parts)
            pending.chunks[t.name] = []  # held by the table now
        games_t = tables["games"]
        order_ids = games_t["game_id"]
        ends = games_t["end_position"]
        version = pc.max(games_t["last_position"]).as_py() or 0
        files: dict[str, PartFile] = {}
        for t in TABLES:
            tab = tables.pop(t.name)  # let go once written (games_t above keeps the order)
            # rows in game order (game_ended position), then the table's own keys; the
            # sort is stable, so ties keep the order the replay produced them in
            idx = pc.index_in(tab["game_id"], value_set=order_ids)
            tab = tab.append_column("_end", pc.take(ends, idx))
            tab = tab.sort_by([("_end", "ascending")] + [(c, "ascending") for c in t.order])
            tab = tab.drop_columns(["_end"]).combine_chunks()
            rel = part_path(t.name, ruleset, block, version)
            path = self.out / rel
            atomic_write(path, functools.partial(pq.write_table, tab, **WRITE_OPTIONS))
            self.files += 1
            files[t.name] = PartFile(rows=tab.num_rows, bytes=path.stat().st_size, sha256=sha256(path))
            if self.on_file is not None:
                self.on_file(path)
        if old_blk is not None and old_blk.version != version:
            self.superseded += [part_path(t.name, ruleset, block, old_blk.version) for t in TABLES]
        self.manifest.blocks[key] = Block(version=version, files=files)


def manifest_files(manifest: Manifest) -> set[str]:
    """Relative paths of every part file the manifest lists."""
    out = set()
    for key, blk in manifest.blocks.items():
        r, b = key.split("/")
        out |= {part_path(t.name, r, int(b), blk.version) for t in TABLES}
    return out


def clean_leftovers(out: Path, manifest: Manifest) -> None:
    """Delete part and temporary files no committed manifest lists (a crashed run's)."""
    keep = manifest_files(manifest)
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


def write_aliases(out: Path, aliases: dict[str, str]) -> None:
    """``<out>/player_aliases.parquet``: one row per alias (``alias``, ``player``), sorted by
    alias — the same bytes for the same aliases; rewritten only when they changed, removed
    when there are none. Queries map every ``player`` through it (analytics/queries.py)."""
    path = out / ALIASES_FILE
    if not aliases:
        path.unlink(missing_ok=True)
        return
    rows = [{"alias": a, "player": aliases[a]} for a in sorted(aliases)]
    tab = pa.Table.from_pylist(rows, schema=ALIASES_SCHEMA)
    if path.exists():
        try:
            if pq.read_table(path).equals(tab):
                return
        except (OSError, pa.ArrowInvalid):
            pass
    atomic_write(path, lambda p: pq.write_table(tab, p, **WRITE_OPTIONS))
