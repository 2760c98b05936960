"""The score sheets of a round, drawn straight onto A4 pages with ReportLab.

Why not WeasyPrint (as before): a score sheet is a grid of some 200 cells, and WeasyPrint
cascades styles, lays out and draws every one of them: 37 sheets took 3.3 s of CPU
even after the stylesheet was trimmed, most of it for empty boxes. Here the sheet is measured
once in Python (the column widths, the header's height, the rows' height that fills the page)
and drawn as lines, rectangles and strings: a 37-table round is about 0.1 s. The same approach
serves pretix's tickets and badges.

The layout follows the paper sheet the clubs used: title block with the table's QR code, one
column per seat (with substitutes), one line per deal with its dealer, the sum, a legend and
a line per player to sign. Deal lines are as tall as the page allows (5-9 mm); a round with
more deals than fit continues on a second page with the head repeated.

Text is set in DejaVu Sans (the font of the other printouts) when the system has it, else in
Bitstream Vera, which ReportLab ships (DejaVu's ancestor; characters it lacks are replaced):
the fonts, the measured text and the canvas are the printouts' toolkit, ``printing.drawing``.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from django.utils.formats import date_format
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm

from printing.drawing import (
    BLACK,
    GREY_TEXT,
    LINE_HEIGHT,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    RED,
    Fonts,
    PageCanvas,
    Span,
    fonts,
    new_canvas,
    wrap,
)
from printing.drawing import centred as _centred
from printing.drawing import fit as _fit
from printing.drawing import line_height as _line_height
from printing.drawing import shrink as _shrink
from printing.qr_codes import qr_matrix
from tournaments.agreements import five_table_line
from tournaments.selectors.sheets import RoundSheets, SeatColumn, TableSheet
from venue.environment import command_line

MARGIN_TOP, MARGIN_RIGHT, MARGIN_BOTTOM, MARGIN_LEFT = 9 * mm, 11 * mm, 12 * mm, 11 * mm
CONTENT_WIDTH = PAGE_WIDTH - MARGIN_LEFT - MARGIN_RIGHT
CONTENT_BOTTOM = PAGE_HEIGHT - MARGIN_BOTTOM  # distances are measured from the top

ROW_MAX = 9 * mm
ROW_MIN = 5 * mm
COMPACT_BELOW = 7 * mm  # smaller type in deal lines lower than this
SUM_ROW = 9 * mm
TOTAL_ROW = 16 * mm
QR_SIZE = 24 * mm
QR_BLOCK = 30 * mm
CELL_PAD = 1 * mm
GRID = 0.6  # pt: the grid's lines
TURN_LINE = 1.3  # pt: under the last deal of a turn round the table
CHANGE_LINE = 2.6  # pt: above the deal a substitute takes the seat over
SUM_LINE = 2.4  # pt: above the sum

LEGEND_TEXT = HexColor("#222222")
OUT_TEXT = HexColor("#333333")
HEAD_FILL = HexColor("#e6e6e6")
OUT_FILL = HexColor("#d9d9d9")
HATCH = HexColor("#bbbbbb")
SUB_RULE = HexColor("#777777")
SHEET_FONTS = ("regular", "bold", "italic", "mono-bold")  # the files a first click reads
# ... italic only where a seat sits a deal out ("sits out"): one font file fewer to read
# on a first click for the usual tables of four


class SheetCanvas(PageCanvas):
    """The score sheets' canvas, measured in points from the page's top left corner."""

    def __init__(self, out: io.BytesIO, *, title: str, fonts: Fonts):
        super().__init__(new_canvas(out, title=title, fonts=fonts), fonts=fonts, batch=True)

    def hatch(self, x: float, top: float, width: float, height: float) -> None:
        """Diagonal stripes: a seat that scores nothing while its player sits out."""
        c = self.canvas
        c.saveState()
        path = c.beginPath()
        path.rect(x, PAGE_HEIGHT - top - height, width, height)
        c.clipPath(path, stroke=0, fill=0)
        c.setLineWidth(0.8)
        c.setStrokeColor(HATCH)
        bottom = PAGE_HEIGHT - top - height
        step = 3.0
        offset = -height
        while offset < width:
            c.line(x + offset, bottom, x + offset + height, bottom + height)
            offset += step
        c.restoreState()

    def qr(self, x: float, top: float, size: float, url: str) -> None:
        """The QR code of ``url`` (with a quiet zone of two modules), dark runs as rectangles
        in units of a module (written once per address)."""
        modules, literal = _qr_path(url)
        unit = size / modules
        self.paths(literal, BLACK, transform=(unit, 0, 0, unit, x, PAGE_HEIGHT - top - size))

    def next_page(self) -> None:
        self.canvas.showPage()

    def save(self) -> None:
        self.canvas.save()


@lru_cache(maxsize=1024)
def _qr_path(url: str) -> tuple[int, str]:
    """The code's width in modules (with the quiet zone) and its dark runs as rectangles
    ("x y w h re", one module a unit, from the bottom left)."""
    # a table's address keeps its token until re-issued: sheets drawn again after a swap
    # reuse the codes. Mask 0 (of the eight a QR code may use), not the one segno would score
    # as best: scoring all eight was four fifths of the code's time (3 ms a table). Any mask
    # is valid and readable; the scoring only avoids the rare large patches of one colour.
    matrix = qr_matrix(url)
    modules = len(matrix) + 4
    rects = [
        f"{run.start() + 2} {modules - row_index - 3} {run.end() - run.start()} 1 re"
        for row_index, row in enumerate(matrix)
        for run in _DARK_RUN.finditer(bytes(row))  # a row's runs of dark modules
    ]
    return modules, " ".join(rects)


_DARK_RUN = re.compile(rb"\x01+")


# --- one table's sheet ------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetSetting:
    """What every sheet of the round shares: the tournament, the labels, the fonts."""

    sheets: RoundSheets
    base_url: str
    rules_name: str
    contract_names: tuple[str, ...]
    loopback: bool
    fonts: Fonts


def _seat_header(seat: SeatColumn, width: float, f: Fonts) -> list[tuple[str, list]]:
    """A seat column's header as blocks: ("lines", lines) and ("sub", lines) for each
    substitute (ruled off above)."""
    blocks = [
        (
            "lines",
            wrap(
                [
                    Span(_("Seat") + f" {seat.seat_number}", f.bold, 8),
                    Span(f" · {_('No.')} {seat.player.number}", f.regular, 8),
                ],
                width,
            )
            + wrap([Span(seat.player.last_name, f.bold, 9.5)], width)
            + wrap([Span(seat.player.first_name, f.regular, 8)], width),
        )
    ]
    for sub in seat.substitutes:
        label = _("from deal %(deal)s") % {"deal": sub.from_deal}
        blocks.append(
            (
                "sub",
                wrap([Span(f"{label}: {_('No.')} {sub.player.number}", f.regular, 8)], width)
                + wrap([Span(sub.player.last_name, f.bold, 8.5)], width)
                + wrap([Span(sub.player.first_name, f.regular, 8)], width),
            )
        )
    return blocks


SUB_GAP = 0.8 * mm + 0.5 * mm  # the space above a substitute's rule and below it


def _blocks_height(blocks) -> float:
    height = 0.0
    for kind, lines in blocks:
        if kind == "sub":
            height += SUB_GAP
        height += sum(_line_height(line) for line in lines)
    return height


class TableSheetDrawing:
    """Measures and draws one table's sheet (one page, or more for very many deals)."""

    def __init__(self, setting: SheetSetting, table: TableSheet):
        self.setting = setting
        self.table = table
        f = setting.fonts
        self.f = f
        sheets = setting.sheets
        totals = sheets.totals_only
        fixed = [45 * mm] if totals else [8 * mm, 29 * mm, 27 * mm]
        seat_width = (CONTENT_WIDTH - sum(fixed)) / max(table.size, 1)
        self.columns = fixed + [seat_width] * table.size
        self.first_seat_column = len(fixed)
        inner = seat_width - 2 * CELL_PAD
        self.seat_headers = [_seat_header(seat, inner, f) for seat in table.seats]
        label_width = (8 * mm if not totals else 45 * mm) - 2 * CELL_PAD
        deal_label = _("Deal")
        self.fixed_headers = (
            [[Span("", f.regular, 8)]]
            if totals
            else [
                [Span(deal_label, f.regular, _shrink(deal_label, f.regular, 8, label_width))],
                [Span(_("Dealer"), f.regular, 8)],
                [Span(_("Contract"), f.regular, 8)],
            ]
        )
        tallest = max((_blocks_height(b) for b in self.seat_headers), default=0.0)
        self.header_row = max(tallest, 8 * LINE_HEIGHT) + 2 * CELL_PAD
        self.legend = self._legend_lines()
        self.names = [occ.player for seat in table.seats for occ in seat.occupants]

    # --- measuring

    def _legend_lines(self) -> list[list[Span]]:
        f, table, setting = self.f, self.table, self.setting
        size = 7.5
        if setting.sheets.totals_only:
            text = _(
                "Enter each player's total for the round as plus or minus; the totals add up to 0."
            )
            return wrap([Span(text, f.regular, size, LEGEND_TEXT)], CONTENT_WIDTH)
        first = _(
            "Write the contract and each player's plus (+) or minus (−); every line adds up to 0."
        )
        if table.dealer_sits_out:
            if table.sitting_out_scores == "nothing":
                first += " " + _("The dealer sits the deal out and scores nothing.")
            else:
                first += " " + _("The dealer sits the deal out and scores as a defender.")
        contracts = _("Contracts") + ": " + ", ".join(setting.contract_names)
        return wrap([Span(first, f.regular, size, LEGEND_TEXT)], CONTENT_WIDTH) + wrap(
            [Span(contracts, f.regular, size, LEGEND_TEXT)], CONTENT_WIDTH
        )

    def _tail_height(self) -> float:
        """Below the table: legend, the signing line's label, the signatures."""
        legend = 1.2 * mm + sum(_line_height(line) for line in self.legend)
        label = 2 * mm + 8 * LINE_HEIGHT
        signatures = 12 * mm + 0.8 * mm + 7.5 * LINE_HEIGHT
        return legend + label + signatures

    # --- drawing

    def draw(self, page: SheetCanvas) -> None:
        table, sheets = self.table, self.setting.sheets
        if sheets.totals_only:
            top = self._head(page)
            top = self._column_header(page, top)
            top = self._total_row(page, top)
            self._tail(page, top)
            self._footer(page)
            return
        rows = table.deals
        # the room for deal lines on a page with the sum and the tail, and on one without
        top_of_rows = self._head(page, measure_only=True) + self.header_row
        room_last = CONTENT_BOTTOM - top_of_rows - SUM_ROW - self._tail_height()
        room_full = CONTENT_BOTTOM - top_of_rows
        pages = _split_rows(len(rows), room_last=room_last, room_full=room_full)
        for index, (start, end, row_height) in enumerate(pages):
            if index:
                page.next_page()
            top = self._head(page)
            top = self._column_header(page, top)
            top = self._deal_rows(page, top, rows[start:end], row_height)
            if index == len(pages) - 1:
                top = self._sum_row(page, top)
                self._tail(page, top)
            self._footer(page)

    def _head(self, page: SheetCanvas, *, measure_only: bool = False) -> float:
        """The title block; returns where the table starts."""
        f, table, setting = self.f, self.table, self.setting
        sheets = setting.sheets
        tournament = sheets.tournament
        top = MARGIN_TOP
        if setting.loopback:
            warning = _(
                "The QR codes on these sheets point at this computer itself (localhost): "
                "phones cannot open them. Start the app with “%(command)s” and print again."
            ) % {"command": command_line("venue")}
            lines = wrap([Span(warning, f.bold, 8, RED)], CONTENT_WIDTH - 2 * mm - 1.6)
            height = sum(_line_height(line) for line in lines) + 2 * mm + 1.6
            if not measure_only:
                page.frame(
                    MARGIN_LEFT + 0.4, top + 0.4, CONTENT_WIDTH - 0.8, height - 0.8, 0.8, RED
                )
                page.lines(MARGIN_LEFT + 1 * mm + 0.8, top + 1 * mm + 0.8, lines)
            top += height + 1 * mm
        text_width = CONTENT_WIDTH - QR_BLOCK - 3 * mm
        what = wrap([Span(_("Score sheet") + " · " + tournament.name, f.regular, 10)], text_width)
        title = [
            Span(_("Table") + f" {table.number}", f.bold, 22),
            Span("   " + _("Round") + f" {sheets.round.number}", f.regular, 14),
        ]
        meta_text = date_format(tournament.date, "SHORT_DATE_FORMAT")
        if tournament.venue:
            meta_text += f" · {tournament.venue}"
        meta_text += f" · {setting.rules_name}"
        if not sheets.totals_only:
            deals = tournament.deals_per_round
            meta_text += " · " + ngettext("%(counter)s deal", "%(counter)s deals", deals) % {
                "counter": deals
            }
        meta = wrap([Span(meta_text, f.regular, 9)], text_width)
        if tournament.five_table_agreement:  # the table must know before the first deal
            meta += wrap([Span(five_table_line(), f.bold, 9)], text_width)
        short_url = setting.base_url + table.short_path
        typed = wrap(
            [
                Span(_("Phone without a QR scanner: type") + " ", f.regular, 8),
                Span(short_url, f.mono_bold, 9),
            ],
            text_width,
        )
        voided = (
            wrap([Span(_("This table's round was voided."), f.bold, 10, RED)], text_width)
            if table.voided
            else []
        )
        caption = wrap([Span(_("Enter results by phone"), f.regular, 7)], QR_BLOCK)
        text_height = (
            sum(_line_height(line) for line in what)
            + 1 * mm
            + 22 * LINE_HEIGHT
            + 1 * mm
            + sum(_line_height(line) for line in meta)
            + 1 * mm
            + sum(_line_height(line) for line in typed)
            + sum(_line_height(line) for line in voided)
        )
        qr_height = QR_SIZE + sum(_line_height(line) for line in caption)
        bottom = top + max(text_height, qr_height) + 1.5 * mm
        if measure_only:
            return bottom + 1.5 / 2 + 2 * mm
        x = MARGIN_LEFT
        y = page.lines(x, top, what)
        y += 1 * mm
        page.spans(x, y, title)
        y += 22 * LINE_HEIGHT + 1 * mm
        y = page.lines(x, y, meta) + 1 * mm
        y = page.lines(x, y, typed)
        page.lines(x, y, voided)
        qr_x = PAGE_WIDTH - MARGIN_RIGHT - QR_BLOCK
        page.qr(qr_x + (QR_BLOCK - QR_SIZE) / 2, top, QR_SIZE, self._entry_url())
        page.lines(qr_x, top + QR_SIZE, caption, align="center", width=QR_BLOCK)
        page.rule(MARGIN_LEFT, bottom, PAGE_WIDTH - MARGIN_RIGHT, bottom, 1.5)
        return bottom + 1.5 / 2 + 2 * mm

    def _entry_url(self) -> str:
        return self.setting.base_url + self.table.entry_path

    def _column_x(self) -> list[float]:
        xs = [MARGIN_LEFT]
        for width in self.columns:
            xs.append(xs[-1] + width)
        return xs

    def _column_header(self, page: SheetCanvas, top: float) -> float:
        xs = self._column_x()
        height = self.header_row
        page.fill(MARGIN_LEFT, top, CONTENT_WIDTH, height, HEAD_FILL)
        bottom = top + height
        for column, label in enumerate(self.fixed_headers):
            page.spans(xs[column] + CELL_PAD, bottom - CELL_PAD - _line_height(label), label)
        for index, blocks in enumerate(self.seat_headers):
            x = xs[self.first_seat_column + index] + CELL_PAD
            y = bottom - CELL_PAD - _blocks_height(blocks)  # set at the bottom, like the others
            for kind, lines in blocks:
                if kind == "sub":
                    y += 0.8 * mm
                    page.rule(x, y, x + self.columns[-1] - 2 * CELL_PAD, y, 0.5, SUB_RULE)
                    y += 0.5 * mm
                y = page.lines(x, y, lines)
        self._grid(page, top, [bottom], xs, top_line=GRID)
        return bottom

    def _grid(self, page, top: float, row_bottoms: list[float], xs, *, top_line: float) -> None:
        """Vertical lines from ``top`` to the last row's bottom, a line under every row."""
        bottom = row_bottoms[-1]
        page.rule(MARGIN_LEFT, top, xs[-1], top, top_line)
        for x in xs:
            page.rule(x, top, x, bottom, GRID)
        for y in row_bottoms:
            page.rule(MARGIN_LEFT, y, xs[-1], y, GRID)

    def _deal_rows(self, page: SheetCanvas, top: float, rows, row_height: float) -> float:
        f, table = self.f, self.table
        xs = self._column_x()
        compact = row_height < COMPACT_BELOW
        number_size, dealer_size = (8, 7) if compact else (9, 8)
        first_seat = self.first_seat_column
        seat_width = self.columns[-1]
        nothing = table.sitting_out_scores == "nothing"
        out_label = _("sits out")
        y = top
        bottoms = []
        thick: list[tuple[float, float, float, float]] = []  # x1, x2, y, width
        for row in rows:
            for position, cell in enumerate(row.cells):
                x = xs[first_seat + position]
                if cell.sits_out:
                    if nothing:
                        page.hatch(x, y, seat_width, row_height)
                    else:
                        page.fill(x, y, seat_width, row_height, OUT_FILL)
                    page.string(
                        x + CELL_PAD, y + 0.4 * mm, Span(out_label, f.italic, 6.5, OUT_TEXT)
                    )
                if cell.new_occupant:
                    thick.append((x, x + seat_width, y, CHANGE_LINE))
            page.string(
                xs[1] - CELL_PAD,
                _centred(y, row_height, number_size),
                Span(str(row.number), f.bold, number_size),
                align="right",
            )
            dealer = _dealer_label(
                row.dealer_position,
                row.dealer.last_name,
                f.regular,
                dealer_size,
                self.columns[1] - 2 * CELL_PAD,
            )
            page.string(
                xs[1] + CELL_PAD,
                _centred(y, row_height, dealer_size),
                Span(dealer, f.regular, dealer_size),
            )
            y += row_height
            bottoms.append(y)
            if row.number % table.size == 0:
                thick.append((xs[0], xs[-1], y, TURN_LINE))
        self._grid(page, top, bottoms, xs, top_line=GRID)
        for x1, x2, line_y, width in thick:
            page.rule(x1, line_y, x2, line_y, width)
        return y

    def _sum_row(self, page: SheetCanvas, top: float) -> float:
        xs = self._column_x()
        bottom = top + SUM_ROW
        # the label spans the deal, dealer and contract columns: no lines between them
        for x in [xs[0], *xs[self.first_seat_column :]]:
            page.rule(x, top, x, bottom, GRID)
        page.rule(xs[0], top, xs[-1], top, SUM_LINE)
        page.rule(xs[0], bottom, xs[-1], bottom, GRID)
        label = Span(_("Sum"), self.f.bold, 10)
        page.string(xs[0] + CELL_PAD, _centred(top, SUM_ROW, label.size), label)
        return bottom

    def _total_row(self, page: SheetCanvas, top: float) -> float:
        xs = self._column_x()
        bottom = top + TOTAL_ROW
        self._grid(page, top, [bottom], xs, top_line=GRID)
        label = Span(_("Round total"), self.f.bold, 11)
        page.string(xs[0] + CELL_PAD, _centred(top, TOTAL_ROW, label.size), label)
        return bottom

    def _tail(self, page: SheetCanvas, top: float) -> None:
        f = self.f
        y = page.lines(MARGIN_LEFT, top + 1.2 * mm, self.legend)
        y += 2 * mm
        page.string(
            MARGIN_LEFT, y, Span(_("Signatures: the players confirm the results."), f.regular, 8)
        )
        y += 8 * LINE_HEIGHT + 12 * mm
        count = max(len(self.names), 1)
        gap = 4 * mm
        width = (CONTENT_WIDTH - gap * (count + 1)) / count
        for index, player in enumerate(self.names):
            x = MARGIN_LEFT + gap + index * (width + gap)
            page.rule(x, y, x + width, y, 0.6)
            # a name to sign under is set smaller rather than cut, down to 5.5 pt
            name = f"{player.last_name}, {player.first_name}"
            size = _shrink(name, f.regular, 7.5, width)
            page.string(x, y + 0.8 * mm, Span(_fit(name, f.regular, size, width), f.regular, size))

    def _footer(self, page: SheetCanvas) -> None:
        f = self.f
        y = CONTENT_BOTTOM + (MARGIN_BOTTOM - 7.5 * LINE_HEIGHT) / 2
        page.string(MARGIN_LEFT, y, Span("Cego Club", f.regular, 7.5, GREY_TEXT))
        label = (
            f"{_('Table')} {self.table.number} · {_('Round')} {self.setting.sheets.round.number}"
        )
        page.string(
            PAGE_WIDTH - MARGIN_RIGHT, y, Span(label, f.regular, 7.5, GREY_TEXT), align="right"
        )


