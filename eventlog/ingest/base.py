"""Importer protocol, format registry, format sniffing and the two things a parser yields.

A foreign log file becomes canonical events (shared/DESIGN.md §1, §4) through one
importer per source format. :func:`parse_file` streams the file and yields, in file
order, one :class:`ImportedGame` per game it could read and one :class:`ParseIssue`
per game (or stray line) it could not; a bad game never stops the rest of the file.

Formats are registered by name (:func:`register`); :func:`sniff` picks one from the
first few kilobytes of a file. Event ids are deterministic
(:func:`eventlog.events.game_event_ids` of the game id), so importing the same file twice
gives the same ids and the store's idempotent append makes the second import a no-op.
"""

from __future__ import annotations

import codecs
import hashlib
import importlib
import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol, runtime_checkable

from eventlog.errors import InvalidArgument
from eventlog.events import NewEvent, canonical_bytes
from eventlog.store.planning import Batch, SealedBatch, encode_metadata
from eventlog.store.types import NO_STREAM

__all__ = [
    "ImportedGame",
    "EncodedGame",
    "ParseIssue",
    "IngestError",
    "UnknownFormatError",
    "Importer",
    "register",
    "get_importer",
    "known_formats",
    "sniff",
    "parse_file",
    "read_lines",
    "text_lines",
    "issue_reason",
    "file_trouble",
    "quoted",
    "resembles",
    "path_text",
    "decode_text",
    "decode_by_line",
    "name_text",
    "text_decoding",
    "TextDecoding",
    "fingerprint",
    "fingerprint_of_texts",
    "fingerprint_part",
    "fingerprint_of_parts",
    "FingerprintedGame",
    "SNIFF_BYTES",
]

SNIFF_BYTES = 4096


class EncodedGame(NamedTuple):
    """A game's events as the store takes them: ``events`` are ``(event_id, type,
    schema_version, payload_text, metadata_text)`` (canonical JSON texts, what
    :meth:`eventlog.store.planning.Batch.encode` writes), ``ruleset`` the ``game_started``
    payload's, ``first_metadata`` the first event's metadata (the import adds the
    fingerprint to it)."""

    events: list[tuple[str, str, int, str, str]]
    ruleset: str | None
    first_metadata: dict[str, Any]


class FingerprintedGame(NamedTuple):
    """A game's events as the store takes them (as :class:`EncodedGame`), its content
    fingerprint (:func:`fingerprint_of_texts`) in the first one's metadata: ``events`` an
    iterator (read once), ``ruleset`` the ``game_started`` payload's."""

    events: Iterator[tuple[str, str, int, str, str]]
    ruleset: str | None
    fingerprint: str


class BuiltGame(Protocol):
    """Events an importer's builder recorded (:class:`eventlog.ingest.builder.BuiltEvents`)."""

    def __len__(self) -> int: ...

    def new_events(self) -> list[NewEvent]: ...

    def encoded(self) -> EncodedGame: ...

    def fingerprinted(self) -> FingerprintedGame: ...

    def sealed(self, recorded_at: str, log: tuple[int, str] | None = None) -> tuple[SealedBatch, str]: ...


