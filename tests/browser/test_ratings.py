"""The ratings list and the player page's section "Wertungszahl" in Debian's Chromium at
phone (390 px) and laptop (1280 px) width: the numbers in sight without the page scrolling
sideways, the German explanation there, and axe-core finding nothing critical or serious."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.services import bring_up_to_date
from tests.browser.test_accessibility import axe_violations, report
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.ratings.conftest import played

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    ("Maximilian-Alexander", "Schwarzwälder-Kirschbaum"),
    ("Hans-Jörg", "Obermüller-Hinterzartener"),
    ("Theresia Walburga", "Zähringer"),
    ("Anna", "Blümle"),
    ("Hans-Peter", "Faller"),
    ("Ute", "Gißler"),
    ("Markus", "Hättich"),
    ("Franz-Xaver", "Duffner"),
]


@pytest.fixture
def rated():
    club = ClubFactory(
        name="Cegofreunde Titisee", short_name="CF Titisee", public_player_pages=True
    )
    people = [PlayerFactory(first_name=first, last_name=last) for first, last in NAMES]
    for player in people:
        MembershipFactory(player=player, club=club)
    for index, day in enumerate((3, 10, 17, 24)):
        order = people[index:] + people[:index]
        played(
            [
                [
                    [(order[0], 30), (order[1], 10), (order[2], -10), (order[3], -30)],
                    [(order[4], 20), (order[5], 20), (order[6], -10), (order[7], -30)],
                ]
            ],
            date=dt.date(2026, 10, day),
            name=f"{index + 1}. Schwarzwälder Cegoturnier Hinterzarten",
        )
    guest = PlayerFactory(first_name="Gerda", last_name="Gast")
    played([[[(guest, 40), (people[0], -40)]]], date=dt.date(2026, 11, 7))
    bring_up_to_date(reason="browser test")
    return people


def fits(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("width", [390, 1280])
def test_the_ratings_list_at_phone_and_laptop_width(browser, live_server, rated, width):
    page = browser.new_page(viewport={"width": width, "height": 800}, locale="de-DE")
    address = f"{live_server.url}/ratings/"
    violations = axe_violations(page, address)
    assert not violations, "\n" + report({"ratings": violations})
    fits(page, width)
    assert "nicht die Meisterschaftswertung" in page.inner_text("main")
    rows = page.locator("table.rating-list tbody tr")
    assert rows.count() == 8
    number = rows.first.locator("td.total")
    assert number.is_visible() and number.bounding_box()["x"] + 10 < width
    assert rows.first.locator("a.player").count() == 1  # the club allows its players' pages
    page.get_by_role("link", name="vorläufige Wertungszahl").click()
    page.wait_for_url("**/ratings/?list=provisional")
    assert "Gerda Gast" in page.inner_text("main") and "vorläufig" in page.inner_text("main")
    fits(page, width)
    page.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_player_pages_rating_section(browser, live_server, rated, width):
    page = browser.new_page(viewport={"width": width, "height": 800}, locale="de-DE")
    address = f"{live_server.url}/players/{rated[0].pk}/results/"
    violations = axe_violations(page, address)
    assert not violations, "\n" + report({"player page": violations})
    fits(page, width)
    section = page.locator("section#rating")
    assert section.locator("h2").inner_text().startswith("Wertungszahl")
    text = section.inner_text()
    assert "nicht die Meisterschaftswertung" in text and "nach diesem Turnier" in text
    assert section.locator("table.rating-history tbody tr").count() == 5
    latest = section.locator("table.rating-history tbody tr").first.locator("td.total")
    latest.scroll_into_view_if_needed()
    assert latest.is_visible()
    page.close()
