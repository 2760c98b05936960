"""The season workbook: every sheet, every deal, safe text, and LibreOffice opens it."""

import csv
import io
import subprocess
import tempfile
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from clubs.models import Category, Membership
from exports.season import season_workbook
from exports.xlsx import safe_cell
from tests.conftest import require_tool
from tests.factories import ClubFactory, EntryFactory, PlayerFactory
from tests.seasons.conftest import play, tournament_in
from tests.tournaments.standings.conftest import cego
from tournaments.models import Deal, Substitution, Team
from tournaments.services.phone_entry import revise_deal

pytestmark = pytest.mark.django_db


def build(season, organiser, *, extra_tables: int = 0):
    """Two tournaments: the first with a team, a substitution, a correction and a player
    whose name would be a formula; the second with the same players."""
    club = ClubFactory(name="Cegoclub Triberg", short_name="CC Triberg")
    first = tournament_in(season, "Herbstturnier", 14, host_club=club, venue="Kurhaus")
    second = tournament_in(season, "Winterturnier", 28)
    evil = PlayerFactory(first_name="=HYPERLINK(1)", last_name="@Evil", category=Category.WOMAN)
    Membership.objects.create(player=evil, club=club)
    players = [EntryFactory(tournament=first, player=evil)]
    players += [EntryFactory(tournament=first) for _ in range(3)]
    team = Team.objects.create(tournament=first, name="-Minus-Team")
    for entry in players:
        entry.team = team
        entry.save()
    table = play(first, players, [(0, 45), (1, 34), (2, 45)])
    substitute = EntryFactory(tournament=first)
    Substitution.objects.create(seat=table.seats.get(position=3), entry=substitute, from_deal=3)
    deal = Deal.objects.get(table=table, number=2)
    revise_deal(
        deal=deal, inputs=cego(1, 45), expected_version=deal.version, user=organiser, reason="typo"
    )
    again = [EntryFactory(tournament=second, player=e.player) for e in players]
    play(second, again, [(3, 45)])
    for number in range(extra_tables):
        play(
            second,
            [EntryFactory(tournament=second) for _ in range(4)],
            [(0, 45), (1, 45)],
            table_number=number + 2,
        )
    return first, second, evil, substitute


def book_of(season):
    with translation.override("en"):
        return load_workbook(io.BytesIO(season_workbook(season)))


def test_every_sheet_of_the_workbook(season, organiser):
    first, second, evil, substitute = build(season, organiser)
    book = book_of(season)
    assert book.sheetnames == [
        "Overview",
        "Season standings",
        "14.11. Herbstturnier",
        "28.11. Winterturnier",
        "Deals",
        "Side rankings",
        "Teams",
    ]
    for sheet in book.worksheets:
        assert sheet.freeze_panes is not None and sheet.auto_filter.ref, sheet.title
        header_row = int(sheet.auto_filter.ref.split(":")[0][1:])
        assert sheet.freeze_panes.endswith(str(header_row + 1)), sheet.title
        assert sheet.column_dimensions["A"].width > 0

    overview = book["Overview"]
    assert overview["A1"].value == "Season" and overview["B1"].value == season.name
    assert overview["B4"].value == "sum of all results, negative ones included"
    table = [r for r in overview.iter_rows(min_row=7, values_only=True)]
    assert table[0][:3] == ("Date", "Tournament", "Host club")
    assert table[1][1:] == (
        "Herbstturnier",
        "Cegoclub Triberg",
        "Kurhaus",
        "Black Forest Cego Championship",  # the rule source's name, not its slug "swm"
        5,
        1,
        3,
    )
    assert overview["A8"].number_format == "DD.MM.YYYY"
    assert overview.auto_filter.ref == "A7:H9"

    sheet = book["14.11. Herbstturnier"]
    header = [c.value for c in sheet[1]]
    assert header == ["Rank", "Player", "Club", "Round 1", "Total", "Games won as declarer"]
    rows = {r[1]: r for r in sheet.iter_rows(min_row=2, values_only=True)}
    assert rows["@Evil, =HYPERLINK(1)"][2] == "CC Triberg"
    # Deal 1 +30 (won as declarer), deal 2 corrected to a win by seat 1: -10, deal 3 -10.
    assert rows["@Evil, =HYPERLINK(1)"][3:] == (10, 10, 1)

    deals = list(book["Deals"].iter_rows(values_only=True))
    assert deals[0][:10] == (
        "Date",
        "Tournament",
        "Round",
        "Table",
        "Deal",
        "Dealer",
        "Contract",
        "Declarer",
        "Card points",
        "Won",
    )
    assert deals[0][-2:] == ("Status", "Corrected")
    assert len(deals) == 1 + 4  # every deal of the season
    first_deal, second_deal, third_deal = deals[1:4]
    assert first_deal[1:9] == (
        "Herbstturnier",
        1,
        1,
        1,
        "@Evil, =HYPERLINK(1)",
        "Cego",
        "@Evil, =HYPERLINK(1)",
        45,
    )
    assert first_deal[10:12] == ("@Evil, =HYPERLINK(1)", 30)
    assert (second_deal[-1], first_deal[-1]) == ("yes", "no")
    assert second_deal[-2] == "confirmed"
    sub_name = f"{substitute.player.last_name}, {substitute.player.first_name}"
    assert third_deal[16] == sub_name  # seat 4 from deal 3 on: the substitute
    assert third_deal[18:20] == (None, None)  # no fifth seat

    sides = list(book["Side rankings"].iter_rows(values_only=True))
    assert ("Women", 1, "=HYPERLINK(1)", "@Evil", "CC Triberg", 0) in sides
    teams = list(book["Teams"].iter_rows(values_only=True))
    assert teams[1][:2] == (1, "-Minus-Team")


