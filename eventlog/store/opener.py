"""Open an event store by path or URL (the one place that names the backends, so the
abstract store never imports them)."""

from __future__ import annotations

from pathlib import Path

from eventlog.store.base import EventStore
from eventlog.store.errors import StoreError, StoreNotFound

__all__ = ["open_store", "STORE_FILE"]

#: The database file inside a data directory.
STORE_FILE = "events.sqlite"


def open_store(path_or_url: str | Path, *, create: bool = True, salvage: bool = False) -> EventStore:
    """Open an event store.

    * ``"memory:"`` — a new, empty :class:`~eventlog.store.memory.MemoryStore`.
    * a path ending in ``.sqlite``, ``.sqlite3`` or ``.db`` (optionally prefixed
      ``sqlite:``), or an existing file — that SQLite file.
    * any other path — a directory holding ``events.sqlite``.
    * ``postgresql://…`` / ``postgres://…`` — a :class:`~eventlog.store.postgres.PostgresStore`
      (the ``[postgres]`` extra; ``create`` and ``salvage`` do not apply: the server's
      database exists or the connection fails).

    ``create``: make a new store (and its directory) where there is none; with
    ``create=False`` (every reading command, ``paipu serve``) a missing store raises
    :class:`StoreNotFound` naming the directory. ``salvage``: open a log that lost
    committed events anyway (for verification; see :class:`SqliteStore`).

    Raises :class:`StoreError` for an unsupported URL scheme or an unreachable server,
    :class:`NotAStore` for a file that is not a paipu store, :class:`LogTruncated` for a
    log shorter than its checkpoint."""
    text = str(path_or_url)
    if text == "memory:":
        from eventlog.store.memory import MemoryStore

        return MemoryStore()
    if text.startswith(("postgresql://", "postgres://")):
        from eventlog.store.postgres import PostgresStore

        return PostgresStore(text)
    if "://" in text and not text.startswith("sqlite:"):
        raise StoreError(
            f"unsupported event store URL: {text[:200]!r} (use a path, 'memory:' or 'postgresql://…')"
        )
    if text.startswith("sqlite:"):
        text = text[len("sqlite:") :]
        if text.startswith("///"):
            text = text[2:]
    from eventlog.store.sqlite import SqliteStore

    path = Path(text)
    if path.suffix in (".sqlite", ".sqlite3", ".db") or path.is_file():
        return SqliteStore(path, create=create, salvage=salvage)
    if not create and not (path / STORE_FILE).exists():
        raise StoreNotFound(
            path,
            "give the data directory of an existing store, or create one: `paipu ingest`, "
            "`paipu append`, `paipu quickstart`, `paipu simulate` or `paipu serve --create`",
        )
    return SqliteStore(path / STORE_FILE, create=create, salvage=salvage)
