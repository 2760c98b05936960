"""The projector in a real browser (Debian's Chromium): the page is the screen. At 1920×1080,
1280×800 and 1366×768 with 150 players (long names and clubs among them) every name is shown
in full or with the first name's initial, no cell is cut, nothing runs below the screen, the
columns fill the width, and the screens come up in turn ("Seite 1/4"); 4-digit totals fit."""

import os

import pytest

from tests.browser.waiting import wait_for_js
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MembershipFactory,
    PlayerFactory,
    TournamentFactory,
)
from tests.printing.conftest import seat_round
from tournaments.models import Deal
from tournaments.views import standings as standings_views

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# As in a real field: common names, a few long ones, one of each extreme.
LAST = [
    "Müller",
    "Faller",
    "Blümle",
    "Zähringer",
    "Gißler",
    "Hättich",
    "Duffner",
    "Kienzler",
    "Straub",
    "Weißhaar",
    "Kaltenbach",
    "Fehrenbach",
]
FIRST = ["Hans", "Ute", "Theresia", "Franz-Xaver", "Anna", "Jörg", "Hans-Peter", "Walburga"]
EXTREME = [
    ("Obermüller-Hinterzartener", "Maximilian-Alexander"),
    ("Schwarzwälder-Kirschbaum", "Theresia Walburga"),
]
CLUBS = ["Cegofreunde Titisee", "CC Bräunlingen", "Vöhrenbacher Cegoles", "CF Furtwangen"]

# Every visible cell of the screen shown: its content wider than its box, or below the screen.
MEASURE = """() => {
  const cells = [...document.querySelectorAll('.projector-page:not([hidden]) td')];
  const cut = cells.filter(td => td.scrollWidth > td.clientWidth + 1)
    .map(td => td.textContent.trim());
  const all = [...document.querySelectorAll('body *')].filter(e => e.getClientRects().length
    && !e.closest('[hidden]') && getComputedStyle(e).visibility !== 'hidden');
  const below = all.filter(e => e.getBoundingClientRect().bottom > innerHeight + 0.5
                              || e.getBoundingClientRect().right > innerWidth + 0.5)
    .map(e => e.tagName + '.' + e.className);
  const tables = [...document.querySelectorAll('.projector-page:not([hidden]) table')];
  const last = tables.length ? tables[tables.length - 1].getBoundingClientRect().right : 0;
  return {
    cut, below,
    columns: tables.length,
    used: last - (tables.length ? tables[0].getBoundingClientRect().left : 0),
    rows: cells.filter(td => td.classList.contains('name')).length,
    short: document.querySelectorAll('.projector-page tr.short').length,
    scrolls: document.documentElement.scrollHeight > innerHeight,
    names: [...document.querySelectorAll('.projector-page:not([hidden]) td.name .player')]
      .map(s => s.innerText),
    more: document.querySelector('.projector-more').textContent,
    font: parseFloat(getComputedStyle(cells.find(td => td.classList.contains('name'))).fontSize),
    fresh: !!document.querySelector('.projector-body > table'),
  };
}"""


def keep(page, name: str, tmp_path) -> None:
    path = tmp_path / name
    page.screenshot(path=str(path))
    if os.environ.get("KEEP_SCREENSHOTS"):
        path.replace(os.path.join(os.environ["KEEP_SCREENSHOTS"], name))


