"""The page where the desk chooses between two versions of a deal entered twice (a laptop
restored from a backup, or a second laptop), in a real browser at phone width (390 px) and
on a laptop (1280 px): both versions field by field, the choice taken, the page empty after.

Screenshots go to ``$SCREENSHOT_DIR`` when set, else to a temporary directory."""

import pytest

from publishing.models import Publication, PublishConflict
from tests.browser.test_archive_preview import sign_in
from tests.browser.test_club_pages import SIZES, fits, shots_dir
from tests.factories import EntryFactory, TournamentFactory
from tests.tournaments.standings.conftest import cego, table_of
from tournaments.models import Deal
from tournaments.selectors.archive import tournament_items
from tournaments.services.phone_entry import enter_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", SIZES)
def test_the_desk_sees_both_versions_and_takes_the_servers(
    browser, live_server, django_user_model, tmp_path, size
):
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=24)
    entries = [EntryFactory(tournament=tournament, number=n + 1) for n in range(4)]
    table = table_of(tournament=tournament, entries=entries)
    for number, declarer in enumerate((0, 1), start=1):
        enter_deal(table=table, number=number, inputs=cego(declarer, 45))
    publication = Publication.objects.create(
        tournament=tournament, url="https://saison.example.org", token="t"
    )
    server_item = dict(tournament_items(tournament=tournament)["deal:r1-t1-d2"])
    server_item["record"] = {**server_item["record"], "declarer": 3}
    server_item["scores"] = [-10, -10, -10, 30]
    PublishConflict.objects.create(
        publication=publication, key="deal:r1-t1-d2", server_item=server_item
    )
    url = f"/tournaments/{tournament.pk}/publish/conflicts/"
    context, page = sign_in(browser, live_server, django_user_model, size, url)
    page.goto(live_server.url + url)
    main = page.inner_text("main")
    assert "Runde 1, Tisch 1, Spiel 2" in main and "Alleinspieler (Platz)" in main
    assert fits(page)
    page.screenshot(path=str(shots_dir(tmp_path) / f"conflicts-{size}.png"), full_page=True)
    with page.expect_navigation():
        page.click("button[value=server]")
    assert "Gewählt" in page.inner_text("main")
    assert "Nichts wartet auf eine Wahl" in page.inner_text("main")
    assert list(Deal.objects.get(table=table, number=2).scores)[:4] == [-10, -10, -10, 30]
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/publish/")
    assert "noch nicht geschickt" in page.inner_text("main")
    assert fits(page)
    context.close()
