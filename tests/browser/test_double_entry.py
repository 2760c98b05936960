"""Double entry of a typed paper sheet in a real browser (issue 28, item 7): two people type
the same sheet at the laptop (1280 px), one cell differs, the desk settles it; the
differences page read at a phone's 390 px."""

from __future__ import annotations

import os

import pytest

from tests.factories import TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tournaments.models import Deal, SheetTyping, TournamentChange
from tournaments.services import double_entry
from tournaments.services.paper_sheets import WrittenRow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def signed_in(browser, live_server, username, viewport):
    page = browser.new_context(locale="de-DE", viewport=viewport).new_page()
    page.goto(f"{live_server.url}/login/?next=/")
    page.fill("#id_username", username)
    page.fill("#id_password", "geheim")
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")
    return page


def type_sheet(page, *, declarer_amount: str, initials: str) -> None:
    page.fill("input[name=typist]", initials)
    page.select_option("select[name=contract_1]", "halbe")
    page.select_option("select[name=declarer_1]", "1")
    page.fill("input[name=amount_1_1]", "60")
    page.select_option("select[name=contract_2]", "halbe")
    page.select_option("select[name=declarer_2]", "2")
    page.fill("input[name=amount_2_2]", declarer_amount)
    with page.expect_navigation():
        page.click("button[name=action][value=save]")


def shoot(page, name: str) -> None:
    """A screenshot for a person to look at, when CEGO_SCREENSHOT_DIR names a folder."""
    folder = os.environ.get("CEGO_SCREENSHOT_DIR")
    if folder:
        page.screenshot(path=f"{folder}/{name}.png", full_page=True)


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_two_typings_one_difference_settled(browser, live_server, django_user_model):
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=6, double_entry=True)
    table = seat_table(tournament=tournament)
    django_user_model.objects.create_superuser("orga", "", "geheim")
    django_user_model.objects.create_superuser("helfer", "", "geheim")
    sheet = f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/tables/1/written/"
    overview = f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/entry/"

    first = signed_in(browser, live_server, "orga", LAPTOP)
    first.goto(sheet)
    assert "Erste Eingabe" in first.inner_text("#double-entry")
    type_sheet(first, declarer_amount="-120", initials="AB")
    assert "Erste Eingabe gespeichert" in first.inner_text("main")
    first.goto(overview)
    assert "Bogen wartet auf Zweiteingabe" in first.inner_text(".table-progress")
    assert not Deal.objects.filter(table=table).exists()

    second = signed_in(browser, live_server, "helfer", LAPTOP)
    second.goto(sheet)
    assert "Zweite Eingabe" in second.inner_text("#double-entry")
    # blind: no amount of the first typing in the form
    assert second.input_value("input[name=amount_2_2]") == ""
    shoot(second, "second-typing-1280")
    type_sheet(second, declarer_amount="60", initials="CD")  # one cell misread
    assert "/written/differences/" in second.url
    rows = second.locator("tr.difference")
    assert rows.count() == 4  # deal 2: each seat's amount follows from the declarer's
    declarer_row = second.locator("tr#difference-2-seat2")
    assert "≠" in declarer_row.inner_text()
    assert declarer_row.locator("td.first mark").inner_text() == "-120"
    assert declarer_row.locator("td.second mark").inner_text() == "+60"
    shoot(second, "differences-1280")
    second.goto(overview)
    assert "Abweichungen klären" in second.inner_text(".table-progress")
    shoot(second, "overview-1280")
    second.click("a.typing-differences")
    second.wait_for_url("**/written/differences/")
    # settled: the paper says −120 (the first typing); the other seats follow it
    # the whole line at once: the choices are filled in, nothing is saved yet
    with second.expect_navigation():
        second.click("button[name=line][value='first:2']")
    for seat in range(4):
        assert second.is_checked(f"input[name='choice_2-seat{seat}'][value=first]")
    assert not Deal.objects.filter(table=table).exists()
    with second.expect_navigation():
        second.click("#settle-form button[type=submit]")
    assert "Abweichungen geklärt" in second.inner_text("main")
    scores = [d.scores[:4] for d in Deal.objects.filter(table=table).order_by("number")]
    assert scores == [[-20, 60, -20, -20], [40, 40, -120, 40]]
    assert SheetTyping.objects.get().state == SheetTyping.State.COUNTED
    assert TournamentChange.objects.filter(action="sheet_settled").count() == 1
    second.goto(overview)
    assert "Abweichungen klären" not in second.inner_text(".table-progress")
    first.context.close()
    second.context.close()


