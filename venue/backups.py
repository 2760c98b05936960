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
import ntpath
import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import DatabaseError, connection, connections, models, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from venue.folder_lock import FolderInUse, FolderLock
from venue.versions import TABLE as VERSION_TABLE
from venue.versions import newer_backup_problem

log = logging.getLogger(__name__)

SQLITE_SUFFIX = ".sqlite3"
PGDUMP_SUFFIX = ".pgdump"
JSON_SUFFIX = ".json.gz"
# Rows that migrate creates by itself: a database holding only these counts as empty (the
# record of the version that migrated it too: venue.versions).
SETUP_MODELS = {
    "contenttypes.contenttype",
    "auth.permission",
    "sessions.session",
    "venue.dataversion",
}
# Of those, what a JSON backup carries all the same: which version wrote the data (a newer
# version's backup is then refused by name).
DUMPED_SETUP_MODELS = {"venue.dataversion"}
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


def _sqlite_copy(
    source_path: str | Path, target_path: Path, *, self_contained: bool = True
) -> None:
    """One consistent copy by SQLite's online backup API (writers are not held up).

    Both files are named to SQLite as plain file names, never as ``file:`` URIs (a URI built
    from a path is cut at its first '#' or '?'), and the copy keeps no write-ahead log: it is
    one self-contained file (no ``-wal``/``-shm`` beside it)."""
    source = sqlite3.connect(source_path, timeout=30)
    target = sqlite3.connect(target_path, timeout=30)
    try:
        with target:
            source.backup(target)  # one step: a consistent snapshot
        mode = target.execute("PRAGMA journal_mode").fetchone()[0]
        if self_contained and mode.lower() == "wal":
            target.execute("PRAGMA journal_mode=DELETE")
    finally:
        target.close()
        source.close()


def long_path(path: Path, *, windows: bool = os.name == "nt") -> Path:
    """``path`` as Windows opens it beyond 260 characters (the ``\\\\?\\`` form, which
    needs no registry setting), elsewhere and when short as it is."""
    text = str(path)
    if not windows or len(text) < 240 or text.startswith("\\\\?\\"):
        return path
    absolute = ntpath.abspath(text)
    if absolute.startswith("\\\\"):  # \\server\share\… → \\?\UNC\server\share\…
        return type(path)("\\\\?\\UNC\\" + absolute[2:])
    return type(path)("\\\\?\\" + absolute)


def _check_sqlite_file(path: Path, *, name: str) -> None:
    """The copy ``path`` (of the file ``name``) is a sound database whose every reference
    points at a row it holds."""
    db = sqlite3.connect(path)
    try:
        if db.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            raise BackupError(f"{name}: the copy fails SQLite's integrity check.")
        broken = db.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise BackupError(
                f"{name}: {len(broken)} rows of the copy point at rows it does not hold "
                f"(first: table {broken[0][0]})."
            )
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{name}: the copy cannot be read back ({error}).") from error
    finally:
        db.close()


def _dumpdata(handle) -> dict[str, int]:
    """Write the JSON dump to ``handle``; return its objects per model, counted in the same
    snapshot (the caller's transaction)."""
    call_command(
        "dumpdata",
        natural_foreign=True,
        natural_primary=True,
        exclude=sorted(SETUP_MODELS - DUMPED_SETUP_MODELS),
        stdout=handle,
        verbosity=0,
    )
    counts = {}
    for model in apps.get_models():
        label = model._meta.label_lower
        if (label in SETUP_MODELS and label not in DUMPED_SETUP_MODELS) or model._meta.proxy:
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
    suffix = {"sqlite": SQLITE_SUFFIX, "pgdump": PGDUMP_SUFFIX, "json": JSON_SUFFIX}[fmt]
    named = output_dir / f"{prefix}{_stamp()}{suffix}"  # as the organiser reads it
    final = long_path(named)
    final.parent.mkdir(parents=True, exist_ok=True)
    partial = final.with_name(final.name + ".part")
    try:
        if fmt == "sqlite":
            if _engine() != "sqlite":
                raise BackupError("The sqlite format backs up SQLite databases only.")
            # Made and checked in a scratch folder of this process (SQLite never sees the
            # backup folder's name, whatever its characters or length), then moved there.
            with tempfile.TemporaryDirectory(prefix="cego-backup-") as scratch:
                copy = Path(scratch) / "backup.sqlite3"
                _sqlite_copy(_sqlite_path(), copy)
                _check_sqlite_file(copy, name=final.name)
                size = copy.stat().st_size
                shutil.move(copy, partial)
            if partial.stat().st_size != size:
                raise BackupError(f"{final.name}: the copy was not written whole.")
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
    return named


