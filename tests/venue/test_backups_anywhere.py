"""Backups and restores through any folder name people give ('#', '%', '?', spaces, umlauts, a
long path); a damaged or foreign backup is a plain German message that changes nothing; a
restore that would leave fewer rows than the backup holds is an error; no files beside the
backups; a venue started once but holding nothing takes a restore without --force."""

import sqlite3
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from tests.servers import clean_env, manage
from tests.venue.test_backups import (  # noqa: F401 (fixture)
    backup_command,
    native_format,
    played,
    restore_command,
)
from tournaments.models import Deal
from venue import backups

pytestmark = pytest.mark.django_db(transaction=True)

LONG = "/".join(["Sicherungen vom Turniertag des Cego-Clubs Bräunlingen e.V. 2026"] * 5)
FOLDER_NAMES = [
    "Turnier #2",
    "Rabatt 100 %",
    "Wer? Wie? Was?",
    "Turnier 2026 mit Leerzeichen",
    "Müller Ärger Spaß",
    "#%?&=;+ #",
    LONG,  # over 260 characters, the old Windows limit
]


def only_sqlite() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite format backs up SQLite databases only")


def files_in(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes (a data folder as it is)."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.mark.parametrize("name", FOLDER_NAMES, ids=lambda n: n[:20])
def test_backup_and_restore_through_any_folder_name(played, tmp_path, name):  # noqa: F811
    folder = tmp_path.joinpath(*name.split("/"))
    assert len(str(folder)) > 260 or name != LONG
    before = backups.row_counts()
    path = backup_command(folder, "--format", native_format())
    assert sorted(folder.iterdir()) == [path]  # the backup alone, nothing beside it
    assert [p.name for p in tmp_path.iterdir()] == [name.split("/")[0]]  # no stray file
    call_command("flush", interactive=False, verbosity=0)

    output = restore_command(path)
    assert backups.row_counts() == before
    assert Deal.objects.count() == 8
    assert f"{path} zurückgeholt: Die Datenbank enthält jetzt 1 Turniere, 8 Spieler" in output
    assert sorted(folder.iterdir()) == [path]  # the restore left nothing beside it either


def test_a_restore_that_leaves_fewer_rows_than_the_backup_is_an_error(
    played,  # noqa: F811
    tmp_path,
    monkeypatch,
):
    """Whatever goes wrong while copying, a restore short of rows says so and puts the
    database back as it was; it never says "restored"."""
    only_sqlite()
    path = backups.backup_database(output_dir=tmp_path, fmt="sqlite")
    call_command("flush", interactive=False, verbosity=0)
    before = backups.row_counts()
    real_copy = backups._sqlite_copy

    def copy_losing_deals(source, target, **options):
        real_copy(source, target, **options)
        if Path(source).name == "backup.sqlite3":  # the backup into the database
            with sqlite3.connect(target) as db:
                db.execute(
                    "DELETE FROM tournaments_deal WHERE id IN (SELECT id FROM "
                    "tournaments_deal ORDER BY id LIMIT 3)"
                )

    monkeypatch.setattr(backups, "_sqlite_copy", copy_losing_deals)
    with pytest.raises(CommandError) as failed:
        restore_command(path)
    assert "weniger Zeilen als die Sicherung (tournaments_deal: 5 von 8)" in str(failed.value)
    assert "zurückgeholt" not in restore_command.output
    assert backups.row_counts() == before  # put back


def test_a_json_restore_short_of_rows_is_an_error_and_changes_nothing(
    played,  # noqa: F811
    tmp_path,
    monkeypatch,
):
    path = backups.backup_database(output_dir=tmp_path, fmt="json")
    before = backups.row_counts()
    real_rows = backups._json_rows

    def one_deal_more(objects):
        rows = real_rows(objects)
        rows["tournaments_deal"] += 1
        return rows

    monkeypatch.setattr(backups, "_json_rows", one_deal_more)
    with pytest.raises(CommandError, match="tournaments_deal: 8 von 9"):
        restore_command(path, "--force")
    assert backups.row_counts() == before  # the flush and the load were rolled back


def test_damaged_or_foreign_backups_change_no_data_folder_and_backups_leave_nothing_beside(
    played,  # noqa: F811
    tmp_path,
):
    """As an organiser types them (``manage.py restore --data DIR FILE``): a truncated copy,
    some other program's SQLite database and an empty file are each refused in German,
    without a traceback; a new data folder is not even made, one holding the day stays
    byte for byte as it was. The day's backups (of a live database, in WAL mode) are single
    self-contained files: no ``-wal``/``-shm`` beside them."""
    only_sqlite()
    usb = tmp_path / "USB Stick #1"
    good = backups.backup_database(output_dir=usb, fmt="sqlite")
    truncated = usb / "abgebrochen.sqlite3"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 3])
    foreign = usb / "fremd.sqlite3"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE notizen (text)")
        db.execute("INSERT INTO notizen VALUES ('Kuchen mitbringen')")
    empty = usb / "leer.sqlite3"
    empty.write_bytes(b"")
    messages = {
        truncated: "ist beschädigt oder unvollständig (eine abgebrochene Kopie?)",
        foreign: "ist eine SQLite-Datenbank, aber keine Sicherung von Cego Club",
        empty: "ist keine Sicherung von Cego Club. Nichts wurde geändert.",
    }
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings")

    day = tmp_path / "Turnier #2 Tag"
    done = manage("restore", "--data", str(day), str(good), env=env)
    assert done.returncode == 0, done.stderr
    for _ in range(2):  # a live database's backups: whole files, nothing beside them
        done = manage("backup", "--data", str(day), "--output", str(tmp_path / "Tag #2"), env=env)
        assert done.returncode == 0, done.stderr
    written = sorted((tmp_path / "Tag #2").iterdir())
    assert len(written) == 2 and all(p.suffix == ".sqlite3" for p in written)
    assert all(p.read_bytes()[18:20] == b"\x01\x01" for p in written)  # no write-ahead log

    before = files_in(day)
    for bad, message in messages.items():
        new = tmp_path / f"neuer Laptop {bad.stem}"
        done = manage("restore", "--data", str(new), str(bad), env=env)
        assert done.returncode == 1, done.stdout
        assert f"{bad} {message}" in done.stderr
        assert "Traceback" not in done.stderr
        assert not new.exists()
        done = manage("restore", "--data", str(day), "--force", str(bad), env=env)
        assert done.returncode == 1 and message in done.stderr
        assert files_in(day) == before
    assert sorted(usb.iterdir()) == sorted([good, *messages])  # nothing left beside them


