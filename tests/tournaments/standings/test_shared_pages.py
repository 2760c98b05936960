"""Spectators who are not signed in share one cached page per tournament revision: served with
one query, never stale after a change, each with their own CSRF token and the current clock."""

import pytest
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest
from django.test import Client
from django.urls import reverse

from tests.tournaments.standings.conftest import cego
from tournaments.models import Tournament
from tournaments.selectors.standings import tournament_standings
from tournaments.services.phone_entry import enter_deal
from tournaments.tables_standings import signed_html

pytestmark = pytest.mark.django_db

SHARED = [
    ("standings", {}),
    ("standings", {"partial": "1"}),
    ("projector", {"partial": "1"}),
]


def url(name, tournament):
    return reverse(f"tournaments:{name}", kwargs={"pk": tournament.pk})


@pytest.mark.parametrize(("name", "params"), SHARED)
def test_a_cached_page_costs_one_query_and_a_change_shows_at_once(
    client, tournament, one_table, django_assert_num_queries, name, params
):
    first = client.get(url(name, tournament), params).content.decode()
    with django_assert_num_queries(1):  # the tournament's revision
        again = client.get(url(name, tournament), params)
    assert again.status_code == 200 and again["Cache-Control"] == "no-store"
    assert "\x00" not in again.content.decode()  # the clock and the token were put in
    # A deal moves the revision: the next reader sees it.
    enter_deal(table=one_table, number=2, inputs=cego(1, 61))
    after = client.get(url(name, tournament), params).content.decode()
    leader = tournament_standings(tournament=Tournament.objects.get(pk=tournament.pk)).rows[0]
    assert leader.total != 30  # not the first deal's leader any more
    assert signed_html(leader.total) in after and signed_html(leader.total) not in first


def test_the_shared_page_holds_no_token_and_its_language_switch_works(tournament, one_table):
    reader = Client(enforce_csrf_checks=True)
    response = reader.get(url("standings", tournament))
    assert "csrfmiddlewaretoken" not in response.content.decode()
    assert "csrftoken" not in response.cookies  # nothing of one reader's in everyone's page
    response = reader.post(
        reverse("set_language"), {"language": "en", "next": url("standings", tournament)}
    )
    assert response.status_code == 302
    assert 'lang="en"' in reader.get(url("standings", tournament)).content.decode()


def test_readers_with_a_session_or_a_message_get_their_own_page(
    client, tournament, one_table, organiser
):
    anonymous = client.get(url("standings", tournament)).content.decode()
    assert "Draw lots" not in anonymous
    client.force_login(organiser)  # a session cookie: the organiser's page, with the lot form
    assert "Draw lots" in client.get(url("standings", tournament)).content.decode()

    # a message waiting for this reader (say, after logging out) is shown, not the shared page
    reader = Client()
    waiting = CookieStorage(HttpRequest())._encode([Message(constants.INFO, "Bis bald!")])
    reader.cookies[CookieStorage.cookie_name] = waiting
    assert "Bis bald!" in reader.get(url("standings", tournament)).content.decode()


def test_other_query_strings_are_not_shared(client, tournament, one_table):
    """Any other query string takes the ordinary path: a page of its own, whose language
    switch leads back to that address (everyone's page leads back to the bare one)."""
    bare = url("standings", tournament)
    shared = client.get(bare).content.decode()
    assert f'name="next" type="hidden" value="{bare}"' in shared
    response = client.get(bare, {"utm": "x" * 50})
    assert response.status_code == 200
    page = response.content.decode()
    assert f'name="next" type="hidden" value="{bare}?utm={"x" * 50}"' in page
    leader = tournament_standings(tournament=Tournament.objects.get(pk=tournament.pk)).rows[0]
    assert signed_html(leader.total) in page and signed_html(leader.total) in shared


def test_unknown_tournament_is_404_for_spectators(client, db):
    for name, params in SHARED:
        response = client.get(reverse(f"tournaments:{name}", kwargs={"pk": 999}), params)
        assert response.status_code == 404
