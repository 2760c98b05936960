"""The public standings on a phone (Debian's Chromium): every total in sight at 360, 390 and
414 px (and on a tablet and a laptop) with long names, clubs and five rounds; the search by name
or start number; the table page's link that marks the player's own row; both through the live
refresh."""

import datetime as dt
import os
import re

import pytest

from tests.factories import (
    ClubFactory,
    EntryFactory,
    MembershipFactory,
    PlayerFactory,
    SeasonFactory,
    TournamentFactory,
)
from tests.printing.conftest import seat_round
from tournaments.models import Deal, Entry, Table
from tournaments.services.revision import bump_revision
from tournaments.views import standings as standings_views

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONES = [360, 390, 414]
LAPTOP = 1280
ROUNDS = 5
# Long names and clubs, as the clubs type them.
NAMES = [
    ("Schwarzwälder-Kirschbaum", "Maximilian-Alexander"),
    ("Obermüller-Hinterzartener", "Hans-Jörg"),
    ("Zähringer", "Theresia Walburga"),
    ("Blümle", "Anna"),
    ("Faller", "Hans-Peter"),
    ("Gißler", "Ute"),
    ("Hättich", "Markus"),
    ("Duffner", "Franz-Xaver"),
]
CLUBS = ["Cegofreunde Titisee", "CC Hinterzarten-Br.", "Vöhrenbacher Cegoles"]


def keep(page, name: str, tmp_path) -> None:
    path = tmp_path / name
    page.screenshot(path=str(path))
    if os.environ.get("KEEP_SCREENSHOTS"):
        path.replace(os.path.join(os.environ["KEEP_SCREENSHOTS"], name))


