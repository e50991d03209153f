"""Real game logs shipped with paipu (package data), each set with its README (origin,
licence, what was replaced): ``botzone-mcr-human-sample/`` (16 Botzone human games,
text), ``botzone-mcr-matchlog-json/`` (7 Botzone judge logs, JSON),
``pmn-python-majiang/`` (one Duplicate-MCR deal in PMN).

The files are byte-for-byte copies of shared/data/real/; their licences allow internal
testing only (see each README) — do not redistribute them in a release artifact.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["SAMPLES_DIR", "sample_files"]

SAMPLES_DIR = Path(__file__).resolve().parent


def sample_files() -> list[Path]:
    """The log files (every file but README.txt and Python files), sorted by their path
    relative to this package, so the order is the same on every machine."""
    files = [
        p
        for p in SAMPLES_DIR.rglob("*")
        if p.is_file()
        and p.name != "README.txt"
        and p.suffix not in (".py", ".pyc")
        and "__pycache__" not in p.parts
    ]
    return sorted(files, key=lambda p: p.relative_to(SAMPLES_DIR).as_posix())
