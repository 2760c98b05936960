"""The workbook writer renders rows as XML text (tournaments/xlsx_rows.py): the workbook must
be the one openpyxl writes cell by cell, byte for byte, whatever the values."""

import datetime as dt
import io
import math
import os
import zipfile
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.utils.exceptions import IllegalCharacterError
from openpyxl.worksheet._writer import ALL_TEMP_FILES

from exports.xlsx import (
    DATE_FORMAT,
    SIGNED_FORMAT,
    Points,
    Sheet,
    _format,
    _unique_title,
    print_setup,
    safe_cell,
    sheet_title,
    write_workbook,
)
from exports.xlsx_rows import RowXmlSheet


def cell_by_cell(sheets) -> bytes:
    """The writer as it was before rows became text: openpyxl's write-only sheet, a styled
    cell per value that needs one (a formula-like text, a number format, bold)."""
    workbook = Workbook(write_only=True)
    bold = Font(bold=True)
    titles: set[str] = set()
    for sheet in sheets:
        worksheet = workbook.create_sheet(_unique_title(sheet_title(sheet.title), titles))
        header_line = len(sheet.preamble) + 1
        worksheet.freeze_panes = f"{sheet.freeze}{header_line + 1}"
        print_setup(worksheet, header_line)
        for index, width in enumerate(sheet.widths, start=1):
            worksheet.column_dimensions[get_column_letter(index)].width = width
        for values in sheet.preamble:
            cells = [safe_cell(value, worksheet) for value in values]
            if cells:
                cells[0].font = bold
            for cell in cells:
                _format(cell, cell.value)
            worksheet.append(cells)
        lines = columns = 0
        for line, values in enumerate(sheet.rows):
            if line == 0:
                cells = [safe_cell(str(value), worksheet) for value in values]
                for cell in cells:
                    cell.font = bold
            else:
                cells = []
                for column, value in enumerate(values):
                    fmt = sheet.formats[column] if column < len(sheet.formats) else None
                    cell = safe_cell(int(value) if isinstance(value, Points) else value, worksheet)
                    _format(cell, value, fmt)
                    cells.append(cell)
            worksheet.append(cells)
            lines, columns = line + 1, max(columns, len(cells))
        if lines and columns:
            worksheet.auto_filter.ref = (
                f"A{header_line}:{get_column_letter(columns)}{header_line + lines - 1}"
            )
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def parts(content: bytes) -> dict[str, bytes]:
    """Every file of the package but its creation and modification times."""
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        return {n: archive.read(n) for n in archive.namelist() if n != "docProps/core.xml"}


def same_as_cell_by_cell(make_sheets) -> bytes:
    content = write_workbook(make_sheets())
    expected = parts(cell_by_cell(make_sheets()))
    assert parts(content).keys() == expected.keys()
    for name, data in expected.items():
        assert parts(content)[name] == data, name
    return content


TEXTS = [
    "plain",
    "",
    " padded ",
    "line\nbreak\ttab",
    "carriage\rreturn",
    "a & b < c > d \"quoted\" 'single'",
    "Bräunlingen – Süß 😀 \u2028",
    "#N/A",
    "#DIV/0!",
    "x" * 40000,  # cut to 32,767 characters, as openpyxl does
    *["=HYPERLINK(1)", "+1", "-2", "@SUM(A1)", "\tTab", "\rCR", "=", "-"],
]
NUMBERS = [0, 7, -40, 12345678901234567, 2.5, 1 / 3, float("nan"), -math.inf, Decimal("1.50")]
MOMENTS = [dt.date(2026, 11, 14), dt.datetime(2026, 11, 14, 19, 30), dt.time(12, 0)]


def mixed_sheets():
    """Every kind of value in every kind of row, over three sheets sharing their styles."""
    values = [*TEXTS, *NUMBERS, *MOMENTS, None, True, False, Points(-40), Points(0)]
    return [
        Sheet(
            "Overview",
            [["Date", "=Name", None, 5], *[[v, v, v, v] for v in values]],
            widths=[12, 20, 8, 8],
            preamble=[["Season", "2026/27"], [None, dt.date(2026, 11, 1)], [], [Points(5)]],
            formats=[DATE_FORMAT, None, SIGNED_FORMAT],
        ),
        Sheet("Overview", [["only a header"]]),  # the same title: "Overview (2)"
        Sheet(
            "Deals",
            [[f"h{n}" for n in range(30)], values[:30], values[30:], []],
            freeze="C",
            formats=[None, DATE_FORMAT],
        ),
    ]


