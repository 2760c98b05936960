"""One tournament in several series (issue 41): the model's constraints, the service that
sets them (who may, German refusals that change nothing, the log), the one selector every
season read goes through (a constant number of queries), the standings of a tournament shared
by two series with different rules, the pages, workbook, calendar feed and API documents that
take the also-counting tournaments, and the organiser's form."""

import datetime as dt
import io

import openpyxl
import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from clubs.models import AssociationRole, ClubRole
from seasons.models import Season, SeriesMembership
from seasons.selectors.day_winners import day_winners
from seasons.selectors.schedule import calendar_entries
from seasons.selectors.series import season_tournaments, tournament_series
from seasons.selectors.standings import season_standings, season_tournament_standings
from seasons.services_series import add_to_series, remove_from_series, set_series
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, SeasonFactory
from tests.seasons.conftest import play, tournament_in
from tournaments.models import Tournament, TournamentChange

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    """The championship ``home`` (sum of all results) holds ``shared``; the village series
    ``village`` (cup points 10, 6, 3; its own evening ``pub``, another host) counts ``shared``
    too. The same four players play both evenings."""
    home = SeasonFactory(name="Schwarzwaldmeisterschaft 2026/27")
    village = SeasonFactory(
        name="Unadinger Cego-Winter",
        scoring=Season.Scoring.CUP,
        cup_points=[10, 6, 3],
        starts_on=dt.date(2026, 11, 1),
        ends_on=dt.date(2027, 3, 31),
    )
    players = [PlayerFactory(last_name=f"Spieler{n}", first_name="Eva") for n in range(4)]
    shared = tournament_in(home, "Meisterschaft Bräunlingen", 14)
    play(
        shared,
        [EntryFactory(tournament=shared, player=p) for p in players],
        [(0, 45), (0, 45), (1, 45)],
    )  # totals: 50, 10, -30, -30
    pub = tournament_in(village, "Cego-Winter im Hirschen", 21, venue="Gasthaus Hirschen")
    play(pub, [EntryFactory(tournament=pub, player=p) for p in players], [(2, 45), (2, 45)])
    # totals: -20, -20, 60, -20
    return {"home": home, "village": village, "shared": shared, "pub": pub, "players": players}


def organiser_of(django_user_model, club, name="orga"):
    user = django_user_model.objects.create_user(name, password="pw")
    ClubRole.objects.create(user=user, club=club)
    return user


# --- the model ---------------------------------------------------------------------------


def test_a_tournament_counts_once_for_a_series(world):
    SeriesMembership.objects.create(tournament=world["shared"], season=world["village"])
    with pytest.raises(IntegrityError), transaction.atomic():
        SeriesMembership.objects.create(tournament=world["shared"], season=world["village"])


def test_the_model_refuses_its_home_season_again(world):
    membership = SeriesMembership(tournament=world["shared"], season=world["home"])
    with pytest.raises(ValidationError):
        membership.full_clean()
    SeriesMembership(tournament=world["shared"], season=world["village"]).full_clean()


# --- the service ---------------------------------------------------------------------------


def test_the_host_who_also_hosts_the_series_adds_it_logged_and_the_revision_moves(
    world, django_user_model
):
    shared, village = world["shared"], world["village"]
    # the pub's host club organises the village series (it hosts its own evening)
    world["pub"].host_club = shared.host_club
    world["pub"].save()
    user = organiser_of(django_user_model, shared.host_club)
    before = Tournament.objects.get(pk=shared.pk).revision
    assert add_to_series(tournament=shared, season=village, user=user) == [village]
    membership = SeriesMembership.objects.get(tournament=shared)
    assert membership.season == village and membership.added_by == user
    assert Tournament.objects.get(pk=shared.pk).revision == before + 1
    log = TournamentChange.objects.filter(tournament=shared).latest("pk")
    assert log.changed_by == user and log.before == [] and log.after == [village.name]
    assert remove_from_series(tournament=shared, season=village, user=user) == []
    assert not SeriesMembership.objects.exists()
    assert TournamentChange.objects.filter(tournament=shared).latest("pk").after == []


