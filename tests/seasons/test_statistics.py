"""Season statistics (issue 30, item 2): the figures agree with counts taken straight from the
database on three seeded seasons; a constant number of queries; the page, its link from the
season page, and the API (`/api/v1/seasons/<pk>/statistics/`)."""

import datetime as dt
import json

import pytest
from django.core.cache import cache
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from seasons.selectors.statistics import season_statistics, statistics_scope
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, SeasonFactory
from tests.seasons.conftest import play, tournament_in
from tournaments.models import Deal, Entry, Table, Tournament

pytestmark = pytest.mark.django_db

CONFIRMED, DEAL = Deal.Status.CONFIRMED, Deal.Kind.DEAL


def season_of(year: int):
    return SeasonFactory(
        name=f"Saison {year}/{str(year + 1)[2:]}",
        starts_on=dt.date(year, 11, 1),
        ends_on=dt.date(year + 1, 4, 30),
    )


def table_game(tournament, players, deals, *, table_number=1, round_number=1):
    entries = [
        Entry.objects.filter(tournament=tournament, player=p).first()
        or EntryFactory(tournament=tournament, player=p)
        for p in players
    ]
    return play(tournament, entries, deals, table_number=table_number, round_number=round_number)


@pytest.fixture
def seeded(db):
    """Three seasons at two host clubs, with what must not count: an annulled deal, a voided
    table, a registration without a result, a tournament of no season; and a paper-totals
    tournament, whose players count but which has no deals."""
    a = ClubFactory(name="Cegoclub A", short_name="CC A")
    b = ClubFactory(name="Cegoclub B", short_name="CC B")
    p = [PlayerFactory(first_name=f"P{i}", last_name=f"Spieler{i}") for i in range(14)]
    first, second, third = season_of(2024), season_of(2025), season_of(2026)

    t1 = tournament_in(first, "Erstes", 8, host_club=a)
    table_game(t1, p[0:4], [(0, 45), (1, 45), (2, 34)])
    t2 = tournament_in(first, "Zweites", 15, host_club=b)
    table_game(t2, [p[0], p[4], p[5], p[6]], [(0, 45), (3, 45)])

    t3 = tournament_in(second, "Drittes", 9, host_club=a)
    table_game(t3, [p[2], p[3], p[7], p[8]], [(0, 45), (1, 45), (2, 45)])
    annulled = Deal.objects.filter(table__round__tournament=t3).order_by("number").last()
    Deal.objects.filter(pk=annulled.pk).update(status=Deal.Status.ANNULLED)
    voided = table_game(t3, [p[9], p[10], p[12], p[13]], [(0, 45)], table_number=2)
    Table.objects.filter(pk=voided.pk).update(voided=True, void_reason="Falsch gesetzt")
    paper = tournament_in(second, "Vom Papier", 20, host_club=b, entry_mode="totals")
    EntryFactory(tournament=paper, player=p[1], paper_total=40)
    EntryFactory(tournament=paper, player=p[8], paper_total=-40)

    elsewhere = tournament_in(second, "Ohne Saison", 22, host_club=b)
    Tournament.objects.filter(pk=elsewhere.pk).update(season=None)
    table_game(elsewhere, [p[11], p[12], p[13], p[4]], [(0, 45)])

    t5 = tournament_in(third, "Fünftes", 7, host_club=a)
    table_game(t5, [p[0], p[9], p[10], p[11]], [(0, 45), (1, 34)])
    table_game(t5, [p[0], p[9], p[10], p[11]], [(2, 45)], round_number=2)
    t6 = tournament_in(third, "Sechstes", 14, host_club=b)
    table_game(t6, [p[1], p[2], p[9], p[10]], [(0, 45)])
    table_game(t6, [p[3], p[12], p[5], p[6]], [(3, 45), (2, 45)], table_number=2)
    upcoming = tournament_in(third, "Kommendes", 28, host_club=b)
    for player in p[:6]:
        EntryFactory(tournament=upcoming, player=player)  # registered, no result yet
    return (first, second, third), p


def players_in_db(seasons) -> set[int]:
    """Straight from the database: players seated at a table that counts with a confirmed
    deal, or with a paper total, in a tournament of ``seasons``."""
    return set(
        Entry.objects.filter(tournament__season__in=seasons)
        .filter(
            Q(paper_total__isnull=False)
            | Q(seats__table__voided=False, seats__table__deals__status=CONFIRMED)
        )
        .values_list("player_id", flat=True)
    )


def deals_in_db(seasons) -> int:
    return Deal.objects.filter(
        table__round__tournament__season__in=seasons,
        table__voided=False,
        status=CONFIRMED,
        kind=DEAL,
    ).count()


def test_the_figures_agree_with_the_database(seeded):
    (first, second, third), p = seeded
    statistics = season_statistics(scope=statistics_scope(season=third))
    by_season = {f.season.pk: f for f in statistics.seasons}
    assert [f.season for f in statistics.seasons] == [first, second, third]
    earlier: set[int] = set()
    for season in (first, second, third):
        figures = by_season[season.pk]
        players = players_in_db([season])
        assert figures.distinct_players == len(players), season
        assert figures.deals == deals_in_db([season]), season
        assert figures.tournaments == Tournament.objects.filter(season=season).count()
        assert figures.new_players == (
            len(players - earlier) if earlier or season != first else None
        )
        earlier |= players
    # and by hand, so that the oracle itself is checked
    assert (by_season[first.pk].distinct_players, by_season[first.pk].deals) == (7, 5)
    assert (by_season[second.pk].distinct_players, by_season[second.pk].deals) == (5, 2)
    assert by_season[second.pk].new_players == 2  # P7, P8 (P1, P2, P3 played in the first)
    figures = statistics.figures
    assert (figures.distinct_players, figures.deals, figures.new_players) == (10, 6, 4)
    assert (figures.tournaments, figures.tournaments_played) == (3, 2)
    # P9 to P12: before, they sat only at the voided table or in a tournament of no season
    assert figures.new_players == len(players_in_db([third]) - players_in_db([first, second]))