def test_differences_page_at_a_phone_width(browser, live_server, django_user_model):
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=6, double_entry=True)
    table = seat_table(tournament=tournament)
    user = django_user_model.objects.create_superuser("orga", "", "geheim")
    typing = double_entry.type_sheet(
        table=table,
        rows=[WrittenRow(1, "halbe", 1, (None, 60, None, None))],
        user=user,
        expected_typing=None,
    )
    double_entry.type_sheet(
        table=table,
        rows=[WrittenRow(1, "halbe", 2, (None, None, 60, None))],
        user=user,
        expected_typing=typing.pk,
    )
    page = signed_in(browser, live_server, "orga", PHONE)
    page.goto(
        f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/tables/1/written/differences/"
    )
    assert fits(page), "the differences page scrolls sideways at 390 px"
    row = page.locator("tr#difference-1-declarer")
    assert row.is_visible()
    box = row.bounding_box()
    assert box is not None and box["width"] <= 390
    # each value is labelled in the stacked layout (the head row is hidden at this width)
    labels = row.evaluate(
        "tr => [...tr.querySelectorAll('[data-label]')].map("
        "c => getComputedStyle(c, '::before').content)"
    )
    assert any("Erste Eingabe" in label for label in labels), labels
    assert any("Zweite Eingabe" in label for label in labels), labels
    shoot(page, "differences-390")
    radio = page.locator("input[name='choice_1-declarer'][value=second]")
    radio.check()
    assert radio.is_checked()
    page.context.close()


def type_totals(page, totals, *, initials: str) -> None:
    page.fill("input[name=typist]", initials)
    for position, total in enumerate(totals):
        page.fill(f"input[name=total_{position}]", str(total))
    with page.expect_navigation():
        page.click("#totals-form button[type=submit]")


def test_totals_sheet_typed_twice_and_the_waiting_table(browser, live_server, django_user_model):
    """Issue 39, item 6: a sheet of round totals only ("Dieses Blatt hat nur Rundensummen")
    is typed twice at the laptop (1280 px); while it waits, the table's page and the phone
    (390 px) offer no deal form and say why; the differing second typing is settled."""
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=6, double_entry=True)
    table = seat_table(tournament=tournament)
    django_user_model.objects.create_superuser("orga", "", "geheim")
    django_user_model.objects.create_superuser("helfer", "", "geheim")
    base = f"{live_server.url}/tournaments/{tournament.pk}/rounds/1"
    table_page = f"{base}/tables/1/"
    overview = f"{base}/entry/"

    first = signed_in(browser, live_server, "orga", LAPTOP)
    first.goto(table_page)
    with first.expect_navigation():
        first.click("text=Dieses Blatt hat nur Rundensummen")
    assert "Erste Eingabe" in first.inner_text("#double-entry")
    shoot(first, "totals-first-typing-1280")
    type_totals(first, [30, -10, -40, 20], initials="AB")
    assert "Erste Eingabe gespeichert" in first.inner_text("main")
    assert not Deal.objects.filter(table=table).exists()
    first.goto(overview)
    assert "Bogen wartet auf Zweiteingabe (Rundensummen)" in first.inner_text(".table-progress")
    # the table's page: no deal form, the reason and the way to the second typing
    first.goto(table_page)
    assert first.locator("#deal-form").count() == 0
    waits = first.inner_text("#typing-waits")
    assert "wartet auf seine Zweiteingabe" in waits
    assert fits(first)
    shoot(first, "table-waits-1280")

    # a phone at the table (390 px): no deal form either, the same reason
    phone = browser.new_context(locale="de-DE", viewport=PHONE).new_page()
    phone.goto(f"{live_server.url}/t/{table.token}/")
    with phone.expect_navigation():
        phone.click("button[name=position][value='0']")
    assert phone.locator("#deal-form").count() == 0
    assert "wartet auf seine Zweiteingabe" in phone.inner_text("#typing-waits")
    assert fits(phone), "the phone page scrolls sideways at 390 px"
    shoot(phone, "phone-waits-390")

    # the second typist types two totals swapped: held, settled with the first typing
    second = signed_in(browser, live_server, "helfer", PHONE)
    second.goto(table_page)  # the table's page on a narrow screen: the reason, no form
    assert second.locator("#deal-form").count() == 0
    assert second.locator("#typing-waits").is_visible()
    assert fits(second), "the table's page scrolls sideways at 390 px"
    shoot(second, "table-waits-390")
    second.goto(overview)
    with second.expect_navigation():
        second.click("a.typing-awaiting")
    assert "Zweite Eingabe" in second.inner_text("#double-entry")
    assert second.input_value("input[name=total_0]") == ""  # blind
    assert fits(second), "the totals page scrolls sideways at 390 px"
    shoot(second, "totals-second-typing-390")
    type_totals(second, [30, -40, -10, 20], initials="CD")
    assert "/written/differences/" in second.url
    assert second.locator("tr.difference").count() == 2
    assert "Rundensummen" in second.inner_text("tr#difference-1-seat1 th")
    assert fits(second), "the differences page scrolls sideways at 390 px"
    shoot(second, "totals-differences-390")
    assert not Deal.objects.filter(table=table).exists()
    with second.expect_navigation():
        second.click("button[name=line][value='first:1']")
    with second.expect_navigation():
        second.click("#settle-form button[type=submit]")
    assert "Abweichungen geklärt" in second.inner_text("main")
    assert Deal.objects.get(table=table).scores[:4] == [30, -10, -40, 20]

    # counted: the phone's page no longer speaks of a waiting sheet
    phone.reload()
    assert phone.locator("#typing-waits").count() == 0
    first.goto(overview)
    assert "Bogen wartet auf Zweiteingabe" not in first.inner_text(".table-progress")
    for page in (first, second, phone):
        page.context.close()
