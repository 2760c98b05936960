"""The association's public pages in a real browser, as a visitor on a phone (390 px) and a
laptop (1280 px): from the season standings to a public player page (and only where the
player's club allows it), and to the season's statistics with its charts; nothing runs off
the side of the screen, no personal data on the player page.

Screenshots go to ``$SCREENSHOT_DIR`` when set (for a person to look at), else to a
temporary directory."""

import datetime as dt
import os
from pathlib import Path

import pytest
from django.urls import reverse

from clubs.models import Membership
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, SeasonFactory
from tests.seasons.conftest import play, tournament_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 900}}
BIRTH_YEAR, MEMBER_NUMBER, EMAIL = 1958, "CF-0815", "anna@example.org"


@pytest.fixture
def two_seasons():
    """Two seasons; Anna (a club that shows its players' pages) and Bernd (one that does not)
    play in both."""
    open_club = ClubFactory(
        name="Cegofreunde Offen", short_name="CF Offen", public_player_pages=True
    )
    closed_club = ClubFactory(name="Cegoclub Zu", short_name="CC Zu")
    anna = PlayerFactory(
        first_name="Anna", last_name="Weißhaar-Dilger", birth_year=BIRTH_YEAR, email=EMAIL
    )
    bernd = PlayerFactory(first_name="Bernd", last_name="Zipfel")
    Membership.objects.create(player=anna, club=open_club, member_number=MEMBER_NUMBER)
    Membership.objects.create(player=bernd, club=closed_club)
    others = [PlayerFactory() for _ in range(6)]
    earlier = SeasonFactory(
        name="Saison 2025/26", starts_on=dt.date(2025, 11, 1), ends_on=dt.date(2026, 4, 30)
    )
    season = SeasonFactory(
        name="Saison 2026/27", starts_on=dt.date(2026, 11, 1), ends_on=dt.date(2027, 4, 30)
    )
    old = tournament_in(earlier, "Altes Turnier", 14, host_club=closed_club)
    play(
        old,
        [EntryFactory(tournament=old, player=p) for p in [anna, bernd, *others[:2]]],
        [(0, 45), (1, 34)],
    )
    for day, host, field in ((7, open_club, others[:2]), (21, closed_club, others[2:])):
        tournament = tournament_in(season, f"Turnier am {day}.", day, host_club=host)
        play(
            tournament,
            [EntryFactory(tournament=tournament, player=p) for p in [anna, bernd, *field[:2]]],
            [(0, 45), (1, 45), (2, 34)],
        )
    return season, anna, bernd


def shots_dir(tmp_path) -> Path:
    target = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)
    return target


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("size", list(SIZES))
def test_from_the_season_standings_to_a_public_player_page(
    browser, live_server, two_seasons, size, tmp_path
):
    season, anna, bernd = two_seasons
    page = browser.new_page(viewport=SIZES[size])
    page.goto(live_server.url + reverse("seasons:season_standings", args=[season.pk]))
    assert page.locator("a.player", has_text="Bernd Zipfel").count() == 0
    assert page.locator("span.player", has_text="Bernd Zipfel").count() == 1
    page.locator("a.player", has_text="Anna Weißhaar-Dilger").click()
    page.wait_for_url("**" + reverse("seasons:player_detail", args=[anna.pk]))
    assert page.locator("h1").inner_text() == "Anna Weißhaar-Dilger"
    text = page.locator("main").inner_text()
    assert "CF Offen" in text and "Spiele nach Spielart" in text
    assert "Turnier am 21." in text and "Altes Turnier" in text
    for private in (str(BIRTH_YEAR), MEMBER_NUMBER, EMAIL):
        assert private not in page.content()
    assert page.locator("svg.progress-chart").count() == 2  # one chart per season
    assert fits(page), "the player page runs off the side"
    page.screenshot(path=str(shots_dir(tmp_path) / f"public-player-{size}.png"), full_page=True)
    # back to a tournament's standings: Anna's name links there too, Bernd's does not
    page.locator("a", has_text="Turnier am 21.").first.click()
    page.wait_for_url("**/standings/")
    assert page.locator("a.player", has_text="Anna Weißhaar-Dilger").count() == 1
    assert page.locator("a.player", has_text="Bernd Zipfel").count() == 0
    # Bernd's page is not public: the visitor is sent to the login page
    page.goto(live_server.url + reverse("seasons:player_detail", args=[bernd.pk]))
    assert "/login/" in page.url and "Zipfel" not in page.content()
    page.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_season_statistics_page(browser, live_server, two_seasons, size, tmp_path):
    season, _anna, _bernd = two_seasons
    page = browser.new_page(viewport=SIZES[size])
    page.goto(live_server.url + reverse("seasons:season_standings", args=[season.pk]))
    page.locator("a", has_text="Saisonstatistik").click()
    page.wait_for_url("**" + reverse("seasons:season_statistics", args=[season.pk]))
    figures = page.locator(".stat-figures").inner_text()
    assert "Verschiedene Spieler" in figures and "Gespielte Spiele" in figures
    # 6 different players (Anna, Bernd and four others), 6 deals, 2 of them new
    values = page.locator(".stat-figures dd").all_inner_texts()
    assert values[:2] == ["6", "6"] and values[4] == "2"
    charts = page.locator("svg.bar-chart")
    assert charts.count() == 2
    for index in range(2):
        box = charts.nth(index).bounding_box()
        assert box and 100 < box["width"] <= SIZES[size]["width"]
    assert page.locator("svg.bar-chart rect.bar").count() == 2 * 2 + 2  # two seasons
    assert "Saison 2025/26" in page.locator("main").inner_text()
    assert fits(page), "the statistics page runs off the side"
    page.screenshot(path=str(shots_dir(tmp_path) / f"season-statistics-{size}.png"), full_page=True)
    page.close()
