"""The halls' live publishing feeds the overall ranking, in one process: two laptops'
tournaments reach the season server through its inbox (``POST /api/publish/changes/``, as
the laptops' outboxes make their batches), the association makes their copies the halls of a
day, and a deal entered at a laptop is in the overall ranking (the page, the read API and the
JSON a hall's laptop fetches) once its batch is in. The hall's laptop keeps the last overall
ranking it fetched (``simultaneous.follower``) and its projector shows it with its time, also
when the season server is out of reach."""

from __future__ import annotations

import datetime as dt
import json
import uuid

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club
from publishing.laptop.client import PublishError
from publishing.models import Publication
from publishing.server.services import issue_token
from simultaneous import follower, services
from simultaneous.models import OverallCopy
from tests.factories import EntryFactory, TournamentFactory
from tests.publishing.test_batches import Laptop, post
from tests.seasons.conftest import play
from tests.simultaneous.conftest import DAY
from tests.tournaments.standings.conftest import cego
from tournaments.models import Tournament
from tournaments.services.phone_entry import enter_deal

pytestmark = pytest.mark.django_db


class HallLaptop(Laptop):
    def __init__(self, tournament, archive_id, name):
        super().__init__(tournament, archive_id)
        self.name = name

    def items(self):
        items = super().items()
        items["tournament"]["name"] = self.name
        return items


def a_hall(town: str, first: int):
    club = Club.objects.create(name=f"Cego-Club {town}", short_name=town[:8], town=town)
    tournament = TournamentFactory(
        host_club=club, date=DAY, rules_slug="swm", rounds=2, deals_per_round=24
    )
    entries = [EntryFactory(tournament=tournament, number=n + 1) for n in range(4)]
    table = play(tournament, entries, [(0, 45), (1, 34 + first), (2, 45)])
    _row, token = issue_token(club=club)
    return HallLaptop(tournament, uuid.uuid4(), f"Simultan in {town}"), table, token


def publish(client, device, token):
    body, digests = device.batch()
    answer = post(client, body, token)
    assert answer.status_code == 200, answer.content
    device.acknowledge(body, digests)


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


@pytest.fixture
def published(client, simday, scorer):
    halls = [a_hall("Unadingen", 0), a_hall("Lenzkirch", 5)]
    for device, _table, token in halls:
        publish(client, device, token)
        copy = Tournament.objects.get(archive_id=device.archive_id)
        services.add_hall(day=simday, tournament=copy, by=scorer)
    simday.refresh_from_db()
    return halls


def overall_rows(client, simday):
    answer = client.get(reverse("api:simultaneous_day", args=[simday.pk]))
    assert answer.status_code == 200
    return answer.json()["overall"]


