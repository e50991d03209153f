"""A throwaway PostgreSQL server for the tests and benchmarks (no mocks: the real server).

:func:`start` runs Debian's ``initdb`` and ``postgres`` (``/usr/lib/postgresql/<v>/bin``,
or ``pg_config --bindir``) in a new temporary directory, listening on 127.0.0.1 at a free
port with ``trust`` authentication, and returns a :class:`PgServer` whose :meth:`new_database`
gives each test an empty database. PostgreSQL refuses to run as root, so as root the
server runs as the ``postgres`` system user (the Debian package creates it) through
``runuser``. :func:`find_bindir` returns None when no PostgreSQL is installed; the tests
then skip with that reason (``.ci/run`` installs the ``postgresql`` package, so CI runs them).
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["PgServer", "find_bindir", "start", "SKIP_REASON"]

SKIP_REASON = "no PostgreSQL server binaries (apt-get install postgresql; .ci/run does)"


def find_bindir() -> Path | None:
    """The directory holding ``initdb`` and ``postgres``, newest version first; or None."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version_key, reverse=True)
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        if out.returncode == 0:
            candidates.append(out.stdout.strip())
    for c in candidates:
        if (Path(c) / "initdb").exists() and (Path(c) / "postgres").exists():
            return Path(c)
    return None


def _version_key(path: str) -> tuple[int, ...]:
    part = Path(path).parent.name
    return tuple(int(x) for x in part.split(".") if x.isdigit())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class PgServer:
    """A running server. ``url(db)`` is a libpq URL; :meth:`stop` ends it and removes its files."""

    bindir: Path
    root: Path
    port: int
    user: str
    process: subprocess.Popen[bytes]
    _names: itertools.count = field(default_factory=lambda: itertools.count(1))

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def new_database(self, prefix: str = "t") -> str:
        """CREATE DATABASE with a fresh name; returns its URL."""
        import psycopg

        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def new_schema(self, prefix: str = "s") -> str:
        """CREATE SCHEMA with a fresh name in the default database; returns a URL whose
        ``search_path`` is that schema (cheaper than a database per test)."""
        import psycopg

        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{name}"')
        return f"{self.url()}?options=-csearch_path%3D{name}"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()  # SIGTERM: smart shutdown
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        shutil.rmtree(self.root, ignore_errors=True)


def start(bindir: Path | None = None, *, timeout: float = 60.0) -> PgServer:
    """Start a fresh server; raises RuntimeError (with the server's log) if it does not come up."""
    bindir = bindir or find_bindir()
    if bindir is None:
        raise RuntimeError(SKIP_REASON)
    root = Path(tempfile.mkdtemp(prefix="paipu-pg-"))
    data = root / "data"
    run_as: list[str] = []
    user = pwd.getpwuid(os.getuid()).pw_name
    if os.getuid() == 0:
        user = "postgres"
        try:
            entry = pwd.getpwnam(user)
        except KeyError:
            raise RuntimeError("running as root and there is no 'postgres' user to run PostgreSQL as") from None
        os.chown(root, entry.pw_uid, entry.pw_gid)
        os.chmod(root, 0o700)
        run_as = ["runuser", "-u", user, "--"]
    init = subprocess.run(
        [*run_as, str(bindir / "initdb"), "-D", str(data), "-U", user, "-A", "trust",
         "-E", "UTF8", "--locale=C", "--no-sync"],
        capture_output=True, text=True,
    )
    if init.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        raise RuntimeError(f"initdb failed: {init.stderr.strip() or init.stdout.strip()}")
    port = _free_port()
    log = open(root / "server.log", "wb")
    # fsync stays on (the default): the tests check durability claims against a real server.
    proc = subprocess.Popen(
        [*run_as, str(bindir / "postgres"), "-D", str(data), "-p", str(port),
         "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={root}",
         "-c", "max_connections=200", "-c", "shared_buffers=64MB"],
        stdout=log, stderr=subprocess.STDOUT,
    )
    server = PgServer(bindir, root, port, user, proc)
    deadline = time.monotonic() + timeout
    import psycopg

    while True:
        if proc.poll() is not None:
            text = (root / "server.log").read_text(errors="replace")
            server.stop()
            raise RuntimeError(f"postgres exited with {proc.returncode}: {text[-2000:]}")
        try:
            with psycopg.connect(server.url(), connect_timeout=2):
                return server
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                server.stop()
                raise RuntimeError("postgres did not accept connections in time") from None
            time.sleep(0.1)
