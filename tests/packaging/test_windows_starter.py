"""The Windows bundle's starter (``packaging/windows/start.py``), its logic on this machine:
once the new version's venue answers, it removes the older program folders but the newest of
them, never a newer one or anything else, and leaves a folder in use whole. (Under wine, with
the bundle itself: ``test_windows_bundle.py``.)"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tests.servers import ROOT

STARTER = ROOT / "packaging" / "windows" / "start.py"


@pytest.fixture(scope="module")
def start():
    spec = importlib.util.spec_from_file_location("cego_windows_start", STARTER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bundle_with(tmp_path: Path, *names: str) -> Path:
    bundle = tmp_path / "Cego Club"
    for name in names:
        (bundle / name).mkdir(parents=True)
        (bundle / name / "start.py").write_text("# a program\n")
    (bundle / "Cego Club starten.cmd").write_text("@echo off\n")
    return bundle


def names(bundle: Path) -> set[str]:
    return {path.name for path in bundle.iterdir()}


def test_program_folders_are_ordered_by_their_numbers(start):
    assert start.program_version("Programm-0.10.0") > start.program_version("Programm-0.9.3")
    assert start.program_version("Programm-0.2.0") == (0, 2, 0)
    for other in ("Python", "Daten", "Programm-", "Programm-0.2.0-alt", "programm-0.1.0"):
        assert start.program_version(other) is None


def test_after_a_start_the_older_programs_go_but_the_newest_of_them(start, tmp_path):
    bundle = bundle_with(
        tmp_path,
        "Programm-0.1.0",
        "Programm-0.1.5",
        "Programm-0.2.0",  # this version
        "Programm-0.10.0",  # newer: started from its own starter some day, left alone
        "Python",
        "Daten",
        "Wird-entfernt-Programm-0.0.9",  # half deleted at an earlier start
    )
    removed = start.remove_older_programs(bundle, bundle / "Programm-0.2.0")
    assert removed == ["Programm-0.1.0"]
    assert names(bundle) == {
        "Programm-0.1.5",
        "Programm-0.2.0",
        "Programm-0.10.0",
        "Python",
        "Daten",
        "Cego Club starten.cmd",
    }
    # Started again: nothing more to remove (the one before stays for a step back).
    assert start.remove_older_programs(bundle, bundle / "Programm-0.2.0") == []
    assert "Programm-0.1.5" in names(bundle)


def test_a_program_folder_in_use_is_left_whole(start, tmp_path, monkeypatch):
    bundle = bundle_with(
        tmp_path, "Programm-0.0.8", "Programm-0.1.0", "Programm-0.1.5", "Programm-0.2.0"
    )
    renaming = Path.rename

    def windows_rename(self, target):  # Windows: a folder holding an open file is not renamed
        if self.name == "Programm-0.0.8":
            raise PermissionError(32, "Der Prozess kann nicht auf die Datei zugreifen")
        return renaming(self, target)

    monkeypatch.setattr(Path, "rename", windows_rename)
    removed = start.remove_older_programs(bundle, bundle / "Programm-0.2.0")
    assert removed == ["Programm-0.1.0"]
    assert (bundle / "Programm-0.0.8" / "start.py").read_text() == "# a program\n"
    assert "Programm-0.1.5" in names(bundle)


def test_a_starter_outside_a_program_folder_removes_nothing(start, tmp_path):
    bundle = bundle_with(tmp_path, "Programm-0.1.0", "Programm-0.1.5", "windows")
    assert start.remove_older_programs(bundle, bundle / "windows", keep=0) == []
    assert {"Programm-0.1.0", "Programm-0.1.5"} <= names(bundle)


def test_the_program_s_own_packages_come_on_the_path(start, tmp_path, monkeypatch):
    program = tmp_path / "Programm-0.2.0"
    (program / "site-packages").mkdir(parents=True)
    monkeypatch.setattr(sys, "path", list(sys.path))
    start.use_program_packages(program)
    assert str(program / "site-packages") in sys.path


HOLD = """
import sys, time
from pathlib import Path
from venue.folder_lock import FolderLock
lock = FolderLock(Path(sys.argv[1])).acquire()
print("held", flush=True)
time.sleep(300)
"""


def test_a_second_double_click_says_at_once_that_it_starts_and_is_refused(tmp_path):
    """The secretary's second double-click while the first start still runs (it holds the
    data folder, answers no request yet): the window says at once that Cego Club starts, then
    why this one stops, in German; nothing is made in the data folder."""
    import subprocess

    from tests.servers import clean_env, free_port

    data = tmp_path / "Cego Club"
    env = clean_env(PYTHONPATH=str(ROOT), CEGO_CLUB_DATA=str(data), CEGO_CLUB_BROWSER="none")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(data)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        port = str(free_port())
        second = subprocess.run(
            [sys.executable, str(STARTER), "--port", port, "--bind", "127.0.0.1", "--no-qr"],
            cwd=tmp_path,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            timeout=60,
        )
    finally:
        holder.kill()
        holder.wait()
    lines = second.stdout.splitlines()
    assert second.returncode != 0, second.stdout
    assert lines[0].startswith("Cego Club startet …"), second.stdout
    assert "Cego Club läuft schon mit diesem Datenordner" in second.stdout
    assert not (data / "db.sqlite3").exists()
