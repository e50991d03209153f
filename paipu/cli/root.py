"""The ``paipu`` Typer app, its global options (``--debug``) and :func:`command`, the decorator
every command module registers its commands with (it adds the error policy of
:mod:`paipu.cli.errors`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer

from paipu.cli.errors import DEBUG, EXIT_STATUSES, friendly
from paipu.cli.options import STORE, StoreOpt

__all__ = ["app", "command", "EXIT_HELP"]

#: The exit statuses every command follows, as shown in ``paipu --help`` and the README.
EXIT_HELP = "Exit status (every command): " + "; ".join(f"{k} = {v}" for k, v in EXIT_STATUSES.items()) + "."

app = typer.Typer(
    name="paipu",
    help=(
        "paipu (牌谱): store, replay, check and study mahjong game records.\n\n"
        "Start with `paipu quickstart`: it imports the bundled real game logs into "
        "./paipu-data, verifies every game and prints a summary.\n\n"
        "Shell completion: `paipu --install-completion` (bash, zsh, fish, PowerShell), or "
        "`paipu --show-completion` to see the script.\n\n" + EXIT_HELP
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,
    rich_markup_mode=None,  # help texts are plain: "[default: …]" and tile brackets stay as written
)


def _version(value: bool) -> None:
    if value:
        from paipu import __version__

        typer.echo(f"paipu {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    debug: Annotated[bool, typer.Option("--debug", help="Show full tracebacks on errors.")] = False,
    store: StoreOpt = None,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print paipu's version and exit.")] = False,
) -> None:
    DEBUG["on"] = debug
    STORE["url"] = store


def command(name: str | None = None, **kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``@command()``: register a function as a ``paipu`` subcommand, with the one error policy
    (one line on stderr, exit 2 — 3 for damaged data; ``--debug`` for the traceback)."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        wrapped = friendly(fn)
        app.command(name, **kwargs)(wrapped)
        return wrapped

    return deco
