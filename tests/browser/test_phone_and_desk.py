"""Issue 22 in a real browser (Debian's Chromium via Playwright), on a 390-px phone and a
1280-px laptop: the running sheet fits without sideways scrolling (four players, long names),
the phone's tap targets are at least 44 px high, two phones entering one deal, the preview
offline and with a penalty, and the desk confirming a deal left waiting."""

from __future__ import annotations

import os

import pytest

from tests.browser.test_day_without_friction import SIZES, desk, phone
from tests.factories import PlayerFactory, TournamentFactory
from tournaments.models import Deal, DealChange
from tournaments.services.draws import draw_next_round
from tournaments.services.phone_entry import enter_deal, revise_deal
from tournaments.services.setup import register_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = "test-artifacts"
LONG_NAMES = [
    ("Maximiliane-Josefine", "Schwarzwälder-Hinterzartener"),
    ("Bartholomäus", "Vöhrenbacher-Unterkirnacher"),
    ("Hildegard-Walburga", "Donaueschinger-Pfohrener"),
    ("Konstantin-Friedemann", "Furtwanger-Gütenbacher"),
]
# Deals with big scores (Solo, Bettel, a penalty), so totals run to four digits.
DEALS = [
    {"contract": "solo", "declarer": 0, "declarer_points": 20},
    {"contract": "bettel", "declarer": 1, "won": False},
    {"contract": "solo", "declarer": 2, "declarer_points": 70},
    {"contract": "halbe", "declarer": 3, "declarer_points": 10},
    {"contract": "ultimo", "declarer": 0, "won": False},
    {"contract": "solo", "declarer": 1, "declarer_points": 15},
    {"contract": "geiss", "declarer": 2, "declarer_points": 22},
    {"contract": "bettel", "declarer": 3, "won": False},
    {
        "contract": "eine",
        "declarer": 0,
        "declarer_points": 41,
        "penalty": {"seat": 2, "kind": "revoke"},
    },
    {"contract": "solo", "declarer": 3, "declarer_points": 12},
]


@pytest.fixture
def table():
    tournament = TournamentFactory(
        name="Schwarzwaldmeisterschaft", rules_slug="swm", rounds=2, deals_per_round=24
    )
    for first, last in LONG_NAMES:
        entry = register_player(
            tournament=tournament, player=PlayerFactory(first_name=first, last_name=last)
        )
        entry.checked_in = True
        entry.save()
    round_ = draw_next_round(tournament=tournament, number=1, seed=5)
    return round_.tables.get(number=1)


def full_sheet(table):
    for number, inputs in enumerate(DEALS, start=1):
        enter_deal(table=table, number=number, inputs=inputs)
    # two waiting for confirmation: their badges sit in the contract column
    for number in (11, 12):
        enter_deal(
            table=table,
            number=number,
            inputs=DEALS[number - 11],
            via="table",
            entered_by_position=1,
        )


def shot(page, name):
    os.makedirs(ARTIFACTS, exist_ok=True)
    page.screenshot(path=f"{ARTIFACTS}/{name}.png", full_page=True)


def fits(page) -> dict:
    """Widths of the page and of every table box: nothing may scroll sideways."""
    return page.evaluate(
        """() => ({
          page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
          boxes: [...document.querySelectorAll('.table-container')].map(
            b => [b.scrollWidth, b.clientWidth]),
        })"""
    )


def assert_fits(page):
    widths = fits(page)
    scroll, client = widths["page"]
    assert scroll <= client, widths
    assert widths["boxes"], "no sheet on the page"
    for scroll, client in widths["boxes"]:
        assert scroll <= client, widths


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_running_sheet_fits_without_sideways_scrolling(
    browser, live_server, django_user_model, table, size
):
    full_sheet(table)
    page = phone(browser, live_server, table, 0, size)
    page.wait_for_selector("table.sheet")
    shot(page, f"sheet-phone-page-{size}")
    assert_fits(page)
    # the fourth player's total is on the screen, not cut off
    total = page.locator("table.sheet tfoot th").last
    box = total.bounding_box()
    assert box["x"] + box["width"] <= SIZES[size]["width"]
    assert page.locator("[data-scroll-hint]").is_hidden()

    page = desk(browser, live_server, django_user_model, size)
    tournament = table.round.tournament_id
    page.goto(f"{live_server.url}/tournaments/{tournament}/rounds/1/tables/{table.number}/")
    page.wait_for_selector("table.sheet")
    shot(page, f"sheet-desk-{size}")
    assert_fits(page)
    # every column head names its player (short on a phone), every total is readable
    heads = page.locator("table.sheet thead th").all_inner_texts()
    for first, _last in LONG_NAMES:
        assert any(first in head for head in heads), heads


