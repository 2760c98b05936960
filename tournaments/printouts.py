"""The tournament day's PDFs, built without a request (the views and the background renderer
share them), and the background renderer itself.

Every PDF is cached by tournament revision (``tournaments.caching``): a click on a printout
whose content has not changed returns the stored PDF, and any change (a deal, a swap, a
substitution) gives the next click a new one.

Background rendering: right after a draw, redraw, swap or substitution the views call
:func:`prerender_round`, which starts a thread (when the transaction commits) that renders the
round's score sheets, seat plan and table cards into the cache, so that the organiser's click a
few seconds later finds them ready. The thread lives in the server process: this suits the
venue server (one waitress process, many threads) and any server whose processes live longer
than a render; a request that arrives while the thread renders the same PDF waits for it instead
of rendering it a second time. ``PRINT_PRERENDER`` (setting): ``"thread"`` (default),
``"inline"`` (render before the response; tests), ``"off"``.
"""

from __future__ import annotations

import logging
import threading
from functools import lru_cache
from urllib.parse import urlsplit

import segno
from django.conf import settings
from django.db import connection, transaction
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from cego_club.venue import is_loopback
from tournaments import pdf, sheet_pdf
from tournaments.caching import revision_cached
from tournaments.models import Tournament
from tournaments.money import tournament_money
from tournaments.pdf import render_pdf
from tournaments.selectors.prizes import prize_groups
from tournaments.selectors.sheets import RoundSheets, round_sheets
from tournaments.selectors.standings import team_standings, tournament_standings

logger = logging.getLogger(__name__)

# Seat plan: two columns of this many lines per A4 page (150 players on two pages).
SEAT_PLAN_ROWS_PER_COLUMN = 38
SEAT_PLAN_COLUMNS = 2


def public_base_url(request) -> str:
    """Where phones reach this server: the QR codes on the sheets start with it."""
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL
    return request.build_absolute_uri("/").rstrip("/")


def absolute_url(request, path_: str) -> str:
    """``path_`` as an address a phone at the table can open."""
    return public_base_url(request) + path_


def phones_cannot_open(url: str) -> bool:
    """True when ``url`` points at this computer itself (127.0.0.1, localhost): a phone that
    scans it opens itself, not the app."""
    return is_loopback(urlsplit(url).hostname or "")


@lru_cache(maxsize=512)
def qr_data_uri(url: str) -> str:
    """The QR code of ``url`` (a table's address keeps its token until it is re-issued: the
    sheets rendered again after a swap reuse the codes)."""
    return segno.make(url, error="m").svg_data_uri(scale=4, border=2)


def _chunks(items, size):
    return [items[i : i + size] for i in range(0, len(items), size)]


def _rules_name(sheets: RoundSheets) -> str:
    names = sheets.rules.names
    return names.en if (get_language() or "de").startswith("en") else names.de


def seat_plan_pdf(*, tournament: Tournament, round_number: int) -> bytes:
    sheets = round_sheets(tournament=tournament, round_number=round_number)
    lines = list(sheets.seat_plan())
    per_page = SEAT_PLAN_ROWS_PER_COLUMN * SEAT_PLAN_COLUMNS
    pages = [_chunks(page, SEAT_PLAN_ROWS_PER_COLUMN) for page in _chunks(lines, per_page)] or [
        [[]]
    ]
    return render_pdf("print/seat_plan.html", {"sheets": sheets, "pages": pages, "lines": lines})


def table_cards_pdf(*, tournament: Tournament, round_number: int) -> bytes:
    sheets = round_sheets(tournament=tournament, round_number=round_number)
    return render_pdf(
        "print/table_cards.html", {"sheets": sheets, "pairs": _chunks(list(sheets.tables), 2)}
    )


