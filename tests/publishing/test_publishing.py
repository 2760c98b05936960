"""Publishing without processes: tokens (hash only, revoked, one club's), the endpoint's
answers, the registry on a laptop, the client's address rule, the queue's backoff."""

import datetime as dt
import json
import socket
import uuid

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import Category, Club, Membership, Player
from publishing.laptop.client import PublishError, check_url
from publishing.laptop.outbox import due_publications
from publishing.laptop.registry_answer import parse_registry
from publishing.laptop.sender import send
from publishing.laptop.services import follow, load_registry
from publishing.models import Publication, PublishToken
from publishing.server.selectors import registry
from publishing.server.services import hash_token, issue_token, revoke_token, token_for
from tests.factories import EntryFactory, TournamentFactory
from tournaments.models import Tournament
from tournaments.selectors.archive import tournament_archive

pytestmark = pytest.mark.django_db


@pytest.fixture
def host():
    return Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CF Br", town="Br")


def laptop_archive(tournament, archive_id):
    """The tournament as a laptop would send it: its own id and name."""
    archive = json.loads(json.dumps(tournament_archive(tournament=tournament)))
    archive["archive_id"] = str(archive_id)
    archive["tournament"]["name"] = "Vom Laptop"
    return archive


def post(client, archive, token):
    return client.post(
        reverse("publishing:publish"),
        json.dumps(archive),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        HTTP_ACCEPT_LANGUAGE="en",
    )


def test_only_the_hash_of_a_token_is_kept_and_a_revoked_one_is_dead(host):
    row, raw = issue_token(club=host, label="Laptop")
    stored = PublishToken.objects.values_list("token_hash", flat=True).get()
    assert stored == hash_token(raw=raw) != raw and raw not in json.dumps(
        list(PublishToken.objects.values()), default=str
    )
    assert (
        token_for(raw=raw) == row and token_for(raw="guess") is None and token_for(raw="") is None
    )
    revoke_token(token=row)
    assert token_for(raw=raw) is None


def test_the_endpoint_takes_its_clubs_tournaments_once_and_refuses_the_rest(client, host):
    tournament = TournamentFactory(host_club=host)
    EntryFactory(tournament=tournament)
    _row, raw = issue_token(club=host)
    _other, other_raw = issue_token(
        club=Club.objects.create(name="Cegoclub Dürrheim", short_name="CC D", town="D")
    )
    archive = laptop_archive(tournament, uuid.uuid4())
    assert post(client, archive, "wrong").status_code == 401
    refused = post(client, archive, other_raw)
    assert refused.status_code == 403 and "Cegoclub Dürrheim" in refused.json()["error"]
    answer = post(client, archive, raw)
    assert answer.status_code == 200 and answer.json()["status"] == "created"
    assert post(client, archive, raw).json()["status"] == "unchanged"  # the same content
    assert Tournament.objects.filter(name="Vom Laptop").count() == 1
    newer = dict(archive, revision=archive["revision"] + 5)
    newer["tournament"] = dict(archive["tournament"], venue="Festhalle")
    assert post(client, newer, raw).json()["status"] == "replaced"
    older = post(client, archive, raw)
    assert (
        older.status_code == 409 and "älteres Archiv" in older.json()["error"]
    )  # German, the default
    assert Tournament.objects.get(name="Vom Laptop").venue == "Festhalle"
    assert client.get(reverse("publishing:publish")).status_code == 405


def test_the_registry_comes_with_registry_ids_and_a_laptop_keeps_them(client, host):
    player = Player.objects.create(first_name="Anna", last_name="Faller")
    Membership.objects.create(player=player, club=host, member_number="7")
    _row, raw = issue_token(club=host)
    assert client.get(reverse("publishing:registry")).status_code == 401
    answer = client.get(reverse("publishing:registry"), HTTP_AUTHORIZATION=f"Bearer {raw}")
    data = answer.json()
    assert data == registry(club=host)
    assert {"uuid": str(player.uuid), "first_name": "Anna"}.items() <= data["players"][0].items()
    # A laptop whose club was set up by hand (another id) and that lacks a player.
    fresh = {
        **data,
        "clubs": [{**data["clubs"][0], "uuid": str(uuid.uuid4())}],
        "players": [
            *data["players"],
            {
                "uuid": str(uuid.uuid4()),
                "first_name": "Bernd",
                "last_name": "Gut",
                "birth_year": 1960,
                "category": "senior",
                "memberships": [],
            },
        ],
    }
    fresh["players"][0]["memberships"][0]["club"] = fresh["clubs"][0]["uuid"]

    def load(data):
        return load_registry(registry=parse_registry(data, categories=Category.values))

    counts = load(fresh)
    assert counts == {"clubs": 1, "players_new": 1, "players_updated": 1, "sanctions": 0}
    host.refresh_from_db()
    assert str(host.uuid) == fresh["clubs"][0]["uuid"]  # the server's id, same club
    assert Player.objects.get(last_name="Gut").uuid == uuid.UUID(fresh["players"][1]["uuid"])
    assert load(fresh) == {"clubs": 0, "players_new": 0, "players_updated": 2, "sanctions": 0}


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://saison.example.org", True),
        ("http://127.0.0.1:8000", True),
        ("http://localhost:8000/", True),
        ("http://saison.example.org", False),
        ("ftp://saison.example.org", False),
    ],
)
def test_https_only_except_to_this_computer(url, ok):
    if ok:
        assert check_url(url) == url.rstrip("/")
    else:
        with pytest.raises(PublishError):
            check_url(url)


