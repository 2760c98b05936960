"""Venue mode as a tournament day runs it: `manage.py venue` in its own process, serving the
laptop's LAN address with waitress, phones entering deals over HTTP."""

import os
import sqlite3
import subprocess
import threading
from pathlib import Path

import pytest

from tests.servers import Phone, clean_env, seed_venue, start_venue, stored
from tests.venue_seed import ORGANISER_PASSWORD
from venue.environment import host_names, is_loopback, lan_address, prepare_environment

pytestmark = pytest.mark.servers


@pytest.fixture
def venue_env():
    return clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings")


def deal_count(data: Path) -> int:
    with sqlite3.connect(data / "db.sqlite3") as db:
        return db.execute("SELECT count(*) FROM tournaments_deal").fetchone()[0]


def test_prepare_environment_configures_a_tournament_day(tmp_path, monkeypatch):
    for name in ("DEBUG", "DATABASE_URL", "ALLOWED_HOSTS", "PUBLIC_BASE_URL", "REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SECRET_KEY", "from-the-shell")
    monkeypatch.setattr("venue.environment.lan_address", lambda: "192.168.1.20")
    # monkeypatch restores every variable prepare_environment sets
    for name in (
        "HTTPS",
        "SECRET_KEY_FILE",
        "SQLITE_PATH",
        "SQLITE_WAL",
        "CONN_MAX_AGE",
        "STATIC_ROOT",
        "VENUE_BACKUP_DIR",
        "VENUE_MODE",
    ):
        monkeypatch.setenv(name, "")
    usb = tmp_path / "usb"
    prepare_environment(
        ["manage.py", "venue", "--data", str(tmp_path / "day"), "--port", "8123"]
        + ["--backup-dir", str(usb)]
    )
    assert os.environ["DEBUG"] == "0" and os.environ["HTTPS"] == "0"
    assert os.environ["VENUE_MODE"] == "1"  # logins held to their device and the day
    assert "SECRET_KEY" not in os.environ  # the key kept in the data folder wins
    assert os.environ["SECRET_KEY_FILE"] == str(tmp_path / "day" / "secret_key")
    assert os.environ["SQLITE_PATH"] == str(tmp_path / "day" / "db.sqlite3")
    assert os.environ["SQLITE_WAL"] == "1" and os.environ["CONN_MAX_AGE"] == "600"
    assert "DATABASE_URL" not in os.environ
    assert os.environ["PUBLIC_BASE_URL"] == "http://192.168.1.20:8123"
    assert os.environ["VENUE_BACKUP_DIR"] == str(usb)
    hosts = os.environ["ALLOWED_HOSTS"].split(",")
    assert {"192.168.1.20", "localhost", "127.0.0.1"} <= set(hosts)
    assert "*" not in hosts


def test_other_commands_are_left_alone(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://x@y/z")
    prepare_environment(["manage.py", "backup", "--output", "/tmp/x"])
    prepare_environment(["manage.py", "migrate"])
    assert os.environ["DATABASE_URL"] == "postgres://x@y/z"


def test_lan_address_is_never_loopback_and_none_without_a_network(monkeypatch):
    address = lan_address()
    assert address is None or not is_loopback(address)
    assert "localhost" in host_names(address)

    class NoNetwork:
        def __init__(self, *args):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *args):
            return False

        def connect(self, target):
            raise OSError("Network is unreachable")

    monkeypatch.setattr("venue.environment.socket.socket", NoNetwork)
    assert lan_address() is None


def test_a_phone_on_the_hall_network_opens_the_short_address_and_enters_a_deal(
    tmp_path, venue_env, pdftotext
):
    """The nearest to a phone on the hall's network without network namespaces: the server
    listens on the laptop's LAN address only (not on loopback) and a client reaches it there."""
    lan = lan_address()
    if lan is None:
        pytest.skip("this machine has no network address besides loopback")
    data = tmp_path / "day"
    seeded = seed_venue(data, tables=2, deals=4, env=venue_env)
    table = seeded["tables"][0]
    server = start_venue(data, bind=lan, log=tmp_path / "venue.log", env=venue_env)
    try:
        assert not is_loopback(server.url.split("//")[1].rsplit(":", 1)[0])
        assert server.url.startswith(f"http://{lan}:")
        output = server.output()
        assert "NO NETWORK" not in output and "KEIN NETZWERK" not in output
        key_file = data / "secret_key"
        assert key_file.exists() and len(key_file.read_text()) > 40

        phone = Phone(table["token"])
        # Typed by hand, in lower case, without the trailing slash.
        status, location, page = phone.request(f"{server.url}/t/{table['short_code'].lower()}")
        assert status == 302 and location.endswith(f"/t/{table['token']}/")
        assert "choose" in page or 'name="position"' in page
        phone.sit_down(server.url)
        status, location, page = phone.enter_deal(server.url, 1)
        assert stored(status, location, table["token"]), (status, page[:300])
        assert deal_count(data) == 1

        # The organiser prints the score sheets on this server: their QR codes and the short
        # address point at the LAN address the venue printed.
        desk = Phone("")
        desk.request(f"{server.url}/login/")
        status, _, _ = desk.request(
            f"{server.url}/login/?next=/",
            {
                "csrfmiddlewaretoken": desk._csrf(),
                "username": "orga",
                "password": ORGANISER_PASSWORD,
                "next": "/",
            },
        )
        assert status == 302
        pdf_path = tmp_path / "sheets.pdf"
        request_url = (
            f"{server.url}/tournaments/{seeded['tournament']}/rounds/1/print/score-sheets.pdf"
        )
        with desk.opener.open(request_url, timeout=120) as response:
            pdf_path.write_bytes(response.read())
        text = subprocess.run(
            [pdftotext, str(pdf_path), "-"], capture_output=True, text=True, check=True
        ).stdout
        assert f"{server.url}/t/{table['short_code']}" in text.replace("\n", "")
        assert "localhost" not in text
    finally:
        server.stop()
    # The key is generated once: a second start keeps it (sessions survive a restart).
    key = (data / "secret_key").read_text()
    again = start_venue(data, log=tmp_path / "venue2.log", env=venue_env)
    again.stop()
    assert (data / "secret_key").read_text() == key


def test_venue_server_takes_many_phones_at_once(tmp_path, venue_env):
    """A smaller version of bench/bench_venue_phones.py (40 phones x 24 deals)."""
    phones, deals = 8, 6
    data = tmp_path / "day"
    seeded = seed_venue(data, tables=phones, deals=deals, env=venue_env)
    server = start_venue(data, log=tmp_path / "venue.log", env=venue_env)
    failures: list = []
    barrier = threading.Barrier(phones)

    def play(table):
        try:
            phone = Phone(table["token"])
            phone.sit_down(server.url)
            barrier.wait()
            for number in range(1, deals + 1):
                status, location, page = phone.enter_deal(server.url, number)
                if not stored(status, location, table["token"]):
                    failures.append((table["token"], number, status, page[:200]))
        except Exception as error:  # noqa: BLE001 - collected and asserted below
            failures.append(repr(error))

    try:
        threads = [threading.Thread(target=play, args=(t,)) for t in seeded["tables"]]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
    finally:
        server.stop()
    assert not failures, failures[:5]
    assert deal_count(data) == phones * deals
    assert "database is locked" not in server.output()