@lru_cache(maxsize=4096)
def _dealer_label(position: int, last_name: str, font: str, size: float, width: float) -> str:
    """ "2 · Name" in the dealer column (a dealer deals several times a round: made once)."""
    label = f"{position + 1} · {Truncator(last_name).chars(13)}"
    return _fit(label, font, size, width)


def _split_rows(count: int, *, room_last: float, room_full: float) -> list[tuple[int, int, float]]:
    """The deal lines as pages: (first, end, line height). One page when every line fits
    next to the sum and the signatures at the smallest height; otherwise as few pages as
    will hold them, every line as tall as those pages allow (the same height on each)."""
    if count * ROW_MIN <= room_last:
        return [(0, count, min(ROW_MAX, room_last / max(count, 1)))]

    def fits(height: float, pages: int) -> bool:
        per_full = int(room_full / height + 1e-6)
        return (pages - 1) * per_full + int(room_last / height + 1e-6) >= count

    pages = 2
    while not fits(ROW_MIN, pages):
        pages += 1
    height = ROW_MAX
    while height > ROW_MIN and not fits(height, pages):
        height -= 0.1 * mm
    height = max(height, ROW_MIN)
    per_full = int(room_full / height + 1e-6)
    bounds = []
    start = 0
    for _page in range(pages - 1):
        end = min(start + per_full, count - 1)
        bounds.append((start, end, height))
        start = end
    bounds.append((start, count, height))
    return bounds


