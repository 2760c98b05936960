"""One season, live, as real processes on SQLite on both sides: the season server (gunicorn
on a database file of its own, as a small association might run it) and a venue laptop
(``manage.py venue --publish-to`` on its data folder), each started as users start them.

Every scenario ends the same way: every deal the venue holds is on the server exactly once,
with the same scores and the same history (``created`` once per deal). In order: deals as they
are entered; the server stopped, deals and a correction entered meanwhile; the server killed;
the server restored from an older backup of its database; the venue killed right after a
deal; a second laptop taking over from the first one's backup while the first is still on.
"""

import json
import os
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import uuid

import pytest

from tests.servers import (
    ROOT,
    Phone,
    clean_env,
    free_port,
    http_get,
    json_from,
    manage,
    start_gunicorn,
    start_venue,
    stored,
)

pytestmark = [pytest.mark.servers, pytest.mark.xdist_group("live_season")]  # one server, one worker

SEASON = "Schwarzwald-Cup 2026/27"


def wait_until(condition, *, timeout: float, what: str) -> float:
    start = time.monotonic()
    last = None
    while time.monotonic() - start < timeout:
        last = condition()
        if last is True:
            seconds = time.monotonic() - start
            print(f"{what}: {seconds:.2f} s")
            return seconds
        time.sleep(0.1)
    pytest.fail(f"not within {timeout} s: {what} (last: {last!r})")


class Season:
    """The season server: its environment, database file and gunicorn."""

    def __init__(self, folder, *, static=None):
        self.folder = folder
        self.db = folder / "season.sqlite3"
        static = static or folder / "static"
        self.port = free_port()
        self.env = clean_env(
            DJANGO_SETTINGS_MODULE="cego_club.settings",
            DEBUG="0",
            HTTPS="0",
            SECRET_KEY=secrets.token_urlsafe(50),
            ALLOWED_HOSTS="127.0.0.1",
            DATABASE_URL=f"sqlite:///{self.db}",
            STATIC_ROOT=str(static),
        )
        self.server = None
        self.starts = 0

    def run(self, *args: str) -> dict:
        return json_from([sys.executable, "-m", "tests.season_server_seed", *args], env=self.env)

    def start(self) -> None:
        self.starts += 1
        log = self.folder / f"season-{self.starts}.log"
        self.server = start_gunicorn(log=log, env=self.env, port=self.port)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()

    def kill(self) -> None:
        self.server.process.send_signal(signal.SIGKILL)
        self.server.process.wait()

    def copy_database(self, target) -> None:
        """A consistent copy of the server's database (SQLite's backup API)."""
        with sqlite3.connect(self.db) as source, sqlite3.connect(target) as copy:
            source.backup(copy)

    def restore_database(self, backup) -> None:
        for suffix in ("-wal", "-shm"):
            (self.db.parent / (self.db.name + suffix)).unlink(missing_ok=True)
        with sqlite3.connect(backup) as source, sqlite3.connect(self.db) as target:
            source.backup(target)

    def logs(self) -> str:
        return "\n".join(
            (self.folder / f"season-{n}.log").read_text(errors="replace")
            for n in range(1, self.starts + 1)
        )


