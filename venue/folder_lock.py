"""One venue per data folder: the file ``venue.lock`` in the data folder, locked by the running
venue for as long as its process lives.

A second ``cego-club venue`` on the same folder (a secretary's second double-click while the
first start still migrates and compiles, minutes on a fresh laptop) finds the lock taken and
is refused in German before it changes anything. The port alone did not stop it: on Windows a
socket with ``SO_REUSEADDR`` (waitress sets it) may bind a port another program listens on
(``venue.serving.listening_sockets`` binds with ``SO_EXCLUSIVEADDRUSE`` there now), and two
venues on two ports would both have served one database.

The lock is the operating system's, not the file's presence: ``fcntl.flock`` on POSIX,
``msvcrt.locking`` (``LockFile``) on Windows; both are released when the process ends however
it ends (a crash, a closed window, a power cut), so a stale file never blocks the next start.
The file is never deleted (a process could lock the old file while another creates a new
one). Its content, the running venue's process id and address, is for the refusal's message
only; on Windows the locked byte lies far beyond it, where reading is not blocked.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO

LOCK_NAME = "venue.lock"
# msvcrt.locking locks a byte range; Windows' locks are mandatory (a locked byte cannot be
# read), so the lock is on a byte past any content (locking beyond the end is allowed).
LOCKED_OFFSET = 1 << 30


class FolderInUse(Exception):
    """Another process holds the data folder's lock."""

    def __init__(self, path: Path, holder: dict) -> None:
        super().__init__(str(path))
        self.path = path
        self.holder = holder


def _try_lock(handle: IO[bytes]) -> bool:
    if os.name == "nt":
        import msvcrt

        handle.seek(LOCKED_OFFSET)
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            return False
        finally:
            handle.seek(0)
        return True
    import fcntl

    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def read_holder(path: Path) -> dict:
    """What the holding venue wrote into the lock file ({} when nothing readable)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class FolderLock:
    """The data folder's lock, held until :meth:`release` or the process's end."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / LOCK_NAME
        self.handle: IO[bytes] | None = None

    def acquire(self) -> FolderLock:
        """Take the lock or raise :class:`FolderInUse` (nothing else is touched)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+b")  # noqa: SIM115 - held for the venue's life
        if not _try_lock(handle):
            handle.close()
            raise FolderInUse(self.path, read_holder(self.path))
        self.handle = handle
        self.note()
        return self

    def note(self, **facts: object) -> None:
        """Write the holder's process id (and ``facts``, e.g. its address) into the file."""
        if self.handle is None:
            return
        text = json.dumps({"pid": os.getpid(), **facts}).encode()
        self.handle.seek(0)
        self.handle.truncate(0)
        self.handle.write(text)
        self.handle.flush()

    def release(self) -> None:
        if self.handle is not None:
            self.handle.close()  # closing releases flock and LockFile alike
            self.handle = None
