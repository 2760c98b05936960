"""The Windows bundle (``make windows-bundle``) run under wine, as a club secretary uses it:
unzipped into a folder with spaces and umlauts, started with ``Cego Club starten.cmd`` on an
empty data folder (the user's documents), set up on the setup page, a tournament with players
(the bundle's ``cego-club.cmd shell``), its score sheets printed, a backup written and restored
on "another laptop" (a second data folder), all with the bundle's own Windows Python.

The bundle is ``WINDOWS_BUNDLE`` (.ci/run builds it first) or, without it, built here. One
wine prefix serves the whole module (wine's first start takes a while).
"""

from __future__ import annotations

import io
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest

from cego_club import __version__
from tests.conftest import require_tool
from tests.servers import ROOT, Phone, clean_env, http_get

# One worker holds the module (its wine prefix and bundle are built once), under xdist too.
pytestmark = [pytest.mark.wine, pytest.mark.xdist_group("windows_bundle")]

SEED = Path(__file__).with_name("windows_seed.py")
PASSWORD = "Turnier-Kennwort-7391"
# Wine 8 lacks propsys.VariantToString, which CPython 3.12's platform module reaches through
# _wmi (platform.system() aborts the process); without _wmi.pyd it asks the registry, as it
# does on Windows before 3.12. Real Windows has the function: the bundle keeps the file.
WINE_ONLY_REMOVED = "_wmi.pyd"


def windows_path(path: Path) -> str:
    return "Z:" + str(path).replace("/", "\\")


def linux_path(path: str) -> Path:
    assert path[:2].upper() == "Z:", path
    return Path(path[2:].replace("\\", "/"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def version() -> str:
    return __version__


@pytest.fixture(scope="module")
def bundle_zip(tmp_path_factory) -> Path:
    if os.environ.get("DATABASE_URL"):
        pytest.skip("the Windows bundle serves SQLite only: its smoke test runs in the SQLite run")
    require_tool("wine", "the Windows bundle's smoke test runs it under Debian's wine")
    given = os.environ.get("WINDOWS_BUNDLE")
    if given:
        return Path(given)
    require_tool("osslsigncode", "the bundle's build checks the PSF's signatures with it")
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, str(ROOT / "packaging" / "windows" / "build.py"), "--out", str(out)],
        check=True,
        timeout=1200,
    )
    return out / f"CegoClub-Windows-x64-{version()}.zip"


class Wine:
    def __init__(self, root: Path, bundle: Path) -> None:
        self.home = root / "home"  # wine links the user's Documents here
        self.prefix = root / "prefix"
        self.home.mkdir()
        self.bundle = bundle
        env = clean_env(
            WINEPREFIX=str(self.prefix),
            HOME=str(self.home),
            WINEDEBUG="-all",
            WINEDLLOVERRIDES="mscoree,mshtml=",  # no Mono or Gecko installer at wine's start
            LANG="C.UTF-8",  # arguments with umlauts reach Windows as typed
            CEGO_CLUB_BROWSER="none",  # the starter says it opens the browser, and does not
        )
        for name in ("DISPLAY", "WAYLAND_DISPLAY", "LC_ALL", "PYTHONPATH", "VIRTUAL_ENV"):
            env.pop(name, None)
        self.env = env

    def run(self, *args: str, stdin: str | None = None, timeout: float = 300) -> str:
        """A bundle command in a terminal opened in its folder (``cmd /c cego-club.cmd …``)."""
        result = subprocess.run(
            ["wine", "cmd", "/c", "cego-club.cmd", *args],
            cwd=self.bundle,
            env=self.env,
            input=stdin or "",  # a standard input wine can hand on
            stdout=subprocess.PIPE,  # wine 8 gives Python no stdout for a Linux file
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
        )
        assert result.returncode == 0, result.stdout
        return result.stdout

    def start(self, *args: str) -> tuple[subprocess.Popen, list[str]]:
        """The double-click: ``Cego Club starten.cmd`` (its output collected by a thread)."""
        process = subprocess.Popen(
            ["wine", "cmd", "/c", "Cego Club starten.cmd", *args],
            cwd=self.bundle,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        lines: list[str] = []
        threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True).start()
        return process, lines

    def stop_all(self) -> None:
        subprocess.run(["wineserver", "-k"], env=self.env, timeout=60, check=False)


