"""Provisional results and the season scorer's appeals in a real browser, on a phone (390 px)
and a laptop (1280 px): the season table marks the provisional tournament's column ("vorl.")
with a legend, the tournament's standings say until when; the scorer decides an appeal on
the appeals page. Nothing runs off the side of the screen.

Screenshots go to ``$SCREENSHOT_DIR`` when set (for a person to look at), else to a
temporary directory."""

import datetime as dt
import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import AssociationRole
from seasons.services import record_appeal
from tests.factories import EntryFactory, PlayerFactory, SeasonFactory, TournamentFactory
from tests.seasons.conftest import play
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 900}}


@pytest.fixture
def season_with_an_appeal():
    """Two tournaments of a season: the first final long ago, the second finished two days
    ago, with an appeal received today."""
    today = timezone.localdate()
    season = SeasonFactory(
        name="Schwarzwaldmeisterschaft",
        starts_on=today - dt.timedelta(days=60),
        ends_on=today + dt.timedelta(days=120),
    )
    people = [PlayerFactory(first_name=f"Spieler{n}", last_name=f"Nachname{n}") for n in range(4)]
    tournaments = []
    for name, days_ago in (("Herbstturnier Bräunlingen", 40), ("Adventsturnier Triberg", 2)):
        tournament = TournamentFactory(
            name=name, season=season, date=today - dt.timedelta(days=days_ago), deals_per_round=24
        )
        play(tournament, [EntryFactory(tournament=tournament, player=p) for p in people], [(0, 45)])
        Tournament.objects.filter(pk=tournament.pk).update(
            finished_at=timezone.now() - dt.timedelta(days=days_ago)
        )
        tournaments.append(tournament)
    scorer = get_user_model().objects.create_user("sportwart", password="pw")
    AssociationRole.objects.create(user=scorer)
    record_appeal(
        tournament_id=tournaments[1].pk,
        appellant="Cegoclub Triberg",
        text="Tisch 2, Spiel 7: Der Räuber wurde als Cego gewertet.",
        received_on=today,
        user=scorer,
    )
    return season, tournaments, scorer


def shots_dir(tmp_path) -> Path:
    target = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)
    return target


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_season_table_marks_the_provisional_tournament(
    browser, live_server, season_with_an_appeal, size, tmp_path
):
    season, (final, provisional), _scorer = season_with_an_appeal
    page = browser.new_page(viewport=SIZES[size])
    page.goto(live_server.url + reverse("seasons:season_standings", args=[season.pk]))
    heads = page.locator("#season-ranking thead th")
    marked = page.locator("#season-ranking thead th.provisional")
    assert marked.count() == 1
    assert f"{provisional.date:%d.%m.}" in marked.inner_text()
    assert "vorl." in marked.inner_text()
    assert heads.filter(has_text=f"{final.date:%d.%m.}").inner_text().strip().endswith(".")
    legend = page.locator("#provisional-legend")
    assert legend.is_visible() and "vorläufig" in legend.inner_text()
    assert fits(page), "the season page runs off the side"
    page.screenshot(path=str(shots_dir(tmp_path) / f"season-provisional-{size}.png"))
    # the tournament's own page says why
    page.goto(live_server.url + reverse("tournaments:standings", args=[provisional.pk]))
    line = page.locator("#finality")
    assert "Ergebnisse vorläufig: Ein Einspruch ist offen." in line.inner_text()
    assert "Cegoclub Triberg" not in page.content()  # the appellant is the scorer's
    assert fits(page)
    page.goto(live_server.url + reverse("tournaments:standings", args=[final.pk]))
    assert "Ergebnisse endgültig seit" in page.locator("#finality").inner_text()
    page.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_scorer_decides_an_appeal(browser, live_server, season_with_an_appeal, size, tmp_path):
    season, (_final, provisional), scorer = season_with_an_appeal
    context = browser.new_context(viewport=SIZES[size])
    client = Client()
    client.force_login(scorer)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    page.goto(live_server.url + reverse("seasons:appeals"))
    card = page.locator("article.appeal-card")
    assert card.count() == 1
    assert "Der Räuber wurde als Cego gewertet" in card.inner_text()
    assert fits(page), "the appeals page runs off the side"
    page.screenshot(path=str(shots_dir(tmp_path) / f"appeals-{size}.png"), full_page=True)
    card.get_by_label("teilweise stattgegeben").check()
    card.get_by_label("Begründung der Entscheidung").fill("Spiel 7 wird als Räuber gewertet.")
    card.get_by_label("Ergebnisse werden korrigiert").check()
    card.get_by_role("button", name="Entscheidung speichern").click()
    page.wait_for_selector(".messages")
    assert "Entscheidung gespeichert." in page.locator(".messages").inner_text()
    assert page.locator("article.appeal-card").count() == 0
    decided = page.locator("#appeal-" + str(provisional.appeals.get().pk))
    assert "teilweise stattgegeben" in decided.inner_text()
    still = page.locator(f"#tournament-{provisional.pk}").inner_text()
    assert "Sie werden nach einem Einspruch korrigiert." in still
    assert fits(page)
    page.screenshot(path=str(shots_dir(tmp_path) / f"appeals-decided-{size}.png"), full_page=True)
    context.close()
