"""Backups: one consistent file while the server keeps writing; restore gives back every row
and refuses a database that holds data unless forced; venue mode backs up closed rounds."""

import shutil
import sqlite3
import threading
from contextlib import closing
from datetime import datetime
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone, translation

from clubs.models import Player
from tests.factories import PlayerFactory, TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tournaments.models import Deal, DealChange, Round, Tournament
from tournaments.services.phone_entry import enter_deal
from tournaments.services.round_state import set_round_state
from venue import backups

pytestmark = pytest.mark.django_db(transaction=True)

EINE = {"contract": "eine", "declarer": 2, "declarer_points": 41}


def native_format() -> str:
    if connection.vendor == "sqlite":
        return "sqlite"
    if not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.skip("pg_dump/pg_restore are not installed (Debian: postgresql-client)")
    return "pgdump"


@pytest.fixture
def played(django_user_model):
    """A round with deals, a correction's history, a closed round and an organiser."""
    organiser = django_user_model.objects.create_user("orga", password="x", is_staff=True)
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=24)
    tables = [seat_table(tournament=tournament, table_number=n) for n in (1, 2)]
    for table in tables:
        for number in range(1, 5):
            enter_deal(table=table, number=number, inputs=EINE, user=organiser)
    set_round_state(
        round=tables[0].round, state=Round.State.CLOSED, user=organiser, close_open=True
    )
    return tournament


def backup_command(output: Path, *extra: str) -> Path:
    out = StringIO()
    call_command("backup", "--output", str(output), *extra, stdout=out)
    return Path(out.getvalue().strip().splitlines()[-1])  # the path is the last line


@pytest.mark.parametrize("fmt", ["native", "json"])
def test_backup_then_restore_gives_back_every_row(played, tmp_path, fmt):
    extra = ("--format", "json") if fmt == "json" else ("--format", native_format())
    before = backups.row_counts()
    assert before["tournaments.deal"] == 8 and before["auth.user"] == 1
    path = backup_command(tmp_path, *extra)
    assert path.is_file() and path.parent == tmp_path
    assert not list(tmp_path.glob("*.part"))

    call_command("flush", interactive=False, verbosity=0)
    assert backups.database_is_empty()
    call_command("restore", str(path), stdout=StringIO())
    after = backups.row_counts()
    assert after == before
    assert Deal.objects.filter(status="confirmed").count() == 8


def test_restore_refuses_a_database_with_data_unless_forced(played, tmp_path):
    path = backup_command(tmp_path, "--format", native_format())
    PlayerFactory(last_name="Nachzügler")  # added after the backup (a row without a stamp)
    with pytest.raises(CommandError, match="nicht leer"):
        call_command("restore", str(path), stdout=StringIO())
    assert Player.objects.filter(last_name="Nachzügler").exists()  # nothing changed
    call_command("restore", str(path), "--force", stdout=StringIO())
    assert not Player.objects.filter(last_name="Nachzügler").exists()
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["orga"]
    assert Deal.objects.count() == 8


def restore_command(path: Path, *extra: str) -> str:
    out = StringIO()
    try:
        call_command("restore", str(path), *extra, stdout=out)
    finally:
        restore_command.output = out.getvalue()
    return out.getvalue()


def figures(output: str) -> dict[str, list[str]]:
    """The restore's table of both sides: first word of a line → its figures."""
    lines = [line.split("  ") for line in output.splitlines()]
    return {
        parts[0].strip(): [p.strip() for p in parts[1:] if p.strip()]
        for parts in lines
        if parts[0].strip()
    }


def shown_time(text: str) -> datetime:
    return timezone.make_aware(datetime.strptime(text, "%d.%m.%Y %H:%M:%S"))


@pytest.mark.parametrize("fmt", ["native", "json"])
def test_restore_force_says_what_it_replaces_and_refuses_an_older_backup(played, tmp_path, fmt):
    """Over a database with newer data, --force alone shows both sides and changes nothing;
    --allow-older restores all the same."""
    extra = ("--format", "json") if fmt == "json" else ("--format", native_format())
    path = backup_command(tmp_path, *extra)
    backed_up = timezone.localtime().replace(microsecond=0)
    later = TournamentFactory(rules_slug="swm")  # a second tournament after the backup
    enter_deal(table=seat_table(tournament=later, table_number=1), number=1, inputs=EINE)
    before = backups.row_counts()
    with translation.override("de"), pytest.raises(CommandError, match="--allow-older") as no:
        restore_command(path, "--force")
    assert "älter als die Daten" in str(no.value)
    assert backups.row_counts() == before  # nothing changed
    shown = figures(restore_command.output)
    head = restore_command.output.splitlines()[0]
    assert head.strip().split("  ")[0] == "Jetzt in der Datenbank"
    assert head.endswith("In der Sicherung")
    assert shown["Turniere"] == ["2", "1"]
    assert shown["Spieler"] == ["12", "8"]
    assert shown["Spiele"] == ["9", "8"]
    now, held = (shown_time(text) for text in shown["Letzte Änderung"])
    assert held <= backed_up <= now

    restore_command(path, "--force", "--allow-older")
    assert Deal.objects.count() == 8
    assert not Tournament.objects.filter(pk=later.pk).exists()


