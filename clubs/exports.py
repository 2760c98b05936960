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

from clubs.models import Category, Player
from clubs.selectors import TreasurerView

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
FORMULA_STARTS = ("=", "+", "-", "@")
EURO_FORMAT = '#,##0.00 "€"'


class Euros(int):
    """Cents, written as euros with a currency format."""


def _cell(worksheet, value, bold: bool = False) -> WriteOnlyCell:
    if isinstance(value, Euros):
        cell = WriteOnlyCell(worksheet, value=int(value) / 100)
        cell.number_format = EURO_FORMAT
    elif isinstance(value, str):
        cell = WriteOnlyCell(worksheet, value=value)
        if value.startswith(FORMULA_STARTS):
            cell.data_type = "s"  # text, not a formula
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
    frozen, with an autofilter)."""
    workbook = Workbook(write_only=True)
    for title, rows, widths in sheets:
        worksheet = workbook.create_sheet(title[:31])
        worksheet.freeze_panes = "A2"
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


def category_label(code: str) -> str:
    try:
        return str(Category(code).label)
    except ValueError:
        return code


def player_rows(players: Iterable[Player]) -> Iterator[list]:
    yield [
        _("last name"),
        _("first name"),
        _("birth year"),
        _("category"),
        _("club"),
        _("member number"),
        _("e-mail"),
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
        ]


def players_workbook(players: Iterable[Player]) -> bytes:
    return write_sheet(_("Players"), player_rows(players), widths=[20, 16, 10, 12, 20, 14, 28])


def treasurer_rows(view: TreasurerView) -> Iterator[list]:
    yield [
        _("last name"),
        _("first name"),
        _("member number"),
        _("status"),
        _("joined"),
        _("left"),
        _("annual fee"),
        _("due on"),
        _("paid on"),
        _("paid by"),
        _("owes"),
        _("entry fees paid"),
        _("entries not paid"),
        _("note"),
    ]
    for line in view.lines:
        m, fee = line.membership, line.fee
        yield [
            m.player.last_name,
            m.player.first_name,
            m.member_number,
            (fee.get_status_display() if fee else m.get_status_display()),
            m.since,
            m.left_on,
            Euros(fee.amount_cents) if fee else None,
            fee.due_on if fee else None,
            fee.paid_on if fee else None,
            fee.get_method_display() if fee and fee.method else "",
            Euros(line.owes_cents),
            Euros(line.entry_fees_cents),
            line.entries_unpaid,
            fee.note if fee else "",
        ]


def hosted_rows(hosted) -> Iterator[list]:
    yield [
        _("date"),
        _("tournament"),
        _("entry fees taken"),
        _("not paid"),
        _("prize money"),
        _("remains"),
    ]
    for tournament, money in hosted:
        yield [
            tournament.date,
            tournament.name,
            Euros(money.fees_taken_cents),
            money.entries_unpaid,
            Euros(money.prizes_cents),
            Euros(money.remainder_cents),
        ]


def treasurer_workbook(view: TreasurerView, hosted=()) -> bytes:
    """The members' fees, and the money of the tournaments the club hosted in the season."""
    return write_sheets(
        [
            (
                _("Fees"),
                treasurer_rows(view),
                [20, 16, 12, 10, 12, 12, 12, 12, 12, 14, 12, 14, 12, 30],
            ),
            (_("Tournaments"), hosted_rows(hosted), [12, 36, 14, 10, 14, 14]),
        ]
    )
