"""The season's final rule (at least N tournaments), each player's change of rank since the
previous tournament: the pure rules, the standings, the page, the rules form."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from clubs.models import Category
from seasons import ranking
from seasons.selectors.standings import season_standings
from seasons.services import set_season_rules
from seasons.words import movement_symbol, movement_text, qualification_text
from tests.factories import EntryFactory, PlayerFactory
from tests.seasons.conftest import play, tournament_in


def test_qualification_counts_the_tournaments_still_needed():
    assert ranking.qualification(played=3, needed=None, remaining=5) is None
    done = ranking.qualification(played=4, needed=3, remaining=0)
    assert done.qualified and done.missing == 0 and done.reachable
    one = ranking.qualification(played=2, needed=3, remaining=1)
    assert (one.qualified, one.missing, one.reachable) == (False, 1, True)
    late = ranking.qualification(played=0, needed=3, remaining=2)
    assert (late.missing, late.reachable) == (3, False)
    # the season's plan unknown: how many are missing, never "out of reach"
    unknown = ranking.qualification(played=0, needed=3, remaining=None)
    assert (unknown.missing, unknown.reachable) == (3, None)
    assert ranking.qualification(played=3, needed=3, remaining=None).reachable is True
    with pytest.raises(ValueError):
        ranking.qualification(played=1, needed=0, remaining=1)
    with pytest.raises(ValueError):
        ranking.qualification(played=1, needed=2, remaining=-1)


def test_movements_compare_ranks_before_and_after():
    moved = ranking.movements(
        {"a": 1, "b": 2, "c": 3, "x": 4}, {"a": 2, "b": 1, "c": 3, "n": 4, "u": None}
    )
    assert moved["a"] == ranking.Movement(ranking.DOWN, 1)
    assert moved["b"] == ranking.Movement(ranking.UP, 1)
    assert moved["c"] == ranking.Movement(ranking.SAME)
    assert moved["n"] == ranking.Movement(ranking.NEW)
    assert "u" not in moved and "x" not in moved


def test_words_in_german():
    with translation.override("de"):
        assert (
            qualification_text(ranking.qualification(played=3, needed=3, remaining=0))
            == "qualifiziert"
        )
        assert (
            qualification_text(ranking.qualification(played=2, needed=3, remaining=4))
            == "noch 1 Turnier"
        )
        assert (
            qualification_text(ranking.qualification(played=1, needed=3, remaining=4))
            == "noch 2 Turniere"
        )
        assert (
            qualification_text(ranking.qualification(played=0, needed=3, remaining=1))
            == "nicht mehr erreichbar"
        )
        assert (
            qualification_text(ranking.qualification(played=0, needed=3, remaining=None))
            == "noch 3 Turniere"
        )
        assert movement_symbol(ranking.Movement(ranking.UP, 2)) == "▲2"
        assert movement_symbol(ranking.Movement(ranking.DOWN, 1)) == "▼1"
        assert movement_symbol(ranking.Movement(ranking.NEW)) == "neu"
        assert movement_text(ranking.Movement(ranking.UP, 2)) == "2 Plätze gewonnen"
        assert movement_text(ranking.Movement(ranking.DOWN, 1)) == "1 Platz verloren"


@pytest.fixture
def three(season):
    """T7: A +60, B C E -20; T14: B +30, A C D -10; T21: C D +20, A B -20 (swm)."""
    people = {
        "A": PlayerFactory(last_name="Anna", category=Category.WOMAN),
        "B": PlayerFactory(last_name="Bert", category=Category.SENIOR),
        "C": PlayerFactory(last_name="Carl", category=Category.YOUTH),
        "D": PlayerFactory(last_name="Dora", category=Category.WOMAN),
        "E": PlayerFactory(last_name="Emil"),
    }
    plan = [("ABCE", [(0, 45), (0, 45)]), ("ABCD", [(1, 45)]), ("ABCD", [(2, 45), (3, 45)])]
    for day, (who, deals) in zip((7, 14, 21), plan, strict=True):
        tournament = tournament_in(season, f"T{day}", day)
        entries = [EntryFactory(tournament=tournament, player=people[key]) for key in who]
        play(tournament, entries, deals)
    return people


@pytest.fixture
def today(season, monkeypatch):
    """The 25th of the season's first month: T7, T14 and T21 are over, a T28 is to come
    (the pages read the date through ``timezone.localdate``)."""
    day = season.starts_on.replace(day=25)
    monkeypatch.setattr(timezone, "localdate", lambda *args: day)
    return day


def rows_of(season):
    season.refresh_from_db()
    return {row.last_name: row for row in season_standings(season=season).rows}


@pytest.mark.django_db
def test_rank_changes_since_the_previous_tournament(season, three):
    # Before T21: A 50, B 10, D -10, E -20, C -30; after: A 30, D 10, B -10 = C -10, E -20.
    rows = rows_of(season)
    assert {name: (row.rank, row.total) for name, row in rows.items()} == {
        "Anna": (1, 30),
        "Dora": (2, 10),
        "Bert": (3, -10),
        "Carl": (3, -10),
        "Emil": (5, -20),
    }
    assert rows["Anna"].movement == ranking.Movement(ranking.SAME)
    assert rows["Dora"].movement == ranking.Movement(ranking.UP, 1)
    assert rows["Bert"].movement == ranking.Movement(ranking.DOWN, 1)
    assert rows["Carl"].movement == ranking.Movement(ranking.UP, 2)
    assert rows["Emil"].movement == ranking.Movement(ranking.DOWN, 1)
    assert all(row.qualification is None for row in rows.values())  # no final rule


@pytest.mark.django_db
def test_a_player_ranked_for_the_first_time_is_new(season, three):
    set_season_rules(season=season, scoring="sum", best_of=None, cup_points=[], min_tournaments=2)
    rows = rows_of(season)
    # Dora reached two tournaments with T21: ranked now, not before.
    assert rows["Dora"].movement == ranking.Movement(ranking.NEW)
    assert rows["Emil"].rank is None and rows["Emil"].movement is None


@pytest.mark.django_db
def test_one_tournament_played_shows_no_change(season):
    people = [PlayerFactory() for _ in range(4)]
    tournament = tournament_in(season, "T7", 7)
    play(tournament, [EntryFactory(tournament=tournament, player=p) for p in people], [(0, 45)])
    assert all(row.movement is None for row in rows_of(season).values())


@pytest.mark.django_db
def test_final_rule_with_a_tournament_still_to_come(season, three, today):
    tournament_in(season, "T28", 28)  # announced, nothing played
    set_season_rules(
        season=season,
        scoring="best_n",
        best_of=2,
        cup_points=[],
        min_tournaments=1,
        final_min_tournaments=3,
        planned_tournaments=4,  # the three played and T28
    )
    rows = rows_of(season)
    assert rows["Anna"].qualification.qualified
    assert rows["Dora"].qualification.missing == 1 and rows["Dora"].qualification.reachable
    assert rows["Emil"].qualification.missing == 2
    assert rows["Emil"].qualification.reachable is False
    # best N unchanged: Anna's best two, 60 and -10
    assert rows["Anna"].total == 50


@pytest.mark.django_db
def test_standings_page_shows_the_final_column_and_the_changes(client, season, three, today):
    set_season_rules(
        season=season,
        scoring="sum",
        best_of=None,
        cup_points=[],
        min_tournaments=1,
        final_min_tournaments=3,
        planned_tournaments=3,  # all three played: nothing to come
    )
    html = client.get(reverse("seasons:season_standings", args=[season.pk])).content.decode()
    assert "Final: qualified with at least 3 tournaments." in html
    assert "3 players have qualified so far." in html
    assert 'class="col-final final-qualified">qualified<' in html
    assert 'class="col-final final-out-of-reach">out of reach<' in html  # Dora, Emil
    assert "Assumed: 3 planned tournaments, of which 3 played, 0 still to come." in html
    assert (
        '<span aria-hidden="true">▲2</span><span class="visually-hidden">up 2 places</span>' in html
    )
    assert "▼1" in html


@pytest.mark.django_db
def test_standings_page_in_german(client, season, three, settings, today):
    tournament_in(season, "T28", 28)
    set_season_rules(
        season=season,
        scoring="sum",
        best_of=None,
        cup_points=[],
        min_tournaments=1,
        final_min_tournaments=3,
    )
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    html = client.get(reverse("seasons:season_standings", args=[season.pk])).content.decode()
    assert ">qualifiziert<" in html and ">noch 1 Turnier<" in html
    assert "2 Plätze gewonnen" in html


@pytest.mark.django_db
def test_without_the_rule_no_final_column(client, season, three):
    html = client.get(reverse("seasons:season_standings", args=[season.pk])).content.decode()
    assert "col-final" not in html


@pytest.mark.django_db
def test_rules_form_saves_the_final_rule_and_refuses_bad_input(client, season, organiser):
    client.force_login(organiser)
    url = reverse("seasons:season_rules", args=[season.pk])
    base = {"scoring": "sum", "best_of": "", "cup_points": "", "min_tournaments": "1"}
    page = client.get(url).content.decode()
    assert "qualify for the final" in page  # the help text
    response = client.post(url, {**base, "final_min_tournaments": "0"})
    assert response.status_code == 200
    season.refresh_from_db()
    assert season.final_min_tournaments is None
    response = client.post(url, {**base, "final_min_tournaments": "abc"})
    assert response.status_code == 200 and season.final_min_tournaments is None
    assert client.post(url, {**base, "final_min_tournaments": "8"}).status_code == 302
    season.refresh_from_db()
    assert season.final_min_tournaments == 8
    assert client.post(url, {**base, "final_min_tournaments": ""}).status_code == 302
    season.refresh_from_db()
    assert season.final_min_tournaments is None


@pytest.mark.django_db
def test_the_service_refuses_a_final_rule_out_of_range(season):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        set_season_rules(
            season=season,
            scoring="sum",
            best_of=None,
            cup_points=[],
            min_tournaments=1,
            final_min_tournaments=100,
        )
    season.refresh_from_db()
    assert season.final_min_tournaments is None


@pytest.mark.django_db
def test_the_standings_still_take_a_constant_number_of_queries(season, three):
    season.final_min_tournaments = 2
    season.save()
    season_standings(season=season)  # results stored
    with CaptureQueriesContext(connection) as small:
        season_standings(season=season)
    more = [PlayerFactory() for _ in range(4)]
    tournament = tournament_in(season, "T28", 28)
    play(tournament, [EntryFactory(tournament=tournament, player=p) for p in more], [(0, 45)])
    season_standings(season=season)
    with CaptureQueriesContext(connection) as large:
        season_standings(season=season)
    assert len(large) == len(small)


@pytest.mark.django_db
def test_workbook_rows_and_api_document_carry_the_final_and_the_change(season, three, today):
    from api.documents import season_document
    from exports.season import season_standings_rows

    tournament_in(season, "T28", 28)
    season.final_min_tournaments = 3
    season.planned_tournaments = 4
    season.save()
    result = season_standings(season=season)
    header, *rows = list(season_standings_rows(result))
    assert header[-2:] == ["Final", "Change of place"]
    by_name = {row[2]: row for row in rows}
    assert by_name["Carl"][-2:] == ["qualified", "▲2"]
    assert by_name["Dora"][-2:] == ["1 more tournament", "▲1"]
    document = {row["last_name"]: row for row in season_document(result)["standings"]}
    assert season_document(result)["final_min_tournaments"] == 3
    assert document["Emil"]["qualification"] == {
        "qualified": False,
        "missing": 2,
        "reachable": False,
    }
    assert document["Bert"]["movement"] == {"kind": "down", "by": 1}
    assert season_document(result)["plan"] == {
        "planned": 4,
        "played": 3,
        "lapsed": 0,
        "to_come": 1,
    }
    # without a plan nobody is told "out of reach": the document says it is not known
    season.planned_tournaments = None
    season.save()
    unknown = season_document(season_standings(season=season))
    assert unknown["plan"] == {"planned": None, "played": 3, "lapsed": 0, "to_come": None}
    emil = {row["last_name"]: row for row in unknown["standings"]}["Emil"]
    assert emil["qualification"] == {"qualified": False, "missing": 2, "reachable": None}
