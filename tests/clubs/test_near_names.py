"""Near-miss spellings ("Brigite Baumer" beside "Brigitte Baumer") are offered before a
duplicate is created (registry, desk late entry, member-list import); merging shows each
candidate's club, birth year and tournaments and asks first, naming the record removed; the
registry page links the tournaments to the player's results."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.models import Membership, Player
from clubs.selectors import players_like
from clubs.services.imports import NEW, plan_players
from clubs.services.players import DuplicateName, create_player
from clubs.tabular import read_table
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def brigitte():
    club = ClubFactory(short_name="CFB")
    player = Player.objects.create(first_name="Brigitte", last_name="Baumer", birth_year=1961)
    Membership.objects.create(player=player, club=club)
    return player


def test_near_misses_are_found_and_other_names_are_not(brigitte):
    PlayerFactory(first_name="Anna", last_name="Baumer")  # one family, another person
    PlayerFactory(first_name="Bernd", last_name="Zimmermann")
    assert players_like(first_name="Brigite", last_name="Baumer") == [brigitte]
    assert players_like(first_name="Brigitte", last_name="Bauer") == [brigitte]
    assert players_like(first_name="Brigitte", last_name="Baumer") == [brigitte]
    assert players_like(first_name="Karl", last_name="Baumer") == []


def test_creating_a_near_miss_is_refused_until_confirmed(brigitte):
    with pytest.raises(DuplicateName) as caught:
        create_player(first_name="Brigite", last_name="Baumer")
    assert caught.value.players == [brigitte]
    # no birth year in the message: it may reach another club's organiser (the page shows it
    # only where allowed)
    assert "Brigitte Baumer (CFB)" in caught.value.messages[0]
    create_player(first_name="Brigite", last_name="Baumer", allow_duplicate=True)
    assert Player.objects.filter(last_name="Baumer").count() == 2


def test_registry_form_offers_the_near_miss(staff_client, brigitte):
    url = reverse("clubs:player_create")
    page = staff_client.post(
        url, {"first_name": "Brigite", "last_name": "Baumer", "category": "open"}
    )
    assert page.status_code == 200
    assert reverse("clubs:player_detail", args=[brigitte.pk]) in page.content.decode()
    assert Player.objects.count() == 1


def test_desk_late_entry_offers_the_near_miss(staff_client, brigitte):
    tournament = TournamentFactory()
    url = reverse("tournaments:late_entry", args=[tournament.pk])
    data = {"new-first_name": "Brigite", "new-last_name": "Baumer", "new-category": "open"}
    page = staff_client.post(url, data)
    assert page.status_code == 200
    assert page.context["duplicates"] == [brigitte]
    assert not Entry.objects.exists()
    response = staff_client.post(url, {**data, "new-different_person": "1"})
    assert response.status_code == 302 and Entry.objects.count() == 1


def test_import_preview_names_the_near_miss(brigitte, organiser):
    rows = "Nachname;Vorname;Verein\r\nBaumer;Brigite;CFB\r\nHuber;Eva;CFB\r\n"
    plan = plan_players(table=read_table(rows.encode("cp1252"), "t.csv"), user=organiser)
    first, second = plan.rows
    assert first.status == NEW and first.similar == [brigitte]
    assert "Brigitte Baumer (CFB)" in "; ".join(first.messages)
    assert second.similar == [] and not second.messages


def test_merge_shows_the_candidates_and_asks_first(staff_client, brigitte):
    twin = Player.objects.create(first_name="Brigite", last_name="Baumer", birth_year=1961)
    EntryFactory(tournament=TournamentFactory(name="Herbstturnier"), player=twin)
    detail = staff_client.get(reverse("clubs:player_detail", args=[brigitte.pk]))
    html = detail.content.decode()
    assert "Baumer, Brigite" in html and "Herbstturnier" in html and "1 tournament" in html
    url = reverse("clubs:player_merge", args=[brigitte.pk])
    page = staff_client.post(url, {"remove": twin.pk})
    assert page.status_code == 200  # the question, nothing merged yet
    html = page.content.decode()
    assert "“Brigite Baumer” is deleted" in html and "CFB" in html and "Herbstturnier" in html
    assert Player.objects.filter(pk=twin.pk).exists()
    response = staff_client.post(url, {"remove": twin.pk, "confirm": "1"})
    assert response.status_code == 302
    assert not Player.objects.filter(pk=twin.pk).exists()
    assert Entry.objects.get().player == brigitte


def test_registry_page_links_tournaments_to_the_results(staff_client, brigitte):
    entry = EntryFactory(tournament=TournamentFactory(), player=brigitte)
    html = staff_client.get(reverse("clubs:player_detail", args=[brigitte.pk])).content.decode()
    results = reverse("seasons:player_detail", args=[brigitte.pk])
    assert f'href="{results}#tournament-{entry.tournament_id}"' in html
    page = staff_client.get(results).content.decode()
    assert f'id="tournament-{entry.tournament_id}"' in page