def test_the_host_alone_may_not_put_its_evening_into_anothers_series(world, django_user_model):
    """The series decides what counts for it: the shared tournament's organiser who has no
    say in the village series is refused, and nothing changes."""
    shared = world["shared"]
    user = organiser_of(django_user_model, shared.host_club)
    with pytest.raises(PermissionDenied):
        set_series(tournament=shared, seasons=[world["village"]], user=user)
    # nor the series' organiser a tournament of another host
    other = organiser_of(django_user_model, world["pub"].host_club, name="wirt")
    with pytest.raises(PermissionDenied):
        set_series(tournament=shared, seasons=[world["village"]], user=other)
    assert not SeriesMembership.objects.exists()
    assert not TournamentChange.objects.filter(tournament=shared, action="edited").exists()


def test_the_associations_scorer_may(world, django_user_model):
    scorer = django_user_model.objects.create_user("sportwart", password="pw")
    AssociationRole.objects.create(user=scorer)
    set_series(tournament=world["shared"], seasons=[world["village"]], user=scorer)
    assert SeriesMembership.objects.filter(season=world["village"]).count() == 1


@pytest.mark.parametrize("case", ["home", "outside", "too_many"])
def test_bad_input_gets_a_german_refusal_and_changes_nothing(world, django_user_model, case):
    superuser = django_user_model.objects.create_superuser("chef", "", "pw")
    shared = world["shared"]
    SeriesMembership.objects.create(tournament=shared, season=world["village"])
    revision = Tournament.objects.get(pk=shared.pk).revision
    if case == "home":
        seasons, words = [world["village"], world["home"]], "eigene Saison"
    elif case == "outside":
        later = SeasonFactory(
            name="Sommercego", starts_on=dt.date(2027, 6, 1), ends_on=dt.date(2027, 8, 31)
        )
        seasons, words = [later], "liegt außerhalb"
    else:
        seasons = [SeasonFactory(name=f"Reihe {n}") for n in range(21)]
        words = "Höchstens 20 Serien"
    with translation.override("de"), pytest.raises(ValidationError) as refused:
        set_series(tournament=shared, seasons=seasons, user=superuser)
    assert words in str(refused.value.message_dict["series"]), refused.value
    assert list(SeriesMembership.objects.values_list("season_id", flat=True)) == [
        world["village"].pk
    ]
    assert Tournament.objects.get(pk=shared.pk).revision == revision


# --- the selector and the standings --------------------------------------------------------


def test_a_shared_tournament_counts_in_both_series_each_under_its_own_rule(world):
    home, village, shared, pub = world["home"], world["village"], world["shared"], world["pub"]
    p = world["players"]
    before = season_standings(season=home)
    SeriesMembership.objects.create(tournament=shared, season=village)

    championship = season_standings(season=home)
    assert championship.tournaments == (shared,)
    # the home season exactly as before: the sum of its own tournament
    assert [(r.player_id, r.rank, r.total) for r in championship.rows] == [
        (r.player_id, r.rank, r.total) for r in before.rows
    ]
    assert {r.player_id: r.total for r in championship.rows} == {
        p[0].pk: 50,
        p[1].pk: 10,
        p[2].pk: -30,
        p[3].pk: -30,
    }

    series = season_standings(season=village)
    assert series.tournaments == (shared, pub)  # by date, the shared one first
    # cup points 10, 6, 3: shared places 1, 2, 3=, 3=; the pub's 2=, 2=, 1, 2=
    assert [(r.player_id, r.total) for r in series.rows] == [
        (p[0].pk, 10 + 6),
        (p[2].pk, 3 + 10),
        (p[1].pk, 6 + 6),
        (p[3].pk, 3 + 6),
    ]
    assert [r.rank for r in series.rows] == [1, 2, 3, 4]
    winners = day_winners(result=series)
    assert [(d.tournament, [w.player_id for w in d.winners], d.total, d.home) for d in winners] == [
        (shared, [p[0].pk], 50, False),
        (pub, [p[2].pk], 60, True),
    ]


