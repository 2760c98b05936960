"""The projector's round clock is read from the back of the hall: far larger than a row of
the standings, inside the screen, and on none of the rows (1280 and 1920 px wide)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.browser.test_projector import big_totals  # noqa: F401 (fixture)
from tests.browser.waiting import wait_for_js
from tournaments.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MEASURE = """() => {
  const clock = document.querySelector('.round-clock .clock-left');
  const row = document.querySelector('.projector-page:not([hidden]) td.name');
  const box = clock.getBoundingClientRect();
  const cells = [...document.querySelectorAll('.projector-page:not([hidden]) td')]
    .map(td => td.getBoundingClientRect());
  const overlaps = cells.filter(r => r.left < box.right && box.left < r.right
                                   && r.top < box.bottom && box.top < r.bottom).length;
  return {
    clock: parseFloat(getComputedStyle(clock).fontSize),
    row: parseFloat(getComputedStyle(row).fontSize),
    text: clock.textContent,
    box: [box.left, box.top, box.right, box.bottom],
    overlaps,
    inside: (() => { const frame = clock.parentElement.getBoundingClientRect();
                     return frame.left <= box.left && box.right <= frame.right; })(),
  };
}"""


@pytest.mark.parametrize("width,height", [(1280, 720), (1920, 1080)])
def test_projector_clock_is_large(browser, live_server, big_totals, width, height, tmp_path):  # noqa: F811
    Round.objects.filter(tournament=big_totals).update(
        state=Round.State.PLAYING, ends_at=timezone.now() + timedelta(minutes=75)
    )
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{live_server.url}/tournaments/{big_totals.pk}/standings/projector/")
    wait_for_js(page, "document.querySelector('.clock-left').textContent.includes(':14:')")
    page.screenshot(path=str(tmp_path / f"projector-clock-{width}.png"))
    found = page.evaluate(MEASURE)
    assert found["text"].startswith("1:14:")  # the longest it shows: hours, minutes, seconds
    assert found["clock"] >= 2.3 * found["row"]
    assert found["clock"] >= 0.075 * height  # 8 % of the screen's height
    left, top, right, bottom = found["box"]
    assert left >= 0 and top >= 0 and right <= width and bottom <= height
    assert bottom - top >= 0.075 * height
    assert found["overlaps"] == 0 and found["inside"]  # on no row, inside its frame
    assert page.locator(".projector-qr img").is_visible()
    page.close()
