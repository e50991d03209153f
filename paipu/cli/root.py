"""The ``paipu`` Typer app, its global options (``--debug``) and :func:`command`, the decorator
every command module registers its commands with (it adds the error policy of
:mod:`paipu.cli.errors`)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from typer.core import TyperCommand, TyperGroup

from paipu.cli.console import say
from paipu.cli.errors import DEBUG, EXIT_STATUSES, friendly
from paipu.cli.options import STORE, StoreOpt

__all__ = ["app", "command", "EXIT_HELP", "PaipuCommand"]

#: Metavars by parameter name where the name alone would not say what to give.
_METAVARS = {
    "data": "DIR", "server": "HOST:PORT", "hand": "TILES", "win": "TILE", "meld": "TYPE:TILES[@FROM]",
    "seat_wind": "WIND", "prevalent_wind": "WIND", "options": "JSON", "expected_version": "VERSION",
    "date_from": "YYYY-MM-DD", "date_to": "YYYY-MM-DD", "csv_path": "FILE.csv", "parquet_path": "FILE.parquet",
}
#: The same for whole-number options.
_INT_METAVARS = {"at": "SEQ", "from_seq": "SEQ", "seat": "SEAT", "round_": "ROUND"}


def _option_metavar(p: Any) -> str:
    """A word for an option's value: from :data:`_METAVARS`, else its kind (``N`` for a
    count, ``NUMBER``, ``FILE`` / ``DIR`` / ``PATH``), else the option's long name."""
    d = p.type_descriptor
    ann = d.annotation
    inner = getattr(ann, "__args__", (ann,))[0] if d.is_list else ann
    if inner is int and p.name in _INT_METAVARS:
        return _INT_METAVARS[p.name]
    if inner is not int and p.name in _METAVARS:
        return _METAVARS[p.name]
    if d.is_path or inner is Path:
        return {"file": "FILE", "directory": "DIR"}.get(d.path_type, "PATH")
    if inner is int:
        return "N"
    if inner is float:
        return "NUMBER"
    long = max(p.opts, key=len).lstrip("-")
    return long.replace("-", "_").upper()


def _argument_name(p: Any, *, usage: bool = False) -> str:
    """``GAME_ID``, ``FILES...``; in the usage line an optional one in brackets."""
    name = p.metavar or p.name.upper()
    if p.nargs != 1:
        name += "..."
    return f"[{name}]" if usage and not p.required else name


class PaipuCommand(TyperCommand):
    """A command whose help names values in words — ``--data DIR``, ``GAME_ID``, ``FILES...``
    — instead of the Python types Typer prints by default (``<path>``, ``<list[str]>``,
    ``{game_id}``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for p in self.params:
            if p.param_type_name == "option" and not getattr(p, "is_flag", False) and p.metavar is None:
                p.metavar = _option_metavar(p)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        return pieces + [_argument_name(p, usage=True) for p in self.get_params(ctx)
                         if p.param_type_name == "argument"]

    def format_options(self, ctx: Any, formatter: Any) -> None:
        args, opts = [], []
        for p in self.get_params(ctx):
            rec = p.get_help_record(ctx)
            if rec is None:
                continue
            if p.param_type_name == "argument":
                args.append((_argument_name(p), rec[1]))
            else:
                opts.append(rec)
        for title, rows in (("Arguments", args), ("Options", opts)):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)

#: Options of the commands that a user may put before the command (``paipu --data d verify``):
#: a usage error then says where they go, with the environment variable that sets one for all.
_COMMAND_OPTIONS = {"--data": " (or set $PAIPU_DATA)", "--server": ""}


class PaipuGroup(TyperGroup):
    """The root group: ``paipu --data DIR verify`` says that --data goes after the command
    (only ``--store``, ``--debug`` and ``--version`` are options of ``paipu`` itself)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except Exception as exc:  # Typer's own click's NoSuchOption (typer._click: not public)
            e: Any = exc
            name = getattr(e, "option_name", None)
            if type(e).__name__ == "NoSuchOption" and name in _COMMAND_OPTIONS:
                e.possibilities = None  # not --store: the option exists, after the command
                e.message = (f"No such option: {name} before the command: it is an option of each "
                             f"command, given after it (paipu COMMAND {name} …){_COMMAND_OPTIONS[name]}")
            raise


#: The exit statuses every command follows, as shown in ``paipu --help`` and the README.
EXIT_HELP = "Exit status (every command): " + "; ".join(f"{k} = {v}" for k, v in EXIT_STATUSES.items()) + "."

app = typer.Typer(
    name="paipu",
    cls=PaipuGroup,
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
    if not debug:
        warnings.showwarning = _warning_line


def _warning_line(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """A warning (e.g. the store's "no checkpoint file; anchoring the log as it is now") as one
    ``warning: …`` line on stderr, said once per run — not Python's two lines with our source
    file and line (``--debug`` keeps those)."""
    text = str(message)
    if text not in _SAID:
        _SAID.add(text)
        say(f"warning: {text}", err=True, style="bold yellow")


_SAID: set[str] = set()


def command(name: str | None = None, *, group: typer.Typer | None = None,
            **kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``@command()``: register a function as a ``paipu`` subcommand (of ``group``, a command
    group such as ``paipu players``, when given), with the one error policy (one line on
    stderr, exit 2 — 3 for damaged data; ``--debug`` for the traceback)."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        wrapped = friendly(fn)
        (group or app).command(name, cls=PaipuCommand, **kwargs)(wrapped)
        return wrapped

    return deco
