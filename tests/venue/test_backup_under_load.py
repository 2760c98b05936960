"""A backup taken while 40 phones enter deals at once holds every deal the server had
acknowledged before the backup began, and restores into a fresh database as a whole: no deal
without its table and round, none without its history row.

The venue (``manage.py venue``, SQLite in its data folder, whatever database the suite runs
on) is backed up in both its formats, the SQLite copy and ``--format json``; on a PostgreSQL
run also the club server (gunicorn on the suite's PostgreSQL database) with ``pg_dump`` and
JSON. Each backup is taken the way an organiser takes it, ``manage.py backup`` in its own
process, in the middle of the burst, and restored with ``manage.py restore`` into a new data
folder or a new database.
"""

from __future__ import annotations

import secrets
import shutil
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connection

from tests.servers import (
    Phone,
    Server,
    clean_env,
    manage,
    seed_venue,
    start_gunicorn,
    start_venue,
    stored,
)

pytestmark = pytest.mark.servers

PHONES = 40
DEALS = 24  # a round's deals: more than the burst needs, so it never runs dry
ACKED_BEFORE_BACKUP = 40  # the backups start once this many deals are stored
# A phone waits this long after each acknowledged deal: 40 phones still ask up to 40 deals a
# second (about what the venue stores flat out on the shared test machine), and a round's 24
# deals last at least 24 s, longer than the two backups take on a busy machine (flat out, a
# faster server stored them all while the second backup ran, and the burst had ended).
PAUSE_SECONDS = 1.0


class Burst:
    """40 phones entering deals, each the next one ``PAUSE_SECONDS`` after the server answered,
    until stopped; every deal the server acknowledged (its redirect back to the table), with
    the moment the answer came."""

    def __init__(self, url: str, tables: list[dict]) -> None:
        self.url = url
        self.acked: list[tuple[float, str]] = []
        self.failures: list = []
        self.stop = threading.Event()
        self.ready = threading.Barrier(len(tables) + 1)
        self.threads = [threading.Thread(target=self.play, args=(t,)) for t in tables]
        for thread in self.threads:
            thread.start()
        self.ready.wait(timeout=120)

    def play(self, table: dict) -> None:
        try:
            phone = Phone(table["token"])
            phone.sit_down(self.url)
            self.ready.wait(timeout=120)
            for number in range(1, DEALS + 1):
                if self.stop.is_set():
                    return
                key = str(uuid.uuid4())
                status, location, page = phone.enter_deal(self.url, number, key=key)
                if stored(status, location, table["token"]):
                    self.acked.append((time.monotonic(), key))
                else:
                    self.failures.append((table["token"][:6], number, status, page[:200]))
                self.stop.wait(PAUSE_SECONDS)
        except Exception as error:  # noqa: BLE001 - asserted by the test
            self.failures.append(repr(error))

    def wait_for(self, count: int) -> None:
        deadline = time.monotonic() + 60
        while len(self.acked) < count and time.monotonic() < deadline and not self.failures:
            time.sleep(0.02)
        assert len(self.acked) >= count, (len(self.acked), self.failures[:3])

    def keys_before(self, moment: float) -> set[str]:
        return {key for when, key in self.acked if when < moment}

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=120)


