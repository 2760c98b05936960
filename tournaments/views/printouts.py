"""Printouts for the tournament day: A4 PDFs for the organiser (the tournament's organisers only).

The PDFs are in the language of the request (German unless the organiser switched to English).
"""

from __future__ import annotations

from urllib.parse import urlsplit

import segno
from django.conf import settings
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from cego_club.venue import is_loopback
from clubs.permissions import MANAGE_TOURNAMENT, tournament_permission
from tournaments.models import Tournament
from tournaments.money import tournament_money
from tournaments.pdf import pdf_response, render_pdf
from tournaments.selectors.prizes import prize_groups
from tournaments.selectors.sheets import RoundSheets, round_sheets
from tournaments.selectors.standings import team_standings, tournament_standings

# Seat plan: two columns of this many lines per A4 page (150 players on two pages).
SEAT_PLAN_ROWS_PER_COLUMN = 38
SEAT_PLAN_COLUMNS = 2
# Score sheet: the height (mm) the deal rows share, and the bounds of one row.
SHEET_ROWS_BUDGET_MM = 186.0
SHEET_LOOPBACK_WARNING_MM = 10.0
SHEET_SUBSTITUTE_MM = 12.0
SHEET_ROW_MAX_MM = 9.0
SHEET_ROW_MIN_MM = 5.0


def absolute_url(request, path_: str) -> str:
    """``path_`` as an address a phone at the table can open."""
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL + path_
    return request.build_absolute_uri(path_)


def phones_cannot_open(url: str) -> bool:
    """True when ``url`` points at this computer itself (127.0.0.1, localhost): a phone that
    scans it opens itself, not the app."""
    return is_loopback(urlsplit(url).hostname or "")


def qr_data_uri(url: str) -> str:
    return segno.make(url, error="m").svg_data_uri(scale=4, border=2)


def _filename(tournament: Tournament, what: str, round_number: int | None = None) -> str:
    # umlauts stay (Spielblätter); pdf_response adds an ASCII spelling for old browsers
    parts = [slugify(tournament.name, allow_unicode=True), slugify(what, allow_unicode=True)]
    if round_number is not None:
        parts.append(str(round_number))
    return "-".join(p for p in parts if p) + ".pdf"


def _round(pk: int, round_number: int) -> RoundSheets:
    tournament = get_object_or_404(Tournament, pk=pk)
    return round_sheets(tournament=tournament, round_number=round_number)


def _rules_name(sheets: RoundSheets) -> str:
    names = sheets.rules.names
    return names.en if (get_language() or "de").startswith("en") else names.de


def _chunks(items, size):
    return [items[i : i + size] for i in range(0, len(items), size)]


@tournament_permission(MANAGE_TOURNAMENT)
def print_seat_plan(request, pk: int, round_number: int):
    sheets = _round(pk, round_number)
    lines = list(sheets.seat_plan())
    per_page = SEAT_PLAN_ROWS_PER_COLUMN * SEAT_PLAN_COLUMNS
    pages = [_chunks(page, SEAT_PLAN_ROWS_PER_COLUMN) for page in _chunks(lines, per_page)] or [
        [[]]
    ]
    pdf = render_pdf(
        "print/seat_plan.html", {"sheets": sheets, "pages": pages, "lines": lines}, request
    )
    return pdf_response(pdf, _filename(sheets.tournament, _("seat plan"), round_number))


@tournament_permission(MANAGE_TOURNAMENT)
def print_table_cards(request, pk: int, round_number: int):
    sheets = _round(pk, round_number)
    pdf = render_pdf(
        "print/table_cards.html",
        {"sheets": sheets, "pairs": _chunks(list(sheets.tables), 2)},
        request,
    )
    return pdf_response(pdf, _filename(sheets.tournament, _("table cards"), round_number))


@tournament_permission(MANAGE_TOURNAMENT)
def print_score_sheets(request, pk: int, round_number: int):
    sheets = _round(pk, round_number)
    deals = max(sheets.tournament.deals_per_round, 1)
    loopback = phones_cannot_open(absolute_url(request, "/"))
    tables = []
    for table in sheets.tables:
        # Every substitute adds a few lines to the column headers: the deal rows give way.
        subs = max((len(seat.substitutes) for seat in table.seats), default=0)
        budget = SHEET_ROWS_BUDGET_MM - SHEET_SUBSTITUTE_MM * subs
        if loopback:
            budget -= SHEET_LOOPBACK_WARNING_MM
        row_mm = max(SHEET_ROW_MIN_MM, min(SHEET_ROW_MAX_MM, budget / deals))
        url = absolute_url(request, table.entry_path)
        tables.append(
            {
                "table": table,
                "url": url,
                "short_url": absolute_url(request, table.short_path),
                "qr": qr_data_uri(url),
                "row_mm": f"{row_mm:.2f}",
                "compact": row_mm < 7,
            }
        )
    pdf = render_pdf(
        "print/score_sheets.html",
        {
            "sheets": sheets,
            "tables": tables,
            "rules_name": _rules_name(sheets),
            "contract_names": sheets.contract_names(get_language() or "de"),
            "loopback": loopback,
        },
        request,
    )
    return pdf_response(pdf, _filename(sheets.tournament, _("score sheets"), round_number))


@tournament_permission(MANAGE_TOURNAMENT)
def print_standings(request, pk: int):
    tournament = get_object_or_404(Tournament.objects.select_related("host_club"), pk=pk)
    standings = tournament_standings(tournament=tournament)
    any_withdrawn = any(row.withdrawn for row in standings.rows)
    pdf = render_pdf(
        "print/standings.html",
        {
            "standings": standings,
            "any_withdrawn": any_withdrawn,
            "teams": team_standings(standings=standings),
        },
        request,
    )
    return pdf_response(pdf, _filename(tournament, _("standings")))


@tournament_permission(MANAGE_TOURNAMENT)
def print_prizes(request, pk: int):
    tournament = get_object_or_404(Tournament.objects.select_related("host_club"), pk=pk)
    standings = tournament_standings(tournament=tournament)
    groups = prize_groups(standings)
    sections = [
        (_("Everyone on plus"), groups.on_plus),
        (_("Best woman"), groups.best_woman),
        (_("Best youth"), groups.best_youth),
        (_("Last place (Mauskönig)"), groups.last),
    ]
    money = tournament_money(tournament=tournament, standings=standings)
    pdf = render_pdf(
        "print/prizes.html",
        {"standings": standings, "sections": sections, "money": money},
        request,
    )
    return pdf_response(pdf, _filename(tournament, _("prizes")))


urlpatterns = [
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/print/seat-plan.pdf",
        print_seat_plan,
        name="print_seat_plan",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/print/table-cards.pdf",
        print_table_cards,
        name="print_table_cards",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/print/score-sheets.pdf",
        print_score_sheets,
        name="print_score_sheets",
    ),
    path("tournaments/<int:pk>/print/standings.pdf", print_standings, name="print_standings"),
    path("tournaments/<int:pk>/print/prizes.pdf", print_prizes, name="print_prizes"),
]
