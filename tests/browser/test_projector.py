"""The projector in a real browser (Debian's Chromium): 4-digit totals fit, every player comes
up screen by screen, and the QR code is there."""

import os

import pytest

from tests.factories import EntryFactory, TournamentFactory
from tests.printing.conftest import seat_round
from tournaments.models import Deal
from tournaments.views import standings as standings_views

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def big_totals():
    """40 players whose totals run to four digits (−1,999 … +1,999)."""
    tournament = TournamentFactory(name="Schwarzwaldmeisterschaft", rules_slug="swm")
    entries = [EntryFactory(tournament=tournament) for _ in range(40)]
    _, tables = seat_round(tournament, entries, [4] * 10)
    for index, table in enumerate(tables):
        deal = Deal(
            table=table, number=1, status=Deal.Status.CONFIRMED, dealer_position=0, contract="cego"
        )
        high = 1999 - index * 37
        deal.set_scores([high, -high, 1000 + index, -(1000 + index)])
        deal.save()
    return tournament


def test_projector_fits_totals_and_pages_through_everyone(
    browser, live_server, big_totals, monkeypatch, tmp_path
):
    monkeypatch.setattr(standings_views, "PROJECTOR_PAGE_SECONDS", 3)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/tournaments/{big_totals.pk}/standings/projector/")
    page.screenshot(path=str(tmp_path / "projector.png"))
    visible = page.locator(".projector-page:not([hidden]) td.total")
    assert visible.count() == 30
    assert "+1999" in visible.first.inner_text()
    clipped = page.evaluate(
        """() => [...document.querySelectorAll('.projector-page:not([hidden]) td.total,'
                   + '.projector-page:not([hidden]) td.rank')]
              .filter(td => td.scrollWidth > td.clientWidth).length"""
    )
    assert clipped == 0
    assert page.locator(".projector-qr img").is_visible()
    # The second screen (players 31-40) comes up by itself.
    page.wait_for_selector('.projector-page[data-page="2"]:not([hidden])', timeout=6000)
    assert page.locator(".projector-page:not([hidden]) td.total").count() == 10
    page.screenshot(path=str(tmp_path / "projector-2.png"))
    if os.environ.get("KEEP_SCREENSHOTS"):
        for name in ("projector.png", "projector-2.png"):
            (tmp_path / name).replace(os.path.join(os.environ["KEEP_SCREENSHOTS"], name))
