"""Where the CLI writes: ``console`` (stdout) and ``err_console`` (stderr), :func:`say` for plain
text and :func:`progress` for progress bars on stderr."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rich.console import Console

from eventlog.words import plural

__all__ = ["console", "err_console", "say", "progress", "clipped", "ERROR_CLIP", "ERROR_END", "plural", "ordinal_mean",
           "JsonListStream"]

#: Longest line of someone else's text (a log file's content in an error) printed as is.
CLIP = 300
#: An error line of ``ingest``: cut in the middle past this many characters, its last
#: :data:`ERROR_END` kept (the advice, the game it names).
ERROR_CLIP = 400
ERROR_END = 160


def clipped(text: str, limit: int = CLIP, *, keep_end: int = 0) -> str:
    """``text`` safe to print on one line: control characters escaped (``\x1b``, ``\n``),
    cut to ``limit`` characters with ``…`` — garbage input is never echoed raw. ``keep_end``:
    that many characters of the end are kept (the middle is cut), so an error line keeps
    the remedy it ends with."""
    out = []
    for ch in text:
        if ch == "\t":
            out.append(" ")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F or 0x80 <= ord(ch) < 0xA0:
            out.append(repr(ch)[1:-1])
        elif 0xDC80 <= ord(ch) <= 0xDCFF:  # a byte of a file name that is not UTF-8 (surrogate escape)
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        else:
            out.append(ch)
    line = "".join(out)
    if len(line) <= limit:
        return line
    end = min(keep_end, limit - 1)
    return line[: limit - 1 - end] + "…" + (line[len(line) - end:] if end else "")


def ordinal_mean(x: float, digits: int = 1) -> str:
    """A mean printed without a useless ``.0``: ``17``, ``17.5``."""
    text = f"{x:.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _console(stderr: bool = False) -> Console:
    """A terminal gets Rich's layout; a pipe or file gets long lines unwrapped, so
    ``file:line`` locations and table rows stay whole for grep."""
    c = Console(stderr=stderr)
    if not c.is_terminal:
        c = Console(stderr=stderr, width=max(c.width, 200), soft_wrap=True)
    return c


console = _console()
err_console = _console(stderr=True)


def say(text: str, *, err: bool = False, style: str | None = None) -> None:
    """Print ``text`` as it is: no Rich markup, so ``[rule_id]`` and tile brackets survive."""
    (err_console if err else console).print(text, markup=False, highlight=False, style=style)


def progress(*, quiet: bool = False, unit: str = "games", counted: str | None = None) -> Any:
    """A Rich progress bar on stderr (shown on a terminal only, never with ``quiet``): the
    description, the bar, done/total, the rate in ``unit`` per second (the task's
    ``rate_count`` field when set, else its completed count), the time elapsed and the time
    remaining (from the bar). ``counted``: what the bar counts when it is not what the
    rate names, written after done/total (``"196,128/327,124 lines"``); the task's
    ``games`` field, when set, is shown after the rate (``"3,000 games"``)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            elapsed = task.elapsed or 0.0
            done = task.fields.get("rate_count", task.completed)
            if elapsed <= 0 or not done:
                return Text(f"- {unit}/s", style="progress.data.speed")
            return Text(f"{done / elapsed:,.0f} {unit}/s", style="progress.data.speed")

    class CountColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            total = f"{task.total:,.0f}" if task.total is not None else "?"
            return Text(f"{task.completed:,.0f}/{total} {counted}", style="progress.download")

    class GamesColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            games = task.fields.get("games")
            return Text("" if games is None else f"{games:,} game{'' if games == 1 else 's'}", style="progress.data.speed")

    return Progress(
        TextColumn("{task.description}", markup=False),  # file names as written
        BarColumn(),
        MofNCompleteColumn() if counted is None else CountColumn(),
        RateColumn(),
        *([GamesColumn()] if counted is not None else []),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=err_console,
        transient=False,
        disable=quiet or not err_console.is_terminal,
    )


class JsonListStream:
    """One JSON object whose first key holds a list written item by item as the items come, so
    a report of any number of games is never held whole (``paipu verify --json``): the bytes
    are those of ``json.dumps({key: items, **rest}, ensure_ascii=False, sort_keys=True) + "\n"``
    (``rest`` given to :meth:`close`, its keys sorting after ``key``). Nothing is written
    before the first item (or :meth:`close`), so an error met before it leaves the output
    empty. ``write``: where the text goes (``sys.stdout.write``)."""

    def __init__(self, write: Callable[[str], Any], key: str) -> None:
        self._write, self._key, self._started = write, key, False

    def add(self, item: Any) -> None:
        """Write one item of the list (its JSON, after the opening or a ``", "``)."""
        text = json.dumps(item, ensure_ascii=False, sort_keys=True)
        self._write((", " if self._started else "{" + json.dumps(self._key) + ": [") + text)
        self._started = True

    def close(self, rest: dict[str, Any], *, late: dict[str, Any] | None = None) -> None:
        """End the list and write the object's other keys, then a newline. Raises ValueError
        when a key of ``rest`` does not sort after the list's (the bytes would differ from
        ``sort_keys``). ``late``: keys that sort before the list's but are known only once it
        is written (``verify --export``'s ``export``: the export reports the games as it goes),
        written right after the list, before ``rest`` — the one place where the bytes are not
        ``sort_keys``' (a JSON reader sees the same object)."""
        if any(k <= self._key for k in rest):
            raise ValueError(f"keys {sorted(rest)} must sort after {self._key!r}")
        head = "" if self._started else "{" + json.dumps(self._key) + ": ["
        parts = [json.dumps(d, ensure_ascii=False, sort_keys=True)[1:-1] for d in (late, rest) if d]
        tail = (", ".join(parts) + "}") if parts else "}"
        self._write(head + ("], " if parts else "]") + tail + "\n")
        self._started = True