def test_without_a_server_the_queue_backs_off_and_keeps_the_tournament(host):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    tournament = TournamentFactory(host_club=host)
    (publication,) = follow(url=f"http://127.0.0.1:{port}", token="t", tournaments=[tournament])
    assert due_publications() == [publication]
    with pytest.raises(PublishError):
        send(publication=publication)
    publication.refresh_from_db()
    assert publication.failures == 1 and publication.next_attempt_at > timezone.now()
    # A short wait: a server that is back is noticed within seconds.
    assert publication.next_attempt_at < timezone.now() + dt.timedelta(seconds=6)
    assert publication.last_error and due_publications() == []  # waits, then tries again
    Publication.objects.update(next_attempt_at=timezone.now())
    assert due_publications() == [publication]


def test_the_token_page_shows_a_new_token_once_and_revokes(client, host, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("orga", "", "pw"))
    url = reverse("publishing:club_tokens", kwargs={"pk": host.pk})
    page = client.post(url, {"label": "Laptop Halle"}).content.decode()
    row = PublishToken.objects.get()
    raw = page.split('<code class="publish-token">')[1].split("</code>")[0]
    assert token_for(raw=raw) == row and row.label == "Laptop Halle"
    assert raw not in client.get(url).content.decode()  # shown once
    client.post(url, {"revoke": row.pk})
    assert token_for(raw=raw) is None


def test_a_token_cannot_take_over_another_clubs_tournament(client, host):
    other = Club.objects.create(name="Cegoclub Triberg", short_name="CC Tr", town="Triberg")
    tournament = TournamentFactory(host_club=other)
    _row, raw = issue_token(club=host)
    _other_row, other_raw = issue_token(club=other)
    archive = laptop_archive(tournament, uuid.uuid4())
    assert post(client, archive, other_raw).json()["status"] == "created"
    forged = json.loads(json.dumps(archive))
    forged["revision"] += 1
    forged["tournament"]["host_club"] = host.short_name
    forged["clubs"].append({"uuid": str(host.uuid), "name": host.name, "short_name": "CF Br"})
    assert post(client, forged, raw).status_code == 403
    assert Tournament.objects.get(archive_id=archive["archive_id"]).host_club == other


def test_a_tournaments_page_names_its_season_server(client, host, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("orga", "", "pw"))
    tournament = TournamentFactory(host_club=host)
    url = reverse("publishing:tournament_publication", kwargs={"pk": tournament.pk})
    response = client.post(url, {"url": "http://saison.example.org", "token": "t"})
    assert response.status_code == 200 and not Publication.objects.exists()  # https only
    response = client.post(url, {"url": "https://saison.example.org/", "token": "t"})
    assert response.status_code == 302
    publication = Publication.objects.get()
    assert (publication.tournament, publication.url) == (tournament, "https://saison.example.org")
    assert "https://saison.example.org" in client.get(url).content.decode()


def test_a_refusal_is_shown_with_a_button_that_sends_again(client, host, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("orga", "", "pw"))
    tournament = TournamentFactory(host_club=host)
    publication = Publication.objects.create(
        tournament=tournament,
        url="https://saison.example.org",
        token="t",
        refused_revision=tournament.revision,  # 0 for a tournament never changed
        last_error="Der Saisonserver hat einen neueren Stand.",
    )
    url = reverse("publishing:tournament_publication", kwargs={"pk": tournament.pk})
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Der Saisonserver hat einen neueren Stand." in page and 'name="retry"' in page
    assert client.post(url, {"retry": publication.pk}).status_code == 302
    publication.refresh_from_db()
    assert publication.refused_revision is None and due_publications() == [publication]
