"""A player's own page on a 390 px phone (Debian's Chromium): found from the standings'
"Mein Platz" by name, it shows the table and seat large, the clock, the place and total, fits
the screen's width, and follows the day by itself: a held draw shows no seat until the
organiser releases it, then the seat appears without a reload."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.browser.test_projector import keep
from tests.browser.waiting import wait_for_js
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tests.printing.conftest import seat_round
from tournaments.models import Deal, Round
from tournaments.services import draws
from tournaments.views import player_day as player_views

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FITS = """() => ({
  wide: document.documentElement.scrollWidth > innerWidth,
  table: parseFloat(getComputedStyle(document.querySelector('.me-table')).fontSize),
  body: parseFloat(getComputedStyle(document.body).fontSize),
})"""


def test_my_seat_on_a_phone(browser, live_server, monkeypatch, tmp_path):
    monkeypatch.setattr(player_views, "REFRESH_SECONDS", 2)
    tournament = TournamentFactory(name="Schwarzwaldmeisterschaft im Cego", rounds=2)
    entries = [
        EntryFactory(
            tournament=tournament,
            number=i + 1,
            checked_in=True,
            player=PlayerFactory(last_name=last, first_name="Franz-Xaver"),
        )
        for i, last in enumerate(
            ["Schäfer", "Obermüller-Hinterzartener", "Blümle", "Faller"]
            + [f"Spieler{i}" for i in range(4)]
        )
    ]
    round_, tables = seat_round(tournament, entries, [4, 4])
    deal = Deal(table=tables[0], number=1, status=Deal.Status.CONFIRMED, dealer_position=0)
    deal.contract = "cego"
    deal.set_scores([90, -30, -30, -30])
    deal.save()
    Round.objects.filter(pk=round_.pk).update(
        state="playing", ends_at=timezone.now() + timedelta(minutes=40)
    )
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/standings/")
    page.click("text=Mein Platz")
    page.fill("#me-q", "Schaefer")
    page.click("button:has-text('Suchen')")
    page.click("text=Schäfer, Franz-Xaver")
    wait_for_js(page, "document.querySelector('.clock-left').textContent.includes(':')")
    keep(page, "my-seat-390.png", tmp_path)
    found = page.evaluate(FITS)
    assert not found["wide"] and found["table"] >= 3 * found["body"]
    assert page.locator(".me-table").inner_text() == "1"
    assert page.locator(".me-position").inner_text() == "1"
    assert "+90" in page.locator(".me-total").inner_text()
    assert "Obermüller-Hinterzartener" in page.locator(".me-others").inner_text()
    # Round 1 over, round 2 drawn under review: no seat of round 2 until it is released.
    Round.objects.filter(pk=round_.pk).update(state="closed")
    tournament.review_draws = True
    tournament.save()
    second = draws.draw_next_round(tournament=tournament, number=2)
    page.wait_for_selector("text=Runde 2 wird noch geprüft", timeout=8000)
    assert "Runde vorbei" in page.locator(".me-round h2").inner_text()
    draws.release_draw(round=second, user=None)
    page.wait_for_selector("#me-round-head:has-text('Runde 2')", timeout=8000)
    assert page.locator(".me-table").count() == 1
    keep(page, "my-seat-390-round-2.png", tmp_path)
    assert not page.evaluate(FITS)["wide"]
    page.close()
