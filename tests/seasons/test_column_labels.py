"""Issue 28: two season columns were both headed "28.11." (two tournaments on one day, at two
clubs). A column is headed by its date, never two alike: the host club's short name is added
on a shared date, the year where another year's tournament has the same day and month."""

import datetime as dt
import io
from types import SimpleNamespace

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from exports.season import season_workbook
from tests.factories import ClubFactory, EntryFactory
from tests.seasons.conftest import play, tournament_in
from tournaments.tables_standings import tournament_column_labels

pytestmark = pytest.mark.django_db


def t(day, club="", name="Turnier"):
    return SimpleNamespace(
        date=day,
        name=name,
        host_club_id=1 if club else None,
        host_club=SimpleNamespace(short_name=club),
    )


def test_labels_are_dates_never_two_alike():
    nov = dt.date(2026, 11, 28)
    assert tournament_column_labels([t(dt.date(2026, 11, 14)), t(nov)]) == ["14.11.", "28.11."]
    assert tournament_column_labels([t(nov, "CC Triberg"), t(nov, "CF Bräunlingen")]) == [
        "28.11. CC Triberg",
        "28.11. CF Bräunlingen",
    ]
    # the same club twice on one day: the tournaments' names tell them apart
    assert tournament_column_labels(
        [t(nov, "CC Triberg", "Vormittag"), t(nov, "CC Triberg", "Abend")]
    ) == ["28.11. Vormittag", "28.11. Abend"]
    # a season over a year's turn: the same day and month, other years
    assert tournament_column_labels([t(nov), t(dt.date(2027, 11, 28))]) == [
        "28.11.2026",
        "28.11.2027",
    ]
    assert tournament_column_labels([t(nov, "A"), t(nov, "B")], year=True) == [
        "28.11.2026 A",
        "28.11.2026 B",
    ]


def test_two_tournaments_on_one_day_get_two_headings(client, season):
    first = tournament_in(season, "Triberger Turnier", 28, host_club=ClubFactory(short_name="CC T"))
    second = tournament_in(
        season, "Furtwanger Turnier", 28, host_club=ClubFactory(short_name="CF F")
    )
    for tournament in (first, second):
        play(tournament, [EntryFactory(tournament=tournament) for _ in range(4)], [(0, 45)])
    html = client.get(reverse("seasons:season_standings", args=[season.pk])).content.decode()
    assert ">28.11. CC T<" in html and ">28.11. CF F<" in html
    with translation.override("en"):
        book = load_workbook(io.BytesIO(season_workbook(season)))
    header = [cell.value for cell in book["Season standings"][1]]
    assert "28.11.2026 CC T" in header and "28.11.2026 CF F" in header
