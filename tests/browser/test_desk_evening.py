"""Issue 22 in a real browser (Chromium via Playwright), at phone (390 px) and laptop size:
German for an English browser until the switch says English; the paper sheet headed like the
printed one, a typographic minus and every line's error at once; the check-in desk staying at
the player's row; finishing asks first; "paid in cash today" in the members' list."""

from __future__ import annotations

import datetime as dt

import pytest

from clubs.models import AnnualFee, Membership, Player
from clubs.services.admin import charge_season_fees
from tests.factories import ClubFactory, SeasonFactory, TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tests.tournaments.setup.factories import tournament_with_players
from tournaments.models import Round
from tournaments.services.phone_entry import enter_deal
from tournaments.services.round_state import set_round_state

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}


def signed_in(browser, live_server, django_user_model, size, locale="de-DE"):
    user = django_user_model.objects.create_superuser("orga", "", "geheim")
    page = browser.new_context(locale=locale, viewport=SIZES[size]).new_page()
    page.goto(f"{live_server.url}/login/?next=/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "geheim")
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")
    return page, user


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("size", SIZES)
def test_an_english_browser_sees_german_until_it_picks_english(browser, live_server, size):
    page = browser.new_context(locale="en-GB", viewport=SIZES[size]).new_page()
    page.set_extra_http_headers({"Accept-Language": "en-GB,en;q=0.9"})
    page.goto(f"{live_server.url}/hilfe/")
    assert page.locator("html").get_attribute("lang") == "de"
    with page.expect_navigation():
        page.click(".language-switch button[value=en]")
    assert page.locator("html").get_attribute("lang") == "en"
    page.goto(f"{live_server.url}/login/")  # the choice is remembered (the switch's cookie)
    assert page.locator("html").get_attribute("lang") == "en"
    page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_paper_sheet_typed_with_a_typographic_minus(browser, live_server, django_user_model, size):
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=6)
    table = seat_table(tournament=tournament)
    first = table.seats.get(position=0).entry
    page, _user = signed_in(browser, live_server, django_user_model, size)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/tables/1/written/")
    head = page.locator("table.written-sheet thead th.seat-head").first.inner_text()
    assert f"Platz 1 · Nr. {first.number}" in head and first.player.last_name in head
    page.select_option("select[name=contract_1]", "halbe")
    page.select_option("select[name=declarer_1]", "1")
    page.fill("input[name=amount_1_1]", "\u2212120")
    page.select_option("select[name=contract_2]", "halbe")
    page.select_option("select[name=declarer_2]", "2")
    page.fill("input[name=amount_2_2]", "zwölf")
    page.select_option("select[name=contract_3]", "halbe")
    page.select_option("select[name=declarer_3]", "0")
    page.fill("input[name=amount_3_0]", "40")
    with page.expect_navigation():
        page.click("button[value=check]")
    assert "+40 · -120 · +40 · +40" in page.locator("#line-1").inner_text()
    assert page.locator("#line-2 .errorlist").count() == 1  # the bad cell, said at its place
    line3 = page.locator("#line-3").inner_text()
    assert "40 ist nicht möglich" in line3 and "für den Spieler" in line3
    assert fits(page) or page.locator("[data-scroll-hint]").is_visible()
    page.screenshot(path=f"test-artifacts/desk-written-{size}.png", full_page=False)
    page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_checkin_stays_at_the_row_with_the_search_ready(
    browser, live_server, django_user_model, size
):
    tournament, entries = tournament_with_players(150, checked_in=False)
    far = entries[120]
    page, _user = signed_in(browser, live_server, django_user_model, size)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/checkin/")
    row = page.locator(f"#entry-{far.pk}")
    row.scroll_into_view_if_needed()
    with page.expect_navigation():
        row.locator("button[value=check_in_pay]").click()
    page.wait_for_load_state("load")
    assert page.url.endswith(f"#entry-{far.pk}")
    box = page.locator(f"#entry-{far.pk}").bounding_box()
    height = SIZES[size]["height"]
    assert box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 200) <= height
    assert page.evaluate("document.activeElement.id") == "checkin-q"
    assert page.input_value("#checkin-q") == ""
    assert page.locator("#checkin-q").bounding_box()["y"] >= 0  # sticky: still in view
    far.refresh_from_db()
    assert far.checked_in and far.fee_paid
    page.screenshot(path=f"test-artifacts/desk-checkin-{size}.png", full_page=False)
    page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_finishing_asks_first(browser, live_server, django_user_model, size):
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=1, rounds=1)
    table = seat_table(tournament=tournament)
    page, user = signed_in(browser, live_server, django_user_model, size)
    enter_deal(
        table=table, number=1, inputs={"contract": "eine", "declarer": 0, "declarer_points": 50}
    )
    set_round_state(round=table.round, state=Round.State.CLOSED, user=user)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    with page.expect_navigation():
        page.click("#finish button.primary")
    text = page.locator("main").inner_text()
    assert "Turnier abschließen?" in text and "Preisgeld" in text
    tournament.refresh_from_db()
    assert tournament.finished_at is None
    assert fits(page)
    with page.expect_navigation():
        page.click(".finish-confirm button.primary")
    tournament.refresh_from_db()
    assert tournament.finished_at is not None
    page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_cash_fee_in_one_click(browser, live_server, django_user_model, size):
    club = ClubFactory(short_name="CFB")
    season = SeasonFactory(starts_on=dt.date(2026, 11, 1), ends_on=dt.date(2027, 4, 30))
    membership = Membership.objects.create(
        player=Player.objects.create(first_name="Anna", last_name="Hättich"), club=club
    )
    charge_season_fees(
        club=club, season=season, active_cents=3000, passive_cents=1000, due_on=season.starts_on
    )
    page, _user = signed_in(browser, live_server, django_user_model, size)
    page.goto(f"{live_server.url}/clubs/{club.pk}/fees/{season.pk}/")
    with page.expect_navigation():
        page.click(f"#member-{membership.pk} .fee-actions button")
    assert "hat heute 30,00 € bar bezahlt" in page.locator(".messages").inner_text()
    fee = AnnualFee.objects.get(membership=membership)
    assert fee.method == "cash" and fee.paid_on is not None
    assert fits(page)
    page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_near_miss_offered_and_merge_asks_first(browser, live_server, django_user_model, size):
    club = ClubFactory(short_name="CFB")
    brigitte = Player.objects.create(first_name="Brigitte", last_name="Baumer", birth_year=1961)
    Membership.objects.create(player=brigitte, club=club)
    page, _user = signed_in(browser, live_server, django_user_model, size)
    page.goto(f"{live_server.url}/players/new/")
    page.fill("#id_first_name", "Brigite")
    page.fill("#id_last_name", "Baumer")
    with page.expect_navigation():
        page.click("form.stacked-form button.primary")
    offered = page.locator(".duplicates").inner_text()
    assert "Baumer, Brigitte *1961 · CFB" in offered
    page.check("input[name=different_person]")
    with page.expect_navigation():
        page.click("form.stacked-form button.primary")
    twin = Player.objects.get(first_name="Brigite")
    TournamentFactory(name="Herbstturnier").entries.create(player=twin, number=1)
    page.goto(f"{live_server.url}/players/{brigitte.pk}/")
    candidate = page.locator(".merge-candidates li").first
    assert "Herbstturnier" in candidate.inner_text() and "1 Turnier" in candidate.inner_text()
    with page.expect_navigation():
        candidate.locator("button").click()
    question = page.locator(".merge-confirm").inner_text()
    assert "„Brigite Baumer“ wird gelöscht" in question
    assert Player.objects.filter(pk=twin.pk).exists()
    assert fits(page)
    page.screenshot(path=f"test-artifacts/desk-merge-{size}.png", full_page=True)
    with page.expect_navigation():
        page.click(".merge-confirm button.warn")
    assert not Player.objects.filter(pk=twin.pk).exists()
    page.context.close()
