"""A simultaneous Cego day in a real browser (Debian's Chromium): the overall ranking's page
on a phone (390 px) and a desk (1280 px), the hall's projector with its own standings beside
all halls' at 1920×1080 and 1280×800 (nothing outside the screen, no scrolling, the last
overall ranking's time on show; the board refreshes itself), the phone layout stacked; and
axe-core finds nothing serious on any of them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from clubs.models import AssociationRole
from simultaneous import services
from simultaneous.documents import day_document
from simultaneous.models import OverallCopy
from simultaneous.selectors import day_ranking
from tests.browser.test_accessibility import axe_violations
from tests.simultaneous.conftest import DAY, hall_tournament
from tests.tournaments.results.conftest import seat_table
from tests.tournaments.standings.conftest import cego
from tournaments.services.phone_entry import enter_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUTSIDE = """() => {
  const all = [...document.querySelectorAll('body *')].filter(e => e.getClientRects().length);
  return {
    out: all.filter(e => e.getBoundingClientRect().bottom > innerHeight + 0.5
                      || e.getBoundingClientRect().right > innerWidth + 0.5)
            .map(e => e.tagName + '.' + e.className),
    scrolls: document.documentElement.scrollWidth > innerWidth,
  };
}"""


def a_day():
    scorer = User.objects.create_user("sportwart", password="pw")
    AssociationRole.objects.create(user=scorer)
    day = services.create_day(
        name="Simultan-Cego Schwarzwald 2026",
        date=DAY,
        rules_slug="swm",
        rounds=2,
        deals_per_round=24,
        by=scorer,
    )
    tournaments = []
    for index, town in enumerate(["Unadingen", "Vöhrenbach-Hammereisenbach", "Lenzkirch"]):
        tournament = hall_tournament(town)
        services.add_hall(day=day, tournament=tournament, by=scorer)
        for number in range(1, 4):
            table = seat_table(tournament=tournament, table_number=number)
            for deal in range(1, 3):
                enter_deal(
                    table=table, number=deal, inputs=cego((deal + index) % 4, 40 + 7 * number)
                )
        tournaments.append(tournament)
    day.refresh_from_db()
    return day, tournaments


@pytest.mark.parametrize("width", [390, 1280])
def test_the_overall_ranking_page(browser, live_server, width):
    day, _tournaments = a_day()
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    address = live_server.url + reverse("simultaneous:day_ranking", args=[day.pk])
    assert axe_violations(page, address) == []
    assert page.locator("#overall-board tbody tr").count() == 36
    assert not page.evaluate(OUTSIDE)["scrolls"]
    assert page.get_by_role("heading", name="Gesamtwertung").count() == 1


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 800), (390, 844)])
def test_the_halls_projector_beside_its_own(browser, live_server, width, height):
    day, tournaments = a_day()
    own = tournaments[1]
    OverallCopy.objects.create(
        tournament=own,
        document=day_document(day, day_ranking(day=day), with_hall_rows=False),
        fetched_at=timezone.now() - dt.timedelta(minutes=4),
    )
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.clock.install()  # the page's clock, moved on by the test to the board's next refresh
    address = live_server.url + reverse("simultaneous:hall_projector", args=[own.pk])
    assert axe_violations(page, address) == []
    assert page.locator(".simultaneous-own tbody tr").count() == 12
    assert page.locator(".simultaneous-overall tbody tr").count() == 15
    status = page.locator(".projector-status").inner_text()
    assert "Keine Verbindung zum Saisonserver" in status
    if width >= 1280:
        found = page.evaluate(OUTSIDE)
        assert found["out"] == [] and not found["scrolls"], found
        own_box = page.locator(".simultaneous-own").bounding_box()
        all_box = page.locator(".simultaneous-overall").bounding_box()
        assert own_box["x"] + own_box["width"] <= all_box["x"]  # side by side
        # the name column is readable from the back of the hall
        size = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('.simultaneous-overall td.name')).fontSize)"
        )
        assert size >= height * 0.025
    else:
        own_box = page.locator(".simultaneous-own").bounding_box()
        all_box = page.locator(".simultaneous-overall").bounding_box()
        assert own_box["y"] + own_box["height"] <= all_box["y"]  # stacked on a phone
        assert not page.evaluate(OUTSIDE)["scrolls"]
    # a fresh copy arrives: the board shows it without a reload
    OverallCopy.objects.filter(tournament=own).update(fetched_at=timezone.now())
    page.clock.run_for(5_000)  # simultaneous.views.LIVE_SECONDS
    page.wait_for_function(
        "() => document.querySelector('.projector-status').innerText.includes('Stand')",
        timeout=12000,
    )


def test_the_season_servers_projector(browser, live_server):
    day, _tournaments = a_day()
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    address = live_server.url + reverse("simultaneous:day_projector", args=[day.pk])
    assert axe_violations(page, address) == []
    found = page.evaluate(OUTSIDE)
    assert found["out"] == [] and not found["scrolls"], found
    assert page.locator(".simultaneous-overall tbody tr").count() == 15


@pytest.mark.parametrize("width", [390, 1280])
def test_the_association_changes_the_day_in_the_browser(browser, live_server, width, tmp_path):
    from django.test import Client

    from simultaneous.models import SimultaneousDay

    day, _tournaments = a_day()
    client = Client()
    client.force_login(User.objects.get(username="sportwart"))
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="de-DE")
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    address = live_server.url + reverse("simultaneous:day_edit", args=[day.pk])
    assert axe_violations(page, address) == []
    assert not page.evaluate(OUTSIDE)["scrolls"]
    assert "3 Hallen nehmen teil" in page.inner_text("main")
    page.get_by_label("Spiele je Runde").fill("16")  # the halls play 24: refused
    with page.expect_navigation():
        page.get_by_role("button", name="Speichern").click()
    assert "Cego-Tag Lenzkirch" in page.inner_text("main"), page.inner_text("main")
    page.screenshot(path=str(tmp_path / f"simultaneous-edit-{width}.png"), full_page=True)
    assert not page.evaluate(OUTSIDE)["scrolls"]
    page.get_by_label("Spiele je Runde").fill("24")
    page.get_by_label("Name").fill("Simultan-Cego im Advent")
    with page.expect_navigation():
        page.get_by_role("button", name="Speichern").click()
    assert "Der Tag ist geändert." in page.inner_text("main")
    assert SimultaneousDay.objects.get().name == "Simultan-Cego im Advent"
    context.close()