def test_phone_tap_targets_are_44_px_and_no_login_link(browser, live_server, table):
    enter_deal(table=table, number=1, inputs=DEALS[0], via="table", entered_by_position=1)
    page = phone(browser, live_server, table, 0)
    page.wait_for_selector("#pending-1")
    page.locator("details.penalty summary").wait_for()
    assert page.locator("a.login").count() == 0
    assert page.get_by_text("Anmelden", exact=True).count() == 0
    targets = page.evaluate(
        """() => [...document.querySelectorAll(
              'a[href], button, summary, select, label.check, ' +
              'input:not([type=hidden]):not([type=checkbox]):not([type=radio])')]
            .filter(e => e.offsetParent !== null)
            .map(e => {
              const r = e.getBoundingClientRect();
              return {text: (e.innerText || e.name || e.tagName).trim().slice(0, 30),
                      height: r.height, width: r.width};
            })"""
    )
    named = {t["text"] for t in targets}
    for text in ("DE", "EN", "Nicht Sie?", "Strafe", "Bestätigen", "Ändern"):
        assert text in named, named
    small = [t for t in targets if t["height"] < 44 or t["width"] < 44]
    assert not small, small
    shot(page, "phone-tap-targets")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_two_phones_enter_one_deal_the_second_confirms_what_was_saved(
    browser, live_server, table, size
):
    seats = list(table.seats.order_by("position").select_related("entry__player"))
    short = [f"{s.entry.player.first_name} {s.entry.player.last_name[:1]}." for s in seats]
    first = phone(browser, live_server, table, 0, size)
    second = phone(browser, live_server, table, 3, size)
    for page, points in ((first, "50"), (second, "55")):
        page.select_option("[name=contract]", "halbe")
        page.select_option("[name=declarer]", "1")
        page.fill("[name=declarer_points]", points)
    with first.expect_navigation():
        first.click("#deal-form button[type=submit].primary")
    with second.expect_navigation():
        second.click("#deal-form button[type=submit].primary")
    clash = second.locator("#clash")
    clash.wait_for()
    text = clash.inner_text()
    assert f"Spiel 1 hat {short[0]} schon eingetragen:" in text
    assert f"Halbe · {short[1]} · 50 Augen (Ihr Wert: 55 Augen)" in text
    assert second.locator("#deal-form").count() == 0  # no "number 2" way out
    shot(second, f"phone-clash-{size}")
    with second.expect_navigation():
        second.get_by_role("button", name="stimmt – bestätigen").click()
    deal = Deal.objects.get(table=table)
    assert deal.status == Deal.Status.CONFIRMED and deal.declarer_points == 50
    assert Deal.objects.filter(table=table).count() == 1
    # "ändern" leads to changing the saved deal
    enter_deal(table=table, number=2, inputs=DEALS[3], via="table", entered_by_position=0)
    second.fill("[name=number]", "2")
    second.select_option("[name=contract]", "halbe")
    second.select_option("[name=declarer]", "3")
    second.fill("[name=declarer_points]", "10")
    with second.expect_navigation():
        second.click("#deal-form button[type=submit].primary")
    with second.expect_navigation():
        second.locator("#clash").get_by_role("link", name="ändern", exact=True).click()
    assert "/change/" in second.url
    assert second.input_value("[name=declarer_points]") == "10"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_save_button_stays_put_when_the_scores_appear(browser, live_server, table, size):
    """The preview of the scores arrives a moment after the last field is filled (300 ms, and
    longer on a busy laptop). Above the button it grew by its lines and pushed the button
    down while the player tapped it: the tap landed on the preview and nothing was sent (a
    browser test saw exactly that on a busy CI machine). The button stays where it was."""
    page = phone(browser, live_server, table, 0, size)
    held: list | None = []  # the preview's requests, answered once the button is measured

    def hold(route):
        if held is None:
            route.continue_()
        else:
            held.append(route)

    page.route("**/preview/**", hold)
    page.select_option("[name=contract]", "halbe")
    page.select_option("[name=declarer]", "1")
    page.fill("[name=declarer_points]", "50")
    page.wait_for_timeout(400)  # past the preview's 300 ms delay: its request is held
    button = page.locator("#deal-form button[type=submit].primary")
    before = button.bounding_box()
    waiting, held = held, None
    assert waiting, "no preview was asked for"
    for route in waiting:
        route.continue_()
    page.locator("#preview .preview-scores").wait_for()
    page.wait_for_function("!document.querySelector('.htmx-request')")
    after = button.bounding_box()
    shot(page, f"preview-above-the-button-{size}")
    assert (after["x"], after["y"]) == (before["x"], before["y"]), (before, after)
    with page.expect_navigation():
        button.click()
    assert Deal.objects.get(table=table).declarer_points == 50


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_preview_offline_and_with_a_penalty_says_so(browser, live_server, table, size):
    page = phone(browser, live_server, table, 0, size)
    page.select_option("[name=contract]", "eine")
    page.select_option("[name=declarer]", "2")
    page.fill("[name=declarer_points]", "41")
    page.locator("#preview .preview-scores").wait_for()
    assert page.locator("#penalty-note").count() == 0
    page.locator("details.penalty summary").click()
    page.select_option("[name=penalty_seat]", "1")
    page.select_option("[name=penalty_kind]", "revoke")
    note = page.locator("#penalty-note")
    note.wait_for()
    assert "ersetzen das Ergebnis des Spiels" in note.inner_text()
    shot(page, f"preview-penalty-{size}")
    # the penalty's long player names do not push the page sideways
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    page.context.set_offline(True)
    page.fill("[name=declarer_points]", "45")
    offline = page.locator("#preview .offline-preview")
    offline.wait_for()
    assert offline.inner_text() == (
        "Ohne Verbindung keine Vorschau; das Ergebnis kommt nach dem Senden."
    )
    shot(page, f"preview-offline-{size}")
    page.context.set_offline(False)
    page.fill("[name=declarer_points]", "46")
    page.locator("#preview .preview-scores").wait_for()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_desk_confirms_a_deal_left_waiting(browser, live_server, django_user_model, table, size):
    deal = enter_deal(table=table, number=1, inputs=DEALS[3], via="table", entered_by_position=0)
    deal = revise_deal(
        deal=deal,
        inputs={**DEALS[3], "declarer_points": 12},
        expected_version=deal.version,
        entered_by_position=2,
    )
    page = desk(browser, live_server, django_user_model, size)
    tournament = table.round.tournament_id
    page.goto(f"{live_server.url}/tournaments/{tournament}/rounds/1/entry/")
    with page.expect_navigation():
        page.locator(".table-progress .pending-links a", has_text="Spiel 1").click()
    assert f"/deals/{deal.pk}/correct/" in page.url
    shot(page, f"desk-confirm-{size}")
    with page.expect_navigation():
        page.locator("#confirm-at-desk button").click()
    deal.refresh_from_db()
    assert deal.status == Deal.Status.CONFIRMED and deal.declarer_points == 12
    change = deal.changes.latest("pk")
    assert change.action == DealChange.Action.CONFIRMED
    assert change.changed_by.username == "orga"
    page.goto(f"{live_server.url}/tournaments/{tournament}/log/?area=deal")
    row = page.locator("table.change-log tbody tr").first
    text = row.inner_text()
    assert "orga" in text and "wartete auf Bestätigung → bestätigt" in text
    declarer = table.seats.get(position=3).entry.player.full_name
    assert f"Halbe, Alleinspieler {declarer}, 12 Augen: " in text
    assert "status:" not in page.content()
    shot(page, f"log-{size}")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_fresh_form_asks_for_no_preview_and_a_refused_one_for_its_own(
    browser, live_server, table, size
):
    """The phone's page asked the server for the deal form's preview on every load, an empty
    form's too, whose preview is the line the page already shows: one request more for each
    deal, as the page is loaded again after each one. A fresh page asks for none now; the
    page the server sends back with a refused deal asks for the preview of what it holds."""
    page = phone(browser, live_server, table, 0, size)
    previews = []
    page.on(
        "request",
        lambda request: previews.append(request.url) if "/preview/" in request.url else None,
    )
    page.reload()
    page.wait_for_load_state("networkidle")
    assert previews == []
    assert page.inner_text("#preview") == "Das Ergebnis erscheint hier schon vor dem Speichern."

    page.select_option("[name=contract]", "eine")
    page.select_option("[name=declarer]", "2")  # no points: the server refuses the deal
    with page.expect_navigation():
        page.click("#deal-form button[type=submit]")
    assert page.locator("#deal-form .errorlist").count() >= 1
    assert Deal.objects.filter(table=table).count() == 0
    # the server's page shows the placeholder; the preview asked on load, what the form holds
    page.locator("#preview", has_text="Spiel vollständig eingeben").wait_for(timeout=5000)
