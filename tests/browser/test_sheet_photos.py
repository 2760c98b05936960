"""Photos of tick-box sheets in a real browser (issue 42): at the laptop (1280 px) the desk
uploads a generated photo of a filled sheet, sees the flagged row with its reason and every
row's crop, corrects the flagged row and confirms, and the deals count; on a phone (390 px) a
player at the table sends the photo, and the desk's confirm page fits the phone's width. The
pages have no serious accessibility violation (axe-core) and break no Content-Security-Policy.
"""

from __future__ import annotations

import os
import time

import pytest

from tests.browser.test_accessibility import axe_violations
from tests.factories import TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tests.tournaments.sheet_photos import tick_photo
from tournaments.models import Deal, SheetPhoto

pytestmark = [pytest.mark.browser, pytest.mark.pdf, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def signed_in(browser, live_server, viewport):
    page = browser.new_context(locale="de-DE", viewport=viewport).new_page()
    page.goto(f"{live_server.url}/login/?next=/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "geheim")
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")
    return page


def shoot(page, name: str) -> None:
    """A screenshot for a person to look at, when CEGO_SCREENSHOT_DIR names a folder."""
    folder = os.environ.get("CEGO_SCREENSHOT_DIR")
    if folder:
        page.screenshot(path=f"{folder}/{name}.png", full_page=True)


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def crops_loaded(page) -> int:
    """How many row crops the browser has shown (decoded, not broken)."""
    page.evaluate(
        "Promise.all([...document.querySelectorAll('img.photo-crop')].map(i => "
        "{ i.loading = 'eager'; return i.decode().catch(() => null); }))"
    )
    return page.evaluate(
        "[...document.querySelectorAll('img.photo-crop')].filter(i => i.naturalWidth > 0).length"
    )


@pytest.fixture
def table(django_user_model):
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=24)
    table = seat_table(tournament=tournament)
    table.short_code = "BROWS4"
    table.save(update_fields=["short_code"])
    django_user_model.objects.create_superuser("orga", "", "geheim")
    return table


def test_the_desk_uploads_checks_corrects_and_confirms_a_sheet(browser, live_server, table):
    data, truths = tick_photo(table)
    pk = table.round.tournament_id
    page = signed_in(browser, live_server, LAPTOP)
    page.goto(f"{live_server.url}/tournaments/{pk}/rounds/1/entry/")
    with page.expect_navigation():
        page.click("text=Bögen fotografieren / Fotos hochladen")
    assert page.get_attribute("#id_photo", "capture") == "environment"
    page.set_input_files(
        "#id_photo", files=[{"name": "bogen.jpg", "mimeType": "image/jpeg", "buffer": data}]
    )
    started = time.perf_counter()
    with page.expect_navigation():
        page.click("button:has-text('Bogen lesen')")
    page.wait_for_selector("#photo-form")
    seconds = time.perf_counter() - started
    print(f"upload to the confirm page: {seconds:.2f} s")  # the figure, never asserted
    assert "Bogen von Tisch 1 gelesen" in page.inner_text(".messages")
    flagged = page.locator("#row-2")
    assert "flagged" in flagged.get_attribute("class")
    assert "Zwei oder mehr Kreuze: Ansage" in flagged.inner_text()
    assert crops_loaded(page) >= 20
    # the flagged row corrected by the desk (the second contract was a slip): what the
    # players truly ticked, from the test set's truth of row 2
    photo = SheetPhoto.objects.get()
    ticked = {group: value for (group, value), mark in truths[1].marks.items() if mark == "mark"}
    page.select_option("select[name=contract_2]", str(ticked["contract"]))
    page.select_option("select[name=declarer_2]", str(ticked["seat"]))
    if "tens" in ticked:
        page.fill("input[name=points_2]", str(ticked["tens"] * 10 + ticked["units"]))
    if "won" in ticked:
        page.select_option("select[name=won_2]", "1" if ticked["won"] else "0")
    page.check("input[name=counts_2]")
    assert fits(page)
    shoot(page, "photo-confirm-1280")
    with page.expect_navigation():
        page.click("button:has-text('Bogen bestätigen')")
    assert "Der vom Foto gelesene Bogen zählt." in page.inner_text(".messages")
    counted = {row["deal"] for row in photo.rows if row["accepted"]} | {2}
    assert set(Deal.objects.filter(table=table).values_list("number", flat=True)) == counted
    assert f"/tournaments/{pk}/rounds/1/tables/1/" in page.url
    # the desk's table page lists the deals now counted
    assert page.locator("table.sheet tbody tr, .sheet tbody tr").count() >= len(counted)


def test_a_player_sends_the_photo_and_the_desk_reads_it_on_a_phone(browser, live_server, table):
    data, _truths = tick_photo(table)
    player = browser.new_context(locale="de-DE", viewport=PHONE).new_page()
    player.goto(f"{live_server.url}/t/{table.token}/")
    with player.expect_navigation():
        player.click("form.seat-choice button[value='2']")
    with player.expect_navigation():
        player.click("text=Bogen fotografieren")
    assert fits(player)
    shoot(player, "photo-phone-390")
    player.set_input_files(
        "#id_photo", files=[{"name": "IMG_2041.jpg", "mimeType": "image/jpeg", "buffer": data}]
    )
    with player.expect_navigation():
        player.click("button:has-text('Bogen lesen')")
    assert "Die Turnierleitung prüft und bestätigt ihn" in player.inner_text(".messages")
    # the same photo again: refused in words, nothing stored twice
    player.set_input_files(
        "#id_photo", files=[{"name": "IMG_2041.jpg", "mimeType": "image/jpeg", "buffer": data}]
    )
    with player.expect_navigation():
        player.click("button:has-text('Bogen lesen')")
    assert "Dieses Foto wurde schon hochgeladen" in player.inner_text("#photo-error")
    assert SheetPhoto.objects.count() == 1
    assert not Deal.objects.filter(table=table).exists()

    desk = signed_in(browser, live_server, PHONE)
    photo = SheetPhoto.objects.get()
    address = f"{live_server.url}/tournaments/{photo.tournament_id}/photos/{photo.pk}/"
    found = axe_violations(desk, address)
    assert found == [], found
    assert "Fotografiert von" in desk.inner_text("main")
    assert "Zwei oder mehr Kreuze" in desk.inner_text("#row-2")
    assert crops_loaded(desk) >= 20
    assert fits(desk)
    shoot(desk, "photo-confirm-390")
    upload = f"{live_server.url}/tournaments/{photo.tournament_id}/rounds/1/photos/"
    assert axe_violations(desk, upload) == []
    assert fits(desk)
