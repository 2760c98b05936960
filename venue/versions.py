"""Which version of Cego Club last brought a database up to date, and an older program's
refusal to touch a newer one.

The record is one row of the table ``venue_dataversion`` (``venue.models.DataVersion``): in the
database itself, so that the laptop's data folder, its backups (every format carries the row)
and a season server's PostgreSQL database all keep it. It is written once ``migrate`` has
brought the database up to date (``venue.receivers``, on ``post_migrate``: the venue's start, a
restore, a season server's update; a ``flush`` too), and only when it names another version (a
second start writes nothing).

Before anything else, the venue, ``migrate`` (``venue/management/commands/migrate.py``) and
every ``cego-club`` command on a data folder but ``backup`` and ``restore`` read what the
database holds (:func:`written`, on SQLite straight from the file with a
read-only connection of its own, before Django opens it: Django's connection would switch the
file to WAL mode) and refuse, in German naming both versions, when it was written by a newer
version (:func:`newer_data_problem`). Also refused, with DEBUG off (a venue, a server; not a
developer's database migrated on another branch): a database holding applied migrations this
program does not know (a newer build that kept the version number), said without a version.

A database without a record was written before 0.2.0 (or never migrated): it is older.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext

from cego_club import __version__ as PROGRAM_VERSION

TABLE = "venue_dataversion"
MIGRATIONS_TABLE = "django_migrations"


def release(version: str) -> tuple[int, ...]:
    """``"0.2.0"`` as ``(0, 2)``: the leading numbers, trailing zeros dropped (0.2 is 0.2.0);
    what follows them (``.dev1``, ``rc1``) is not compared."""
    match = re.match(r"\d+(?:\.\d+)*", version.strip())
    numbers = [int(part) for part in match.group().split(".")] if match else []
    while numbers and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def is_newer(version: str | None, than: str = PROGRAM_VERSION) -> bool:
    return version is not None and release(version) > release(than)


@dataclass(frozen=True)
class Written:
    """What a database says about the program that wrote it."""

    version: str | None = None  # None: no record (before 0.2.0, or a new database)
    applied: tuple[tuple[str, str], ...] = ()  # (app, migration) as django_migrations holds


def _read(cursor, tables: set[str]) -> Written:
    version = None
    if TABLE in tables:
        cursor.execute(f"SELECT version FROM {TABLE} WHERE id = 1")
        row = cursor.fetchone()
        version = row[0] if row else None
    applied: tuple[tuple[str, str], ...] = ()
    if MIGRATIONS_TABLE in tables:
        cursor.execute(f"SELECT app, name FROM {MIGRATIONS_TABLE}")
        applied = tuple((str(app), str(name)) for app, name in cursor.fetchall())
    return Written(version=version, applied=applied)


def written_in_file(path: Path) -> Written | None:
    """What the SQLite database ``path`` holds, read without changing it (None: no file; a
    connection would create one). The file is named to SQLite as a plain file name (never a
    URI: see ``venue.backups``), read with ``query_only`` and closed at once."""
    if not path.is_file():
        return None
    db = sqlite3.connect(path, timeout=20)
    try:
        db.execute("PRAGMA query_only = ON")
        cursor = db.cursor()
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        tables = {row[0] for row in cursor.fetchall()}
        return _read(cursor, tables)
    finally:
        db.close()


def _sqlite_file(connection) -> Path | None:
    name = str(connection.settings_dict["NAME"])
    if connection.vendor != "sqlite" or name == ":memory:" or name.startswith("file:"):
        return None
    return Path(name)


def written(connection=None) -> Written:
    """What the database of ``connection`` (default: Django's default) holds."""
    if connection is None:
        from django.db import connection
    path = _sqlite_file(connection)
    if path is not None:
        return written_in_file(path) or Written()
    with connection.cursor() as cursor:
        return _read(cursor, set(connection.introspection.table_names(cursor)))


def unknown_migrations(applied: Iterable[tuple[str, str]]) -> list[str]:
    """The applied migrations of this program's apps that its code does not have."""
    from django.apps import apps
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(None, ignore_no_migrations=True)
    known = set(loader.disk_migrations)
    for migration in loader.disk_migrations.values():
        known.update(migration.replaces)  # a squashed migration stands for those it replaces
    with_migrations = {app for app, _name in loader.disk_migrations}
    labels = {config.label for config in apps.get_app_configs()} & with_migrations
    return sorted(
        f"{app}.{name}" for app, name in applied if app in labels and (app, name) not in known
    )


def newer_data_problem(
    found: Written,
    *,
    program: str = PROGRAM_VERSION,
    unknown: list[str] | None = None,
    gettext: Callable[[str], str] = gettext,
) -> str | None:
    """The German refusal when ``found`` was written by a newer version than ``program``
    (``unknown``: its migrations this program lacks, where worked out), else None."""
    if is_newer(found.version, program):
        return gettext(
            "These data are from version %(data)s, this program is %(program)s: please start "
            "the newer version. Nothing was changed."
        ) % {"data": found.version, "program": program}
    if unknown:
        shown = ", ".join(unknown[:3]) + (" …" if len(unknown) > 3 else "")
        return gettext(
            "These data were written by a newer version of Cego Club than this program "
            "(%(program)s): it does not know their changes %(changes)s. Please start the "
            "newer version. Nothing was changed."
        ) % {"program": program, "changes": shown}
    return None


def refuse_newer_data(connection=None) -> None:
    """A ``CommandError`` (German, both versions named) before anything is written to a
    database that a newer version wrote; on SQLite the file is only read."""
    from django.conf import settings

    found = written(connection)
    # Unknown migrations only where data matter (a venue, a server: DEBUG off): a developer's
    # database migrated on another branch is Django's to report.
    unknown = [] if settings.DEBUG else unknown_migrations(found.applied)
    problem = newer_data_problem(found, unknown=unknown)
    if problem:
        raise CommandError(problem)


def newer_backup_problem(version: str | None) -> str | None:
    """The German refusal of a backup written by a newer version (its record's ``version``),
    else None: this program does not restore it."""
    if not is_newer(version):
        return None
    return gettext(
        "This backup is from version %(data)s, this program is %(program)s: restore it with "
        "the newer version. Nothing was changed."
    ) % {"data": version, "program": PROGRAM_VERSION}


def record(connection=None) -> bool:
    """Once ``migrate`` has brought the database up to date: this program's version in the
    record (only where it names another one: a second start writes nothing). Returns whether
    it wrote."""
    from django.db import connection as default
    from django.utils import timezone

    connection = connection or default
    with connection.cursor() as cursor:
        if TABLE not in set(connection.introspection.table_names(cursor)):
            return False  # migrated back to before the record
        cursor.execute(f"SELECT version FROM {TABLE} WHERE id = 1")
        row = cursor.fetchone()
        if row is not None and row[0] == PROGRAM_VERSION:
            return False
        now = timezone.now()
        if row is None:
            cursor.execute(
                f"INSERT INTO {TABLE} (id, version, written_at) VALUES (1, %s, %s)",
                [PROGRAM_VERSION, connection.ops.adapt_datetimefield_value(now)],
            )
        else:
            cursor.execute(
                f"UPDATE {TABLE} SET version = %s, written_at = %s WHERE id = 1",
                [PROGRAM_VERSION, connection.ops.adapt_datetimefield_value(now)],
            )
    return True
