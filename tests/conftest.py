"""Fixtures shared by every test directory.

``postgres``: one throwaway PostgreSQL server for the whole session (``tests/pg_server.py``:
Debian's binaries in a temporary directory, as a non-root user), or a skip naming what is
missing. In CI (``CI=true``) a missing server is an error, not a skip: ``.ci/run`` installs it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

import pg_server


@pytest.fixture(scope="session")
def postgres() -> Iterator[pg_server.PgServer]:
    bindir = pg_server.find_bindir()
    if bindir is None:
        if os.environ.get("CI") == "true":
            pytest.fail(pg_server.SKIP_REASON)
        pytest.skip(pg_server.SKIP_REASON)
    server = pg_server.start(bindir)
    yield server
    server.stop()