def play_rounds(tournament, entries, rounds: int, *, first_round: int = 1) -> None:
    """``rounds`` rounds at tables of four, one deal a table: the first entry gains +266 a
    round, the second loses −224, so after five rounds they stand at +1330 and −1120."""
    for number in range(first_round, first_round + rounds):
        # a different seating each round, the first two always at table 1
        rest = entries[2:]
        shift = (number * 3) % len(rest)
        seated = entries[:2] + rest[shift:] + rest[:shift]
        _, tables = seat_round(tournament, seated, [4] * (len(entries) // 4), number=number)
        for index, table in enumerate(tables):
            deal = Deal(
                table=table,
                number=1,
                status=Deal.Status.CONFIRMED,
                dealer_position=0,
                contract="cego",
            )
            if index == 0:
                deal.set_scores([266, -224, 40, -82])
            else:
                swing = 30 + 17 * index + number
                deal.set_scores([swing, -swing, 2 * swing, -2 * swing])
            deal.save()


@pytest.fixture
def long_names():
    """A season's tournament of 24 players with long names and clubs after five rounds."""
    season = SeasonFactory(name="Schwarzwaldcup")
    tournament = TournamentFactory(
        name="Schwarzwaldmeisterschaft im Cego", season=season, date=dt.date(2026, 11, 28)
    )
    clubs = [ClubFactory(short_name=name) for name in CLUBS]
    entries = []
    for index in range(24):
        last, first = NAMES[index % len(NAMES)]
        player = PlayerFactory(last_name=f"{last}{'' if index < 8 else index}", first_name=first)
        MembershipFactory(player=player, club=clubs[index % len(clubs)])
        entries.append(EntryFactory(tournament=tournament, player=player, number=index + 1))
    play_rounds(tournament, entries, ROUNDS)
    # Three more tournaments of the season with the same players: the season table is wide.
    for month in (12, 1, 2):
        other = TournamentFactory(
            name=f"Cego-Turnier {month}",
            season=season,
            host_club=clubs[month % 3],
            date=dt.date(2026 if month == 12 else 2027, month, 5),
        )
        others = [
            EntryFactory(tournament=other, player=entry.player, number=entry.number)
            for entry in entries
        ]
        play_rounds(other, others, 2)
    return tournament


def hidden_totals(page) -> list[str]:
    """Every total cell (of the rows shown) whose text is cut off or lies outside the screen
    or its scroll box."""
    return page.evaluate(
        """() => {
          const width = document.documentElement.clientWidth;
          return [...document.querySelectorAll('.standings-table tr:not([hidden]) td.total')]
            .filter(td => {
            const box = td.closest('.table-container, .table-scroll').getBoundingClientRect();
            const cell = td.getBoundingClientRect();
            return td.scrollWidth > td.clientWidth || cell.width === 0
              || cell.right > width || cell.right > box.right + 0.5 || cell.left < 0;
          }).map(td => td.textContent);
        }"""
    )


@pytest.mark.parametrize("width", [*PHONES, 768, LAPTOP])
def test_every_total_is_in_sight_on_a_phone(browser, live_server, long_names, width, tmp_path):
    page = browser.new_page(viewport={"width": width, "height": 800}, locale="de-DE")
    page.goto(f"{live_server.url}/tournaments/{long_names.pk}/standings/")
    totals = page.locator(".standings-table td.total")
    assert totals.count() == 24
    assert totals.first.inner_text() == "+1330"
    assert totals.last.inner_text() == "\u22121120"
    keep(page, f"standings-{width}.png", tmp_path)
    assert hidden_totals(page) == []
    # nothing needs a sideways scroll: neither the page nor the table
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate(
        "(() => { const c = document.querySelector('#live-standings .table-container');"
        " return c.scrollWidth <= c.clientWidth; })()"
    )


@pytest.mark.parametrize("width", [*PHONES, 768, LAPTOP])
def test_every_season_total_is_in_sight_on_a_phone(
    browser, live_server, long_names, width, tmp_path
):
    page = browser.new_page(viewport={"width": width, "height": 800}, locale="de-DE")
    page.goto(f"{live_server.url}/seasons/{long_names.season_id}/standings/")
    assert page.locator(".season-table td.total").count() == 24
    keep(page, f"season-{width}.png", tmp_path)
    assert hidden_totals(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # the season's search: by name (a season has no start numbers)
    page.get_by_label("Name", exact=True).fill("blumle")
    shown = page.locator("#season-ranking tbody tr:not([hidden]) .player")
    assert sorted(shown.all_inner_texts()) == ["Anna Blümle", "Anna Blümle11", "Anna Blümle19"]
    assert hidden_totals(page) == []


def visible_rows(page) -> list[str]:
    """The ranking rows in sight: each as "number name"."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#live-standings .standings-table tbody tr')]
              .filter(tr => tr.getBoundingClientRect().height > 0)
              .map(tr => tr.querySelector('td.col-number').textContent + ' '
                         + tr.querySelector('.player').textContent)"""
    )


@pytest.mark.parametrize("width", PHONES)
def test_search_by_name_and_by_start_number(browser, live_server, long_names, width, tmp_path):
    page = browser.new_page(viewport={"width": width, "height": 800}, locale="de-DE")
    page.goto(f"{live_server.url}/tournaments/{long_names.pk}/standings/")
    search = page.get_by_label("Name oder Startnummer")
    assert search.is_visible()
    # umlauts spelt any way, every word must match, in any order
    search.fill("obermuller")
    assert sorted(visible_rows(page)) == [
        "10 Hans-Jörg Obermüller-Hinterzartener9",
        "18 Hans-Jörg Obermüller-Hinterzartener17",
        "2 Hans-Jörg Obermüller-Hinterzartener",
    ]
    assert page.locator("#ranking-search-status").inner_text() == "Gefunden: 3 von 24"
    search.fill("hinterzartener17 hans")
    assert visible_rows(page) == ["18 Hans-Jörg Obermüller-Hinterzartener17"]
    keep(page, f"search-{width}.png", tmp_path)
    # a start number finds that number only (its column is not even shown on a phone)
    search.fill("7")
    assert visible_rows(page) == ["7 Markus Hättich"]
    search.fill("99")
    assert visible_rows(page) == []
    assert page.locator("#ranking-search-status").inner_text() == "Niemand gefunden."
    # Escape clears the search: everyone again
    search.press("Escape")
    assert len(visible_rows(page)) == 24
    assert page.locator("#ranking-search-status").inner_text() == ""
    # Enter goes to the first row found
    search.fill("Gißler21")
    search.press("Enter")
    row = page.locator("#live-standings tr:not([hidden])").nth(1)  # the header row is first
    assert "Gißler21" in row.inner_text()
    assert row.bounding_box()["y"] < 800
    assert hidden_totals(page) == []


def in_view(page, selector: str) -> bool:
    return page.evaluate(
        """(selector) => { const box = document.querySelector(selector).getBoundingClientRect();
             return box.top >= -1 && box.bottom <= window.innerHeight + 1; }""",
        selector,
    )


@pytest.mark.parametrize("width", PHONES)
def test_the_table_page_links_to_the_standings_with_the_players_row_marked(
    browser, live_server, long_names, width, tmp_path
):
    table = Table.objects.get(round__tournament=long_names, round__number=ROUNDS, number=4)
    seat = table.seats.select_related("entry__player").get(position=2)
    phone = browser.new_page(viewport={"width": width, "height": 740}, locale="de-DE")
    phone.goto(f"{live_server.url}/t/{table.token}/")
    with phone.expect_navigation():
        phone.locator("button[name=position][value='2']").click()
    assert seat.entry.player.full_name in phone.locator(".whoami").inner_text()
    keep(phone, f"table-page-{width}.png", tmp_path)
    with phone.expect_navigation():
        phone.get_by_role("link", name="Zwischenstand").click()
    assert phone.url == (
        f"{live_server.url}/tournaments/{long_names.pk}/standings/#entry-{seat.entry_id}"
    )
    mine = phone.locator("tr.mine")
    mine.wait_for()
    assert mine.count() == 1
    assert mine.get_attribute("id") == f"entry-{seat.entry_id}"
    assert mine.get_attribute("aria-current") == "true"
    assert seat.entry.player.full_name in mine.inner_text()
    assert in_view(phone, "tr.mine")
    # in the middle of the screen, the places above it in sight too
    assert mine.bounding_box()["y"] > 740 / 4
    keep(phone, f"marked-{width}.png", tmp_path)
    # after scrolling away, "to my place" brings it back, also from a search that hides it
    phone.evaluate("window.scrollTo(0, 0)")
    phone.get_by_label("Name oder Startnummer").fill("Blümle")
    assert not mine.is_visible()
    phone.get_by_role("link", name="Zu meinem Platz").click()
    assert mine.is_visible() and in_view(phone, "tr.mine")
    assert len(visible_rows(phone)) == 24


def test_search_and_mark_survive_the_live_refresh(browser, live_server, long_names, monkeypatch):
    monkeypatch.setattr(standings_views, "STANDINGS_REFRESH_SECONDS", 5)
    second = Entry.objects.get(tournament=long_names, number=2)  # −1120, the last
    page = browser.new_page(viewport={"width": 390, "height": 800}, locale="de-DE")
    page.clock.install()  # the page's clock, moved on by the test to the next refresh
    page.goto(f"{live_server.url}/tournaments/{long_names.pk}/standings/#entry-{second.pk}")
    assert page.locator("tr.mine").get_attribute("id") == f"entry-{second.pk}"
    page.get_by_label("Name oder Startnummer").fill("Obermüller")
    assert len(visible_rows(page)) == 3
    # a sixth round: the last player wins 1000 and climbs; the page refreshes by itself
    entries = list(Entry.objects.filter(tournament=long_names).order_by("number"))
    _, tables = seat_round(long_names, entries[:4], [4], number=ROUNDS + 1)
    deal = Deal(table=tables[0], number=1, status=Deal.Status.CONFIRMED, dealer_position=0)
    deal.contract = "cego"
    deal.set_scores([-400, 1000, -300, -300])
    deal.save()
    bump_revision(tournament_id=long_names.pk)
    row = page.locator(f"#entry-{second.pk} td.total")
    page.clock.run_for(5_000)
    row.filter(has_text="\u2212120").wait_for(timeout=15000)
    assert sorted(visible_rows(page)) == [
        "10 Hans-Jörg Obermüller-Hinterzartener9",
        "18 Hans-Jörg Obermüller-Hinterzartener17",
        "2 Hans-Jörg Obermüller-Hinterzartener",
    ]
    assert page.locator("#ranking-search-status").inner_text() == "Gefunden: 3 von 24"
    assert page.locator("tr.mine").get_attribute("id") == f"entry-{second.pk}"
    assert page.get_by_label("Name oder Startnummer").input_value() == "Obermüller"


@pytest.mark.parametrize("width", [390, LAPTOP])
def test_a_cup_season_shows_place_and_cup_points_in_sight(
    browser, live_server, long_names, width, tmp_path
):
    from seasons.models import Season

    Season.objects.filter(pk=long_names.season_id).update(
        scoring="cup", cup_points=[25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    )
    page = browser.new_page(viewport={"width": width, "height": 800}, locale="de-DE")
    page.goto(f"{live_server.url}/seasons/{long_names.season_id}/standings/")
    keep(page, f"season-cup-{width}.png", tmp_path)
    first = page.locator(".season-table td.cup .cup-points").first
    assert re.fullmatch(r"\d+\.\s·\s\d+", first.inner_text())
    assert hidden_totals(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # no cup cell is cut off; the raw points are the smaller print beneath
    assert page.evaluate(
        """() => [...document.querySelectorAll('.season-table td.cup')]
             .every(td => td.scrollWidth <= td.clientWidth + 1)"""
    )
    sizes = page.evaluate(
        """() => { const td = document.querySelector('.season-table td.cup');
             const f = e => parseFloat(getComputedStyle(e).fontSize);
             return [f(td.querySelector('.cup-points')), f(td.querySelector('.raw-points'))]; }"""
    )
    assert sizes[1] < sizes[0]
