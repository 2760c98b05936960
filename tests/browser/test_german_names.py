"""Names the clubs typed in (tournament, club, season) are marked lang="de" in headings, so an
English page hyphenates them by German rules instead of breaking them anywhere."""

import datetime as dt
import os
from pathlib import Path

import pytest
from django.urls import reverse

from clubs.models import Club
from tests.factories import SeasonFactory, TournamentFactory

LONG = "2. Turnier der Schwarzwaldmeisterschaft"


@pytest.fixture
def tournament(db):
    club = Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CFB", town="B")
    season = SeasonFactory(
        name="Schwarzwaldmeisterschaft 2026/27",
        starts_on=dt.date(2026, 11, 1),
        ends_on=dt.date(2027, 4, 30),
    )
    return TournamentFactory(name=LONG, host_club=club, season=season, date=dt.date(2026, 11, 28))


@pytest.mark.django_db
def test_headings_mark_the_names_as_german_on_an_english_page(admin_client, tournament):
    admin_client.cookies["django_language"] = "en"
    detail = admin_client.get(reverse("tournaments:tournament_detail", args=[tournament.pk]))
    html = detail.content.decode()
    assert '<html lang="en"' in html
    assert f'<h1><span lang="de" class="de-name">{LONG}</span>' in html
    assert '<span lang="de" class="de-name">Cegofreunde Bräunlingen</span>' in html
    standings = admin_client.get(reverse("tournaments:standings", args=[tournament.pk]))
    html = standings.content.decode()
    assert f'<span lang="de" class="de-name">{LONG}</span>' in html
    assert '<span lang="de" class="de-name">Schwarzwaldmeisterschaft 2026/27</span>' in html
    season = admin_client.get(reverse("seasons:season_standings", args=[tournament.season_id]))
    assert '<span lang="de" class="de-name">Schwarzwaldmeisterschaft 2026/27</span>' in (
        season.content.decode()
    )
    club = admin_client.get(reverse("clubs:club_edit", args=[tournament.host_club_id]))
    assert '<h1><span lang="de" class="de-name">Cegofreunde Bräunlingen</span></h1>' in (
        club.content.decode()
    )
    # a name with markup in it stays text
    tournament.name = "<b>Fest</b>"
    tournament.save()
    html = admin_client.get(
        reverse("tournaments:tournament_detail", args=[tournament.pk])
    ).content.decode()
    assert '<span lang="de" class="de-name">&lt;b&gt;Fest&lt;/b&gt;</span>' in html


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_heading_hyphenates_as_german_at_phone_width(
    browser, live_server, tournament, django_user_model, tmp_path
):
    django_user_model.objects.create_superuser("orga", "", "pw")
    out = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{live_server.url}/login/")
    page.click("button[name=language][value=en]")
    page.wait_for_load_state()
    page.fill("input[name=username]", "orga")
    page.fill("input[name=password]", "pw")
    page.click("form.login-form button[type=submit]")
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    assert page.evaluate("document.documentElement.lang") == "en"
    style = page.evaluate(
        """() => {
            const name = document.querySelector('h1 .de-name');
            const css = getComputedStyle(name);
            return [name.lang, css.hyphens, css.overflowWrap];
        }"""
    )
    assert style == ["de", "auto", "anywhere"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=str(out / "german-name-heading-phone.png"))
