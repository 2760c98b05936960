"""Teams: registration before the draw, keeping teammates apart, team rankings."""

import io
import subprocess

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from openpyxl import load_workbook

from tests.factories import ClubFactory, EntryFactory, TournamentFactory
from tests.seasons.conftest import play
from tournaments.models import Entry, Team
from tournaments.selectors.standings import team_standings, tournament_standings
from tournaments.services import draws, teams

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return TournamentFactory(rules_slug="swm", deals_per_round=24)


def entries(tournament, count):
    return [EntryFactory(tournament=tournament, checked_in=True) for _ in range(count)]


def test_a_team_takes_up_to_four_registered_players(tournament):
    players = entries(tournament, 5)
    team = teams.create_team(tournament=tournament, name="  Die   Asse ", members=players[:4])
    assert team.name == "Die Asse"
    assert set(team.members.all()) == set(players[:4])
    with pytest.raises(ValidationError) as error:
        teams.create_team(tournament=tournament, name="Fünf", members=players)
    assert "members" in error.value.error_dict
    assert Team.objects.count() == 1


def test_a_player_is_in_one_team_only_and_names_are_unique(tournament):
    players = entries(tournament, 5)
    teams.create_team(tournament=tournament, name="Asse", members=players[:2])
    with pytest.raises(ValidationError, match="another team"):
        teams.create_team(tournament=tournament, name="Buben", members=players[1:3])
    with pytest.raises(ValidationError, match="exists already"):
        teams.create_team(tournament=tournament, name="asse", members=players[3:4])


def test_members_must_be_registered_in_this_tournament(tournament):
    stranger = EntryFactory(tournament=TournamentFactory())
    with pytest.raises(ValidationError, match="registered here"):
        teams.create_team(tournament=tournament, name="X", members=[stranger])
    assert not Team.objects.exists()


def test_teams_are_fixed_once_the_first_round_is_drawn(tournament):
    players = entries(tournament, 8)
    team = teams.create_team(tournament=tournament, name="Asse", members=players[:4])
    draws.draw_next_round(tournament=tournament, number=1, seed=3)
    with pytest.raises(ValidationError, match="before the first draw"):
        teams.update_team(team=team, name="Asse", members=players[:3])
    with pytest.raises(ValidationError, match="before the first draw"):
        teams.delete_team(team=team)
    assert team.members.count() == 4


def test_update_and_delete_release_members(tournament):
    players = entries(tournament, 4)
    team = teams.create_team(tournament=tournament, name="Asse", members=players)
    teams.update_team(team=team, name="Asse", members=players[:2])
    assert Entry.objects.filter(team=team).count() == 2
    teams.delete_team(team=team)
    assert not Entry.objects.filter(team__isnull=False).exists()


def test_the_draw_keeps_teammates_apart_unless_turned_off(tournament):
    players = entries(tournament, 16)
    for index in range(4):
        teams.create_team(
            tournament=tournament, name=f"Team {index}", members=players[index * 4 : index * 4 + 4]
        )
    pairs = draws.keep_apart_pairs(tournament=tournament)
    assert len(pairs) == 4 * 6
    round_ = draws.draw_next_round(tournament=tournament, number=1, seed=11)
    for table in round_.tables.all():
        team_ids = [seat.entry.team_id for seat in table.seats.select_related("entry")]
        assert len(set(team_ids)) == len(team_ids), team_ids  # one player per team per table
    teams.set_keep_teams_apart(tournament=tournament, keep_apart=False)
    tournament.refresh_from_db()
    assert draws.keep_apart_pairs(tournament=tournament) == []


def test_team_ranking_sums_members_and_puts_incomplete_teams_last(tournament):
    players = entries(tournament, 8)
    # Table 1: players 0-3, table 2: players 4-7. Player 0 and 4 each win one Cego: +30/-10.
    teams.create_team(tournament=tournament, name="Winners", members=[players[0], players[4]])
    full = teams.create_team(
        tournament=tournament, name="Full", members=players[1:4] + [players[5]]
    )
    play(tournament, players[:4], [(0, 45)])
    play(tournament, players[4:], [(0, 45)], table_number=2)
    result = team_standings(standings=tournament_standings(tournament=tournament))
    assert [(t.name, t.rank, t.total, t.complete) for t in result] == [
        ("Full", 1, -40, True),
        ("Winners", 2, 60, False),
    ]
    assert result[0].team_id == full.pk and len(result[0].members) == 4


