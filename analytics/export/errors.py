"""Errors of the Parquet export, and the commands that fix what they report."""

from __future__ import annotations

from pathlib import Path

from eventlog.errors import PaipuError

__all__ = ["ExportError", "DamagedExport", "rebuild_command", "repair_command"]


class ExportError(PaipuError):
    """The export cannot go on (no manifest, a log older than the export …)."""


def repair_command(out_dir: Path | str, data_dir: Path | str | None = None) -> str:
    """The shell command that rebuilds the damaged part files of an export."""
    data = f" --data {data_dir}" if data_dir is not None else ""
    return f"paipu export --repair{data} --out {out_dir}"


#: Former name of :func:`repair_command`.
rebuild_command = repair_command


def rebuild_all_command(out_dir: Path | str, data_dir: Path | str | None = None) -> str:
    """The shell command that writes an export again from the log (a bad manifest)."""
    data = f" --data {data_dir}" if data_dir is not None else ""
    return f"paipu export --rebuild{data} --out {out_dir}"


class DamagedExport(ExportError):
    """A file of the export is missing or not what was written: a part file the manifest
    lists, or the manifest itself.

    ``path``: the file; ``reason``: missing / size / checksum / unreadable / invalid;
    ``command``: what rebuilds it."""

    grpc_code = "DATA_LOSS"
    fields = ("path", "reason", "command")

    def __init__(self, path: Path, reason: str, command: str) -> None:
        super().__init__(f"{path}: {reason}; rebuild it with `{command}`")
        self.path = path
        self.reason = reason
        self.command = command
