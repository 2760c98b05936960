"""A series over several hosts and pubs (issue 41) in Chromium at phone (390 px) and laptop
(1280 px) width: the series page with its day winners (one per evening, the shared
championship evening marked as also counting here) and the overall standings, nothing wider
than the screen, no serious accessibility violation (axe-core); the tournament's page names
both series."""

import datetime as dt

import pytest

from clubs.models import Category
from seasons.models import Season
from seasons.services_series import set_series
from tests.browser.test_accessibility import axe_violations
from tests.browser.test_season_extras import inside_screen, keep, page_overflow
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, SeasonFactory
from tests.seasons.conftest import play, tournament_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = [390, 1280]


def make_series() -> dict:
    championship = SeasonFactory(name="Schwarzwaldmeisterschaft 2026/27")
    winter = SeasonFactory(
        name="Unadinger Cego-Winter",
        scoring=Season.Scoring.CUP,
        cup_points=[10, 8, 6, 5, 4, 3],
        starts_on=dt.date(2026, 11, 1),
        ends_on=dt.date(2027, 3, 31),
    )
    people = [
        PlayerFactory(last_name=last, first_name=first, category=category)
        for last, first, category in [
            ("Schwarzwälder-Kirschbaum", "Maximilian-Alexander", Category.OPEN),
            ("Obermüller-Hinterzartener", "Theresia Walburga", Category.WOMAN),
            ("Zähringer", "Jonas", Category.YOUTH),
            ("Blümle", "Anna", Category.SENIOR),
        ]
    ]
    pubs = [
        ("Gasthaus Hirschen", 5, 0),
        ("Gasthof zur Sonne, Nebenzimmer im Obergeschoss", 12, 1),
        ("Krone", 19, 2),
    ]
    for venue, day, winner in pubs:
        evening = tournament_in(
            winter,
            f"Cego-Winter {venue.split(',')[0]}",
            day,
            venue=venue,
            host_club=ClubFactory(name=f"Cegofreunde {venue.split()[-1]}"),
        )
        play(
            evening,
            [EntryFactory(tournament=evening, player=p) for p in people],
            [(winner, 45), (winner, 45)],
        )
    shared = tournament_in(championship, "Meisterschaftsturnier Unadingen", 26)
    play(shared, [EntryFactory(tournament=shared, player=p) for p in people], [(0, 45)])
    set_series(tournament=shared, seasons=[winter], user=None, check_permissions=False)
    return {"winter": winter, "shared": shared, "championship": championship}


@pytest.mark.parametrize("width", [*WIDTHS, 1920])  # 1920: the hall's screen
def test_the_series_page_shows_a_day_winner_per_evening(browser, live_server, width, tmp_path):
    world = make_series()
    page = browser.new_page(viewport={"width": width, "height": 800})
    address = live_server.url + f"/seasons/{world['winter'].pk}/standings/"
    assert axe_violations(page, address) == []
    keep(page, f"series-{width}.png", tmp_path)
    assert page_overflow(page) == 0
    section = page.locator("#day-winners")
    assert section.locator("h2").inner_text() == "Tagessieger"
    lines = section.locator("li").all_inner_texts()
    assert len(lines) == 4
    assert "Gasthaus Hirschen" in lines[0] and "Maximilian-Alexander" in lines[0]
    assert "Theresia Walburga" in lines[1] and "Nebenzimmer" in lines[1]
    assert "Jonas Zähringer" in lines[2]
    assert "Meisterschaftsturnier Unadingen" in lines[3] and "zählt auch hier" in lines[3]
    assert "Maximilian-Alexander" in lines[3]
    assert inside_screen(
        page, "#day-winners li, #day-winners .day-winner, #day-winners .day-points"
    )
    # the overall winner, the standings' first: two evenings won (10 + 10 + 8 + 8 cup points,
    # the others 10 + 8 + 8 + 8)
    rows = page.locator("#season-ranking tbody tr")
    assert rows.count() == 4
    assert "Maximilian-Alexander" in rows.first.inner_text() and "36" in rows.first.inner_text()
    assert "34" in rows.nth(1).inner_text()
    # the tournament's page names both series, linked
    page.goto(live_server.url + f"/tournaments/{world['shared'].pk}/standings/")
    series = page.locator("#tournament-series")
    assert "Schwarzwaldmeisterschaft 2026/27" in series.inner_text()
    assert "Unadinger Cego-Winter" in series.inner_text()
    assert inside_screen(page, "#tournament-series a")
    assert page_overflow(page) == 0
    page.click("#tournament-series >> text=Unadinger Cego-Winter")
    assert page.url == address
    page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_organiser_ticks_a_series_on_the_tournaments_page(
    browser, live_server, width, tmp_path, django_user_model
):
    from django.test import Client

    from seasons.models import SeriesMembership

    world = make_series()
    SeriesMembership.objects.all().delete()
    superuser = django_user_model.objects.create_superuser("chef", "", "pw")
    client = Client()
    client.force_login(superuser)
    context = browser.new_context(viewport={"width": width, "height": 800})
    context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "url": live_server.url,
            },
            {"name": "django_language", "value": "de", "url": live_server.url},
        ]
    )
    page = context.new_page()
    shared = world["shared"]
    page.goto(live_server.url + f"/tournaments/{shared.pk}/")
    page.click("text=Zählt auch für andere Serien")
    address = live_server.url + f"/tournaments/{shared.pk}/series/"
    assert page.url == address
    assert axe_violations(page, address) == []
    assert page_overflow(page) == 0
    keep(page, f"series-form-{width}.png", tmp_path)
    page.get_by_label("Unadinger Cego-Winter").check()
    page.click("button:has-text('Speichern')")
    assert page.url == live_server.url + f"/tournaments/{shared.pk}/"
    named = page.locator("#tournament-series").inner_text()
    assert "Schwarzwaldmeisterschaft 2026/27" in named and "Unadinger Cego-Winter" in named
    assert SeriesMembership.objects.filter(tournament=shared).count() == 1
    context.close()
