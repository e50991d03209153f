"""The CLI's error policy, in one place: any :class:`~eventlog.errors.PaipuError` (and a
ValueError or OSError: bad input or a file problem, told in words) prints one line on stderr
and exits 2 (3 when the log itself is damaged: a corrupt or missing event); the meaning of
every exit status is :data:`EXIT_STATUSES`; anything else is an "internal error" (``paipu --debug ...`` shows the
traceback)."""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
from collections.abc import Callable, Iterator
from typing import Any

import typer

from eventlog.errors import PaipuError
from paipu.cli.console import say

__all__ = ["CliError", "DEBUG", "EXIT_STATUSES", "EXIT_OK", "EXIT_PROBLEMS", "EXIT_ERROR", "EXIT_INTEGRITY",
           "EXIT_INTERRUPTED", "EXIT_TERMINATED", "terminated_as_interrupt", "friendly", "describe", "exit_status"]

#: The one meaning of each exit status, across every command: the source of `paipu --help`'s
#: list and of the README's "Exit status" table (a test holds the README to it, word for word
#: but the README's `code` marks).
EXIT_OK, EXIT_PROBLEMS, EXIT_ERROR, EXIT_INTEGRITY, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
#: 128 + SIGTERM, as a shell reports a process SIGTERM stopped (130 is 128 + SIGINT).
EXIT_TERMINATED = 143
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
    EXIT_TERMINATED: ("stopped by SIGTERM (kill, systemd, a batch scheduler); ingest handles it as Ctrl-C: "
                      "it says how many games it kept"),
}

#: Set by ``paipu --debug``: errors propagate with their traceback.
DEBUG = {"on": False}


class CliError(PaipuError):
    """A command-line mistake worth one line to the user."""


class _Terminated(KeyboardInterrupt):
    """SIGTERM, where a command handles it as Ctrl-C (:func:`terminated_as_interrupt`): the
    same words ("interrupted: 3 games kept …"), exit status :data:`EXIT_TERMINATED`."""


@contextlib.contextmanager
def terminated_as_interrupt() -> Iterator[None]:
    """Within it, SIGTERM raises :class:`_Terminated` in this (the main) thread, as Ctrl-C
    raises KeyboardInterrupt: a command that keeps whole work on Ctrl-C (ingest) keeps it and
    says so on ``kill`` too. Outside the main thread (a test runner's) it does nothing."""
    def stop(signum: int, frame: Any) -> None:
        raise _Terminated()

    try:
        before = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


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
            what = "interrupted (SIGTERM)" if isinstance(e, _Terminated) else "interrupted"
            say(f"{what}: {e}" if str(e) else what, err=True)
            raise typer.Exit(EXIT_TERMINATED if isinstance(e, _Terminated) else EXIT_INTERRUPTED) from None
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