class ImportedGame:
    """One game read from a source file.

    ``events`` are the game's stream in order: the event at index ``i`` gets ``seq`` ``i``
    once the game is appended as one batch to a new stream, and claims refer to
    discards by that index. ``first_line`` is the 1-based line where the game starts
    (for JSON sources: 1, the record index is in each event's metadata).

    A game an importer built (:meth:`built`) keeps its builder's records and makes the
    :class:`~eventlog.events.NewEvent` objects only when ``events`` is first read; the bulk
    import takes :meth:`encoded` and never makes them."""

    __slots__ = ("game_id", "source_path", "first_line", "format", "_events", "_built", "warnings")

    def __init__(self, game_id: str, events: list[NewEvent], source_path: str, first_line: int,
                 format: str = "") -> None:
        self.game_id = game_id
        self.source_path = source_path
        self.first_line = first_line
        self.format = format
        self._events: list[NewEvent] | None = events
        self._built: BuiltGame | None = None
        #: ``(line, words)`` of what a person should hear of although the game was read
        #: (bytes that had to be replaced: :meth:`TextDecoding.damage_note`).
        self.warnings: tuple[tuple[int, str], ...] = ()

    @classmethod
    def built(cls, game_id: str, built: BuiltGame, source_path: str, first_line: int, format: str = "") -> ImportedGame:
        game = cls(game_id, [], source_path, first_line, format)
        game._events, game._built = None, built
        return game

    @property
    def events(self) -> list[NewEvent]:
        if self._events is None:
            assert self._built is not None
            self._events = self._built.new_events()
        return self._events

    def encoded(self) -> EncodedGame:
        """The events as the store takes them (see :class:`EncodedGame`); raises
        :class:`~eventlog.errors.InvalidArgument` for events the store would refuse (none,
        an id repeated, a bad game id)."""
        if self._built is not None:
            return self._built.encoded()
        batch = Batch.encode(self.game_id, self.events, NO_STREAM)
        ruleset = next((e.ruleset for e in batch.events if e.type == "game_started" and e.ruleset), None)
        return EncodedGame([(e.event_id, e.type, e.schema_version, e.payload, e.metadata) for e in batch.events],
                           ruleset, dict(self.events[0].metadata))

    def fingerprinted(self) -> FingerprintedGame:
        """:meth:`encoded` with the content fingerprint (:func:`fingerprint`) in the first
        event's metadata (see :class:`FingerprintedGame`); the same errors."""
        if self._built is not None:
            return self._built.fingerprinted()
        events, ruleset, meta = self.encoded()
        fp = fingerprint_of_texts([(e[1], e[3]) for e in events])
        if events and meta.get("fingerprint") != fp:
            e = events[0]
            events[0] = (e[0], e[1], e[2], e[3], encode_metadata({**meta, "fingerprint": fp}))
        return FingerprintedGame(iter(events), ruleset, fp)

    def sealed(self, recorded_at: str, log: tuple[int, str] | None = None) -> tuple[SealedBatch, str]:
        """``(batch, fingerprint)``: :meth:`fingerprinted`'s events sealed at ``recorded_at``
        (:meth:`SealedBatch.of <eventlog.store.planning.SealedBatch.of>`, ``log`` as there);
        the same errors."""
        if self._built is not None:
            return self._built.sealed(recorded_at, log)
        events, ruleset, fp = self.fingerprinted()
        return SealedBatch.of(self.game_id, events, recorded_at, ruleset, log), fp

    def __len__(self) -> int:
        return len(self._built) if self._events is None and self._built is not None else len(self.events)

    def count(self, type_: str) -> int:
        """Number of events of type ``type_`` in this game."""
        return sum(1 for e in self.events if e.type == type_)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ImportedGame):
            return NotImplemented
        return (self.game_id, self.source_path, self.first_line, self.format, self.events) == (
            other.game_id, other.source_path, other.first_line, other.format, other.events)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"ImportedGame(game_id={self.game_id!r}, events=<{len(self)} events>, "
                f"source_path={self.source_path!r}, first_line={self.first_line}, format={self.format!r})")


@dataclass(frozen=True)
class ParseIssue:
    """A game (or a stray line) that could not be imported, and why.

    ``line`` is 1-based (None for JSON sources, where ``record`` indexes the judge log);
    ``game_id`` is None when the problem is outside any game."""

    path: str
    line: int | None
    reason: str
    game_id: str | None = None
    record: int | None = None

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
        if self.record is not None:
            where += f" record {self.record}"
        game = f" [game {self.game_id}]" if self.game_id and self.game_id not in self.reason else ""  # named once
        return f"{where}: {self.reason}{game}"


class IngestError(InvalidArgument):
    """Raised inside an importer for a malformed game; the importer turns it into a
    :class:`ParseIssue` at the current location and goes on with the next game."""


def issue_reason(e: BaseException) -> str:
    """The one-line reason a :class:`ParseIssue` gives for ``e`` raised while reading a
    game: an :class:`IngestError`'s own text; for anything else that hostile input can
    provoke in a parser (nesting too deep for the JSON reader, a number Python cannot
    read, a value of the wrong type) a description of what could not be read."""
    if isinstance(e, IngestError):
        return str(e)
    if isinstance(e, RecursionError):
        return "unreadable: nested too deeply"
    if isinstance(e, OSError) and e.strerror:
        return file_trouble(e)
    text = " ".join(str(e).split())[:200]
    return f"unreadable: {text or type(e).__name__}"