def test_the_seasons_tournaments_in_a_constant_number_of_queries(world, django_assert_num_queries):
    home, village = world["home"], world["village"]
    SeriesMembership.objects.create(tournament=world["shared"], season=village)
    season_standings(season=village)  # the results stored once
    with CaptureQueriesContext(connection) as small:
        season_standings(season=village)
    with django_assert_num_queries(2):
        season_tournaments(seasons=[home, village])
    # more seasons, tournaments and memberships: the same numbers
    for day in (5, 6, 7):
        extra = tournament_in(home, f"Mehr {day}", day)
        play(
            extra,
            [EntryFactory(tournament=extra, player=pl) for pl in world["players"]],
            [(3, 45)],
        )
        SeriesMembership.objects.create(tournament=extra, season=village)
    third = SeasonFactory(name="Rangliste")
    SeriesMembership.objects.create(tournament=world["pub"], season=third)
    season_standings(season=village)
    with django_assert_num_queries(len(small.captured_queries)):
        result = season_standings(season=village)
    assert len(result.tournaments) == 5
    with django_assert_num_queries(2):
        found = season_tournaments(seasons=[home, village, third])
    assert [t.name for t in found[third.pk]] == ["Cego-Winter im Hirschen"]
    assert len(found[home.pk]) == 4 and len(found[village.pk]) == 5


def test_the_workbook_calendar_and_api_take_the_also_counting_tournament(world, client):
    village, shared = world["village"], world["shared"]
    SeriesMembership.objects.create(tournament=shared, season=village)
    assert [r.tournament for r in season_tournament_standings(season=village)] == [
        shared,
        world["pub"],
    ]
    assert [e.tournament_id for e in calendar_entries(season=village)] == [
        shared.pk,
        world["pub"].pk,
    ]
    feed = client.get(reverse("seasons:calendar_season_feed", args=[str(village.pk)]))
    assert feed.status_code == 200 and "Meisterschaft Bräunlingen" in feed.content.decode()
    document = client.get(reverse("api:season_standings", args=[village.pk])).json()
    assert [t["name"] for t in document["tournaments"]] == [
        "Meisterschaft Bräunlingen",
        "Cego-Winter im Hirschen",
    ]
    listed = client.get(reverse("api:tournaments") + f"?season={village.pk}").json()
    assert {t["name"] for t in listed["results"]} == {
        "Meisterschaft Bräunlingen",
        "Cego-Winter im Hirschen",
    }
    home_listed = client.get(reverse("api:tournaments") + f"?season={world['home'].pk}").json()
    assert [t["name"] for t in home_listed["results"]] == ["Meisterschaft Bräunlingen"]


def test_the_series_workbook_has_the_shared_evening(world, client, django_user_model):
    village, shared = world["village"], world["shared"]
    SeriesMembership.objects.create(tournament=shared, season=village)
    client.force_login(django_user_model.objects.create_superuser("chef", "", "pw"))
    response = client.get(reverse("exports:season_standings_xlsx", args=[village.pk]))
    assert response.status_code == 200
    book = openpyxl.load_workbook(io.BytesIO(b"".join(response.streaming_content)), read_only=True)
    cells = {
        str(cell)
        for sheet in book.worksheets
        for row in sheet.iter_rows(values_only=True)
        for cell in row
        if cell is not None
    }
    assert any("Meisterschaft Bräunlingen" in cell for cell in cells)


def test_a_membership_moves_the_series_cached_page(world, client, django_user_model):
    village, shared = world["village"], world["shared"]
    url = reverse("seasons:season_standings", args=[village.pk])
    assert "Meisterschaft Bräunlingen" not in client.get(url).content.decode()
    superuser = django_user_model.objects.create_superuser("chef", "", "pw")
    set_series(tournament=shared, seasons=[village], user=superuser)
    html = client.get(url).content.decode()
    assert "Meisterschaft Bräunlingen" in html and "also counts here" in html
    set_series(tournament=shared, seasons=[], user=superuser)
    assert "Meisterschaft Bräunlingen" not in client.get(url).content.decode()


# --- the pages -----------------------------------------------------------------------------


