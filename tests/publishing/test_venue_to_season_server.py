"""A season of laptops, as two real processes: the season server (gunicorn on PostgreSQL,
this test's database) and a venue (``manage.py venue`` on SQLite in its data folder).

Before the day the venue fetches the season's registry; started with --publish-to it sends
its tournament whenever something changes: a deal entered at a table shows on the season
server's public standings within 60 s; deals entered while the season server is stopped
arrive once when it is back; a correction at the venue replaces the server's copy (with a log
entry); a token of another club is refused, and so is a revoked one. The players fetched
from the registry come back as the same records, the one new at the venue as a new one.
"""

import json
import secrets
import sys
import time
import urllib.error
import urllib.request
import uuid

import pytest
from django.db import connection

from clubs.models import Club, Membership, Player
from publishing.server.services import issue_token, revoke_token
from seasons.models import Season
from tests.servers import (
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
from tournaments.archive_format import state_digest
from tournaments.models import Deal, DealChange, Tournament, TournamentChange
from tournaments.selectors.standings import tournament_standings
from tournaments.tables_standings import signed_html

pytestmark = [pytest.mark.servers, pytest.mark.django_db(transaction=True)]

SEASON = "Schwarzwald-Cup 2026/27"


def database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
        f"/{db['NAME']}"
    )


def _get_json(url: str, token: str) -> str:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.read().decode()


def season_server_env(tmp_path) -> dict[str, str]:
    """The season server's environment (gunicorn on this test's PostgreSQL database), its
    static files collected."""
    env = clean_env(
        DJANGO_SETTINGS_MODULE="cego_club.settings",
        DEBUG="0",
        HTTPS="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database_url(),
        STATIC_ROOT=str(tmp_path / "static"),
    )
    assert manage("collectstatic", "--no-input", "-v", "0", env=env).returncode == 0
    return env


