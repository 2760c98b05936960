"""A small tournament run end to end in a real browser (Debian's Chromium via Playwright):
check-in, seat draw, phone entry with confirmation, a desk correction, final standings."""

import os

import pytest

from clubs.models import ClubRole
from tests.browser.phones import PHONE_AGENTS
from tests.factories import PlayerFactory, TournamentFactory
from tournaments.models import Deal, Entry, Round, Table
from tournaments.services.setup import register_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = 12
DEALS = 2


@pytest.fixture
def tournament():
    tournament = TournamentFactory(
        name="Dorfturnier", rules_slug="swm", rounds=1, deals_per_round=DEALS
    )
    for index in range(PLAYERS):
        register_player(
            tournament=tournament,
            player=PlayerFactory(first_name=f"Spieler{index:02d}", last_name=f"Name{index:02d}"),
        )
    return tournament


def fill_deal(page, *, contract: str, declarer: int, points: int) -> None:
    page.select_option("[name=contract]", contract)
    page.select_option("[name=declarer]", str(declarer))
    page.fill("[name=declarer_points]", str(points))


def test_small_tournament_end_to_end(browser, live_server, tournament, django_user_model):
    # An organiser of the host club (a role, no staff flag), through the app's login page.
    orga = django_user_model.objects.create_user("orga", "", "geheim")
    ClubRole.objects.create(user=orga, club=tournament.host_club)
    desk = browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 900})
    page = desk.new_page()
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/checkin/")
    assert page.url.startswith(f"{live_server.url}/login/?next=")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "geheim")
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")

    # Check-in: everyone arrives.
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/checkin/")
    assert page.locator("html").get_attribute("lang") == "de"
    for _ in range(PLAYERS):
        with page.expect_navigation():
            page.locator("button[name=action][value=check_in]").first.click()
    assert page.locator("button[name=action][value=check_in]").count() == 0
    assert Entry.objects.filter(tournament=tournament, checked_in=True).count() == PLAYERS

    # Seat draw: three tables of four, shown as a seat plan.
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/draw/")
    with page.expect_navigation():
        page.click("button[name=action][value=draw]")
    round_ = Round.objects.get(tournament=tournament, number=1)
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    assert [t.seats.count() for t in tables] == [4, 4, 4]
    assert str(round_.draw_seed) in page.content()
    first = tables[0]
    seated = [s.entry.player.first_name for s in first.seats.order_by("position")]

    # Phone entry at table 1: one player enters, another confirms. Two phones: both come from
    # 127.0.0.1 here, so they differ by their browsers (the same address and browser is one
    # phone, cookie or not).
    phone_a = browser.new_context(
        locale="de-DE", viewport={"width": 390, "height": 844}, user_agent=PHONE_AGENTS[0]
    )
    phone_b = browser.new_context(
        locale="de-DE", viewport={"width": 390, "height": 844}, user_agent=PHONE_AGENTS[1]
    )
    a = phone_a.new_page()
    a.goto(f"{live_server.url}/t/{first.token}/")
    a.click("button[name=position][value='0']")
    a.select_option("[name=contract]", "eine")
    a.select_option("[name=declarer]", "2")
    # Count the declarer's pile with the helper: 47 face value in 11 cards, pairs: 47 - 6 = 41.
    a.click(".card-counter summary")
    a.fill("[name=count-fives]", "5")
    a.fill("[name=count-queens]", "4")
    a.fill("[name=count-cavaliers]", "2")
    a.wait_for_selector("#card-count-result [data-take-points='41']")
    a.click("#card-count-result [data-take-points]")
    assert a.input_value("[name=declarer_points]") == "41"
    a.wait_for_selector("#preview .preview-scores")
    assert "+60" in a.inner_text("#preview")
    with a.expect_navigation():
        a.click("button[type=submit].primary")
    deal = Deal.objects.get(table=first, number=1)
    assert deal.status == Deal.Status.PENDING
    assert a.locator("#pending-1").count() == 1
    b = phone_b.new_page()
    b.goto(f"{live_server.url}/t/{first.token}/")
    b.click("button[name=position][value='1']")
    with b.expect_navigation():
        b.locator("#pending-1 button[type=submit]").click()
    deal.refresh_from_db()
    assert deal.status == Deal.Status.CONFIRMED
    assert b.locator("#pending-1").count() == 0

    # The desk enters the rest of the deals, keyboard-fast.
    for table in tables:
        url = f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/tables/{table.number}/"
        page.goto(url)
        for number in range(1, DEALS + 1):
            if Deal.objects.filter(table=table, number=number).exists():
                continue
            assert page.input_value("[name=number]") == str(number)  # advances by itself
            fill_deal(page, contract="cego", declarer=number % 4, points=45)
            with page.expect_navigation():
                page.keyboard.press("Enter")
        assert page.locator("[name=contract]").count() == 0  # all deals in: no more form
    assert Deal.objects.filter(table__round=round_, status="confirmed").count() == 3 * DEALS

    # A desk correction with a reason: table 1, deal 1 was lost 34:45 (2 Fach -> 30 each).
    page.goto(f"{live_server.url}/deals/{deal.pk}/correct/")
    page.fill("[name=declarer_points]", "34")
    page.fill("[name=reason]", "Augen nachgezählt")
    with page.expect_navigation():
        page.click("button[type=submit].primary")
    deal.refresh_from_db()
    assert deal.declarer_points == 34 and deal.version == 3
    assert deal.changes.filter(action="corrected", reason="Augen nachgezählt").exists()

    # Final standings.
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/entry/")
    with page.expect_navigation():
        page.click("button[type=submit].primary")  # close the round
    assert Round.objects.get(pk=round_.pk).state == Round.State.CLOSED
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/standings/")
    text = page.inner_text("main")
    # Table 1: deal 1 corrected (seat 2 pays 30 to each: seats 0,1,3 +30; seat 2 -90),
    # deal 2 Cego won 45 by seat 2 (2 Fach -> 10 each: seat 2 +30, others -10).
    expected = {seated[0]: 20, seated[1]: 20, seated[2]: -60, seated[3]: 20}
    for first_name, total in expected.items():
        row = page.locator("tr", has_text=first_name).first
        assert (
            f"{total:+d}".replace("-", "−") in row.inner_text() or f"{total:+d}" in row.inner_text()
        )
    assert "Rangliste" in text or "Standings" in text
    os.makedirs("test-artifacts", exist_ok=True)
    page.screenshot(path="test-artifacts/standings.png", full_page=True)
    a.screenshot(path="test-artifacts/phone.png", full_page=True)
