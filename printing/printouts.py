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
import re
import threading

from django.conf import settings
from django.db import connection, transaction
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from printing import pdf, prize_list, score_sheets, seat_plan, standings_list, table_cards
from printing.pdf import render_pdf
from tournaments.addresses import phones_cannot_open
from tournaments.caching import revision_cached
from tournaments.models import Tournament
from tournaments.selectors.prizes import prize_groups
from tournaments.selectors.sheets import RoundSheets, round_sheets
from tournaments.selectors.standings import (
    StandingRow,
    Standings,
    team_standings,
    tournament_standings,
)
from treasury.selectors import tournament_money

logger = logging.getLogger(__name__)

# Seat plan: two columns of this many lines per A4 page (150 players on two pages).
SEAT_PLAN_ROWS_PER_COLUMN = 38
SEAT_PLAN_COLUMNS = 2
# Standings: the rows of one A4 page (each page a part, rendered in parallel): 41 rows of one
# line under the title on the first page (40 when its right-hand block has a third line: venue
# and "provisional"), 44 on the others. A name or club that needs two lines makes its row
# taller (as before), and the page takes fewer rows.
STANDINGS_ROWS_FIRST_PAGE = 41
STANDINGS_ROWS_PER_PAGE = 44
STANDINGS_ROW_MM = 6.0
STANDINGS_RULE_MM = 0.4 * 25.4 / 72  # the line under each row
STANDINGS_LINE_MM = {10.5: 12.22 * 25.4 / 72, 9: 10.48 * 25.4 / 72}  # DejaVu Sans, per size
# Standings columns (mm; the page is 186 mm wide): the name and the club share what is left.
STANDINGS_WIDTH_MM = 186.0
STANDINGS_FIXED_MM = {"rank": 16.0, "number": 12.0, "round": 17.0, "total": 18.0}
STANDINGS_CLUB_MIN_MM = 18.0
STANDINGS_CELL_PADDING_MM = 1.5
# DejaVu Sans: the average advance of a name's letters (em, measured: 0.54-0.58 regular, 0.61-0.65
# bold; digits 0.64), regular and bold; pt in mm. A name just over it may wrap unforeseen: its
# page then runs over onto one more (numbered all the same).
STANDINGS_EM = 0.60
STANDINGS_EM_BOLD = 0.69
STANDINGS_SPACE_EM = 0.32
STANDINGS_SHIFT_MM = 0.6  # a 9 pt cell's first baseline lowered to the 10.5 pt cells'
PT_MM = 25.4 / 72


def _chunks(items, size):
    return [items[i : i + size] for i in range(0, len(items), size)]


def _rules_name(sheets: RoundSheets) -> str:
    names = sheets.rules.names
    return names.en if (get_language() or "de").startswith("en") else names.de


def seat_plan_pdf(*, tournament: Tournament, round_number: int) -> bytes:
    """Every player in alphabetical order with table and seat (:mod:`printing.seat_plan`)."""
    sheets = round_sheets(tournament=tournament, round_number=round_number)
    return seat_plan.seat_plan_pdf(sheets=sheets)


def table_cards_pdf(*, tournament: Tournament, round_number: int) -> bytes:
    """Two cards on a page, each a table's number and players (:mod:`printing.table_cards`)."""
    sheets = round_sheets(tournament=tournament, round_number=round_number)
    return table_cards.table_cards_pdf(sheets=sheets)


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


def _standings_pages(
    standings: Standings, widths: dict[str, str]
) -> list[list[tuple[StandingRow, bool]]]:
    """The rows page by page, each with whether it is shaded (every second row of the list):
    as many as fit, a row whose name or club wraps counted as tall as it gets."""
    name_room = _mm(widths["name"]) - 2 * STANDINGS_CELL_PADDING_MM
    club_room = _mm(widths["club"]) - 2 * STANDINGS_CELL_PADDING_MM
    first = STANDINGS_ROWS_FIRST_PAGE
    if standings.tournament.venue and not standings.finished:
        first -= 1
    budget = first * (STANDINGS_ROW_MM + STANDINGS_RULE_MM)
    pages: list[list[tuple[StandingRow, bool]]] = [[]]
    used = 0.0
    for index, row in enumerate(standings.rows):
        height = _row_mm(_name_words(row), _club_words(row), name_room, club_room)
        if pages[-1] and used + height > budget + 0.01:
            pages.append([])
            used, budget = 0.0, STANDINGS_ROWS_PER_PAGE * (STANDINGS_ROW_MM + STANDINGS_RULE_MM)
        pages[-1].append((row, index % 2 == 1))
        used += height
    return pages


