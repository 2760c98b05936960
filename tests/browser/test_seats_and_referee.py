"""Issue 28, items 4 and 5, in a real browser (Debian's Chromium via Playwright): the desk at
1280 px marks a player "bleibt am Tisch" at the check-in; a phone at 390 px calls the referee
and the desk sees the banner at once and closes the call with a ruling; the projector at
1920×1080 shows the desk's announcement with nothing cut off or off the screen."""

from __future__ import annotations

import pytest

from tests.browser.test_day_without_friction import SIZES, desk, phone
from tests.browser.test_phone_and_desk import shot
from tests.browser.test_projector import MEASURE, hall, keep
from tests.browser.waiting import wait_for_js
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tournaments.models import Entry, RefereeCall, TournamentChange
from tournaments.services.draws import draw_next_round
from tournaments.services.setup import register_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

__all__ = ["hall"]  # the projector's fixture: 150 players with long names and clubs

# Everything on the page inside the window: nothing wider than the screen.
SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture
def table():
    tournament = TournamentFactory(name="Herbstturnier", rules_slug="swm", rounds=2)
    for index in range(8):
        entry = register_player(
            tournament=tournament,
            player=PlayerFactory(first_name=f"Gertrud{index}", last_name=f"Kienzler-Faller{index}"),
        )
        entry.checked_in = True
        entry.save()
    round_ = draw_next_round(tournament=tournament, number=1, seed=5)
    return round_.tables.get(number=2)


def test_the_desk_marks_a_player_who_stays_at_the_table(browser, live_server, django_user_model):
    tournament = TournamentFactory(name="Herbstturnier", rules_slug="swm")
    for last in ("Maier", "Zeller", "Hättich", "Straub"):
        EntryFactory(
            tournament=tournament,
            checked_in=True,
            player=PlayerFactory(first_name="Rosa", last_name=last),
        )
    entry = Entry.objects.get(tournament=tournament, player__last_name="Hättich")
    page = desk(browser, live_server, django_user_model, "desktop")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/checkin/")
    row = page.locator(f"#entry-{entry.pk}")
    button = row.get_by_role("button", name="bleibt am Tisch")
    assert button.is_visible()
    with page.expect_navigation():
        button.click()
    row = page.locator(f"#entry-{entry.pk}")
    assert row.locator(".badge-stays").inner_text() == "bleibt am Tisch"
    assert row.get_by_role("button", name="darf Tisch wechseln").is_visible()
    assert "bleibt den ganzen Tag am selben Tisch" in page.locator(".messages").inner_text()
    assert page.evaluate(SIDEWAYS)
    shot(page, "stays-at-table-checkin-desktop")
    entry.refresh_from_db()
    assert entry.stays_at_table
    draw_next_round(tournament=tournament, number=1, seed=2)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/seats/")
    marker = page.locator(".seat-table .badge-stays")
    assert marker.count() == 1 and marker.is_visible()
    assert page.evaluate(SIDEWAYS)


