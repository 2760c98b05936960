"""Backups of the whole database, taken while the server keeps writing, and restores.

Formats, chosen by the database and the tools at hand:
- SQLite (venue mode): SQLite's online backup API copies the database as one consistent
  snapshot into a ``.sqlite3`` file, which is itself a working database.
- PostgreSQL with ``pg_dump`` installed: ``pg_dump -Fc`` (one consistent snapshot, restored
  with ``pg_restore``). The client must be at least as new as the server.
- Anywhere else (or ``--format json``): Django's ``dumpdata`` as gzipped JSON with natural
  keys, restored with ``loaddata`` into a migrated database. Portable across databases but
  slower. ``dumpdata`` reads table after table, so it reads one snapshot: on PostgreSQL one
  REPEATABLE READ transaction, on SQLite one read transaction (writers go on in WAL mode, the
  venue's).

Every file is read back before it gets its final name: SQLite's integrity and foreign-key
checks on the copy, ``pg_restore --list`` on the dump, and the JSON parsed whole with its
objects counted against the snapshot it came from.
"""

from __future__ import annotations

import gzip
import json
import logging
import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import DatabaseError, connection, connections, transaction
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

SQLITE_SUFFIX = ".sqlite3"
PGDUMP_SUFFIX = ".pgdump"
JSON_SUFFIX = ".json.gz"
# Rows that migrate creates by itself: a database holding only these counts as empty.
SETUP_MODELS = {"contenttypes.contenttype", "auth.permission", "sessions.session"}
VENUE_PREFIX = "cego-round-closed-"
VENUE_KEEP = 10


class BackupError(Exception):
    pass


def _engine() -> str:
    return connection.vendor  # "sqlite" or "postgresql"


def _stamp() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S-%f")


def choose_format(requested: str = "auto") -> str:
    if requested != "auto":
        return requested
    if _engine() == "sqlite":
        return "sqlite"
    if _engine() == "postgresql" and shutil.which("pg_dump"):
        return "pgdump"
    return "json"


def _pg_args_env() -> tuple[list[str], dict[str, str]]:
    db = connection.settings_dict
    args = []
    if db.get("HOST"):
        args += ["-h", str(db["HOST"])]
    if db.get("PORT"):
        args += ["-p", str(db["PORT"])]
    if db.get("USER"):
        args += ["-U", str(db["USER"])]
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return args, env


def _sqlite_path() -> str:
    return str(connection.settings_dict["NAME"])


def _sqlite_copy(source_path: str, target_path: Path) -> None:
    """One consistent copy by SQLite's online backup API (writers are not held up)."""
    source = sqlite3.connect(source_path, timeout=30)
    target = sqlite3.connect(target_path)
    try:
        with target:
            source.backup(target)  # one step: a consistent snapshot
    finally:
        target.close()
        source.close()


