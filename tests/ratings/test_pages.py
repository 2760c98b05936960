"""The ratings list, the player page's section "Wertungszahl" and ``/api/v1/ratings/``: what
is stored, shown to whom ``clubs.permissions`` allows, apart from the championship."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from ratings.models import PlayerRating, RatingChange
from ratings.services import bring_up_to_date
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.ratings.conftest import a_tournament, played

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(people):
    """Three tournaments of the eight people, and a guest who played one (provisional)."""
    for day, shift in ((7, 0), (14, 3), (21, 5)):
        a_tournament(people, day=day, shift=shift)
    guest = PlayerFactory(first_name="Gerda", last_name="Gast")
    played([[[(guest, 40), (people[0], -40)]]], date=dt.date(2026, 11, 28))
    bring_up_to_date(reason="test")
    return guest


def english(client, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def test_the_list_ranks_the_established_and_lists_the_provisional_apart(
    client, settings, people, rated, django_assert_max_num_queries
):
    english(client, settings)
    with django_assert_max_num_queries(8):
        response = client.get(reverse("ratings:rating_list"))
    assert response.status_code == 200
    rows = response.context["rows"]
    assert len(rows) == 8 and rated.pk not in {row["player_id"] for row in rows}
    assert [row["display"] for row in rows] == sorted((r["display"] for r in rows), reverse=True)
    assert rows[0]["rank"] == 1
    assert "not the championship standings" in response.content.decode()
    provisional = client.get(reverse("ratings:rating_list") + "?list=provisional")
    assert [row["player_id"] for row in provisional.context["rows"]] == [rated.pk]
    assert "provisional" in provisional.content.decode()


def test_a_name_links_to_the_player_page_only_where_the_club_allows_it(client, people, rated):
    open_club = ClubFactory(public_player_pages=True)
    closed_club = ClubFactory(public_player_pages=False)
    MembershipFactory(player=people[0], club=open_club)
    MembershipFactory(player=people[1], club=closed_club)
    page = client.get(reverse("ratings:rating_list")).content.decode()
    assert reverse("seasons:player_detail", args=[people[0].pk]) in page
    assert reverse("seasons:player_detail", args=[people[1].pk]) not in page
    assert closed_club.short_name in page  # the club beside the name, as the standings show it
    assert client.get(reverse("seasons:player_detail", args=[people[1].pk])).status_code == 302


def test_the_player_page_says_what_the_rating_is_in_german(client, people, rated):
    MembershipFactory(player=people[0], club=ClubFactory(public_player_pages=True))
    page = client.get(reverse("seasons:player_detail", args=[people[0].pk])).content.decode()
    rating = PlayerRating.objects.get(player=people[0])
    last = RatingChange.objects.get(player=people[0], tournament_id=rating.last_tournament_id)
    assert "Wertungszahl" in page and "nicht die Meisterschaftswertung" in page
    change = last.display_after - last.display_before
    sign = "+" if change > 0 else "\u2212" if change < 0 else "±"
    number = f"{last.display_after:,}".replace(",", "\u202f")
    assert f"Zuletzt {last.tournament.name}, nach diesem Turnier: {number} ({sign}" in page
    history = page.split('class="standings-table rating-history"')[1].split("</table>")[0]
    assert history.count("<tr><td>") == 4  # one line per tournament played


def test_a_player_without_a_rated_tournament_is_told_so(client, settings, organiser_client):
    english(organiser_client, settings)
    newcomer = PlayerFactory()
    page = organiser_client.get(reverse("seasons:player_detail", args=[newcomer.pk]))
    assert "No rated tournament yet." in page.content.decode()


@pytest.fixture
def organiser_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("orga", "", "pw"))
    return client


def test_the_api_lists_ratings_in_pages(client, people, rated):
    answer = client.get(reverse("api:ratings"))
    assert answer.status_code == 200 and answer["Access-Control-Allow-Origin"] == "*"
    document = answer.json()
    assert {"count", "page", "pages", "next", "previous", "results"} <= set(document)
    assert document["count"] == 8 and document["next"] is None
    first = document["results"][0]
    assert set(first) == {
        "rank",
        "player",
        "rating",
        "mu",
        "sigma",
        "tournaments",
        "provisional",
        "last_tournament",
        "last_change",
    }
    assert set(first["player"]) == {"id", "first_name", "last_name", "club"}
    assert first["rank"] == 1 and first["provisional"] is False and first["tournaments"] >= 3
    stored = PlayerRating.objects.get(player_id=first["player"]["id"])
    assert first["rating"] == stored.display
    provisional = client.get(reverse("api:ratings") + "?provisional=1").json()
    assert [r["player"]["id"] for r in provisional["results"]] == [rated.pk]
    assert provisional["results"][0]["rank"] is None
    assert provisional["results"][0]["provisional"] is True
    assert "birth_year" not in answer.content.decode()


def test_the_api_refuses_a_bad_page_or_flag(client, people, rated):
    assert client.get(reverse("api:ratings") + "?page=9").status_code == 404
    bad = client.get(reverse("api:ratings") + "?provisional=ja")
    assert bad.status_code == 404 and "provisional" in bad.json()["error"]


def test_the_api_pages_fifty_at_a_time(client, db):
    PlayerRating.objects.bulk_create(
        PlayerRating(player=PlayerFactory(), mu=25, sigma=3, display=1300 + i, tournaments=4)
        for i in range(55)
    )
    first = client.get(reverse("api:ratings")).json()
    assert first["count"] == 55 and first["pages"] == 2 and len(first["results"]) == 50
    assert first["next"].endswith("page=2")
    second = client.get(first["next"]).json()
    assert len(second["results"]) == 5 and second["results"][-1]["rank"] == 55
