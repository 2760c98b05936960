"""Who can still win (the season page and its projector) and the press report (a tournament's
and the season's), in Chromium at 390, 1280 and 1920 px, German and English: axe-core finds
nothing serious, nothing is wider than the screen, the projector's board fits its screen and
follows a deal of the final by itself, the report is in the site's language and names the
youngest and oldest who agreed, "Text kopieren" copies the text as edited and the download is
that text, plain."""

from __future__ import annotations

import datetime as dt
import os

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import Category
from tests.browser.test_accessibility import axe_violations, report
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MembershipFactory,
    PlayerFactory,
    SeasonFactory,
    TournamentFactory,
)
from tests.tournaments.standings.conftest import cego, table_of
from tournaments.services.phone_entry import enter_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {390: 844, 1280: 800, 1920: 1080}
SHOTS = os.environ.get("CEGO_SCREENSHOTS")  # a folder: the pages are kept there to look at
NAMES = [
    ("Schwarzwälder-Kirschbaum", "Maximilian-Alexander", Category.OPEN, 120, 80),
    ("Obermüller-Hinterzartener", "Theresia Walburga", Category.WOMAN, 90, 70),
    ("Zähringer", "Jonas", Category.YOUTH, 60, 40),
    ("Blümle", "Anna", Category.SENIOR, 20, -10),
    ("Faller", "Hans-Peter", Category.OPEN, -100, -60),
    ("Gißler", "Ute", Category.WOMAN, -190, -120),
]
# (birth year, agreed to be named for it): Jonas the youngest, Anna the oldest, both agreed;
# Ute, born a year after Anna, did not agree (and is not the oldest anyway)
BORN = {
    "Jonas": (2011, True),
    "Anna": (1942, True),
    "Ute": (1943, False),
    "Hans-Peter": (1970, True),
}


def make_day() -> dict:
    """A season of three planned tournaments: two played, the final today with its
    entries, in the brewery of a club with a long name."""
    today = timezone.localdate()
    host = ClubFactory(name="Cegofreunde Hinterzarten-Breitnau", town="Hinterzarten")
    season = SeasonFactory(
        name="Cego-Saison Hochschwarzwald",
        starts_on=today - dt.timedelta(days=90),
        ends_on=today + dt.timedelta(days=30),
        planned_tournaments=3,
    )
    first = TournamentFactory(
        season=season, name="Herbstturnier", date=today - dt.timedelta(days=40), host_club=host
    )
    second = TournamentFactory(
        season=season, name="Winterturnier", date=today - dt.timedelta(days=20), host_club=host
    )
    final = TournamentFactory(
        season=season,
        name="Finale in der Brauerei",
        date=today,
        host_club=host,
        venue="Brauereigasthof Rothaus",
    )
    entries = []
    for last, first_name, category, one, two in NAMES:
        year, agreed = BORN.get(first_name, (None, False))
        player = PlayerFactory(
            last_name=last,
            first_name=first_name,
            category=category,
            birth_year=year,
            named_for_age=agreed,
        )
        MembershipFactory(player=player, club=host)
        EntryFactory(tournament=first, player=player, paper_total=one, category=category)
        EntryFactory(tournament=second, player=player, paper_total=two, category=category)
        entries.append(EntryFactory(tournament=final, player=player, category=category))
    organiser = get_user_model().objects.create_superuser("orga", "", "pw")
    return {
        "season": season,
        "final": final,
        "second": second,
        "entries": entries,
        "user": organiser,
    }


def signed_in(browser, live_server, user, width: int, language: str):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": width, "height": WIDTHS[width]})
    context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "url": live_server.url,
            },
            {"name": "django_language", "value": language, "url": live_server.url},
        ]
    )
    return context


