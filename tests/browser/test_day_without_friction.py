"""Issue 11 in a real browser (Debian's Chromium via Playwright), on a 390-px phone and a
desktop: a paper sheet typed as written, the close-round guard, the Räuber form and the phone
page's order (form first, pending deals compact below, a sheet that fits or says it scrolls)."""

from __future__ import annotations

import os

import pytest

from tests.browser.phones import PHONE_AGENTS
from tests.factories import PlayerFactory, TournamentFactory
from tournaments.models import Deal, Round
from tournaments.services.draws import draw_next_round
from tournaments.services.phone_entry import enter_deal
from tournaments.services.setup import register_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
ARTIFACTS = "test-artifacts"


@pytest.fixture
def table():
    tournament = TournamentFactory(name="Sheet test", rules_slug="swm", rounds=2, deals_per_round=6)
    for index in range(4):
        entry = register_player(
            tournament=tournament,
            player=PlayerFactory(
                first_name=f"Spielerin{index}", last_name=f"Schwarzwälder-Lang{index}"
            ),
        )
        entry.checked_in = True
        entry.save()
    round_ = draw_next_round(tournament=tournament, number=1, seed=5)
    return round_.tables.get(number=1)


def desk(browser, live_server, django_user_model, size):
    django_user_model.objects.create_superuser("orga", "", "geheim")
    context = browser.new_context(locale="de-DE", viewport=SIZES[size])
    page = context.new_page()
    page.goto(f"{live_server.url}/login/?next=/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "geheim")
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")
    return page


def phone(browser, live_server, table, seat, size="phone"):
    """The phone of the player at ``seat``: a device of its own (the same address and browser
    would be one phone to the app, which may not confirm its own deal)."""
    agent = f"{PHONE_AGENTS[seat % len(PHONE_AGENTS)]} seat/{seat}"
    page = browser.new_context(locale="de-DE", viewport=SIZES[size], user_agent=agent).new_page()
    page.goto(f"{live_server.url}/t/{table.token}/")
    with page.expect_navigation():
        page.click(f"button[name=position][value='{seat}']")
    return page


def page_does_not_scroll_sideways(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def wide_tables_say_they_scroll(page) -> None:
    """Every table wider than its box has a visible "scrolls sideways" line above it."""
    for box in page.locator(".table-container").all():
        if not box.is_visible():
            continue
        overflows = box.evaluate("b => b.scrollWidth > b.clientWidth + 1")
        hint = box.locator("xpath=preceding-sibling::*[1]")
        if overflows:
            assert hint.get_attribute("data-scroll-hint") is not None
            assert hint.is_visible()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_paper_sheet_typed_as_written(browser, live_server, django_user_model, table, size):
    page = desk(browser, live_server, django_user_model, size)
    tournament = table.round.tournament
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/tables/1/written/")
    page.select_option("[name=contract_1]", "halbe")
    page.select_option("[name=declarer_1]", "1")
    page.fill("[name=amount_1_1]", "+60")
    page.select_option("[name=contract_2]", "halbe")
    page.select_option("[name=declarer_2]", "2")
    for seat, amount in enumerate(["-25", "-25", "75", "-25"]):
        page.fill(f"[name=amount_2_{seat}]", amount)
    with page.expect_navigation():
        page.click("button[value=check]")
    assert "-20 · +60 · -20 · -20" in page.inner_text("#line-1")
    line_2 = page.inner_text("#line-2")
    assert "Halbe, gewonnen: 10, 20, 30, 40 … 120 von jedem Gegenspieler" in line_2
    assert "25 ist nicht möglich" in line_2
    assert not Deal.objects.filter(table=table).exists()
    assert page_does_not_scroll_sideways(page)
    wide_tables_say_they_scroll(page)
    os.makedirs(ARTIFACTS, exist_ok=True)
    page.screenshot(path=f"{ARTIFACTS}/written-check-{size}.png", full_page=True)
    for seat, amount in enumerate(["-20", "-20", "60", "-20"]):
        page.fill(f"[name=amount_2_{seat}]", amount)
    with page.expect_navigation():
        page.click("button[value=save]")
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    assert [(d.number, d.as_written, d.scores[:4]) for d in deals] == [
        (1, True, [-20, 60, -20, -20]),
        (2, True, [-20, -20, 60, -20]),
    ]
    # the table's page marks them and counts them
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/tables/1/")
    assert page.locator("#deal-1 .badge.written").is_visible()
    assert "+40" in page.inner_text(".sum-line")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_close_round_shows_what_is_open_and_asks(
    browser, live_server, django_user_model, table, size
):
    enter_deal(
        table=table, number=1, inputs={"contract": "eine", "declarer": 0, "declarer_points": 50}
    )
    enter_deal(
        table=table,
        number=2,
        inputs={"contract": "eine", "declarer": 1, "declarer_points": 50},
        via="table",
        entered_by_position=1,
    )
    page = desk(browser, live_server, django_user_model, size)
    tournament = table.round.tournament
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/entry/")
    page.click("#round-state button.primary")
    page.wait_for_selector(".close-check")
    check = page.inner_text(".close-check")
    assert "Runde 1 ist noch nicht fertig." in check
    assert "1 von 6 Spielen" in check and "1 Spiel wartet auf Bestätigung" in check
    assert Round.objects.get(pk=table.round_id).state == Round.State.PLAYING
    assert page_does_not_scroll_sideways(page)
    os.makedirs(ARTIFACTS, exist_ok=True)
    page.screenshot(path=f"{ARTIFACTS}/close-check-{size}.png", full_page=True)
    # the confirmation is explicit: without the tick the browser does not send
    page.click("#round-state button.primary")
    assert Round.objects.get(pk=table.round_id).state == Round.State.PLAYING
    page.check("[name=close_open]")
    page.fill("#round-state [name=reason]", "Zeit abgelaufen")
    with page.expect_navigation():
        page.click("#round-state button.primary")
    assert Round.objects.get(pk=table.round_id).state == Round.State.CLOSED
    # a closed round is a lock; the next round waits for no one now
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/tables/1/")
    assert "Diese Runde ist abgeschlossen" in page.inner_text("main")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_raeuber_on_the_phone(browser, live_server, table, size):
    a = phone(browser, live_server, table, 0, size)
    a.select_option("[name=contract]", "raeuber")
    assert a.inner_text("[data-declarer-label]") == "Vorhand (hat angesagt):"
    assert a.input_value("[name=declarer]") == "1"  # deal 1: seat 1 deals, seat 2 is forehand
    for position in range(4):
        name = table.seats.get(position=position).entry.player.full_name
        assert a.get_attribute(f"[name=points_{position}]", "aria-label") == f"{name}: Augen"
        assert a.get_attribute(f"[name=tricks_{position}]", "aria-label") == f"{name}: Stiche"
    for position, points in enumerate([30, 20, 15, 14]):
        a.fill(f"[name=points_{position}]", str(points))
    a.wait_for_selector("#preview .preview-scores")
    with a.expect_navigation():
        a.click("#deal-form button[type=submit].primary")
    deal = Deal.objects.get(table=table, number=1)
    assert deal.declarer_position == 1 and deal.details["points"] == [30, 20, 15, 14]
    # back to a normal game: the label is the declarer again, the preselection gone
    a.select_option("[name=contract]", "eine")
    assert a.inner_text("[data-declarer-label]") == "Alleinspieler:"
    b = phone(browser, live_server, table, 2, size)
    card = b.locator("#pending-1")
    assert "Eingegebene Augen" in card.inner_text() and "30" in card.inner_text()
    assert card.locator("button[type=submit]").is_visible()  # confirm on the card
    os.makedirs(ARTIFACTS, exist_ok=True)
    b.screenshot(path=f"{ARTIFACTS}/raeuber-pending-{size}.png", full_page=True)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_phone_form_first_pending_compact_sheet_fits(browser, live_server, table, size):
    for number in (1, 2, 3):
        enter_deal(
            table=table,
            number=number,
            inputs={"contract": "zwei_verschiedene", "declarer": number % 4, "declarer_points": 50},
            via="table",
            entered_by_position=0,
        )
    page = phone(browser, live_server, table, 1, size)
    form_top = page.locator("#deal-form").bounding_box()["y"]
    pending = page.locator(".pending-deal")
    assert pending.count() == 3
    assert form_top < 300  # the form is the first thing on the page
    assert pending.first.bounding_box()["y"] > form_top
    for index in range(3):
        card = pending.nth(index)
        assert card.bounding_box()["height"] < 200  # compact: three cards, not three screens
        assert card.locator("button[type=submit]").is_visible()
    with page.expect_navigation():
        pending.first.locator("button[type=submit]").click()
    assert Deal.objects.get(table=table, number=1).status == Deal.Status.CONFIRMED
    assert page_does_not_scroll_sideways(page)
    wide_tables_say_they_scroll(page)
    os.makedirs(ARTIFACTS, exist_ok=True)
    page.screenshot(path=f"{ARTIFACTS}/phone-order-{size}.png", full_page=True)
