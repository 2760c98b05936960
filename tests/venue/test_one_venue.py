"""One venue per data folder (``venue/folder_lock.py``): a second venue on the same folder is
refused in German, whatever its port, before it changes anything, also while the first one is
still starting; a venue that crashed leaves no lock behind. And the venue's sockets are its
own (``venue.serving.exclusive_use``): on Windows no second program binds its port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.servers import ROOT, clean_env, free_port, http_get, start_venue
from venue import serving
from venue.folder_lock import LOCK_NAME, FolderInUse, FolderLock

pytestmark = pytest.mark.servers

REFUSAL = "Cego Club läuft schon mit diesem Datenordner"


@pytest.fixture
def venue_env():
    return clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings")


def second_venue(data: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """A second venue on ``data``, on a port of its own; one that started instead of being
    refused is stopped after a minute (and the test fails)."""
    command = [sys.executable, str(ROOT / "manage.py"), "venue", "--data", str(data)]
    command += ["--port", str(free_port()), "--bind", "127.0.0.1", "--no-qr"]
    try:
        return subprocess.run(
            command,
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as started:
        raise AssertionError(f"the second venue started: {started.stdout!r}") from None


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file in ``folder``: its size and modification time (nanoseconds)."""
    return {
        str(path.relative_to(folder)): (path.stat().st_size, path.stat().st_mtime_ns)
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_a_second_venue_on_the_same_data_folder_is_refused_in_german(tmp_path, venue_env):
    data = tmp_path / "Turniertag"
    with start_venue(data, log=tmp_path / "first.log", env=venue_env) as first:
        assert http_get(f"{first.url}/health/")[0] == 200
        before = snapshot(data)
        refused = second_venue(data, venue_env)
        assert refused.returncode != 0, refused.stdout
        said = refused.stdout + refused.stderr
        assert REFUSAL in said and str(data) in said, said
        assert "Es wurde nichts verändert." in said, said
        # The running venue's address, for the secretary who looks for it
        assert f"http://localhost:{first.url.rsplit(':', 1)[1]}/" in said, said
        assert snapshot(data) == before  # nothing migrated, collected or written
        assert http_get(f"{first.url}/health/")[0] == 200  # the first one serves on
        assert first.process.poll() is None


def test_a_venue_still_starting_refuses_the_second_before_it_migrates(tmp_path, venue_env):
    # The first start on a fresh laptop: the lock is taken, the database not yet made (as
    # while the first venue compiles and migrates for minutes).
    data = tmp_path / "Neu"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(data)],
        cwd=ROOT,
        env=clean_env(PYTHONPATH=str(ROOT)),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        refused = second_venue(data, venue_env)
        assert refused.returncode != 0, refused.stdout
        assert REFUSAL in refused.stderr, refused.stderr
        assert not (data / "db.sqlite3").exists()  # refused before migrating
    finally:
        holder.kill()
        holder.wait()


HOLD = """
import sys, time
from pathlib import Path
from venue.folder_lock import FolderLock
lock = FolderLock(Path(sys.argv[1])).acquire()
print("held", flush=True)
time.sleep(300)
"""


def test_a_crashed_venue_leaves_no_lock_behind(tmp_path, venue_env):
    data = tmp_path / "Absturz"
    first = start_venue(data, log=tmp_path / "first.log", env=venue_env)
    os.kill(first.process.pid, signal.SIGKILL)  # no finally, no atexit: as a power cut
    first.process.wait()
    assert (data / LOCK_NAME).exists()  # the file stays; its lock went with the process
    with start_venue(data, log=tmp_path / "again.log", env=venue_env) as again:
        assert http_get(f"{again.url}/health/")[0] == 200


def test_the_lock_is_held_until_released(tmp_path):
    lock = FolderLock(tmp_path).acquire()
    try:
        with pytest.raises(FolderInUse) as busy:
            FolderLock(tmp_path).acquire()  # another open of the file: refused, as another process
        assert busy.value.holder == {"pid": os.getpid()}
        lock.note(url="http://localhost:8000/")
        with pytest.raises(FolderInUse) as busy:
            FolderLock(tmp_path).acquire()
        assert busy.value.holder["url"] == "http://localhost:8000/"
    finally:
        lock.release()
    FolderLock(tmp_path).acquire().release()


class RecordingSocket:
    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def setsockopt(self, *args: object) -> None:
        self.calls.append(("setsockopt", *args))


def test_on_windows_the_venue_binds_its_port_exclusively(monkeypatch):
    monkeypatch.setattr(socket, "SO_EXCLUSIVEADDRUSE", -5, raising=False)  # Windows' value
    windows = RecordingSocket()
    serving.exclusive_use(windows, windows=True)  # type: ignore[arg-type]
    assert windows.calls == [("setsockopt", socket.SOL_SOCKET, -5, 1)]
    posix = RecordingSocket()
    serving.exclusive_use(posix, windows=False)  # type: ignore[arg-type]
    assert posix.calls == [("setsockopt", socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)]


def test_the_venue_listens_on_its_own_bound_sockets():
    taken = serving.listening_sockets(host="127.0.0.1", port=0)
    try:
        (sock,) = taken
        port = sock.getsockname()[1]
        sock.listen()
        with pytest.raises(OSError):
            serving.listening_sockets(host="127.0.0.1", port=port)
    finally:
        for sock in taken:
            sock.close()
    deadline = time.monotonic() + 5
    while True:  # free again once closed
        try:
            for sock in serving.listening_sockets(host="127.0.0.1", port=port):
                sock.close()
            break
        except OSError:
            assert time.monotonic() < deadline
            time.sleep(0.1)