def wider_than_the_screen(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def shoot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


@pytest.mark.parametrize("width", list(WIDTHS))
def test_pages_at_each_width_in_german_and_english(browser, live_server, width):
    day = make_day()
    found = {}
    for language in ("de", "en"):
        context = signed_in(browser, live_server, day["user"], width, language)
        page = context.new_page()
        addresses = {
            "season": reverse("seasons:season_standings", args=[day["season"].pk]),
            "projector": reverse("seasons:season_projector", args=[day["season"].pk]),
            "press": reverse("seasons:tournament_press", args=[day["second"].pk]),
            "season-press": reverse("seasons:season_press", args=[day["season"].pk]),
        }
        for what, address in addresses.items():
            violations = axe_violations(page, live_server.url + address)
            if violations:
                found[f"{what} {language} {width}"] = violations
            shoot(page, f"{what}-{language}-{width}")
            if what != "season":  # the season's own table scrolls in its box
                assert wider_than_the_screen(page) <= 0, (what, language, width)
        page.goto(live_server.url + addresses["season"])
        words = {
            "de": (
                "Vor dem Finale: Wer kann noch gewinnen?",
                "Spitzenreiter",
                "braucht 41 Punkte mehr als",
            ),
            "en": ("Before the final: who can still win?", "leader", "needs 41 points more than"),
        }[language]
        text = page.locator("#chances").inner_text()
        for phrase in words:
            assert phrase in text, (phrase, text)
        # the press report in the site's language, with the youngest and the oldest who agreed
        page.goto(live_server.url + addresses["press"])
        report_text = page.locator("#press-text").input_value()
        for phrase in {
            "de": (
                "Maximilian-Alexander Schwarzwälder-Kirschbaum gewinnt das Cego-Turnier",
                "Am jüngsten im Feld war Jonas Zähringer",
                "Am ältesten im Feld war Anna Blümle",
            ),
            "en": (
                "Maximilian-Alexander Schwarzwälder-Kirschbaum wins the Cego tournament",
                "The youngest player was Jonas Zähringer",
                "The oldest player was Anna Blümle",
            ),
        }[language]:
            assert phrase in report_text, (phrase, report_text)
        assert "2011" not in report_text and "1942" not in report_text
        page.goto(live_server.url + addresses["season-press"])
        season_text = page.locator("#press-text").input_value()
        assert {"de": "Saisonwertung", "en": "season standings"}[language] in season_text
        context.close()
    assert not found, "\n" + report(found)


def test_the_projector_fits_and_follows_the_final(browser, live_server):
    day = make_day()
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.clock.install()  # the page's clock, moved on by the test to the next refresh
    page.goto(live_server.url + reverse("seasons:season_projector", args=[day["season"].pk]))
    board = page.locator("#projector-board")
    assert "Maximilian-Alexander Schwarzwälder-Kirschbaum" in board.inner_text()
    # the board is the screen: nothing below it
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
    size = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.season-chances-board td')).fontSize)"
    )
    assert size >= 28  # read from the back of the hall (3.1vh of 1080)
    table = table_of(tournament=day["final"], entries=day["entries"][:4])
    enter_deal(table=table, number=1, inputs=cego(1, 45))  # Theresia +30, the others -10
    # the live part refreshes every 20 seconds (never sooner than 5)
    page.clock.run_for(20_000)
    for _ in range(80):
        if "Das Finale läuft" in board.inner_text():
            break
        page.wait_for_timeout(500)
    text = board.inner_text()  # the hall's screen speaks the site's language: German
    assert "Das Finale läuft: Wer kann noch gewinnen?" in text
    # Maximilian-Alexander 200 - 10, Theresia 160 + 30: they share the lead
    assert text.count("Spitzenreiter (geteilt)") == 2
    shoot(page, "projector-during-1920")


@pytest.mark.parametrize("width", [390, 1280])
def test_text_kopieren_copies_the_edited_text_and_the_download_is_it_plain(
    browser, live_server, width
):
    day = make_day()
    context = signed_in(browser, live_server, day["user"], width, "de")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    page.goto(live_server.url + reverse("seasons:tournament_press", args=[day["second"].pk]))
    box = page.locator("#press-text")
    assert "Maximilian-Alexander Schwarzwälder-Kirschbaum gewinnt" in box.input_value()
    box.fill("Bearbeitet für den Südkurier.")
    page.get_by_role("button", name="Text kopieren").click()
    page.locator("#press-status").filter(has_text="Kopiert.").wait_for()
    assert page.locator("#press-status").inner_text() == "Kopiert."
    assert page.evaluate("navigator.clipboard.readText()") == "Bearbeitet für den Südkurier."
    # the download: the text as edited, a plain-text file named after the day and tournament
    box.fill("Für die Vereinsseite:\nZwei Zeilen, mit Umlauten äöü.")
    with (
        page.expect_response(lambda r: r.request.method == "POST") as answered,
        page.expect_download() as downloading,
    ):
        page.get_by_role("button", name="Als Textdatei herunterladen").click()
    response = answered.value
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    download = downloading.value
    assert download.suggested_filename == (
        f"pressebericht-{day['second'].date:%Y-%m-%d}-winterturnier.txt"
    )
    with open(download.path(), encoding="utf-8") as saved:
        assert saved.read() == "Für die Vereinsseite:\nZwei Zeilen, mit Umlauten äöü."
    assert page.locator("#press-text").is_visible()  # the page stays
    context.close()
