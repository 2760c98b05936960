"""The program's version and the data's (``venue/versions.py``): ``cego-club --version``, the
record ``migrate`` keeps of the version that wrote a database, and an older program's refusal
of newer data: at once, in German, naming both versions, changing nothing."""

from __future__ import annotations

import gzip
import json
import os
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from django.core.management import call_command

from cego_club import __version__
from tests.servers import ROOT, clean_env
from venue import backups, versions
from venue.backups import BackupError


def _next_minor(version: str) -> str:
    major, minor = (int(part) for part in version.split(".")[:2])
    return f"{major}.{minor + 1}.0"


NEWER = _next_minor(__version__)  # a version after this one, whatever this one is
RELEASES = ROOT / "tests" / "upgrades" / "releases"
REFUSAL = (
    f"Diese Daten sind von Version {NEWER}, dieses Programm ist {__version__}: bitte die neuere "
    "Version starten. Es wurde nichts verändert."
)


def run(*args: str, cwd: Path, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env=clean_env(PYTHONPATH=str(ROOT), **extra),
        capture_output=True,
        text=True,
        timeout=120,  # a venue that started instead of refusing fails here, not in 5 minutes
        stdin=subprocess.DEVNULL,
    )


def test_the_version_is_written_once_and_printed(tmp_path):
    done = run("-m", "cego_club", "--version", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"cego-club {__version__}\n"
    assert list(tmp_path.iterdir()) == []
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "cego_club.__version__"}
    assert f"## {__version__}" in (ROOT / "CHANGELOG.md").read_text()


@pytest.mark.parametrize(
    ("older", "newer"),
    [("0.1.0", "0.2.0"), ("0.2.0", "0.10.0"), ("0.2.9", "1.0"), ("0.2", "0.2.1")],
)
def test_release_numbers_compare_as_numbers(older, newer):
    assert versions.is_newer(newer, older) and not versions.is_newer(older, newer)
    assert not versions.is_newer(older, older)


def test_equal_releases_are_not_newer():
    assert not versions.is_newer("0.2.0", "0.2")
    assert not versions.is_newer("0.2.0.dev1", "0.2.0")
    assert not versions.is_newer(None, "0.2.0")  # no record: before 0.2.0


@pytest.fixture(scope="module")
def migrated(tmp_path_factory) -> Path:
    if os.environ.get("DATABASE_URL"):
        pytest.skip("a laptop's data folder is SQLite: the SQLite run tests it")
    """A data folder as this version leaves it after its first start on the oldest release's
    data (tests/upgrades/releases): migrated, its version recorded."""
    folder = tmp_path_factory.mktemp("migrated") / "Turnier #2 Daten"
    folder.mkdir()
    oldest = min(RELEASES.iterdir(), key=lambda p: versions.release(p.name))
    (folder / "db.sqlite3").write_bytes(gzip.decompress((oldest / "venue.sqlite3.gz").read_bytes()))
    done = run("-m", "cego_club", "migrate", "--data", str(folder), "-v", "0", cwd=folder.parent)
    assert done.returncode == 0, done.stderr
    return folder


def recorded(database: Path) -> list[tuple]:
    db = sqlite3.connect(database)
    try:
        return db.execute("SELECT id, version, written_at FROM venue_dataversion").fetchall()
    finally:
        db.close()


def copy_of(folder: Path, target: Path) -> Path:
    target.mkdir(parents=True)
    for name in ("db.sqlite3", "secret_key"):
        (target / name).write_bytes((folder / name).read_bytes())
    return target


