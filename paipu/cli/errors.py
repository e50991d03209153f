"""The CLI's error policy, in one place: any :class:`~eventlog.errors.PaipuError` (and a
ValueError or OSError: bad input or a file problem, told in words) prints one line on stderr
and exits 2; anything else is an "internal error" (``paipu --debug ...`` shows the
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

__all__ = ["CliError", "DEBUG", "friendly", "describe"]

#: Set by ``paipu --debug``: errors propagate with their traceback.
DEBUG = {"on": False}


class CliError(PaipuError):
    """A command-line mistake worth one line to the user."""


def friendly(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn known errors into one line on stderr and exit code 2 (traceback with --debug)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except typer.Exit:
            raise
        except KeyboardInterrupt:
            say("interrupted", err=True)
            raise typer.Exit(130) from None
        except BrokenPipeError:  # output piped into `head` and closed early
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(0) from None
        except Exception as e:  # the one place that reports errors (BLE: re-raised with --debug)
            if DEBUG["on"]:
                raise
            say(f"error: {describe(e)}", err=True, style="red")
            raise typer.Exit(2) from None

    return wrapper


def describe(e: BaseException) -> str:
    """The one line for ``e``."""
    import grpc

    if isinstance(e, grpc.RpcError):
        return f"server said {e.code().name}: {e.details()}"
    name = type(e).__name__
    msg = str(e) or name
    if isinstance(e, (PaipuError, ValueError, OSError)):
        return msg  # errors that describe bad input or state in words
    return f"internal error: {msg} ({name}); run `paipu --debug ...` for the traceback"