def row_counts() -> dict[str, int]:
    """Rows per table of every model (including many-to-many tables) that exists."""
    tables = set(connection.introspection.table_names())
    counts, seen = {}, set()
    for model in apps.get_models(include_auto_created=True):
        table = model._meta.db_table
        if table in tables and table not in seen:
            seen.add(table)
            counts[model._meta.label_lower] = model._base_manager.count()
    return counts


def _database_missing() -> bool:
    """An SQLite database whose file is not there yet (a data folder no venue ever used), told
    without opening it: opening creates the file."""
    if _engine() != "sqlite":
        return False
    name = _sqlite_path()
    return name != ":memory:" and not name.startswith("file:") and not Path(name).exists()


def database_is_empty() -> bool:
    if _database_missing():
        return True
    try:
        counts = row_counts()
    except DatabaseError:
        return True
    return not any(n for label, n in counts.items() if label not in SETUP_MODELS)


def _main_tables() -> dict[str, str]:
    """The tables whose rows a backup carries, each with its model's label: every model's
    (many-to-many tables included) but the rows migrate makes by itself."""
    tables: dict[str, str] = {}
    for model in apps.get_models(include_auto_created=True):
        label = model._meta.label_lower
        if label not in SETUP_MODELS and not model._meta.proxy:
            tables.setdefault(model._meta.db_table, label)
    return tables


def _required_tables() -> set[str]:
    """Tables every database of this app has: a backup without them is some other program's."""
    return {
        "django_migrations",
        *(apps.get_model(label)._meta.db_table for label in SUMMARY_MODELS),
    }


def _cannot_read(path: Path, error: object) -> BackupError:
    return BackupError(
        _("%(file)s cannot be read (%(error)s). Nothing was changed.")
        % {"file": path, "error": error}
    )


def detect_format(path: Path) -> str:
    try:
        with open(long_path(path), "rb") as handle:
            head = handle.read(16)
    except OSError as error:
        raise _cannot_read(path, error) from error
    if head.startswith(b"SQLite format 3\x00"):
        return "sqlite"
    if head.startswith(b"PGDMP"):
        return "pgdump"
    if head.startswith(b"\x1f\x8b"):
        return "json"
    raise BackupError(
        _("%(file)s is not a backup of Cego Club. Nothing was changed.") % {"file": path}
    )


def _refuse_newer(version: object) -> None:
    """A backup whose record names a newer version than this program's is not restored."""
    problem = newer_backup_problem(version if isinstance(version, str) else None)
    if problem:
        raise BackupError(problem)


def _read_json_backup(path: Path) -> list[dict]:
    """Read a JSON backup whole before the database is touched: it must parse and hold a
    list of objects of models this app has."""
    try:
        with gzip.open(long_path(path), "rt", encoding="utf-8") as handle:
            objects = json.load(handle)
    except (OSError, EOFError, ValueError) as error:
        raise BackupError(
            _("%(file)s cannot be read whole (%(error)s): a copy cut short? Nothing was changed.")
            % {"file": path.name, "error": error}
        ) from error
    if isinstance(objects, list):  # a newer version's backup: said before its new tables
        _refuse_newer(
            next(
                (
                    item.get("fields", {}).get("version")
                    for item in objects
                    if isinstance(item, dict) and item.get("model") == "venue.dataversion"
                ),
                None,
            )
        )
    known = {model._meta.label_lower for model in apps.get_models()}
    if not isinstance(objects, list) or not all(
        isinstance(item, dict) and item.get("model") in known and "fields" in item
        for item in objects
    ):
        raise BackupError(
            _("%(file)s is not a backup of Cego Club. Nothing was changed.") % {"file": path}
        )
    return objects


def _json_rows(objects: list[dict]) -> dict[str, int]:
    """Rows per table a JSON backup brings (its objects; many-to-many links not counted)."""
    tables = {label: table for table, label in _main_tables().items()}
    rows: dict[str, int] = {}
    for item in objects:
        table = tables.get(item["model"])
        if table is not None:
            rows[table] = rows.get(table, 0) + 1
    return rows


