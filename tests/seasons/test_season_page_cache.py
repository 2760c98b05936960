"""The season page's table is cached (its markup, by the season's tournaments' revisions and
by the names that link to a player page): never stale after a change."""

import pytest
from django.urls import reverse

from clubs.models import Membership
from clubs.services.players import update_player
from tests.factories import ClubFactory, EntryFactory, PlayerFactory
from tests.seasons.conftest import play, tournament_in
from tournaments.services.phone_entry import enter_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def day(season):
    anna = PlayerFactory(first_name="Anna", last_name="Faller")
    club = ClubFactory()
    Membership.objects.create(player=anna, club=club)
    tournament = tournament_in(season, "Herbst", 7)
    entries = [EntryFactory(tournament=tournament, player=anna)]
    entries += [EntryFactory(tournament=tournament) for _ in range(3)]
    table = play(tournament, entries, [(0, 45)])  # Anna +30
    return anna, club, table


def anna_row(client, season) -> str:
    html = client.get(reverse("seasons:season_standings", kwargs={"pk": season.pk})).content
    html = html.decode()
    start = html.rindex("<tr", 0, html.index("Faller"))
    return html[start : html.index("</tr>", start)]


def test_a_new_deal_shows_at_once(client, season, day):
    _anna, _club, table = day
    assert "+30" in anna_row(client, season)
    anna_row(client, season)  # cached now
    enter_deal(
        table=table, number=2, inputs={"contract": "cego", "declarer": 0, "declarer_points": 45}
    )
    assert "+60" in anna_row(client, season)


def test_a_renamed_player_shows_at_once(client, season, day):
    anna, _club, _table = day
    anna_row(client, season)
    update_player(player=anna, first_name="Anna", last_name="Faller-Kern")
    assert "Faller-Kern" in anna_row(client, season)


def test_links_follow_the_club_without_any_tournament_changing(client, season, day):
    anna, club, _table = day
    link = reverse("seasons:player_detail", kwargs={"pk": anna.pk})
    assert link not in anna_row(client, season)
    club.public_player_pages = True
    club.save()  # no tournament's revision moves
    assert f'href="{link}"' in anna_row(client, season)
    club.public_player_pages = False
    club.save()
    assert link not in anna_row(client, season)
