"""The tournament day's PDFs, built without a request (the views and the background renderer
share them), and the background renderer itself.

Every one is drawn with ReportLab (no system library: the venue laptop needs nothing but the
wheels): the score sheets (:mod:`printing.score_sheets`), the seat plan
(:mod:`printing.seat_plan`), the table cards (:mod:`printing.table_cards`), the standings
(:mod:`printing.standings_list`) and the prize list (:mod:`printing.prize_list`). Here the
selectors are read and the labels chosen; the modules draw.

Every PDF is cached by tournament revision (``tournaments.caching``): a click on a printout
whose content has not changed returns the stored PDF, and any change (a deal, a swap, a
substitution) gives the next click a new one.

Background rendering: right after a draw, redraw, swap or substitution the views send
``tournaments.signals.round_seating_changed`` and ``printing.receivers`` calls
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

from django.conf import settings
from django.db import connection, transaction
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from clubs.models import Category
from printing import (
    certificates,
    drawing,
    prize_list,
    score_sheets,
    seat_plan,
    standings_list,
    table_cards,
    tick_sheets,
)
from printing.pdf import collector_paused
from tournaments.addresses import phones_cannot_open
from tournaments.caching import revision_cached
from tournaments.models import Tournament
from tournaments.selectors.prizes import OVERALL, TEAMS, Placing, certificate_placings, prize_groups
from tournaments.selectors.round_status import closed_short_tables
from tournaments.selectors.sheets import RoundSheets, round_sheets
from tournaments.selectors.standings import team_standings, tournament_standings
from tournaments.selectors.visibility import hiding, public_standings
from treasury.selectors import tournament_money

logger = logging.getLogger(__name__)


def _rules_name(sheets: RoundSheets) -> str:
    names = sheets.rules.names
    return names.en if (get_language() or "de").startswith("en") else names.de


@collector_paused()
def seat_plan_pdf(*, tournament: Tournament, round_number: int) -> bytes:
    """Every player in alphabetical order with table and seat (:mod:`printing.seat_plan`)."""
    sheets = round_sheets(tournament=tournament, round_number=round_number)
    return seat_plan.seat_plan_pdf(sheets=sheets)


@collector_paused()
def table_cards_pdf(*, tournament: Tournament, round_number: int) -> bytes:
    """Two cards on a page, each a table's number and players (:mod:`printing.table_cards`)."""
    sheets = round_sheets(tournament=tournament, round_number=round_number)
    return table_cards.table_cards_pdf(sheets=sheets)


@collector_paused()
def score_sheets_pdf(*, tournament: Tournament, round_number: int, base_url: str) -> bytes:
    """One A4 page per table, drawn by :mod:`printing.score_sheets`; its QR code opens
    ``base_url`` + the table's entry path."""
    sheets = round_sheets(tournament=tournament, round_number=round_number)
    return score_sheets.score_sheets_pdf(
        sheets=sheets,
        base_url=base_url,
        rules_name=_rules_name(sheets),
        contract_names=sheets.contract_names(get_language() or "de"),
        loopback=phones_cannot_open(base_url + "/"),
    )


@collector_paused()
def tick_sheets_pdf(*, tournament: Tournament, round_number: int, base_url: str) -> bytes:
    """The tick-box score sheets a machine reads from a photo (:mod:`printing.tick_sheets`):
    one landscape A4 page per table, the same QR code as the usual sheet."""
    sheets = round_sheets(tournament=tournament, round_number=round_number)
    return tick_sheets.tick_sheets_pdf(
        sheets=sheets, base_url=base_url, rules_name=_rules_name(sheets)
    )


@collector_paused()
def standings_pdf(*, tournament: Tournament, complete: bool = False) -> bytes:
    """Every player's rank, rounds and total, the notes and the team ranking
    (:mod:`printing.standings_list`). While places are hidden until the prize ceremony
    (``tournaments.selectors.visibility``) the list is the public's (it goes on the wall)
    unless ``complete`` (the desk's own copy)."""
    standings = tournament_standings(tournament=tournament)
    hidden = None if complete else hiding(tournament=tournament)
    note = ""
    if hidden is not None:
        standings = public_standings(standings, shown=hidden)
        note = (
            _("The standings are hidden until the prize ceremony.")
            if hidden.top is None
            else ngettext(
                "Place 1 is hidden until the prize ceremony.",
                "Places 1 to %(top)s are hidden until the prize ceremony.",
                hidden.top,
            )
            % {"top": hidden.top}
        )
    return standings_list.standings_pdf(
        standings=standings,
        teams=team_standings(standings=standings),
        short_tables=closed_short_tables(tournament=tournament),
        hidden_note=note,
    )


@collector_paused()
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
    return prize_list.prize_list_pdf(standings=standings, sections=sections, money=money)


def _certificate_text(placing: Placing) -> certificates.CertificateText:
    rankings = {
        OVERALL: _("in the overall ranking"),
        Category.WOMAN: _("in the women's ranking"),
        Category.YOUTH: _("in the youth ranking"),
        Category.SENIOR: _("in the seniors' ranking"),
        TEAMS: _("in the team ranking"),
    }
    # A certificate honours the place: a total of zero or below ("mit −100 Punkten", common in
    # a side ranking) is left off, as an organiser pinning it up would; the place says it all.
    points = (
        ngettext("with %(points)s point", "with %(points)s points", placing.total)
        % {"points": placing.total}
        if placing.total > 0
        else ""
    )
    placed = _("finished in place %(place)s") % {"place": placing.place}
    ranking = rankings[placing.ranking]
    if placing.team is not None:
        team = placing.team
        return certificates.CertificateText(
            name=team.name,
            club=team.club,
            placed=placed,
            ranking=ranking,
            points=points,
            members=", ".join(member.name for member in team.members),
        )
    row = placing.row
    return certificates.CertificateText(
        name=row.name, club=row.club, placed=placed, ranking=ranking, points=points
    )


@collector_paused()
def certificates_pdf(*, tournament: Tournament, places: int) -> bytes:
    """A certificate for each of the first ``places`` places of the overall ranking, of each
    category's and of the team ranking (:mod:`printing.certificates`)."""
    standings = tournament_standings(tournament=tournament)
    placings = certificate_placings(
        standings, teams=team_standings(standings=standings), places=places
    )
    town = tournament.host_club.town if tournament.host_club_id else ""
    date = date_format(tournament.date, "DATE_FORMAT")
    occasion = certificates.Occasion(
        tournament=tournament.name,
        date=_("on %(date)s") % {"date": date},
        place=tournament.venue or town,
        signed_at=", ".join(part for part in (town or tournament.venue, date) if part),
    )
    return certificates.certificates_pdf(
        occasion=occasion, texts=[_certificate_text(placing) for placing in placings]
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


def cached_tick_sheets(*, tournament: Tournament, round_number: int, base_url: str) -> bytes:
    return revision_cached(
        tournament,
        "tick-sheets",
        round_number,
        base_url,
        build=lambda: tick_sheets_pdf(
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
    """Register the printouts' fonts (once per process) in the background before the draw,
    when printouts are rendered in the background (``PRINT_PRERENDER`` ``"thread"``)."""
    thread = getattr(settings, "PRINT_PRERENDER", "thread") == "thread"
    if thread and not drawing.fonts.cache_info().currsize:  # not read yet in this process
        threading.Thread(target=drawing.fonts, name="printout-fonts", daemon=True).start()


def read_fonts() -> None:
    """Register every printout's fonts now (once per process)."""
    drawing.fonts()


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
