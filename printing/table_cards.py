"""The table cards of a round, drawn with ReportLab: two cards on an A4 page (cut along the
dashed line), each with the tournament and date, the table's number in large type, the round,
and its players in playing order with their start numbers (substitutes below the player whose
seat they take over). No footer: the card stands on the table.

A card's players are set in 18 pt; a table whose names would run off the card gets them
smaller, so nothing is cut.
"""

from __future__ import annotations

import io

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm

from printing.drawing import (
    LINE_HEIGHT,
    MUTED,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    RED,
    Fonts,
    PageCanvas,
    Span,
    fit,
    fonts,
    lines_height,
    new_canvas,
    shrink,
    width_of,
    wrap,
)
from tournaments.selectors.sheets import RoundSheets, TableSheet

CARD_HEIGHT = PAGE_HEIGHT / 2
PAD_TOP, PAD_SIDE, PAD_BOTTOM = 9 * mm, 14 * mm, 8 * mm
INNER_WIDTH = PAGE_WIDTH - 2 * PAD_SIDE
NUMBER_WIDTH = 84 * mm  # the number's block on the left
PLAYERS_X = 94 * mm  # the players' list, from the card's inner left edge
PLAYERS_WIDTH = INNER_WIDTH - PLAYERS_X
SEAT_WIDTH = 10 * mm
ITEM_PAD = 2.6 * mm
NAME_SIZES = (18, 16, 14, 12, 10)
CUT_LINE = HexColor("#777777")
ITEM_RULE = HexColor("#999999")


def _player_lines(table: TableSheet, f: Fonts, size: float) -> list[list[tuple[str, list]]]:
    """Per seat: ("name", lines) and a ("sub", lines) for each substitute, at name ``size``."""
    small = size * 11 / 18
    width = PLAYERS_WIDTH - SEAT_WIDTH
    items = []
    for seat in table.seats:
        player = seat.player
        blocks = [
            (
                "name",
                wrap(
                    [
                        Span(f"{player.last_name}, {player.first_name} ", f.regular, size),
                        Span(f"({player.number})", f.regular, small, MUTED),
                    ],
                    width,
                ),
            )
        ]
        if player.stays:  # keeps one table all day: under the name
            blocks.append(("sub", wrap([Span(_("stays at the table"), f.bold, small)], width)))
        for sub in seat.substitutes:
            label = _("from deal %(deal)s") % {"deal": sub.from_deal}
            text = f"{label}: {sub.player.last_name}, {sub.player.first_name} ({sub.player.number})"
            blocks.append(("sub", wrap([Span(text, f.regular, small)], width)))
        items.append(blocks)
    return items


def _items_height(items) -> float:
    return sum(
        2 * ITEM_PAD + sum(lines_height(lines) for _kind, lines in blocks) for blocks in items
    )


def _card(page: PageCanvas, f: Fonts, sheets: RoundSheets, table: TableSheet, top: float):
    tournament = sheets.tournament
    left = PAD_SIDE
    y = top + PAD_TOP
    date = Span(date_format(tournament.date, "SHORT_DATE_FORMAT"), f.regular, 11)
    page.string(left + INNER_WIDTH, y, date, align="right")
    name_room = INNER_WIDTH - width_of(date) - 6 * mm
    page.string(left, y, Span(fit(tournament.name, f.regular, 11, name_room), f.regular, 11))
    main = y + 11 * LINE_HEIGHT + 18 * mm

    # the number's block: "TABLE", the number, the round (and "voided")
    centre = left + NUMBER_WIDTH / 2
    label = Span(_("Table").upper(), f.regular, 20)
    page.string(centre, main, label, align="center", spacing=1.0)
    y = main + 20 * LINE_HEIGHT
    number = str(table.number)
    size = shrink(number, f.bold, 170, NUMBER_WIDTH, smallest=60)
    # line height 1: the digits' box is as tall as the type is large
    page.string(
        centre, y + (1 - LINE_HEIGHT) / 2 * size, Span(number, f.bold, size), align="center"
    )
    y += size + 2 * mm
    round_label = f"{_('Round')} {sheets.round.number}"
    page.string(centre, y, Span(round_label, f.regular, 16), align="center")
    y += 16 * LINE_HEIGHT
    if table.voided:
        page.string(centre, y, Span(_("voided"), f.bold, 13, RED), align="center")

    # the players in playing order
    x = left + PLAYERS_X
    order = Span(_("Playing order (seat 1 deals first)"), f.regular, 10, MUTED)
    page.string(x, main, order)
    y = main + 10 * LINE_HEIGHT + 1 * mm
    room = top + CARD_HEIGHT - PAD_BOTTOM - y
    for size in NAME_SIZES:  # the largest type at which every name fits on the card
        items = _player_lines(table, f, size)
        if _items_height(items) <= room:
            break
    for seat, blocks in zip(table.seats, items, strict=True):
        y += ITEM_PAD
        first = blocks[0][1][0]
        seat_span = Span(f"{seat.seat_number}.", f.bold, max(s.size for s in first))
        page.string(x, y, seat_span)
        for _kind, lines in blocks:
            y = page.lines(x + SEAT_WIDTH, y, lines)
        y += ITEM_PAD
        page.rule(x, y, x + PLAYERS_WIDTH, y, 0.5, ITEM_RULE)


def table_cards_pdf(*, sheets: RoundSheets) -> bytes:
    f = fonts()
    out = io.BytesIO()
    canvas = new_canvas(out, title=f"{_('Table cards')} – {sheets.tournament.name}", fonts=f)
    page = PageCanvas(canvas, fonts=f)
    tables = list(sheets.tables)
    for start in range(0, len(tables), 2):
        for index, table in enumerate(tables[start : start + 2]):
            top = index * CARD_HEIGHT
            if index:
                page.dashed(0, top, PAGE_WIDTH, 0.6, CUT_LINE, (2, 2))
            _card(page, f, sheets, table, top)
        canvas.showPage()
    if not tables:
        page.string(PAD_SIDE, PAD_TOP, Span(_("Nobody is seated in this round."), f.regular, 10))
        canvas.showPage()
    canvas.save()
    return out.getvalue()
