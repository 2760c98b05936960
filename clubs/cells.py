"""What a spreadsheet cell may hold: text a spreadsheet would run as a formula is kept as text.

The one place that decides it, for the club lists (``clubs.exports``) and for every other
workbook (``exports.xlsx``); it lives in the registry, the lowest area that writes workbooks.
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def looks_like_formula(value: object) -> bool:
    """Text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return."""
    return isinstance(value, str) and value.startswith(FORMULA_STARTS)
