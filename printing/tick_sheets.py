"""The tick-box score sheet: the second layout of a round's score sheets, one a machine reads
from a photo (issue 42). Landscape A4, drawn with ReportLab where ``sheetreading.layout`` says.

The players read it like the usual sheet: their names by seat in the head, one line per deal
with its dealer, and a column per seat for the running totals they write themselves (their own
check; the reader ignores it). Instead of writing the contract and the points they tick boxes:
the declarer's seat, the contract, the declarer's card points as a tens and a units digit, won
or lost where the contract has no points, "special" where the desk must complete the deal (a
penalty, a Räuber's points), and a box that strikes the line out. A tick that was wrong is
cancelled by filling its box completely.

The four corner markers are ArUco markers (OpenCV's 4x4 dictionary, drawn cell by cell); the QR
code opens the table's phone page like the usual sheet's, by the table's short address (which
names tournament, round and table): a shorter text is a code of fewer, larger modules, which a
blurred 2 MP photo still resolves.
"""

from __future__ import annotations

import io
from functools import cache

from django.utils.formats import date_format
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from printing.drawing import Fonts, fonts
from printing.score_sheets import _qr_path
from scoring import RuleSource
from sheetreading import layout as L
from tournaments.selectors.sheets import RoundSheets, TableSheet

PAGE_W_PT, PAGE_H_PT = landscape(A4)
BOX_LINE = HexColor("#555555")
GROUP_FILL = HexColor("#f1f1f1")
RULE = HexColor("#999999")
MUTED = HexColor("#444444")
STRIKE_LINE = HexColor("#aa0000")

GROUP_TITLES = {
    "seat": "Declarer",
    "contract": "Contract",
    "after_solo": "",
    "tens": "Points: tens",
    "units": "units",
    "won": "",
    "special": "",
    "strike": "",
}


@cache
def marker_cells(marker_id: int) -> tuple[tuple[bool, ...], ...]:
    """The ArUco marker's 6 x 6 cells (True: black), border included."""
    import cv2  # imported on first use: the rest of the printouts need no OpenCV

    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, 6)
    return tuple(tuple(bool(v == 0) for v in row) for row in image)


class _Page:
    """Millimetres from the top left onto ReportLab's points from the bottom left."""

    def __init__(self, canvas: Canvas, f: Fonts):
        self.c = canvas
        self.f = f

    def rect(self, x, y, w, h, *, fill=None, stroke=None, width=0.5):
        c = self.c
        if fill is not None:
            c.setFillColor(fill)
        if stroke is not None:
            c.setStrokeColor(stroke)
            c.setLineWidth(width)
        c.rect(
            x * mm,
            PAGE_H_PT - (y + h) * mm,
            w * mm,
            h * mm,
            stroke=stroke is not None,
            fill=fill is not None,
        )

    def line(self, x1, y1, x2, y2, *, width=0.5, color=RULE):
        self.c.setStrokeColor(color)
        self.c.setLineWidth(width)
        self.c.line(x1 * mm, PAGE_H_PT - y1 * mm, x2 * mm, PAGE_H_PT - y2 * mm)

    def text(self, x, baseline, text, *, font=None, size=8.0, color=None, align="left", angle=0):
        c = self.c
        c.setFont(font or self.f.regular, size)
        c.setFillColor(color or HexColor("#000000"))
        if angle:
            c.saveState()
            c.translate(x * mm, PAGE_H_PT - baseline * mm)
            c.rotate(angle)
            c.drawString(0, 0, text)
            c.restoreState()
            return
        draw = {"left": c.drawString, "right": c.drawRightString, "center": c.drawCentredString}
        draw[align](x * mm, PAGE_H_PT - baseline * mm, text)

    def marker(self, marker_id: int, x: float, y: float) -> None:
        cell = L.MARKER / 6
        self.c.setFillColor(HexColor("#000000"))
        for row, cells in enumerate(marker_cells(marker_id)):
            for col, black in enumerate(cells):
                if black:
                    self.c.rect(
                        (x + col * cell) * mm,
                        PAGE_H_PT - (y + (row + 1) * cell) * mm,
                        cell * mm + 0.05,
                        cell * mm + 0.05,
                        stroke=0,
                        fill=1,
                    )

    def qr(self, url: str) -> None:
        modules, literal = _qr_path(url)
        unit = L.QR_SIZE * mm / modules
        c = self.c
        c.saveState()
        c.setFillColor(HexColor("#000000"))
        c.transform(unit, 0, 0, unit, L.QR_X * mm, PAGE_H_PT - (L.QR_Y + L.QR_SIZE) * mm)
        c._code.append(literal + " f")  # the runs as one path, as the usual sheet draws them
        c.restoreState()