def test_migrate_records_the_version_and_a_second_start_writes_nothing(migrated, tmp_path):
    ((one, version, written_at),) = recorded(migrated / "db.sqlite3")  # 0.1.0 kept none
    assert (one, version) == (1, __version__)
    folder = copy_of(migrated, tmp_path / "wieder")
    again = run("-m", "cego_club", "migrate", "--data", str(folder), "-v", "0", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert recorded(folder / "db.sqlite3") == [(1, __version__, written_at)]

    older = copy_of(migrated, tmp_path / "älter")
    with sqlite3.connect(older / "db.sqlite3") as db:
        db.execute("UPDATE venue_dataversion SET version = '0.1.5'")
    db.close()
    upgraded = run("-m", "cego_club", "migrate", "--data", str(older), "-v", "0", cwd=tmp_path)
    assert upgraded.returncode == 0, upgraded.stderr
    ((_one, version, newer_stamp),) = recorded(older / "db.sqlite3")
    assert version == __version__ and newer_stamp > written_at


def newer_copy(
    migrated: Path,
    target: Path,
    *,
    version: str | None = NEWER,
    migration=None,
    journal: str = "DELETE",
):
    """A copy of ``migrated`` as a newer version would leave it: its record (and maybe a
    migration this program lacks), in rollback-journal mode (Django's connection would switch
    it to WAL: the bytes would change) unless ``journal`` says WAL (as a venue leaves it)."""
    copy_of(migrated, target)
    db = sqlite3.connect(target / "db.sqlite3")
    try:
        db.execute(f"PRAGMA journal_mode={journal}")
        if version is not None:
            db.execute("UPDATE venue_dataversion SET version = ?", [version])
        if migration is not None:
            db.execute(
                "INSERT INTO django_migrations (app, name, applied) VALUES (?, ?, ?)",
                [*migration, "2027-01-01 00:00:00"],
            )
        db.commit()
    finally:
        db.close()
    os.utime(target / "db.sqlite3", (1_700_000_000, 1_700_000_000))
    return target


def files_of(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {path.name: (path.read_bytes(), path.stat().st_mtime_ns) for path in folder.iterdir()}


def venue_env(folder: Path) -> dict[str, str]:
    """``manage.py`` as the venue configures it for the data folder (no cego-club in front)."""
    return {
        "SECRET_KEY_FILE": str(folder / "secret_key"),
        "SQLITE_PATH": str(folder / "db.sqlite3"),
        "SQLITE_WAL": "1",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "localhost",
    }


@pytest.mark.parametrize(
    "command",
    [
        ("-m", "cego_club", "venue", "--data", "{data}", "--port", "8123", "--no-qr"),
        ("-m", "cego_club", "migrate", "--data", "{data}"),
        ("-m", "cego_club", "import_players", "liste.csv", "--data", "{data}", "--commit"),
        (str(ROOT / "manage.py"), "venue", "--data", "{data}", "--port", "8123", "--no-qr"),
        (str(ROOT / "manage.py"), "migrate", "--no-input"),
    ],
    ids=["cego-club venue", "cego-club migrate", "cego-club import", "manage.py venue", "migrate"],
)
def test_an_older_program_refuses_newer_data_at_once_and_changes_nothing(
    migrated, tmp_path, command
):
    folder = newer_copy(migrated, tmp_path / f"Daten von {NEWER}")
    before = files_of(folder)
    args = [arg.replace("{data}", str(folder)) for arg in command]
    env = venue_env(folder) if "manage.py" in command[0] else {}
    done = run(*args, cwd=tmp_path, **env)
    assert done.returncode != 0
    assert REFUSAL in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert files_of(folder) == before  # the same files, bytes and times: no -wal, no -shm


@pytest.mark.parametrize(
    "command",
    [
        ("-m", "cego_club", "venue", "--data", "{data}", "--no-qr"),
        (str(ROOT / "manage.py"), "migrate"),
    ],
    ids=["cego-club venue", "migrate"],
)
def test_a_venue_s_wal_file_is_only_read_too(migrated, tmp_path, command):
    """In WAL mode, as a venue leaves its file: reading makes -wal and -shm beside it, and
    closing takes them away again; the file itself is not written."""
    folder = newer_copy(migrated, tmp_path / "Daten", journal="WAL")
    before = files_of(folder)
    assert set(before) == {"db.sqlite3", "secret_key"}
    args = [arg.replace("{data}", str(folder)) for arg in command]
    env = venue_env(folder) if "manage.py" in command[0] else {}
    done = run(*args, cwd=tmp_path, **env)
    assert done.returncode != 0 and REFUSAL in done.stderr, done.stderr
    assert files_of(folder) == before


def test_data_with_changes_this_program_does_not_know_are_refused(migrated, tmp_path):
    """A newer build that kept the version number: its migrations give it away."""
    folder = newer_copy(
        migrated, tmp_path / "daten", version=__version__, migration=("tournaments", "9999_later")
    )
    before = files_of(folder)
    done = run("-m", "cego_club", "migrate", "--data", str(folder), cwd=tmp_path)
    assert done.returncode != 0
    assert (
        f"Diese Daten hat eine neuere Version von Cego Club geschrieben als dieses Programm "
        f"({__version__}): Es kennt ihre Änderungen tournaments.9999_later nicht."
    ) in done.stderr, done.stderr
    assert files_of(folder) == before


def test_a_backup_and_a_restore_stay_possible_on_newer_data(migrated, tmp_path):
    folder = newer_copy(migrated, tmp_path / "daten")
    done = run(
        "-m", "cego_club", "backup", "--data", str(folder), "--output", str(tmp_path),
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert REFUSAL not in done.stderr


@pytest.mark.django_db(transaction=True)
def test_a_backup_of_a_newer_version_is_not_restored(migrated, tmp_path):
    newer = newer_copy(migrated, tmp_path / "neu")
    before = backups.row_counts()
    with pytest.raises(BackupError) as refused:
        backups.restore_database(path=newer / "db.sqlite3", force=True, allow_older=True)
    assert str(refused.value) == (
        f"Diese Sicherung ist von Version {NEWER}, dieses Programm ist {__version__}: bitte "
        "mit der neueren Version zurückholen. Es wurde nichts verändert."
    )
    assert backups.row_counts() == before


@pytest.mark.django_db(transaction=True)
def test_a_json_backup_names_its_version_and_a_newer_one_is_not_restored(tmp_path):
    call_command("migrate", verbosity=0)  # the record, as every database holds it
    path = backups.backup_database(output_dir=tmp_path, fmt="json")
    objects = json.loads(gzip.decompress(path.read_bytes()))
    (record,) = [item for item in objects if item["model"] == "venue.dataversion"]
    assert record["fields"]["version"] == __version__
    record["fields"]["version"] = NEWER
    objects.append({"model": "venue.sometable", "pk": 1, "fields": {}})  # a newer table
    newer = tmp_path / "neu.json.gz"
    newer.write_bytes(gzip.compress(json.dumps(objects).encode()))
    with pytest.raises(BackupError, match=f"Diese Sicherung ist von Version {NEWER}"):
        backups.restore_database(path=newer, force=True, allow_older=True)
