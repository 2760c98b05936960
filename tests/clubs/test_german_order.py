"""Name lists in German alphabetical order (DIN 5007 variant 1: ä = a, ö = o, ü = u, ß = ss,
case ignored), the same on SQLite and PostgreSQL: "Hättich" before "Hummel", "Zähringer"
before "Zipfel", "Müller" before "Muster"."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from clubs.models import Membership, Player
from clubs.search import name_sort_key
from clubs.selectors import active_members, search_players, season_memberships
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, TournamentFactory
from tournaments.services.registration import register_players

pytestmark = pytest.mark.django_db

# (first, last) in the order a German list has them
GERMAN_ORDER = [
    ("Anna", "Abt"),
    ("Otto", "Ärger"),
    ("Karl", "Hättich"),
    ("Eva", "Hummel"),
    ("Hans", "Müller"),
    ("Jo", "Muster"),
    ("Lea", "Öhler"),
    ("Ida", "Straub"),
    ("Uwe", "Strauß"),
    ("Zoe", "Weber"),
    ("Anna", "Webers"),
    ("Ina", "Zähringer"),
    ("Tim", "Zipfel"),
    ("Max", "zur Mühlen"),  # lower case "zur" among the Z
]


def names(players) -> list[tuple[str, str]]:
    return [(p.first_name, p.last_name) for p in players]


def shuffled() -> list[tuple[str, str]]:
    # byte order would give Hummel before Hättich and Zipfel before Zähringer
    return sorted(GERMAN_ORDER, key=lambda n: n[1][::-1])


def test_the_key_orders_like_a_german_list():
    assert sorted(shuffled(), key=lambda n: name_sort_key(*n)) == GERMAN_ORDER
    assert name_sort_key("Anna", "Weiß-Haar") == "weisshaar0anna"
    assert set(name_sort_key("Élodie", "Ærø")) <= set("abcdefghijklmnopqrstuvwxyz0123456789")


def test_player_lists_are_in_german_order_in_the_database():
    club = ClubFactory()
    for first, last in shuffled():
        player = PlayerFactory(first_name=first, last_name=last)
        Membership.objects.create(player=player, club=club)
    assert names(Player.objects.all()) == GERMAN_ORDER
    assert names(search_players(query="")) == GERMAN_ORDER
    assert names(active_members(club=club, on=datetime.date.today())) == GERMAN_ORDER
    season = SeasonFactory()
    assert [
        (m.player.first_name, m.player.last_name)
        for m in season_memberships(club=club, season=season)
    ] == GERMAN_ORDER


def test_bulk_created_and_renamed_players_get_the_key():
    (player,) = Player.objects.bulk_create([Player(first_name="Karl", last_name="Hättich")])
    assert Player.objects.get(pk=player.pk).sort_key == "hattich0karl"
    player = Player.objects.get(pk=player.pk)
    player.last_name = "Ölmann"
    player.save(update_fields=["last_name"])
    assert Player.objects.get(pk=player.pk).sort_key == "olmann0karl"


def test_start_numbers_are_given_in_german_order(organiser):
    tournament = TournamentFactory()
    players = [PlayerFactory(first_name=f, last_name=last) for f, last in shuffled()]
    result = register_players(tournament=tournament, players=players, user=organiser)
    numbered = sorted(result.registered, key=lambda e: e.number)
    assert [(e.player.first_name, e.player.last_name) for e in numbered] == GERMAN_ORDER


def test_registration_list_sorted_by_name_is_in_german_order(staff_client):
    tournament = TournamentFactory()
    players = [PlayerFactory(first_name=f, last_name=last) for f, last in shuffled()]
    # start numbers in another order, so that the name column's sort is what is tested
    for number, player in enumerate(reversed(players), start=1):
        tournament.entries.create(player=player, number=number)
    page = staff_client.get(reverse("tournaments:checkin", args=[tournament.pk]), {"sort": "name"})
    html = page.content.decode()
    positions = [html.index(f"{last}, {first}") for first, last in GERMAN_ORDER]
    assert positions == sorted(positions)