def _fit(text: str, font: str, size: float, width_mm: float) -> str:
    from printing.drawing import fit

    return fit(text, font, size, width_mm * mm)


def draw_tick_sheet(
    page: _Page,
    *,
    layout: L.SheetLayout,
    table: TableSheet,
    title: str,
    meta: str,
    url: str,
) -> None:
    f = page.f
    for marker_id, (x, y) in zip(layout.marker_ids, L.MARKER_TOPLEFT, strict=True):
        page.marker(marker_id, x, y)
    page.qr(url)
    # --- head: table and round, the tournament, the players by seat
    page.text(20, 13, title, font=f.bold, size=17)
    page.text(20, 18.5, meta, size=8.5)
    seat_w = (L.QR_X - 22 - 20) / max(table.size, 1)
    for index, seat in enumerate(table.seats):
        x = 20 + index * seat_w
        label = f"{_('Seat')} {seat.seat_number} · {_('No.')} {seat.player.number}"
        page.text(x, 23.5, label, size=7.5, color=MUTED)
        name = _fit(seat.player.name, f.bold, 9, seat_w - 2)
        page.text(x, 27.5, name, font=f.bold, size=9)
        if seat.substitutes:
            sub = seat.substitutes[0]
            note = _("from deal %(deal)s") % {"deal": sub.from_deal}
            page.text(
                x, 30.5, _fit(f"{note}: {sub.player.name}", f.regular, 6.5, seat_w - 2), size=6.5
            )
    if layout.pages > 1:
        page.text(
            L.QR_X - 3, 13, f"{_('Page')} {layout.page + 1}/{layout.pages}", align="right", size=9
        )
    # --- column heads
    top, bottom = L.HEADER_BOTTOM + 2, L.ROWS_TOP
    for group in layout.groups:
        if group.name in ("seat", "tens", "units", "contract"):
            page.rect(group.x, top, group.right - group.x, bottom - top, fill=GROUP_FILL)
        title_ = _(GROUP_TITLES[group.name]) if GROUP_TITLES[group.name] else ""
        if title_:
            page.text(
                group.x + 0.5,
                top + 3,
                _fit(title_, f.bold, 7, group.right - group.x + 3),
                font=f.bold,
                size=7,
            )
    for box in layout.boxes:
        cx = box.x + L.BOX / 2
        if box.group in ("seat", "tens", "units"):
            page.text(cx, bottom - 1.5, box.label, font=f.bold, size=8.5, align="center")
        else:
            # the rule source's own (German) contract names, as players write them
            label = pgettext("tick box", box.label) if box.group != "contract" else box.label
            page.text(cx + 1.0, bottom - 1.2, _fit(label, f.regular, 6.5, 11.5), size=6.5, angle=90)
    page.text(L.DEAL_X + L.DEAL_W - 0.5, bottom - 1.5, _("Deal"), size=7, align="right")
    page.text(L.DEAL_X + L.DEAL_W + 1, bottom - 1.5, _("Dealer"), size=7)
    for index, seat in enumerate(table.seats):
        x = layout.totals_x + index * layout.totals_w
        room = layout.totals_w - 1.5
        page.text(x + 0.8, top + 3, _fit(_("Total"), f.regular, 6.5, room), size=6.5, color=MUTED)
        seat_label = f"{_('Seat')} {seat.seat_number}"
        seat_label = seat_label if layout.totals_w >= 11 else str(seat.seat_number)
        page.text(x + 0.8, bottom - 4.5, seat_label, font=f.bold, size=7)
        page.text(
            x + 0.8,
            bottom - 1.5,
            _fit(seat.player.last_name, f.regular, 6.5, layout.totals_w - 1.5),
            size=6.5,
        )
    # --- the deal rows
    rows = {row.number: row for row in table.deals}
    box_top = (layout.row_height - L.BOX) / 2
    mark_top = (layout.row_height - L.TIMING) / 2
    right = layout.totals_x + layout.totals_w * table.size
    for index, number in enumerate(layout.deals):
        y = layout.row_top(index)
        if index % 2:
            page.rect(L.DEAL_X, y, right - L.DEAL_X, layout.row_height, fill=HexColor("#f7f7f7"))
        page.rect(L.TIMING_LEFT, y + mark_top, L.TIMING, L.TIMING, fill=HexColor("#000000"))
        page.rect(L.TIMING_RIGHT, y + mark_top, L.TIMING, L.TIMING, fill=HexColor("#000000"))
        baseline = y + layout.row_height / 2 + 1.2
        page.text(
            L.DEAL_X + L.DEAL_W - 0.5, baseline, str(number), font=f.bold, size=9, align="right"
        )
        row = rows.get(number)
        if row is not None:
            dealer = f"{row.dealer_position + 1} · {Truncator(row.dealer.last_name).chars(12)}"
            page.text(
                L.DEAL_X + L.DEAL_W + 1,
                baseline,
                _fit(dealer, f.regular, 7, L.DEALER_W - 1),
                size=7,
            )
        for box in layout.boxes:
            page.rect(
                box.x,
                y + box_top,
                L.BOX,
                L.BOX,
                fill=HexColor("#ffffff"),
                stroke=BOX_LINE,
                width=0.6,
            )
        line_width = 1.1 if number % table.size == 0 else 0.4
        page.line(L.DEAL_X, y + layout.row_height, right, y + layout.row_height, width=line_width)
    first, last = layout.row_top(0), layout.row_top(len(layout.deals))
    for group in layout.groups:
        page.line(group.x - L.GROUP_GAP / 2, first, group.x - L.GROUP_GAP / 2, last, width=0.4)
    for index in range(table.size + 1):
        x = layout.totals_x + index * layout.totals_w
        page.line(x, L.HEADER_BOTTOM + 2, x, last, width=0.5)
    # --- the notes band: how to mark, and room for notes the reader does not read
    y = L.ROWS_BOTTOM + 3.5
    how = _(
        "Tick the declarer's seat, the contract and the declarer's card points (tens and units); "
        "for a game without points tick won or lost."
    )
    how2 = _(
        "A wrong tick: fill its box completely and tick the right one. Other: the desk "
        "completes the deal (penalty, Räuber's points). Strike a line out with its last box."
    )
    page.text(20, y, how, size=7)
    page.text(20, y + 3.3, how2, size=7)
    page.text(20, y + 7.6, _("Notes (not read by the machine):"), size=7, color=MUTED)
    page.text(L.PAGE_W - 20, y + 13.5, _("Signatures"), size=7, color=MUTED, align="right")


