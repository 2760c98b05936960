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

A restore over a database that holds data first says what it would replace (tournaments,
players, deals and the newest change on each side, read from the file without touching the
database) and refuses a backup older than the data: one whose newest change is earlier than
the database's, unless told to (``allow_older``). "Changes" are the stamps the app writes by
itself: every date-time field set on saving (``auto_now``, ``auto_now_add``) or defaulting to
the moment of creation.
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
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import DatabaseError, connection, connections, models, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

SQLITE_SUFFIX = ".sqlite3"
PGDUMP_SUFFIX = ".pgdump"
JSON_SUFFIX = ".json.gz"
# Rows that migrate creates by itself: a database holding only these counts as empty.
SETUP_MODELS = {"contenttypes.contenttype", "auth.permission", "sessions.session"}
# What a restore shows of each side, by model (read by label: this module imports no area).
SUMMARY_MODELS = ("tournaments.tournament", "clubs.player", "tournaments.deal")
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


def _read_json_backup(path: Path) -> list[dict]:
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
    return objects


def _stamp_fields() -> dict[type[models.Model], list[models.Field]]:
    """Per model, the date-time fields the app fills in itself when a row is written."""
    found = {}
    for model in apps.get_models():
        if model._meta.proxy or model._meta.label_lower in SETUP_MODELS:
            continue
        stamps = [
            f
            for f in model._meta.concrete_fields
            if isinstance(f, models.DateTimeField)
            and (f.auto_now or f.auto_now_add or f.default is timezone.now)
        ]
        if stamps:
            found[model] = stamps
    return found


def _as_utc(value: str | datetime | None) -> datetime | None:
    """A stored stamp as an aware UTC time in whole milliseconds (the JSON format keeps no
    more), so that one moment read from the database and from any backup compares equal."""
    if value is None or value == "":
        return None
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    if moment.tzinfo is None:  # SQLite keeps UTC without an offset
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def _newest(*moments: datetime | None) -> datetime | None:
    return max((m for m in moments if m is not None), default=None)


@dataclass
class Summary:
    """What one side of a restore holds: rows of ``SUMMARY_MODELS`` and the newest change."""

    counts: dict[str, int] = field(default_factory=dict)
    newest: datetime | None = None

    def note(self, label: str, rows: int, *stamps: datetime | None) -> None:
        if label in SUMMARY_MODELS:
            self.counts[label] = self.counts.get(label, 0) + rows
        self.newest = _newest(self.newest, *stamps)


def database_summary() -> Summary:
    """The database as it is now (a missing table counts as empty)."""
    summary = Summary()
    tables = set(connection.introspection.table_names())
    stamps = _stamp_fields()
    for label in SUMMARY_MODELS:
        model = apps.get_model(label)
        if model._meta.db_table in tables:
            summary.note(label, model._base_manager.count())
    for model, fields in stamps.items():
        if model._meta.db_table in tables:
            newest = model._base_manager.aggregate(**{f.name: models.Max(f.name) for f in fields})
            summary.note("", 0, *(_as_utc(v) for v in newest.values()))
    return summary


def _summary_models() -> list[tuple[type[models.Model], list[models.Field]]]:
    """The models a summary reads: counted ones and those with stamps."""
    stamps = _stamp_fields()
    counted = [apps.get_model(label) for label in SUMMARY_MODELS]
    return [(m, stamps.get(m, [])) for m in dict.fromkeys([*counted, *stamps])]


def _sqlite_summary(path: Path) -> Summary:
    summary = Summary()
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        for model, fields in _summary_models():
            table = model._meta.db_table
            if table not in tables:
                continue
            columns = ", ".join(f'max("{f.column}")' for f in fields) or "NULL"
            row = db.execute(f'SELECT count(*), {columns} FROM "{table}"').fetchone()
            summary.note(model._meta.label_lower, row[0], *(_as_utc(v) for v in row[1:]))
    finally:
        db.close()
    return summary


def _json_summary(objects: list[dict]) -> Summary:
    summary = Summary()
    stamps = {m._meta.label_lower: [f.name for f in fields] for m, fields in _summary_models()}
    for item in objects:
        names = stamps.get(item["model"])
        if names is not None:
            summary.note(item["model"], 1, *(_as_utc(item["fields"].get(n)) for n in names))
    return summary


