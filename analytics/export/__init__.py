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
the work again. A rebuild (``rebuild=True``) is written whole in ``<out>/.rebuild`` and
swapped in at the end (:func:`~analytics.export.run.export`): one that fails leaves the
previous export untouched. Readers (:func:`open_export`) use the files the manifest lists and check
their size and checksum, so a damaged or missing file is reported by name with the
command that rebuilds it (:class:`DamagedExport`), never read as wrong numbers; so is a
manifest that does not validate (:class:`~analytics.export.manifest.Manifest`).

**Damaged games.** A game the event log cannot serve intact (a damaged row, a missing
event) is not exported and does not stop the others: it is named in the run's report and
in the manifest (``damaged``), ``paipu export`` exits non-zero, and every later run tries
it again.

Modules: :mod:`.manifest` (the manifest model), :mod:`.reader` (:func:`open_export`),
:mod:`.writer` (part files), :mod:`.outcomes` (one game read and replayed, a typed
value), :mod:`.run` (:func:`export`), :mod:`.files`, :mod:`.errors`. Games are replayed
here, in local processes or on a Dask cluster through :func:`eventlog.parallel.map_games`.
"""


from __future__ import annotations

from typing import TYPE_CHECKING, Any

from analytics.export.errors import DamagedExport, ExportError, rebuild_all_command, rebuild_command, repair_command

if TYPE_CHECKING:
    from analytics.export.manifest import MANIFEST, Manifest
    from analytics.export.outcomes import GameOutcome, Outcome
    from analytics.export.reader import Export, open_export
    from analytics.export.run import BLOCK_POSITIONS, ExportReport, default_workers, export

#: The names re-exported from submodules, imported when first used: a worker process that
#: replays games imports analytics.export.outcomes, which runs this file — without Arrow
#: (pyarrow, numpy: ~0.4 s of CPU per process started), which only writing and reading
#: Parquet need.
_LAZY = {
    "MANIFEST": "manifest", "Manifest": "manifest", "GameOutcome": "outcomes", "Outcome": "outcomes",
    "Export": "reader", "open_export": "reader", "BLOCK_POSITIONS": "run", "ExportReport": "run",
    "default_workers": "run", "export": "run",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "BLOCK_POSITIONS",
    "MANIFEST",
    "DamagedExport",
    "Export",
    "ExportError",
    "ExportReport",
    "GameOutcome",
    "Manifest",
    "Outcome",
    "default_workers",
    "export",
    "open_export",
    "rebuild_all_command",
    "rebuild_command",
    "repair_command",
]
