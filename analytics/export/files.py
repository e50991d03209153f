"""File handling of the export: atomic writes, checksums, verification, the lock."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from analytics.export.errors import DamagedExport, ExportError

__all__ = ["atomic_write", "fsync_dir", "sha256", "verify_file", "locked"]


def fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    """Write through a hidden temporary file in the same directory, fsync, rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    write(tmp)
    with open(tmp, "rb+") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    fsync_dir(path.parent)


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


_VERIFIED: dict[tuple[str, int, int], str] = {}


def verify_file(out: Path, rel: str, entry: Any, command: str) -> Path:
    """Check one part file against its manifest entry (a
    :class:`~analytics.export.manifest.PartFile`: size, SHA-256; the hash of an unchanged
    file — same size and mtime — is remembered for the process). Raises
    :class:`DamagedExport`."""
    path = out / rel
    try:
        st = path.stat()
    except FileNotFoundError:
        raise DamagedExport(path, "missing", command) from None
    if st.st_size != entry.bytes:
        raise DamagedExport(path, f"size {st.st_size} bytes, the manifest says {entry.bytes}", command)
    key = (str(path), st.st_size, st.st_mtime_ns)
    digest = _VERIFIED.get(key)
    if digest is None:
        digest = sha256(path)
    if digest != entry.sha256:
        raise DamagedExport(path, "checksum differs from the manifest (the file was changed or damaged)", command)
    _VERIFIED[key] = digest
    return path


@contextlib.contextmanager
def locked(out: Path) -> Iterator[None]:
    """One writer per export directory. Raises :class:`ExportError` when another holds it."""
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
