"""A phone loses the connection mid-entry (Playwright's offline mode): the deal stays on the
phone, shown as not sent yet, and arrives exactly once when the connection is back."""

import os

import pytest

from tests.browser.waiting import wait_for_js
from tests.factories import TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tournaments.models import Deal, DealChange

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def table():
    return seat_table(tournament=TournamentFactory(rules_slug="swm", deals_per_round=24))


def open_seat(context, live_server, table):
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{table.token}/")
    page.click("button[name=position][value='0']")
    page.wait_for_selector("#deal-form")
    return page


def fill(page, *, points: int) -> None:
    page.select_option("[name=contract]", "eine")
    page.select_option("[name=declarer]", "2")
    page.fill("[name=declarer_points]", str(points))


def test_deal_saved_offline_is_sent_once_when_back_online(browser, live_server, table):
    context = browser.new_context(locale="de-DE", viewport=PHONE)
    page = open_seat(context, live_server, table)
    fill(page, points=41)
    key = page.input_value("[name=submission_key]")

    context.set_offline(True)  # the hall's Wi-Fi drops while the player types
    page.click("#deal-form button[type=submit].primary")
    queue = page.locator("#offline-queue")
    queue.wait_for(state="visible")
    assert "auf diesem Handy gespeichert, noch nicht gesendet" in queue.inner_text()
    assert "Spiel 1" in queue.inner_text()
    assert Deal.objects.count() == 0
    # Ready for the next deal, with a new key; the saved one is kept on the phone.
    assert page.input_value("[name=number]") == "2"
    assert page.input_value("[name=submission_key]") not in ("", key)
    assert key in page.evaluate("JSON.stringify(Object.assign({}, window.localStorage))")
    os.makedirs("test-artifacts", exist_ok=True)
    page.screenshot(path="test-artifacts/phone-offline.png", full_page=True)

    # Deal 2 offline too, then the connection comes back: both arrive, in order, once each.
    fill(page, points=50)
    page.click("#deal-form button[type=submit].primary")
    wait_for_js(page, "document.querySelectorAll('#offline-queue li').length === 2")
    context.set_offline(False)
    wait_for_js(
        page,
        "!document.querySelector('#offline-queue') || document.querySelector('#offline-queue').hidden"
        " && !window.localStorage.length",
        timeout=20000,
    )
    page.wait_for_selector("#pending-2")
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    assert [(d.number, d.declarer_points) for d in deals] == [(1, 41), (2, 50)]
    assert str(deals[0].submission_key) == key
    assert DealChange.objects.filter(deal__table=table).count() == 2
    assert page.locator("#offline-queue").is_hidden()
    page.screenshot(path="test-artifacts/phone-back-online.png", full_page=True)


def test_deal_sent_twice_with_one_key_is_stored_once(browser, live_server, table):
    """The first send reached the server but the phone never saw the answer: the copy kept on
    the phone is sent again with the same key, and the server does not store it twice."""
    context = browser.new_context(locale="de-DE", viewport=PHONE)
    page = open_seat(context, live_server, table)
    fill(page, points=41)
    key = page.input_value("[name=submission_key]")
    fields = page.evaluate(
        "() => Array.from(new FormData(document.getElementById('deal-form')).entries())"
    )
    # Sent once for real (the answer lost), and the same fields kept on the phone.
    page.evaluate(
        """([token, fields, key]) => {
            localStorage.setItem('cego-unsent:' + token, JSON.stringify([
              {key: key, number: 1, url: location.href, fields: fields}]));
            return fetch(location.href, {method: 'POST', body: new URLSearchParams(fields),
                                         redirect: 'manual'}).then(r => r.type);
        }""",
        [table.token, fields, key],
    )
    assert Deal.objects.count() == 1
    page.reload()
    page.wait_for_selector("#pending-1")
    wait_for_js(page, "!window.localStorage.length", timeout=20000)
    page.wait_for_load_state()  # the page reloads once the copy is sent
    page.wait_for_selector("#pending-1")
    assert Deal.objects.count() == 1
    assert DealChange.objects.count() == 1


def test_refused_deal_is_shown_with_the_servers_answer(browser, live_server, table):
    """Online, a deal the server refuses (no card points) shows the error next to the field,
    exactly as without the offline helper."""
    context = browser.new_context(locale="de-DE", viewport=PHONE)
    page = open_seat(context, live_server, table)
    page.select_option("[name=contract]", "eine")
    page.select_option("[name=declarer]", "2")
    with page.expect_navigation():
        page.click("#deal-form button[type=submit].primary")
    assert page.locator(".errorlist").count() >= 1
    assert Deal.objects.count() == 0
    assert page.locator("#offline-queue").is_hidden()


@pytest.mark.parametrize("status", [500, 503])
def test_a_server_error_keeps_the_deal_on_the_phone(browser, live_server, table, status):
    """The database down (503) or a server error (500): the answer came, but nothing was
    stored. The phone dropped the deal before; now it keeps it and sends it when the server
    answers again."""
    context = browser.new_context(locale="de-DE", viewport=PHONE)
    page = open_seat(context, live_server, table)
    fill(page, points=41)

    server_down = [True]

    def failing(route):
        # One handler for the whole test, switched rather than removed: a send the phone
        # starts on its own (every 10 s) while the server is "down" gets its answer either way.
        if route.request.method == "POST" and server_down[0]:
            route.fulfill(status=status, body="Service Unavailable")
        else:
            route.continue_()

    page.route(f"**/t/{table.token}/", failing)
    page.click("#deal-form button[type=submit].primary")
    queue = page.locator("#offline-queue")
    queue.wait_for(state="visible")
    assert "Spiel 1" in queue.inner_text()
    assert Deal.objects.count() == 0
    server_down[0] = False
    page.evaluate("window.dispatchEvent(new Event('online'))")  # or the 10-second retry
    page.wait_for_selector("#pending-1", timeout=20000)
    assert [d.declarer_points for d in Deal.objects.filter(table=table)] == [41]


def test_a_send_without_an_answer_is_given_up_and_the_deal_kept(browser, live_server, table):
    """The connection holds but no answer comes (the laptop asleep mid-request): the phone
    gives the send up after its wait, keeps the deal and sends it again, stored once."""
    context = browser.new_context(locale="de-DE", viewport=PHONE)
    page = open_seat(context, live_server, table)
    page.eval_on_selector("#deal-form", "form => form.setAttribute('data-send-timeout-ms', '1500')")
    fill(page, points=41)
    held = []

    def first_send_hangs(route):
        if route.request.method == "POST" and not held:
            held.append(route)  # never answered
        else:
            route.continue_()

    page.route(f"**/t/{table.token}/", first_send_hangs)
    page.click("#deal-form button[type=submit].primary")
    page.locator("#offline-queue").wait_for(state="visible", timeout=10000)
    assert Deal.objects.count() == 0
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("#pending-1", timeout=20000)
    assert [d.declarer_points for d in Deal.objects.filter(table=table)] == [41]
    assert len(held) == 1
