"""Excel exports of the standings, written the pretix way: a row generator per sheet (it
yields the header row first, then one row per line) and a writer that streams the rows into a
write-only openpyxl workbook.

Numbers stay numbers: points are written as integers with a signed number format (+120 / -40),
so the organiser can add and sort them in Excel.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from clubs.models import Category
from tournaments.selectors.standings import SeasonStandings, Standings

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
SIGNED_FORMAT = "+0;-0;0"
# Characters Excel refuses in a sheet title.
_BAD_TITLE_CHARACTERS = str.maketrans({c: " " for c in "[]:*?/\\"})


class Points(int):
    """An integer the writer formats with its sign ("Gute" +, "Miese" -)."""


@dataclass(frozen=True)
class Sheet:
    title: str
    rows: Iterable[Sequence]  # header first
    widths: Sequence[float] = ()  # column widths in characters, left to right
    freeze: str = "A2"


def category_label(code: str) -> str:
    try:
        return str(Category(code).label)
    except ValueError:
        return code


def _flags(row) -> str:
    marks = []
    if row.tied:
        marks.append(_("tied"))
    if row.decided_by_lot:
        marks.append(_("decided by lot"))
    if row.withdrawn:
        marks.append(_("withdrawn"))
    return ", ".join(str(m) for m in marks)


def tournament_standings_rows(standings: Standings) -> Iterator[list]:
    """Header, then one row per player in rank order."""
    yield [
        _("Rank"),
        _("No."),
        _("First name"),
        _("Last name"),
        _("Club"),
        _("Category"),
        *[_("Round %(number)s") % {"number": n} for n in standings.round_numbers],
        _("Total"),
        _("Deals played"),
        _("Deals won as declarer"),
        _("Note"),
    ]
    for row in standings.rows:
        yield [
            row.rank,
            row.number,
            row.first_name,
            row.last_name,
            row.club,
            category_label(row.category),
            *[None if total is None else Points(total) for total in row.round_totals],
            Points(row.total),
            row.deals_played,
            row.declarer_wins,
            _flags(row),
        ]


def open_tables_rows(standings: Standings) -> Iterator[list]:
    yield [_("Round"), _("Table"), _("Confirmed deals"), _("Pending deals"), _("Expected deals")]
    for table in standings.open_tables:
        yield [
            table.round_number,
            table.table_number,
            table.deals_confirmed,
            table.deals_pending,
            table.deals_expected,
        ]


def season_standings_rows(standings: SeasonStandings) -> Iterator[list]:
    yield [
        _("Rank"),
        _("First name"),
        _("Last name"),
        _("Club"),
        _("Category"),
        *[f"{t.name} ({t.date:%d.%m.%Y})" for t in standings.tournaments],
        _("Total"),
        _("Tournaments played"),
    ]
    for row in standings.rows:
        yield [
            row.rank,
            row.first_name,
            row.last_name,
            row.club,
            category_label(row.category),
            *[None if total is None else Points(total) for total in row.tournament_totals],
            Points(row.total),
            row.tournaments_played,
        ]


def sheet_title(title: str) -> str:
    return str(title).translate(_BAD_TITLE_CHARACTERS).strip()[:31] or "Sheet"


def write_workbook(sheets: Iterable[Sheet]) -> bytes:
    """Stream every sheet's rows into one workbook: header bold, panes frozen below it."""
    workbook = Workbook(write_only=True)
    bold = Font(bold=True)
    for sheet in sheets:
        worksheet = workbook.create_sheet(sheet_title(sheet.title))
        worksheet.freeze_panes = sheet.freeze
        for index, width in enumerate(sheet.widths, start=1):
            worksheet.column_dimensions[get_column_letter(index)].width = width
        for line, values in enumerate(sheet.rows):
            cells = []
            for value in values:
                if line == 0:
                    cell = WriteOnlyCell(worksheet, value=str(value))
                    cell.font = bold
                elif isinstance(value, Points):
                    cell = WriteOnlyCell(worksheet, value=int(value))
                    cell.number_format = SIGNED_FORMAT
                else:
                    cell = WriteOnlyCell(worksheet, value=value)
                cells.append(cell)
            worksheet.append(cells)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def tournament_workbook(standings: Standings) -> bytes:
    rounds = len(standings.round_numbers)
    return write_workbook(
        [
            Sheet(
                _("Standings"),
                tournament_standings_rows(standings),
                widths=[7, 6, 16, 18, 10, 10, *[10] * rounds, 10, 8, 8, 20],
                freeze="E2",
            ),
            Sheet(_("Open tables"), open_tables_rows(standings), widths=[8, 8, 14, 14, 14]),
        ]
    )


def season_workbook(standings: SeasonStandings) -> bytes:
    return write_workbook(
        [
            Sheet(
                _("Season standings"),
                season_standings_rows(standings),
                widths=[7, 16, 18, 10, 10, *[14] * len(standings.tournaments), 10, 10],
                freeze="D2",
            )
        ]
    )