def test_players_per_tournament_and_per_host(seeded):
    (_first, _second, third), _p = seeded
    statistics = season_statistics(scope=statistics_scope(season=third))
    assert [(t.tournament.name, t.players, t.deals) for t in statistics.by_tournament] == [
        ("Fünftes", 4, 3),
        ("Sechstes", 8, 3),
        ("Kommendes", 0, 0),
    ]
    for item in statistics.by_tournament:
        assert item.players == (
            Entry.objects.filter(tournament=item.tournament)
            .filter(seats__table__voided=False, seats__table__deals__status=CONFIRMED)
            .values("player_id")
            .distinct()
            .count()
        )
        assert (
            item.deals
            == Deal.objects.filter(
                table__round__tournament=item.tournament, table__voided=False, status=CONFIRMED
            ).count()
        )
    hosts = {h.short_name: h for h in statistics.by_host}
    assert (hosts["CC A"].tournaments, hosts["CC A"].entries, hosts["CC A"].distinct_players) == (
        1,
        4,
        4,
    )
    assert (hosts["CC B"].tournaments, hosts["CC B"].entries, hosts["CC B"].distinct_players) == (
        2,
        8,
        8,
    )
    assert statistics.figures.entries == 12 and statistics.figures.players_per_tournament == 6


def test_a_constant_number_of_queries(seeded, django_assert_num_queries):
    (_first, second, third), p = seeded
    season_statistics(scope=statistics_scope(season=third))  # stores the results first
    with django_assert_num_queries(6):  # seasons, tournaments, series memberships, stamps,
        # results, deals
        season_statistics(scope=statistics_scope(season=third))
    # a fourth season, more tournaments and deals: the same number
    fourth = season_of(2027)
    for day in (5, 12, 19):
        tournament = tournament_in(fourth, f"Mehr {day}", day)
        table_game(tournament, p[day % 5 : day % 5 + 4], [(0, 45), (1, 45), (2, 34), (3, 45)])
    season_statistics(scope=statistics_scope(season=fourth))
    with django_assert_num_queries(6):
        statistics = season_statistics(scope=statistics_scope(season=fourth))
    assert [f.season.name for f in statistics.earlier] == [
        third.name,
        second.name,
        "Saison 2024/25",
    ]


def test_the_page_shows_the_figures_and_charts_and_the_season_page_links_it(
    client, seeded, django_assert_num_queries
):
    (_first, _second, third), _p = seeded
    url = reverse("seasons:season_statistics", args=[third.pk])
    assert url in client.get(reverse("seasons:season_standings", args=[third.pk])).content.decode()
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Different players" in html and "New players" in html and "Deals played" in html
    assert html.count('<svg class="bar-chart"') == 2 and 'class="bar series-1"' in html
    assert "style=" not in html.split("<main")[1] and "<script" not in html.split("<main")[1]
    assert "Sechstes" in html and "Cegoclub B" in html and "Saison 2024/25" in html
    assert ">2024/25</text>" in html  # the chart's axis names a season by its years
    with django_assert_num_queries(4):  # the season, the scope's three: the figures are cached
        client.get(url)
    cache.clear()
    with django_assert_num_queries(7):  # and three more to build them again
        client.get(url)
    assert client.get(reverse("seasons:season_statistics", args=[99999])).status_code == 404


def test_the_api_answers_the_figures_with_an_etag(seeded):
    (first, _second, third), p = seeded
    client = Client()
    url = reverse("api:season_statistics", args=[third.pk])
    assert url == f"/api/v1/seasons/{third.pk}/statistics/"
    response = client.get(url)
    assert response.status_code == 200 and response["Access-Control-Allow-Origin"] == "*"
    document = json.loads(response.content)
    assert (document["distinct_players"], document["deals"], document["new_players"]) == (10, 6, 4)
    assert document["tournaments"] == 3 and document["tournaments_played"] == 2
    assert [t["players"] for t in document["by_tournament"]] == [4, 8, 0]
    assert {h["club"]: h["distinct_players"] for h in document["by_host"]} == {"CC A": 4, "CC B": 8}
    assert [s["name"] for s in document["earlier_seasons"]] == ["Saison 2025/26", "Saison 2024/25"]
    assert document["earlier_seasons"][-1]["new_players"] is None  # nothing before it
    for private in ("birth_year", "email", "member_number"):
        assert private not in response.content.decode()
    # asked again: 304; a new deal anywhere in the seasons compared: a new answer
    etag = response["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    old = Tournament.objects.get(season=first, name="Erstes")
    table_game(old, [p[0], p[1], p[2], p[3]], [(0, 45)], round_number=2)
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and again["ETag"] != etag
    assert json.loads(again.content)["earlier_seasons"][-1]["deals"] == 6
    listed = json.loads(client.get(reverse("api:seasons")).content)["results"]
    assert {s["statistics"] for s in listed} >= {url}
    assert client.post(url).status_code == 405
    assert client.get(reverse("api:season_statistics", args=[99999])).status_code == 404