def test_team_ranking_on_the_page_in_print_and_in_excel(client, organiser, tournament, pdftotext):
    players = entries(tournament, 4)
    play(tournament, players, [(0, 45)])
    Team.objects.create(tournament=tournament, name="Die Schellen-Asse", club=ClubFactory())
    Entry.objects.filter(pk__in=[p.pk for p in players]).update(
        team=Team.objects.get(name="Die Schellen-Asse")
    )
    html = client.get(reverse("tournaments:standings", kwargs={"pk": tournament.pk})).content
    assert b"Team ranking" in html and b"Die Schellen-Asse" in html
    client.force_login(organiser)
    response = client.get(reverse("exports:standings_xlsx", kwargs={"pk": tournament.pk}))
    book = load_workbook(io.BytesIO(response.content))
    sheet = book["Teams"]
    assert [c.value for c in sheet[2]][:2] == [1, "Die Schellen-Asse"]
    assert sheet[2][4].value == 0  # +30 -10 -10 -10
    assert sheet.auto_filter.ref == "A1:F2"
    pdf = client.get(reverse("printing:print_standings", kwargs={"pk": tournament.pk})).content
    text = subprocess.run(
        [pdftotext, "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    assert "Team ranking" in text and "Die Schellen-Asse" in text, text


def test_team_pages_need_an_organiser(client, visitor, organiser, tournament):
    url = reverse("tournaments:teams", kwargs={"pk": tournament.pk})
    assert client.get(url).status_code == 302
    client.force_login(visitor)
    assert client.get(url).status_code == 403  # signed in without a role: refused
    client.force_login(organiser)
    players = entries(tournament, 4)
    response = client.post(
        url,
        {
            "name": "Asse",
            "member_1": players[0].pk,
            "member_2": players[1].pk,
            "member_3": players[2].pk,
            "member_4": players[3].pk,
        },
    )
    assert response.status_code == 302
    assert Team.objects.get().members.count() == 4
    page = client.get(url)
    assert b"Asse" in page.content
    response = client.post(
        reverse("tournaments:keep_teams_apart", kwargs={"pk": tournament.pk}), {"keep_apart": "0"}
    )
    tournament.refresh_from_db()
    assert response.status_code == 302 and not tournament.keep_teams_apart


def test_team_form_shows_the_services_error(client, organiser, tournament):
    client.force_login(organiser)
    players = entries(tournament, 2)
    teams.create_team(tournament=tournament, name="Asse", members=players[:1])
    response = client.post(
        reverse("tournaments:teams", kwargs={"pk": tournament.pk}),
        {"name": "ASSE", "member_1": players[1].pk},
    )
    assert response.status_code == 200
    assert b"exists already" in response.content
    assert Team.objects.count() == 1


def test_season_team_ranking_adds_up_tournaments_of_the_same_team_name(season):
    from seasons.selectors.standings import season_standings
    from tests.seasons.conftest import tournament_in

    first = tournament_in(season, "Eins", 7)
    second = tournament_in(season, "Zwei", 14)
    upcoming = tournament_in(season, "Drei", 21)

    def team_of(tournament, name, count):
        members = entries(tournament, count)
        teams.create_team(tournament=tournament, name=name, members=members)
        return members

    a1, b1 = team_of(first, "Asse", 4), team_of(first, "Buben", 4)
    play(first, [a1[0], b1[0], b1[1], b1[2]], [(0, 45)])  # Asse's player +30, Buben -30
    play(first, [a1[1], a1[2], a1[3], b1[3]], [(3, 45)], table_number=2)  # Asse -30, Buben +30
    a2 = team_of(second, "asse ", 4)
    b2 = team_of(second, "Buben", 3)  # one short: Buben is incomplete for the season
    other = EntryFactory(tournament=second)
    play(second, [a2[0], a2[1], a2[2], a2[3]], [(0, 45)])  # Asse +30 -30 = 0
    play(second, [*b2, other], [(0, 45)], table_number=2)  # Buben +30 -20 = +10
    team_of(upcoming, "Noch nicht gespielt", 4)
    result = season_standings(season=season)
    assert [(t.name, t.rank, t.total, t.complete) for t in result.teams] == [
        ("Asse", 1, 0, True),
        ("Buben", 2, 10, False),
    ]
    assert result.teams[0].tournament_totals == (0, 0, None)


@pytest.mark.parametrize("keep_apart", ["0", "1"])
def test_switching_keep_apart_says_the_new_setting_once(client, organiser, tournament, keep_apart):
    # The page states the setting beside its button; the message after the click said the same
    # sentence again, so it stood twice on the page (issue 28: "a success message shown twice").
    client.force_login(organiser)
    response = client.post(
        reverse("tournaments:keep_teams_apart", kwargs={"pk": tournament.pk}),
        {"keep_apart": keep_apart},
        follow=True,
    )
    html = response.content.decode()
    state = (
        "The draw keeps teammates apart."
        if keep_apart == "1"
        else "The draw may seat teammates together."
    )
    assert html.count(state) == 1, html
    assert [str(m) for m in response.context["messages"]] == ["Setting saved."]