@pytest.fixture(scope="module")
def wine(bundle_zip, tmp_path_factory):
    root = tmp_path_factory.mktemp("wine")
    folder = root / "Vereinsbüro Cego" / "Übung mit Leerzeichen"
    with zipfile.ZipFile(bundle_zip) as archive:
        archive.extractall(folder)
    bundle = folder / "Cego Club"
    (bundle / "Python" / WINE_ONLY_REMOVED).unlink()
    machine = Wine(root, bundle)
    yield machine
    machine.stop_all()


def table_count(database: Path, table: str) -> int:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_the_bundle_holds_windows_python_and_windows_wheels(bundle_zip):
    names = zipfile.ZipFile(bundle_zip).namelist()
    # python.exe at one path for every version (the firewall's rule names it), the program
    # of this version in its own folder
    python = "Cego Club/Python/"
    assert f"{python}python.exe" in names and "Cego Club/Cego Club starten.cmd" in names
    site = f"Cego Club/Programm-{version()}/site-packages/"
    # Resolved for Windows: Django's `tzdata; sys_platform == "win32"`, no gunicorn (POSIX)
    assert any(n.startswith(f"{site}tzdata/") for n in names)
    assert not any(n.startswith(f"{site}gunicorn") for n in names)
    assert any(n.startswith(f"{site}rapidfuzz/") and n.endswith(".pyd") for n in names)
    assert not any(n.endswith(".so") for n in names)  # no Linux wheel slipped in
    # What a laptop never uses is left out: PostgreSQL's driver, Redis's client, the
    # libraries' own tests (the venue starts without them: the test below)
    for unused in ("psycopg", "psycopg_binary", "redis"):
        assert not any(n.startswith(f"{site}{unused}") for n in names), unused
    assert not any("/tests/" in n for n in names)
    assert any(n.endswith("/locale/de/LC_MESSAGES/django.mo") for n in names)
    pth = zipfile.ZipFile(bundle_zip).read(f"{python}python312._pth").decode()
    assert "import site" in pth.splitlines()
    assert not any(n.startswith(f"{python}Lib/site-packages/") for n in names)
    starter = zipfile.ZipFile(bundle_zip).read("Cego Club/Cego Club starten.cmd").decode()
    assert f'"%~dp0Python\\python.exe" "%~dp0Programm-{version()}\\start.py"' in starter