@pytest.mark.parametrize("fmt", ["native", "json"])
def test_restore_force_of_a_backup_as_new_as_the_data_needs_no_more(played, tmp_path, fmt):
    extra = ("--format", "json") if fmt == "json" else ("--format", native_format())
    path = backup_command(tmp_path, *extra)
    with translation.override("de"):
        output = restore_command(path, "--force")
    shown = figures(output)
    assert shown["Spiele"] == ["8", "8"] and shown["Turniere"] == ["1", "1"]
    assert shown["Letzte Änderung"][0] == shown["Letzte Änderung"][1] != "–"
    assert Deal.objects.count() == 8


def test_restore_refuses_a_file_that_is_no_backup(db, tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("hello")
    with pytest.raises(CommandError, match="ist keine Sicherung von Cego Club"):
        call_command("restore", str(junk), stdout=StringIO())
    with pytest.raises(CommandError, match="gibt es nicht"):
        call_command("restore", str(tmp_path / "missing.sqlite3"), stdout=StringIO())


@pytest.mark.parametrize("requested", ["native", "json"])
def test_backup_while_deals_keep_arriving_is_consistent(tmp_path, requested):
    """A writer keeps entering deals while the backup runs: the backup holds whole deals,
    each with its history row, and nothing half-written. The JSON format too, the fallback
    without pg_dump: it once read table after table, and a deal entered in between left a
    history row without its deal (the restore then failed on the foreign key)."""
    fmt = native_format() if requested == "native" else "json"
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=24)
    tables = [seat_table(tournament=tournament, table_number=n) for n in range(1, 5)]
    stop = threading.Event()

    def writer():
        try:
            for number in range(1, 25):
                for table in tables:
                    if stop.is_set():
                        return
                    enter_deal(table=table, number=number, inputs=EINE)
        finally:
            connection.close()

    thread = threading.Thread(target=writer)
    thread.start()
    paths = [backups.backup_database(output_dir=tmp_path, fmt=fmt) for _ in range(3)]
    stop.set()
    thread.join(timeout=60)
    for path in paths:  # each older than the deals entered after it
        call_command("restore", str(path), "--force", "--allow-older", stdout=StringIO())
        assert Deal.objects.count() == DealChange.objects.filter(action="created").count()
        if fmt == "sqlite":
            with closing(sqlite3.connect(path)) as db:
                assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_venue_mode_backs_up_each_closed_round_keeping_ten(played, tmp_path, settings):
    usb = tmp_path / "usb"
    settings.VENUE_BACKUP_DIR = str(usb)
    round_ = Round.objects.get(tournament=played, number=1)
    organiser = get_user_model().objects.get(username="orga")
    for attempt in range(12):
        set_round_state(
            round=round_, state=Round.State.PLAYING, user=organiser, reason=f"{attempt}"
        )
        set_round_state(round=round_, state=Round.State.CLOSED, user=organiser, close_open=True)
    files = sorted(usb.iterdir())
    assert len(files) == backups.VENUE_KEEP == 10
    assert all(f.name.startswith(backups.VENUE_PREFIX) for f in files)
    # The newest holds the last close.
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(files[-1]), stdout=StringIO())
    assert Round.objects.get(pk=round_.pk).state == Round.State.CLOSED


def test_no_backup_without_a_venue_folder(played, tmp_path, settings):
    settings.VENUE_BACKUP_DIR = ""
    assert backups.venue_backup() is None