def _read_sqlite_backup(copy: Path, *, path: Path) -> dict[str, int]:
    """Rows per table of the SQLite backup ``path`` (read from ``copy``, this process's own
    copy of it), once it has passed SQLite's integrity check and proved to be this app's."""
    damaged = _(
        "%(file)s is damaged or incomplete (a copy cut short?): SQLite cannot read it whole. "
        "Nothing was changed; take another backup."
    ) % {"file": path}
    try:
        db = sqlite3.connect(copy)
        try:
            if db.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise BackupError(damaged)
            kept = "SELECT name FROM sqlite_master WHERE type = 'table'"
            tables = {row[0] for row in db.execute(kept)}
            if VERSION_TABLE in tables:
                row = db.execute(f"SELECT version FROM {VERSION_TABLE} WHERE id = 1").fetchone()
                _refuse_newer(row[0] if row else None)
            if not _required_tables() <= tables:
                raise BackupError(
                    _(
                        "%(file)s is an SQLite database, but not a backup of Cego Club. "
                        "Nothing was changed."
                    )
                    % {"file": path}
                )
            return {
                table: db.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
                for table in _main_tables()
                if table in tables
            }
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        raise BackupError(damaged) from error


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
    db = sqlite3.connect(path)  # this process's copy of the backup (no URI: see _sqlite_copy)
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


def _read_pgdump(path: Path) -> tuple[Summary, dict[str, int]]:
    """What a pg_dump backup holds, from the rows ``pg_restore`` writes out (COPY text),
    without restoring anything: its summary, and its rows per table."""
    chosen = _summary_models()
    by_table = {m._meta.db_table: (m, fields) for m, fields in chosen}
    main = _main_tables()
    command = ["pg_restore", "--data-only", "-f", "-", str(path)]
    summary, rows_by_table = Summary(), {}
    newer_version = None  # the version its record names
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8"
    ) as process:
        lines = (line.rstrip("\n") for line in process.stdout)
        for line in lines:
            if not line.startswith("COPY "):
                continue
            table = line.split()[1].rsplit(".", 1)[-1].strip('"')
            columns = [
                c.strip().strip('"') for c in line[line.index("(") + 1 : line.index(")")].split(",")
            ]
            model, fields = by_table.get(table, (None, []))
            where = [columns.index(f.column) for f in fields]
            version_at = columns.index("version") if table == VERSION_TABLE else None
            rows = 0
            for row in lines:
                if row == "\\.":
                    break
                rows += 1
                if version_at is not None:
                    newer_version = row.split("\t")[version_at]
                if where:
                    values = row.split("\t")
                    summary.note(
                        "", 0, *(_as_utc(None if values[i] == "\\N" else values[i]) for i in where)
                    )
            if model is not None:
                summary.note(model._meta.label_lower, rows)
            rows_by_table[table] = rows
        error = process.stderr.read()
    if process.returncode == 0:
        _refuse_newer(newer_version)
    if process.returncode != 0:
        raise BackupError(
            _("%(file)s cannot be read: %(error)s Nothing was changed.")
            % {"file": path.name, "error": error.strip()}
        )
    if not _required_tables() - {"django_migrations"} <= set(rows_by_table):
        raise BackupError(
            _("%(file)s is not a backup of Cego Club. Nothing was changed.") % {"file": path}
        )
    return summary, {table: n for table, n in rows_by_table.items() if table in main}


def _pgdump_summary(path: Path) -> Summary:
    return _read_pgdump(path)[0]


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


def _table_rows(tables: Iterable[str]) -> dict[str, int]:
    """Rows per table of the database now (a table it lacks: 0)."""
    present = set(connection.introspection.table_names())
    rows = {}
    with connection.cursor() as cursor:
        for table in tables:
            if table in present:
                cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
                rows[table] = cursor.fetchone()[0]
            else:
                rows[table] = 0
    return rows


def _check_rows(held: dict[str, int], *, path: Path) -> None:
    """The database holds at least the rows the backup does, table by table."""
    now = _table_rows(held)
    short = {table: (now[table], n) for table, n in held.items() if now[table] < n}
    if short:
        shown = ", ".join(
            _("%(table)s: %(now)s of %(held)s") % {"table": table, "now": has, "held": n}
            for table, (has, n) in sorted(short.items())[:3]
        )
        raise BackupError(
            _(
                "Restoring %(file)s failed: the database then held fewer rows than the backup "
                "(%(tables)s)."
            )
            % {"file": path, "tables": shown}
        )


