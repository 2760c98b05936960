"""Renaming a player or a club bumps the revision of every tournament that shows it (one
UPDATE, in the rename's transaction), so the cached standings show the new name at once."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Club, Membership
from clubs.services.admin import save_club, update_membership
from clubs.services.players import update_player
from tests.factories import TournamentFactory
from tournaments.models import Tournament
from tournaments.services import phone_entry

pytestmark = pytest.mark.django_db
CEGO = {"contract": "cego", "declarer": 0, "declarer_points": 60}


def revision(tournament) -> int:
    return Tournament.objects.values_list("revision", flat=True).get(pk=tournament.pk)


@pytest.fixture
def shown(swm_tournament, table):
    """A tournament with results whose first player is a member of a club."""
    phone_entry.enter_deal(table=table, number=1, inputs=CEGO)
    player = table.seats.get(position=0).entry.player
    club = Club.objects.create(name="Cegofreunde Unterkirnach", short_name="CFU", town="U")
    Membership.objects.create(player=player, club=club)
    return swm_tournament, player, club


def _standings(client, tournament) -> str:
    response = client.get(reverse("tournaments:standings", args=[tournament.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _tournament_updates(queries) -> int:
    return sum(
        1
        for query in queries
        if query["sql"].startswith("UPDATE") and "tournaments_tournament" in query["sql"]
    )


def test_the_standings_show_a_renamed_player_at_once(client, shown):
    tournament, player, _club = shown
    other = TournamentFactory()  # the player is not in it: left alone
    before_other = revision(other)
    assert player.last_name in _standings(client, tournament)  # cached now
    with CaptureQueriesContext(connection) as queries:
        update_player(player=player, first_name="Zenzi", last_name="Umbenannt")
    assert _tournament_updates(queries.captured_queries) == 1
    page = _standings(client, tournament)
    assert "Umbenannt" in page and "Zenzi" in page
    assert revision(other) == before_other


def test_the_standings_show_a_renamed_club_at_once(client, shown):
    tournament, _player, club = shown
    hosted = TournamentFactory(host_club=club)
    before = revision(hosted)
    assert "CFU" in _standings(client, tournament)
    with CaptureQueriesContext(connection) as queries:
        save_club(club=club, name="Cego Unterkirnach", short_name="CGU", town="U")
    assert _tournament_updates(queries.captured_queries) == 1
    page = _standings(client, tournament)
    assert "CGU" in page and "CFU" not in page
    assert revision(hosted) == before + 1  # the host club's tournament too


def test_a_membership_change_bumps_the_players_tournaments(shown):
    tournament, player, _club = shown
    before = revision(tournament)
    membership = player.memberships.get()
    update_membership(
        membership=membership,
        member_number="7",
        since=None,
        left_on=None,
        status=membership.status,
    )
    assert revision(tournament) == before + 1
