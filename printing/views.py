"""Every PDF download: the tournament day's printouts (the tournament's organisers), the
season's notice board, the player list, and the tariff cards (public).

The PDFs are in the language of the request (German unless the organiser switched to English).
Building them lives in ``printing.printouts``; every printout of a tournament is cached by its
revision, so a second click (or one after the background render) returns at once and a change
in between gives a new PDF.

The tournament day's printouts are drawn with ReportLab. The season's notice board, the player
list and the tariff cards are WeasyPrint's (``printing.pdf``): where it cannot be loaded (no
Pango on the computer), those three answer with a page that says so (status 503).
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import path
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.models import category_label
from clubs.permissions import (
    MANAGE_CLUB,
    MANAGE_TOURNAMENT,
    check,
    exportable_players,
    organiser_required,
)
from clubs.views.players import filtered_players
from printing import printouts
from printing.pdf import PdfUnavailable, html_to_pdf, pdf_response, render_pdf
from rules.views import tariff_card_of
from seasons.views.scoring import managed_season
from seasons.views.standings import season_context
from tournaments.addresses import public_base_url
from tournaments.caching import revision_cached
from tournaments.models import Tournament
from tournaments.views.access import tournament_permission


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
    """The round's score sheets; ``?layout=ticks``: the tick-box sheets a machine reads from a
    photo (landscape), otherwise the usual written ones."""
    tournament = _tournament(pk)
    if request.GET.get("layout") == "ticks":
        pdf = printouts.cached_tick_sheets(
            tournament=tournament, round_number=round_number, base_url=public_base_url(request)
        )
        return pdf_response(pdf, _filename(tournament, _("tick-box score sheets"), round_number))
    pdf = printouts.cached_score_sheets(
        tournament=tournament, round_number=round_number, base_url=public_base_url(request)
    )
    return pdf_response(pdf, _filename(tournament, _("score sheets"), round_number))


@tournament_permission(MANAGE_TOURNAMENT)
def print_standings(request, pk: int):
    """The standings list; while places are hidden until the prize ceremony, without them
    unless ``?complete=1`` (the desk's own copy: the printed list goes on the wall)."""
    tournament = _tournament(pk)
    complete = request.GET.get("complete") == "1"
    pdf = revision_cached(
        tournament,
        "standings-pdf",
        complete,
        build=lambda: printouts.standings_pdf(tournament=tournament, complete=complete),
    )
    return pdf_response(pdf, _filename(tournament, _("standings")))


@tournament_permission(MANAGE_TOURNAMENT)
def print_prizes(request, pk: int):
    tournament = _tournament(pk)
    pdf = revision_cached(
        tournament, "prizes-pdf", build=lambda: printouts.prizes_pdf(tournament=tournament)
    )
    return pdf_response(pdf, _filename(tournament, _("prizes")))


CERTIFICATE_PLACES, MAX_CERTIFICATE_PLACES = 3, 10


@tournament_permission(MANAGE_TOURNAMENT)
def print_certificates(request, pk: int):
    """Certificates for the first ``?places=`` places (1 to 10; 3 unless asked) of every
    ranking."""
    tournament = _tournament(pk)
    try:
        places = int(request.GET.get("places") or CERTIFICATE_PLACES)
    except ValueError:
        places = 0
    if not 1 <= places <= MAX_CERTIFICATE_PLACES:
        message = _("Certificates are printed for 1 to %(most)s places per ranking.") % {
            "most": MAX_CERTIFICATE_PLACES
        }
        return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
    pdf = revision_cached(
        tournament,
        "certificates-pdf",
        places,
        build=lambda: printouts.certificates_pdf(tournament=tournament, places=places),
    )
    return pdf_response(pdf, _filename(tournament, _("certificates")))


def pdf_unavailable(request: HttpRequest, error: PdfUnavailable) -> HttpResponse:
    """The page instead of a WeasyPrint PDF on a computer without WeasyPrint or Pango."""
    return render(request, "printing/pdf_unavailable.html", {"detail": str(error)}, status=503)


@organiser_required
def season_pdf(request, pk: int):
    season = managed_season(request, pk)
    try:
        pdf = render_pdf("print/season.html", season_context(season), request=request)
    except PdfUnavailable as error:
        return pdf_unavailable(request, error)
    return pdf_response(pdf, f"{slugify(season.name) or 'season'}.pdf")


@organiser_required
def player_export_pdf(request):
    _form, data, players = filtered_players(request)
    if data.get("club"):
        check(request.user, MANAGE_CLUB, data["club"])
    players = exportable_players(request.user, players)
    rows = [
        {
            "player": p,
            "category": category_label(p.category),
            "clubs": ", ".join(m.club.short_name for m in p.memberships.all()),
            "numbers": ", ".join(m.member_number for m in p.memberships.all() if m.member_number),
        }
        for p in players
    ]
    context = {"rows": rows, "club": data.get("club"), "q": data.get("q")}
    try:
        pdf = render_pdf("print/players.html", context, request)
    except PdfUnavailable as error:
        return pdf_unavailable(request, error)
    return pdf_response(pdf, "spieler.pdf")


# A card does not change under the same markup: keep it a week (the cache may drop it earlier).
TARIFF_PDF_SECONDS = 7 * 24 * 60 * 60


def tariff_card_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    card, house, problems = tariff_card_of(slug)
    if problems:  # nothing to print: the page says what is wrong
        context = {"card": card, "house": house, "problems": problems, "slug": slug}
        return render(request, "rules/tariff_card.html", context, status=409)
    html = render_to_string(
        "rules/tariff_card_pdf.html", {"card": card, "house": house}, request=request
    )
    try:
        pdf = _pdf_of(html)
    except PdfUnavailable as error:
        return pdf_unavailable(request, error)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="tariff-{slug}.pdf"'
    return response


def _pdf_of(html: str) -> bytes:
    """The card's PDF, rendered once and kept: the key is the page's own markup, so a card is
    rendered once per rule source and language, and again only when what it shows changes
    (a club edits its house rules). Rendering costs about a second of CPU, the markup a few
    milliseconds."""
    key = "tariff-pdf:" + hashlib.sha256(html.encode()).hexdigest()
    pdf = cache.get(key)
    if pdf is None:
        pdf = html_to_pdf(html)
        cache.set(key, pdf, TARIFF_PDF_SECONDS)
    return pdf


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
    path(
        "tournaments/<int:pk>/print/certificates.pdf",
        print_certificates,
        name="print_certificates",
    ),
    path("seasons/<int:pk>/standings.pdf", season_pdf, name="season_pdf"),
    path("players/export.pdf", player_export_pdf, name="player_export_pdf"),
    path("rules/<slug:slug>/pdf/", tariff_card_pdf, name="tariff_card_pdf"),
]
