"""Reads for double entry of paper sheets: the open typings of a round (one query), a table's
open typing, and its differences as the desk's page shows them (names, not slugs)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments import sheet_compare
from tournaments.contract_names import contract_name
from tournaments.models import Round, SheetTyping, Table
from tournaments.selectors.table_sheet import TableSheet

OPEN_STATES = (SheetTyping.State.AWAITING_SECOND, SheetTyping.State.DIFFERENCES)


def open_typings(*, round: Round) -> dict[int, SheetTyping]:
    """The open typing of each table of the round, by table id (one query)."""
    typings = SheetTyping.objects.filter(table__round=round, state__in=OPEN_STATES).select_related(
        "first_by", "second_by"
    )
    return {typing.table_id: typing for typing in typings}


def open_typing(*, table: Table) -> SheetTyping | None:
    return (
        SheetTyping.objects.filter(table=table, state__in=OPEN_STATES)
        .select_related("first_by", "second_by")
        .first()
    )


@dataclass(frozen=True)
class DifferenceRow:
    key: str
    number: int
    column: str  # "contract", "declarer" or "seat<n>"
    column_label: str
    first: sheet_compare.Cell
    second: sheet_compare.Cell
    first_shown: str
    second_shown: str

    @property
    def kind(self) -> str:
        if self.column in (sheet_compare.CONTRACT, sheet_compare.DECLARER):
            return self.column
        return "amount"


def _shown(column: str, value: sheet_compare.Cell, sheet: TableSheet) -> str:
    if value is None or value == "":
        return "—"
    if column == sheet_compare.CONTRACT:
        return contract_name(sheet.rules, str(value))
    if column == sheet_compare.DECLARER:
        seat = sheet.seats[int(value)] if 0 <= int(value) < len(sheet.seats) else None
        return f"{int(value) + 1} · {seat.name}" if seat else str(value)
    return f"{int(value):+d}"


def difference_rows(*, typing: SheetTyping, sheet: TableSheet) -> list[DifferenceRow]:
    """Each differing cell: deal, column, the first and second typing's values."""
    if typing.second_rows is None:
        return []
    labels = {sheet_compare.CONTRACT: _("Contract"), sheet_compare.DECLARER: _("Declarer")}
    for seat in sheet.seats:
        labels[sheet_compare.seat_column(seat.position)] = _("Seat %(position)s · %(name)s") % {
            "position": seat.position + 1,
            "name": seat.name,
        }
    return [
        DifferenceRow(
            key=d.key,
            number=d.number,
            column=d.column,
            column_label=str(labels.get(d.column, d.column)),
            first=d.first,
            second=d.second,
            first_shown=_shown(d.column, d.first, sheet),
            second_shown=_shown(d.column, d.second, sheet),
        )
        for d in sheet_compare.differences(
            typing.first_rows, typing.second_rows, seats=len(sheet.seats)
        )
    ]
