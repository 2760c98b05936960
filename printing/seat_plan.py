"""The seat plan of a round, drawn with ReportLab: every player in alphabetical order with
table and seat, two columns of 38 lines on an A4 page (160 players on three pages), pinned up
at the hall's door.

Every page has the head (round, tournament, date, venue, how many players) and the column
heads; the footer counts the pages of the whole plan ("Seite 2 / 3"). A name is set in DejaVu
Sans Condensed, smaller when long, and never runs into the table number.
"""

from __future__ import annotations

import io

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.units import mm

from printing.drawing import (
    MUTED,
    PAGE_WIDTH,
    RULE,
    SHADE,
    Fonts,
    PageCanvas,
    Span,
    centred,
    draw_page_head,
    fit,
    fonts,
    line_width,
    new_canvas,
    numbered_canvas,
    page_head,
)
from tournaments.selectors.sheets import RoundSheets, SeatPlanLine

MARGIN_TOP, MARGIN_RIGHT, MARGIN_BOTTOM, MARGIN_LEFT = 12 * mm, 12 * mm, 14 * mm, 12 * mm
CONTENT_WIDTH = PAGE_WIDTH - MARGIN_LEFT - MARGIN_RIGHT
ROWS_PER_COLUMN = 38
COLUMNS = 2
COLUMN_WIDTH = CONTENT_WIDTH * 0.485
TABLE_WIDTH, SEAT_WIDTH = 15 * mm, 12 * mm
ROW = 6.45 * mm
PAD = 1.5 * mm
HEAD_SIZE = 9
SMALLEST = 6.5  # pt: a name that does not fit even so is cut with "…"


def _chunks(items: list, size: int) -> list[list]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def name_spans(line: SeatPlanLine, f: Fonts, width: float) -> list[Span]:
    """Last name bold, first name, "(from deal 13)" for a substitute: in the sizes the name's
    length calls for, then smaller still if it does not fit ``width``."""
    length = line.name_length
    last, first = (9, 8.5) if length > 30 else (10.5, 10) if length > 25 else (12, 11)
    spans = [
        Span(line.player.last_name, f.condensed_bold, last),
        Span(", ", f.condensed, last),
        Span(line.player.first_name, f.condensed, first),
    ]
    if line.from_deal > 1:
        label = _("from deal %(deal)s") % {"deal": line.from_deal}
        spans.append(Span(f" ({label})", f.condensed, 8))
    if line.player.stays:  # keeps one table all day
        spans.append(Span(f" · {_('stays at the table')}", f.condensed_bold, 8))
    natural = line_width(spans)
    if natural > width:
        scale = max(width / natural * 0.999, SMALLEST / last)  # 0.999: rounding, not a cut
        spans = [Span(s.text, s.font, s.size * scale, s.color) for s in spans]
    return spans


def _fitted(spans: list[Span], width: float) -> list[Span]:
    """Spans cut at the end with "…" where they still do not fit (the smallest size reached)."""
    out: list[Span] = []
    used = 0.0
    for span in spans:
        room = width - used
        text = fit(span.text, span.font, span.size, room)
        out.append(Span(text, span.font, span.size, span.color))
        if text != span.text:
            break
        used += line_width([out[-1]])
    return out


def _column(page: PageCanvas, f: Fonts, x: float, top: float, lines: list[SeatPlanLine]) -> None:
    name_width = COLUMN_WIDTH - TABLE_WIDTH - SEAT_WIDTH
    right = x + COLUMN_WIDTH
    head = [Span(_("Name"), f.bold, HEAD_SIZE)]
    page.spans(x + PAD, top, head)
    page.string(right - SEAT_WIDTH - PAD, top, Span(_("Table"), f.bold, HEAD_SIZE), align="right")
    page.string(right - PAD, top, Span(_("Seat"), f.bold, HEAD_SIZE), align="right")
    y = top + HEAD_SIZE * 1.17 + 1 * mm
    page.rule(x, y + 0.5, right, y + 0.5, 1.0)
    y += 1.0
    for index, line in enumerate(lines):
        if index % 2 == 1:
            page.fill(x, y, COLUMN_WIDTH, ROW, SHADE)
        spans = _fitted(name_spans(line, f, name_width - 2 * PAD), name_width - 2 * PAD)
        size = spans[0].size
        page.spans(x + PAD, centred(y, ROW, size), spans)
        table = Span(str(line.table_number), f.bold, 15)
        page.string(right - SEAT_WIDTH - PAD, centred(y, ROW, 15), table, align="right")
        seat = Span(str(line.seat_number), f.regular, 12)
        page.string(right - PAD, centred(y, ROW, 12), seat, align="right")
        y += ROW
        page.rule(x, y - 0.2, right, y - 0.2, 0.4, RULE)


def seat_plan_pdf(*, sheets: RoundSheets) -> bytes:
    f = fonts()
    tournament = sheets.tournament
    lines = list(sheets.seat_plan())
    right = [Span(date_format(tournament.date, "SHORT_DATE_FORMAT"), f.regular, 11)]
    if tournament.venue:
        right.append(Span(tournament.venue, f.regular, 11))
    count = ngettext("%(counter)s player", "%(counter)s players", len(lines)) % {
        "counter": len(lines)
    }
    right.append(Span(count, f.regular, 11, MUTED))
    head = page_head(
        f=f,
        width=CONTENT_WIDTH,
        title=f"{_('Seat plan')} – {_('Round')} {sheets.round.number}",
        subtitle=tournament.name,
        right=right,
    )
    out = io.BytesIO()
    canvas = new_canvas(
        out,
        title=f"{_('Seat plan')} – {tournament.name}",
        fonts=f,
        canvas_class=numbered_canvas(
            fonts=f, page_label=_("Page"), margin_x=MARGIN_LEFT, margin_bottom=MARGIN_BOTTOM
        ),
    )
    page = PageCanvas(canvas, fonts=f)
    pages = _chunks(lines, ROWS_PER_COLUMN * COLUMNS) or [[]]
    for page_lines in pages:
        top = draw_page_head(page, head, x=MARGIN_LEFT, top=MARGIN_TOP, width=CONTENT_WIDTH)
        if not page_lines:
            page.string(MARGIN_LEFT, top, Span(_("Nobody is seated in this round."), f.regular, 10))
        for index, column in enumerate(_chunks(page_lines, ROWS_PER_COLUMN)):
            x = MARGIN_LEFT + index * (CONTENT_WIDTH - COLUMN_WIDTH)
            _column(page, f, x, top, column)
        canvas.showPage()
    canvas.save()
    return out.getvalue()
