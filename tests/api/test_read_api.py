"""The read API (/api/v1/): what it answers, its ETags, its pages and what it never shows."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from clubs.models import Membership, Player
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, SeasonFactory
from tests.tournaments.results.conftest import seat_table
from tests.tournaments.standings.conftest import cego
from tournaments.models import Table
from tournaments.selectors.standings import tournament_standings
from tournaments.services.phone_entry import enter_deal

pytestmark = pytest.mark.django_db


def get_json(client, url, **headers):
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("application/json")
    return response, json.loads(response.content)


@pytest.fixture
def season():
    return SeasonFactory(scoring="sum")


@pytest.fixture
def played(season):
    """A season tournament: one table of four, two deals."""
    from tests.factories import TournamentFactory

    tournament = TournamentFactory(season=season, deals_per_round=24)
    table = seat_table(tournament=tournament)
    enter_deal(table=table, number=1, inputs=cego(0, 45))
    enter_deal(table=table, number=2, inputs=cego(1, 50))
    return tournament


def test_a_tournament_answers_its_standings(client, played):
    _, document = get_json(client, reverse("api:tournament", kwargs={"pk": played.pk}))
    expected = tournament_standings(tournament=played)
    assert document["name"] == played.name
    assert document["host_club"] == played.host_club.short_name
    assert [row["total"] for row in document["standings"]] == [row.total for row in expected.rows]
    assert [row["last_name"] for row in document["standings"]] == [
        row.last_name for row in expected.rows
    ]
    assert document["standings"][0]["place"] == 1
    assert sum(row["total"] for row in document["standings"]) == 0  # Cego is zero-sum


def test_the_etag_answers_304_until_a_deal_changes_the_tournament(client, played):
    url = reverse("api:tournament", kwargs={"pk": played.pk})
    first, document = get_json(client, url)
    etag = first["ETag"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again["ETag"] == etag
    table = Table.objects.get(round__tournament=played)
    enter_deal(table=table, number=3, inputs=cego(2, 61))
    changed, newer = get_json(client, url, **{"If-None-Match": etag})
    assert changed["ETag"] != etag
    assert newer["revision"] > document["revision"]
    assert newer["standings"] != document["standings"]


def test_a_304_costs_two_small_queries(client, played, django_assert_max_num_queries):
    url = reverse("api:tournament", kwargs={"pk": played.pk})
    etag = client.get(url)["ETag"]
    with django_assert_max_num_queries(1):  # the tournament with its host club
        assert client.get(url, headers={"If-None-Match": etag}).status_code == 304


def test_the_season_standings_follow_the_tournaments(client, played, season):
    url = reverse("api:season_standings", kwargs={"pk": season.pk})
    first, document = get_json(client, url)
    assert [t["id"] for t in document["tournaments"]] == [played.pk]
    totals = {(row["last_name"], row["total"]) for row in document["standings"]}
    per_tournament = {
        (row.last_name, row.total) for row in tournament_standings(tournament=played).rows
    }
    assert totals == per_tournament
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304
    enter_deal(table=Table.objects.get(round__tournament=played), number=3, inputs=cego(3, 70))
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 200


def test_lists_are_paged(client, season):
    from tests.factories import TournamentFactory

    for number in range(120):
        TournamentFactory(season=season, name=f"Turnier {number:03d}")
    _, page_one = get_json(client, reverse("api:tournaments"))
    assert page_one["count"] == 120
    assert len(page_one["results"]) == 50
    assert page_one["previous"] is None
    _, page_three = get_json(client, reverse("api:tournaments") + "?page=3")
    assert len(page_three["results"]) == 20
    assert page_three["next"] is None
    _, via_next = get_json(client, page_one["next"])
    assert via_next["page"] == 2
    seen = {t["id"] for page in (page_one, via_next, page_three) for t in page["results"]}
    assert len(seen) == 120
    missing = client.get(reverse("api:tournaments") + "?page=4")
    assert missing.status_code == 404
    assert "page" in json.loads(missing.content)["error"]
    assert client.get(reverse("api:tournaments") + "?season=x").status_code == 404


def test_a_season_filter_lists_only_its_tournaments(client, played, season):
    from tests.factories import TournamentFactory

    TournamentFactory(name="Ohne Saison")
    _, document = get_json(client, reverse("api:tournaments") + f"?season={season.pk}")
    assert [t["id"] for t in document["results"]] == [played.pk]


def test_lists_run_the_same_queries_for_few_and_many(client, django_assert_max_num_queries):
    from tests.factories import TournamentFactory

    def count(name):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse(name)).status_code == 200
        return len(queries)

    club = ClubFactory()
    for _ in range(3):
        EntryFactory(tournament=TournamentFactory(host_club=club))
    few = {name: count(name) for name in ("api:tournaments", "api:players", "api:clubs")}
    for _ in range(60):
        entry = EntryFactory(tournament=TournamentFactory(host_club=club))
        Membership.objects.create(player=entry.player, club=club)
    many = {name: count(name) for name in ("api:tournaments", "api:players", "api:clubs")}
    assert few == many


def test_players_are_names_of_people_who_played_and_nothing_private(client, played):
    club = ClubFactory(name="Cegofreunde Bräunlingen", short_name="CFB")
    secret = PlayerFactory(
        first_name="Hildegard",
        last_name="Nieimturnier",
        birth_year=1937,
        email="hildegard@example.org",
    )
    Membership.objects.create(player=secret, club=club, member_number="4711-GEHEIM")
    player = played.entries.first().player
    player.birth_year = 1951
    player.email = "spieler@example.org"
    player.save()
    Membership.objects.create(player=player, club=club, member_number="0815-GEHEIM")

    _, document = get_json(client, reverse("api:players"))
    names = {(p["first_name"], p["last_name"]) for p in document["results"]}
    assert (player.first_name, player.last_name) in names
    assert ("Hildegard", "Nieimturnier") not in names  # never played: not public anywhere
    assert {p["club"] for p in document["results"] if p["id"] == player.pk} == {"CFB"}
    assert len(names) == Player.objects.filter(entries__isnull=False).distinct().count()

    everything = b"".join(
        client.get(url).content
        for url in (
            reverse("api:index"),
            reverse("api:tournaments"),
            reverse("api:tournament", kwargs={"pk": played.pk}),
            reverse("api:seasons"),
            reverse("api:season_standings", kwargs={"pk": played.season_id}),
            reverse("api:clubs"),
            reverse("api:players"),
        )
    ).decode()
    for private in ("1951", "1937", "example.org", "GEHEIM", "Nieimturnier"):
        assert private not in everything, private


def test_only_get(client, played):
    url = reverse("api:tournament", kwargs={"pk": played.pk})
    assert client.post(url).status_code == 405
    assert client.get(reverse("api:tournament", kwargs={"pk": 999999})).status_code == 404


def test_a_tournament_names_the_series_it_also_counts_for_everywhere(client, played, season):
    import datetime as dt

    from seasons.services_series import set_series

    later = SeasonFactory(
        name="Cego-Winter", starts_on=played.date - dt.timedelta(days=3), ends_on=played.date
    )
    earlier = SeasonFactory(
        name="Ortsmeisterschaft", starts_on=played.date - dt.timedelta(days=9), ends_on=played.date
    )
    url = reverse("api:tournament", kwargs={"pk": played.pk})
    first, document = get_json(client, url)
    assert document["season"] == season.pk and document["series"] == []

    set_series(tournament=played, seasons=[later, earlier], user=None, check_permissions=False)
    # its revision moved: the cached document and its ETag are new
    changed, document = get_json(client, url, **{"If-None-Match": first["ETag"]})
    assert document["series"] == [earlier.pk, later.pk]  # by the series' start
    _, listed = get_json(client, reverse("api:tournaments"))
    assert [t["series"] for t in listed["results"]] == [[earlier.pk, later.pk]]
    # in each season's document, home or series, the tournament says the same
    for one in (season, later, earlier):
        _, standings = get_json(client, reverse("api:season_standings", kwargs={"pk": one.pk}))
        assert [(t["season"], t["series"]) for t in standings["tournaments"]] == [
            (season.pk, [earlier.pk, later.pk])
        ]
