"""Season rules on the standings page, the rules form, the notice-board PDF, query counts."""

import re
import subprocess

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubs.models import Category
from seasons.models import Season
from seasons.selectors.results import fresh_results
from seasons.selectors.standings import season_sides, season_standings
from seasons.services import set_season_rules
from tests.conftest import require_weasyprint
from tests.factories import EntryFactory, PlayerFactory
from tests.seasons.conftest import play, tournament_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(season):
    """Three tournaments; players A B C D play all, E only the first.
    Under swm a won Cego with 45 is +30 for the declarer and -10 for the others."""
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


def totals(season):
    season.refresh_from_db()
    return {
        row.last_name: (row.rank, row.total, row.tournaments_played)
        for row in season_standings(season=season).rows
    }


def test_default_sum_of_all_results(season, three):
    # A: +60, -10, -20 = 30; D: -10, +20 = 10; E: -20 in T7 only.
    result = totals(season)
    assert result["Dora"][1:] == (10, 2)
    assert result["Anna"] == (1, 30, 3)
    assert result["Emil"][1:] == (-20, 1)


def test_best_n_counts_only_the_best_results(season, three):
    set_season_rules(season=season, scoring="best_n", best_of=1, cup_points=[], min_tournaments=1)
    result = totals(season)
    assert result["Anna"][1] == 60
    assert result["Bert"][1] == 30
    rows = {r.last_name: r for r in season_standings(season=season).rows}
    assert rows["Anna"].counted == (True, False, False)


def test_cup_points_by_place(season, three):
    set_season_rules(
        season=season, scoring="cup", best_of=None, cup_points=[10, 6, 4], min_tournaments=1
    )
    result = totals(season)
    # Places by total: Anna is 1st in T7 (10 points), 2nd= in T14 (6) and 3rd= in T21 (4).
    rows = {r.last_name: r for r in season_standings(season=season).rows}
    anna = rows["Anna"]
    assert anna.places == (1, 2, 3)
    assert anna.total == 10 + 6 + 4 == result["Anna"][1]
    assert rows["Emil"].total == {1: 10, 2: 6, 3: 4}.get(rows["Emil"].places[0], 0)


def test_minimum_tournaments_leaves_the_others_unranked_at_the_end(season, three):
    set_season_rules(season=season, scoring="sum", best_of=None, cup_points=[], min_tournaments=2)
    season.refresh_from_db()
    rows = season_standings(season=season).rows
    assert rows[-1].last_name == "Emil" and rows[-1].rank is None
    assert all(row.rank is not None for row in rows[:-1])


def test_side_rankings_women_youth_seniors_and_last(season, three):
    sides = {side.key: side for side in season_sides(result=season_standings(season=season))}
    assert [item.row.last_name for item in sides["woman"].rows][0] == "Anna"
    assert [item.row.last_name for item in sides["youth"].rows] == ["Carl"]
    assert [item.row.last_name for item in sides["senior"].rows] == ["Bert"]
    assert [item.row.last_name for item in sides["last"].rows] == ["Emil"]


def test_the_service_refuses_incomplete_rules(season):
    with pytest.raises(ValidationError) as error:
        set_season_rules(
            season=season, scoring="best_n", best_of=None, cup_points=[], min_tournaments=1
        )
    assert "best_of" in error.value.error_dict
    with pytest.raises(ValidationError):
        set_season_rules(
            season=season, scoring="cup", best_of=None, cup_points=[], min_tournaments=1
        )
    with pytest.raises(ValidationError):
        set_season_rules(
            season=season, scoring="cup", best_of=None, cup_points=[5, -1], min_tournaments=1
        )
    season.refresh_from_db()
    assert season.scoring == Season.Scoring.SUM


