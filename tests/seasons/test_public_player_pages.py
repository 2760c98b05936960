"""Public player pages (issue 30, item 1): the club's choice, offered where a club is set up
and edited; the page shows what the standings show plus the results, never the registry's
personal data; linked from the season's and the tournament's public standings where the
player's club allows it, the name alone elsewhere; an outsider gets the login or a 404."""

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Club, ClubRole, Membership
from clubs.permissions import player_pages_visible, public_player_page_ids
from tests.factories import ClubFactory, EntryFactory, PlayerFactory
from tests.seasons.conftest import play, tournament_in
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

BIRTH_YEAR, MEMBER_NUMBER, EMAIL = 1961, "M-4711", "anna.faller@example.org"


@pytest.fixture
def day(season):
    """One tournament: Anna (club "Offen", public pages) and Bernd (club "Zu", private) at a
    table with two strangers of no club."""
    open_club = ClubFactory(name="Cegoclub Offen", short_name="CC Offen", public_player_pages=True)
    closed_club = ClubFactory(name="Cegoclub Zu", short_name="CC Zu")
    anna = PlayerFactory(
        first_name="Anna", last_name="Faller", birth_year=BIRTH_YEAR, email=EMAIL, category="woman"
    )
    bernd = PlayerFactory(first_name="Bernd", last_name="Zipfel", birth_year=1970)
    Membership.objects.create(player=anna, club=open_club, member_number=MEMBER_NUMBER)
    Membership.objects.create(player=bernd, club=closed_club, member_number="Z-1")
    tournament = tournament_in(season, "Herbstturnier", 7, host_club=closed_club)
    entries = [
        EntryFactory(tournament=tournament, player=anna),
        EntryFactory(tournament=tournament, player=bernd),
        EntryFactory(tournament=tournament),
        EntryFactory(tournament=tournament),
    ]
    play(tournament, entries, [(0, 45), (1, 34), (0, 45)])
    return tournament, anna, bernd, open_club, closed_club


def page_url(player) -> str:
    return reverse("seasons:player_detail", args=[player.pk])


def test_one_place_decides_who_sees_which_page(day, visitor):
    _tournament, anna, bernd, *_ = day
    assert public_player_page_ids([anna.pk, bernd.pk]) == frozenset({anna.pk})
    assert player_pages_visible(visitor, [anna.pk, bernd.pk]) == frozenset({anna.pk})


def test_the_public_page_shows_the_results_and_no_personal_data(client, day):
    _tournament, anna, *_ = day
    response = client.get(page_url(anna))
    assert response.status_code == 200
    html = response.content.decode()
    # what the standings show: the name, the club, the category; then the results
    assert "Anna Faller" in html and "CC Offen" in html and "woman" in html
    assert "Herbstturnier" in html and "Games by contract" in html and "<svg" in html
    assert reverse("tournaments:standings", args=[day[0].pk]) in html
    # never the registry's personal data
    for private in (str(BIRTH_YEAR), MEMBER_NUMBER, EMAIL, "anna.faller"):
        assert private not in html, private
    assert 'href="{}"'.format(reverse("clubs:player_detail", args=[anna.pk])) not in html


def test_the_clubs_organiser_gets_a_link_to_the_registry_not_the_data_on_the_page(
    client, day, django_user_model
):
    _tournament, anna, _bernd, open_club, _closed = day
    organiser = django_user_model.objects.create_user("offen", password="pw")
    ClubRole.objects.create(user=organiser, club=open_club)
    client.force_login(organiser)
    html = client.get(page_url(anna)).content.decode()
    assert 'href="{}"'.format(reverse("clubs:player_detail", args=[anna.pk])) in html
    assert str(BIRTH_YEAR) not in html and MEMBER_NUMBER not in html and EMAIL not in html


def test_an_outsider_gets_the_login_or_a_404_never_the_data(client, day, visitor):
    _tournament, _anna, bernd, *_ = day
    response = client.get(page_url(bernd))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(visitor)
    response = client.get(page_url(bernd))
    assert response.status_code == 404
    assert "Zipfel" not in response.content.decode()


def test_the_season_standings_link_public_players_and_name_the_others(client, season, day):
    _tournament, anna, bernd, *_ = day
    html = client.get(reverse("seasons:season_standings", args=[season.pk])).content.decode()
    assert f'<a class="player" href="{page_url(anna)}">Anna Faller</a>' in html
    assert page_url(bernd) not in html and '<span class="player">Bernd Zipfel</span>' in html


def test_the_tournament_standings_link_public_players_and_name_the_others(client, day):
    tournament, anna, bernd, *_ = day
    url = reverse("tournaments:standings", args=[tournament.pk])
    for reader in (client, Client()):  # the shared page of spectators, and the ordinary path
        html = reader.get(url).content.decode()
        assert f'<a class="player" href="{page_url(anna)}">Anna Faller</a>' in html
        assert page_url(bernd) not in html and '<span class="player">Bernd Zipfel</span>' in html


def test_a_clubs_choice_reaches_the_cached_tournament_standings(client, day, organiser):
    """The standings are cached by revision: the club's choice, saved through its page,
    bumps the revisions of the tournaments showing its players."""
    tournament, _anna, bernd, _open, closed_club = day
    url = reverse("tournaments:standings", args=[tournament.pk])
    spectator = Client()
    assert page_url(bernd) not in spectator.get(url).content.decode()  # cached now
    revision = Tournament.objects.get(pk=tournament.pk).revision
    client.force_login(organiser)
    response = client.post(
        reverse("clubs:club_edit", args=[closed_club.pk]),
        {
            "name": closed_club.name,
            "short_name": closed_club.short_name,
            "town": closed_club.town,
            "public_player_pages": "on",
        },
    )
    assert response.status_code == 302
    assert Club.objects.get(pk=closed_club.pk).public_player_pages
    assert Tournament.objects.get(pk=tournament.pk).revision > revision
    assert page_url(bernd) in spectator.get(url).content.decode()
    assert Client().get(page_url(bernd)).status_code == 200


def test_the_club_pages_offer_and_explain_the_choice(client, organiser, day):
    _tournament, _anna, _bernd, open_club, _closed = day
    client.force_login(organiser)
    client.cookies["django_language"] = "de"
    html = client.get(reverse("clubs:club_edit", args=[open_club.pk])).content.decode()
    assert 'name="public_player_pages"' in html and "checked" in html
    assert "Ergebnisseiten der Spieler öffentlich zeigen" in html
    assert "Geburtsjahr, Mitgliedsnummer und E-Mail" in html  # the help text says what not
    new = client.get(reverse("clubs:club_create")).content.decode()
    assert 'name="public_player_pages"' in new
    # unticked: the club keeps its pages for its organisers
    client.post(
        reverse("clubs:club_edit", args=[open_club.pk]),
        {"name": open_club.name, "short_name": open_club.short_name, "town": open_club.town},
    )
    assert not Club.objects.get(pk=open_club.pk).public_player_pages


def test_the_first_run_offers_the_choice(db):
    client = Client()
    page = client.get(reverse("clubs:first_run")).content.decode()
    assert 'name="club_public_player_pages"' in page
    password = "Kartenspiel-2026"
    response = client.post(
        reverse("clubs:first_run"),
        {
            "username": "anna",
            "password": password,
            "password_again": password,
            "club_name": "Cegofreunde Bräunlingen",
            "club_short_name": "CF Bräunlingen",
            "club_town": "Bräunlingen",
            "club_public_player_pages": "on",
        },
    )
    assert response.status_code == 302
    assert Club.objects.get().public_player_pages
