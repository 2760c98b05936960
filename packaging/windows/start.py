"""The Windows bundle's starter (``Cego Club starten.cmd`` and ``cego-club.cmd`` run it with the
bundle's own Python): finds the data folder, starts ``cego-club venue`` in this process and
opens the browser at the venue's address once it answers.

The data folder, where a club secretary looks for their files and where an update finds them:

1. ``CEGO_CLUB_DATA`` when set, or ``--data FOLDER`` on the command line;
2. a folder ``Daten`` beside ``Cego Club starten.cmd``, when there is one (a portable copy,
   e.g. on a USB stick: create the folder and the data stay with the program);
3. ``Dokumente\\Cego Club`` when it holds a database already (earlier versions kept the data
   there: an update finds it);
4. else ``Cego Club`` in the user's local application data (``%LOCALAPPDATA%\\Cego Club``):
   a folder OneDrive never synchronises (it often syncs ``Dokumente``, and a live database
   must not be synchronised), the same for every version unzipped anywhere.

The venue's backups go to ``Dokumente\\Cego Club Sicherungen`` unless ``--backup-dir`` is
given: where a secretary looks for files, and a finished backup copied by OneDrive is welcome.

``cego-club.cmd ARGS`` (``--command`` first) runs any ``cego-club`` command on that folder.

The program of each version lives in its own folder ``Programm-<version>`` beside the one
``Python`` folder (``python.exe`` at one path for every version: the firewall's rule for it
survives an update). Once a venue started by this version answers, the starter removes the
older program folders but the newest of them (:func:`remove_older_programs`): the one before
stays, for a step back; a folder still in use (a terminal running its ``cego-club.cmd``) cannot
be renamed on Windows and is left whole for the next start.
"""

from __future__ import annotations

import os
import re
import shutil
import site
import subprocess
import sys
import threading
import time
import urllib.request
import webbrowser
from pathlib import Path

PROGRAM = Path(__file__).resolve().parent
BUNDLE = PROGRAM.parent
WINDOWS = os.name == "nt"
NO_DATA_OPTION = {"help", "-h", "--help", "--version"}
PROGRAM_FOLDER = re.compile(r"Programm-(\d+(?:\.\d+)*)")
# An older program folder is renamed to this first (Windows refuses while one of its files is
# open), then deleted; one left half-deleted is finished at the next start.
REMOVING = "Wird-entfernt-"
KEEP_OLDER = 1  # older program folders kept: the one before this version, for a step back
STARTING = (
    "Cego Club startet … Beim ersten Start nach dem Entpacken kann das einige Minuten dauern. "
    "Dieses Fenster bitte offen lassen: der Browser öffnet sich, sobald Cego Club bereit ist."
)


def program_version(name: str) -> tuple[int, ...] | None:
    """``Programm-0.10.2`` as (0, 10, 2); None for any other name."""
    match = PROGRAM_FOLDER.fullmatch(name)
    return tuple(int(part) for part in match.group(1).split(".")) if match else None


def older_programs(bundle: Path, current: Path, *, keep: int = KEEP_OLDER) -> list[Path]:
    """The program folders in ``bundle`` older than ``current`` but the ``keep`` newest of
    them (a newer one, or any other folder, is never touched)."""
    own = program_version(current.name)
    if own is None:
        return []  # not started from a bundle's program folder (a checkout, a test)
    older = sorted(
        (
            (version, folder)
            for folder in bundle.iterdir()
            if folder.is_dir()
            and (version := program_version(folder.name)) is not None
            and version < own
        ),
        reverse=True,
    )
    return [folder for _version, folder in older[keep:]]


def remove_older_programs(
    bundle: Path = BUNDLE, current: Path = PROGRAM, *, keep: int = KEEP_OLDER
) -> list[str]:
    """Remove the older program folders (:func:`older_programs`); returns the names removed.
    Each is renamed first: while a file in it is in use, Windows refuses, and the folder stays
    whole; the renamed one is deleted (what is left of it goes at the next start)."""
    removed = []
    for folder in older_programs(bundle, current, keep=keep):
        going = folder.with_name(REMOVING + folder.name)
        try:
            folder.rename(going)
        except OSError:
            continue  # in use: next time
        shutil.rmtree(going, ignore_errors=True)
        removed.append(folder.name)
    for leftover in bundle.glob(REMOVING + "*"):
        if leftover.is_dir():
            shutil.rmtree(leftover, ignore_errors=True)
    return removed


def use_program_packages(program: Path = PROGRAM) -> None:
    """This version's packages on the path (the shared Python's ._pth names none)."""
    packages = program / "site-packages"
    if packages.is_dir():
        site.addsitedir(str(packages))