def score_sheets_pdf(*, tournament: Tournament, round_number: int, base_url: str) -> bytes:
    """One A4 page per table, drawn by :mod:`tournaments.sheet_pdf`; its QR code opens
    ``base_url`` + the table's entry path."""
    sheets = round_sheets(tournament=tournament, round_number=round_number)
    return sheet_pdf.score_sheets_pdf(
        sheets=sheets,
        base_url=base_url,
        rules_name=_rules_name(sheets),
        contract_names=sheets.contract_names(get_language() or "de"),
        loopback=phones_cannot_open(base_url + "/"),
    )


def standings_pdf(*, tournament: Tournament) -> bytes:
    standings = tournament_standings(tournament=tournament)
    any_withdrawn = any(row.withdrawn for row in standings.rows)
    return render_pdf(
        "print/standings.html",
        {
            "standings": standings,
            "any_withdrawn": any_withdrawn,
            "teams": team_standings(standings=standings),
        },
    )


def prizes_pdf(*, tournament: Tournament) -> bytes:
    standings = tournament_standings(tournament=tournament)
    groups = prize_groups(standings)
    sections = [
        (_("Everyone on plus"), groups.on_plus),
        (_("Best woman"), groups.best_woman),
        (_("Best youth"), groups.best_youth),
        (_("Last place (Mauskönig)"), groups.last),
    ]
    money = tournament_money(tournament=tournament, standings=standings)
    return render_pdf(
        "print/prizes.html", {"standings": standings, "sections": sections, "money": money}
    )


# --- cached by revision --------------------------------------------------------------------


def cached_score_sheets(*, tournament: Tournament, round_number: int, base_url: str) -> bytes:
    return revision_cached(
        tournament,
        "score-sheets",
        round_number,
        base_url,
        build=lambda: score_sheets_pdf(
            tournament=tournament, round_number=round_number, base_url=base_url
        ),
    )


def cached_seat_plan(*, tournament: Tournament, round_number: int) -> bytes:
    return revision_cached(
        tournament,
        "seat-plan",
        round_number,
        build=lambda: seat_plan_pdf(tournament=tournament, round_number=round_number),
    )


def cached_table_cards(*, tournament: Tournament, round_number: int) -> bytes:
    return revision_cached(
        tournament,
        "table-cards",
        round_number,
        build=lambda: table_cards_pdf(tournament=tournament, round_number=round_number),
    )


def _prerender(tournament_id: int, round_number: int, base_url: str, language: str) -> None:
    try:
        with translation.override(language):
            tournament = Tournament.objects.get(pk=tournament_id)
            cached_score_sheets(tournament=tournament, round_number=round_number, base_url=base_url)
            cached_seat_plan(tournament=tournament, round_number=round_number)
            cached_table_cards(tournament=tournament, round_number=round_number)
    except Exception:  # a background helper: the click renders it instead
        logger.exception("Rendering round %s's printouts in advance failed", round_number)


def _prerender_in_thread(*args) -> None:
    def run() -> None:
        try:
            _prerender(*args)
        finally:
            connection.close()  # this thread's own database connection

    threading.Thread(target=run, name="prerender-printouts", daemon=True).start()


def warm_up() -> None:
    """Get the PDF workers (see :func:`tournaments.pdf.warm_up`) and the score sheets' fonts
    (read once per process, about 0.4 s) ready before the draw, when printouts are rendered
    in the background (``PRINT_PRERENDER`` ``"thread"``)."""
    if getattr(settings, "PRINT_PRERENDER", "thread") == "thread":
        pdf.warm_up()
        threading.Thread(target=sheet_pdf.fonts, name="sheet-fonts", daemon=True).start()


def prerender_round(
    *, tournament: Tournament, round_number: int, base_url: str, language: str | None = None
) -> None:
    """Render the round's printouts into the cache once the current transaction commits."""
    mode = getattr(settings, "PRINT_PRERENDER", "thread")
    args = (tournament.pk, round_number, base_url, language or get_language() or "de")
    if mode == "inline":
        transaction.on_commit(lambda: _prerender(*args))
    elif mode == "thread":
        transaction.on_commit(lambda: _prerender_in_thread(*args))
