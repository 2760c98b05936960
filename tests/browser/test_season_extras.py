"""The tournament calendar (with a season's planned date), the season standings with the
final's column, what it assumes and the changes of place, the season's rules form where the
scorer enters the plan, and the roll of honour, in Chromium at phone (390 px) and laptop
(1280 px) width: nothing wider than the screen but the standings' own scrolling box, every
name and date in sight, the feed's address usable."""

import datetime as dt
import os

import pytest
from django.utils import timezone

from clubs.models import Category
from seasons.services import set_season_rules
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MembershipFactory,
    PlayerFactory,
    SeasonFactory,
    TournamentFactory,
)
from tests.seasons.conftest import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = [390, 1280]
NAMES = [
    ("Schwarzwälder-Kirschbaum", "Maximilian-Alexander", Category.OPEN),
    ("Obermüller-Hinterzartener", "Theresia Walburga", Category.WOMAN),
    ("Zähringer", "Jonas", Category.YOUTH),
    ("Blümle", "Anna", Category.SENIOR),
    ("Faller", "Hans-Peter", Category.OPEN),
    ("Gißler", "Ute", Category.WOMAN),
]


def make_extras() -> dict:
    """A past season with a winner, a running one with a final rule (three tournaments
    played, one to come) and coming tournaments of two clubs with long names and halls."""
    today = timezone.localdate()
    host = ClubFactory(name="Cegofreunde Hinterzarten-Breitnau", town="Hinterzarten")
    other = ClubFactory(name="Vöhrenbacher Cegoles", town="Vöhrenbach")
    people = []
    for last, first, category in NAMES:
        player = PlayerFactory(last_name=last, first_name=first, category=category)
        MembershipFactory(player=player, club=host)
        people.append(player)
    past = SeasonFactory(
        name="Saison 2024/25", starts_on=dt.date(2024, 11, 1), ends_on=dt.date(2025, 4, 30)
    )
    running = SeasonFactory(
        name="Saison jetzt",
        starts_on=today - dt.timedelta(days=60),
        ends_on=today + dt.timedelta(days=120),
        final_min_tournaments=3,
    )

    def held(season, name, date, who, deals, **extra):
        tournament = TournamentFactory(
            season=season, name=name, date=date, host_club=host, deals_per_round=24, **extra
        )
        play(tournament, [EntryFactory(tournament=tournament, player=p) for p in who], deals)
        return tournament

    held(past, "Finale 2025", dt.date(2025, 3, 15), people[:4], [(0, 45), (1, 45)])
    held(past, "Frühjahr 2025", dt.date(2025, 4, 5), people[2:6], [(0, 45)])
    days = [today - dt.timedelta(days=d) for d in (40, 25, 10)]
    held(running, "Herbstturnier", days[0], people[:4], [(0, 45), (0, 45)])
    held(running, "Martiniturnier", days[1], people[1:5], [(1, 45)])
    held(running, "Adventsvorturnier", days[2], people[:4], [(2, 45), (3, 45)])
    coming = [
        TournamentFactory(
            season=running,
            name="Großes Dreikönigsturnier der Cegofreunde",
            date=today + dt.timedelta(days=12),
            host_club=host,
            venue="Festhalle Hinterzarten, Großer Saal im Obergeschoss",
        ),
        TournamentFactory(
            name="Fasnetsturnier", date=today + dt.timedelta(days=70), host_club=other
        ),
    ]
    # The season's calendar: the Dreikönigsturnier's date (created: counted once) and one
    # the host has not created yet.
    set_season_rules(
        season=running,
        scoring="sum",
        best_of=None,
        cup_points=[],
        min_tournaments=1,
        final_min_tournaments=3,
        planned_dates=[
            (today + dt.timedelta(days=12), "Hinterzarten"),
            (today + dt.timedelta(days=40), "Vöhrenbach, Gasthaus zum Hirschen im Bregtal"),
        ],
    )
    return {"past": past, "running": running, "coming": coming, "host": host}


def keep(page, name: str, tmp_path) -> None:
    path = tmp_path / name
    page.screenshot(path=str(path), full_page=True)
    if os.environ.get("KEEP_SCREENSHOTS"):
        path.replace(os.path.join(os.environ["KEEP_SCREENSHOTS"], name))


def page_overflow(page) -> int:
    """How far the page is wider than the screen (0: nothing to scroll sideways)."""
    return page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