def test_text_that_looks_like_a_formula_stays_text(season, organiser):
    build(season, organiser)
    book = book_of(season)
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and cell.value[:1] in "=+-@":
                    assert cell.data_type == "s", (sheet.title, cell.coordinate, cell.value)
    assert safe_cell("=1+1").data_type == "s"
    assert safe_cell("ok").data_type == "s" and safe_cell(5).data_type == "n"


def test_queries_do_not_grow_with_tables_and_deals(season, organiser):
    def count():
        with CaptureQueriesContext(connection) as queries:
            season_workbook(season)
        return len(queries)

    build(season, organiser)
    count()  # the first reader stores each tournament's results at its revision
    small = count()
    second = season.tournaments.get(name="Winterturnier")
    for number in range(5, 9):
        play(
            second,
            [EntryFactory(tournament=second) for _ in range(4)],
            [(0, 45)],
            table_number=number,
        )
    count()
    assert count() == small
    print("season workbook queries:", small)


def test_the_download_is_for_organisers(client, season, organiser, visitor):
    build(season, organiser)
    url = reverse("exports:season_standings_xlsx", kwargs={"pk": season.pk})
    assert client.get(url).status_code == 302
    client.force_login(visitor)
    assert client.get(url).status_code == 403  # signed in without a role: refused
    client.force_login(organiser)
    response = client.get(url)
    assert response.status_code == 200
    book = load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    assert book["Deals"].max_row == 5