def wait_until(condition, *, timeout: float, what: str) -> float:
    """Seconds until ``condition()`` held; fails after ``timeout``."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if condition():
            return time.monotonic() - start
        time.sleep(0.5)
    pytest.fail(f"not within {timeout} s: {what}")


def test_the_venue_publishes_to_the_season_server_as_deals_are_entered(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("the season server runs on PostgreSQL; run with DATABASE_URL=postgres://…")
    # The season server's registry and season.
    club = Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CF Br", town="Br")
    other = Club.objects.create(name="Cego-Club Triberg", short_name="CC Tr", town="Triberg")
    registered = []
    for index, (first, last) in enumerate([("Anna", "Faller"), ("Bernd", "Gut"), ("Clara", "Hu")]):
        player = Player.objects.create(first_name=first, last_name=last)
        Membership.objects.create(player=player, club=club, member_number=f"M{index}")
        registered.append(player)
    Season.objects.create(name=SEASON, starts_on="2026-09-01", ends_on="2027-06-30")
    _row, token = issue_token(club=club, label="Laptop")
    _other_row, other_token = issue_token(club=other)

    env = season_server_env(tmp_path)
    port = free_port()
    data = tmp_path / "venue-data"
    venue_env = clean_env()
    server = venue = None
    try:
        server = start_gunicorn(log=tmp_path / "season-1.log", env=env, port=port)
        # The token in the environment, never on the command line.
        fetched = manage(
            "fetch_registry", "--from", server.url, "--data", str(data),
            env={**venue_env, "CEGO_PUBLISH_TOKEN": token},
        )  # fmt: skip
        assert fetched.returncode == 0, fetched.stderr
        seed = json_from(
            [sys.executable, "-m", "tests.publishing_seed", "seed", str(data), "CF Br", SEASON],
            env=venue_env,
        )
        assert seed["players"][:3] == [str(p.uuid) for p in registered]  # the server's records
        venue = start_venue(
            data,
            log=tmp_path / "venue.log",
            env={**venue_env, "CEGO_PUBLISH_TOKEN": token},
            extra=("--publish-to", server.url),
        )
        phone = Phone(seed["token"])
        phone.sit_down(venue.url)
        status, location, page = phone.enter_deal(venue.url, 1)
        assert stored(status, location, seed["token"]), page[:300]

        def on_server() -> Tournament | None:
            return Tournament.objects.filter(archive_id=seed["archive_id"]).first()

        def deals_on_server() -> int:
            return Deal.objects.filter(
                table__round__tournament__archive_id=seed["archive_id"]
            ).count()

        seconds = wait_until(lambda: deals_on_server() == 1, timeout=60, what="deal 1 published")
        published = on_server()
        assert published.season.name == SEASON and published.host_club == club
        status, standings = http_get(f"{server.url}/tournaments/{published.pk}/standings/")
        leader = tournament_standings(tournament=published).rows[0]
        assert status == 200 and signed_html(leader.total) in standings
        print(f"deal 1 on the season server after {seconds:.1f} s")

        # The season server is away for a while; the hall plays on.
        server.stop()
        for number in (2, 3):
            status, location, page = phone.enter_deal(venue.url, number)
            assert stored(status, location, seed["token"]), page[:300]
        time.sleep(6)
        server = start_gunicorn(log=tmp_path / "season-2.log", env=env, port=port)
        wait_until(lambda: deals_on_server() == 3, timeout=90, what="deals 2 and 3 arrived")
        created = DealChange.objects.filter(
            deal__table__round__tournament__archive_id=seed["archive_id"], action="created"
        )
        assert created.count() == 3  # each deal once
        assert Tournament.objects.filter(archive_id=seed["archive_id"]).count() == 1

        # A correction at the venue replaces the server's copy.
        before = list(Deal.objects.get(table__round__tournament=published, number=1).scores)
        corrected = json_from(
            [sys.executable, "-m", "tests.publishing_seed", "correct", str(data)]
            + [str(seed["tournament"])],
            env=venue_env,
        )
        assert corrected["scores"] != before
        wait_until(
            lambda: (
                list(Deal.objects.get(table__round__tournament=published, number=1).scores)
                == corrected["scores"]
            ),
            timeout=60,
            what="the correction arrived",
        )
        log = TournamentChange.objects.filter(tournament=published, action="archive_replaced")
        assert any(row.after["changed"] == ["r1-t1-d1"] for row in log)

        # The players: the registry's come back as the same records, the new one is new.
        players = dict(
            Tournament.objects.get(pk=published.pk).entries.values_list("number", "player")
        )
        assert [players[n] for n in (1, 2, 3)] == [p.pk for p in registered]
        assert str(Player.objects.get(pk=players[4]).uuid) == seed["players"][3]

        # Another club's token is refused; so is a revoked one.
        token_file = tmp_path / "other-token.txt"
        token_file.write_text(other_token + "\n")
        refused = manage(
            "publish", "--to", server.url, "--publish-token-file", str(token_file),
            "--tournament", str(seed["tournament"]), "--data", str(data), env=venue_env,
        )  # fmt: skip
        assert refused.returncode != 0 and "CF Br" not in refused.stdout
        assert "Cego-Club Triberg" in refused.stderr, refused.stderr  # the token's club
        revoke_token(token=_row)
        revoked = manage(
            "publish", "--to", server.url,
            "--tournament", str(seed["tournament"]), "--data", str(data),
            env={**venue_env, "CEGO_PUBLISH_TOKEN": token},
        )  # fmt: skip
        assert revoked.returncode != 0 and "widerrufen" in revoked.stderr, revoked.stderr
        assert Deal.objects.filter(table__round__tournament=published).count() == 3
    finally:
        for process in (venue, server):
            if process is not None:
                process.stop()
    assert "Traceback" not in venue.output(), venue.output()[-3000:]
    assert "Traceback" not in server.output(), server.output()[-3000:]


def test_a_laptop_restored_from_a_backup_takes_back_what_only_the_server_held(tmp_path):
    """The README's disaster case: the venue publishes, a backup is taken, three more deals
    are entered (acknowledged by the phone and the server), the laptop dies. The backup is
    restored and the venue started again: it takes the three deals back from the season
    server with their history before publishing, the server loses nothing, and the next
    deal arrives on top."""
    if connection.vendor != "postgresql":
        pytest.skip("the season server runs on PostgreSQL; run with DATABASE_URL=postgres://…")
    club = Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CF Br", town="Br")
    for index, (first, last) in enumerate([("Anna", "Faller"), ("Bernd", "Gut"), ("Clara", "Hu")]):
        player = Player.objects.create(first_name=first, last_name=last)
        Membership.objects.create(player=player, club=club, member_number=f"M{index}")
    Season.objects.create(name=SEASON, starts_on="2026-09-01", ends_on="2027-06-30")
    _row, token = issue_token(club=club, label="Laptop")
    env = season_server_env(tmp_path)
    data, backups = tmp_path / "venue-data", tmp_path / "backups"
    venue_env = {**clean_env(), "CEGO_PUBLISH_TOKEN": token}
    server = venue = None

    def deals_on_server() -> int:
        return Deal.objects.filter(table__round__tournament__archive_id=seed["archive_id"]).count()

    def seed_action(action: str, folder, *args) -> dict:
        return json_from(
            [sys.executable, "-m", "tests.publishing_seed", action, str(folder)]
            + [str(arg) for arg in args],
            env=clean_env(),
        )

    def deals_on_laptop(folder=data) -> dict:
        return seed_action("deals", folder, seed["tournament"])["deals"]

    def on_server_six() -> list:
        six = Deal.objects.get(table__round__tournament__archive_id=seed["archive_id"], number=6)
        return list(six.scores)

    def provisional_on_server() -> list:
        return list(
            Tournament.objects.values_list("provisional_tables", flat=True).get(
                archive_id=seed["archive_id"]
            )
        )

    try:
        server = start_gunicorn(log=tmp_path / "season.log", env=env)
        fetched = manage("fetch_registry", "--from", server.url, "--data", str(data), env=venue_env)
        assert fetched.returncode == 0, fetched.stderr
        seed = json_from(
            [sys.executable, "-m", "tests.publishing_seed", "seed", str(data), "CF Br", SEASON],
            env=clean_env(),
        )
        venue = start_venue(
            data, log=tmp_path / "venue-1.log", env=venue_env, extra=("--publish-to", server.url)
        )
        phone = Phone(seed["token"])
        phone.sit_down(venue.url)
        for number in (1, 2):
            assert stored(*phone.enter_deal(venue.url, number)[:2], seed["token"])
        wait_until(lambda: deals_on_server() == 2, timeout=60, what="deals 1-2 published")
        backed_up = manage("backup", "--data", str(data), "--output", str(backups), env=venue_env)
        assert backed_up.returncode == 0, backed_up.stderr
        backup = backed_up.stdout.strip().splitlines()[-1]
        for number in (3, 4, 5):
            assert stored(*phone.enter_deal(venue.url, number)[:2], seed["token"])
        wait_until(lambda: deals_on_server() == 5, timeout=60, what="deals 3-5 published")
        on_server = {
            d.number: list(d.scores)
            for d in Deal.objects.filter(table__round__tournament__archive_id=seed["archive_id"])
        }
        venue.process.kill()  # the laptop dies
        venue.process.wait()

        restored = manage(
            "restore", "--data", str(data), backup, "--force", "--allow-older", env=venue_env
        )
        assert restored.returncode == 0, restored.stderr
        assert "holt dieser Laptop zuerst zurück" in restored.stdout, restored.stdout
        assert sorted(deals_on_laptop()) == ["r1-t1-d1", "r1-t1-d2"]

        venue = start_venue(
            data, log=tmp_path / "venue-2.log", env=venue_env, extra=("--publish-to", server.url)
        )
        wait_until(
            lambda: "Diese Daten kommen aus einer Sicherung" in venue.output(),
            timeout=30,
            what="the start says what happens to restored data",
        )
        wait_until(lambda: len(deals_on_laptop()) == 5, timeout=60, what="deals 3-5 taken back")
        laptop = deals_on_laptop()
        assert [laptop[f"r1-t1-d{n}"]["scores"] for n in (3, 4, 5)] == [
            on_server[n] for n in (3, 4, 5)
        ]
        assert all(laptop[f"r1-t1-d{n}"]["history"] == ["created"] for n in (3, 4, 5))
        assert deals_on_server() == 5  # nothing lost on the server

        phone = Phone(seed["token"])
        phone.sit_down(venue.url)
        assert stored(*phone.enter_deal(venue.url, 6)[:2], seed["token"])
        wait_until(lambda: deals_on_server() == 6, timeout=60, what="deal 6 on top")
        created = DealChange.objects.filter(
            deal__table__round__tournament__archive_id=seed["archive_id"], action="created"
        )
        assert created.count() == 6  # each deal once
        assert "zurückgeholt" in venue.output()

        # Over HTTP, with the club's token as anyone holding a backup has it: malformed
        # numbers get German JSON, a forged jump deleting a deal from a stale epoch a fork.
        def post(body):
            request = urllib.request.Request(
                server.url + "/api/publish/changes/",
                data=json.dumps(body).encode(),
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            )
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    return answer.status, json.loads(answer.read())
            except urllib.error.HTTPError as error:
                assert error.headers["Content-Type"] == "application/json"
                return error.code, json.loads(error.read())

        held = json.loads(
            _get_json(f"{server.url}/api/publish/state/{seed['archive_id']}/?digests=1", token)
        )
        shape = {"format": "cego-club/changes", "version": 1, "archive_id": seed["archive_id"]}
        for field, value in (("archive_id", "kein-uuid"), ("revision", 2**31), ("revision", -1)):
            body = {**shape, "revision": 1, "state": held["state"], field: value}
            status, answer = post(body)
            assert status == 400 and answer["code"] == "invalid", answer
        lacking = {k: v for k, v in held["digests"].items() if k != "deal:r1-t1-d1"}
        forged = {
            **shape,
            "revision": 2**31 - 1,
            "base": held["state"],
            "state": state_digest(lacking),
            "deletes": ["deal:r1-t1-d1"],
            "epoch": str(uuid.uuid4()),
        }
        status, answer = post(forged)
        assert status == 409 and answer["code"] == "fork", answer
        assert deals_on_server() == 6

        # A second laptop from the same backup, whose desk entered its own deal 6 before it
        # reached the network: it takes back deals 3 to 5, keeps both versions of deal 6
        # for the desk (the server's standings say that table is provisional), and
        # publishes the desk's choice.
        second = tmp_path / "venue-data-2"
        restored = manage(
            "restore", "--data", str(second), backup, "--force", "--allow-older", env=venue_env
        )
        assert restored.returncode == 0, restored.stderr
        own_six = seed_action("enter", second, seed["tournament"], 6, 2)["scores"]
        assert own_six != on_server_six()
        venue2 = start_venue(
            second, log=tmp_path / "venue-3.log", env=venue_env,
            extra=("--publish-to", server.url),
        )  # fmt: skip
        try:
            wait_until(
                lambda: (
                    seed_action("conflicts", second, seed["tournament"])["conflicts"]
                    == ["deal:r1-t1-d6"]
                ),
                timeout=60,
                what="the second laptop's deal 6 waits for the desk",
            )
            assert len(deals_on_laptop(second)) == 6  # 3 to 5 taken back
            wait_until(
                lambda: provisional_on_server() == ["r1-t1"],
                timeout=60,
                what="the server shows table 1 as provisional",
            )
            assert deals_on_server() == 6 and on_server_six() != own_six  # nothing lost

            seed_action("settle", second, seed["tournament"], "laptop")
            wait_until(
                lambda: on_server_six() == own_six and provisional_on_server() == [],
                timeout=60,
                what="the desk's choice on the server",
            )
            assert deals_on_server() == 6
        finally:
            venue2.stop()
        assert "Traceback" not in venue2.output(), venue2.output()[-3000:]
    finally:
        for process in (venue, server):
            if process is not None:
                process.stop()
    assert "Traceback" not in venue.output(), venue.output()[-3000:]
    assert "Traceback" not in server.output(), server.output()[-3000:]
