"""Reading the lists clubs keep: CSV (comma or semicolon, UTF-8 or Windows-1252) and Excel,
with a title line or two above the header, German or English column names in any case.

tablib parses the file; around it this module only guesses the encoding, the delimiter and
the header line, and maps the column names onto our field names.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass

import tablib
from django.utils.translation import gettext as _

from clubs.search import normalise

# Column names as clubs write them, normalised (clubs.search.normalise), per field.
COLUMNS: dict[str, tuple[str, ...]] = {
    "last_name": ("nachname", "familienname", "name", "last name", "lastname", "surname"),
    "first_name": ("vorname", "first name", "firstname", "given name"),
    "club": ("verein", "club", "klub", "heimatverein", "home club"),
    "category": ("kategorie", "category", "klasse", "wertung", "gruppe"),
    "member_number": (
        "mitgliedsnummer",
        "mitglieds nr",
        "mitgliedsnr",
        "mitglied nr",
        "mitgl nr",
        "member number",
        "member no",
        "membership number",
    ),
    "birth_year": ("geburtsjahr", "jahrgang", "birth year", "year of birth", "born"),
    "email": ("e mail", "email", "mail", "e mail adresse"),
    # the consent to be named as the youngest or oldest (Player.named_for_age): the players
    # workbook's own header, the record's label, and shorter ways of saying it
    "named_for_age": (
        "als juengste r aelteste r nennen",
        "darf als juengste r oder aelteste r im feld genannt werden",
        "alter nennen",
        "nach alter nennen",
        "named as youngest oldest",
        "may be named as youngest or oldest",
        "named for age",
    ),
    "since": ("eintritt", "mitglied seit", "eintrittsdatum", "joined", "member since"),
    "status": ("status", "aktiv passiv", "mitgliedschaft"),
    "total": ("punkte", "ergebnis", "gesamt", "summe", "total", "points", "score", "result"),
    "rank": ("platz", "rang", "rank", "place", "pl"),
}
_ALIASES = {alias: field for field, aliases in COLUMNS.items() for alias in aliases}
HEADER_SEARCH_LINES = 10  # a title block longer than this is not a header problem any more


class TabularError(ValueError):
    """The file cannot be read as a list (the message says why, for the organiser)."""


@dataclass(frozen=True)
class Table:
    columns: dict[str, int]  # field name -> column index
    unknown_columns: tuple[str, ...]
    rows: tuple[tuple[int, dict[str, str]], ...]  # (line number in the file, field -> text)


def field_of(column_name: object) -> str | None:
    return _ALIASES.get(normalise(str(column_name or "")))


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Excel on Windows saves "CSV" in Windows-1252: ß, ä, ö, ü, € all exist there.
        return data.decode("cp1252", errors="replace")


def _header_index(lines: list[list[object]]) -> int:
    """The first line naming at least two known columns, a name among them."""
    for index, cells in enumerate(lines[:HEADER_SEARCH_LINES]):
        fields = {field_of(cell) for cell in cells} - {None}
        if len(fields) >= 2 and "last_name" in fields:
            return index
    raise TabularError(
        _(
            "No header line found: the list needs a column “Nachname” (or “Name”) and at "
            "least one more known column (Vorname, Verein, Mitgliedsnummer, …)."
        )
    )


def _sniff_delimiter(text: str) -> str:
    """Semicolon (German Excel) or comma: whichever splits a header line into known columns."""
    best, best_hits = ",", -1
    for delimiter in (";", ",", "\t"):
        for line in text.splitlines()[:HEADER_SEARCH_LINES]:
            hits = sum(1 for cell in line.split(delimiter) if field_of(cell.strip(' "')))
            if hits > best_hits:
                best, best_hits = delimiter, hits
    return best


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # Excel keeps 1957 as 1957.0
    if hasattr(value, "strftime"):
        return value.strftime("%Y-%m-%d")
    return str(value).strip()


def read_table(data: bytes, filename: str) -> Table:
    """The list in ``data``: its known columns and its rows, numbered as in the file."""
    name = filename.lower()
    dataset = tablib.Dataset()
    try:
        if name.endswith((".xlsx", ".xlsm")):
            dataset.load(io.BytesIO(data), format="xlsx", headers=False)
            lines = [list(row) for row in dataset]
            header = _header_index(lines)
            header_cells = lines[header]
            body: Iterator[tuple[int, list]] = (
                (number, row) for number, row in enumerate(lines[header + 1 :], start=header + 2)
            )
        elif name.endswith((".csv", ".txt")):
            text = _decode(data)
            delimiter = _sniff_delimiter(text)
            # tablib needs rows no wider than the first one it reads: start at the header.
            raw_lines = [line.split(delimiter) for line in text.splitlines()]
            header = _header_index([[c.strip(' "') for c in line] for line in raw_lines])
            dataset.load(text, format="csv", headers=True, skip_lines=header, delimiter=delimiter)
            header_cells = list(dataset.headers or [])
            body = ((number, list(row)) for number, row in enumerate(dataset, start=header + 2))
        else:
            raise TabularError(_("Upload a CSV or an Excel (.xlsx) file."))
    except TabularError:
        raise
    except Exception as error:  # tablib/openpyxl/csv: a broken or mislabelled file
        raise TabularError(
            _("The file could not be read (%(error)s).") % {"error": error}
        ) from error
    columns: dict[str, int] = {}
    unknown = []
    for index, cell in enumerate(header_cells):
        field = field_of(cell)
        if field is None or field in columns:
            if _cell(cell):
                unknown.append(_cell(cell))
            continue
        columns[field] = index
    rows = []
    for number, row in body:
        values = {f: _cell(row[i]) if i < len(row) else "" for f, i in columns.items()}
        if any(values.values()):
            rows.append((number, values))
    return Table(columns=columns, unknown_columns=tuple(unknown), rows=tuple(rows))