def _pgdump_summary(path: Path) -> Summary:
    """The rows of the tables a summary reads, as ``pg_restore`` writes them out (COPY text),
    without restoring anything."""
    chosen = _summary_models()
    by_table = {m._meta.db_table: (m, fields) for m, fields in chosen}
    command = ["pg_restore", "--data-only", "-f", "-"]
    for table in by_table:
        command += ["-t", table]
    done = subprocess.run([*command, str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{path.name} cannot be read: {done.stderr.strip()}")
    summary = Summary()
    lines = iter(done.stdout.splitlines())
    for line in lines:
        if not line.startswith("COPY "):
            continue
        table = line.split()[1].rsplit(".", 1)[-1].strip('"')
        columns = [
            c.strip().strip('"') for c in line[line.index("(") + 1 : line.index(")")].split(",")
        ]
        model, fields = by_table.get(table, (None, []))
        where = [columns.index(f.column) for f in fields]
        rows = 0
        for row in lines:
            if row == "\\.":
                break
            rows += 1
            values = row.split("\t")
            summary.note(
                "", 0, *(_as_utc(None if values[i] == "\\N" else values[i]) for i in where)
            )
        if model is not None:
            summary.note(model._meta.label_lower, rows)
    return summary


def backup_summary(path: Path, fmt: str, objects: list[dict] | None = None) -> Summary:
    """What the backup ``path`` holds, read from the file (``objects``: a JSON backup's,
    parsed already)."""
    if fmt == "sqlite":
        return _sqlite_summary(path)
    if fmt == "pgdump":
        return _pgdump_summary(path)
    return _json_summary(objects if objects is not None else _read_json_backup(path))


def _when(moment: datetime | None) -> str:
    if moment is None:
        return "–"
    local = timezone.localtime(moment)
    return f"{formats.date_format(local, 'SHORT_DATE_FORMAT')} {local:%H:%M:%S}"


def describe(now: Summary, held: Summary) -> str:
    """The two sides of a restore, one line per figure, for the terminal (German)."""
    rows = [
        ("", _("In the database now"), _("In the backup")),
        *(
            (word, str(now.counts.get(label, 0)), str(held.counts.get(label, 0)))
            for label, word in zip(
                SUMMARY_MODELS, (_("Tournaments"), _("Players"), _("Deals")), strict=True
            )
        ),
        (_("Last change"), _when(now.newest), _when(held.newest)),
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    return "\n".join(
        f"{a:<{widths[0]}}  {b:>{widths[1]}}  {c:>{widths[2]}}".rstrip() for a, b, c in rows
    )


def restore_database(
    *,
    path: Path,
    force: bool = False,
    allow_older: bool = False,
    say: Callable[[str], object] | None = None,
) -> str:
    """Bring the database back from ``path``; refuse a database that holds data unless forced,
    and a backup older than the database's data unless ``allow_older``.

    Over a database that holds data, ``say`` is told first what it holds and what the backup
    holds. Returns the format restored. The database is migrated afterwards (a backup from an
    older version of the app gets the newer tables).
    """
    if not path.is_file():
        raise BackupError(f"{path} does not exist.")
    fmt = detect_format(path)
    if fmt == "sqlite" and _engine() != "sqlite":
        raise BackupError("An SQLite backup restores into an SQLite database only.")
    if fmt == "pgdump":
        if _engine() != "postgresql":
            raise BackupError("A pg_dump backup restores into a PostgreSQL database only.")
        if not shutil.which("pg_restore"):
            raise BackupError("pg_restore is not installed (Debian: postgresql-client).")
    objects = _read_json_backup(path) if fmt == "json" else None
    if not database_is_empty():
        now, held = database_summary(), backup_summary(path, fmt, objects)
        if say is not None:
            say(describe(now, held))
        if not force:
            raise BackupError(
                "The database is not empty; restoring would replace what it holds. "
                "Back it up first, then restore with --force."
            )
        older = now.newest is not None and (held.newest is None or held.newest < now.newest)
        if older and not allow_older:
            raise BackupError(
                _(
                    "The backup is older than the data in the database: its last change is "
                    "%(backup)s, the database's %(database)s. Restoring it would lose what "
                    "came after. Nothing was changed. Back the database up first; to restore "
                    "this backup all the same, add --allow-older."
                )
                % {"backup": _when(held.newest), "database": _when(now.newest)}
            )
    if fmt == "sqlite":
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
