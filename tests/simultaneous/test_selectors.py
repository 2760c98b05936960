"""The day's rankings (simultaneous.selectors): each hall's is its tournament's standings,
the overall one every hall's players by total; a constant number of queries whatever the
number of halls; places hidden for a hall's prize ceremony stay hidden."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ceremony.models import CeremonySettings
from simultaneous import services
from simultaneous.selectors import day_ranking
from tests.simultaneous.conftest import hall_tournament
from tests.tournaments.results.conftest import seat_table
from tests.tournaments.standings.conftest import cego
from tournaments.models import Tournament
from tournaments.selectors.standings import tournament_standings
from tournaments.services.phone_entry import enter_deal

pytestmark = pytest.mark.django_db

TOWNS = ["Unadingen", "Lenzkirch", "Bräunlingen", "Hüfingen", "Löffingen"]


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


def play_hall(tournament, *, tables: int, seed: int) -> None:
    for number in range(1, tables + 1):
        table = seat_table(tournament=tournament, table_number=number)
        for deal in range(1, 4):
            enter_deal(
                table=table,
                number=deal,
                inputs=cego((deal + number + seed) % 4, 45 + (deal * 7 + seed * 3 + number) % 30),
            )


def make_day(simday, scorer, halls: int, tables: int = 2):
    tournaments = []
    for index, town in enumerate(TOWNS[:halls]):
        tournament = hall_tournament(town)
        services.add_hall(day=simday, tournament=tournament, by=scorer)
        play_hall(tournament, tables=tables, seed=index)
        tournaments.append(tournament)
    simday.refresh_from_db()
    return tournaments


def test_each_section_is_its_tournaments_standings(simday, scorer):
    tournaments = make_day(simday, scorer, halls=3)
    result = day_ranking(day=simday)
    by_tournament = {s.tournament_id: s for s in result.sections}
    for tournament in tournaments:
        expected = tournament_standings(tournament=Tournament.objects.get(pk=tournament.pk)).rows
        assert by_tournament[tournament.pk].rows == expected


def test_the_overall_ranking_holds_every_player_by_total(simday, scorer):
    tournaments = make_day(simday, scorer, halls=3)
    result = day_ranking(day=simday)
    everyone = [
        (row.entry_id, row.total)
        for t in tournaments
        for row in tournament_standings(tournament=Tournament.objects.get(pk=t.pk)).rows
    ]
    assert len(result.overall) == len(everyone) == 3 * 2 * 4
    assert sorted((item.row.entry, item.row.total) for item in result.overall) == sorted(everyone)
    totals = [item.row.total for item in result.overall]
    assert totals == sorted(totals, reverse=True)
    for item in result.overall:
        assert item.rank == 1 + sum(1 for _, total in everyone if total > item.row.total)


@pytest.mark.parametrize("halls", [1, 5])
def test_a_constant_number_of_queries(simday, scorer, halls):
    make_day(simday, scorer, halls=halls)
    with CaptureQueriesContext(connection) as built:
        day_ranking(day=simday)
    with CaptureQueriesContext(connection) as cached:
        day_ranking(day=simday)
    assert len(built) == 9
    assert len(cached) == 1


def test_a_new_deal_is_in_the_next_ranking(simday, scorer):
    (tournament,) = make_day(simday, scorer, halls=1)
    before = day_ranking(day=simday)
    table = seat_table(tournament=tournament, table_number=9)
    enter_deal(table=table, number=1, inputs=cego(0, 79))
    after = day_ranking(day=simday)
    assert after.stamp != before.stamp
    assert len(after.overall) == len(before.overall) + 4
    assert after.overall[0].row.total > before.overall[0].row.total


def test_places_hidden_in_a_hall_are_in_no_ranking(simday, scorer):
    first, second = make_day(simday, scorer, halls=2)
    top = tournament_standings(tournament=first).rows[0]
    CeremonySettings.objects.create(tournament=first, hide_from_round=1, hide_top_n=1)
    Tournament.objects.get(pk=first.pk).save()  # the desk's change bumps the revision
    result = day_ranking(day=simday)
    section = next(s for s in result.sections if s.tournament_id == first.pk)
    assert section.hidden
    assert top.entry_id not in {row.entry_id for row in section.rows}
    assert top.entry_id not in {
        item.row.entry for item in result.overall if item.row.section == section.section_id
    }


def test_a_hall_changed_afterwards_is_shown_apart(simday, scorer):
    first, second = make_day(simday, scorer, halls=2)
    Tournament.objects.filter(pk=first.pk).update(rules_slug="bb2013", revision=99)
    result = day_ranking(day=simday)
    section = next(s for s in result.sections if s.tournament_id == first.pk)
    assert section.misfit == ("rules_slug",)
    assert {item.row.section for item in result.overall} == {
        s.section_id for s in result.sections if s.tournament_id == second.pk
    }