def test_the_bundle_serves_a_tournament_day_under_wine(wine, tmp_path):
    # Nothing but the bundle: the starter, the terminal command and the program folder.
    assert (wine.bundle / "Cego Club starten.cmd").is_file()
    assert not (wine.bundle / "Daten").exists()
    # Two earlier versions unzipped here before: once this one has started, the older of
    # them goes, the one before this version stays.
    for earlier in ("Programm-0.0.1", "Programm-0.0.2"):
        (wine.bundle / earlier / "python").mkdir(parents=True)
        (wine.bundle / earlier / "python" / "python.exe").write_bytes(b"MZ")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    venue, output = wine.start("--port", str(port), "--bind", "127.0.0.1", "--no-qr")
    try:
        deadline = time.monotonic() + 400  # wine's first start and the first compile
        while not healthy(base):
            assert venue.poll() is None, "".join(output)
            assert time.monotonic() < deadline, "".join(output)
            time.sleep(1)
        # %LOCALAPPDATA%\Cego Club: a folder OneDrive never synchronises.
        found = list((wine.prefix / "drive_c" / "users").glob("*/AppData/Local/Cego Club"))
        assert len(found) == 1 and (found[0] / "db.sqlite3").is_file(), "".join(output)
        assert not (wine.home / "Cego Club").exists()  # Dokumente (wine links it to $HOME)
        text = "".join(output)
        # The backups where the secretary looks: Dokumente\Cego Club Sicherungen; no warning
        # about a synchronised folder.
        assert "Cego Club Sicherungen" in text and "synchronisiert" not in text, text
        assert "Cego Club läuft für den Turniertag" in text, text
        said = wait_for(output, "Der Browser wird geöffnet")
        assert f"Der Browser wird geöffnet: http://localhost:{port}/" in said, said
        said = wait_for(output, "Ältere Programmordner entfernt")
        assert "Ältere Programmordner entfernt: Programm-0.0.1" in said, said
        assert not (wine.bundle / "Programm-0.0.1").exists()
        assert (wine.bundle / "Programm-0.0.2" / "python" / "python.exe").is_file()

        status, home = http_get(f"{base}/")
        assert status == 200 and '<html lang="de"' in home
        # Said at once, before the minutes of the first start
        assert first_said(text).startswith("Cego Club startet …"), text

        # A second double-click while it runs: refused in German, on another port as well
        # (one venue per data folder); the first serves on.
        second, second_output = wine.start("--port", str(free_port()), "--bind", "127.0.0.1")
        second.wait(timeout=300)  # it stops (its `pause` reads the empty standard input)
        said = wait_for(second_output, "nichts verändert")
        assert first_said(said).startswith("Cego Club startet …"), said
        assert "Cego Club läuft schon mit diesem Datenordner" in said, said
        assert "Es ist erreichbar unter http://localhost:" in said, said
        assert healthy(base)

        # WeasyPrint cannot load Pango here: the German page, and no English banner in the
        # secretary's window.
        status, page = http_get(f"{base}/rules/swm/pdf/")
        assert status == 503 and "Dieses PDF kann auf diesem Computer nicht" in page, page[:500]
        assert "could not import some external libraries" not in "".join(output)

        # The first-time setup on the setup page (from this laptop: no code needed).
        desk = Phone("")
        status, _, page = desk.request(f"{base}/setup/")
        assert status == 200 and 'name="club_name"' in page, page[:500]
        status, location, page = desk.request(
            f"{base}/setup/",
            {
                "csrfmiddlewaretoken": desk._csrf(),
                "username": "orga",
                "password": PASSWORD,
                "password_again": PASSWORD,
                "club_name": "Cego-Freunde Überlingen",
                "club_short_name": "CFÜ",
                "club_town": "Überlingen",
            },
        )
        assert status == 302, page[:1000]

        # A tournament of eight players, round 1 drawn: the bundle's own shell.
        wine.env["CEGO_SEED"] = windows_path(SEED)
        seeded = wine.run(
            "shell",
            "-c",
            "import os; exec(open(os.environ['CEGO_SEED'], encoding='utf-8').read())",
        )
        tournament = int(seeded.split("TOURNAMENT=")[1].split()[0])

        with desk.opener.open(
            f"{base}/tournaments/{tournament}/rounds/1/print/score-sheets.pdf", timeout=300
        ) as response:
            pdf = response.read()
        assert pdf.startswith(b"%PDF-")
        from pypdf import PdfReader

        sheets = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
        assert "Frühjahrsturnier Überlingen" in sheets and "Bäumer" in sheets, sheets[:500]

        # The spectators' pages from the venue's second process (venue/spectators.py: spawned
        # as on Windows, connections handed over with socket.share): a reader without a
        # session is served there, and the desk's signed-in page by the first.
        said = wait_for(output, "zweiter Prozess", seconds=120)
        assert "Die Zuschauerseiten beantwortet jetzt ein zweiter Prozess" in said, said
        status, page = http_get(f"{base}/tournaments/{tournament}/standings/")
        assert status == 200 and "Frühjahrsturnier Überlingen" in page, page[:500]
        status, _, page = desk.request(f"{base}/tournaments/{tournament}/")
        assert status == 200 and "Frühjahrsturnier Überlingen" in page, page[:500]

        # A backup into a folder named as people name them, restored on "another laptop".
        backups = tmp_path / "Sicherung Ä Turnier 2"
        backups.mkdir()
        written = wine.run("backup", "--output", windows_path(backups))
        backup = linux_path(written.strip().splitlines()[-1].strip())
        assert backup.parent == backups and backup.is_file(), written
        second = tmp_path / "Zweiter Laptop"
        restored = wine.run("restore", windows_path(backup), "--data", windows_path(second))
        database = second / "db.sqlite3"
        assert table_count(database, "tournaments_tournament") == 1, restored
        assert table_count(database, "tournaments_entry") == 8, restored
        assert table_count(database, "auth_user") == 1, restored
    finally:
        wine.stop_all()
        venue.wait(timeout=60)


def healthy(base: str) -> bool:
    try:
        return http_get(f"{base}/health/", timeout=5)[0] == 200
    except OSError:
        return False


def first_said(output: str) -> str:
    """The first line the bundle printed (wine's own notes about its prefix left out)."""
    lines = [line for line in output.splitlines() if line.strip() and not line.startswith("wine:")]
    return lines[0] if lines else ""


def wait_for(output: list[str], words: str, seconds: float = 30) -> str:
    deadline = time.monotonic() + seconds
    while words not in "".join(output) and time.monotonic() < deadline:
        time.sleep(0.5)
    return "".join(output)
