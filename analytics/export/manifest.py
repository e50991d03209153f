"""The export's manifest (``_manifest.json``) as a validated model.

The manifest is the committed state of an export: ``checkpoint`` (the log position the
export is complete up to), ``block_positions``, the table ``schema`` id, and per block
(``<ruleset>/<block:06d>``) its ``version`` and one entry per table file (rows, bytes,
SHA-256). ``damaged`` names the games the log could not serve intact when they were
exported (tried again by every run; absent when there are none).

:func:`read_manifest` validates the whole file; anything missing or of the wrong type is
:class:`~analytics.export.errors.DamagedExport` naming the file, what is wrong and the
command that rebuilds the export — never a ``KeyError`` deep in a reader. The text written
(:func:`write_manifest`) is sorted, indented JSON, byte-identical for identical content.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from eventlog.errors import validation_problem
from analytics.export.errors import DamagedExport, ExportError, rebuild_all_command
from analytics.export.files import atomic_write
from analytics.schema import SCHEMA_ID, TABLES

__all__ = ["MANIFEST", "FORMAT", "PartFile", "Block", "Manifest", "read_manifest", "write_manifest",
           "part_path", "block_key"]

MANIFEST = "_manifest.json"
FORMAT = 1


class PartFile(BaseModel):
    """One part file: rows, size in bytes and SHA-256 (hex) as written."""

    model_config = ConfigDict(extra="forbid")

    rows: int = Field(ge=0)
    bytes: int = Field(ge=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class Block(BaseModel):
    """A block of one ruleset: ``version`` (the highest log position among its games'
    events, part of the file names) and a file per table."""

    model_config = ConfigDict(extra="forbid")

    version: int = Field(ge=0)
    files: dict[str, PartFile]

    @field_validator("files")
    @classmethod
    def _every_table(cls, files: dict[str, PartFile]) -> dict[str, PartFile]:
        missing = [t.name for t in TABLES if t.name not in files]
        if missing:
            raise ValueError(f"no entry for table(s) {', '.join(missing)}")
        return files


class Manifest(BaseModel):
    """The whole manifest (see the module doc)."""

    model_config = ConfigDict(extra="forbid")

    format: int
    schema_: str = Field(alias="schema")
    block_positions: int = Field(gt=0)
    checkpoint: int = Field(ge=0)
    blocks: dict[str, Block]
    damaged: dict[str, str] = Field(default_factory=dict)

    @field_validator("blocks")
    @classmethod
    def _keys(cls, blocks: dict[str, Block]) -> dict[str, Block]:
        for key in blocks:
            ruleset, _, b = key.partition("/")
            if not ruleset or not b.isdigit():
                raise ValueError(f"block key {key!r} is not RULESET/NNNNNN")
        return blocks

    @classmethod
    def empty(cls, block_positions: int) -> Manifest:
        return cls(format=FORMAT, schema=SCHEMA_ID, block_positions=block_positions, checkpoint=0, blocks={})

    def to_json(self) -> dict[str, Any]:
        """The JSON object written (``damaged`` only when not empty)."""
        out = self.model_dump(by_alias=True, exclude={"damaged"} if not self.damaged else set())
        return out


def block_key(ruleset: str, block: int) -> str:
    return f"{ruleset}/{block:06d}"


def part_path(table: str, ruleset: str, block: int, version: int) -> str:
    return f"{table}/ruleset={ruleset}/part-{block:06d}-{version:012d}.parquet"


def read_manifest(out: Path, data_dir: Path | str | None = None) -> Manifest | None:
    """The validated manifest in ``out``; None when there is none. Raises
    :class:`DamagedExport` for an unreadable or invalid one (naming what is wrong and the
    command that rebuilds the export) and :class:`ExportError` for another format or
    table schema."""
    path = out / MANIFEST
    if not path.exists():
        return None
    command = rebuild_all_command(out, data_dir)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, OSError) as e:
        raise DamagedExport(path, f"unreadable manifest ({e})", command) from None
    if not isinstance(raw, dict):
        raise DamagedExport(path, "invalid manifest (not a JSON object)", command)
    if raw.get("format") != FORMAT:
        raise DamagedExport(path, f"invalid manifest (format {raw.get('format')!r}, expected {FORMAT})", command)
    if "schema" in raw and raw["schema"] != SCHEMA_ID:
        raise ExportError(f"the export in {out} was written with other table columns (schema "
                          f"{raw.get('schema')}, this paipu writes {SCHEMA_ID}); rebuild it with `{command}`")
    try:
        return Manifest.model_validate(raw)
    except ValidationError as e:
        where, why = validation_problem(e)
        more = f" (and {e.error_count() - 1} more)" if e.error_count() > 1 else ""
        raise DamagedExport(path, f"invalid manifest: {where or '(top level)'}: {why}{more}", command) from None


def write_manifest(out: Path, manifest: Manifest) -> None:
    text = json.dumps(manifest.to_json(), sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    atomic_write(out / MANIFEST, lambda p: p.write_text(text, encoding="utf-8"))
