"""Rows streamed into a write-only openpyxl sheet as finished XML text.

openpyxl turns every appended value into a cell object and writes it element by element
through lxml: about 7 µs a cell, most of the season workbook's time (500,000 cells). A
``RowXmlSheet`` takes each row as the XML text openpyxl would have written for it (rendered by
``exports.xlsx``) and writes it straight into the sheet's file. Everything around the
rows is still openpyxl's: panes, column widths, autofilter, styles and the package.

This leans on openpyxl 3.1.5's write-only internals (pinned in pyproject.toml):
``WriteOnlyWorksheet._get_writer`` / ``_write_rows`` and ``WorksheetWriter.get_stream``.
``tests/exports/test_xlsx_rows.py`` compares the result with openpyxl's own cell-by-cell
output byte for byte, so an upgrade that changes them fails there first.
"""

from __future__ import annotations

import re

from openpyxl import LXML
from openpyxl.worksheet._write_only import WriteOnlyWorksheet
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.xml.constants import SHEET_MAIN_NS
from openpyxl.xml.functions import xmlfile

# What lxml escapes in element text (non-ASCII becomes &#…; when the row is encoded).
_ESCAPED = re.compile(r"[&<>\r]")
_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"}


def xml_text(text: str) -> str:
    """``text`` as element content, escaped the way lxml writes it."""
    if _ESCAPED.search(text) is None:
        return text
    return _ESCAPED.sub(lambda match: _ESCAPES[match.group()], text)


def encode_row(xml: str) -> bytes:
    """A rendered row as the sheet file's bytes: ASCII, other characters as &#…; like lxml."""
    return xml.encode("ascii", "xmlcharrefreplace")


class _SheetFileWriter(WorksheetWriter):
    """openpyxl's sheet writer, writing through a file object that the rows can share:
    unbuffered, so openpyxl's elements and the rows' text reach the file in order."""

    file = None

    def get_stream(self):
        with (
            open(self.out, "wb") as self.file,
            xmlfile(self.file, buffered=False) as xf,
            xf.element("worksheet", xmlns=SHEET_MAIN_NS),
        ):
            try:
                while True:
                    element = yield
                    if element is True:
                        yield xf
                    elif element is not None:
                        xf.write(element)
            except GeneratorExit:
                pass


class RowXmlSheet(WriteOnlyWorksheet):
    """A write-only sheet whose rows arrive as ``<row>`` XML (``append_xml``). Set panes and
    column widths before the first row, the autofilter after the last, as with openpyxl."""

    def __init__(self, parent, title: str) -> None:
        if not LXML:  # et_xmlfile buffers its writes: the rows would land out of order
            raise RuntimeError("openpyxl must write through lxml here (OPENPYXL_LXML is off)")
        super().__init__(parent, title)

    def _get_writer(self):
        if self._writer is None:
            self._writer = _SheetFileWriter(self)
            self._writer.write_top()

    def _write_rows(self):
        xf = self._writer.xf.send(True)
        with xf.element("sheetData"):
            write = self._writer.file.write
            try:
                while True:
                    write((yield))
            except GeneratorExit:
                pass
        self._writer.xf.send(None)

    def append_xml(self, row: bytes) -> None:
        self._get_writer()
        if self._rows is None:
            self._rows = self._write_rows()
            next(self._rows)
        self._rows.send(row)

    def discard(self) -> None:
        """Give up the sheet after a failure: close its file in order and remove it."""
        if self._rows is not None:
            self._rows.close()
        if self._writer is not None:
            self._writer.close()
            self._writer.cleanup()

    def append(self, row):
        raise TypeError("RowXmlSheet takes rendered rows: use append_xml")
