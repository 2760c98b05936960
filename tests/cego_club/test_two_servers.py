"""Several application server processes behind one proxy are correct: two gunicorn servers on
one PostgreSQL database, phones entering deals into both from many threads at once, each deal
sent to both servers with the same submission key (a retry landing on the other process).
Afterwards: every deal stored, none twice."""

import os
import re
import secrets
import threading
import uuid

import pytest
from django.db import connection

from tests.conftest import REQUIRE_TOOLS
from tests.factories import TournamentFactory
from tests.servers import Phone, clean_env, http_get, manage, start_gunicorn, stored
from tests.tournaments.results.conftest import seat_table
from tournaments.models import Deal, DealChange, Tournament
from tournaments.selectors.standings import tournament_standings
from tournaments.tables_standings import signed_html

pytestmark = [pytest.mark.servers, pytest.mark.django_db(transaction=True)]

TABLES = 8
DEALS = 6
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
        f"/{db['NAME']}"
    )


def servers_env(tmp_path, **extra: str) -> dict[str, str]:
    """The environment of the servers behind one proxy (static files collected)."""
    env = clean_env(
        DJANGO_SETTINGS_MODULE="cego_club.settings",
        DEBUG="0",
        HTTPS="0",  # the proxy's TLS is not part of these tests
        SECRET_KEY=secrets.token_urlsafe(50),  # one key for both, as behind one proxy
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database_url(),
        STATIC_ROOT=str(tmp_path / "static"),
        **extra,
    )
    collected = manage("collectstatic", "--no-input", "-v", "0", env=env)
    assert collected.returncode == 0, collected.stderr
    return env


def test_two_server_processes_on_one_database_lose_nothing_and_store_nothing_twice(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL (several processes on one SQLite file is not a supported "
            "deployment); CI runs it with DATABASE_URL=postgres://..."
        )
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=DEALS)
    tables = [seat_table(tournament=tournament, table_number=n) for n in range(1, TABLES + 1)]
    env = servers_env(tmp_path)
    servers = []
    try:
        servers = [start_gunicorn(log=tmp_path / f"{name}.log", env=env) for name in "ab"]
        failures: list = []
        start = threading.Barrier(TABLES * 2)

        def send(phone: Phone, table, number: int, key: str, server: str) -> None:
            status, location, page = phone.enter_deal(server, number, key=key)
            if not stored(status, location, table.token):
                failures.append((table.number, number, server, status, page[:300]))

        def play(index: int, table, twin: bool) -> None:
            # Two threads per table share one phone's cookies: each deal goes to both servers
            # at once, the way a retried request reaches the other process behind the proxy.
            try:
                start.wait()
                for number in range(1, DEALS + 1):
                    key = keys[index][number]
                    server = servers[(index + number + twin) % 2].url
                    send(phones[index], table, number, key, server)
                    ready[index][number].wait()
            except Exception as error:  # noqa: BLE001 - asserted below
                failures.append(repr(error))

        phones = [Phone(table.token) for table in tables]
        for index, phone in enumerate(phones):
            phone.sit_down(servers[index % 2].url)
        keys = [{n: str(uuid.uuid4()) for n in range(1, DEALS + 1)} for _ in tables]
        ready = [{n: threading.Barrier(2) for n in range(1, DEALS + 1)} for _ in tables]
        threads = [
            threading.Thread(target=play, args=(index, table, twin))
            for index, table in enumerate(tables)
            for twin in (False, True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
        assert not failures, failures[:5]
    finally:
        for server in servers:
            server.stop()
    assert Deal.objects.count() == TABLES * DEALS
    for table in tables:
        numbers = list(Deal.objects.filter(table=table).values_list("number", flat=True))
        assert sorted(numbers) == list(range(1, DEALS + 1))
    assert DealChange.objects.filter(action="created").count() == TABLES * DEALS
    stored_keys = {str(k) for k in Deal.objects.values_list("submission_key", flat=True)}
    assert stored_keys == {key for per_table in keys for key in per_table.values()}
    for server in servers:
        assert "Traceback" not in server.output(), server.output()[-2000:]


def test_two_servers_share_one_redis_cache_and_show_a_new_deal_at_once(tmp_path):
    """The club server's cache: both processes read and fill one Redis. A page cached by one
    is what the other serves, and a deal entered through one shows at once on the other."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL, as the test above; CI runs it")
    redis = pytest.importorskip("redis")
    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.ping()
    except redis.ConnectionError:
        message = f"no Redis at {REDIS_URL} (CI's machine runs one)"
        pytest.fail(message) if REQUIRE_TOOLS else pytest.skip(message)
    prefix = f"cego-test-{uuid.uuid4().hex[:12]}"
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=DEALS)
    table = seat_table(tournament=tournament)
    env = servers_env(tmp_path, REDIS_URL=REDIS_URL, CACHE_KEY_PREFIX=prefix)
    path = f"/tournaments/{tournament.pk}/standings/?partial=1"

    def standings(server) -> str:
        status, page = http_get(server.url + path)
        assert status == 200
        return re.sub(r"\d\d:\d\d:\d\d", "", page)  # the clock is the request's own

    servers = []
    try:
        servers = [start_gunicorn(log=tmp_path / f"{name}.log", env=env) for name in "ab"]
        a, b = servers
        before = standings(a)
        assert client.keys(f"{prefix}:*"), "nothing was cached in Redis"
        assert standings(b) == before
        phone = Phone(table.token)
        phone.sit_down(b.url)
        status, location, page = phone.enter_deal(b.url, 1)
        assert stored(status, location, table.token), page[:300]
        after = standings(a)
        assert after != before
        leader = tournament_standings(tournament=Tournament.objects.get(pk=tournament.pk)).rows[0]
        assert signed_html(leader.total) in after
    finally:
        for server in servers:
            server.stop()
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)