def file_trouble(e: OSError) -> str:
    """What went wrong with a file, in words and without its name (the issue names it once):
    ``"no longer exists (deleted or moved while the import ran?)"`` for a file that is gone,
    else the system's reason (``"cannot read: permission denied"``) — never Python's
    ``[Errno 2] …: 'FILE'``."""
    if isinstance(e, FileNotFoundError):
        return "no longer exists (deleted or moved while the import ran?)"
    why = e.strerror or type(e).__name__
    return f"cannot read: {why[:1].lower()}{why[1:]}"


def quoted(text: str, limit: int = 40) -> str:
    """A piece of the input as an issue quotes it: Python-quoted (control characters
    escaped), at most ``limit`` characters (then ``…``), bytes that had to be replaced shown
    as ``\\ufffd``, and, when it is no text at all (two or more control characters or
    replaced bytes), at most 12 characters and ``(binary data?)`` after it — not a screenful
    of junk echoed into one error line."""
    binary = sum(1 for c in text[:limit] if c == "\ufffd" or (ord(c) < 32 and c != "\t") or 0x7F <= ord(c) < 0xA0) >= 2
    if binary:
        limit = min(limit, 12)  # a few of its characters say enough (each escaped is up to 6)
    cut = text[:limit]
    shown = repr(cut).replace("\ufffd", "\\ufffd") + ("…" if len(text) > limit else "")
    return shown + (" (binary data?)" if binary else "")


class UnknownFormatError(InvalidArgument):
    """A format name that is not registered, or a file no importer recognises."""


@runtime_checkable
class Importer(Protocol):
    """One source format.

    ``name`` is the registry key (``--format`` on the CLI); ``sniff`` gets the first
    :data:`SNIFF_BYTES` of the file decoded as UTF-8 (undecodable bytes replaced) and
    answers whether the file is in this format; ``parse`` streams the file."""

    name: str
    description: str

    def sniff(self, head: str, path: Path) -> bool: ...

    def parse(self, path: Path) -> Iterator[ImportedGame | ParseIssue]: ...


_REGISTRY: dict[str, Importer] = {}


def register(importer: Importer) -> Importer:
    """Add ``importer`` under ``importer.name`` (sniffing tries importers in registration
    order). Raises ValueError if the name is taken by another importer."""
    old = _REGISTRY.get(importer.name)
    if old is not None and old is not importer:
        raise ValueError(f"an importer named {importer.name!r} is already registered")
    _REGISTRY[importer.name] = importer
    return importer


#: The built-in importers, in sniffing order; each registers itself when imported.
BUILTIN_IMPORTERS = (
    "eventlog.ingest.botzone_text",
    "eventlog.ingest.botzone_json",
    "eventlog.ingest.pmn",
    "eventlog.ingest.jsonl",
)


def _ensure_builtin() -> None:
    # Imported by name: they import this module, so a static import would be a cycle.
    for name in BUILTIN_IMPORTERS:
        importlib.import_module(name)


def known_formats() -> list[str]:
    """Registered format names, in registration (= sniffing) order."""
    _ensure_builtin()
    return list(_REGISTRY)


def get_importer(name: str) -> Importer:
    """The importer registered as ``name``; raises :class:`UnknownFormatError` listing
    the known formats otherwise."""
    _ensure_builtin()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownFormatError(
            f"unknown format {name!r}; known formats: {', '.join(_REGISTRY)}"
        ) from None