def test_a_deal_entered_in_a_hall_is_in_the_overall_ranking_once_published(
    client, simday, published
):
    (first, first_table, first_token), _second = published
    before = overall_rows(client, simday)
    assert len(before) == 8
    halls = {row["hall_name"] for row in before}
    assert halls == {"Unadingen", "Lenzkirch"}  # the host clubs' towns: no venue given

    enter_deal(table=first_table, number=4, inputs=cego(3, 79))
    # not published yet: the server still ranks what it holds
    assert overall_rows(client, simday) == before
    publish(client, first, first_token)
    after = overall_rows(client, simday)
    assert after != before
    copy = Tournament.objects.get(archive_id=first.archive_id)
    seat_3 = copy.entries.get(number=first_table.seats.get(position=3).entry.number)
    name = f"{seat_3.player.first_name} {seat_3.player.last_name}"
    old = next(row for row in before if row["name"] == name)
    new = next(row for row in after if row["name"] == name)
    assert new["total"] > old["total"]
    assert new["deals_played"] == old["deals_played"] + 1
    # the public page and the laptops' JSON say the same
    page = client.get(reverse("simultaneous:day_ranking", args=[simday.pk]) + "?partial=1")
    assert name in page.content.decode()
    laptops = client.get(reverse("simultaneous:overall_json", args=[str(first.archive_id)])).json()
    assert laptops["overall"] == after
    # asked again with its ETag while nothing changed: 304, no body
    path = reverse("simultaneous:overall_json", args=[str(first.archive_id)])
    etag = client.get(path)["ETag"]
    assert client.get(path, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert all("standings" not in hall for hall in laptops["halls"])


def test_the_hall_projector_shows_the_last_overall_ranking_and_its_time(
    client, simday, published, monkeypatch
):
    (first, first_table, _token), _second = published
    # On the laptop: its own tournament, published to the server (its Publication).
    laptop_tournament = first.tournament
    Tournament.objects.filter(pk=laptop_tournament.pk).update(archive_id=uuid.uuid4())
    laptop_tournament.refresh_from_db()
    server_copy = Tournament.objects.get(archive_id=first.archive_id)
    Publication.objects.create(tournament=laptop_tournament, url="http://127.0.0.1:9", token="t")

    def through_test_client(url, *, token, path, timeout):
        assert str(laptop_tournament.archive_id) in path
        # the server knows this tournament by the archive id it shares with the laptop
        path = path.replace(str(laptop_tournament.archive_id), str(server_copy.archive_id))
        answer = client.get(path)
        if answer.status_code != 200:
            raise PublishError("refused", refused=True, status=answer.status_code)
        return json.loads(answer.content)

    monkeypatch.setattr(follower, "request", through_test_client)
    assert follower.follow_once() == 1
    copy = OverallCopy.objects.get(tournament=laptop_tournament)
    assert len(copy.document["overall"]) == 8

    board = client.get(
        reverse("simultaneous:hall_projector", args=[laptop_tournament.pk]) + "?partial=1"
    ).content.decode()
    leader = copy.document["overall"][0]["name"]
    assert leader in board
    assert "Gesamtwertung aller Hallen, Stand" in board

    # The village's internet drops: the last copy stays, with the time it is from.
    def unreachable(url, *, token, path, timeout):
        raise PublishError("timed out")

    monkeypatch.setattr(follower, "request", unreachable)
    OverallCopy.objects.filter(pk=copy.pk).update(
        fetched_at=timezone.now() - dt.timedelta(minutes=3)
    )
    assert follower.follow_once() == 0
    copy.refresh_from_db()
    assert copy.failed_at is not None and len(copy.document["overall"]) == 8
    board = client.get(
        reverse("simultaneous:hall_projector", args=[laptop_tournament.pk]) + "?partial=1"
    ).content.decode()
    assert "Keine Verbindung zum Saisonserver" in board
    assert leader in board


def test_a_tournament_in_no_day_is_answered_404(client, simday):
    answer = client.get(reverse("simultaneous:overall_json", args=[str(uuid.uuid4())]))
    assert answer.status_code == 404
    assert "keinem Simultan-Cego-Tag" in answer.json()["error"]


def test_the_calendar_names_the_overall_ranking(client, simday, published):
    feed = client.get(reverse("seasons:calendar_feed")).content.decode()
    unfolded = feed.replace("\r\n ", "")
    assert "Teil des Simultan-Cego-Tags" in unfolded
    assert reverse("simultaneous:day_ranking", args=[simday.pk]) in unfolded
    day_feed = client.get(reverse("simultaneous:day_feed", args=[simday.pk]))
    assert day_feed.status_code == 200
    assert day_feed.content.decode().count("BEGIN:VEVENT") == 2


def test_a_tournament_in_no_day_is_asked_again_only_after_a_minute(db, monkeypatch):
    tournament = TournamentFactory()
    Publication.objects.create(tournament=tournament, url="http://127.0.0.1:9", token="t")
    asked = []

    def not_in_a_day(url, *, token, path, timeout):
        asked.append(path)
        raise PublishError("not found", refused=True, status=404)

    monkeypatch.setattr(follower, "request", not_in_a_day)
    monkeypatch.setattr(follower, "_not_in_day", {})
    assert follower.follow_once() == 0
    assert follower.follow_once() == 0
    assert len(asked) == 1
    assert not OverallCopy.objects.exists()


def test_the_laptops_publication_page_leads_to_the_halls_projector(client, db):
    from django.contrib.auth.models import User

    tournament = TournamentFactory()
    Publication.objects.create(tournament=tournament, url="http://127.0.0.1:9", token="t")
    client.force_login(User.objects.create_superuser("orga", "", "pw"))
    page = client.get(reverse("publishing:tournament_publication", args=[tournament.pk]))
    assert reverse("simultaneous:hall_projector", args=[tournament.pk]) in page.content.decode()