def inside_screen(page, selector: str) -> bool:
    return page.evaluate(
        """sel => [...document.querySelectorAll(sel)].every(el => {
            const box = el.getBoundingClientRect();
            return box.width > 0 && box.left >= 0 && box.right <= window.innerWidth + 0.5;
        })""",
        selector,
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_calendar_page(browser, live_server, width, tmp_path):
    world = make_extras()
    page = browser.new_page(viewport={"width": width, "height": 800})
    response = page.goto(live_server.url + "/calendar/")
    assert response.status == 200
    keep(page, f"calendar-{width}.png", tmp_path)
    assert page_overflow(page) == 0
    assert inside_screen(page, ".calendar-list li, .calendar-url, h1")
    text = page.inner_text("main")
    assert "Großes Dreikönigsturnier der Cegofreunde" in text and "Fasnetsturnier" in text
    assert "Herbstturnier" not in text  # over
    assert "Festhalle Hinterzarten" in text and "Vöhrenbach" in text
    # the planned date no tournament has taken yet, marked; the taken one is the tournament
    planned = page.locator(".calendar-list li.planned")
    assert planned.count() == 1
    assert "geplant" in planned.inner_text() and "Gasthaus zum Hirschen" in planned.inner_text()
    assert inside_screen(page, ".calendar-list li.planned .badge-planned")
    # the tournament's public page from its line
    page.click("text=Großes Dreikönigsturnier der Cegofreunde")
    assert page.url.endswith(f"/tournaments/{world['coming'][0].pk}/standings/")
    # the address shown is the feed
    page.goto(live_server.url + "/calendar/")
    address = page.inner_text(".calendar-url").strip()
    feed = page.request.get(address)
    assert feed.status == 200 and feed.headers["content-type"] == "text/calendar; charset=utf-8"
    assert "Großes Dreikönigsturnier" in feed.text()
    assert "STATUS:TENTATIVE" in feed.text() and "Gasthaus zum Hirschen" in feed.text()
    page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_season_standings_with_the_final_and_the_changes(browser, live_server, width, tmp_path):
    world = make_extras()
    page = browser.new_page(viewport={"width": width, "height": 800})
    page.goto(live_server.url + f"/seasons/{world['running'].pk}/standings/")
    keep(page, f"season-final-{width}.png", tmp_path)
    assert page_overflow(page) == 0  # only the table's own box scrolls
    finals = page.locator("td.col-final").all_inner_texts()
    assert len(finals) == 5  # the sixth player played none of them
    assert finals.count("qualifiziert") == 3  # three played all three
    assert "noch 1 Turnier" in finals  # two played, one tournament to come
    assert "noch 2 Turniere" in finals  # one played; two to come as planned
    assert "nicht mehr erreichbar" not in finals
    # what the column assumes, under the table and in sight
    assumed = page.inner_text("#final-plan").strip()
    assert assumed == "Angenommen: 5 geplante Turniere, davon 3 gespielt, 2 noch offen."
    assert inside_screen(page, "#final-plan")
    # the change of place: a symbol to see, words for the screen reader, not colour alone
    moves = page.locator(".move")
    assert moves.count() > 0
    symbols = [t.strip() for t in page.locator(".move [aria-hidden=true]").all_inner_texts()]
    assert any(s.startswith(("▲", "▼")) for s in symbols)
    hidden = page.locator(".move .visually-hidden").all_text_contents()
    assert all(("gewonnen" in h or "verloren" in h or "Platz" in h or "neu" in h) for h in hidden)
    # the total in sight (sticky on a phone), the final's column reachable in the table box
    assert inside_screen(page, "#season-ranking td.total")
    cell = page.locator("td.col-final").first
    cell.scroll_into_view_if_needed()
    box = cell.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
    page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_roll_of_honour(browser, live_server, width, tmp_path):
    make_extras()
    page = browser.new_page(viewport={"width": width, "height": 800})
    page.goto(live_server.url + "/seasons/honours/")
    keep(page, f"honours-{width}.png", tmp_path)
    assert page_overflow(page) == 0
    assert inside_screen(page, ".honours-season")
    text = page.inner_text("main")
    assert "Saison 2024/25" in text and "Saison jetzt" not in text
    assert "Saisonsieg" in text and "Jugend" in text and "Damen" in text, text
    assert page.locator(".honours-season .champion").count() == 1
    page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_scorer_enters_the_plan(browser, live_server, width, tmp_path, django_user_model):
    """The rules form takes the planned number and dates; the season page says the new
    assumption at once (a date past without a tournament is no longer to come)."""
    world = make_extras()
    django_user_model.objects.create_superuser("werter", "", "geheim")
    page = browser.new_page(viewport={"width": width, "height": 800})
    page.goto(f"{live_server.url}/login/?next=/")
    page.fill("#id_username", "werter")
    page.fill("#id_password", "geheim")
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")
    season = world["running"]
    page.goto(live_server.url + f"/seasons/{season.pk}/rules/")
    keep(page, f"season-rules-{width}.png", tmp_path)
    assert page_overflow(page) == 0
    assert inside_screen(page, "#id_planned_dates, #id_planned_tournaments")
    dates = page.input_value("#id_planned_dates")
    assert "Gasthaus zum Hirschen" in dates  # the plan as stored, one date a line
    page.fill("#id_planned_tournaments", "8")
    with page.expect_navigation():
        page.click("form.stacked-form button[type=submit]")
    assert page.url.endswith(f"/seasons/{season.pk}/standings/")
    assumed = page.inner_text("#final-plan").strip()
    # three played, the Dreikönigsturnier and the planned Vöhrenbach date, three more undated
    assert assumed == "Angenommen: 8 geplante Turniere, davon 3 gespielt, 5 noch offen."
    keep(page, f"season-plan-{width}.png", tmp_path)
    assert page_overflow(page) == 0
    page.close()
