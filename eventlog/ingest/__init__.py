"""Ingest: foreign game logs → canonical events (shared/DESIGN.md §1, §4).

>>> from eventlog.ingest import parse_file, sniff, known_formats
>>> known_formats()
['botzone-text', 'botzone-json', 'pmn', 'jsonl']

``parse_file(path, format=None)`` yields :class:`ImportedGame` (game id, events ready to
append as one new stream) and :class:`ParseIssue` (file, line, reason) in file order.
"""

from eventlog.ingest.base import (
    ImportedGame,
    Importer,
    IngestError,
    ParseIssue,
    UnknownFormatError,
    get_importer,
    known_formats,
    parse_file,
    register,
    sniff,
)
from eventlog.ingest import botzone_text  # noqa: F401  (registers "botzone-text")
from eventlog.ingest import botzone_json  # noqa: F401  (registers "botzone-json")
from eventlog.ingest import pmn  # noqa: F401  (registers "pmn")
from eventlog.ingest import jsonl  # noqa: F401  (registers "jsonl")

__all__ = [
    "ImportedGame",
    "Importer",
    "IngestError",
    "ParseIssue",
    "UnknownFormatError",
    "get_importer",
    "known_formats",
    "parse_file",
    "register",
    "sniff",
]
