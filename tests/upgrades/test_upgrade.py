"""Upgrades that lose nothing: the data of every earlier release (``releases/<version>/``, made
by that release's own code: ``make_release_fixture.py``), upgraded by this version as a club
upgrades them, keep every row, and every figure derived from them is this version's.

- The laptop: the release's venue data folder, brought up to date by ``cego-club migrate
  --data FOLDER`` (what the venue's start runs first: the version check, ``migrate`` with its
  receivers, the version record).
- The season server: the release's PostgreSQL database (its ``pg_dump``), brought up to date
  by ``manage.py migrate`` (docs/DEPLOY.md's update); in the PostgreSQL run only.

Then: every row of every table the release had is still there with the values it had, but
the columns a migration moves on purpose (``MOVED``, each checked where it went) and the
figures derived from the data (``DERIVED``: ratings and stored season results, compared with
this version's work from scratch by ``figures.py``, as are the archive items' digests and
the laptop's publication); the record names this version. Nothing to run by hand.
"""

from __future__ import annotations

import gzip
import json
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from cego_club import __version__
from tests.servers import ROOT, clean_env

pytestmark = [pytest.mark.servers, pytest.mark.xdist_group("upgrades")]

RELEASES = sorted(
    (p for p in Path(__file__).with_name("releases").iterdir() if p.is_dir()),
    key=lambda p: [int(n) for n in p.name.split(".")],
)
# Tables of figures worked out from the data: replaced by this version's (figures.py checks
# them against a replay from scratch), not kept row by row.
DERIVED = {
    "ratings_playerrating",
    "ratings_ratingchange",
    "ratings_ratedtournament",
    "ratings_ratingrun",
    "ratings_ratinglock",
    "seasons_tournamentresult",
    "seasons_tournamentresultset",
    # which version last migrated the data: this one after the upgrade (checked below)
    "venue_dataversion",
}

Rows = dict[str, dict[Any, dict[str, Any]]]


def _sent_digests_became_items(before: Rows, after: Rows) -> list[str]:
    """publishing 0006: a publication's acknowledged digests (JSON) became PublishedItem rows."""
    problems = []
    items: dict[Any, dict[str, str]] = {}
    for row in after.get("publishing_publisheditem", {}).values():
        items.setdefault(row["publication_id"], {})[row["key"]] = row["sent"]
    for key, row in before["publishing_publication"].items():
        digests = row["sent_digests"]
        digests = json.loads(digests) if isinstance(digests, str) else digests
        if (digests or {}) != items.get(row["id"], {}):
            problems.append(f"publication {key}: its acknowledged digests were not all kept")
    return problems


# Columns a migration moves elsewhere on purpose, each with the check that nothing was lost.
MOVED: dict[tuple[str, str], Callable[[Rows, Rows], list[str]]] = {
    ("publishing_publication", "sent_digests"): _sent_digests_became_items,
}


def _rows(cursor, tables: list[str], primary_keys: dict[str, list[str]]) -> Rows:
    found: Rows = {}
    for table in tables:
        cursor.execute(f'SELECT * FROM "{table}"')
        columns = [column[0] for column in cursor.description]
        key = primary_keys.get(table) or columns
        found[table] = {}
        for values in cursor.fetchall():
            row = dict(zip(columns, values, strict=True))
            found[table][tuple(row[name] for name in key)] = row
    return found


