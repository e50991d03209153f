"""The ``paipu`` command line (Typer + Rich), one module per command group:

========================  ====================================================
``root``                  the Typer app, ``--debug``, the ``@command`` decorator
``options``               shared options (``--data``/``$PAIPU_DATA``, ``--server``) and the
                          one "local store or remote server" opener
``errors``, ``console``   the error policy (one line, exit 2) and the output streams
``log``                   ``append``, ``read``, ``games``, ``ingest``
``migrate``               ``migrate`` (copy a log between SQLite and PostgreSQL)
``serve``                 ``serve`` (the gRPC services)
``check``                 ``verify``, ``quickstart``
``replay``                ``replay`` (``render``: the table; ``stepper``: ``--step``)
``review``                ``review`` (decision review), ``dispute`` (the dispute page)
``score``                 ``score`` (``melds``: the ``--meld`` notation)
``analysis``              ``export``, ``stats``
``simulate``              ``simulate``
``rulesets``              ``rulesets`` (the registry: rulesets, presets, options)
``dashboard``             ``dashboard``
``players``               ``players alias``, ``players list`` (player aliases)
========================  ====================================================

Every subcommand works on a data directory (``--data``, default ``$PAIPU_DATA`` or
``./paipu-data``) holding the embedded event store, unless ``--server HOST:PORT`` sends the
work to a running ``paipu serve``. Errors print one line and exit non-zero; ``--debug``
shows the traceback.
"""

from __future__ import annotations

import os

# Arrow's allocator for the commands that write or read Parquet (export, verify --export,
# stats): the C library's (system) rather than pyarrow's default mimalloc pool, which keeps
# what each Parquet flush used — an export's peak grew with every flush (10,000 games, one
# process: 337 MB against 257 MB with the system pool; 2,000 games: 231 against 196; CPU the
# same within the noise). Read by pyarrow when it loads, so set before any command module
# imports it; a value the user set is kept.
os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")

# Each command module registers its commands on ``app`` when imported; the order is the
# order of ``paipu --help``.
from paipu.cli import serve, log, migrate, check, replay, review, score, analysis, dashboard, simulate, rulesets, tournament, players  # noqa: F401
from paipu.cli.root import app

__all__ = ["app", "main"]


def main() -> None:  # pragma: no cover - console entry
    app()