@pytest.fixture(scope="module")
def set_up(tmp_path_factory):
    """Migrating both sides and collecting the static files takes most of a minute: done
    once for the module. The season server's database (clubs, season, tokens) and an empty,
    migrated venue data folder, for each test to copy."""
    _skip_unless_this_pass()  # before the minute this takes
    folder = tmp_path_factory.mktemp("set-up")
    season = Season(folder)
    seeded = season.run("setup", SEASON)
    assert manage("collectstatic", "--no-input", "-v", "0", env=season.env).returncode == 0
    venue = folder / "venue-data"
    migrated = subprocess.run(
        [sys.executable, "-m", "tests.publishing_seed", "migrate", str(venue)],
        cwd=ROOT,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert migrated.returncode == 0, migrated.stderr
    return {"folder": folder, "seeded": seeded, "venue": venue}


def from_set_up(set_up, tmp_path) -> tuple["Season", dict, object]:
    """A season server and an empty venue data folder of this test's own, copied from the
    module's set-up: the season, its database file, the tokens, the venue's folder."""
    season = Season(tmp_path, static=set_up["folder"] / "static")
    season.restore_database(set_up["folder"] / "season.sqlite3")
    data = tmp_path / "venue-data"
    shutil.copytree(set_up["venue"], data)
    return season, set_up["seeded"], data


def deals_in(db, archive_id: str) -> tuple[int, dict]:
    """Read straight from a database file (each side's is SQLite here): the copies of the
    tournament, and per deal (``r1-t1-d1``) its scores, status and history actions."""
    with sqlite3.connect(db, timeout=30) as connection:
        key = archive_id.replace("-", "")
        copies = connection.execute(
            "SELECT count(*) FROM tournaments_tournament WHERE archive_id = ?", [key]
        ).fetchone()[0]
        rows = connection.execute(
            "SELECT d.id, r.number, t.number, d.number, d.status,"
            " json_array(d.score_0, d.score_1, d.score_2, d.score_3, d.score_4)"
            " FROM tournaments_deal d JOIN tournaments_table t ON d.table_id = t.id"
            " JOIN tournaments_round r ON t.round_id = r.id"
            " JOIN tournaments_tournament x ON r.tournament_id = x.id WHERE x.archive_id = ?",
            [key],
        ).fetchall()
        history: dict[int, list[str]] = {}
        for deal_id, action in connection.execute(
            "SELECT deal_id, action FROM tournaments_dealchange ORDER BY changed_at, id"
        ):
            history.setdefault(deal_id, []).append(action)
    return copies, {
        f"r{r}-t{t}-d{n}": {"scores": scores, "status": status, "history": history.get(pk, [])}
        for pk, r, t, n, status, scores in rows
    }


def test_a_season_live_on_sqlite_survives_what_a_season_does(tmp_path, set_up):
    season, seeded, data = from_set_up(set_up, tmp_path)
    venue_env = clean_env(CEGO_PUBLISH_TOKEN=seeded["token"])
    venue = second = None
    try:
        season.start()
        fetched = manage("fetch_registry", "--from", season.url, "--data", str(data), env=venue_env)
        assert fetched.returncode == 0, fetched.stderr
        seed = json_from(
            [sys.executable, "-m", "tests.publishing_seed", "seed", str(data), "CF Br", SEASON],
            env=venue_env,
        )
        tournament, archive_id = seed["tournament"], seed["archive_id"]

        def start_the_venue(folder, log):
            return start_venue(
                folder, log=tmp_path / log, env=venue_env, extra=("--publish-to", season.url)
            )

        def in_step(folder=data):
            """None when the server holds exactly what the venue in ``folder`` holds (each
            deal once, same scores, same history), else what differs."""
            _one, here = deals_in(folder / "db.sqlite3", archive_id)
            copies, there = deals_in(season.db, archive_id)
            if copies != 1:
                return f"{copies} copies"
            if here != there:
                return {"venue": here, "server": there}
            return None

        def caught_up(folder=data):
            return in_step(folder) is None or in_step(folder)

        venue = start_the_venue(data, "venue-1.log")
        phone = Phone(seed["token"])
        phone.sit_down(venue.url)

        def enter(number: int) -> None:
            status, location, page = phone.enter_deal(venue.url, number)
            assert stored(status, location, seed["token"]), page[:300]

        enter(1)
        seconds = wait_until(lambda: caught_up() is True, timeout=30, what="deal 1 on the server")
        print(f"deal 1 on the season server after {seconds:.2f} s")
        there = season.run("deals", archive_id)
        assert there["season"] == SEASON and there["host"] == "CF Br"
        status, _page = http_get(f"{season.url}/")
        assert status == 200
        season.copy_database(tmp_path / "season-after-deal-1.sqlite3")

        # Stopped: the hall plays on, a correction included; all arrives once it is back.
        season.stop()
        enter(2)
        enter(3)
        corrected = json_from(
            [sys.executable, "-m", "tests.publishing_seed", "correct", str(data), str(tournament)],
            env=venue_env,
        )
        season.start()
        seconds = wait_until(lambda: caught_up() is True, timeout=30, what="after the stop")
        print(f"caught up {seconds:.2f} s after the server was back")
        _copies, there = deals_in(season.db, archive_id)
        assert json.loads(there["r1-t1-d1"]["scores"])[:4] == corrected["scores"][:4]

        # Killed (no goodbye): the same.
        season.kill()
        enter(4)
        season.start()
        wait_until(lambda: caught_up() is True, timeout=30, what="after the kill")

        # Restored from an older backup (only deal 1, uncorrected): the venue finds out at its
        # next change and sends what the server lacks.
        season.stop()
        season.restore_database(tmp_path / "season-after-deal-1.sqlite3")
        season.start()
        enter(5)
        wait_until(lambda: caught_up() is True, timeout=30, what="after the restore")

        # The venue killed right after a deal was stored: it sends it when started again.
        enter(6)
        venue.process.send_signal(signal.SIGKILL)
        venue.process.wait()
        venue = start_the_venue(data, "venue-2.log")
        wait_until(lambda: caught_up() is True, timeout=30, what="after the venue was killed")

        # A second laptop takes over from the first one's backup (the first still running).
        backup = manage(
            "backup", "--data", str(data), "--output", str(tmp_path / "b"), env=venue_env
        )
        assert backup.returncode == 0, backup.stderr
        files = sorted((tmp_path / "b").glob("*.sqlite3"))
        data2 = tmp_path / "laptop-2"
        restored = manage("restore", "--data", str(data2), str(files[-1]), env=venue_env)
        assert restored.returncode == 0, restored.stderr
        second = start_the_venue(data2, "venue-laptop-2.log")
        phone2 = Phone(seed["token"])
        phone2.sit_down(second.url, position=1)
        status, location, page = phone2.enter_deal(second.url, 7)
        assert stored(status, location, seed["token"]), page[:300]
        wait_until(lambda: caught_up(data2) is True, timeout=30, what="the second laptop's deal")
        time.sleep(3)  # the first laptop, unchanged, must not take it back
        assert in_step(data2) is None
        _copies, there = deals_in(season.db, archive_id)
        assert len(there) == 7
        for key, deal in there.items():
            assert deal["history"].count("created") == 1, (key, deal["history"])
    finally:
        for server in (second, venue):
            if server is not None:
                server.stop()
        season.stop()
    for server in (venue, second):
        assert "Traceback" not in server.output(), server.output()[-3000:]
    assert "Traceback" not in season.logs(), season.logs()[-3000:]
    assert seeded["token"] not in season.logs() + venue.output()


def entries_at(db, archive_id: str) -> list[str]:
    """The registry ids of a tournament's entries, by start number, read from a database
    file."""
    with sqlite3.connect(db, timeout=30) as connection:
        rows = connection.execute(
            "SELECT p.uuid FROM tournaments_entry e JOIN tournaments_player p ON e.player_id = p.id"
            " JOIN tournaments_tournament t ON e.tournament_id = t.id WHERE t.archive_id = ?"
            " ORDER BY e.number",
            [archive_id.replace("-", "")],
        ).fetchall()
    return [str(uuid.UUID(row[0])) for row in rows]


def test_the_way_back_a_tournament_set_up_on_the_server_is_run_in_the_hall(tmp_path, set_up):
    """Set up on the season server with 8 registrations, a team and a keep-apart pair →
    ``fetch_tournament`` → the venue has them; a registration made on the server afterwards
    reaches the running venue; round 1 is drawn in the hall and a phone enters a deal → the
    deal is on the server once, in the same tournament, whose registrations are the same."""
    season, seeded, data = from_set_up(set_up, tmp_path)
    prepared = season.run("prepare", "CF Br")
    archive_id = prepared["archive_id"]
    venue_env = clean_env(CEGO_PUBLISH_TOKEN=seeded["token"])
    venue = None
    try:
        season.start()
        fetch = ("fetch_tournament", "--from", season.url, "--data", str(data))
        listed = manage(*fetch, env=venue_env)
        assert listed.returncode == 0, listed.stderr
        assert archive_id in listed.stdout and "Vorangemeldet" in listed.stdout
        fetched = manage(*fetch, "--tournament", archive_id, env=venue_env)
        assert fetched.returncode == 0, fetched.stderr
        at_venue = data / "db.sqlite3"
        assert entries_at(at_venue, archive_id) == prepared["players"]
        with sqlite3.connect(at_venue) as connection:
            teams = connection.execute("SELECT name FROM tournaments_team").fetchall()
            pairs = connection.execute("SELECT count(*) FROM tournaments_keepapart").fetchone()
            urls = connection.execute("SELECT url FROM publishing_publication").fetchall()
        assert teams == [("Bräunlingen 1",)] and pairs == (1,) and urls == [(season.url,)]

        late = season.run("register", archive_id)  # after the hand-over: kept for the hall
        assert late["waiting"] is True
        venue = start_venue(
            data,
            log=tmp_path / "venue-way-back.log",
            env=venue_env,
            extra=("--publish-to", season.url),
        )
        wait_until(
            lambda: entries_at(at_venue, archive_id)[8:] == [late["player"]],
            timeout=30,
            what="the registration made on the server at the venue",
        )
        drawn = json_from(
            [sys.executable, "-m", "tests.publishing_seed", "draw", str(data), archive_id],
            env=venue_env,
        )
        phone = Phone(drawn["token"])
        phone.sit_down(venue.url)
        status, location, page = phone.enter_deal(venue.url, 1)
        assert stored(status, location, drawn["token"]), page[:300]

        def in_step():
            copies, there = deals_in(season.db, archive_id)
            _one, here = deals_in(at_venue, archive_id)
            return copies == 1 and len(there) == 1 and there == here or (copies, there)

        wait_until(lambda: in_step() is True, timeout=30, what="the hall's deal on the server")
        after = season.run("entries", archive_id)
        assert after["copies"] == 1  # one tournament of that name: no clash, no second copy
        assert [entry[1] for entry in after["entries"]] == [*prepared["players"], late["player"]]
        assert after["hall"] == [[late["player"], True]]  # delivered as an entry
        assert after["teams"] == ["Bräunlingen 1"] and after["keep_apart"] == 1
        _copies, there = deals_in(season.db, archive_id)
        assert [deal["history"] for deal in there.values()] == [["created"]]
    finally:
        if venue is not None:
            venue.stop()
        season.stop()
    assert "Traceback" not in venue.output(), venue.output()[-3000:]
    assert "Traceback" not in season.logs(), season.logs()[-3000:]


def _skip_unless_this_pass() -> None:
    if os.name != "posix":
        pytest.skip("gunicorn and SIGKILL: POSIX only")
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        # Both sides run on SQLite files of their own, whatever the test database is: the
        # SQLite pass runs it; test_venue_to_season_server runs the PostgreSQL server.
        pytest.skip("runs in the SQLite pass (it uses no test database)")


@pytest.fixture(autouse=True)
def _posix_only():
    _skip_unless_this_pass()
