"""The players who signed up and never came, as the desk sees them in a real browser at phone
width (390 px) and on a laptop (1280 px): "nicht erschienen" on the check-in list once a
round is drawn, and their names at "Turnier abschließen", with the choice to take them off
the list; the standings rank only who came.

Screenshots go to ``$SCREENSHOT_DIR`` when set, else to a temporary directory."""

import pytest

from tests.browser.test_archive_preview import sign_in
from tests.browser.test_club_pages import SIZES, fits, shots_dir
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tests.tournaments.standings.conftest import cego, table_of
from tournaments.models import Entry, Round
from tournaments.services.phone_entry import enter_deal
from tournaments.services.round_state import set_round_state

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", SIZES)
def test_the_desk_sees_who_did_not_come_and_takes_them_off(
    browser, live_server, django_user_model, tmp_path, size
):
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=1, rounds=1)
    came = [EntryFactory(tournament=tournament, number=n + 1, checked_in=True) for n in range(4)]
    absent = EntryFactory(
        tournament=tournament, number=5, player=PlayerFactory(first_name="Otto", last_name="Fern")
    )
    table = table_of(tournament=tournament, entries=came)
    enter_deal(table=table, number=1, inputs=cego(0, 45))
    set_round_state(round=table.round, state=Round.State.CLOSED, user=None)
    url = f"/tournaments/{tournament.pk}/checkin/"
    context, page = sign_in(browser, live_server, django_user_model, size, url)
    page.goto(live_server.url + url)
    assert "nicht erschienen" in page.inner_text(f"#entry-{absent.pk}")
    assert fits(page)
    page.screenshot(path=str(shots_dir(tmp_path) / f"checkin-absent-{size}.png"), full_page=True)

    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    with page.expect_navigation():
        page.click("#finish button[type=submit]")
    main = page.inner_text("main")
    assert "1 Anmeldung ohne Erscheinen" in main and "5 · Otto Fern" in main
    assert fits(page)
    page.screenshot(path=str(shots_dir(tmp_path) / f"finish-absent-{size}.png"), full_page=True)
    page.check("input[name=remove_no_shows]")
    with page.expect_navigation():
        page.click("button.primary")
    assert not Entry.objects.filter(pk=absent.pk).exists()
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/standings/")
    assert "Fern" not in page.inner_text("main")
    context.close()
