"""The writer checkpoint: the log's head kept in a small file beside the database.

SQLite recovers a damaged ``-wal`` file by stopping at the first bad frame and silently
discarding every later commit (its documented behaviour). So the SQLite store keeps, in
``events.sqlite-checkpoint``, the last committed position, that event's hash and the
running hash of the whole log (:class:`~eventlog.store.types.LogHead`), written after
every commit and *before* the append is acknowledged (synced right after: below) — the idea of
KurrentDB's writer checkpoint beside its chunks. On open and in ``paipu verify`` a log
shorter than its checkpoint, or with another running hash at the same position, is data
loss (:class:`~eventlog.store.errors.LogTruncated`).

Format: two 96-byte slots, written alternately so a torn write leaves the other intact::

    magic "PAIPUCK1" (8) | position (8, big-endian) | log hash (32) | event hash (32)
    | crc32 of the preceding 80 bytes (4) | zero padding (12)

The valid slot with the highest position wins. Writers (threads and processes) hold an
exclusive ``flock`` on the file across commit and checkpoint write, so checkpoints are
written in commit order.

When the write is made durable (:class:`AnchorSync`, issue 19). The checkpoint is written
(``pwrite``) after the commit it records is durable and before that commit is
acknowledged; its ``fdatasync`` is no longer waited for by the append: a thread of the
store's own makes every write durable as soon as it can, one sync covering all the writes
made before it started. Why that keeps both promises:

* an acknowledged append is durable: the commit itself is synced (SQLite's WAL,
  ``synchronous=FULL``) before the checkpoint is written, and the acknowledgement comes
  after both — the checkpoint's own sync adds nothing to the append's durability;
* a log shorter than its checkpoint is still DATA LOSS, never a false alarm: the checkpoint
  only ever records a position whose commit was durable before the write, so whatever the
  disk keeps of it after a crash is at or behind the durable log. A process that dies
  (SIGKILL, a crash) loses nothing of a ``pwrite`` (the page cache has it); only a power
  loss can leave the file behind the log, by the writes of the last sync's interval (a
  few milliseconds), and opening the store then brings it forward as after a crash between
  commit and checkpoint write. The loss the checkpoint would miss is one confined to those
  last milliseconds of commits *and* to a power failure at that moment — before, it was the
  same window minus one sync.

Several writes may share one sync; the file on disk then holds the slots as one of those
writes left them — each a checkpoint of a durable commit, or the newest torn and the other
whole: the states a crash could leave before. After each sync the thread rests
:data:`ANCHOR_SYNC_INTERVAL` (2 ms) before the next, so under a steady flow of commits one
sync covers the checkpoints of a few of them (issue 19: with a sync and a wake-up of the
thread per commit, 4 gRPC clients' single-event appends cost the server 624–653 µs of CPU
and 19–20 context switches each; with the rest, 541–600 µs and 16 — same runs, loaded
machine): the window above is then that rest plus a sync — still a few milliseconds.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import struct
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from eventlog.store.background import BackgroundThread

__all__ = ["Checkpoint", "CheckpointFile", "AnchorSync", "ANCHOR_SYNC_INTERVAL"]

_MAGIC = b"PAIPUCK1"
_BODY = struct.Struct(">8sQ32s32s")  # 80 bytes
_SLOT = 96
#: Seconds :class:`AnchorSync`'s thread rests after each sync (the module doc: the window it
#: leaves, the syncs and wake-ups it saves).
ANCHOR_SYNC_INTERVAL = 0.002


@dataclass(frozen=True)
class Checkpoint:
    """``position`` (0: empty log), ``log_hash`` (running hash up to it) and
    ``event_hash`` (the hash of the event at ``position``; "" when empty)."""

    position: int
    log_hash: str
    event_hash: str


def _encode(c: Checkpoint) -> bytes:
    body = _BODY.pack(
        _MAGIC,
        c.position,
        bytes.fromhex(c.log_hash),
        bytes.fromhex(c.event_hash) if c.event_hash else bytes(32),
    )
    return (body + struct.pack(">I", zlib.crc32(body))).ljust(_SLOT, b"\0")


def _decode(raw: bytes) -> Checkpoint | None:
    if len(raw) < _BODY.size + 4:
        return None
    body, (crc,) = raw[: _BODY.size], struct.unpack(">I", raw[_BODY.size : _BODY.size + 4])
    if zlib.crc32(body) != crc:
        return None
    magic, position, log_hash, event_hash = _BODY.unpack(body)
    if magic != _MAGIC:
        return None
    return Checkpoint(position, log_hash.hex(), event_hash.hex() if position else "")


class CheckpointFile:
    """The checkpoint file at ``path`` (opened, or created when ``create``)."""

    def __init__(self, path: str | Path, *, create: bool = False, read_only: bool = False) -> None:
        self.path = Path(path)
        flags = os.O_RDONLY if read_only else os.O_RDWR | (os.O_CREAT if create else 0)
        self._fd = os.open(self.path, flags, 0o644)
        self._slot = 0

    @staticmethod
    def exists(path: str | Path) -> bool:
        return Path(path).exists()

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Exclusive lock across processes (and across store objects in one process)."""
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self._fd, fcntl.LOCK_UN)

    def read(self) -> Checkpoint | None:
        """The newest valid checkpoint, or None when the file holds none."""
        raw = os.pread(self._fd, 2 * _SLOT, 0)
        found = [(c, i) for i in (0, 1) if (c := _decode(raw[i * _SLOT : (i + 1) * _SLOT])) is not None]
        if not found:
            return None
        best, slot = max(found, key=lambda x: x[0].position)
        self._slot = 1 - slot  # write the other slot next
        return best

    def write(self, c: Checkpoint) -> None:
        """Write ``c`` over the older slot and fsync (data only: the size never changes
        after the first write)."""
        self.put(c)
        self.sync()

    def put(self, c: Checkpoint) -> None:
        """Write ``c`` over the older slot, without syncing (call :meth:`sync` before
        acknowledging anything it covers). Only the newest write can be torn by a crash,
        and the other slot then holds the one before it."""
        os.pwrite(self._fd, _encode(c), self._slot * _SLOT)
        self._slot = 1 - self._slot

    def sync(self) -> None:
        """Make every write so far durable (``fdatasync``)."""
        os.fdatasync(self._fd)

    def initialise(self, c: Checkpoint) -> None:
        """Write both slots (a new file) and fsync the file and its directory."""
        data = _encode(c) * 2
        os.pwrite(self._fd, data, 0)
        os.fsync(self._fd)
        dir_fd = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
        self._slot = 0