def _roles_needed(sheets: RoundSheets) -> tuple[str, ...]:
    sits_out = any(cell.sits_out for t in sheets.tables for row in t.deals for cell in row.cells)
    return SHEET_FONTS if sits_out else tuple(r for r in SHEET_FONTS if r != "italic")


def score_sheets_pdf(
    *,
    sheets: RoundSheets,
    base_url: str,
    rules_name: str,
    contract_names: Sequence[str],
    loopback: bool,
) -> bytes:
    """One A4 page per table (more for very many deals); the QR code opens ``base_url`` plus
    the table's entry path."""
    setting = SheetSetting(
        sheets=sheets,
        base_url=base_url,
        rules_name=rules_name,
        contract_names=tuple(contract_names),
        loopback=loopback,
        fonts=fonts(*_roles_needed(sheets)),
    )
    out = io.BytesIO()
    title = f"{_('Score sheets')} – {sheets.tournament.name}"
    page = SheetCanvas(out, title=title, fonts=setting.fonts)
    for index, table in enumerate(sheets.tables):
        if index:
            page.next_page()
        TableSheetDrawing(setting, table).draw(page)
    if not sheets.tables:
        page.string(MARGIN_LEFT, MARGIN_TOP, Span(title, setting.fonts.bold, 14))
    page.save()
    return out.getvalue()