def test_the_series_page_shows_the_day_winners(world, client):
    SeriesMembership.objects.create(tournament=world["shared"], season=world["village"])
    html = client.get(reverse("seasons:season_standings", args=[world["village"].pk])).content
    html = html.decode()
    section = html.split('id="day-winners"')[1].split("</section>")[0]
    assert "Day winners" in html
    first, second = section.split("<li>")[1:3]
    assert (
        "Meisterschaft Bräunlingen" in first and "Eva Spieler0" in first and "also counts" in first
    )
    assert "Cego-Winter im Hirschen" in second and "Gasthaus Hirschen" in second
    assert "Eva Spieler2" in second and "also counts" not in second


def test_the_tournaments_pages_name_every_series(world, client, django_user_model):
    shared = world["shared"]
    SeriesMembership.objects.create(tournament=shared, season=world["village"])
    assert tournament_series(tournament=shared).all == (world["home"], world["village"])
    public = client.get(reverse("tournaments:standings", args=[shared.pk])).content.decode()
    part = public.split('id="tournament-series"')[1].split("</p>")[0]
    assert "Schwarzwaldmeisterschaft 2026/27" in part and "Unadinger Cego-Winter" in part
    assert reverse("seasons:season_standings", args=[world["village"].pk]) in part
    assert "tournament_series" not in part and "/series/" not in part  # no edit link
    client.force_login(organiser_of(django_user_model, shared.host_club))
    desk = client.get(reverse("tournaments:tournament_detail", args=[shared.pk])).content.decode()
    part = desk.split('id="tournament-series"')[1].split("</p>")[0]
    assert "Unadinger Cego-Winter" in part
    assert reverse("seasons:tournament_series", args=[shared.pk]) in part


def test_the_organisers_form_ticks_the_series(world, client, django_user_model):
    shared, village = world["shared"], world["village"]
    world["pub"].host_club = shared.host_club  # this club runs the village series too
    world["pub"].save()
    SeasonFactory(name="Sommercego", starts_on=dt.date(2027, 6, 1), ends_on=dt.date(2027, 8, 31))
    client.force_login(organiser_of(django_user_model, shared.host_club))
    url = reverse("seasons:tournament_series", args=[shared.pk])
    page = client.get(url).content.decode()
    assert "Unadinger Cego-Winter" in page
    assert "Sommercego" not in page  # its dates do not hold the day
    assert f'value="{world["home"].pk}"' not in page  # the own season is not offered
    response = client.post(url, {"series": [village.pk]})
    assert response.status_code == 302
    assert list(SeriesMembership.objects.values_list("season_id", flat=True)) == [village.pk]
    # a season not offered: refused in German, nothing changed
    client.cookies["django_language"] = "de"
    response = client.post(url, {"series": [world["home"].pk]})
    assert response.status_code == 200
    assert "gültige Auswahl" in response.content.decode()
    assert list(SeriesMembership.objects.values_list("season_id", flat=True)) == [village.pk]


def test_the_form_refuses_strangers(world, client, django_user_model):
    url = reverse("seasons:tournament_series", args=[world["shared"].pk])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(organiser_of(django_user_model, ClubFactory(), name="fremd"))
    assert client.get(url).status_code == 403
    assert client.post(url, {"series": [world["village"].pk]}).status_code == 403
    assert not SeriesMembership.objects.exists()


def test_the_player_page_lists_the_series_with_the_players_rank(world):
    from seasons.selectors.players import player_page

    SeriesMembership.objects.create(tournament=world["shared"], season=world["village"])
    page = player_page(player=world["players"][2])
    found = {s.season.name: s for s in page.seasons}
    assert set(found) == {"Schwarzwaldmeisterschaft 2026/27", "Unadinger Cego-Winter"}
    series = found["Unadinger Cego-Winter"]
    assert series.rank == 2  # cup points 3 + 10, behind 10 + 6
    assert [(t.name, total) for t, total, _running in series.steps] == [
        ("Meisterschaft Bräunlingen", -30),
        ("Cego-Winter im Hirschen", 60),
    ]
    assert found["Schwarzwaldmeisterschaft 2026/27"].rank == 3
