"""37 players checked in at a championship (swm, tables of 4) in a real browser, on a 390-px
phone and a laptop: the draw page says one is over or three are missing, offers a table of
five by tournament agreement and fill-ins from the host club, and one click draws the round."""

from __future__ import annotations

import datetime as dt
import os

import pytest

from clubs.models import Membership, Player
from tests.tournaments.setup.factories import tournament_with_players
from tournaments.models import Entry, Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
ARTIFACTS = "test-artifacts"


@pytest.fixture
def championship():
    tournament, _ = tournament_with_players(37, name="Schwarzwaldmeisterschaft Bräunlingen")
    members = Player.objects.bulk_create(
        [
            Player(first_name=first, last_name=last)
            for first, last in [
                ("Rosa", "Kienzler"),
                ("Albert", "Weißhaar"),
                ("Hubert", "Fehrenbach"),
                ("Lioba", "Dilger"),
            ]
        ]
    )
    Membership.objects.bulk_create(
        [
            Membership(player=p, club=tournament.host_club, since=dt.date(2001, 1, 1))
            for p in members
        ]
    )
    return tournament


def desk(browser, live_server, django_user_model, size):
    django_user_model.objects.create_superuser("orga", "", "geheim")
    page = browser.new_context(locale="de-DE", viewport=SIZES[size]).new_page()
    page.goto(f"{live_server.url}/login/?next=/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "geheim")
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")
    return page


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_table_of_five_by_agreement_in_one_click(
    browser, live_server, django_user_model, championship, size
):
    page = desk(browser, live_server, django_user_model, size)
    page.goto(f"{live_server.url}/tournaments/{championship.pk}/rounds/1/draw/")
    message = page.locator("#player-count")
    assert "37 Spieler lassen sich nicht auf Tische mit 4 Spielern verteilen." in (
        message.inner_text()
    )
    assert "1 Spieler zu viel, oder es fehlen 3." in message.inner_text()
    fives = page.locator("#option-fives")
    assert "8 Tische zu 4 und 1 Tisch zu 5" in fives.inner_text()
    assert page.locator("#option-fill-ins input[name=fill_in]").count() == 4
    assert page.locator("#option-threes").count() == 0  # swm has no three-hand tables
    assert fives.locator("button").is_visible()
    assert no_sideways_scroll(page)
    os.makedirs(ARTIFACTS, exist_ok=True)
    page.screenshot(path=f"{ARTIFACTS}/player-count-{size}.png", full_page=True)

    with page.expect_navigation():
        fives.locator("button").click()
    assert "Runde 1 ausgelost." in page.locator(".messages").inner_text()
    assert page.locator(".seat-table").count() == 9
    five = page.locator(".seat-table").nth(8)
    assert five.locator("li").count() == 5
    assert "der Geber setzt aus" in five.locator("h3").inner_text()
    assert no_sideways_scroll(page)
    page.screenshot(path=f"{ARTIFACTS}/player-count-drawn-{size}.png", full_page=True)
    assert Tournament.objects.get(pk=championship.pk).five_table_agreement
    assert Round.objects.filter(tournament=championship, number=1).exists()

    # the tournament's tariff card, linked from its overview, says so
    page.goto(f"{live_server.url}/tournaments/{championship.pk}/")
    assert page.locator("#five-table-agreement").is_visible()
    with page.expect_navigation():
        page.get_by_role("link", name="Tarifkarte").click()
    agreements = page.locator("#agreements")
    assert "Turniervereinbarung: Fünfertisch, der Geber setzt aus" in agreements.inner_text()
    assert "5er-Tisch" in page.locator(".tc-counting").inner_text()
    # (the card's wide Fach table scrolls sideways on a phone, as on the source's own card
    # page); the agreement itself fits the screen
    box = agreements.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"]
    page.screenshot(path=f"{ARTIFACTS}/player-count-tariff-{size}.png", full_page=True)


def test_fill_ins_in_one_click_on_the_phone(browser, live_server, django_user_model, championship):
    page = desk(browser, live_server, django_user_model, "phone")
    page.goto(f"{live_server.url}/tournaments/{championship.pk}/rounds/1/draw/")
    option = page.locator("#option-fill-ins")
    for name in ("Rosa Kienzler", "Hubert Fehrenbach", "Lioba Dilger"):
        option.get_by_label(name).check()
    page.screenshot(path=f"{ARTIFACTS}/player-count-fill-ins-phone.png", full_page=True)
    with page.expect_navigation():
        option.locator("button").click()
    assert page.locator(".seat-table").count() == 10
    assert page.locator(".badge-fill-in").count() == 3
    assert Entry.objects.filter(tournament=championship, fill_in=True).count() == 3
    page.screenshot(path=f"{ARTIFACTS}/player-count-fill-ins-drawn-phone.png", full_page=True)
