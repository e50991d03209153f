"""The CLI's error policy, in one place: any :class:`~eventlog.errors.PaipuError` (and a
ValueError or OSError: bad input or a file problem, told in words) prints one line on stderr
and exits 2 (3 when the log itself is damaged: a corrupt or missing event); the meaning of
every exit status is :data:`EXIT_STATUSES`; anything else is an "internal error" (``paipu --debug ...`` shows the
traceback)."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Any

import typer

from eventlog.errors import PaipuError
from paipu.cli.console import say

__all__ = ["CliError", "DEBUG", "EXIT_STATUSES", "EXIT_OK", "EXIT_PROBLEMS", "EXIT_ERROR", "EXIT_INTEGRITY",
           "EXIT_INTERRUPTED", "friendly", "describe", "exit_status"]

#: The one meaning of each exit status, across every command: the source of `paipu --help`'s
#: list and of the README's "Exit status" table (a test holds the README to it, word for word
#: but the README's `code` marks).
EXIT_OK, EXIT_PROBLEMS, EXIT_ERROR, EXIT_INTEGRITY, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
EXIT_STATUSES: dict[int, str] = {
    EXIT_OK: "done, nothing to report",
    EXIT_PROBLEMS: ("done, and the result reports problems to read: rule findings or reported scores "
                    "that disagree (verify), files that did not import (ingest, quickstart), games not "
                    "exported (export), no matching rows (stats), an illegal hand or malformed cases (score)"),
    EXIT_ERROR: "the command could not run: bad arguments or input, unknown game or ruleset, no store",
    EXIT_INTEGRITY: ("the log is damaged: a broken hash chain, a corrupt or missing event, a log "
                     "shorter than its checkpoint (any command that meets it, e.g. replay, read, verify, "
                     "quickstart)"),
    EXIT_INTERRUPTED: "interrupted (Ctrl-C)",
}

#: Set by ``paipu --debug``: errors propagate with their traceback.
DEBUG = {"on": False}


class CliError(PaipuError):
    """A command-line mistake worth one line to the user."""


def friendly(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn known errors into one line on stderr and exit code 2 (3 for a damaged log); with
    --debug the traceback is printed before that line and the exit status is the same."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except typer.Exit:
            raise
        except KeyboardInterrupt as e:  # a command may say what was kept: KeyboardInterrupt("3 games kept …")
            say(f"interrupted: {e}" if str(e) else "interrupted", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except BrokenPipeError:  # output piped into `head` and closed early
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(0) from None
        except Exception as e:  # noqa: BLE001 -- the one place that reports errors (with --debug, the traceback too)
            if DEBUG["on"]:  # the traceback, then the same line and the same exit status
                import traceback

                traceback.print_exc(file=sys.stderr)
            say(f"error: {describe(e)}", err=True, style="red")
            raise typer.Exit(exit_status(e)) from None

    return wrapper


def exit_status(e: BaseException) -> int:
    """3 for a damaged log (:class:`eventlog.store.errors.CorruptEvent` and its kind: a corrupt
    or missing event, a broken chain, a log shorter than its checkpoint; DATA_LOSS from a
    server), else 2 (a damaged Parquet export is not the log: ``paipu export --repair``)."""
    import grpc

    from eventlog.store.errors import CorruptEvent

    if isinstance(e, grpc.RpcError):
        code = e.code() if callable(getattr(e, "code", None)) else None
        return EXIT_INTEGRITY if code == grpc.StatusCode.DATA_LOSS else EXIT_ERROR
    if isinstance(e, CorruptEvent):
        return EXIT_INTEGRITY
    return EXIT_ERROR


def describe(e: BaseException) -> str:
    """The one line for ``e``."""
    import grpc

    if isinstance(e, grpc.RpcError):
        return f"server said {e.code().name}: {e.details()}"
    name = type(e).__name__
    msg = str(e) or name
    if isinstance(e, OSError) and e.strerror and e.filename is not None:
        return f"{e.filename}: {e.strerror[:1].lower()}{e.strerror[1:]}"  # never "[Errno 2] …"
    if isinstance(e, PaipuError) and e.hint:  # the command line's own advice (a command, a path)
        return f"{msg} ({e.hint})"
    if isinstance(e, (PaipuError, ValueError, OSError)):
        return msg  # errors that describe bad input or state in words
    return f"internal error: {msg} ({name}); run `paipu --debug ...` for the traceback"
