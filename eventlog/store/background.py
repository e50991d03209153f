"""A store's background thread: one daemon thread, started on first use, that waits on a
condition for work and ends when the store closes.

The checkpoint file's syncs (:class:`eventlog.store.checkpoint.AnchorSync`) and SQLite's WAL
checkpoints (:class:`eventlog.store.sqlite.SqliteStore`) each run in one, off the path that
acknowledges an append."""

from __future__ import annotations

import threading


class BackgroundThread:
    """The shared part: ``_cond`` (the condition the work is asked for and waited on under),
    ``_closing`` (set by :meth:`close`; the thread's ``_run`` ends once it sees it and has
    finished what it must), :meth:`_start` (the thread, once, unless closing: call it holding
    ``_cond``) and :meth:`close`. A subclass defines ``_run``."""

    #: The thread's name (as ``threading`` shows it).
    thread_name = "paipu-background"

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._closing = False
        self._thread: threading.Thread | None = None

    def _run(self) -> None:
        raise NotImplementedError

    def _start(self) -> None:
        """Start the thread unless it runs already or the owner is closing (hold ``_cond``)."""
        if self._thread is None and not self._closing:
            self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
            self._thread.start()

    def _alive(self) -> bool:
        """Whether the thread was started and has not ended (hold ``_cond``)."""
        return self._thread is not None and self._thread.is_alive()

    def close(self) -> None:
        """Ask the thread to end and wait for it (idempotent)."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join()
