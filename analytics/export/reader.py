"""Reading a committed export: the manifest and its verified part files."""

from __future__ import annotations

from pathlib import Path

from analytics.export.errors import ExportError, repair_command
from analytics.export.files import verify_file
from analytics.export.manifest import Manifest, PartFile, part_path, read_manifest

__all__ = ["Export", "open_export", "damaged_note"]


def damaged_note(games: int) -> str:
    """What statistics over an export with ``games`` damaged games (Export.damaged_games, not
    in the export) say beside their numbers: ``"1 damaged game not included (paipu verify
    names it)"``; empty for 0."""
    from eventlog.words import plural

    if not games:
        return ""
    return f"{plural(games, 'damaged game')} not included (paipu verify names {'it' if games == 1 else 'them'})"


class Export:
    """A committed export, as readers see it: the validated manifest and its verified
    files. ``data_dir`` only shapes the commands in error messages."""

    def __init__(self, out_dir: Path | str, manifest: Manifest, data_dir: Path | str | None = None) -> None:
        self.out = Path(out_dir)
        self.manifest = manifest
        self.command = repair_command(self.out, data_dir)

    @property
    def checkpoint(self) -> int:
        return self.manifest.checkpoint

    @property
    def damaged_games(self) -> dict[str, str]:
        """Games the log could not serve intact (not in the export): id -> reason."""
        return dict(self.manifest.damaged)

    def rulesets(self) -> list[str]:
        return sorted({k.split("/")[0] for k in self.manifest.blocks})

    def entries(self, table: str, ruleset: str | None = None) -> list[tuple[str, PartFile]]:
        """(relative path, manifest entry) of ``table``'s part files, in block order."""
        out = []
        for key in sorted(self.manifest.blocks):
            r, b = key.split("/")
            if ruleset is not None and r != ruleset:
                continue
            blk = self.manifest.blocks[key]
            out.append((part_path(table, r, int(b), blk.version), blk.files[table]))
        return out

    def files(self, table: str, ruleset: str | None = None) -> list[Path]:
        """The verified part files of ``table`` (optionally one ruleset's). Raises
        :class:`~analytics.export.errors.DamagedExport` naming the first missing or
        damaged file."""
        return [verify_file(self.out, rel, entry, self.command) for rel, entry in self.entries(table, ruleset)]

    def rows(self, table: str, ruleset: str | None = None) -> int:
        return sum(e.rows for _, e in self.entries(table, ruleset))


def open_export(out_dir: Path | str, data_dir: Path | str | None = None) -> Export:
    """The committed export in ``out_dir``. Raises :class:`ExportError` when there is none
    (with the command that makes one), :class:`~analytics.export.errors.DamagedExport` for
    an unreadable or invalid manifest (with the command that rebuilds it)."""
    out = Path(out_dir)
    m = read_manifest(out, data_dir)
    if m is None:
        data = f" --data {data_dir}" if data_dir is not None else ""
        raise ExportError(f"no analytics export in {out} (run `paipu export{data} --out {out}` first)")
    return Export(out, m, data_dir)
