"""Sanctions in a real browser, on a phone (390 px) and a laptop (1280 px): the season scorer
records a ban in the register; the check-in desk sees "gesperrt" beside the player and a
warning when checking them in, with the ban's terms and not its reason, and checks them in
all the same (the organisers decide). Nothing runs off the side of the screen.

Screenshots go to ``$SCREENSHOT_DIR`` when set, else to a temporary directory."""

import datetime as dt

import pytest
from django.utils import timezone

from clubs.models import ClubRole, Membership, Sanction
from tests.browser.test_archive_preview import sign_in
from tests.browser.test_club_pages import SIZES, fits, shots_dir
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REASON = "Hat das Turnier nach Runde 2 ohne Abmeldung verlassen."


@pytest.mark.parametrize("size", SIZES)
def test_a_ban_recorded_and_the_desk_warned(
    browser, live_server, django_user_model, tmp_path, size
):
    club = ClubFactory(name="Cegoclub Triberg", short_name="CC Triberg")
    hans = PlayerFactory(first_name="Hans", last_name="Weißhaar-Dilger")
    Membership.objects.create(player=hans, club=club)
    day = timezone.localdate() + dt.timedelta(days=7)
    tournament = TournamentFactory(host_club=club, date=day, name="Adventsturnier")
    entry = EntryFactory(tournament=tournament, player=hans, number=1)
    for number in range(2, 5):
        EntryFactory(tournament=tournament, number=number)
    # the scorer (here the superuser) records the ban
    context, page = sign_in(browser, live_server, django_user_model, size, "/seasons/sanctions/")
    page.goto(f"{live_server.url}/seasons/sanctions/?q=weisshaar")
    page.get_by_label("Weißhaar-Dilger, Hans · CC Triberg").check()
    page.fill("#id_starts_on", timezone.localdate().isoformat())
    page.fill("#id_tournaments", "2")
    page.fill("#id_reason", REASON)
    page.fill("#id_decided_by", "Vorstand, Beschluss vom 3.12.")
    page.get_by_role("button", name="Sperre speichern").click()
    page.wait_for_selector(".messages")
    card = page.locator(f"#sanction-{Sanction.objects.get().pk}")
    assert "gilt" in card.inner_text() and REASON in card.inner_text()
    assert fits(page), "the register runs off the side"
    page.screenshot(path=str(shots_dir(tmp_path) / f"sanctions-{size}.png"), full_page=True)
    context.close()
    # the host club's organiser at the check-in desk
    organiser = django_user_model.objects.create_user("desk", password="geheim")
    ClubRole.objects.create(user=organiser, club=club)
    context = browser.new_context(locale="de-DE", viewport=SIZES[size])
    page = context.new_page()
    page.goto(f"{live_server.url}/login/?next=/tournaments/{tournament.pk}/checkin/")
    page.fill("#id_username", "desk")
    page.fill("#id_password", "geheim")
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")
    row = page.locator(f"#entry-{entry.pk}")
    assert "gesperrt" in row.inner_text()
    assert REASON not in page.content()
    assert fits(page), "the check-in list runs off the side"
    with page.expect_navigation():
        row.get_by_role("button", name="anwesend", exact=True).click()
    warning = page.locator(".messages li.warning")
    assert "Achtung: Hans Weißhaar-Dilger ist für Turniere des Verbands gesperrt" in (
        warning.inner_text()
    )
    assert REASON not in page.content()
    entry.refresh_from_db()
    assert entry.checked_in  # warned, not refused
    page.screenshot(path=str(shots_dir(tmp_path) / f"checkin-banned-{size}.png"), full_page=True)
    context.close()
