"""Printouts for the tournament day: A4 PDFs for the organiser (the tournament's organisers only).

The PDFs are in the language of the request (German unless the organiser switched to English).
Building them lives in ``printing.printouts``; every PDF is cached by tournament revision,
so a second click (or one after the background render) returns at once and a change in between
gives a new PDF.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.permissions import MANAGE_TOURNAMENT, tournament_permission
from printing import printouts
from printing.pdf import pdf_response
from printing.printouts import public_base_url
from tournaments.caching import revision_cached
from tournaments.models import Tournament


def _filename(tournament: Tournament, what: str, round_number: int | None = None) -> str:
    # umlauts stay (Spielblätter); pdf_response adds an ASCII spelling for old browsers
    parts = [slugify(tournament.name, allow_unicode=True), slugify(what, allow_unicode=True)]
    if round_number is not None:
        parts.append(str(round_number))
    return "-".join(p for p in parts if p) + ".pdf"


def _tournament(pk: int) -> Tournament:
    # Read first: its revision names the cached PDF (see tournaments.caching).
    return get_object_or_404(Tournament.objects.select_related("host_club"), pk=pk)


@tournament_permission(MANAGE_TOURNAMENT)
def print_seat_plan(request, pk: int, round_number: int):
    tournament = _tournament(pk)
    pdf = printouts.cached_seat_plan(tournament=tournament, round_number=round_number)
    return pdf_response(pdf, _filename(tournament, _("seat plan"), round_number))


@tournament_permission(MANAGE_TOURNAMENT)
def print_table_cards(request, pk: int, round_number: int):
    tournament = _tournament(pk)
    pdf = printouts.cached_table_cards(tournament=tournament, round_number=round_number)
    return pdf_response(pdf, _filename(tournament, _("table cards"), round_number))


@tournament_permission(MANAGE_TOURNAMENT)
def print_score_sheets(request, pk: int, round_number: int):
    tournament = _tournament(pk)
    pdf = printouts.cached_score_sheets(
        tournament=tournament, round_number=round_number, base_url=public_base_url(request)
    )
    return pdf_response(pdf, _filename(tournament, _("score sheets"), round_number))


@tournament_permission(MANAGE_TOURNAMENT)
def print_standings(request, pk: int):
    tournament = _tournament(pk)
    pdf = revision_cached(
        tournament, "standings-pdf", build=lambda: printouts.standings_pdf(tournament=tournament)
    )
    return pdf_response(pdf, _filename(tournament, _("standings")))


@tournament_permission(MANAGE_TOURNAMENT)
def print_prizes(request, pk: int):
    tournament = _tournament(pk)
    pdf = revision_cached(
        tournament, "prizes-pdf", build=lambda: printouts.prizes_pdf(tournament=tournament)
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