def convert(soffice: str, season, folder: str, target: str) -> None:
    """The season's workbook (in English) written to ``folder`` as season.xlsx and converted
    there by LibreOffice to ``target`` (a filter as ``--convert-to`` takes it)."""
    path = Path(folder) / "season.xlsx"
    with translation.override("en"):
        path.write_bytes(season_workbook(season))
    # A profile of its own: a user's running LibreOffice must not catch the conversion.
    profile = Path(folder) / "profile"
    result = subprocess.run(
        [
            soffice,
            f"-env:UserInstallation=file://{profile}",
            "--headless",
            "--convert-to",
            target,
            "--outdir",
            folder,
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr


def test_libreoffice_opens_the_workbook_with_every_deal(season, organiser):
    soffice = require_tool("soffice", "the workbook check converts it with libreoffice-calc")
    build(season, organiser, extra_tables=2)
    with tempfile.TemporaryDirectory() as folder:
        convert(
            soffice,
            season,
            folder,
            "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,5",
        )
        deals_csv = Path(folder) / "season-Deals.csv"
        assert deals_csv.exists(), sorted(p.name for p in Path(folder).iterdir())
        rows = list(csv.reader(deals_csv.read_text(encoding="utf-8").splitlines()))
    expected = Deal.objects.filter(table__round__tournament__season=season).count()
    assert expected == 4 + 2 * 2
    assert len(rows) == 1 + expected
    assert rows[1][5] == "@Evil, =HYPERLINK(1)"  # read as text, not run as a formula


def test_every_sheet_prints_landscape_one_page_wide_with_its_header(season, organiser):
    build(season, organiser)
    for sheet in book_of(season).worksheets:
        assert sheet.page_setup.orientation == "landscape", sheet.title
        assert sheet.sheet_properties.pageSetUpPr.fitToPage, sheet.title
        assert (sheet.page_setup.fitToWidth, sheet.page_setup.fitToHeight) in ((1, 0), (None, 0))
        header_row = int(sheet.auto_filter.ref.split(":")[0][1:])
        assert sheet.print_title_rows == f"$1:${header_row}", sheet.title


def test_german_names_and_no_sheet_for_a_tournament_not_played(season, organiser):
    build(season, organiser)
    upcoming = tournament_in(season, "Frühjahrsturnier mit einem sehr langen Namen", 30)
    for _ in range(4):
        EntryFactory(tournament=upcoming)  # registered, nothing played
    with translation.override("de"):
        book = load_workbook(io.BytesIO(season_workbook(season)))
    assert book.sheetnames[:4] == [
        "Übersicht",
        "Saisonwertung",
        "14.11. Herbstturnier",
        "28.11. Winterturnier",
    ]  # no sheet ranking the registered players of the 30th at "Rang 1"
    assert all(len(name) <= 31 for name in book.sheetnames)
    overview = [r for r in book["Übersicht"].iter_rows(values_only=True)]
    rules = {row[4] for row in overview[7:] if row and row[4]}
    assert rules == {"Cego-Schwarzwaldmeisterschaft"}
    contracts = {row[6] for row in book["Spiele"].iter_rows(min_row=2, values_only=True)}
    assert contracts == {"Cego"}
    assert not {"swm", "cego", "geiss", "halbe"} & {
        cell
        for sheet in book.worksheets
        for row in sheet.iter_rows(values_only=True)
        for cell in row
        if isinstance(cell, str)
    }


def test_a_cup_season_shows_place_and_cup_points_per_tournament(season, organiser):
    from seasons.services import set_season_rules

    build(season, organiser)
    set_season_rules(
        season=season, scoring="cup", best_of=None, cup_points=[25, 20, 16], min_tournaments=1
    )
    season.refresh_from_db()
    standings = list(book_of(season)["Season standings"].iter_rows(values_only=True))
    header = standings[0]
    # issue 28: the place and the cup points each a number column of their own (the cup
    # points were text, "3. · 16", and could not be summed)
    assert header[5:9] == (
        "14.11.2026 place",
        "14.11.2026 cup points",
        "28.11.2026 place",
        "28.11.2026 cup points",
    )
    for row in standings[1:]:
        places, points = row[5:9:2], row[6:9:2]
        assert all(p is None or isinstance(p, int) for p in (*places, *points)), row
        assert all((p is None) == (q is None) for p, q in zip(places, points, strict=True))
        assert row[9] == sum(p for p in points if p is not None)
    played = [row for row in standings[1:] if row[5] is not None]
    assert played and {row[5] for row in played} <= {1, 2, 3, 4, 5}


def test_libreoffice_prints_every_sheet_one_page_wide(season, organiser, pdftotext):
    """Printed (LibreOffice's PDF export), each sheet's last column is on the page: the
    season table is no longer cut after "Category"."""
    soffice = require_tool("soffice", "the print check converts it with libreoffice-calc")
    build(season, organiser)
    with tempfile.TemporaryDirectory() as folder:
        convert(soffice, season, folder, "pdf")
        text = subprocess.run(
            [pdftotext, "-layout", str(Path(folder) / "season.pdf"), "-"],
            capture_output=True,
            check=True,
        ).stdout.decode()
    pages = text.split("\f")
    lines = [line.split() for page in pages for line in page.splitlines()]
    # every sheet's header line ends with its last column's heading, on the same line
    assert any(
        line[-6:] == ["Total", "Tournaments", "played", "Change", "of", "place"] for line in lines
    )
    assert any(line[-4:] == ["Games", "won", "as", "declarer"] for line in lines)
    assert any(line[-2:] == ["Status", "Corrected"] for line in lines)
    assert len([p for p in pages if p.strip()]) == 7  # one page per sheet: a small season
