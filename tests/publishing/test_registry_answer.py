"""A malformed registry answer ends ``fetch_registry`` with a German message, exit code 1 and
nothing written (before: tracebacks). The season server is played by a small HTTP server in a
thread that answers whatever the test gives it."""

from __future__ import annotations

import gzip
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from clubs.models import Club, Membership, Player
from publishing.laptop.registry_answer import MAX_LENGTHS, RegistryError, parse_registry
from publishing.laptop.services import load_registry
from tests.servers import clean_env, manage

pytestmark = pytest.mark.django_db

CLUB = str(uuid.uuid4())
PLAYER = str(uuid.uuid4())


def good() -> dict:
    return {
        "format": "cego-club/registry",
        "version": 2,
        "club": CLUB,
        "clubs": [{"uuid": CLUB, "name": "Cegofreunde Br", "short_name": "CF Br", "town": "Br"}],
        "players": [
            {
                "uuid": PLAYER,
                "first_name": "Anna",
                "last_name": "Faller",
                "category": "open",
                "birth_year": 1961,
                "email": "anna@example.org",
                "named_for_age": True,
                "memberships": [
                    {
                        "club": CLUB,
                        "member_number": "7",
                        "status": "active",
                        "since": "2001-01-01",
                        "left_on": None,
                    }
                ],
            },
            {
                "uuid": str(uuid.uuid4()),
                "first_name": "Bernd",
                "last_name": "Gut",
                "category": "senior",
                "memberships": [],
            },
        ],
    }


def changed(path: str, value) -> bytes:
    """The good answer with ``path`` (dotted; ``-`` deletes) set to ``value``."""
    data = good()
    *parents, last = path.split(".")
    target = data
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    if value == "-":
        del target[last]
    elif isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return json.dumps(data).encode()


class Answer:
    """What the fake season server answers next."""

    body: bytes = b"{}"
    status: int = 200
    headers: dict[str, str] = {}  # noqa: RUF012 - set per test
    requests: list[dict[str, str]] = []  # noqa: RUF012


