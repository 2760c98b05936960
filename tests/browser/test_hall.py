"""The hall's network in a real browser (issue 20): the organiser's pages say once that the
Wi-Fi is open (venue mode), a login does not travel with a copied cookie, and a phone that
deletes its cookies still cannot confirm its own deal."""

from __future__ import annotations

import pytest

from tests.browser.phones import PHONE_AGENTS
from tests.browser.test_first_run import fits
from tests.factories import TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tournaments.models import Deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 900}}
WARNING = "Das WLAN der Halle ist offen und unverschlüsselt"


@pytest.fixture
def hall(settings):
    settings.VENUE_MODE = True
    settings.SESSION_EXPIRE_AT_BROWSER_CLOSE = True
    settings.SESSION_COOKIE_AGE = 16 * 3600
    # The live server listens on loopback, the laptop's own address (no warning there, issue
    # 28): a browser "on the Wi-Fi" comes through one named proxy with a Wi-Fi address.
    settings.TRUSTED_PROXY_COUNT = 1


ON_THE_WIFI = {"X-Forwarded-For": "192.168.1.57"}


@pytest.mark.parametrize("size", SIZES)
def test_the_organiser_is_warned_and_a_copied_login_does_not_work(
    browser, live_server, hall, django_user_model, size
):
    django_user_model.objects.create_superuser("orga", "", "ein-eigenes-passwort")
    laptop = browser.new_context(locale="de-DE", viewport=SIZES[size])
    on_the_laptop = laptop.new_page()
    on_the_laptop.goto(f"{live_server.url}/login/")
    assert on_the_laptop.locator(".hall-warning").count() == 0  # localhost: no Wi-Fi crossed
    laptop.close()
    context = browser.new_context(
        locale="de-DE", viewport=SIZES[size], extra_http_headers=ON_THE_WIFI
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/login/")
    warning = page.locator(".hall-warning")
    assert warning.count() == 1 and WARNING in warning.inner_text()
    assert warning.is_visible() and fits(page)
    page.fill("[name=username]", "orga")
    page.fill("[name=password]", "ein-eigenes-passwort")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    page.goto(f"{live_server.url}/tournaments/new/")
    assert page.locator(".hall-warning").count() == 1 and fits(page)
    cookies = context.cookies()
    session = next(c for c in cookies if c["name"] == "sessionid")
    assert session["expires"] == -1  # a browser-session cookie
    # the cookie copied into another browser (another User-Agent, as another device has)
    thief = browser.new_context(
        locale="de-DE",
        viewport=SIZES[size],
        user_agent=PHONE_AGENTS[0],
        extra_http_headers=ON_THE_WIFI,
    )
    thief.add_cookies([session])
    stolen = thief.new_page()
    stolen.goto(f"{live_server.url}/tournaments/new/")
    assert "/login/" in stolen.url
    assert "Bitte melden Sie sich erneut an" in stolen.inner_text("main")
    # the organiser on her own laptop stays signed in (issue 28: the copy logged her out)
    page.goto(f"{live_server.url}/tournaments/new/")
    assert "/tournaments/new/" in page.url and page.locator(".logout").count() == 1
    context.close()
    thief.close()


def test_a_phone_without_its_cookies_cannot_confirm_its_own_deal(browser, live_server):
    table = seat_table(tournament=TournamentFactory(rules_slug="swm", deals_per_round=4))
    phone = browser.new_context(locale="de-DE", viewport=SIZES["phone"], user_agent=PHONE_AGENTS[0])
    page = phone.new_page()
    page.goto(f"{live_server.url}/t/{table.token}/")
    with page.expect_navigation():
        page.click("button[name=position][value='0']")
    page.select_option("[name=contract]", "eine")
    page.select_option("[name=declarer]", "2")
    page.fill("[name=declarer_points]", "41")
    with page.expect_navigation():
        page.click("button[type=submit].primary")
    assert Deal.objects.get().status == Deal.Status.PENDING
    phone.clear_cookies()  # a new device id, the same phone
    page.goto(f"{live_server.url}/t/{table.token}/")
    with page.expect_navigation():
        page.click("button[name=position][value='1']")
    with page.expect_navigation():
        page.locator("#pending-1 button[type=submit]").click()
    assert "Ein anderes Handy am Tisch muss dieses Spiel bestätigen" in page.inner_text("main")
    assert fits(page)
    assert Deal.objects.get().status == Deal.Status.PENDING
    # another phone at the table confirms
    other = browser.new_context(locale="de-DE", viewport=SIZES["phone"], user_agent=PHONE_AGENTS[1])
    second = other.new_page()
    second.goto(f"{live_server.url}/t/{table.token}/")
    with second.expect_navigation():
        second.click("button[name=position][value='3']")
    with second.expect_navigation():
        second.locator("#pending-1 button[type=submit]").click()
    assert Deal.objects.get().status == Deal.Status.CONFIRMED
    phone.close()
    other.close()