def _check_sqlite_file(path: Path) -> None:
    """The copy is a sound database whose every reference points at a row it holds."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        if db.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            raise BackupError(f"{path.name}: the copy fails SQLite's integrity check.")
        broken = db.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise BackupError(
                f"{path.name}: {len(broken)} rows of the copy point at rows it does not hold "
                f"(first: table {broken[0][0]})."
            )
    finally:
        db.close()


def _dumpdata(handle) -> dict[str, int]:
    """Write the JSON dump to ``handle``; return its objects per model, counted in the same
    snapshot (the caller's transaction)."""
    call_command(
        "dumpdata",
        natural_foreign=True,
        natural_primary=True,
        exclude=sorted(SETUP_MODELS),
        stdout=handle,
        verbosity=0,
    )
    counts = {}
    for model in apps.get_models():
        label = model._meta.label_lower
        if label in SETUP_MODELS or model._meta.proxy:
            continue
        number = model._default_manager.count()  # as dumpdata reads it
        if number:
            counts[label] = number
    return counts


def _json_snapshot(handle) -> dict[str, int]:
    """The whole database as JSON from one snapshot, while the server keeps writing."""
    if connection.in_atomic_block:  # the caller's transaction is the snapshot already
        return _dumpdata(handle)
    if _engine() == "postgresql":
        with transaction.atomic():
            with connection.cursor() as cursor:
                # First statement of the transaction: every table is read as of this moment.
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            return _dumpdata(handle)
    if _engine() != "sqlite":
        return _dumpdata(handle)
    # SQLite: a read transaction sees one snapshot. Django's atomic() would begin it
    # IMMEDIATE (the write lock, settings: transaction_mode) and hold every phone up for the
    # whole dump, so this one read transaction is begun DEFERRED on the connection itself.
    connection.ensure_connection()
    raw = connection.connection
    raw.execute("BEGIN DEFERRED")
    try:
        return _dumpdata(handle)
    finally:
        raw.execute("ROLLBACK")  # read only: nothing to keep


def _check_json_file(path: Path, expected: dict[str, int]) -> None:
    """The dump parses whole and holds, per model, as many objects as the snapshot did."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            objects = json.load(handle)
    except (OSError, EOFError, ValueError) as error:
        raise BackupError(
            f"{path.name}: the JSON written cannot be read back ({error})."
        ) from error
    found: dict[str, int] = {}
    for item in objects:
        found[item["model"]] = found.get(item["model"], 0) + 1
    if found != expected:
        differ = sorted(
            set(found) ^ set(expected) | {m for m in found if found[m] != expected.get(m)}
        )
        raise BackupError(
            f"{path.name}: the JSON read back differs from the database ({differ[:3]})."
        )


def backup_database(*, output_dir: Path, prefix: str = "cego-", fmt: str = "auto") -> Path:
    """Write one consistent backup file into ``output_dir`` and return its path.

    The file appears under its final name only when complete (written beside it, then
    renamed), so a folder of backups never holds half a file.
    """
    fmt = choose_format(fmt)
    output_dir.mkdir(parents=True, exist_ok=True)
    suffix = {"sqlite": SQLITE_SUFFIX, "pgdump": PGDUMP_SUFFIX, "json": JSON_SUFFIX}[fmt]
    final = output_dir / f"{prefix}{_stamp()}{suffix}"
    partial = final.with_name(final.name + ".part")
    try:
        if fmt == "sqlite":
            if _engine() != "sqlite":
                raise BackupError("The sqlite format backs up SQLite databases only.")
            _sqlite_copy(_sqlite_path(), partial)
            _check_sqlite_file(partial)
        elif fmt == "pgdump":
            if _engine() != "postgresql":
                raise BackupError("The pgdump format backs up PostgreSQL databases only.")
            args, env = _pg_args_env()
            command = ["pg_dump", "-Fc", "--no-owner", "-f", str(partial), *args]
            command.append(str(connection.settings_dict["NAME"]))
            done = subprocess.run(command, env=env, capture_output=True, text=True)
            if done.returncode != 0:
                raise BackupError(f"pg_dump failed: {done.stderr.strip()}")
            if shutil.which("pg_restore"):
                listed = subprocess.run(
                    ["pg_restore", "--list", str(partial)], capture_output=True, text=True
                )
                if listed.returncode != 0:
                    raise BackupError(
                        f"{final.name}: the dump cannot be read back: {listed.stderr.strip()}"
                    )
        elif fmt == "json":
            with gzip.open(partial, "wt", encoding="utf-8") as handle:
                expected = _json_snapshot(handle)
            _check_json_file(partial, expected)
        else:
            raise BackupError(f"Unknown backup format {fmt!r}.")
        partial.replace(final)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return final


def row_counts() -> dict[str, int]:
    """Rows per table of every model (including many-to-many tables) that exists."""
    tables = set(connection.introspection.table_names())
    counts = {}
    for model in apps.get_models(include_auto_created=True):
        table = model._meta.db_table
        if table in tables and table not in counts:
            counts[model._meta.label_lower] = model._base_manager.count()
    return counts


def database_is_empty() -> bool:
    try:
        counts = row_counts()
    except DatabaseError:
        return True
    return not any(n for label, n in counts.items() if label not in SETUP_MODELS)


def detect_format(path: Path) -> str:
    with open(path, "rb") as handle:
        head = handle.read(16)
    if head.startswith(b"SQLite format 3\x00"):
        return "sqlite"
    if head.startswith(b"PGDMP"):
        return "pgdump"
    if head.startswith(b"\x1f\x8b"):
        return "json"
    raise BackupError(f"{path} is not a backup this app wrote.")


def _check_json_backup(path: Path) -> None:
    """Read a JSON backup whole before the database is touched: it must parse and hold a
    list of objects of models this app has."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            objects = json.load(handle)
    except (OSError, EOFError, ValueError) as error:
        raise BackupError(
            f"{path.name} cannot be read whole ({error}): a copy cut short? Nothing was changed."
        ) from error
    known = {model._meta.label_lower for model in apps.get_models()}
    if not isinstance(objects, list) or not all(
        isinstance(item, dict) and item.get("model") in known and "fields" in item
        for item in objects
    ):
        raise BackupError(f"{path.name} is no backup of this app. Nothing was changed.")


def restore_database(*, path: Path, force: bool = False) -> str:
    """Bring the database back from ``path``; refuse a database that holds data unless forced.

    Returns the format restored. The database is migrated afterwards (a backup from an older
    version of the app gets the newer tables).
    """
    if not path.is_file():
        raise BackupError(f"{path} does not exist.")
    fmt = detect_format(path)
    if fmt == "json":
        _check_json_backup(path)
    if not force and not database_is_empty():
        raise BackupError(
            "The database is not empty; restoring would replace what it holds. "
            "Back it up first, then restore with --force."
        )
    if fmt == "sqlite":
        if _engine() != "sqlite":
            raise BackupError("An SQLite backup restores into an SQLite database only.")
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if source.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise BackupError(f"{path} is damaged (SQLite integrity check failed).")
            connections.close_all()
            target = sqlite3.connect(_sqlite_path(), timeout=30)
            try:
                source.backup(target)
            finally:
                target.close()
        finally:
            source.close()
    elif fmt == "pgdump":
        if _engine() != "postgresql":
            raise BackupError("A pg_dump backup restores into a PostgreSQL database only.")
        if not shutil.which("pg_restore"):
            raise BackupError("pg_restore is not installed (Debian: postgresql-client).")
        connections.close_all()
        args, env = _pg_args_env()
        command = [
            "pg_restore",
            "--clean",
            "--if-exists",
            "--no-owner",
            "--no-privileges",
            "--single-transaction",
            "--exit-on-error",
            *args,
            "-d",
            str(connection.settings_dict["NAME"]),
            str(path),
        ]
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise BackupError(f"pg_restore failed: {done.stderr.strip()}")
    else:
        call_command("migrate", interactive=False, verbosity=0)
        with transaction.atomic():
            if force:
                call_command("flush", interactive=False, verbosity=0)
            # loaddata reads .json.gz itself; a temporary copy keeps the name it needs.
            with tempfile.TemporaryDirectory() as folder:
                copy = Path(folder) / "backup.json.gz"
                shutil.copyfile(path, copy)
                call_command("loaddata", str(copy), verbosity=0)
    call_command("migrate", interactive=False, verbosity=0)
    return fmt


def prune(folder: Path, *, prefix: str, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` backups named ``prefix…`` in ``folder``."""
    ours = sorted(
        (p for p in folder.iterdir() if p.name.startswith(prefix) and not p.name.endswith(".part")),
        key=lambda p: p.name,
    )
    removed = ours[: max(len(ours) - keep, 0)]
    for old in removed:
        old.unlink(missing_ok=True)
    return removed


def backup_folder_problem() -> str | None:
    """Why the venue's backup folder cannot take a backup now, or None (also without one).

    The folder itself may be missing (it is created at the first backup), but not the place
    it would be created in: a USB stick that was pulled out (or never plugged in) leaves no
    folder where it was mounted, and a backup must not go to the laptop's disk instead.
    """
    folder = settings.VENUE_BACKUP_DIR
    if not folder:
        return None
    path = Path(folder)
    if path.is_dir():
        return (
            None
            if os.access(path, os.W_OK)
            else _("The backup folder %(folder)s cannot be written to.") % {"folder": path}
        )
    if path.exists() or not path.parent.is_dir():
        return _(
            "The backup folder %(folder)s is missing: is the USB stick plugged in? "
            "Rounds closed now are not backed up."
        ) % {"folder": path}
    return None


def venue_backup() -> Path | None:
    """A backup into the venue's backup folder (keeping the last ten). Never raises: a
    missing USB stick must not stop the round from closing; it is logged (on the venue's
    terminal) instead. Returns the file written, or None."""
    folder = settings.VENUE_BACKUP_DIR
    if not folder:
        return None
    problem = backup_folder_problem()
    if problem:
        log.error("%s", problem)
        return None
    try:
        path = backup_database(output_dir=Path(folder), prefix=VENUE_PREFIX)
        prune(Path(folder), prefix=VENUE_PREFIX, keep=VENUE_KEEP)
    except Exception:
        log.exception("The backup after closing a round failed (folder %s)", folder)
        return None
    log.warning(_("Backup saved: %(path)s"), {"path": path})
    return path


def backup_after_commit(*, on_done: Callable[[Path | None], None] | None = None) -> None:
    """Schedule a venue backup for when the current transaction has committed; ``on_done``
    then hears where it went (None: it failed, see :func:`backup_folder_problem`)."""
    if not settings.VENUE_BACKUP_DIR:
        return

    def run() -> None:
        path = venue_backup()
        if on_done is not None:
            on_done(path)

    transaction.on_commit(run)
