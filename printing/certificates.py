"""Certificates ("Urkunden"), drawn with ReportLab: one A4 portrait page each, as clubs hand
them out at the prize-giving. A double frame; "Urkunde" in large type; the tournament, its
date and place; the name (a team's with its club and members) and "belegte den 1. Platz", the
ranking (overall, a category, the teams) and the points (only a total above zero: "mit
−100 Punkten" honours nobody); two lines to sign at the bottom
(tournament management, club). No footer: the page is handed out.

The labels come in from :mod:`printing.printouts`; here they are laid out. A name too long
for the page is set smaller, never cut.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm

from printing.drawing import (
    LINE_HEIGHT,
    MUTED,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    Fonts,
    PageCanvas,
    Span,
    fonts,
    new_canvas,
    shrink,
    wrap,
)

GREEN = HexColor("#1f6f43")  # the app's colour
OUTER, INNER = 12 * mm, 15 * mm  # the frame's two lines from the page's edge
WIDTH = PAGE_WIDTH - 2 * 30 * mm  # the text's column
CENTRE = PAGE_WIDTH / 2


@dataclass(frozen=True)
class CertificateText:
    """What one certificate says, in the page's language."""

    name: str
    club: str  # a player's club, a team's club; may be empty
    placed: str  # "belegte den 1. Platz"
    ranking: str  # "in der Gesamtwertung", "in der Wertung Damen", …
    points: str  # "mit 24 Punkten"; empty for a total of zero or below (no line)
    members: str = ""  # a team's members


@dataclass(frozen=True)
class Occasion:
    """The tournament: its name, "am 28.11.2026", "in Bräunlingen (Stadthalle)", and the
    place and date written under the signatures."""

    tournament: str
    date: str
    place: str
    signed_at: str


def _centred_lines(page: PageCanvas, top: float, spans: list[Span]) -> float:
    """``spans`` wrapped to the column, each line centred; returns the top below them."""
    for line in wrap(spans, WIDTH):
        page.spans(CENTRE - WIDTH / 2, top, line, align="center", width=WIDTH)
        top += max(span.size for span in line) * LINE_HEIGHT
    return top


def _page(page: PageCanvas, f: Fonts, occasion: Occasion, text: CertificateText) -> None:
    page.frame(OUTER, OUTER, PAGE_WIDTH - 2 * OUTER, PAGE_HEIGHT - 2 * OUTER, 2.2, GREEN)
    page.frame(INNER, INNER, PAGE_WIDTH - 2 * INNER, PAGE_HEIGHT - 2 * INNER, 0.6, GREEN)

    title = _("Certificate")
    size = shrink(title.upper(), f.bold, 58, WIDTH)
    page.string(
        CENTRE, 42 * mm, Span(title.upper(), f.bold, size, GREEN), align="center", spacing=size / 8
    )
    page.rule(CENTRE - 35 * mm, 70 * mm, CENTRE + 35 * mm, 70 * mm, 1.2, GREEN)

    top = _centred_lines(page, 82 * mm, [Span(occasion.tournament, f.bold, 22)])
    top = _centred_lines(page, top + 2 * mm, [Span(occasion.date, f.regular, 14)])
    top = _centred_lines(page, top, [Span(occasion.place, f.regular, 14)])

    top = max(top + 18 * mm, 135 * mm)
    name_size = shrink(text.name, f.bold, 34, WIDTH, smallest=18)
    top = _centred_lines(page, top, [Span(text.name, f.bold, name_size)])
    if text.club:
        top = _centred_lines(page, top + 1 * mm, [Span(text.club, f.regular, 15, MUTED)])
    if text.members:
        top = _centred_lines(page, top + 1 * mm, [Span(text.members, f.regular, 11, MUTED)])

    top += 12 * mm
    top = _centred_lines(page, top, [Span(text.placed, f.bold, 28, GREEN)])
    top = _centred_lines(page, top + 3 * mm, [Span(text.ranking, f.regular, 16)])
    if text.points:
        _centred_lines(page, top + 1 * mm, [Span(text.points, f.regular, 16)])

    # the signatures: place and date, then two lines with their roles below
    line_top = PAGE_HEIGHT - 52 * mm
    page.string(CENTRE, line_top - 22 * mm, Span(occasion.signed_at, f.regular, 11), align="center")
    left, width = 32 * mm, 62 * mm
    right = PAGE_WIDTH - left - width
    for x, label in ((left, _("Tournament management")), (right, _("Club"))):
        page.rule(x, line_top, x + width, line_top, 0.7)
        page.string(
            x + width / 2, line_top + 2 * mm, Span(label, f.regular, 10, MUTED), align="center"
        )


def certificates_pdf(*, occasion: Occasion, texts: Sequence[CertificateText]) -> bytes:
    f = fonts()
    out = io.BytesIO()
    canvas = new_canvas(out, title=f"{_('Certificates')} – {occasion.tournament}", fonts=f)
    page = PageCanvas(canvas, fonts=f)
    for text in texts:
        _page(page, f, occasion, text)
        canvas.showPage()
    if not texts:
        page.string(30 * mm, 30 * mm, Span(_("No results yet."), f.regular, 12))
        canvas.showPage()
    canvas.save()
    return out.getvalue()
