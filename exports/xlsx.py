"""The Excel writer, the pretix way: each workbook is row generators, one per sheet (the
header row first, then one row per line; ``exports.standings``, ``exports.season``), and
``write_workbook`` streams the rows into a write-only openpyxl workbook.

Numbers stay numbers: points are written as integers with a signed number format (+120 / -40),
so the organiser can add and sort them in Excel.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, BinaryIO

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ERROR_CODES, ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import to_excel
from openpyxl.utils.exceptions import IllegalCharacterError
from openpyxl.writer.excel import ExcelWriter

from clubs.cells import looks_like_formula, print_setup
from exports.xlsx_rows import RowXmlSheet, encode_row, xml_text

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
SIGNED_FORMAT = "+0;-0;0"
DATE_FORMAT = "DD.MM.YYYY"
DATETIME_FORMAT = "DD.MM.YYYY HH:MM"
ZIP_LEVEL = 1
# Text starting with one of these would be run as a formula by a spreadsheet.
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


def sheet_title(title: str) -> str:
    """``title`` as Excel takes it: without the characters it refuses, at most 31 characters
    (a longer one cut at a word where it can, marked with "…")."""
    text = " ".join(str(title).translate(_BAD_TITLE_CHARACTERS).split())
    if len(text) > 31:
        cut = text[:30]
        if " " in cut[12:]:
            cut = cut[: cut.rindex(" ")]
        text = cut.rstrip(" .,-") + "…"
    return text or "Sheet"


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
        _save(workbook, target)
        return None
    buffer = io.BytesIO()
    _save(workbook, buffer)
    return buffer.getvalue()


def _save(workbook: Workbook, target: BinaryIO) -> None:
    """``workbook.save`` at zlib's fastest level: the default level took a seventh of a big
    season workbook's time, for files a fifth smaller."""
    archive = zipfile.ZipFile(
        target, "w", zipfile.ZIP_DEFLATED, allowZip64=True, compresslevel=ZIP_LEVEL
    )
    ExcelWriter(workbook, archive).save()


def _write_sheet(worksheet: RowXmlSheet, sheet: Sheet, bold: Font) -> None:
    rows = _RowRenderer(worksheet, bold, sheet.formats)
    header_line = len(sheet.preamble) + 1
    worksheet.freeze_panes = f"{sheet.freeze}{header_line + 1}"
    print_setup(worksheet, header_line)
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
        # per row length, per column: a value's cell markup after its reference
        self.cells: dict[int, list[dict[Any, str]]] = {}

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
        if line == "row":
            return self._table_row(number, values, columns)
        parts = [f'<row r="{number}">']
        for value, (letter, fmt, bold) in zip(values, columns, strict=True):
            body = self._cell(value, fmt, bold)
            if body:
                parts.append(f'<c r="{letter}{number}"{body}')
        parts.append("</row>")
        return encode_row("".join(parts))

    def _table_row(
        self, number: int, values: Sequence, columns: list[tuple[str, str | None, bool]]
    ) -> bytes:
        """A table row: each cell's markup after its reference depends only on its column and
        value, and a season's deals repeat their values (names, contracts, scores, dates), so
        it is kept per column: most cells cost one lookup (a third of the season workbook's
        time went to working the same cells out again)."""
        caches = self.cells.get(len(values))
        if caches is None:
            caches = self.cells[len(values)] = [{} for _ in values]
        row = str(number)
        parts = ['<row r="', row, '">']
        for value, (letter, fmt, bold), cache in zip(values, columns, caches, strict=True):
            # 1, True and Points(1) are equal keys but different cells: the type goes in
            key = value if type(value) is str else (type(value), value)
            body = cache.get(key)
            if body is None:
                body = self._cell(value, fmt, bold)
                if len(cache) >= _CACHED:
                    cache.clear()
                cache[key] = body
            if body:
                parts += ('<c r="', letter, row, '"', body)
        parts.append("</row>")
        return encode_row("".join(parts))

    def _cell(self, value: Any, fmt: str | None, bold: bool) -> str:
        """A cell's markup after ``<c r="A1"`` ("" for an empty cell without a style: not
        written at all)."""
        plain = fmt is None and not bold
        if value is None:
            if not plain:  # an empty cell with a style is still written
                return f'{self._style(None, fmt, bold)} t="n"></c>'
            return ""
        if isinstance(value, str):
            quoted, body = self._text(value)
            if plain and not quoted:
                return body
            return self._style(value, fmt, bold, quoted) + body
        if value is True or value is False:
            style = "" if plain else self._style(value, fmt, bold)
            return f'{style} t="b"><v>{int(value)}</v></c>'
        if isinstance(value, _NUMBERS):
            style = "" if plain and type(value) is int else self._style(value, fmt, bold)
            return f'{style} t="n">{_number(value)}</c>'
        if isinstance(value, _TIME_TYPES):
            return f'{self._style(value, fmt, bold)} t="n">{self._serial(value)}</c>'
        raise ValueError(f"Cannot convert {value!r} to Excel")

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


# --- the season workbook -------------------------------------------------------------------
