"""The roll of honour: past seasons' winners and side-ranking winners, in a constant number
of queries."""

import datetime as dt

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clubs.models import Category
from seasons.selectors.honours import roll_of_honour
from tests.factories import EntryFactory, PlayerFactory, SeasonFactory, TournamentFactory
from tests.seasons.conftest import play, tournament_in

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()


def past_season(year, names):
    """A season that ended before today; in its one tournament the first of ``names`` wins
    (a won Cego: +30, the others -10)."""
    season = SeasonFactory(
        name=f"Saison {year}/{year + 1 - 2000}",
        starts_on=dt.date(year, 11, 1),
        ends_on=dt.date(year + 1, 4, 30),
    )
    tournament = tournament_in(season, f"Turnier {year}", 14)
    entries = [EntryFactory(tournament=tournament, player=player) for player in names]
    play(tournament, entries, [(0, 45)])
    return season


@pytest.fixture
def people():
    return {
        "anna": PlayerFactory(first_name="Anna", last_name="Adler", category=Category.WOMAN),
        "bert": PlayerFactory(first_name="Bert", last_name="Berger", category=Category.YOUTH),
        "carl": PlayerFactory(first_name="Carl", last_name="Czerny", category=Category.SENIOR),
        "dora": PlayerFactory(first_name="Dora", last_name="Dorn", category=Category.WOMAN),
    }


def test_past_seasons_with_their_winners_newest_first(people):
    p = people
    past_season(2023, [p["anna"], p["bert"], p["carl"], p["dora"]])
    past_season(2024, [p["bert"], p["anna"], p["carl"], p["dora"]])
    current = SeasonFactory(
        name="Saison jetzt",
        starts_on=TODAY - dt.timedelta(days=10),
        ends_on=TODAY + dt.timedelta(days=100),
    )
    now = TournamentFactory(season=current, date=TODAY, rules_slug="swm", deals_per_round=24)
    play(
        now, [EntryFactory(tournament=now, player=player) for player in people.values()], [(3, 45)]
    )
    honours = roll_of_honour(today=TODAY)
    assert [h.name for h in honours] == ["Saison 2024/25", "Saison 2023/24"]
    newest, oldest = honours
    assert [c.name for c in newest.champions] == ["Bert Berger"]
    assert newest.champions[0].total == 30
    assert [c.name for c in oldest.champions] == ["Anna Adler"]
    sides = dict(oldest.sides)
    assert [w.name for w in sides["woman"]] == ["Anna Adler"]
    assert [w.name for w in sides["youth"]] == ["Bert Berger"]
    assert [w.name for w in sides["senior"]] == ["Carl Czerny"]
    # Bert, Carl and Dora share the last place with -10 each
    assert len(sides["last"]) == 3
    assert [w.name for w in dict(newest.sides)["youth"]] == ["Bert Berger"]


def test_a_season_without_results_is_left_out(people):
    SeasonFactory(name="Leer", starts_on=dt.date(2020, 1, 1), ends_on=dt.date(2020, 6, 1))
    assert roll_of_honour(today=TODAY) == []


def test_a_constant_number_of_queries_whatever_the_number_of_seasons(people):
    p = list(people.values())
    past_season(2021, p)
    roll_of_honour(today=TODAY)  # the tournament's results stored
    cache.clear()
    with CaptureQueriesContext(connection) as one:
        roll_of_honour(today=TODAY)
    for year in (2022, 2023, 2024):
        past_season(year, p)
    roll_of_honour(today=TODAY)  # the new tournaments' results stored
    cache.clear()
    with CaptureQueriesContext(connection) as four:
        assert len(roll_of_honour(today=TODAY)) == 4
    assert len(four) == len(one)
    with CaptureQueriesContext(connection) as cached:
        roll_of_honour(today=TODAY)
    assert len(cached) == 2


def test_a_change_in_a_past_season_is_seen(people):
    p = list(people.values())
    season = past_season(2022, p)
    assert roll_of_honour(today=TODAY)[0].champions[0].name == "Anna Adler"
    tournament = tournament_in(season, "Nachtrag", 21)
    entries = [EntryFactory(tournament=tournament, player=player) for player in p]
    play(tournament, entries, [(1, 45), (1, 45), (1, 45)])  # Bert +90, the others -30
    assert roll_of_honour(today=TODAY)[0].champions[0].name == "Bert Berger"


def test_the_page(client, people, settings):
    season = past_season(2023, list(people.values()))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    html = client.get(reverse("seasons:roll_of_honour")).content.decode()
    assert "Ehrentafel" in html and "Saison 2023/24" in html
    assert "Anna Adler" in html and "Jugend" in html
    assert reverse("seasons:season_standings", args=[season.pk]) in html


def test_the_page_without_past_seasons(client):
    html = client.get(reverse("seasons:roll_of_honour")).content.decode()
    assert "No season has ended yet." in html