class AnchorSync(BackgroundThread):
    """Makes the writes of a :class:`CheckpointFile` durable in a thread of its own, off the
    acknowledgement path (module doc: why that is safe). :meth:`written` after each write
    (it starts the thread on first use); :meth:`flush` waits for the syncs of the writes so
    far; after each sync the thread rests ``interval`` seconds (:data:`ANCHOR_SYNC_INTERVAL`);
    :meth:`close` (:class:`~eventlog.store.background.BackgroundThread`'s) makes every
    write so far durable — the thread syncs what is left before it ends — and ends it. A failed ``fdatasync`` is raised by the next :meth:`written` (once; the
    next write is synced again: each write holds the whole checkpoint)."""

    thread_name = "paipu-checkpoint-sync"

    def __init__(self, file: CheckpointFile, interval: float = ANCHOR_SYNC_INTERVAL) -> None:
        super().__init__()
        self._file = file
        self._interval = interval  # the rest after each sync (seconds)
        self._written = 0  # the newest position written
        self._attempted = 0  # the newest position a sync has started for
        self._synced = 0  # the newest position known durable
        self._failed: OSError | None = None
        self._syncing = False

    def written(self, position: int) -> None:
        """The checkpoint for ``position`` was written: sync it soon. Raises the OSError of
        an earlier sync that failed."""
        with self._cond:
            failed, self._failed = self._failed, None
            self._written = max(self._written, position)
            self._start()
            self._cond.notify_all()
        if failed is not None:
            raise failed

    def flush(self) -> int:
        """Wait until every write so far has had its sync; return the newest position
        known durable."""
        with self._cond:
            while self._alive() and (self._attempted < self._written or self._syncing):
                self._cond.wait()
            return self._synced

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._attempted >= self._written and not self._closing:
                    self._cond.wait()
                if self._attempted >= self._written:  # closing, and nothing left to sync
                    return
                target = self._attempted = self._written
                self._syncing = True
            try:
                self._file.sync()
            except (OSError, ValueError) as e:  # ValueError: the file was closed under it
                with self._cond:
                    self._failed = e if isinstance(e, OSError) else OSError(f"checkpoint sync: {e}")
            else:
                with self._cond:
                    self._synced = max(self._synced, target)
            finally:
                with self._cond:
                    self._syncing = False
                    self._cond.notify_all()
            # The rest: the writes made meanwhile wait for the next sync (a notify finds the
            # thread asleep here, not waiting on the condition: no wake-up for each write).
            time.sleep(self._interval)
