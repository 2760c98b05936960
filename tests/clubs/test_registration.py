"""Registering many players at once, apart from check-in at the door."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubs.models import Membership, Player
from tests.factories import ClubFactory, EntryFactory, SeasonFactory, TournamentFactory
from tournaments.models import Entry
from tournaments.services.checkin import register_new_player
from tournaments.services.registration import register_players, unregister

pytestmark = pytest.mark.django_db


def players(count, **fields):
    return [
        Player.objects.create(first_name=f"V{i}", last_name=f"N{i:03d}", **fields)
        for i in range(count)
    ]


def test_register_many_numbers_them_in_name_order_and_skips_those_on_the_list(
    django_assert_max_num_queries,
):
    tournament = TournamentFactory()
    first = players(3)
    EntryFactory(tournament=tournament, player=first[0], number=1)
    many = first + players(80)
    # 7: the lock, the players on the list, the highest number, the insert, the revision bump
    # and the savepoints; the same for 3 players or 80
    with django_assert_max_num_queries(7):
        result = register_players(tournament=tournament, players=many)
    assert (len(result.registered), result.already) == (82, 1)
    entries = list(tournament.entries.order_by("number").select_related("player"))
    assert [e.number for e in entries] == list(range(1, 84))
    assert not any(e.checked_in or e.fee_paid for e in entries)  # pre-registered only
    names = [e.player.last_name for e in entries[1:]]
    assert names == sorted(names)
    again = register_players(tournament=tournament, players=many)
    assert (len(again.registered), again.already) == (0, 83)


def test_youth_by_birth_year_against_the_season_cut_off():
    season = SeasonFactory(youth_born_from=2008)
    tournament = TournamentFactory(season=season)
    young = Player.objects.create(first_name="Jung", last_name="A", birth_year=2009)
    grown = Player.objects.create(
        first_name="Alt", last_name="B", birth_year=1990, category="youth"
    )
    woman = Player.objects.create(first_name="Frau", last_name="C", category="woman")
    register_players(tournament=tournament, players=[young, grown, woman])
    categories = dict(tournament.entries.values_list("player__first_name", "category"))
    assert categories == {"Jung": "youth", "Alt": "open", "Frau": "woman"}
    late = register_new_player(tournament=tournament, first_name="Neu", last_name="D")
    assert late.category == "open"


def test_taking_a_pre_registration_back_is_refused_after_check_in():
    tournament = TournamentFactory()
    entry = EntryFactory(tournament=tournament)
    arrived = EntryFactory(tournament=tournament, checked_in=True)
    unregister(entry=entry)
    assert not Entry.objects.filter(pk=entry.pk).exists()
    with pytest.raises(ValidationError):
        unregister(entry=arrived)
    assert Entry.objects.filter(pk=arrived.pk).exists()


def test_registration_page_three_sources(staff_client):
    club = ClubFactory()
    season = SeasonFactory()
    earlier = TournamentFactory(season=season, date=dt.date(2026, 11, 14))
    tournament = TournamentFactory(season=season, host_club=club, date=dt.date(2026, 11, 28))
    active = players(5)
    for player in active:
        Membership.objects.create(player=player, club=club)
    passive = Player.objects.create(first_name="P", last_name="Passiv")
    Membership.objects.create(player=passive, club=club, status="passive")
    left = Player.objects.create(first_name="L", last_name="Gegangen")
    Membership.objects.create(player=left, club=club, left_on=dt.date(2026, 1, 1))
    from_earlier = players(3, birth_year=1950)
    for number, player in enumerate([*from_earlier, active[0]], start=1):
        EntryFactory(tournament=earlier, player=player, number=number)
    müller = Player.objects.create(first_name="Hans", last_name="Müller")
    url = reverse("tournaments:register_many", args=[tournament.pk])

    staff_client.post(url, {"source": "club", "club": club.pk})
    assert tournament.entries.count() == 5  # active members only
    staff_client.post(url, {"source": "tournament", "tournament": earlier.pk})
    assert tournament.entries.count() == 8
    page = staff_client.get(
        reverse("tournaments:registration", args=[tournament.pk]), {"q": "mueller"}
    )
    assert "Müller" in page.content.decode()
    response = staff_client.post(url, {"source": "ticked", "player": [müller.pk]})
    assert response.status_code == 302
    assert tournament.entries.filter(player=müller, checked_in=False).exists()
    assert not tournament.entries.filter(player__in=[passive, left]).exists()


def test_registration_page_needs_an_organiser(client):
    tournament = TournamentFactory()
    response = client.get(reverse("tournaments:registration", args=[tournament.pk]))
    assert response.status_code == 302 and "login" in response["Location"]


def test_late_entry_of_a_known_name_offers_the_existing_player(staff_client):
    tournament = TournamentFactory()
    existing = Player.objects.create(first_name="Anna", last_name="Weißhaar")
    url = reverse("tournaments:late_entry", args=[tournament.pk])
    data = {"new-first_name": "Anna", "new-last_name": "Weisshaar", "new-category": "open"}
    page = staff_client.post(url, data)
    assert page.status_code == 200
    html = page.content.decode()
    assert "exists already" in html and f'value="{existing.pk}"' in html
    assert Player.objects.count() == 1 and not tournament.entries.exists()
    staff_client.post(url, {**data, "new-different_person": "1"})
    assert Player.objects.count() == 2 and tournament.entries.count() == 1


def test_the_desk_search_finds_mueller_as_mueller_with_umlaut(staff_client):
    tournament = TournamentFactory()
    Player.objects.create(first_name="Hans", last_name="Müller")
    page = staff_client.get(
        reverse("tournaments:late_entry", args=[tournament.pk]), {"q": "mueller"}
    )
    assert "Müller, Hans" in page.content.decode()