def _row_mm(name: list[float], club: list[float], name_room: float, club_room: float) -> float:
    """A row's height with its line: one line fits the 6 mm; more lines (a cell set lower by
    the baseline it shares with the row's larger type) make it taller."""
    name_lines, club_lines = _lines(name, 10.5, name_room), _lines(club, 9, club_room)
    if name_lines == club_lines == 1:
        return STANDINGS_ROW_MM + STANDINGS_RULE_MM
    tallest = max(
        name_lines * STANDINGS_LINE_MM[10.5], club_lines * STANDINGS_LINE_MM[9] + STANDINGS_SHIFT_MM
    )
    return max(STANDINGS_ROW_MM, tallest) + STANDINGS_RULE_MM


def _mm(width: str) -> float:
    return float(width.removesuffix("mm"))


def _text_mm(text: str, size_pt: float, *, bold: bool = False) -> float:
    """An estimate of ``text``'s width in DejaVu Sans (the printouts' font)."""
    return len(text) * size_pt * (STANDINGS_EM_BOLD if bold else STANDINGS_EM) * PT_MM


def _words(text: str, size_pt: float, *, bold: bool = False) -> list[float]:
    """The widths of ``text``'s pieces a line may end after (spaces, hyphens)."""
    return [_text_mm(piece, size_pt, bold=bold) for piece in re.findall(r"[^\s-]*-|[^\s-]+", text)]


def _name_words(row: StandingRow) -> list[float]:
    return [*_words(row.last_name + ",", 10.5, bold=True), *_words(row.first_name, 10.5)]


def _club_words(row: StandingRow) -> list[float]:
    return _words(row.club, 9)


def _lines(words: list[float], size_pt: float, room: float) -> int:
    """How many lines ``words`` take in ``room`` mm, filled word by word."""
    space = STANDINGS_SPACE_EM * size_pt * PT_MM
    lines, width = 1, 0.0
    for word in words:
        if width and width + space + word > room:
            lines, width = lines + 1, word
        else:
            width += (space if width else 0.0) + word
    return lines


def _standings_columns(standings: Standings) -> dict[str, str]:
    """Widths (mm) for the fixed table layout (no cell measured; every page's columns the same).
    The name and the club column share what the others leave: of the splits a millimetre
    apart, the one whose rows take the least height (most rows on one line), the wider name
    column among equals."""
    fixed = STANDINGS_FIXED_MM
    free = (
        STANDINGS_WIDTH_MM
        - fixed["rank"]
        - fixed["number"]
        - fixed["total"]
        - fixed["round"] * len(standings.round_numbers)
    )
    padding = 2 * STANDINGS_CELL_PADDING_MM
    words = [(_name_words(row), _club_words(row)) for row in standings.rows]
    club_needs = max((_text_mm(row.club, 9) for row in standings.rows), default=0.0) + padding
    best_club, best_height = STANDINGS_CLUB_MIN_MM, None
    club = STANDINGS_CLUB_MIN_MM
    while club <= min(club_needs, free - STANDINGS_CLUB_MIN_MM):
        height = sum(
            _row_mm(name, club_words, free - club - padding, club - padding)
            for name, club_words in words
        )
        if best_height is None or height < best_height - 0.01:
            best_club, best_height = club, height
        club += 1.0
    widths = {key: f"{value:.1f}mm" for key, value in fixed.items()}
    widths["name"] = f"{free - best_club:.1f}mm"
    widths["club"] = f"{best_club:.1f}mm"
    return widths


def standings_pdf(*, tournament: Tournament) -> bytes:
    """Every player's rank, rounds and total, the notes and the team ranking
    (:mod:`printing.standings_list`)."""
    standings = tournament_standings(tournament=tournament)
    return standings_list.standings_pdf(
        standings=standings, teams=team_standings(standings=standings)
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
    return prize_list.prize_list_pdf(standings=standings, sections=sections, money=money)


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
    """Get the PDF workers (see :func:`printing.pdf.warm_up`) and the score sheets' fonts
    (read once per process, about 0.4 s) ready before the draw, when printouts are rendered
    in the background (``PRINT_PRERENDER`` ``"thread"``)."""
    if getattr(settings, "PRINT_PRERENDER", "thread") == "thread":
        pdf.warm_up()
        if not score_sheets.fonts.cache_info().currsize:  # not read yet in this process
            threading.Thread(target=score_sheets.fonts, name="sheet-fonts", daemon=True).start()


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
