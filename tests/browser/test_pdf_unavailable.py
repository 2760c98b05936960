"""On a computer without WeasyPrint (or Pango), the page that answers a WeasyPrint download
(season notice board, player list, tariff card) in a real browser, at phone width (390 px) and
on a laptop: German, readable, nothing running off the side. Screenshots go to
``$SCREENSHOT_DIR`` when set."""

import sys

import pytest

from clubs.models import Club, ClubRole
from printing import pdf
from tests.browser.test_club_pages import SIZES, fits, shots_dir
from tests.factories import SeasonFactory, TournamentFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def no_weasyprint(monkeypatch):
    pdf._html_class.cache_clear()
    for name in [m for m in sys.modules if m == "weasyprint" or m.startswith("weasyprint.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # its import fails
    yield
    monkeypatch.undo()
    pdf._html_class.cache_clear()


@pytest.mark.parametrize("size", SIZES)
def test_the_page_instead_of_a_weasyprint_pdf(
    browser, live_server, django_user_model, no_weasyprint, tmp_path, size
):
    club = Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CFB", town="Bräunlingen")
    season = SeasonFactory(name="Saison 2026/27")
    TournamentFactory(season=season, host_club=club)  # the club hosts the season
    user = django_user_model.objects.create_user("kasse", password="geheim")
    ClubRole.objects.create(user=user, club=club)
    context = browser.new_context(locale="de-DE", viewport=SIZES[size])
    page = context.new_page()
    page.goto(f"{live_server.url}/login/?next=/")
    page.fill("#id_username", "kasse")
    page.fill("#id_password", "geheim")
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")
    out = shots_dir(tmp_path)
    for name, path in (
        ("season", f"/seasons/{season.pk}/standings.pdf"),
        ("players", "/players/export.pdf"),
        ("tariff", "/rules/swm/pdf/"),
    ):
        response = page.goto(live_server.url + path)
        assert response.status == 503, path
        heading = page.locator("main h1").inner_text()
        assert heading == "Dieses PDF kann auf diesem Computer nicht erstellt werden"
        text = page.locator("main").inner_text()
        assert "Strg+P" in text and "Rangliste und Preisliste" in text
        assert fits(page), path
        page.screenshot(path=str(out / f"pdf-unavailable-{name}-{size}.png"), full_page=True)
    page.click("text=Zurück zur Startseite")
    assert page.url.rstrip("/") == live_server.url
    context.close()