def _head(path: Path) -> str:
    with open(path, "rb") as f:
        raw = f.read(SNIFF_BYTES)
    if raw.startswith(_UTF16_BOMS):  # a UTF-16 file (Windows Notepad's "Unicode"), cut anywhere
        return raw[: len(raw) // 2 * 2].decode("utf-16", errors="replace").lstrip("\ufeff")
    return codecs.decode(raw, "utf-8", errors="replace").lstrip("\ufeff")


#: The first bytes of compressed files (no game log starts so: each is a byte no text has).
_PACKED = ((b"\x1f\x8b", "gzip"), (b"PK\x03\x04", "zip"), (b"\xfd7zXZ\x00", "xz"),
           (b"\x28\xb5\x2f\xfd", "zstd"), (b"7z\xbc\xaf", "7z"))


def sniff(path: str | Path) -> str:
    """Name of the format of ``path``, judged from its first :data:`SNIFF_BYTES`.

    Raises :class:`UnknownFormatError` (listing the known formats) when no importer
    recognises the file, FileNotFoundError when it does not exist."""
    p = Path(path)
    with open(p, "rb") as f:
        magic = f.read(6)
    packed = next((name for sig, name in _PACKED if magic.startswith(sig)), None)
    if packed is not None:
        raise UnknownFormatError(f"{p}: a compressed file ({packed}): decompress it first")
    head = _head(p)
    if not head.strip():  # nothing to recognise: say so, not "format not recognised"
        raise UnknownFormatError(f"{p}: empty file" if p.stat().st_size == 0 else
                                 f"{p}: blank file (nothing but whitespace at its start)")
    for name in known_formats():
        if _REGISTRY[name].sniff(head, p):
            return name
    raise UnknownFormatError(
        f"{p}: format not recognised; known formats: {', '.join(_REGISTRY)} "
        "(name one explicitly)"
    )


def resembles(path: str | Path) -> str | None:
    """The format a file no importer recognises (:func:`sniff` raised) still looks like —
    an importer's optional ``resembles(head, path)`` says its lines are there (a Botzone log
    whose start is damaged beyond what its sniff forgives) — or None (a README, notes)."""
    p = Path(path)
    try:
        head = _head(p)
    except OSError:
        return None
    for name in known_formats():
        check = getattr(_REGISTRY[name], "resembles", None)
        if check is not None and check(head, p):
            return name
    return None


def path_text(path: str | Path) -> str:
    """``path`` with each part as :func:`name_text` reads it: a path that text (a message,
    the name uploaded to a server) can hold whatever bytes its names are."""
    p = Path(path)
    return str(Path(*[name_text(part) for part in p.parts])) if p.parts else str(p)


def parse_file(
    path: str | Path, format: str | None = None
) -> Iterator[ImportedGame | ParseIssue]:
    """Stream the games of ``path`` as :class:`ImportedGame` / :class:`ParseIssue`, in file
    order. ``format`` is a registered name, or None to :func:`sniff` it.

    The format is resolved (and the file opened) before the first item is yielded, so an
    unknown format or a missing file raises at the call, not mid-iteration:
    :class:`UnknownFormatError`, FileNotFoundError."""
    p = Path(path)
    importer = get_importer(format) if format is not None else get_importer(sniff(p))
    if not p.is_file():
        raise FileNotFoundError(f"no such file: {p}")
    return _guarded(p, importer.parse(p))


def _guarded(
    path: Path, items: Iterator[ImportedGame | ParseIssue]
) -> Iterator[ImportedGame | ParseIssue]:
    """The importer's items; if it fails in a way it did not catch itself, one
    :class:`ParseIssue` for the rest of this file instead of an exception that would
    stop a whole ingest run (the other files still load)."""
    try:
        yield from items
    except Exception as e:  # hostile input must never abort the run (issue 12 item 5)
        yield ParseIssue(str(path), None, f"{issue_reason(e)} (the rest of this file was skipped)")


_LINE_END = re.compile(r"\r\n|\r|\n")

#: Tried in order when a file is not UTF-8: the Chinese national standard (a superset of
#: GBK and GB2312, what Chinese Windows tools write), then Big5.
FALLBACK_ENCODINGS = ("gb18030", "big5")

#: The byte order marks of UTF-16 (little-, big-endian): a file starting with one is UTF-16.
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def decode_text(raw: bytes) -> tuple[str, str]:
    """``(text, encoding)`` of a source file's bytes.

    UTF-8 (a byte order mark is dropped) when the bytes are valid UTF-8. A file that is
    mostly UTF-8 with some damaged bytes (more well-formed multi-byte characters than
    bad bytes) stays UTF-8 with U+FFFD for the damage (``"utf-8 (damaged)"``): the
    audit recognises the damaged fan names and compares totals only. Otherwise the
    first of :data:`FALLBACK_ENCODINGS` that decodes every byte (GBK files written by
    Chinese Windows tools), and as a last resort damaged UTF-8 again. A file starting
    with a UTF-16 byte order mark is UTF-16 (``"utf-16"``; what Windows Notepad saves as
    "Unicode").
    Importers record the encoding with each game (``encoding`` in the metadata of its
    ``game_started`` event)."""
    if raw.startswith(_UTF16_BOMS) and not raw.startswith(codecs.BOM_UTF32_LE):
        try:
            return raw.decode("utf-16").lstrip("\ufeff"), "utf-16"
        except UnicodeDecodeError:
            pass  # not UTF-16 after all: an odd length, a broken surrogate
    try:
        return raw.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        pass
    encoding, text, _ = _decode_not_utf8(raw, raw.decode("utf-8", errors="replace").lstrip("\ufeff"))
    return text, encoding


class TextDecoding:
    """How a source file's text was decoded: one ``encoding`` for the whole file (what
    :func:`decode_text` gives), or, for a file whose parts are in different encodings (a
    game in GBK inside a UTF-8 file; UTF-8 with damaged bytes), line by line
    (:func:`decode_by_line`): each line's encoding and the characters that had to be
    replaced (U+FFFD) in it, read per game with :meth:`of_lines` / :meth:`replaced_in`."""

    __slots__ = ("encoding", "_labels", "_replaced")

    def __init__(self, encoding: str, labels: list[str] | None = None,
                 replaced: dict[int, int] | None = None) -> None:
        self.encoding = encoding
        self._labels = labels
        self._replaced = replaced or {}

    @property
    def by_line(self) -> bool:
        """Whether the file was decoded line by line (its games may differ)."""
        return self._labels is not None

    def of_lines(self, first: int, end: int | None = None) -> str:
        """The encoding of lines ``first`` .. ``end - 1`` (1-based; ``end`` None: to the
        file's end), as a game's metadata records it: ``"utf-8 (damaged)"`` when a line had
        bytes replaced, else the other encoding one of them is in (``"gb18030"``), else
        ``"utf-8"``; the file's when it was decoded whole."""
        if self._labels is None:
            return self.encoding
        found = set(self._labels[first - 1: None if end is None else end - 1])
        if DAMAGED in found:
            return DAMAGED
        return next((enc for enc in FALLBACK_ENCODINGS if enc in found), "utf-8")

    def replaced_in(self, first: int, end: int | None = None) -> list[tuple[int, int]]:
        """``(line, characters replaced)`` of each line ``first`` .. ``end - 1`` that had
        bytes no encoding could read (replaced by U+FFFD), in line order."""
        return [(n, k) for n, k in sorted(self._replaced.items()) if n >= first and (end is None or n < end)]

    def damage_note(self, first: int, end: int | None = None) -> tuple[int, str] | None:
        """``(line, words)`` for a game on lines ``first`` .. ``end - 1`` whose bytes had to be
        replaced (its first such line), or None."""
        hit = self.replaced_in(first, end)
        if not hit:
            return None
        chars = sum(k for _, k in hit)
        more = f" (on {len(hit)} lines, the first here)" if len(hit) > 1 else ""
        return hit[0][0], (f"not UTF-8, GB18030 or Big5: {chars} character{'s' if chars != 1 else ''} replaced "
                           f"by U+FFFD{more} (stored so: verify compares its fan totals only; fix the source file "
                           "to keep the names)")


#: The encoding recorded for text that had bytes replaced by U+FFFD.
DAMAGED = "utf-8 (damaged)"

_RAW_LINE_END = re.compile(rb"\r\n|\r|\n")


def _decode_line(raw: bytes) -> tuple[str, str, int]:
    """``(encoding, text, characters replaced)`` of one line's bytes: UTF-8; mostly UTF-8
    with damaged bytes (as :func:`decode_text` judges a file); the first of
    :data:`FALLBACK_ENCODINGS` that reads every byte; else damaged UTF-8."""
    try:
        return "utf-8", raw.decode("utf-8"), 0
    except UnicodeDecodeError:
        return _decode_not_utf8(raw, raw.decode("utf-8", errors="replace"))


def _decode_not_utf8(raw: bytes, damaged: str) -> tuple[str, str, int]:
    """``(encoding, text, characters replaced)`` of bytes that are not UTF-8 — of a whole file
    (:func:`decode_text`) or of one line (:func:`_decode_line`) — given ``damaged``, the bytes
    read as UTF-8 with U+FFFD (a file's without its byte order mark): mostly UTF-8 with damaged
    bytes (more well-formed multi-byte characters than bad bytes) stays ``damaged``; else the
    first of :data:`FALLBACK_ENCODINGS` that reads every byte; else ``damaged``."""
    bad = damaged.count("\ufffd")
    good = sum(1 for c in damaged if ord(c) > 127 and c != "\ufffd")
    if good > bad:
        return DAMAGED, damaged, bad
    for enc in FALLBACK_ENCODINGS:
        try:
            return enc, raw.decode(enc), 0
        except UnicodeDecodeError:
            continue
    return DAMAGED, damaged, bad


def decode_by_line(raw: bytes) -> tuple[str, TextDecoding]:
    """``(text, decoding)`` of a source file's bytes: as :func:`decode_text` decodes it —
    UTF-8, UTF-16, or one other encoding for the whole file (a GBK file) — unless its lines
    are in different encodings: a file that is not UTF-8 but has a line that is (with a
    character of three UTF-8 bytes, as CJK text is: no accident of GBK bytes), or that
    :func:`decode_text` could only read as damaged UTF-8. Such a file is decoded line by
    line (:func:`_decode_line`; line ends are bytes below 0x80 in UTF-8, GB18030 and Big5),
    so a game in GBK inside a UTF-8 file reads as GBK and the clean games as UTF-8, and the
    lines whose bytes still had to be replaced are known (:class:`TextDecoding`).
    The text's lines (:func:`lines_of`) are the file's, numbered as the file numbers them."""
    text, encoding = decode_text(raw)
    if encoding in ("utf-8", "utf-16"):
        return text, TextDecoding(encoding)
    parts = _RAW_LINE_END.split(raw[len(codecs.BOM_UTF8):] if raw.startswith(codecs.BOM_UTF8) else raw)
    decoded = [_decode_line(part) for part in parts]
    proof = any(enc == "utf-8" and any(ord(c) > 0x7FF for c in line) for enc, line, _ in decoded)
    if encoding != DAMAGED and not proof:
        return text, TextDecoding(encoding)  # one other encoding throughout: as it always was
    labels = [enc for enc, _, _ in decoded]
    replaced = {n: k for n, (_, _, k) in enumerate(decoded, 1) if k}
    return "\n".join(line for _, line, _ in decoded), TextDecoding(encoding, labels, replaced)


def text_decoding(path: Path) -> tuple[TextDecoding, Iterator[tuple[int, str]]]:
    """:func:`text_lines` with the file's :class:`TextDecoding` (line by line for a file of
    mixed encodings: :func:`decode_by_line`)."""
    if not _is_utf8(path):
        text, decoding = decode_by_line(path.read_bytes())
        return decoding, lines_of(text)
    return TextDecoding("utf-8"), _utf8_lines(path)


def name_text(name: str) -> str:
    """A file name (or stem) as text a game may record (``source``, an id made of it): as it
    is, unless the system gave it as bytes that are not UTF-8 (a GBK-named ``对局.txt`` from
    a Windows zip: Python's surrogate escapes, which no UTF-8 text holds) — then those
    bytes read as GB18030 or Big5 when they decode so, else with the bad bytes as ``\\xNN``."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        pass
    raw = name.encode("utf-8", errors="surrogateescape")
    for enc in FALLBACK_ENCODINGS:
        try:
            return raw.decode(enc)
        except UnicodeDecodeError:
            continue
    return raw.decode("utf-8", errors="backslashreplace")


def read_lines(path: Path) -> Iterator[tuple[int, str]]:
    """``(line_number, text)`` for each line of a text file, 1-based.

    The file is decoded as :func:`decode_text` decodes it (UTF-8, else GB18030/Big5, else
    UTF-8 with U+FFFD) and read as :func:`text_lines` reads it (a UTF-8 file a piece at a
    time). Line endings are removed whatever they are (LF, CRLF, CR)."""
    yield from text_lines(path)[1]


#: Bytes read at a time by :func:`text_lines`.
READ_BYTES = 1 << 20


def text_lines(path: Path) -> tuple[str, Iterator[tuple[int, str]]]:
    """``(encoding, lines)``: the encoding :func:`decode_text` finds for the file and its
    lines as :func:`lines_of` gives them — read a piece at a time when the file is UTF-8
    (one pass checks that, a second reads it), so memory does not grow with the file (a
    data set of 98,209 games is one 200 MB text file); any other file is read whole."""
    if not _is_utf8(path):
        text, encoding = decode_text(path.read_bytes())
        return encoding, lines_of(text)
    return "utf-8", _utf8_lines(path)


def _is_utf8(path: Path) -> bool:
    """Whether the whole file is UTF-8, checked a piece (:data:`READ_BYTES`) at a time."""
    check = codecs.getincrementaldecoder("utf-8")("strict")
    try:
        with open(path, "rb") as f:
            while piece := f.read(READ_BYTES):
                check.decode(piece)
        check.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _utf8_lines(path: Path) -> Iterator[tuple[int, str]]:
    # numbered as they come, a piece's lines at a time (no Python frame per line)
    return enumerate(itertools.chain.from_iterable(_utf8_pieces(path)), 1)


def _utf8_pieces(path: Path) -> Iterator[list[str]]:
    """The lines of a UTF-8 file, a list per :data:`READ_BYTES` read."""
    decoder = codecs.getincrementaldecoder("utf-8-sig")("strict")
    carry = ""
    with open(path, "rb") as f:
        while True:
            piece = f.read(READ_BYTES)
            text = carry + decoder.decode(piece, final=not piece)
            if not piece:
                break
            held = text.endswith("\r")  # maybe the first half of a CRLF
            parts = _split_lines(text[:-1] if held else text)
            carry = parts.pop() + ("\r" if held else "")  # the line still open
            yield parts
    yield [line for _, line in lines_of(text)]


def _split_lines(text: str) -> list[str]:
    """``text`` split at every line end (LF, CRLF, CR): ``_LINE_END.split(text)``, by
    ``str.split`` when the text has no CR (a file written on Linux or macOS; the regular
    expression took a tenth of a big import's parsing)."""
    return text.split("\n") if "\r" not in text else _LINE_END.split(text)


def lines_of(text: str) -> Iterator[tuple[int, str]]:
    """``(line_number, line)`` of ``text``, 1-based, any line ending (LF, CRLF, CR)."""
    if not text:
        return
    parts = _split_lines(text)
    if parts and parts[-1] == "":
        parts.pop()
    yield from enumerate(parts, start=1)


def fingerprint(events: list[NewEvent]) -> str:
    """A game's content identity: SHA-256 (hex) of the type and payload of every event
    but ``game_started`` — the deal, the actions and the reported results, not the file
    name, container, player names or source link, nor the ``hand_started`` wall (one
    source knows it, another does not: the Botzone ``_lite.json`` has the judge's walls, its
    download has none). The same match read from a
    ``_lite.json``, a downloaded ``.log`` or a renamed copy has one fingerprint; the
    ingest load keeps it in the ``game_started`` event's metadata (``fingerprint``),
    which the store indexes (:meth:`EventStore.games_by_fingerprint`)."""
    return fingerprint_of_texts((e.type, canonical_bytes(e.payload_json()).decode()) for e in events)


#: A known wall in a canonical ``hand_started`` payload text (tile codes hold no bracket).
_KNOWN_WALL = re.compile(r'"wall":\[[^\]]*\]')


def fingerprint_of_texts(events: Iterable[tuple[str, str]]) -> str:
    """:func:`fingerprint` from each event's type and canonical payload JSON text (what
    :meth:`eventlog.store.planning.Batch.encode` already wrote: nothing encoded twice)."""
    return fingerprint_of_parts([fingerprint_part(type_, payload_text) for type_, payload_text in events])


def fingerprint_part(type_: str, payload_text: str) -> str:
    """What one event (its type and canonical payload JSON text) puts into its game's
    :func:`fingerprint`: nothing for ``game_started``, a ``hand_started`` without its wall.
    The same for every event of that type and text (an importer may keep it with the text)."""
    if type_ == "game_started":
        return ""
    if type_ == "hand_started" and '"wall":[]' not in payload_text:
        payload_text = _KNOWN_WALL.sub('"wall":[]', payload_text, count=1)
    return f"{type_}\x00{payload_text}\n"


def fingerprint_of_parts(parts: Iterable[str]) -> str:
    """:func:`fingerprint` from each event's :func:`fingerprint_part`, in seq order."""
    return hashlib.sha256("".join(parts).encode()).hexdigest()
