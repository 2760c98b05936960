"""The player page: tournaments across seasons, contract statistics, the SVG chart, access."""

import pytest
from django.urls import reverse

from clubs.models import Membership
from clubs.permissions import may_view_player_page
from seasons.selectors.players import player_page
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, SeasonFactory
from tests.seasons.conftest import play, tournament_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def career(season):
    """Anna plays two tournaments this season and one in the season before."""
    anna = PlayerFactory(first_name="Anna", last_name="Faller")
    club = ClubFactory()
    Membership.objects.create(player=anna, club=club)
    earlier = SeasonFactory(name="Saison 2025/26", starts_on=season.starts_on.replace(year=2025))
    earlier.ends_on = earlier.starts_on.replace(year=2026, month=4)
    earlier.save()
    old = tournament_in(earlier, "Altes Turnier", 10)
    first = tournament_in(season, "Herbst", 7)
    second = tournament_in(season, "Winter", 21)
    for tournament, deals in ((old, [(0, 45)]), (first, [(0, 45), (0, 34)]), (second, [(1, 45)])):
        entries = [EntryFactory(tournament=tournament, player=anna)]
        entries += [EntryFactory(tournament=tournament) for _ in range(3)]
        play(tournament, entries, deals)
    return anna, club, (old, first, second)


def test_every_tournament_with_rank_total_and_season_rank(career):
    anna, _club, (old, first, second) = career
    page = player_page(player=anna)
    assert [(p.tournament.name, p.rank, p.total, p.players) for p in page.tournaments] == [
        ("Winter", 2, -10, 4),  # three players on -10 share place 2
        ("Herbst", 1, 0, 4),  # +30 then -30
        ("Altes Turnier", 1, 30, 1 + 3),
    ]
    assert page.tournaments[2].season_rank == 1
    progress = {p.season.name: p for p in page.seasons}
    assert [step[2] for step in progress["Saison 2026/27"].steps] == [0, -10]


def test_statistics_by_contract(career):
    anna, *_ = career
    cego = next(s for s in player_page(player=anna).contracts if s.contract == "cego")
    # Declared 3 (won 2: +30, +30; lost 1: -30), defended 1 (-10).
    assert (cego.declared, cego.won, cego.declarer_points) == (3, 2, 30)
    assert cego.declarer_average == 10 and cego.defender_average == -10


def test_the_page_shows_tables_and_the_chart(client, organiser, career):
    anna, *_ = career
    client.force_login(organiser)
    response = client.get(reverse("seasons:player_detail", kwargs={"pk": anna.pk}))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<svg" in html and "<polyline" in html and "<script" not in html.split("</main>")[0]
    assert "Altes Turnier" in html and "Games by contract" in html


def test_public_only_where_the_club_allows_it(client, visitor, organiser, career):
    anna, club, _ = career
    url = reverse("seasons:player_detail", kwargs={"pk": anna.pk})
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(visitor)
    assert client.get(url).status_code == 404  # neither the data nor a hint of it
    assert not may_view_player_page(visitor, anna) and may_view_player_page(organiser, anna)
    club.public_player_pages = True
    club.save()
    assert client.get(url).status_code == 200
    client.logout()
    assert client.get(url).status_code == 200


def test_season_page_links_names_the_viewer_may_open(client, organiser, season, career):
    anna, club, _ = career
    url = reverse("seasons:season_standings", kwargs={"pk": season.pk})
    link = reverse("seasons:player_detail", kwargs={"pk": anna.pk})
    assert link not in client.get(url).content.decode()
    club.public_player_pages = True
    club.save()
    assert link in client.get(url).content.decode()


def test_player_page_queries_do_not_grow_with_tournaments(
    client, organiser, season, career, django_assert_max_num_queries
):
    anna, *_ = career
    client.force_login(organiser)
    url = reverse("seasons:player_detail", kwargs={"pk": anna.pk})
    client.get(url)  # the first reader stores each tournament's results at its revision
    # session, user, role, player, 7 of the selector (the seventh: the series, issue 41)
    with django_assert_max_num_queries(11):
        client.get(url)
    for day in (22, 23, 24):
        extra = tournament_in(season, f"Extra {day}", day)
        play(
            extra,
            [EntryFactory(tournament=extra, player=anna)]
            + [EntryFactory(tournament=extra) for _ in range(3)],
            [(0, 45)],
        )
    client.get(url)
    with django_assert_max_num_queries(11):
        assert client.get(url).status_code == 200


def test_paper_totals_count_on_the_player_page_and_in_the_workbook(season):
    import io

    from django.utils import translation
    from openpyxl import load_workbook

    from exports.season import season_workbook

    anna = PlayerFactory(first_name="Anna", last_name="Papier")
    paper = tournament_in(season, "Vom Papier", 12, entry_mode="totals")
    EntryFactory(tournament=paper, player=anna, paper_total=75)
    EntryFactory(tournament=paper, paper_total=-75)
    page = player_page(player=anna)
    assert [(p.tournament.name, p.rank, p.total) for p in page.tournaments] == [
        ("Vom Papier", 1, 75)
    ]
    with translation.override("en"):
        book = load_workbook(io.BytesIO(season_workbook(season)))
    rows = list(book["12.11. Vom Papier"].iter_rows(values_only=True))
    assert rows[0][3] == "Round 1" and rows[1][1:5] == ("Papier, Anna", None, 75, 75)


def test_the_chart_is_well_formed_svg_with_every_step(client, organiser, career):
    """The running total per season as SVG (written by ``seasons.views.players.chart_svg``):
    one dot per tournament with its date and running total, a dot below zero marked, the
    season's name escaped in the title."""
    import re
    import xml.etree.ElementTree as ET

    anna, _club, (_old, first, _second) = career
    first.season.name = "Saison <A&B>"
    first.season.save()
    client.force_login(organiser)
    html = client.get(reverse("seasons:player_detail", kwargs={"pk": anna.pk})).content.decode()
    charts = re.findall(r"<svg class=\"progress-chart\".*?</svg>", html, flags=re.S)
    assert len(charts) == 2
    svg = ET.fromstring(charts[0])  # the newest season first; raises if not well-formed
    assert svg.find("title").text == "Running total over the season Saison <A&B>"
    dots = svg.findall("circle")
    assert [dot.find("title").text for dot in dots] == ["07.11.: +0", "21.11.: -10"]
    assert [dot.get("class") for dot in dots] == ["dot", "dot minus"]
    assert svg.find("polyline").get("points").count(",") == 2
