"""Where the CLI writes: ``console`` (stdout) and ``err_console`` (stderr), :func:`say` for plain
text and :func:`progress` for progress bars on stderr."""

from __future__ import annotations

from typing import Any

from rich.console import Console

__all__ = ["console", "err_console", "say", "progress"]


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


def progress() -> Any:
    """A Rich progress bar on stderr (shown on a terminal only)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=False,
        disable=not err_console.is_terminal,
    )
