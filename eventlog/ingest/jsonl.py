"""paipu's own events, JSON Lines: one event envelope per line (``docs/events.md``).

Each line is a ``NewEvent`` or ``StoredEvent`` dump, read with
:func:`eventlog.events.parse_event` (stored-envelope fields such as ``seq`` and hashes
are ignored: the store assigns them again). Games are split at each ``game_started``
and whenever the line's ``game_id`` changes; a line without ``game_id`` belongs to the
game started before it, and a game with no ``game_id`` at all is named
``jsonl-<file stem>-<n>`` (n = 1, 2 … in the file).

A line that carries ``seq`` (a stored event, e.g. an export) must be the next event of its
game: seq 0, 1, 2 … without a gap; otherwise the game is refused, naming the line (a log with
a line missing is not stored renumbered).

Event ids are kept as written, so re-importing an export into the same log is a no-op.
The event's own metadata is kept; ``source``/``line``/``format`` are set to this file
and the previous values, if any, move under ``origin``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from eventlog.errors import json_error
from eventlog.events import EventError, NewEvent, parse_event
from eventlog.ingest.base import READ_BYTES, ImportedGame, ParseIssue, issue_reason, name_text, read_lines, register

NAME = "jsonl"
_OWN = ("source", "line", "format")


class _Pending:
    def __init__(self, game_id: str | None, first_line: int) -> None:
        self.game_id = game_id
        self.first_line = first_line
        self.events: list[NewEvent] = []
        self.error: ParseIssue | None = None
        self.first_event_id: Any = None  # as written on its first line


#: An envelope's game id as JSON writes it (a string with no escape in it), in the file's bytes.
_GAME_ID = re.compile(rb'"game_id"\s*:\s*"([^"\\\n]{1,200})"')


def _resumed(path: Path) -> dict[str, int]:
    """Game ids whose lines come in more than one run (another game's lines between), each
    with the line where its second run begins — found before the games are read (one regular
    expression over the bytes, a piece at a time), so that every run of such a game is refused
    (a game is stored whole or not at all), not only the later ones."""
    out: dict[str, int] = {}
    seen: set[bytes] = set()
    last: bytes | None = None
    lines = 0  # line ends before the piece
    carry = b""
    with open(path, "rb") as f:
        while True:
            piece = f.read(READ_BYTES)
            data = carry + piece
            end = data.rfind(b"\n") + 1 if piece else len(data)
            data, carry = data[:end], data[end:]
            for m in _GAME_ID.finditer(data):
                gid = m.group(1)
                if gid == last:
                    continue
                last = gid
                if gid in seen:
                    out.setdefault(gid.decode("utf-8", "replace"), lines + data.count(b"\n", 0, m.start()) + 1)
                seen.add(gid)
            lines += data.count(b"\n")
            if not piece:
                return out


def _started_again(cur: _Pending, raw: dict[str, Any], gid: str | None) -> bool:
    """Whether a ``game_started`` line is the game ``cur``'s again, not a new game's: it names
    the same game id, or (no game ids) repeats its first line's event id."""
    if gid is not None and cur.game_id == gid:
        return True
    return gid is None and cur.game_id is None and raw.get("event_id") is not None \
        and raw.get("event_id") == cur.first_event_id


class JsonlImporter:
    name = NAME
    description = "paipu canonical events, one JSON envelope per line"

    def sniff(self, head: str, path: Path) -> bool:
        first = next((line.strip() for line in head.splitlines() if line.strip()), "")
        # a first line longer than the head (a 5,000-character game_id) is cut before its later
        # keys: an event line's start is enough then, and the parser names what is wrong with it
        cut = "\n" not in head.lstrip()
        return first.startswith("{") and '"event_id"' in first and ('"type"' in first or cut)

    def parse(self, path: Path) -> Iterator[ImportedGame | ParseIssue]:
        cur: _Pending | None = None
        count = 0
        seen: dict[str, int] = {}  # game id -> the line its game started at
        resumed = _resumed(path)  # game ids whose lines are not one run -> where the second begins

        def close(p: _Pending) -> ImportedGame | ParseIssue:
            nonlocal count
            count += 1
            if p.error is not None:
                return p.error
            gid = p.game_id or f"jsonl-{name_text(path.stem)}-{count}"
            return ImportedGame(gid, p.events, str(path), p.first_line, NAME)

        for n, text in read_lines(path):
            if not text.strip():
                continue
            err: str | None
            try:
                raw: Any = json.loads(text)
            except json.JSONDecodeError as e:
                raw, err = None, json_error(e, line=False)
            except (RecursionError, ValueError) as e:  # nesting too deep, huge numbers
                raw, err = None, issue_reason(e)
            else:
                err = None if isinstance(raw, dict) else "a line is not a JSON object"
            gid = raw.get("game_id") if isinstance(raw, dict) else None
            gid = gid if isinstance(gid, str) and gid else None
            if gid is not None and len(gid) > 200:
                gid, err = None, err or "game_id longer than 200 characters"
            starts = isinstance(raw, dict) and raw.get("type") == "game_started"
            if cur is not None and starts and _started_again(cur, raw, gid):
                # the same game's game_started again (a repeated line, two runs of one game
                # pasted together): not two games, one that cannot be read — refused whole
                if cur.error is None:
                    cur.error = ParseIssue(
                        str(path), n, f"game_started again (the game started at line {cur.first_line}): a game's "
                        "lines hold one game_started; the game is not stored", cur.game_id)
                continue
            if cur is None or starts or (gid is not None and cur.game_id not in (None, gid)):
                if cur is not None:
                    yield close(cur)
                if gid is not None and gid in seen:
                    cur = _Pending(gid, n)
                    cur.error = ParseIssue(
                        str(path), n, f"game {gid} again, after another game's lines (it started at line "
                        f"{seen[gid]}): a game's lines are one run; the game is not stored", gid)
                    continue
                cur = _Pending(gid, n)
                if gid is not None and gid in resumed:
                    cur.error = ParseIssue(
                        str(path), n, f"game {gid} goes on at line {resumed[gid]}, after another game's lines: "
                        "a game's lines are one run; the game is not stored", gid)
            if gid is not None:
                seen.setdefault(gid, cur.first_line)
            if cur.game_id is None and gid is not None:
                cur.game_id = gid
            if cur.error is not None:
                continue
            if err is None:
                try:
                    ev = parse_event(raw)
                except EventError as e:
                    err = str(e)
                except Exception as e:  # hostile input (issue 12 item 5)
                    err = issue_reason(e)
            if err is None:
                err = _seq_gap(raw, len(cur.events))
            if err is not None:
                cur.error = ParseIssue(str(path), n, err, cur.game_id)
                continue
            if not cur.events:
                cur.first_event_id = raw.get("event_id")
            meta = dict(ev.metadata)
            origin = {k: meta.pop(k) for k in _OWN if k in meta}
            if origin:
                meta["origin"] = origin
            meta.update(source=name_text(path.name), line=n, format=NAME)
            cur.events.append(ev.model_copy(update={"metadata": meta}))
        if cur is not None:
            yield close(cur)


def _seq_gap(raw: dict[str, Any], expected: int) -> str | None:
    """Why a stored event's line cannot stand where it is: its ``seq`` is not the next of its
    game (``expected``: the events read before it). A line written without ``seq`` (a new
    event) is not numbered and passes."""
    seq = raw.get("seq")
    if seq is None or seq == expected:
        return None
    if isinstance(seq, bool) or not isinstance(seq, int):
        return f"seq {seq!r} is not a number"
    what = "a line is missing before it" if seq > expected else "lines are out of order or repeated"
    return f"seq {seq} where {expected} was expected ({what})"


IMPORTER = register(JsonlImporter())
