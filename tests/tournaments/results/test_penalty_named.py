"""Issue 28: a penalty is shown as one wherever the deal is shown. A penalty is stored as the
game it interrupted (contract, declarer, card points) with ``details["penalty"]`` and scored
as the penalty: the phone, the desk's sheet, the log and the season workbook name it
("Strafe gegen …, −120 Punkte (…)"), never as the game's "Cego · Paul W. · 50 Augen"."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from exports.season import season_workbook
from tests.factories import EntryFactory, PlayerFactory, SeasonFactory, TournamentFactory
from tests.tournaments.standings.conftest import table_of
from tournaments.selectors.changelog import tournament_log
from tournaments.selectors.table_sheet import table_sheet
from tournaments.services.phone_entry import enter_deal

pytestmark = pytest.mark.django_db

PENALTY = {
    "contract": "cego",
    "declarer": 1,
    "declarer_points": 50,
    "penalty": {"seat": 3, "kind": "revoke"},
}
NAMES = [("Anna", "Amsel"), ("Paul", "Wagner"), ("Clara", "Crone"), ("Dieter", "Dorn")]


@pytest.fixture
def table():
    season = SeasonFactory(name="Saison")
    tournament = TournamentFactory(
        season=season, rules_slug="swm", deals_per_round=24, date=season.starts_on
    )
    entries = [
        EntryFactory(tournament=tournament, player=PlayerFactory(first_name=f, last_name=last))
        for f, last in NAMES
    ]
    return table_of(tournament=tournament, entries=entries)


def enter_penalty(table, **kwargs):
    deal = enter_deal(table=table, number=1, inputs=PENALTY, **kwargs)
    assert deal.scores[:4] == [40, 40, 40, -120]  # swm: the offender pays 8 × 5 to each
    return deal


def test_the_sheet_names_the_penalty_with_whom_and_the_points(table):
    enter_penalty(table)
    with translation.override("de"):
        line = table_sheet(table=table).lines[0]
        assert line.penalty
        assert line.title == (
            "Strafe gegen Dieter D., \u2212120 Punkte (Nichtbedienen oder falsch gelegt), "
            "statt Cego"
        )
    # a game without a penalty is called by its contract
    enter_deal(table=table, number=2, inputs={k: v for k, v in PENALTY.items() if k != "penalty"})
    with translation.override("de"):
        assert table_sheet(table=table).lines[1].title == "Cego"


def test_the_log_says_penalty_first(table):
    enter_penalty(table, via="table", entered_by_position=0)
    with translation.override("de"):
        line = next(iter(tournament_log(tournament=table.round.tournament)))
    after = line.words[1]
    assert after.startswith(
        "Strafe gegen Dieter Dorn, \u2212120 Punkte (Nichtbedienen oder falsch gelegt), "
        "statt Cego, Alleinspieler Paul Wagner, 50 Augen: +40 / +40 / +40 / \u2212120"
    ), after


def test_the_confirming_phone_and_the_desk_show_the_penalty(table, django_user_model):
    enter_penalty(table, via="table", entered_by_position=1)
    phone = Client()
    phone.cookies["django_language"] = "de"
    phone.post(reverse("tournaments:table_entry_seat", args=[table.token]), {"position": 0})
    html = phone.get(reverse("tournaments:table_entry", args=[table.token])).content.decode()
    head = html[html.index('class="pending-head"') :].split("</p>", 1)[0]
    assert "Strafe gegen Dieter D., \u2212120 Punkte" in head, head
    desk = Client()
    desk.force_login(django_user_model.objects.create_superuser("orga", "", "pw"))
    desk.cookies["django_language"] = "de"
    tournament = table.round.tournament
    page = desk.get(
        reverse("tournaments:desk_entry", args=[tournament.pk, 1, table.number])
    ).content.decode()
    row = page[page.index('id="deal-1"') :].split("</tr>", 1)[0]
    assert "penalty-line" in page and "Strafe gegen Dieter D." in row, row


def test_the_season_workbook_names_the_penalty(table):
    enter_penalty(table)
    with translation.override("de"):
        book = load_workbook(io.BytesIO(season_workbook(table.round.tournament.season)))
    sheet = book["Spiele"]
    header = [cell.value for cell in sheet[1]]
    row = [cell.value for cell in sheet[2]]
    contract = row[header.index("Ansage")]
    assert contract == (
        "Strafe gegen Dorn, Dieter, \u2212120 Punkte (Nichtbedienen oder falsch gelegt), statt Cego"
    ), (header, row)