@contextmanager
def _put_back_on_failure(scratch: Path) -> Iterator[None]:
    """On SQLite: whatever fails inside, the database file is put back as it was, or removed
    again with the folders made for it where there was none, so a failed restore leaves the
    data folder as it found it. (PostgreSQL: one transaction, ``pg_restore
    --single-transaction`` or loaddata's.)"""
    if _engine() != "sqlite" or _sqlite_path() == ":memory:":
        yield
        return
    live = Path(_sqlite_path())
    connections.close_all()
    existed = live.exists()
    made = [folder for folder in (live.parent, *live.parent.parents) if not folder.exists()]
    saved = scratch / "before.sqlite3"
    if existed:
        _sqlite_copy(live, saved, self_contained=False)
    else:
        live.parent.mkdir(parents=True, exist_ok=True)
    try:
        yield
    except BaseException:
        connections.close_all()
        if existed:
            _sqlite_copy(saved, live, self_contained=False)
        else:
            for name in ("", "-wal", "-shm", "-journal"):
                live.with_name(live.name + name).unlink(missing_ok=True)
            for folder in made:  # the innermost first
                try:
                    folder.rmdir()
                except OSError:
                    break
        raise


def restore_database(
    *,
    path: Path,
    force: bool = False,
    allow_older: bool = False,
    say: Callable[[str], object] | None = None,
    folder: Path | None = None,
) -> Summary:
    """Bring the database back from ``path``; refuse a database that holds tournaments,
    players or deals unless forced, and a backup older than the database's data unless
    ``allow_older``.

    The backup is read whole and checked (SQLite's integrity check, this app's tables; a JSON
    backup parsed; a pg_dump read out by ``pg_restore``) and its rows counted before the
    database is touched; a restore that leaves fewer rows in any table is an error (and on
    SQLite undone). Over a database that holds data, ``say`` is told first what it holds and
    what the backup holds. The database is migrated afterwards (a backup from an older
    version of the app gets the newer tables). Returns what the database then holds.

    ``folder``: the venue data folder the database lies in. Its lock (venue/folder_lock.py) is
    taken before the database is replaced and held to the end: a restore while a venue serves
    from the folder is refused, nothing changed, and no venue starts on it meanwhile.
    """
    path = Path(path)
    fmt = _restorable_format(path)
    with tempfile.TemporaryDirectory(prefix="cego-restore-") as scratch_name:
        scratch = Path(scratch_name)
        backup = _read_backup(path, fmt, scratch=scratch)
        if not database_is_empty():
            _refuse_replacing(backup, force=force, allow_older=allow_older, say=say)
        with _holding(folder):
            _replace_database(backup, scratch=scratch, replace=not database_is_empty())
    return database_summary()


@dataclass
class _Backup:
    """A backup file read whole before the database is touched: its format, the file SQLite
    or loaddata reads, the parsed JSON objects, what it holds (read now for a pg_dump, else
    when asked) and its rows per table."""

    path: Path
    fmt: str
    source: Path
    held_rows: dict[str, int]
    objects: list[dict] | None = None
    held: Summary | None = None

    def summary(self) -> Summary:
        if self.held is None:
            self.held = backup_summary(self.source, self.fmt, self.objects)
        return self.held


def _restorable_format(path: Path) -> str:
    """The backup's format, refused where the file is missing or this database cannot take
    it (nothing read yet)."""
    if not long_path(path).is_file():
        raise BackupError(_("There is no file %(file)s.") % {"file": path})
    fmt = detect_format(path)
    if fmt == "sqlite" and _engine() != "sqlite":
        raise BackupError(_("An SQLite backup restores into an SQLite database only."))
    if fmt == "pgdump":
        if _engine() != "postgresql":
            raise BackupError(_("A pg_dump backup restores into a PostgreSQL database only."))
        if not shutil.which("pg_restore"):
            raise BackupError(_("pg_restore is not installed (Debian: postgresql-client)."))
    return fmt


def _read_backup(path: Path, fmt: str, *, scratch: Path) -> _Backup:
    """The backup read whole and checked, its rows counted (the database untouched)."""
    if fmt == "sqlite":
        # SQLite reads this process's own copy: never the backup's folder (whatever its
        # name, its length or the medium) and never leaving files beside the backup.
        source = scratch / "backup.sqlite3"
        try:
            shutil.copyfile(long_path(path), source)
        except OSError as error:
            raise _cannot_read(path, error) from error
        return _Backup(path, fmt, source, _read_sqlite_backup(source, path=path))
    if fmt == "json":
        objects = _read_json_backup(path)
        return _Backup(path, fmt, path, _json_rows(objects), objects=objects)
    held, held_rows = _read_pgdump(path)
    return _Backup(path, fmt, path, held_rows, held=held)