def backups_in_the_burst(
    burst: Burst, formats: list[str], backup: Callable[[str], Path]
) -> list[tuple[Path, set[str]]]:
    """Each format's backup, taken one after the other while the phones go on; with the
    deals acknowledged before it began. The burst goes on after the last one."""
    burst.wait_for(ACKED_BEFORE_BACKUP)
    taken = []
    for fmt in formats:
        began = time.monotonic()
        path = backup(fmt)
        taken.append((path, burst.keys_before(began)))
    ended = time.monotonic()
    burst.wait_for(len(burst.acked) + PHONES // 2)  # the phones were still entering deals
    assert any(when > ended for when, _ in burst.acked)
    burst.finish()
    assert not burst.failures, burst.failures[:5]
    return taken


# One query language for both databases: what the restored data must satisfy.
DEALS_WITHOUT_ROUND = """
    SELECT count(*) FROM tournaments_deal d
    LEFT JOIN tournaments_table t ON t.id = d.table_id
    LEFT JOIN tournaments_round r ON r.id = t.round_id
    WHERE r.id IS NULL"""
DEALS_WITHOUT_HISTORY = """
    SELECT count(*) FROM tournaments_deal d WHERE NOT EXISTS (
        SELECT 1 FROM tournaments_dealchange c WHERE c.deal_id = d.id AND c.action = 'created')"""
HISTORY_WITHOUT_DEAL = """
    SELECT count(*) FROM tournaments_dealchange c
    LEFT JOIN tournaments_deal d ON d.id = c.deal_id
    WHERE c.deal_id IS NOT NULL AND d.id IS NULL"""
SEATS_WITHOUT_TABLE = """
    SELECT count(*) FROM tournaments_seat s
    LEFT JOIN tournaments_table t ON t.id = s.table_id WHERE t.id IS NULL"""


def check_restored(query: Callable[[str], list[tuple]], acked: set[str], label: str) -> int:
    """Every acknowledged deal is there, and nothing hangs in the air. Returns the deals."""
    keys = {
        uuid.UUID(str(row[0])).hex for row in query("SELECT submission_key FROM tournaments_deal")
    }
    missing = {uuid.UUID(k).hex for k in acked} - keys
    assert not missing, f"{label}: {len(missing)} acknowledged deals are not in the backup"
    for check in (DEALS_WITHOUT_ROUND, DEALS_WITHOUT_HISTORY, HISTORY_WITHOUT_DEAL):
        assert query(check)[0][0] == 0, (label, check)
    assert query(SEATS_WITHOUT_TABLE)[0][0] == 0, label
    return len(keys)


def test_a_venue_backup_in_a_burst_of_40_phones_restores_every_acknowledged_deal(tmp_path):
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings")
    data = tmp_path / "day"
    seeded = seed_venue(data, tables=PHONES, deals=DEALS, env=env)
    server = start_venue(data, log=tmp_path / "venue.log", env=env)

    def backup(fmt: str) -> Path:
        done = manage(
            "backup", "--data", str(data), "--output", str(tmp_path / "usb"), "--format", fmt,
            env=env,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return Path(done.stdout.strip().splitlines()[-1])

    try:
        burst = Burst(server.url, seeded["tables"])
        try:
            taken = backups_in_the_burst(burst, ["sqlite", "json"], backup)
        finally:
            burst.finish()
    finally:
        server.stop()
    assert "database is locked" not in server.output()
    folders = [tmp_path / f"restored-{path.name}" for path, _ in taken]
    with ThreadPoolExecutor() as pool:  # each into its own new data folder, side by side
        restores = pool.map(
            lambda path, fresh: manage("restore", "--data", str(fresh), str(path), env=env),
            [path for path, _ in taken],
            folders,
        )
    for done in restores:
        assert done.returncode == 0, done.stderr
    for (path, acked), fresh in zip(taken, folders, strict=True):
        db = sqlite3.connect(fresh / "db.sqlite3")
        try:
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert db.execute("PRAGMA foreign_key_check").fetchall() == []
            deals = check_restored(lambda sql, db=db: db.execute(sql).fetchall(), acked, path.name)
        finally:
            db.close()
        print(f"{path.name}: {len(acked)} deals acknowledged before it began, {deals} restored")


@pytest.mark.django_db(transaction=True)
def test_a_club_server_backup_in_a_burst_of_40_phones_restores_every_acknowledged_deal(
    tmp_path,
):
    if connection.vendor != "postgresql":
        pytest.skip("the club server's PostgreSQL formats; the suite runs it on PostgreSQL")
    if not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.skip("pg_dump/pg_restore are not installed (Debian: postgresql-client)")
    import psycopg

    from tests.cego_club.test_two_servers import database_url
    from tests.factories import TournamentFactory
    from tests.tournaments.results.conftest import seat_table

    tournament = TournamentFactory(rules_slug="swm", deals_per_round=DEALS)
    tables = [seat_table(tournament=tournament, table_number=n) for n in range(1, PHONES + 1)]
    url = database_url()
    env = clean_env(
        DJANGO_SETTINGS_MODULE="cego_club.settings",
        DEBUG="0",
        HTTPS="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=url,
        STATIC_ROOT=str(tmp_path / "static"),
    )
    collected = manage("collectstatic", "--no-input", "-v", "0", env=env)
    assert collected.returncode == 0, collected.stderr

    def backup(fmt: str) -> Path:
        done = manage("backup", "--output", str(tmp_path / "dumps"), "--format", fmt, env=env)
        assert done.returncode == 0, done.stderr
        return Path(done.stdout.strip().splitlines()[-1])

    server: Server = start_gunicorn(log=tmp_path / "gunicorn.log", env=env, threads=8)
    try:
        burst = Burst(server.url, [{"token": t.token} for t in tables])
        try:
            taken = backups_in_the_burst(burst, ["pgdump", "json"], backup)
        finally:
            burst.finish()
    finally:
        server.stop()
    admin = url.rsplit("/", 1)[0] + "/postgres"
    for path, acked in taken:
        name = f"{connection.settings_dict['NAME']}_restored_{path.suffixes[0][1:]}"
        with psycopg.connect(admin, autocommit=True) as control:
            control.execute(f'DROP DATABASE IF EXISTS "{name}"')
            control.execute(f'CREATE DATABASE "{name}"')
        try:
            fresh = url.rsplit("/", 1)[0] + f"/{name}"
            done = manage("restore", str(path), env={**env, "DATABASE_URL": fresh})
            assert done.returncode == 0, done.stderr
            with psycopg.connect(fresh) as restored:
                deals = check_restored(
                    lambda sql, db=restored: db.execute(sql).fetchall(), acked, path.name
                )
        finally:
            with psycopg.connect(admin, autocommit=True) as control:
                control.execute(f'DROP DATABASE IF EXISTS "{name}"')
        print(f"{path.name}: {len(acked)} deals acknowledged before it began, {deals} restored")