def test_the_rules_form(client, organiser, visitor, season, three):
    url = reverse("seasons:season_rules", kwargs={"pk": season.pk})
    client.force_login(visitor)
    assert client.get(url).status_code == 403  # signed in without a role: refused
    client.force_login(organiser)
    response = client.post(
        url, {"scoring": "cup", "best_of": "", "cup_points": "10; 6, 4", "min_tournaments": "2"}
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.cup_points == [10, 6, 4] and season.min_tournaments == 2
    assert season.appeal_days == 14  # not sent: as it was
    response = client.post(
        url,
        {"scoring": "cup", "cup_points": "10; 6, 4", "min_tournaments": "2", "appeal_days": "7"},
    )
    season.refresh_from_db()
    assert season.appeal_days == 7
    response = client.post(
        url, {"scoring": "cup", "best_of": "", "cup_points": "10, zehn", "min_tournaments": "1"}
    )
    assert response.status_code == 200 and b"whole numbers" in response.content
    season.refresh_from_db()
    assert season.min_tournaments == 2
    page = client.get(reverse("seasons:season_standings", kwargs={"pk": season.pk}))
    assert b"cup points per place: 10, 6, 4" in page.content
    assert b"Team ranking" not in page.content  # no teams this season
    assert b"Seniors" in page.content and b"Last place" in page.content


def test_the_notice_board_pdf(client, organiser, season, three, pdftotext, weasyprint):
    url = reverse("printing:season_pdf", kwargs={"pk": season.pk})
    assert client.get(url).status_code == 302
    client.force_login(organiser)
    response = client.get(url)
    assert response["Content-Type"] == "application/pdf"
    text = subprocess.run(
        [pdftotext, "-layout", "-", "-"], input=response.content, capture_output=True, check=True
    ).stdout.decode()
    assert "Season standings" in text and season.name in text
    for name in ("Anna", "Bert", "Carl", "Dora", "Emil", "Seniors", "Last place"):
        assert name in text


@pytest.mark.parametrize("public", [True, False])
def test_the_season_page_queries_do_not_grow(
    client, organiser, season, three, django_assert_max_num_queries, public
):
    if not public:
        client.force_login(organiser)
    url = reverse("seasons:season_standings", kwargs={"pk": season.pk})
    # a cold cache (each tournament's results stored already, as any reader leaves them): the
    # selector's 8 (the seventh: the planned dates; the eighth: the series memberships), the season, the cache stamp (the
    # tournaments' revisions, read before and after building the ranking, and after building
    # the table's markup), visible players, session, which tournaments are provisional (the
    # appeal window)
    fresh_results(tournaments=season.tournaments.all())
    with django_assert_max_num_queries(14):
        assert client.get(url).status_code == 200
    extra = tournament_in(season, "Extra", 28)
    play(extra, [EntryFactory(tournament=extra) for _ in range(4)], [(0, 45)] * 3)
    fresh_results(tournaments=season.tournaments.all())
    with django_assert_max_num_queries(14):
        assert client.get(url).status_code == 200


def test_a_new_season_rule_shows_on_the_cached_season_page_at_once(client, season, three):
    """The season page is cached under its tournaments' revisions; changing the season's own
    rule must not serve the ranking of the old rule."""
    url = reverse("seasons:season_standings", kwargs={"pk": season.pk})
    struck_under_sum = client.get(url).content.decode().count("<s title=")
    set_season_rules(season=season, scoring="best_n", best_of=1, cup_points=[], min_tournaments=1)
    # best of 1: every played result but each player's best is struck through
    assert client.get(url).content.decode().count("<s title=") > struck_under_sum


def test_a_cup_season_shows_place_and_cup_points_on_the_page_and_the_pdf(
    client, organiser, season, three, pdftotext
):
    """The total is a sum of cup points, so each tournament shows what it adds: the place and
    its points ("1. · 10"), the tournament's own points only in small print."""
    set_season_rules(
        season=season, scoring="cup", best_of=None, cup_points=[10, 6, 4], min_tournaments=1
    )
    html = client.get(reverse("seasons:season_standings", kwargs={"pk": season.pk})).content
    html = html.decode()
    anna = html[html.index("Anna") :].split("</tr>")[0]
    # Anna: 1st in T7, 2nd= in T14, 3rd= in T21; her own points beneath in small print
    assert re.findall(r'class="cup-points">(\d+)\.&nbsp;·&nbsp;(\d+)<', anna) == [
        ("1", "10"),
        ("2", "6"),
        ("3", "4"),
    ]
    assert anna.count('class="raw-points"') == 3
    client.force_login(organiser)
    require_weasyprint()  # the page above needs no Pango, its PDF does
    pdf = client.get(reverse("printing:season_pdf", kwargs={"pk": season.pk})).content
    text = subprocess.run(
        [pdftotext, "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    line = next(line for line in text.splitlines() if "Anna" in line)
    assert re.findall(r"(\d+)\.\s·\s(\d+)", line) == [("1", "10"), ("2", "6"), ("3", "4")]
