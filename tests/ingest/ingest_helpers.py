"""Shared paths and helpers for the ingest tests.

Expected values in these tests come from reading the source files by hand (line
numbers, README counts), never from the importers' output."""

from __future__ import annotations

from pathlib import Path

from eventlog.ingest import ImportedGame, ParseIssue, parse_file
from paipu.samples import SAMPLES_DIR

FIXTURES = Path(__file__).parent / "fixtures"
TEXT_SAMPLE = SAMPLES_DIR / "botzone-mcr-human-sample" / "sample_16_games.txt"
JSON_DIR = SAMPLES_DIR / "botzone-mcr-matchlog-json"
PMN_SAMPLE = SAMPLES_DIR / "pmn-python-majiang" / "mahjongsoft_duplicate_mcr_session74621_game1_table3.pmn"


def split(items) -> tuple[list[ImportedGame], list[ParseIssue]]:
    games, issues = [], []
    for it in items:
        (games if isinstance(it, ImportedGame) else issues).append(it)
    return games, issues


def load(path, fmt=None) -> tuple[list[ImportedGame], list[ParseIssue]]:
    return split(parse_file(path, fmt))