def _meta(sheets: RoundSheets, rules_name: str) -> str:
    tournament = sheets.tournament
    text = f"{tournament.name} · {date_format(tournament.date, 'SHORT_DATE_FORMAT')}"
    if tournament.venue:
        text += f" · {tournament.venue}"
    return f"{text} · {rules_name}"


def tick_sheets_pdf(*, sheets: RoundSheets, base_url: str, rules_name: str) -> bytes:
    """Every table's tick-box sheet (one landscape A4 page, more for very many deals)."""
    f = fonts("regular", "bold")
    out = io.BytesIO()
    canvas = Canvas(
        out, pagesize=landscape(A4), pageCompression=1, invariant=1, initialFontName=f.regular
    )
    canvas.setTitle(f"{_('Tick-box score sheets')} – {sheets.tournament.name}")
    canvas.setCreator("Cego Club")
    page = _Page(canvas, f)
    deals = sheets.tournament.deals_per_round
    first = True
    for table in sheets.tables:
        for layout in L.sheet_layouts(rules=sheets.rules, table_size=table.size, deals=deals):
            if not first:
                canvas.showPage()
            first = False
            draw_tick_sheet(
                page,
                layout=layout,
                table=table,
                title=f"{_('Table')} {table.number} · {_('Round')} {sheets.round.number}",
                meta=_meta(sheets, rules_name),
                # the short address (a phone opens the table's page from it as from the
                # usual sheet's): fewer modules, each larger, read from a 2 MP photo
                url=base_url + table.short_path,
            )
    canvas.save()
    return out.getvalue()


def layouts_for(rules: RuleSource, table_size: int, deals: int) -> tuple[L.SheetLayout, ...]:
    return L.sheet_layouts(rules=rules, table_size=table_size, deals=deals)