def test_a_missing_backup_folder_does_not_stop_the_round_closing(played, settings, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the USB stick's folder should be")
    settings.VENUE_BACKUP_DIR = str(blocker / "backups")
    round_ = Round.objects.get(tournament=played, number=1)
    organiser = get_user_model().objects.get(username="orga")
    set_round_state(round=round_, state=Round.State.PLAYING, user=organiser, reason="again")
    set_round_state(round=round_, state=Round.State.CLOSED, user=organiser, close_open=True)
    assert Round.objects.get(pk=round_.pk).state == Round.State.CLOSED


def test_a_json_dump_that_does_not_read_back_whole_is_no_backup(played, tmp_path, monkeypatch):
    """The file is parsed and counted before it gets its name: one that stops short (a full
    disk, a killed writer) is an error, and no file is left behind."""

    def cut_short(name, *args, stdout, **kwargs):
        stdout.write('[{"model": "tournaments.deal", "pk": 1, "fields": {}}')  # no closing ]

    monkeypatch.setattr(backups, "call_command", cut_short)
    with pytest.raises(backups.BackupError, match="cannot be read back"):
        backups.backup_database(output_dir=tmp_path, fmt="json")
    assert list(tmp_path.iterdir()) == []


def test_a_json_dump_missing_rows_is_no_backup(played, tmp_path, monkeypatch):
    real = backups.call_command

    def without_changes(name, *args, exclude, **kwargs):
        real(name, *args, exclude=[*exclude, "tournaments.dealchange"], **kwargs)

    monkeypatch.setattr(backups, "call_command", without_changes)
    with pytest.raises(backups.BackupError, match="differs from the database"):
        backups.backup_database(output_dir=tmp_path, fmt="json")
    assert list(tmp_path.iterdir()) == []


def test_an_sqlite_copy_with_a_dangling_reference_is_no_backup(played, tmp_path, monkeypatch):
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite format backs up SQLite databases only")
    real_copy = backups._sqlite_copy

    def copy_then_break(source, target):
        real_copy(source, target)
        # Closed, not only committed: Windows deletes no file a connection holds open (and
        # a sqlite3 connection lives on in a reference cycle until the garbage collector).
        with closing(sqlite3.connect(target)) as db, db:  # foreign keys off in a plain one
            db.execute("UPDATE tournaments_dealchange SET deal_id = 999999")

    monkeypatch.setattr(backups, "_sqlite_copy", copy_then_break)
    with pytest.raises(backups.BackupError, match="point at rows it does not hold"):
        backups.backup_database(output_dir=tmp_path, fmt="sqlite")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("damage", ["truncated", "foreign"])
def test_restore_checks_a_json_backup_whole_before_touching_the_database(played, tmp_path, damage):
    """A cut-off copy (a USB stick pulled too early) or some other gzipped JSON: a plain
    error naming the file, and the database keeps everything it held."""
    import gzip

    good = backups.backup_database(output_dir=tmp_path, fmt="json")
    bad = tmp_path / f"{damage}.json.gz"
    if damage == "truncated":
        bad.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    else:
        with gzip.open(bad, "wt") as handle:
            handle.write('{"spieler": ["Hans", "Eva"]}')
    before = backups.row_counts()
    with pytest.raises(CommandError, match=bad.name):
        call_command("restore", str(bad), "--force", stdout=StringIO())
    assert backups.row_counts() == before


def folder_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))}


def test_restore_is_refused_while_a_venue_runs_on_the_data_folder(played, tmp_path):
    """A restore into the data folder a venue serves from would swap the database under the
    running day: refused in German, the database and the folder unchanged (the venue holds
    the folder's lock, venue/folder_lock.py); once the venue has stopped it restores."""
    from venue.folder_lock import FolderLock

    path = backup_command(tmp_path / "sicherungen", "--format", native_format())
    data = tmp_path / "Turniertag"
    running = FolderLock(data).acquire()  # as `cego-club venue --data Turniertag` holds it
    running.note(url="http://localhost:8123/")
    PlayerFactory(last_name="Nachzügler")  # entered after the backup
    before, files = backups.row_counts(), folder_files(data)
    try:
        with translation.override("de"), pytest.raises(CommandError) as refused:
            restore_command(path, "--force", "--allow-older", "--data", str(data))
    finally:
        running.release()
    said = str(refused.value)
    assert "läuft gerade mit diesem Datenordner" in said and str(data) in said, said
    assert "http://localhost:8123/" in said and "Es wurde nichts verändert." in said, said
    assert backups.row_counts() == before
    assert Player.objects.filter(last_name="Nachzügler").exists()
    assert folder_files(data) == files

    restore_command(path, "--force", "--allow-older", "--data", str(data))
    assert not Player.objects.filter(last_name="Nachzügler").exists()
    FolderLock(data).acquire().release()  # the restore let go of the lock


def test_a_venue_starting_during_a_restore_finds_the_folder_taken(played, tmp_path, monkeypatch):
    from venue.folder_lock import FolderInUse, FolderLock

    path = backup_command(tmp_path / "sicherungen", "--format", native_format())
    data = tmp_path / "Turniertag"
    data.mkdir()
    replace = backups._replace_database
    seen = []

    def replacing(*args, **kwargs):
        with pytest.raises(FolderInUse):
            FolderLock(data).acquire()
        seen.append("replaced")
        return replace(*args, **kwargs)

    monkeypatch.setattr(backups, "_replace_database", replacing)
    restore_command(path, "--force", "--data", str(data))
    assert seen == ["replaced"]
    FolderLock(data).acquire().release()  # and let go of it afterwards


def test_a_refused_restore_leaves_no_lock_file_in_the_data_folder(played, tmp_path):
    data = tmp_path / "Turniertag"
    data.mkdir()
    junk = tmp_path / "notes.sqlite3"
    junk.write_text("hello")
    with pytest.raises(CommandError, match="ist keine Sicherung von Cego Club"):
        restore_command(junk, "--force", "--data", str(data))
    with pytest.raises(CommandError, match="nicht leer"):
        restore_command(backup_command(tmp_path, "--format", native_format()), "--data", str(data))
    assert list(data.iterdir()) == []