def sqlite_rows(path: Path) -> Rows:
    db = sqlite3.connect(path)
    try:
        tables = [
            name
            for (name,) in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        keys = {
            table: [row[1] for row in db.execute(f'PRAGMA table_info("{table}")') if row[5]]
            for table in tables
        }
        return _rows(db.cursor(), tables, keys)
    finally:
        db.close()


def postgres_rows(url: str) -> Rows:
    import psycopg

    with psycopg.connect(url) as db, db.cursor() as cursor:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        tables = [name for (name,) in cursor.fetchall()]
        cursor.execute(
            "SELECT c.relname, a.attname FROM pg_index i "
            "JOIN pg_class c ON c.oid = i.indrelid "
            "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) "
            "WHERE i.indisprimary"
        )
        keys: dict[str, list[str]] = {}
        for table, column in cursor.fetchall():
            keys.setdefault(table, []).append(column)
        return _rows(cursor, tables, keys)


def lost_or_changed(before: Rows, after: Rows) -> list[str]:
    """Every row of ``before`` in ``after`` with the same values, but derived tables and moved
    columns (whose own checks run instead)."""
    problems = []
    for table, rows in sorted(before.items()):
        if table in DERIVED:
            continue
        if table not in after:
            problems.append(f"{table}: the table is gone ({len(rows)} rows)")
            continue
        lost = [key for key in rows if key not in after[table]]
        if lost:
            problems.append(f"{table}: {len(lost)} of {len(rows)} rows lost, e.g. {lost[:3]}")
        for key, row in rows.items():
            kept = after[table].get(key)
            if kept is None:
                continue
            for column, value in row.items():
                if (table, column) in MOVED:
                    continue
                if kept.get(column, "<column gone>") != value:
                    problems.append(
                        f"{table} {key}: {column} was {value!r}, is {kept.get(column, '<gone>')!r}"
                    )
    for (table, column), check in MOVED.items():
        # only where the release still had the column (a later release's data has moved on)
        if any(column in row for row in before.get(table, {}).values()):
            problems += check(before, after)
    return problems[:20]


def derived_figures(env: dict[str, str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.upgrades.figures"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def assert_current(figures: dict[str, Any], *, kinds: set[str]) -> None:
    for kind, found in figures.items():
        assert not found["differences"], (kind, found["differences"][:5])
    stored = {kind for kind, found in figures.items() if found["stored"]}
    assert kinds <= stored, f"the fixture holds no {kinds - stored}: it would prove nothing"


def fixture(release: Path) -> dict[str, Any]:
    return json.loads((release / "fixture.json").read_text())


@pytest.mark.parametrize("release", RELEASES, ids=lambda p: p.name)
def test_a_laptop_of_an_earlier_release_upgrades_keeping_every_row(release, tmp_path):
    if connection.vendor != "sqlite":
        pytest.skip("a laptop's data folder is SQLite: the SQLite run upgrades it")
    made = fixture(release)
    data = tmp_path / "Turniertag Daten"
    data.mkdir()
    database = data / "db.sqlite3"
    database.write_bytes(gzip.decompress((release / "venue.sqlite3.gz").read_bytes()))
    before = sqlite_rows(database)
    assert {table: len(rows) for table, rows in before.items()} == made["venue_rows"]

    env = clean_env(PYTHONPATH=str(ROOT))
    upgraded = subprocess.run(
        [sys.executable, "-m", "cego_club", "migrate", "--data", str(data)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert upgraded.returncode == 0, upgraded.stderr[-3000:]

    after = sqlite_rows(database)
    assert lost_or_changed(before, after) == []
    assert [row["version"] for row in after["venue_dataversion"].values()] == [__version__]
    figures = derived_figures(
        clean_env(SQLITE_PATH=str(database), SECRET_KEY="upgrade-test", DEBUG="0")
    )
    assert_current(figures, kinds={"ratings", "season_results", "publications"})


def _postgres_url(name: str) -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return f"postgres://{db['USER']}{password}@{host}/{name}"


@pytest.mark.parametrize("release", RELEASES, ids=lambda p: p.name)
def test_a_season_server_of_an_earlier_release_upgrades_keeping_every_row(release, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("the season server's database is PostgreSQL: the PostgreSQL run upgrades it")
    made = fixture(release)
    name = f"{connection.settings_dict['NAME']}_upgrade"[:63]
    admin = _postgres_url("postgres")
    url = _postgres_url(name)
    psql = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1"]
    subprocess.run([*psql, admin, "-c", f'DROP DATABASE IF EXISTS "{name}"'], check=True)
    subprocess.run([*psql, admin, "-c", f'CREATE DATABASE "{name}"'], check=True)
    try:
        subprocess.run(
            [*psql, url],
            input=gzip.decompress((release / "server.sql.gz").read_bytes()),
            check=True,
            capture_output=True,
        )
        before = postgres_rows(url)
        assert {table: len(rows) for table, rows in before.items()} == made["server_rows"]

        env = clean_env(DATABASE_URL=url, SECRET_KEY="upgrade-test", DEBUG="0")
        upgraded = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert upgraded.returncode == 0, upgraded.stderr[-3000:]

        after = postgres_rows(url)
        assert lost_or_changed(before, after) == []
        assert [row["version"] for row in after["venue_dataversion"].values()] == [__version__]
        assert_current(derived_figures(env), kinds={"ratings", "season_results", "archive_items"})
    finally:
        subprocess.run(
            [*psql, admin, "-c", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'], check=False
        )