def test_pruning_keeps_ten_backups_and_clears_what_sqlite_left_beside_old_ones(tmp_path):
    prefix = backups.VENUE_PREFIX
    names = [f"{prefix}20260301-1000{n:02}-000000.sqlite3" for n in range(12)]
    leftovers = [f"{names[5]}.part-wal", f"{names[5]}.part-shm", f"{names[11]}.part-shm"]
    writing = [f"{prefix}20260301-110000-000000.sqlite3.part"]  # a backup being written
    for name in [*names, *leftovers, *writing, f"{writing[0]}-journal", "notiz.txt"]:
        (tmp_path / name).write_bytes(b"x")
    backups.prune(tmp_path, prefix=prefix, keep=backups.VENUE_KEEP)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [*names[2:], *writing, f"{writing[0]}-journal", "notiz.txt"]
    )


def test_restore_onto_a_venue_started_once_needs_no_force(played, tmp_path):  # noqa: F811
    """The venue's first start leaves the first-time setup's code behind (and may leave an
    organiser's account): 0 tournaments, players and deals is nothing a restore would lose."""
    path = backup_command(tmp_path, "--format", native_format())
    before = backups.row_counts()
    call_command("flush", interactive=False, verbosity=0)
    call_command("setup_code", renew=True, if_open=True, stdout=StringIO())
    assert not backups.database_is_empty()

    output = restore_command(path)
    assert "zurückgeholt" in output
    assert backups.row_counts() == before


def test_the_refusal_over_a_day_s_data_is_german(played, tmp_path):  # noqa: F811
    path = backup_command(tmp_path, "--format", native_format())
    with pytest.raises(CommandError) as refused:
        restore_command(path)
    assert str(refused.value) == (
        "Die Datenbank ist nicht leer: Das Zurückholen würde ersetzen, was sie enthält. "
        "Nichts wurde geändert. Sichern Sie sie zuerst; dann holen Sie die Sicherung mit "
        "--force zurück."
    )


def test_a_long_windows_path_is_opened_in_its_extended_form():
    from pathlib import PureWindowsPath

    deep = PureWindowsPath("C:/Users/Anna/Dokumente", *["Sicherungen vom Turniertag"] * 10, "x")
    assert str(backups.long_path(deep, windows=True)) == "\\\\?\\" + str(deep)
    share = PureWindowsPath("//nas/cego", *["Sicherungen vom Turniertag"] * 10)
    assert str(backups.long_path(share, windows=True)) == "\\\\?\\UNC\\" + str(share)[2:]
    short = PureWindowsPath("E:/Sicherung/Turnier #2")
    assert backups.long_path(short, windows=True) == short
    assert backups.long_path(Path("/x" * 200), windows=False) == Path("/x" * 200)


def test_a_truncated_pg_dump_is_refused_and_changes_nothing(played, tmp_path):  # noqa: F811
    if connection.vendor != "postgresql":
        pytest.skip("a pg_dump backup restores into PostgreSQL only (the SQLite case: above)")
    native_format()  # skips without pg_dump/pg_restore
    good = backups.backup_database(output_dir=tmp_path, fmt="pgdump")
    cut = tmp_path / "abgebrochen.pgdump"
    cut.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    before = backups.row_counts()
    with pytest.raises(CommandError, match="abgebrochen.pgdump kann nicht gelesen werden"):
        restore_command(cut, "--force")
    assert "Traceback" not in restore_command.output
    assert backups.row_counts() == before
