"""Excel exports of the standings, written the pretix way: a row generator per sheet (it
yields the header row first, then one row per line) and a writer that streams the rows into a
write-only openpyxl workbook.

Numbers stay numbers: points are written as integers with a signed number format (+120 / -40),
so the organiser can add and sort them in Excel.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from clubs.models import Category
from tournaments.models import MAX_SEATS, Deal
from tournaments.selectors.season_export import (
    DEALS_CHUNK,
    DealLine,
    TournamentLine,
    season_deals,
    season_tournaments,
)
from tournaments.selectors.standings import (
    SeasonSide,
    SeasonStandings,
    Standings,
    TeamRow,
    TournamentRows,
    season_sides,
    season_standings,
    season_tournament_standings,
)

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
SIGNED_FORMAT = "+0;-0;0"
DATE_FORMAT = "DD.MM.YYYY"
DATETIME_FORMAT = "DD.MM.YYYY HH:MM"
# Text starting with one of these would be run as a formula by a spreadsheet.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Characters Excel refuses in a sheet title.
_BAD_TITLE_CHARACTERS = str.maketrans({c: " " for c in "[]:*?/\\"})


class Points(int):
    """An integer the writer formats with its sign ("Gute" +, "Miese" -)."""


@dataclass(frozen=True)
class Sheet:
    title: str
    rows: Iterable[Sequence]  # the table: header first
    widths: Sequence[float] = ()  # column widths in characters, left to right
    freeze: str = "A"  # columns left of this letter stay in view; rows down to the header too
    formats: Sequence[str | None] = ()  # number format per column (else by value type)
    preamble: Sequence[Sequence] = ()  # lines above the table (key, value), e.g. the season


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


def sheet_title(title: str) -> str:
    return str(title).translate(_BAD_TITLE_CHARACTERS).strip()[:31] or "Sheet"


def safe_cell(value: Any, worksheet: Any = None) -> WriteOnlyCell:
    """A cell holding ``value``. Text that a spreadsheet would run as a formula (it starts
    with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) is stored as plain text:
    a player named "=HYPERLINK(…)" stays a name. The one place that decides this."""
    cell = WriteOnlyCell(worksheet, value=value)
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        cell.data_type = "s"
        cell.quotePrefix = True  # editing the cell in Excel keeps it text
    return cell


def write_workbook(sheets: Iterable[Sheet], target: BinaryIO | None = None) -> bytes | None:
    """Stream every sheet's rows into one workbook: header bold, panes frozen below it, an
    autofilter over the table, widths and number formats per column.

    Into ``target`` (a file) when given, which keeps memory flat for big workbooks; else the
    workbook's bytes are returned.
    """
    workbook = Workbook(write_only=True)
    bold = Font(bold=True)
    titles: set[str] = set()
    for sheet in sheets:
        title = _unique_title(sheet_title(sheet.title), titles)
        worksheet = workbook.create_sheet(title)
        header_line = len(sheet.preamble) + 1
        n_formats = len(sheet.formats)
        worksheet.freeze_panes = f"{sheet.freeze}{header_line + 1}"
        for index, width in enumerate(sheet.widths, start=1):
            worksheet.column_dimensions[get_column_letter(index)].width = width
        for values in sheet.preamble:
            cells = [safe_cell(value, worksheet) for value in values]
            if cells:
                cells[0].font = bold
            for cell in cells:
                _format(cell, cell.value)
            worksheet.append(cells)
        lines = 0
        columns = 0
        for line, values in enumerate(sheet.rows):
            if line == 0:
                cells = [safe_cell(str(value), worksheet) for value in values]
                for cell in cells:
                    cell.font = bold
            else:
                cells = [
                    _cell(worksheet, value, sheet.formats[column] if column < n_formats else None)
                    for column, value in enumerate(values)
                ]
            worksheet.append(cells)
            lines = line + 1
            columns = max(columns, len(cells))
        if lines and columns:
            worksheet.auto_filter.ref = (
                f"A{header_line}:{get_column_letter(columns)}{header_line + lines - 1}"
            )
    if target is not None:
        workbook.save(target)
        return None
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _unique_title(title: str, taken: set[str]) -> str:
    candidate, counter = title, 2
    while candidate.casefold() in taken:
        suffix = f" ({counter})"
        candidate, counter = title[: 31 - len(suffix)] + suffix, counter + 1
    taken.add(candidate.casefold())
    return candidate


_PLAIN = (int, float, type(None))


def _cell(worksheet: Any, value: Any, fmt: str | None) -> Any:
    """A value as the writer appends it: plain numbers and harmless text as they are (the
    fast path for 500,000 cells), the rest as a styled or text-forced cell."""
    if fmt is None and not isinstance(value, Points | bool | dt.date):
        if isinstance(value, _PLAIN):
            return value
        if isinstance(value, str) and not value.startswith(FORMULA_STARTS):
            return value
    cell = safe_cell(int(value) if isinstance(value, Points) else value, worksheet)
    _format(cell, value, fmt)
    return cell


def _format(cell: WriteOnlyCell, value: Any, fmt: str | None = None) -> None:
    if fmt:
        cell.number_format = fmt
    elif isinstance(value, Points):
        cell.number_format = SIGNED_FORMAT
    elif isinstance(value, dt.datetime):
        cell.number_format = DATETIME_FORMAT
    elif isinstance(value, dt.date):
        cell.number_format = DATE_FORMAT


def team_rows(teams: Sequence[TeamRow]) -> Iterator[list]:
    yield [
        _("Rank"),
        _("Team"),
        _("Club"),
        _("Members"),
        _("Total"),
        _("Complete"),
    ]
    for team in teams:
        yield [
            team.rank,
            team.name,
            team.club,
            "; ".join(f"{m.name} ({m.total:+d})" for m in team.members),
            Points(team.total),
            _("yes") if team.complete else _("no"),
        ]


def tournament_workbook(standings: Standings, teams: Sequence[TeamRow] = ()) -> bytes:
    rounds = len(standings.round_numbers)
    sheets = [
        Sheet(
            _("Standings"),
            tournament_standings_rows(standings),
            widths=[7, 6, 16, 18, 10, 10, *[10] * rounds, 10, 8, 8, 20],
            freeze="E",
        ),
        Sheet(_("Open tables"), open_tables_rows(standings), widths=[8, 8, 14, 14, 14]),
    ]
    if teams:
        sheets.append(Sheet(_("Teams"), team_rows(teams), widths=[7, 24, 12, 60, 10, 10]))
    return write_workbook(sheets)


# --- the season workbook -------------------------------------------------------------------


def season_rule_text(season) -> str:
    if season.scoring == "best_n":
        text = _("sum of the best %(count)s results") % {"count": season.best_of}
    elif season.scoring == "cup":
        text = _("cup points per place: %(table)s") % {
            "table": ", ".join(str(p) for p in season.cup_points) or "–"
        }
    else:
        text = _("sum of all results, negative ones included")
    return str(text)


def season_overview_preamble(season) -> list[list]:
    return [
        [_("Season"), season.name],
        [_("From"), season.starts_on],
        [_("To"), season.ends_on],
        [_("Season rule"), season_rule_text(season)],
        [_("Minimum tournaments to be ranked"), season.min_tournaments],
        [],
    ]


def season_overview_rows(lines: Sequence[TournamentLine]) -> Iterator[list]:
    yield [
        _("Date"),
        _("Tournament"),
        _("Host club"),
        _("Venue"),
        _("Rule source"),
        _("Players"),
        _("Teams"),
        _("Deals"),
    ]
    for line in lines:
        yield [
            line.date,
            line.name,
            line.host,
            line.venue,
            line.rules,
            line.players,
            line.teams,
            line.deals,
        ]


def season_standings_rows(standings: SeasonStandings) -> Iterator[list]:
    best_n = standings.season.scoring == "best_n"
    yield [
        _("Rank"),
        _("First name"),
        _("Last name"),
        _("Club"),
        _("Category"),
        *[f"{t.name} ({t.date:%d.%m.%Y})" for t in standings.tournaments],
        _("Total"),
        _("Tournaments played"),
        *([_("Results not counted")] if best_n else []),
    ]
    for row in standings.rows:
        dropped = [
            f"{t.date:%d.%m.}"
            for t, total, counted in zip(
                standings.tournaments, row.tournament_totals, row.counted, strict=True
            )
            if total is not None and not counted
        ]
        yield [
            row.rank,
            row.first_name,
            row.last_name,
            row.club,
            category_label(row.category),
            *[None if total is None else Points(total) for total in row.tournament_totals],
            Points(row.total),
            row.tournaments_played,
            *([", ".join(dropped)] if best_n else []),
        ]


def side_label(key: str) -> str:
    labels = {
        "woman": _("Women"),
        "youth": _("Youth"),
        "senior": _("Seniors"),
        "last": _("Last place"),
    }
    return str(labels.get(key, key))


def season_side_rows(sides: Sequence[SeasonSide]) -> Iterator[list]:
    yield [_("Ranking"), _("Rank"), _("First name"), _("Last name"), _("Club"), _("Total")]
    for side in sides:
        for item in side.rows:
            yield [
                side_label(side.key),
                item.rank,
                item.row.first_name,
                item.row.last_name,
                item.row.club,
                Points(item.row.total),
            ]


def season_team_rows(standings: SeasonStandings) -> Iterator[list]:
    yield [
        _("Rank"),
        _("Team"),
        *[f"{t.name} ({t.date:%d.%m.%Y})" for t in standings.tournaments],
        _("Total"),
        _("Complete"),
    ]
    for team in standings.teams:
        yield [
            team.rank,
            team.name,
            *[None if total is None else Points(total) for total in team.tournament_totals],
            Points(team.total),
            _("yes") if team.complete else _("no"),
        ]


def tournament_sheet_rows(standings: Standings | TournamentRows) -> Iterator[list]:
    yield [
        _("Rank"),
        _("Player"),
        _("Club"),
        *[_("Round %(number)s") % {"number": n} for n in standings.round_numbers],
        _("Total"),
        _("Games won as declarer"),
    ]
    for row in standings.rows:
        yield [
            row.rank,
            f"{row.last_name}, {row.first_name}",
            row.club,
            *[None if total is None else Points(total) for total in row.round_totals],
            Points(row.total),
            row.declarer_wins,
        ]


def season_deal_rows(lines: Iterable[DealLine]) -> Iterator[list]:
    status_labels = {value: str(label) for value, label in Deal.Status.choices}
    yield [
        _("Date"),
        _("Tournament"),
        _("Round"),
        _("Table"),
        _("Deal"),
        _("Dealer"),
        _("Contract"),
        _("Declarer"),
        _("Card points"),
        _("Won"),
        *[
            label % {"seat": seat}
            for seat in range(1, MAX_SEATS + 1)
            for label in (_("Seat %(seat)s player"), _("Seat %(seat)s score"))
        ],
        _("Status"),
        _("Corrected"),
    ]
    yes, no = str(_("yes")), str(_("no"))
    total_label = str(_("round total"))
    voided_label = str(_("table voided"))
    for line in lines:
        seats: list = []
        for name, score in line.seats:
            seats += [name, None if score is None else Points(score)]
        seats += [None] * (2 * MAX_SEATS - len(seats))
        status = status_labels.get(line.status, line.status)
        if line.table_voided:
            status = f"{status}, {voided_label}"
        yield [
            line.date,
            line.tournament,
            line.round,
            line.table,
            line.number,
            line.dealer,
            total_label if line.kind == Deal.Kind.TOTAL else line.contract,
            line.declarer,
            line.declarer_points,
            None if line.won is None else (yes if line.won else no),
            *seats,
            status,
            yes if line.corrected else no,
        ]


def season_workbook(
    season, target: BinaryIO | None = None, *, chunk_size: int = DEALS_CHUNK
) -> bytes | None:
    """The season scorer's workbook: overview, standings, one sheet per tournament, every
    deal, side rankings and teams. Rows are streamed; see ``write_workbook`` for ``target``."""
    standings = season_standings(season=season)
    lines = season_tournaments(season=season)

    def tournament_sheets() -> Iterator[Sheet]:
        for result in season_tournament_standings(season=season):
            tournament = result.tournament
            yield Sheet(
                f"{tournament.date:%d.%m.} {tournament.name}",
                tournament_sheet_rows(result),
                widths=[7, 26, 12, *[10] * len(result.round_numbers), 10, 12],
                freeze="C",
            )

    tournaments = len(standings.tournaments)
    sheets = [
        Sheet(
            _("Overview"),
            season_overview_rows(lines),
            widths=[16, 36, 28, 24, 14, 9, 9, 9],
            preamble=season_overview_preamble(season),
            formats=[DATE_FORMAT],
        ),
        Sheet(
            _("Season standings"),
            season_standings_rows(standings),
            widths=[7, 16, 18, 10, 10, *[14] * tournaments, 10, 10, 16],
            freeze="D",
        ),
        *tournament_sheets(),
        Sheet(
            _("Deals"),
            season_deal_rows(season_deals(season=season, chunk_size=chunk_size)),
            widths=[11, 28, 7, 7, 6, 22, 16, 22, 8, 7, *[22, 8] * MAX_SEATS, 18, 10],
            freeze="F",
            formats=[DATE_FORMAT],
        ),
        Sheet(
            _("Side rankings"),
            season_side_rows(season_sides(standings)),
            widths=[14, 7, 16, 18, 12, 10],
        ),
        Sheet(
            _("Teams"),
            season_team_rows(standings),
            widths=[7, 24, *[14] * tournaments, 10, 10],
            freeze="C",
        ),
    ]
    return write_workbook(sheets, target)
