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
from decimal import Decimal
from typing import Any, BinaryIO

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ERROR_CODES, ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import to_excel
from openpyxl.utils.exceptions import IllegalCharacterError

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
from tournaments.xlsx_rows import RowXmlSheet, encode_row, xml_text

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


def looks_like_formula(value: Any) -> bool:
    """Text that a spreadsheet would run as a formula (it starts with ``=``, ``+``, ``-``,
    ``@``, a tab or a carriage return). The one place that decides this."""
    return isinstance(value, str) and value.startswith(FORMULA_STARTS)


def safe_cell(value: Any, worksheet: Any = None) -> WriteOnlyCell:
    """A cell holding ``value``; text that looks like a formula is stored as plain text: a
    player named "=HYPERLINK(…)" stays a name."""
    cell = WriteOnlyCell(worksheet, value=value)
    if looks_like_formula(value):
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
    try:
        for sheet in sheets:
            worksheet = RowXmlSheet(workbook, _unique_title(sheet_title(sheet.title), titles))
            workbook._add_sheet(worksheet)
            _write_sheet(worksheet, sheet, bold)
    except BaseException:
        for worksheet in workbook.worksheets:
            worksheet.discard()  # its half-written file, now rather than at exit
        raise
    if target is not None:
        workbook.save(target)
        return None
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _write_sheet(worksheet: RowXmlSheet, sheet: Sheet, bold: Font) -> None:
    rows = _RowRenderer(worksheet, bold, sheet.formats)
    header_line = len(sheet.preamble) + 1
    worksheet.freeze_panes = f"{sheet.freeze}{header_line + 1}"
    for index, width in enumerate(sheet.widths, start=1):
        worksheet.column_dimensions[get_column_letter(index)].width = width
    number = 0
    for number, values in enumerate(sheet.preamble, start=1):
        worksheet.append_xml(rows.render(number, values, "preamble"))
    lines = 0
    columns = 0
    for line, values in enumerate(sheet.rows):
        number += 1
        if line == 0:
            values = [str(value) for value in values]
            worksheet.append_xml(rows.render(number, values, "header"))
        else:
            worksheet.append_xml(rows.render(number, values))
        lines = line + 1
        columns = max(columns, len(values))
    if lines and columns:
        worksheet.auto_filter.ref = (
            f"A{header_line}:{get_column_letter(columns)}{header_line + lines - 1}"
        )


def _unique_title(title: str, taken: set[str]) -> str:
    candidate, counter = title, 2
    while candidate.casefold() in taken:
        suffix = f" ({counter})"
        candidate, counter = title[: 31 - len(suffix)] + suffix, counter + 1
    taken.add(candidate.casefold())
    return candidate


def _format(cell: WriteOnlyCell, value: Any, fmt: str | None = None) -> None:
    if fmt:
        cell.number_format = fmt
    elif isinstance(value, Points):
        cell.number_format = SIGNED_FORMAT
    elif isinstance(value, dt.datetime):
        cell.number_format = DATETIME_FORMAT
    elif isinstance(value, dt.date):
        cell.number_format = DATE_FORMAT


_TIME_TYPES = (dt.datetime, dt.date, dt.time, dt.timedelta)
_NUMBERS = (int, float, Decimal)
_CACHED = 5000  # distinct texts and dates kept rendered per sheet (names repeat every deal)


