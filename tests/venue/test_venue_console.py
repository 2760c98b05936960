"""The venue command as typed: a wrong --port is refused, --help writes nothing, and its
output survives any console: a Windows code page (cp1252), a log file, a pipe."""

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import segno

from tests.servers import ROOT, clean_env, free_port
from venue.environment import lan_address


def typed(*args: str, cwd: Path, cego_club: bool = False) -> subprocess.CompletedProcess:
    """``manage.py venue …`` (or ``cego-club venue …``) typed in the folder ``cwd``."""
    program = ["-m", "cego_club"] if cego_club else [str(ROOT / "manage.py")]
    return subprocess.run(
        [sys.executable, *program, *args],
        cwd=cwd,
        env=clean_env(PYTHONPATH=str(ROOT)),
        capture_output=True,
        text=True,
        timeout=90,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("port", ["99999", "0", "-1", "acht"])
def test_a_port_that_is_none_is_refused_and_nothing_is_written(tmp_path, port):
    done = typed("venue", f"--port={port}", cwd=tmp_path)
    assert done.returncode == 2
    assert (
        f"„{port}“ ist kein Port: Geben Sie eine Zahl von 1 bis 65535 an, z. B. --port 8000."
        in done.stderr
    )
    assert "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []  # no venue-data/


def test_help_writes_nothing(tmp_path):
    for cego_club in (False, True):
        done = typed("venue", "--help", cwd=tmp_path, cego_club=cego_club)
        assert done.returncode == 0, done.stderr
        assert "--port PORT" in done.stdout and "--data DATA" in done.stdout
        assert list(tmp_path.iterdir()) == []
    done = typed("venue", "--port", "99999", cwd=tmp_path, cego_club=True)
    assert done.returncode == 2 and "ist kein Port" in done.stderr
    assert list(tmp_path.iterdir()) == []


def read_until(stream, pattern: str, process: subprocess.Popen, timeout: float = 120) -> str:
    """What ``stream`` (a pipe or a terminal) shows until ``pattern`` appears."""
    chunks: list[str] = []
    regex = re.compile(pattern)

    def reader():
        while True:
            try:
                data = os.read(stream, 4096)
            except OSError:
                return
            if not data:
                return
            chunks.append(data.decode("cp1252", errors="replace"))

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = "".join(chunks).replace("\r\n", "\n")
        if regex.search(text):
            return text
        if process.poll() is not None:
            time.sleep(0.5)
            raise AssertionError(f"the venue stopped:\n{''.join(chunks)}")
        time.sleep(0.2)
    raise AssertionError(f"no {pattern!r} in:\n{''.join(chunks)}")


def start(data: Path, *, stdout: int, **env: str) -> subprocess.Popen:
    """The venue on every network of the laptop (so with its QR code), its output in cp1252
    (a Windows console's code page, or a log file's) into ``stdout``."""
    return subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "venue", "--data", str(data)]
        + ["--port", str(free_port()), "--bind", "0.0.0.0"],
        cwd=data.parent,
        env=clean_env(
            DJANGO_SETTINGS_MODULE="cego_club.settings", PYTHONIOENCODING="cp1252", **env
        ),
        stdout=stdout,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


SETUP_DONE = r"--create-organiser"  # the last line the venue prints before it serves


@pytest.mark.servers
def test_into_a_pipe_in_cp1252_the_address_alone_and_no_crash(tmp_path):
    """A folder name outside the code page ("Łódź") is written with "?", the QR code is left
    out (a pipe or a log file is no screen to scan), the address is there. The folder lies in
    what OneDrive syncs: a warning."""
    data = tmp_path / "Turnier Łódź ✓"
    read_end, write_end = os.pipe()
    process = start(data, stdout=write_end, OneDrive=str(tmp_path))
    os.close(write_end)
    try:
        text = read_until(read_end, SETUP_DONE, process)
        assert process.poll() is None  # still serving
    finally:
        stop(process)
        os.close(read_end)
    assert "UnicodeEncodeError" not in text and "Traceback" not in text
    assert f"Datenordner: {tmp_path / 'Turnier ?ód? ?'}" in text
    lan = lan_address()
    if lan:
        assert re.search(rf"(?m)^    http://{re.escape(lan)}:\d+/$", text)
    assert "##" not in text and "\u2588" not in text  # no QR code
    assert (
        f"WARNUNG: Der Datenordner {tmp_path / 'Turnier ?ód? ?'} liegt in einem Ordner, den "
        "OneDrive synchronisiert." in text
    )


@pytest.mark.servers
def test_a_cp1252_console_gets_the_qr_code_in_ascii(tmp_path):
    lan = lan_address()
    if lan is None:
        pytest.skip("this machine has no network address besides loopback (no QR code)")
    import pty

    console, terminal = pty.openpty()
    process = start(tmp_path / "Turnier", stdout=terminal)
    os.close(terminal)
    try:
        text = read_until(console, SETUP_DONE, process)
        assert process.poll() is None
    finally:
        stop(process)
        os.close(console)
    url = re.search(rf"(?m)^    (http://{re.escape(lan)}:\d+/)$", text).group(1)
    art = [line for line in text.splitlines() if line and set(line) <= {"#", " "}]
    # The code printed is the address's: dark modules blank, light ones "##", 4 of quiet zone.
    expected = segno.make(url, error="m").matrix_iter(border=4)
    assert art == ["".join("  " if dark else "##" for dark in row) for row in expected]
