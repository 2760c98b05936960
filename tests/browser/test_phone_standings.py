"""The public standings on a phone (Debian's Chromium): every total in sight at 360, 390 and
414 px with long names, clubs and five rounds."""

import datetime as dt
import os

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
from tournaments.models import Deal

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
    """Every total cell whose text is cut off or lies outside the screen or its scroll box."""
    return page.evaluate(
        """() => {
          const width = document.documentElement.clientWidth;
          return [...document.querySelectorAll('.standings-table td.total')].filter(td => {
            const box = td.closest('.table-container').getBoundingClientRect();
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