class _RowRenderer:
    """A sheet's rows as the XML openpyxl writes for them cell by cell (``safe_cell`` with
    the number format of ``_format``), rendered as text: the fast path for 500,000 cells.

    Styles are openpyxl's: the first cell of each kind (value type, number format, bold,
    quote prefix) is made with ``safe_cell`` and its style id reused for the others.
    """

    def __init__(self, worksheet: Any, bold: Font, formats: Sequence[str | None]) -> None:
        self.worksheet = worksheet
        self.bold = bold
        self.formats = formats  # of the table's rows, per column
        self.epoch = worksheet.parent.epoch
        self.styles: dict[tuple, str] = {}
        self.texts: dict[str, tuple[bool, str]] = {}
        self.serials: dict[Any, str] = {}
        self.columns: dict[tuple[str, int], list[tuple[str, str | None, bool]]] = {}

    def render(self, number: int, values: Sequence, line: str = "row") -> bytes:
        """Row ``number`` of the sheet; ``line`` is "row" (of the table: number formats per
        column), "header" (bold) or "preamble" (the first value bold)."""
        columns = self.columns.get((line, len(values)))
        if columns is None:
            columns = self._columns(line, len(values))
        if line == "preamble":
            # openpyxl made a preamble line's cells before formatting them, and a date cell
            # registers its default format when made: so too here, the styles stay numbered
            # as they were.
            for value in values:
                if isinstance(value, _TIME_TYPES):
                    safe_cell(value, self.worksheet)
        parts = [f'<row r="{number}">']
        for value, (letter, fmt, bold) in zip(values, columns, strict=True):
            ref = f'<c r="{letter}{number}"'
            plain = fmt is None and not bold
            if value is None:
                if not plain:  # an empty cell with a style is still written
                    parts.append(f'{ref}{self._style(None, fmt, bold)} t="n"></c>')
            elif isinstance(value, str):
                quoted, body = self._text(value)
                if plain and not quoted:
                    parts.append(ref + body)
                else:
                    parts.append(ref + self._style(value, fmt, bold, quoted) + body)
            elif value is True or value is False:
                style = "" if plain else self._style(value, fmt, bold)
                parts.append(f'{ref}{style} t="b"><v>{int(value)}</v></c>')
            elif isinstance(value, _NUMBERS):
                style = "" if plain and type(value) is int else self._style(value, fmt, bold)
                parts.append(f'{ref}{style} t="n">{_number(value)}</c>')
            elif isinstance(value, _TIME_TYPES):
                parts.append(
                    f'{ref}{self._style(value, fmt, bold)} t="n">{self._serial(value)}</c>'
                )
            else:
                raise ValueError(f"Cannot convert {value!r} to Excel")
        parts.append("</row>")
        return encode_row("".join(parts))

    def _columns(self, line: str, count: int) -> list[tuple[str, str | None, bool]]:
        """Per column: its letter, number format and whether bold."""
        columns = [
            (
                get_column_letter(column + 1),
                self.formats[column] if line == "row" and column < len(self.formats) else None,
                line == "header" or (line == "preamble" and column == 0),
            )
            for column in range(count)
        ]
        self.columns[line, count] = columns
        return columns

    def _serial(self, value: Any) -> str:
        """A date's or time's ``<v>``: Excel's serial number."""
        serial = self.serials.get(value)
        if serial is None:
            if getattr(value, "tzinfo", None) is not None:
                raise TypeError("Excel does not support timezones in datetimes.")
            serial = _number(to_excel(value, self.epoch))
            if len(self.serials) >= _CACHED:
                self.serials.clear()
            self.serials[value] = serial
        return serial

    def _text(self, value: str) -> tuple[bool, str]:
        """Whether ``value`` gets the quote prefix, and its cell from the type on."""
        cached = self.texts.get(value)
        if cached is None:
            text = value[:32767]  # as openpyxl: longer text is cut, control characters refused
            if ILLEGAL_CHARACTERS_RE.search(text):
                raise IllegalCharacterError(f"{text} cannot be used in worksheets.")
            quoted = looks_like_formula(value)
            if not quoted and text in ERROR_CODES:
                body = f' t="e"><v>{text}</v></c>'
            elif not text:
                body = ' t="inlineStr"></c>'
            else:
                space = ' xml:space="preserve"' if text != text.strip() else ""
                body = f' t="inlineStr"><is><t{space}>{xml_text(text)}</t></is></c>'
            cached = (quoted, body)
            if len(self.texts) >= _CACHED:
                self.texts.clear()
            self.texts[value] = cached
        return cached

    def _style(self, value: Any, fmt: str | None, bold: bool, quoted: bool = False) -> str:
        """The cell's style attribute: a cell of this kind made the usual way says which."""
        kind = type(value) if isinstance(value, (Points, *_TIME_TYPES)) else None
        key = (kind, fmt, bold, quoted)
        style = self.styles.get(key)
        if style is None:
            cell = safe_cell(int(value) if isinstance(value, Points) else value, self.worksheet)
            _format(cell, value, fmt)
            if bold:
                cell.font = self.bold
            style = f' s="{cell.style_id}"' if cell.has_style else ""
            self.styles[key] = style
        return style


def _number(value: Any) -> str:
    """A number's ``<v>`` as openpyxl writes it (empty for NaN and infinity)."""
    if type(value) is int and -_EXACT < value < _EXACT:
        return f"<v>{value}</v>"  # the same digits as "%.16g", sooner
    if value != value or value in (_INFINITY, -_INFINITY):
        return "<v></v>"
    return f"<v>{float(value):.16g}</v>"  # as openpyxl: "%.16g" of the float


_INFINITY = float("inf")
_EXACT = 10**15


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
