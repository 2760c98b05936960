"""Issue 28 in a real browser (Debian's Chromium via Playwright), on a 390-px phone and a
1280-px laptop: a penalty named as one on the confirming phone and the desk's sheet (which
still fit), and the table's short address after its round closed."""

from __future__ import annotations

import pytest

from tests.browser.test_day_without_friction import SIZES, desk, phone
from tests.browser.test_phone_and_desk import DEALS, assert_fits, full_sheet, shot, table
from tournaments.services.phone_entry import enter_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

__all__ = ["table"]  # the fixture: four players with long names at table 1 of round 1

PENALTY = DEALS[8]  # Eine, a revoke by the player in seat 2


def offender(table) -> str:
    player = table.seats.get(position=PENALTY["penalty"]["seat"]).entry.player
    return f"{player.first_name} {player.last_name[:1]}."


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_penalty_is_named_on_the_confirming_phone_and_the_desk(
    browser, live_server, django_user_model, table, size
):
    full_sheet(table)  # deal 9 is the penalty
    enter_deal(table=table, number=13, inputs=PENALTY, via="table", entered_by_position=1)
    name = offender(table)
    page = phone(browser, live_server, table, 0, size)
    head = page.locator("#pending-13 .pending-head")
    head.wait_for()
    text = head.inner_text()
    assert f"Strafe gegen {name}, \u2212" in text and "statt Eine" in text, text
    line = page.locator("#deal-9")
    assert f"Strafe gegen {name}" in line.inner_text()
    shot(page, f"penalty-phone-{size}")
    assert_fits(page)

    page = desk(browser, live_server, django_user_model, size)
    tournament = table.round.tournament_id
    page.goto(f"{live_server.url}/tournaments/{tournament}/rounds/1/tables/{table.number}/")
    line = page.locator("#deal-9")
    line.wait_for()
    assert f"Strafe gegen {name}" in line.inner_text()
    assert line.locator(".penalty-title").is_visible()
    shot(page, f"penalty-desk-{size}")
    assert_fits(page)
    assert SIZES[size]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_short_address_leads_to_the_table_after_its_round_closed(
    browser, live_server, table, size
):
    from tournaments.models import Round
    from tournaments.services.round_state import set_round_state

    enter_deal(table=table, number=1, inputs=DEALS[0])
    set_round_state(round=table.round, state=Round.State.CLOSED, user=None, close_open=True)
    context = browser.new_context(locale="de-DE", viewport=SIZES[size])
    page = context.new_page()
    response = page.goto(f"{live_server.url}/t/{table.short_code.lower()}")
    assert response.status == 200
    assert page.url == f"{live_server.url}/t/{table.token}/"
    assert "Nicht gefunden" not in page.content()
    assert page.locator("h1").inner_text().startswith("Tisch 1")
    # the same page as the token's address: the table's players, the standings' link
    page.get_by_role("link", name="Zwischenstand").wait_for()
    with page.expect_navigation():
        page.click("button[name=position][value='0']")
    assert page.locator("#deal-1").is_visible()  # the sheet of the closed round
    assert page.locator("#deal-form").count() == 0  # which takes no more deals
    shot(page, f"short-address-closed-{size}")
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_checkin_search_spells_umlauts_and_the_swap_list_is_alphabetical(
    browser, live_server, django_user_model, size
):
    from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
    from tournaments.services.draws import draw_next_round

    tournament = TournamentFactory(rules_slug="swm")
    for first, last in [
        ("Karl", "Schäfer"),
        ("Ute", "Ölschläger"),
        ("Eva", "Maier"),
        ("Otto", "Zeller"),
    ]:
        EntryFactory(
            tournament=tournament,
            checked_in=True,
            player=PlayerFactory(first_name=first, last_name=last),
        )
    page = desk(browser, live_server, django_user_model, size)
    checkin = f"{live_server.url}/tournaments/{tournament.pk}/checkin/"
    for typed, found in (("Schaefer", "Schäfer"), ("oel", "Ölschläger")):
        page.goto(checkin)
        page.fill("#checkin-q", typed)
        with page.expect_navigation():
            page.press("#checkin-q", "Enter")
        table = page.locator("table").first.inner_text()
        assert found in table, (typed, table)
        assert "Maier" not in table and "Zeller" not in table
        shot(page, f"checkin-{typed}-{size}")

    draw_next_round(tournament=tournament, number=1, seed=3)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/draw/")
    options = page.locator("select[name=first] option").all_inner_texts()
    names = [o.split(",")[0] for o in options if "," in o]
    assert names == ["Maier", "Ölschläger", "Schäfer", "Zeller"], names
