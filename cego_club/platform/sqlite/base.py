"""Django's SQLite backend, with the writers of one process queued in the process.

Every transaction here begins ``BEGIN IMMEDIATE`` (settings: ``transaction_mode``), which
takes the database's one write lock. A thread that finds it taken is left to SQLite's busy
handler, which polls: it sleeps 1, 2, 5, 10, … and then 100 ms between tries, whether the
lock came free meanwhile or not. With forty phones entering and confirming beside a crowd
of spectators, py-spy found most of the venue's phone threads inside ``BEGIN IMMEDIATE``,
and with forty phones flat out the slowest deals took over two seconds (bench_entry).

So the threads of this process take a lock of the process's own first (one per database
file) and begin only once they hold it; it is handed on the moment the transaction commits
or rolls back (or its connection closes). SQLite's own lock still guards the file against
other processes (a backup, a second command), through its busy handler as before. A thread
that waits longer than the connection's ``timeout`` gets SQLite's own error, "database is
locked", as it would have from SQLite.
"""

from __future__ import annotations

import threading

from django.db import OperationalError
from django.db.backends.sqlite3 import base

_WRITE_LOCKS: dict[str, threading.Lock] = {}
_WRITE_LOCKS_GUARD = threading.Lock()
DEFAULT_TIMEOUT_SECONDS = 5.0  # sqlite3's own default, where the settings give none


def write_lock(name: str) -> threading.Lock:
    """This process's lock for the writers of the database file ``name``."""
    with _WRITE_LOCKS_GUARD:
        return _WRITE_LOCKS.setdefault(str(name), threading.Lock())


class DatabaseWrapper(base.DatabaseWrapper):
    held_write_lock: threading.Lock | None = None

    def _start_transaction_under_autocommit(self) -> None:
        if self.transaction_mode != "IMMEDIATE" or self.is_in_memory_db():
            super()._start_transaction_under_autocommit()
            return
        lock = write_lock(self.settings_dict["NAME"])
        timeout = self.settings_dict["OPTIONS"].get("timeout", DEFAULT_TIMEOUT_SECONDS)
        if not lock.acquire(timeout=timeout):
            raise OperationalError("database is locked")
        self.held_write_lock = lock
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_write_lock()
            raise

    def _release_write_lock(self) -> None:
        lock, self.held_write_lock = self.held_write_lock, None
        if lock is not None:
            lock.release()

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._release_write_lock()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._release_write_lock()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._release_write_lock()
