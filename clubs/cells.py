"""What a spreadsheet cell may hold: text a spreadsheet would run as a formula is kept as text.

The one place that decides it, for the club lists (``clubs.exports``) and for every other
workbook (``exports.xlsx``); it lives in the registry, the lowest area that writes workbooks.
So does how every sheet prints (``print_setup``).
"""

from __future__ import annotations

from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def looks_like_formula(value: object) -> bool:
    """Text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return."""
    return isinstance(value, str) and value.startswith(FORMULA_STARTS)


def print_setup(worksheet: Any, header_line: int) -> None:
    """How a sheet prints: landscape, one page wide (as many pages long as it takes), the
    lines down to the header repeated on every page."""
    worksheet.page_setup.orientation = "landscape"
    worksheet.page_setup.paperSize = "9"  # A4
    worksheet.page_setup.fitToWidth = 1
    worksheet.page_setup.fitToHeight = 0
    worksheet.sheet_properties.pageSetUpPr.fitToPage = True
    worksheet.print_options.gridLines = True
    worksheet.print_title_rows = f"1:{header_line}"