def test_a_phone_calls_the_referee_and_the_desk_closes_the_call(
    browser, live_server, django_user_model, table
):
    tournament = table.round.tournament
    desk_page = desk(browser, live_server, django_user_model, "desktop")
    # The pages' clocks, moved on by the test to their next look at the server (the desk's
    # banner every 10 s, the phone's live part every 15 s), from their next page on.
    desk_page.clock.install()
    desk_page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/entry/")
    assert desk_page.locator(".calls-banner").count() == 0

    player = phone(browser, live_server, table, 1, "phone")
    player.clock.install()
    player.locator("#referee-call summary").click()
    player.fill("#referee-call input[name=deal]", "4")
    player.fill("#referee-call input[name=reason]", "Trumpf nicht bedient?")
    button = player.get_by_role("button", name="Schiedsrichter rufen")
    box = button.bounding_box()
    assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 390
    with player.expect_navigation():
        button.click()
    assert "Schiedsrichter ist gerufen" in player.locator(".messages").inner_text()
    notice = player.locator(".referee-called")
    assert notice.is_visible() and notice.bounding_box()["y"] < 400  # at the top
    assert player.evaluate(SIDEWAYS)
    shot(player, "referee-call-phone")
    # pressed again (by the impatient): still one call
    player.locator("#referee-call summary").click()
    with player.expect_navigation():
        player.get_by_role("button", name="Schiedsrichter rufen").click()
    assert "schon um" in player.locator(".messages").inner_text()
    assert RefereeCall.objects.count() == 1

    # the desk's round page, open all along, shows it without a reload
    banner = desk_page.locator(".calls-banner")
    desk_page.clock.run_for(10_000)
    banner.wait_for(timeout=20000)
    text = banner.inner_text()
    assert "Tisch 2" in text and "Spiel 4" in text and "Trumpf nicht bedient?" in text
    assert banner.is_visible() and banner.bounding_box()["width"] <= 1280
    assert desk_page.evaluate(SIDEWAYS)
    shot(desk_page, "referee-call-desk")
    assert banner.locator("input[name=deal]").input_value() == "4"  # the call's deal
    banner.locator("input[name=decision]").fill("Spiel 4 neu gegeben")
    with desk_page.expect_navigation():
        banner.get_by_role("button", name="Entscheidung eintragen, Ruf erledigt").click()
    assert (
        "Ruf von Tisch 2 mit der Entscheidung geschlossen"
        in desk_page.locator(".messages").inner_text()
    )
    assert desk_page.url.endswith(f"/tournaments/{tournament.pk}/rounds/1/entry/")
    wait_for_js(desk_page, "!document.querySelector('.calls-banner')")
    call = RefereeCall.objects.get()
    assert call.note == "Spiel 4 neu gegeben" and call.closed_by.username == "orga"
    assert TournamentChange.objects.filter(
        action=TournamentChange.Action.REFEREE_CALL_CLOSED, reason="Spiel 4 neu gegeben"
    ).exists()
    # the phone, left open, says no more that the referee is coming (its live refresh)
    player.clock.run_for(15_000)
    wait_for_js(player, "!document.querySelector('.referee-called')", timeout=40000)
    assert player.locator("#call-state").count() == 1


def test_the_projector_shows_an_announcement_in_full(
    browser, live_server, django_user_model, hall, tmp_path
):
    text = (
        "Die zweite Runde beginnt um 15:30 Uhr. Bitte die Spielzettel der ersten Runde "
        "vollständig ausgefüllt an der Turnierleitung abgeben – Kaffee und Kuchen im Foyer."
    )
    page = desk(browser, live_server, django_user_model, "desktop")
    page.goto(f"{live_server.url}/tournaments/{hall.pk}/referee/")
    page.fill("#id_text", text)
    page.fill("#id_minutes", "30")
    with page.expect_navigation():
        page.get_by_role("button", name="Nachricht zeigen").click()
    assert text in page.locator(".announcement-list").inner_text()
    assert page.evaluate(SIDEWAYS)

    screen = browser.new_page(viewport={"width": 1920, "height": 1080})
    screen.goto(f"{live_server.url}/tournaments/{hall.pk}/standings/projector/")
    screen.wait_for_selector(".projector-page")
    shown = screen.locator(".projector-announcements .announcement")
    assert shown.inner_text() == text and shown.is_visible()
    found = screen.evaluate(MEASURE)
    assert found["cut"] == [] and found["below"] == [] and not found["scrolls"], found
    box = shown.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 1920 and box["y"] + box["height"] < 1080
    # every line of the message inside its box (wrapped, not cut)
    assert shown.evaluate("e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight")
    assert found["rows"] >= 20  # the standings still have the room to be read
    keep(screen, "projector-announcement-1920.png", tmp_path)

    # removed at the desk: gone from the projector with its next refresh
    page.get_by_role("button", name="entfernen").click()
    page.wait_for_load_state()
    screen.reload()
    screen.wait_for_selector(".projector-page")
    assert screen.locator(".projector-announcements").count() == 0
    assert SIZES["desktop"]["width"] == 1280