def documents() -> Path:
    """The user's documents folder (where Explorer's "Dokumente" points, also when moved)."""
    if WINDOWS:
        import ctypes
        import uuid
        from ctypes import wintypes

        folder_id = uuid.UUID("{FDD39AD0-238F-46AF-ADB4-6C85480369C7}")  # FOLDERID_Documents
        guid = (ctypes.c_ubyte * 16).from_buffer_copy(folder_id.bytes_le)
        path = wintypes.LPWSTR()
        shell32 = ctypes.windll.shell32
        if shell32.SHGetKnownFolderPath(ctypes.byref(guid), 0, None, ctypes.byref(path)) == 0:
            try:
                return Path(path.value)
            finally:
                ctypes.windll.ole32.CoTaskMemFree(path)
    return Path.home() / "Documents"


def local_app_data() -> Path:
    """The user's local application data (``%LOCALAPPDATA%``): never roamed or synchronised."""
    if os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"])
    return Path.home() / "AppData" / "Local"


def data_folder() -> Path:
    if os.environ.get("CEGO_CLUB_DATA"):
        return Path(os.environ["CEGO_CLUB_DATA"])
    beside = BUNDLE / "Daten"
    if beside.is_dir():
        return beside
    earlier = documents() / "Cego Club"
    if (earlier / "db.sqlite3").is_file():
        return earlier
    return local_app_data() / "Cego Club"


def backup_folder() -> Path:
    return documents() / "Cego Club Sicherungen"


def option(args: list[str], name: str) -> str | None:
    for index, arg in enumerate(args):
        if arg == name and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "health/", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def open_browser_when_ready(url: str) -> None:
    def wait_and_open() -> None:
        for _attempt in range(600):
            if answers(url):
                print(f"Der Browser wird geöffnet: {url}", flush=True)
                if os.environ.get("CEGO_CLUB_BROWSER") != "none":
                    webbrowser.open(url)
                # This version started: the older program folders are not needed any more.
                removed = remove_older_programs()
                if removed:
                    print(f"Ältere Programmordner entfernt: {', '.join(removed)}", flush=True)
                return
            time.sleep(0.5)

    threading.Thread(target=wait_and_open, daemon=True).start()


def plain_output() -> None:
    """Output into a file or a pipe (not a console window) in UTF-8: the QR code's blocks and
    the umlauts exist in no Windows code page."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and not stream.isatty() and hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8", errors="replace")


def main(argv: list[str]) -> int:
    # The embeddable CPython writes no bytecode (its ._pth makes it isolated): then every start
    # compiles Django anew. The first start writes it beside the sources (where the folder is
    # writable; elsewhere Python skips writing), later starts read it.
    sys.dont_write_bytecode = False
    use_program_packages()
    plain_output()
    command_mode = bool(argv) and argv[0] == "--command"
    args = argv[1:] if command_mode else list(argv)
    double_click = not args or (args[0].startswith("-") and args[0] not in NO_DATA_OPTION)
    if double_click and not command_mode:
        args = ["venue", *args]  # a double-click, or options alone: the venue
    folder = data_folder()
    if args and args[0] not in NO_DATA_OPTION and option(args, "--data") is None:
        args = [args[0], "--data", str(folder), *args[1:]]
    # Backups into Dokumente only beside the hidden default folder (a portable copy, an earlier
    # version's folder in Dokumente or a folder given keep theirs in DATA\backups).
    chosen_data = option(args, "--data")
    default_data = chosen_data == str(folder) and folder == local_app_data() / "Cego Club"
    if args and args[0] == "venue" and option(args, "--backup-dir") is None and default_data:
        args = [args[0], "--backup-dir", str(backup_folder()), *args[1:]]
    # The commands the app prints: typed in a terminal opened in the bundle's folder.
    cmd = BUNDLE / "cego-club.cmd"
    try:
        typed = ".\\" + str(cmd.relative_to(Path.cwd()))
    except ValueError:
        typed = subprocess.list2cmdline([str(cmd)])
    os.environ.setdefault("CEGO_CLUB_COMMAND", typed)
    if args and args[0] == "venue" and "--create-organiser" not in args:
        # At once: the first start after unzipping compiles and migrates for minutes, and an
        # empty window invites a second double-click (refused: one venue per data folder).
        print(STARTING, flush=True)
        port = option(args, "--port") or "8000"
        url = f"http://localhost:{port}/"
        if answers(url):  # started twice: the first one serves already
            print(f"Cego Club läuft schon. Der Browser wird geöffnet: {url}", flush=True)
            if os.environ.get("CEGO_CLUB_BROWSER") != "none":
                webbrowser.open(url)
            return 0
        open_browser_when_ready(url)
    from cego_club.cli import main as cego_club

    try:
        return cego_club(args)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
