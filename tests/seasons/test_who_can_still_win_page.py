"""Who can still win on the season page and its projector (issue 41 item 1): which tournament
is the final, before and during it, live as its deals arrive, and gone once it is finished."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from seasons.selectors.chances import BEFORE, DURING, season_chances, season_final
from seasons.selectors.standings import season_standings
from tests.factories import EntryFactory, PlayerFactory, SeasonFactory, TournamentFactory
from tests.tournaments.standings.conftest import cego, table_of
from tournaments.services.phone_entry import enter_deal

pytestmark = pytest.mark.django_db


def make_season(*, planned=3, scoring="sum", **kwargs):
    today = timezone.localdate()
    season = SeasonFactory(
        name="Cego-Saison",
        starts_on=today - dt.timedelta(days=60),
        ends_on=today + dt.timedelta(days=60),
        planned_tournaments=planned,
        scoring=scoring,
        **kwargs,
    )
    anna, bert, carl, dora = (
        PlayerFactory(first_name=f, last_name="Hall") for f in ("Anna", "Bert", "Carl", "Dora")
    )
    people = [anna, bert, carl, dora]
    for days, totals in ((40, (100, 60, 20, -180)), (20, (50, 40, 10, -100))):
        t = TournamentFactory(season=season, date=today - dt.timedelta(days=days))
        for player, total in zip(people, totals, strict=True):
            EntryFactory(tournament=t, player=player, paper_total=total)
    final = TournamentFactory(season=season, name="Finale Brauerei", date=today)
    entries = [EntryFactory(tournament=final, player=p) for p in people]
    return season, final, entries


def page(client, season):
    return client.get(reverse("seasons:season_standings", args=[season.pk])).content.decode()


def test_before_the_final_each_contender_told_what_it_takes(client):
    season, final, _ = make_season()
    assert season_final(season_standings(season=season)) == (final, BEFORE)
    html = page(client, season)
    assert "Before the final: who can still win?" in html
    assert "Finale Brauerei" in html
    assert "leader" in html
    # Anna 150, Bert 100: 51 more than Anna in the final
    assert "needs 51 points more than Anna Hall" in html
    assert "Points in the final are not bounded" in html
    assert reverse("seasons:season_projector", args=[season.pk]) in html
    assert "data-live-url" not in html  # nothing moves before the final


def test_cup_points_bounded_and_out_of_reach_said(client):
    season, _, _ = make_season(scoring="cup", cup_points=[10, 6, 3])
    html = page(client, season)
    # Anna 20, Bert 12, Carl 6, Dora 0 cup points; the final gives at most 10
    assert "needs 9 cup points more than Anna Hall (at most 10 possible)" in html
    assert html.count("out of reach") == 2  # Carl and Dora
    assert "The final gives at most 10 cup points" in html


def test_during_the_final_live_as_its_deals_arrive(client):
    season, final, entries = make_season()
    table = table_of(tournament=final, entries=entries)
    # Bert wins a Cego: +30, the others -10: Anna 140, Bert 130
    enter_deal(table=table, number=1, inputs=cego(1, 45))
    assert season_final(season_standings(season=season)) == (final, DURING)
    html = page(client, season)
    assert "The final is on: who can still win?" in html
    assert "needs 11 points more than Anna Hall" in html
    url = reverse("seasons:season_standings", args=[season.pk])
    assert f'data-live-url="{url}?partial=chances"' in html and "live-refresh.js" in html
    enter_deal(table=table, number=2, inputs=cego(1, 45))  # Bert 160, Anna 130
    html = page(client, season)
    assert "needs 31 points more than Bert Hall" in html
    assert "needs 11 points more than Anna Hall" not in html
    # the live part alone, as the page's script fetches it
    part = client.get(url + "?partial=chances").content.decode()
    assert "<html" not in part and "needs 31 points more than Bert Hall" in part


def test_not_shown_while_other_tournaments_are_to_come_nor_after_the_final(client):
    season, final, entries = make_season(planned=5)
    assert season_final(season_standings(season=season)) is None
    assert "who can still win" not in page(client, season)
    season.planned_tournaments = 3
    season.save()
    table = table_of(tournament=final, entries=entries)
    enter_deal(table=table, number=1, inputs=cego(1, 45))
    assert "who can still win" in page(client, season)
    final.finished_at = timezone.now()
    final.save()
    assert "who can still win" not in page(client, season)


def test_a_season_without_a_plan_has_no_final(client):
    season, _, _ = make_season(planned=None)
    assert season_final(season_standings(season=season)) is None
    assert "who can still win" not in page(client, season)


def test_during_the_final_a_player_not_in_it_cannot_score(client):
    season, final, entries = make_season(scoring="best_n", best_of=2)
    table = table_of(tournament=final, entries=entries[:3] + [EntryFactory(tournament=final)])
    enter_deal(table=table, number=1, inputs=cego(0, 45))
    kinds = {
        row.first_name: chance.kind
        for row, chance in season_chances(season_standings(season=season)).rows
    }
    assert kinds["Dora"] == "needs"  # entered: she may still be seated
    entries[3].withdrawn_after_round = 0
    entries[3].save()
    kinds = {
        row.first_name: chance.kind
        for row, chance in season_chances(season_standings(season=season)).rows
    }
    assert kinds["Dora"] == "out_of_reach"  # withdrew from the final
    assert kinds["Anna"] == "leader"


def test_one_query_during_the_final_none_before(django_assert_num_queries):
    season, final, entries = make_season()
    result = season_standings(season=season)
    with django_assert_num_queries(0):
        season_chances(result)
    table = table_of(tournament=final, entries=entries)
    enter_deal(table=table, number=1, inputs=cego(1, 45))
    result = season_standings(season=season)
    with django_assert_num_queries(1):
        season_chances(result)


def test_the_projector_and_its_live_part(client):
    season, _, _ = make_season()
    url = reverse("seasons:season_projector", args=[season.pk])
    html = client.get(url).content.decode()
    assert 'data-live-url="' + url + '?partial=1"' in html
    assert "needs 51 points more than Anna Hall" in html
    part = client.get(url + "?partial=1").content.decode()
    assert "<html" not in part and "needs 51 points more than Anna Hall" in part
