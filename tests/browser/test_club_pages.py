"""The registry, the import preview and the treasurer's page in a real browser, at phone
width (390 px) and on a desktop: the content is there and nothing runs off the side.

Screenshots go to ``$SCREENSHOT_DIR`` when set (for a person to look at), else to a
temporary directory."""

import datetime as dt
import os
from pathlib import Path

import pytest

from clubs.models import Club, ClubRole, Membership, Player
from clubs.services.admin import charge_season_fees, set_annual_fee
from tests.factories import SeasonFactory, TournamentFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
MEMBER_LIST = (
    "Mitgliederliste Cegofreunde 2026;;;;\r\n"
    ";;;;\r\n"
    "Nachname;Vorname;Verein;Kategorie;Mitgliedsnummer\r\n"
    "Weißhaar;Anna;CFB;Damen;101\r\n"
    "Mueller;Hans;CFB;;102\r\n"
    "Schwär;Lena;CFB;Jugend;103\r\n"
    ";Ohne;CFB;;104\r\n"
).encode("cp1252")


@pytest.fixture
def club_data():
    club = Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CFB", town="Bräunlingen")
    season = SeasonFactory(
        name="Saison 2026/27", starts_on=dt.date(2026, 11, 1), ends_on=dt.date(2027, 4, 30)
    )
    names = [
        ("Hans", "Müller"),
        ("Anna", "Weißhaar-Dilger"),
        ("Xaver", "Furtwängler"),
        ("Renate", "Scherzinger"),
    ]
    for number, (first, last) in enumerate(names, start=1):
        Membership.objects.create(
            player=Player.objects.create(
                first_name=first, last_name=last, birth_year=1950 + number
            ),
            club=club,
            member_number=str(number),
            status="passive" if number == 4 else "active",
        )
    charge_season_fees(
        club=club,
        season=season,
        active_cents=3000,
        passive_cents=1200,
        due_on=dt.date(2026, 12, 31),
    )
    paid = Membership.objects.get(player__last_name="Müller")
    set_annual_fee(
        membership=paid,
        season=season,
        amount_cents=3000,
        due_on=dt.date(2026, 12, 31),
        status="active",
        paid_on=dt.date(2026, 11, 20),
        method="cash",
    )
    return club, season


def shots_dir(tmp_path) -> Path:
    target = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)
    return target


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("size", SIZES)
def test_club_pages_in_the_browser(
    browser, live_server, club_data, django_user_model, tmp_path, size
):
    club, season = club_data
    # The club's treasurer: an organiser of the club (a role), on the app's login page.
    kasse = django_user_model.objects.create_user("kasse", password="geheim")
    ClubRole.objects.create(user=kasse, club=club)
    context = browser.new_context(locale="de-DE", viewport=SIZES[size])
    page = context.new_page()
    page.goto(f"{live_server.url}/login/?next=/")
    page.fill("#id_username", "kasse")
    page.fill("#id_password", "geheim")
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")
    out = shots_dir(tmp_path)

    page.goto(f"{live_server.url}/players/?q=mueller")
    assert page.locator(".registry-table tbody tr").count() == 1
    assert "Müller" in page.locator(".registry-table").inner_text()
    assert fits(page)
    page.screenshot(path=str(out / f"registry-{size}.png"), full_page=True)

    page.goto(f"{live_server.url}/players/import/")
    page.set_input_files(
        "input[type=file]",
        {"name": "mitglieder.csv", "mimeType": "text/csv", "buffer": MEMBER_LIST},
    )
    with page.expect_navigation():
        page.click("form.stacked-form button[type=submit]")
    preview = page.locator(".import-table").inner_text()
    assert "Weißhaar" in preview and "Nachname fehlt" in preview
    assert (
        page.locator("tr.import-error").count() == 1
        and page.locator("tr.import-match").count() == 1
    )
    assert not Player.objects.filter(last_name="Schwär").exists()
    assert fits(page)
    page.screenshot(path=str(out / f"import-preview-{size}.png"), full_page=True)
    page.check("input[name=skip_errors]")
    with page.expect_navigation():
        page.click(".confirm-import button[type=submit]")
    assert Player.objects.filter(last_name="Schwär").exists()

    tournament = TournamentFactory(season=season, host_club=club, name="Vereinsturnier")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/registration/")
    with page.expect_navigation():
        page.click("form:has(input[value=club]) button[type=submit]")
    assert tournament.entries.count() == 5  # the active members, imported ones included
    assert fits(page)
    page.screenshot(path=str(out / f"registration-{size}.png"), full_page=True)

    page.goto(f"{live_server.url}/clubs/{club.pk}/fees/{season.pk}/")
    table = page.locator(".fee-table").inner_text()
    assert "Müller" in table and "12,00 €" in table
    # Still owed: two active members' 30 € and the passive member's 12 € (the imported
    # players have no fee yet; Müller paid).
    assert "72,00 €" in page.locator(".counts").inner_text()
    assert fits(page)
    page.screenshot(path=str(out / f"treasurer-{size}.png"), full_page=True)
    context.close()