@pytest.fixture
def season_server():
    Answer.body, Answer.status, Answer.headers, Answer.requests = b"{}", 200, {}, []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the standard library's name
            Answer.requests.append(dict(self.headers))
            self.send_response(Answer.status)
            self.send_header("Content-Type", "application/json")
            for name, value in Answer.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(Answer.body)))
            self.end_headers()
            self.wfile.write(Answer.body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def snapshot() -> tuple:
    return (
        list(Club.objects.order_by("pk").values()),
        list(Player.objects.order_by("pk").values()),
        list(Membership.objects.order_by("pk").values()),
    )


@pytest.fixture
def laptop(monkeypatch):
    """A laptop with a club and a player of its own; the token in the environment."""
    monkeypatch.setenv("CEGO_PUBLISH_TOKEN", "laptop-token")
    club = Club.objects.create(name="Cegoclub Hier", short_name="CC H", town="Hier")
    player = Player.objects.create(first_name="Hans", last_name="Hier", birth_year=1950)
    Membership.objects.create(player=player, club=club, member_number="1")
    return club


MALFORMED = [
    ("not JSON", b"<html><body>Anmeldung am WLAN</body></html>", "kein JSON"),
    ("not UTF-8", b"\xff\xfe{", "kein JSON"),
    ("a list", b"[]", "kein Cego-Club-Register"),
    ("wrong format", changed("format", "cego-club/tournament-archive"), "kein Cego-Club-Register"),
    ("old version", changed("version", 1), "Version 1"),
    ("no clubs", changed("clubs", "-"), "clubs"),
    ("players not a list", changed("players", {"a": 1}), "players"),
    ("club not an object", changed("clubs.0", "CF Br"), "Verein 1"),
    ("club without name", changed("clubs.0.name", "-"), "name fehlt"),
    ("club name a number", changed("clubs.0.name", 7), "name ist kein Text"),
    ("club name too long", changed("clubs.0.name", "x" * 121), "länger als 120"),
    ("club bad uuid", changed("clubs.0.uuid", "not-a-uuid"), "keine Register-ID"),
    ("club uuid a number", changed("clubs.0.uuid", 12), "keine Register-ID"),
    ("player without uuid", changed("players.1.uuid", "-"), "Spieler 2 (Bernd Gut)"),
    ("player bad uuid", changed("players.0.uuid", "1234"), "keine Register-ID"),
    ("player without last name", changed("players.0.last_name", ""), "last_name ist leer"),
    ("birth year a text", changed("players.0.birth_year", "1961"), "birth_year"),
    ("birth year a bool", changed("players.0.birth_year", True), "birth_year"),
    ("birth year far off", changed("players.0.birth_year", 1066), "birth_year"),
    ("bad e-mail", changed("players.0.email", "anna at example"), "email"),
    ("consent a text", changed("players.0.named_for_age", "ja"), "named_for_age ist weder"),
    ("bad category", changed("players.1.category", "kaiser"), "category"),
    ("memberships missing", changed("players.1.memberships", "-"), "memberships fehlt"),
    ("membership unknown club", changed("players.0.memberships.0.club", str(uuid.uuid4())), "Liste der Vereine"),
    ("membership bad status", changed("players.0.memberships.0.status", "ehrenhalber"), "status"),
    ("membership bad date", changed("players.0.memberships.0.since", "1.1.2001"), "since"),
    ("member number a number", changed("players.0.memberships.0.member_number", 7), "member_number"),
    ("player twice", json.dumps({**good(), "players": good()["players"][:1] * 2}).encode(), "zweimal"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("body", "expected"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED]
)
def test_a_malformed_answer_is_a_german_message_and_changes_nothing(
    season_server, laptop, body, expected
):
    Answer.body = body
    before = snapshot()
    with pytest.raises(CommandError) as raised:
        call_command("fetch_registry", "--from", season_server)
    message = str(raised.value)
    assert expected in message and "Nichts wurde übernommen" in message, message
    assert snapshot() == before
    assert Answer.requests[0]["Authorization"] == "Bearer laptop-token"


def test_the_good_answer_is_taken(season_server, laptop):
    Answer.body = json.dumps(good()).encode()
    call_command("fetch_registry", "--from", season_server)
    anna = Player.objects.get(uuid=PLAYER)
    assert (anna.birth_year, anna.email) == (1961, "anna@example.org")
    assert anna.named_for_age is True  # the member's consent to be named as youngest/oldest
    assert anna.memberships.get().since.isoformat() == "2001-01-01"
    assert Player.objects.get(last_name="Gut").birth_year is None
    # a server of an earlier release says nothing of the consent: the laptop keeps it
    earlier = good()
    del earlier["players"][0]["named_for_age"]
    Answer.body = json.dumps(earlier).encode()
    call_command("fetch_registry", "--from", season_server)
    assert Player.objects.get(uuid=PLAYER).named_for_age is True
    withdrawn = good()
    withdrawn["players"][0]["named_for_age"] = False
    Answer.body = json.dumps(withdrawn).encode()
    call_command("fetch_registry", "--from", season_server)
    assert Player.objects.get(uuid=PLAYER).named_for_age is False


def test_a_compressed_answer_is_unpacked_and_a_huge_one_refused(season_server, laptop):
    Answer.body, Answer.headers = (
        gzip.compress(json.dumps(good()).encode()),
        {"Content-Encoding": "gzip"},
    )
    call_command("fetch_registry", "--from", season_server)
    assert Player.objects.filter(uuid=PLAYER).exists()
    assert "gzip" in Answer.requests[0]["Accept-Encoding"]
    Player.objects.filter(uuid=PLAYER).delete()
    Answer.body = gzip.compress(b" " * (33 * 1024 * 1024))  # more than 32 MB unpacked
    before = snapshot()
    with pytest.raises(CommandError, match="Höchstens 32 MB"):
        call_command("fetch_registry", "--from", season_server)
    assert snapshot() == before


def test_a_refusal_says_the_servers_reason_and_changes_nothing(season_server, laptop):
    Answer.status = 401
    Answer.body = json.dumps({"error": "Unbekannter oder widerrufener Schlüssel"}).encode()
    before = snapshot()
    with pytest.raises(CommandError, match="widerrufener Schlüssel"):
        call_command("fetch_registry", "--from", season_server)
    assert snapshot() == before


def test_a_registry_that_clashes_halfway_writes_nothing(laptop):
    """The second club's name is taken here by another club: the first club, already
    saved in the same transaction, goes too."""
    data = good()
    data["clubs"].append(
        {"uuid": str(uuid.uuid4()), "name": "Cegoclub Hier", "short_name": "CC X", "town": ""}
    )
    before = snapshot()
    with pytest.raises(RegistryError, match="Cegoclub Hier"):
        load_registry(registry=parse_registry(data, categories=["open", "senior"]))
    assert snapshot() == before


def test_the_lengths_checked_are_the_models():
    fields = {
        "name": Club._meta.get_field("name"),
        "short_name": Club._meta.get_field("short_name"),
        "town": Club._meta.get_field("town"),
        "first_name": Player._meta.get_field("first_name"),
        "last_name": Player._meta.get_field("last_name"),
        "email": Player._meta.get_field("email"),
        "member_number": Membership._meta.get_field("member_number"),
        "guest_club_name": Player._meta.get_field("guest_club_name"),
    }
    assert {key: field.max_length for key, field in fields.items()} == MAX_LENGTHS


def test_as_the_organiser_runs_it_exit_code_1_and_no_traceback(season_server, tmp_path):
    Answer.body = changed("players.0.uuid", "1234")
    env = clean_env(CEGO_PUBLISH_TOKEN="laptop-token")
    done = manage("fetch_registry", "--from", season_server, "--data", str(tmp_path), env=env)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "keine Register-ID" in done.stderr
    assert "laptop-token" not in done.stderr + done.stdout
