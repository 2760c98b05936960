"""What the standings and the projector say before the first result, in a real browser at
phone width (390 px) and on a laptop (1280 px): "Noch keine Ergebnisse", and no rank for
anybody (never "1.=" for every player on 0); after the first deal the ranks appear.

Screenshots go to ``$SCREENSHOT_DIR`` when set, else to a temporary directory."""

import pytest

from tests.browser.test_club_pages import SIZES, fits, shots_dir
from tests.factories import EntryFactory, TournamentFactory
from tests.tournaments.standings.conftest import cego, table_of
from tournaments.services.phone_entry import enter_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", SIZES)
def test_before_the_first_result_nobody_is_ranked(browser, live_server, tmp_path, size):
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=1, rounds=1)
    entries = [EntryFactory(tournament=tournament, number=n + 1, checked_in=True) for n in range(4)]
    table = table_of(tournament=tournament, entries=entries)
    context = browser.new_context(viewport=SIZES[size], locale="de-DE")
    page = context.new_page()
    standings = f"{live_server.url}/tournaments/{tournament.pk}/standings/"
    page.goto(standings)
    assert "Noch keine Ergebnisse" in page.inner_text("main")
    ranks = page.locator("table.standings-table td.rank").all_inner_texts()
    assert ranks == ["–"] * 4
    assert fits(page)
    page.screenshot(path=str(shots_dir(tmp_path) / f"standings-before-{size}.png"), full_page=True)
    page.goto(standings + "projector/")
    assert "Noch keine Ergebnisse" in page.inner_text("body")
    assert page.locator(".projector-table td.rank").all_inner_texts() == ["–"] * 4
    page.screenshot(path=str(shots_dir(tmp_path) / f"projector-before-{size}.png"))

    enter_deal(table=table, number=1, inputs=cego(0, 45))
    page.goto(standings)
    ranks = page.locator("table.standings-table td.rank").all_inner_texts()
    assert ranks[0] == "1." and "–" not in ranks
    context.close()
