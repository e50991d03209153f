"""Running the ``paipu`` CLI in-process for the CLI tests, as a user types it."""

from __future__ import annotations

from typer.testing import CliRunner

from paipu.cli import app

runner = CliRunner()


def run(*args):
    """``paipu ARGS…`` (each argument ``str()``-ed); exceptions are not caught."""
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False, prog_name="paipu")


def one_error(res) -> str:
    """The output's one non-blank line, which must be an ``error: …`` line."""
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    return lines[0]