def _refuse_replacing(
    backup: _Backup, *, force: bool, allow_older: bool, say: Callable[[str], object] | None
) -> None:
    """Over a database that holds data: ``say`` hears both sides; a day's work is replaced
    only when forced, and by an older backup only when ``allow_older``."""
    now = database_summary()
    held = backup.summary()
    if say is not None:
        say(describe(now, held))
    if not any(now.counts.values()):  # an account or a club alone is no day's work
        return
    if not force:
        raise BackupError(
            _(
                "The database is not empty: restoring would replace what it "
                "holds. Nothing was changed. Back it up first, then restore "
                "with --force."
            )
        )
    older = now.newest is not None and (held.newest is None or held.newest < now.newest)
    if older and not allow_older:
        raise BackupError(
            _(
                "The backup is older than the data in the database: its last "
                "change is %(backup)s, the database's %(database)s. Restoring it "
                "would lose what came after. Nothing was changed. Back the "
                "database up first; to restore this backup all the same, add "
                "--allow-older."
            )
            % {"backup": _when(held.newest), "database": _when(now.newest)}
        )


@contextmanager
def _holding(folder: Path | None) -> Iterator[None]:
    """The data folder's lock for the restore, or the German refusal while a venue holds it.
    No lock where the folder does not exist yet: no venue runs there, and the restore makes
    the folder only once the backup has proved sound."""
    if folder is None or not folder.is_dir():
        yield
        return
    try:
        lock = FolderLock(folder).acquire()
    except FolderInUse as busy:
        message = _(
            "Cego Club is running on this data folder (%(folder)s): a restore would replace "
            "the database under the running tournament day. Stop Cego Club there first (close "
            "its window or press Ctrl+C), then restore. Nothing was changed."
        ) % {"folder": folder}
        url = busy.holder.get("url")
        if url:
            message += " " + _("It serves at %(url)s") % {"url": url}
        raise BackupError(message) from None
    try:
        yield
    finally:
        lock.release()


def _replace_database(backup: _Backup, *, scratch: Path, replace: bool) -> None:
    """The database replaced by the backup, its rows checked, then migrated; on SQLite put
    back as it was on any failure (PostgreSQL: one transaction)."""
    path, held_rows = backup.path, backup.held_rows
    if backup.fmt == "pgdump":
        _restore_pgdump(path)
        _check_rows(held_rows, path=path)
        call_command("migrate", interactive=False, verbosity=0)
        return
    with _put_back_on_failure(scratch):
        if backup.fmt == "sqlite":
            connections.close_all()
            _sqlite_copy(backup.source, Path(_sqlite_path()), self_contained=False)
            _check_rows(held_rows, path=path)
        else:
            call_command("migrate", interactive=False, verbosity=0)
            with transaction.atomic():
                if replace:
                    call_command("flush", interactive=False, verbosity=0)
                # loaddata reads .json.gz itself; a copy keeps the name it needs.
                copy = scratch / "backup.json.gz"
                shutil.copyfile(long_path(path), copy)
                call_command("loaddata", str(copy), verbosity=0)
                _check_rows(held_rows, path=path)
        call_command("migrate", interactive=False, verbosity=0)


def _restore_pgdump(path: Path) -> None:
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
        raise BackupError(_("pg_restore failed: %(error)s") % {"error": done.stderr.strip()})


BACKUP_SUFFIXES = (SQLITE_SUFFIX, PGDUMP_SUFFIX, JSON_SUFFIX)
# What SQLite may leave beside a file it had open (an earlier version checked its copies
# under the name ``….part`` and left ``….part-wal``/``….part-shm``).
SIDE_FILES = ("-wal", "-shm", "-journal")


def prune(folder: Path, *, prefix: str, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` backups named ``prefix…`` in ``folder``, and what
    SQLite left beside a backup file that is no longer being written."""
    names = {p.name: p for p in folder.iterdir() if p.name.startswith(prefix)}
    ours = sorted(
        (p for n, p in names.items() if n.endswith(BACKUP_SUFFIXES)), key=lambda p: p.name
    )
    removed = ours[: max(len(ours) - keep, 0)]
    for name, side in names.items():
        for tail in SIDE_FILES:
            if name.endswith(tail) and name[: -len(tail)] not in names:
                removed.append(side)
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
