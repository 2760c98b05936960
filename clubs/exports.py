"""Excel lists of the club area (write-only openpyxl, streamed row by row).

Text is always text: a name or note starting with ``=``, ``+``, ``-`` or ``@`` is stored as
a string cell, so Excel never runs it as a formula.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterable, Iterator, Sequence

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from clubs.cells import looks_like_formula, print_setup
from clubs.models import Player, category_label

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


EURO_FORMAT = '#,##0.00 "€"'


class Euros(int):
    """Cents, written as euros with a currency format."""


def _cell(worksheet, value, bold: bool = False) -> WriteOnlyCell:
    if isinstance(value, Euros):
        cell = WriteOnlyCell(worksheet, value=int(value) / 100)
        cell.number_format = EURO_FORMAT
    elif isinstance(value, str):
        cell = WriteOnlyCell(worksheet, value=value)
        if looks_like_formula(value):
            cell.data_type = "s"  # text, not a formula
            cell.quotePrefix = True  # and still text after the cell is edited in Excel
    elif isinstance(value, dt.date):
        cell = WriteOnlyCell(worksheet, value=value)
        cell.number_format = "DD.MM.YYYY"
    else:
        cell = WriteOnlyCell(worksheet, value=value)
    if bold:
        cell.font = Font(bold=True)
    return cell


def write_sheets(sheets: Iterable[tuple[str, Iterable[Sequence], Sequence[float]]]) -> bytes:
    """Sheets of (title, rows, column widths): the first row of each is the header (bold,
    frozen, with an autofilter, repeated on every printed page). Every sheet prints as the
    other workbooks' do: landscape, its columns fitted to the page's width."""
    workbook = Workbook(write_only=True)
    for title, rows, widths in sheets:
        worksheet = workbook.create_sheet(title[:31])
        worksheet.freeze_panes = "A2"
        print_setup(worksheet, 1)
        for index, width in enumerate(widths, start=1):
            worksheet.column_dimensions[get_column_letter(index)].width = width
        count = 0
        for line, values in enumerate(rows):
            worksheet.append([_cell(worksheet, v, bold=line == 0) for v in values])
            count = line + 1
        if widths:
            worksheet.auto_filter.ref = f"A1:{get_column_letter(len(widths))}{max(count, 1)}"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def write_sheet(title: str, rows: Iterable[Sequence], widths: Sequence[float]) -> bytes:
    return write_sheets([(title, rows, widths)])


def player_rows(players: Iterable[Player]) -> Iterator[list]:
    yield [
        _("last name"),
        _("first name"),
        _("birth year"),
        _("category"),
        _("club"),
        _("member number"),
        _("e-mail"),
        _("named as youngest/oldest"),  # read back by the member import (clubs.tabular)
    ]
    for player in players:
        memberships = list(player.memberships.all())
        yield [
            player.last_name,
            player.first_name,
            player.birth_year,
            category_label(player.category),
            ", ".join(m.club.short_name for m in memberships),
            ", ".join(m.member_number for m in memberships if m.member_number),
            player.email,
            _("yes") if player.named_for_age else _("no"),
        ]


def players_workbook(players: Iterable[Player]) -> bytes:
    return write_sheet(_("Players"), player_rows(players), widths=[20, 16, 10, 12, 20, 14, 28, 16])