@pytest.mark.filterwarnings("ignore:Cell .* is marked as a date")  # a number in a date column
def test_every_kind_of_value_is_written_as_openpyxl_writes_it():
    content = same_as_cell_by_cell(mixed_sheets)
    book = load_workbook(io.BytesIO(content))
    assert book.sheetnames == ["Overview", "Overview (2)", "Deals"]
    overview = book["Overview"]
    assert overview["A1"].value == "Season" and overview["A1"].font.b
    assert overview["B2"].value == dt.datetime(2026, 11, 1)
    line = {text: 6 + n for n, text in enumerate(TEXTS)}  # below the preamble and header
    formula = overview[f"B{line['=HYPERLINK(1)']}"]
    assert formula.quotePrefix and formula.data_type == "s"
    for text, kept in [(TEXTS[3], TEXTS[3]), (TEXTS[9], "x" * 32767), (TEXTS[6], TEXTS[6])]:
        assert overview[f"B{line[text]}"].value == kept


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(st.characters(exclude_categories=["Cs"]), max_size=30),
            st.integers(min_value=-(10**18), max_value=10**18),
            st.floats(),
            st.booleans(),
            st.none(),
            st.dates(),
            st.builds(Points, st.integers(min_value=-(10**6), max_value=10**6)),
        ),
        max_size=8,
    )
)
def test_any_row_is_written_as_openpyxl_writes_it(row):
    def sheets():
        return [Sheet("s", [["a", "b"], row], preamble=[row], formats=[None, SIGNED_FORMAT])]

    try:
        cell_by_cell(sheets())
    except IllegalCharacterError:  # control characters: refused by both
        with pytest.raises(IllegalCharacterError):
            write_workbook(sheets())
        return
    same_as_cell_by_cell(sheets)


def test_a_datetime_with_a_time_zone_is_refused():
    moment = dt.datetime(2026, 11, 14, 19, 30, tzinfo=dt.UTC)
    with pytest.raises(TypeError):
        write_workbook([Sheet("s", [["when"], [moment]])])


def test_a_failing_row_source_leaves_no_sheet_file_behind():
    def rows():
        yield ["n"]
        yield [1]
        raise RuntimeError("the database went away")

    before = {path for path in ALL_TEMP_FILES if os.path.exists(path)}
    with pytest.raises(RuntimeError):
        write_workbook([Sheet("a", [["h"], [1]]), Sheet("b", rows())])
    assert {path for path in ALL_TEMP_FILES if os.path.exists(path)} == before


def test_the_row_sheet_takes_only_rendered_rows():
    sheet = RowXmlSheet(parent=Workbook(write_only=True), title="x")
    with pytest.raises(TypeError):
        sheet.append([1, 2])


def test_the_row_sheet_needs_openpyxl_on_lxml(monkeypatch):
    monkeypatch.setattr("exports.xlsx_rows.LXML", False)
    with pytest.raises(RuntimeError, match="lxml"):
        RowXmlSheet(parent=Workbook(write_only=True), title="x")


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.lists(
            st.sampled_from(
                [1, True, Points(1), 1.0, "1", None, dt.date(2026, 1, 1), 0, False, Points(0), "x"]
            ),
            min_size=3,
            max_size=3,
        ),
        max_size=12,
    )
)
def test_repeated_values_of_every_kind_in_one_column_keep_their_own_cells(rows):
    """A table row's cells are kept per column and value (``_RowRenderer._table_row``): 1,
    True, 1.0 and Points(1) are equal in Python but different cells."""

    def sheets():
        return [Sheet("s", [["a", "b", "c"], *rows], formats=[None, SIGNED_FORMAT, None])]

    same_as_cell_by_cell(sheets)