def play(tournament, entries) -> None:
    """One round at tables of four, one deal a table, totals up to four digits."""
    _, tables = seat_round(tournament, entries, [4] * (len(entries) // 4))
    for index, table in enumerate(tables):
        deal = Deal(
            table=table, number=1, status=Deal.Status.CONFIRMED, dealer_position=0, contract="cego"
        )
        high = 1999 - index * 37
        deal.set_scores([high, -high, 100 + index, -(100 + index)])
        deal.save()


@pytest.fixture
def big_totals():
    """40 players whose totals run to four digits (−1,999 … +1,999)."""
    tournament = TournamentFactory(name="Schwarzwaldmeisterschaft", rules_slug="swm")
    play(tournament, [EntryFactory(tournament=tournament) for _ in range(40)])
    return tournament


@pytest.fixture
def hall():
    """150 players with long names and clubs after a round."""
    tournament = TournamentFactory(name="Schwarzwaldmeisterschaft im Cego", rules_slug="swm")
    clubs = [ClubFactory(short_name=name) for name in CLUBS]
    entries = []
    for index in range(148):
        last, first = LAST[index % len(LAST)], FIRST[index % len(FIRST)]
        if index in (77, 78):
            last, first = EXTREME[index - 77]
        player = PlayerFactory(last_name=last, first_name=first)
        MembershipFactory(player=player, club=clubs[index % len(clubs)])
        entries.append(EntryFactory(tournament=tournament, player=player, number=index + 1))
    play(tournament, entries)
    # two who came late (checked in at the desk) and have not played yet (150 in all)
    for index in (148, 149):
        EntryFactory(
            tournament=tournament,
            number=index + 1,
            player=PlayerFactory(last_name="Nachzügler", first_name=f"Spät{index}"),
            checked_in=True,
        )
    return tournament


@pytest.mark.parametrize("width,height", [(1920, 1080), (1280, 800), (1366, 768)])
def test_projector_fills_the_screen_without_cutting(
    browser, live_server, hall, width, height, monkeypatch, tmp_path
):
    monkeypatch.setattr(standings_views, "PROJECTOR_PAGE_SECONDS", 3)
    page = browser.new_page(viewport={"width": width, "height": height})
    # The page's own clock, moved on by the test: each screen's 3 s pass at once.
    page.clock.install()
    page.goto(f"{live_server.url}/tournaments/{hall.pk}/standings/projector/")
    page.wait_for_selector(".projector-page")
    keep(page, f"projector-{width}.png", tmp_path)
    found = page.evaluate(MEASURE)
    assert found["cut"] == [] and found["below"] == [] and not found["scrolls"], found
    assert found["columns"] >= (3 if width >= 1920 else 2)
    assert found["used"] >= 0.85 * width  # the columns fill the screen's width
    assert found["font"] >= 0.025 * height  # read from the back of the hall
    # Names in full ("Last, First"), the first name cut to an initial only where needed.
    assert "Müller, Hans" in found["names"]
    assert found["short"] <= 0.5 * 150
    pages = -(-150 // found["rows"])
    assert found["more"].startswith(f"Seite 1/{pages}") and "150 Spieler" in found["more"]
    # Every player comes up, screen by screen, each screen as clean as the first.
    seen = found["rows"]
    for number in range(2, pages + 1):
        page.clock.run_for(3000)
        page.wait_for_selector(f'.projector-page[data-page="{number}"]:not([hidden])', timeout=6000)
        found = page.evaluate(MEASURE)
        assert found["cut"] == [] and found["below"] == [], found
        assert found["more"].startswith(f"Seite {number}/{pages}")
        seen += found["rows"]
    assert seen == 150
    if width == 1920:
        keep(page, f"projector-{width}-last.png", tmp_path)
    page.close()


def test_projector_fits_totals_and_lays_out_again_after_a_refresh(
    browser, live_server, big_totals, monkeypatch, tmp_path
):
    monkeypatch.setattr(standings_views, "PROJECTOR_REFRESH_SECONDS", 5)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.clock.install()  # the page's clock, moved on by the test to the next refresh
    page.goto(f"{live_server.url}/tournaments/{big_totals.pk}/standings/projector/")
    page.wait_for_selector(".projector-page")
    found = page.evaluate(MEASURE)
    assert found["cut"] == [] and found["below"] == [] and found["rows"] >= 30
    assert "+1999" in page.locator(".projector-page td.total").first.inner_text()
    assert page.locator(".projector-qr img").is_visible()
    # The refresh brings a new board: laid out again, nothing left unsorted.
    page.evaluate("document.querySelector('.projector-page td.name').dataset.old = '1'")
    page.clock.run_for(5_000)
    wait_for_js(page, "!document.querySelector('td.name[data-old]')", timeout=12000)
    page.wait_for_selector(".projector-page")
    found = page.evaluate(MEASURE)
    assert not found["fresh"] and found["cut"] == [] and found["rows"] >= 30
    page.close()
