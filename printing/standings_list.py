"""A tournament's standings as the notice board shows them, laid out by ReportLab's platypus:
the head on the first page (tournament, date, venue, "provisional" while results are missing),
one row per player with rank, number, name, club, every round and the total, the column heads
on every page, every second row shaded, the notes (a table whose round was closed with deals
missing, per round and table) and the team ranking after the last row, and
"Seite 2 / 4" on every page.

Every row's height is known before the table is laid out: names and clubs are measured in the
fonts they are drawn in (:func:`columns` gives the name and the club column the split whose rows
take the least height), so platypus places rows without measuring a cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import KeepTogether, Spacer

from printing.drawing import (
    BLACK,
    GREY_TEXT,
    LINE_HEIGHT,
    PAGE_WIDTH,
    RED,
    Fonts,
    HeadFlowable,
    Span,
    SpanCell,
    build_document,
    fonts,
    list_table,
    page_head,
    share_width,
)
from tournaments.selectors.round_status import ShortTable
from tournaments.selectors.standings import StandingRow, Standings, TeamRow

MARGIN_TOP, MARGIN_RIGHT, MARGIN_BOTTOM, MARGIN_LEFT = 12 * mm, 12 * mm, 14 * mm, 12 * mm
CONTENT_WIDTH = PAGE_WIDTH - MARGIN_LEFT - MARGIN_RIGHT
FIXED = {"rank": 16 * mm, "number": 12 * mm, "round": 17 * mm, "total": 18 * mm}
CLUB_MIN = 18 * mm
PAD = 1.5 * mm
ROW = 6 * mm
WRAPPED_PAD = 1 * mm  # above and below the lines of a row whose name or club wraps
SIZE, CLUB_SIZE, HEAD_SIZE, MARK_SIZE, NOTE_SIZE = 10.5, 9, 8.5, 8, 8.5


@dataclass(frozen=True)
class Columns:  # widths and heights in points
    name: float
    club: float
    heights: tuple[float, ...]  # each row's


def _row_spans(row: StandingRow, f: Fonts) -> tuple[list[Span], list[Span]]:
    """The name (last name bold; a fill-in marked) and the club, in a withdrawn player's
    italic grey."""
    color = GREY_TEXT if row.withdrawn else BLACK
    bold, regular = (f.bold_italic, f.italic) if row.withdrawn else (f.bold, f.regular)
    name = [
        Span(row.last_name, bold, SIZE, color),
        Span(f", {row.first_name}", regular, SIZE, color),
    ]
    if row.fill_in:  # listed after the ranked players, without a place
        name.append(Span(f" ({_('fill-in')})", regular, SIZE, color))
    return name, [Span(row.club, regular, CLUB_SIZE, color)] if row.club else []


def _height(name_lines: int, club_lines: int) -> float:
    if name_lines == club_lines == 1:
        return ROW
    tallest = max(name_lines * SIZE * LINE_HEIGHT, club_lines * CLUB_SIZE * LINE_HEIGHT)
    return max(ROW, tallest + 2 * WRAPPED_PAD)


def columns(standings: Standings, f: Fonts) -> Columns:
    """The name and the club column share what the others leave: of the splits a millimetre
    apart, the one whose rows take the least height (most rows on one line), the wider name
    column among equals."""
    free = (
        CONTENT_WIDTH
        - FIXED["rank"]
        - FIXED["number"]
        - FIXED["total"]
        - FIXED["round"] * len(standings.round_numbers)
    )
    split = share_width(
        [_row_spans(row, f) for row in standings.rows],
        free,
        pad=PAD,
        second_min=CLUB_MIN,
        row_height=_height,
    )
    return Columns(name=free - split.second, club=split.second, heights=split.heights)


def _number(text: str, font: str, color=BLACK, size: float = SIZE) -> list[Span]:
    return [Span(text, font, size, color)]


def _rank_spans(rank: int, mark: str, font: str, f: Fonts, color) -> list[Span]:
    spans = [Span(f"{rank}.", font, SIZE, color)]
    if mark:
        spans.append(
            Span(f" {mark}", f.italic if font == f.bold_italic else f.regular, MARK_SIZE, color)
        )
    return spans


def _standings_table(standings: Standings, f: Fonts, cols: Columns):
    head = [
        SpanCell([Span(_("Rank"), f.bold, HEAD_SIZE)], f=f, align="right"),
        SpanCell([Span(_("No."), f.bold, HEAD_SIZE)], f=f, align="right"),
        SpanCell([Span(_("Name"), f.bold, HEAD_SIZE)], f=f),
        SpanCell([Span(_("Club"), f.bold, HEAD_SIZE)], f=f),
        *(
            SpanCell(
                [Span(_("Round %(number)s") % {"number": n}, f.bold, HEAD_SIZE)], f=f, align="right"
            )
            for n in standings.round_numbers
        ),
        SpanCell([Span(_("Total"), f.bold, HEAD_SIZE)], f=f, align="right"),
    ]
    rows = [head]
    for row in standings.rows:
        color = GREY_TEXT if row.withdrawn else BLACK
        regular, bold = (f.italic, f.bold_italic) if row.withdrawn else (f.regular, f.bold)
        mark = "=" if row.tied else "L" if row.decided_by_lot else ""
        name, club = _row_spans(row, f)
        rows.append(
            [
                SpanCell(
                    [Span("–", regular, SIZE, color)]
                    if row.fill_in
                    else _rank_spans(row.rank, mark, bold, f, color),
                    f=f,
                    align="right",
                ),
                SpanCell(_number(str(row.number), regular, color), f=f, align="right"),
                SpanCell(name, f=f),
                SpanCell(club, f=f),
                *(
                    SpanCell(
                        _number("–" if total is None else str(total), regular, color),
                        f=f,
                        align="right",
                    )
                    for total in row.round_totals
                ),
                SpanCell(_number(str(row.total), bold, color), f=f, align="right"),
            ]
        )
    widths = [
        FIXED["rank"],
        FIXED["number"],
        cols.name,
        cols.club,
        *(FIXED["round"] for _n in standings.round_numbers),
        FIXED["total"],
    ]
    head_height = HEAD_SIZE * LINE_HEIGHT + 2 * mm
    return list_table(
        rows,
        font=f.regular,
        widths=widths,
        heights=[head_height, *cols.heights],
        # every second row of the whole list, whichever page it lands on
        shaded=[index + 1 for index in range(len(standings.rows)) if index % 2 == 1],
        padding=PAD,
    )


def _note(text: str, f: Fonts, *, font: str | None = None, color=BLACK, size=NOTE_SIZE):
    return SpanCell([Span(text, font or f.regular, size, color)], f=f)


def _teams(teams: Sequence[TeamRow], f: Fonts) -> list:
    rank_w, total_w = FIXED["rank"], FIXED["total"]
    team_w = min(
        max(
            (
                max(
                    pdfmetrics.stringWidth(team.name, f.bold, SIZE),
                    pdfmetrics.stringWidth(team.club, f.regular, CLUB_SIZE),
                )
                for team in teams
            ),
            default=0.0,
        )
        + 2 * PAD
        + 1,
        70 * mm,
    )
    members_w = CONTENT_WIDTH - rank_w - team_w - total_w
    rows = [
        [
            SpanCell([Span(_("Rank"), f.bold, HEAD_SIZE)], f=f, align="right"),
            SpanCell([Span(_("Team"), f.bold, HEAD_SIZE)], f=f),
            SpanCell([Span(_("Members"), f.bold, HEAD_SIZE)], f=f),
            SpanCell([Span(_("Total"), f.bold, HEAD_SIZE)], f=f, align="right"),
        ]
    ]
    for team in teams:
        color = BLACK if team.complete else GREY_TEXT
        regular, bold = (f.regular, f.bold) if team.complete else (f.italic, f.bold_italic)
        members = ", ".join(f"{m.name} ({m.total})" for m in team.members)
        rows.append(
            [
                SpanCell(
                    _rank_spans(team.rank, "=" if team.tied else "", bold, f, color),
                    f=f,
                    align="right",
                ),
                SpanCell(
                    [Span(team.name, bold, SIZE, color)],
                    [Span(team.club, regular, CLUB_SIZE, color)] if team.club else [],
                    f=f,
                ),
                SpanCell([Span(members, regular, CLUB_SIZE, color)] if members else [], f=f),
                SpanCell(_number(str(team.total), bold, color), f=f, align="right"),
            ]
        )
    table = list_table(
        rows,
        font=f.regular,
        widths=[rank_w, team_w, members_w, total_w],
        padding=PAD,
        extra=[
            ("TOPPADDING", (0, 1), (-1, -1), 1 * mm),
            ("BOTTOMPADDING", (0, 1), (-1, -1), 1 * mm),
        ],
    )
    note = _(
        "A team's result is the sum of its members' totals. Italic: incomplete team (fewer "
        "than four players who played), ranked after the complete teams."
    )
    return [
        KeepTogether(
            [
                Spacer(1, 6 * mm),
                _note(_("Team ranking"), f, font=f.bold, size=12),
                Spacer(1, 2 * mm),
                table,
                Spacer(1, 3 * mm),
                _note(note, f),
            ]
        )
    ]


def short_table_note(short: ShortTable) -> str:
    """ "Runde 2, Tisch 3: abgeschlossen mit 14 von 16 Spielen (1 unbestätigtes zählt nicht)"."""
    status = short.status
    if status.totals:
        text = _("Round %(round)s, table %(table)s: closed without its round total") % {
            "round": short.round_number,
            "table": status.number,
        }
    else:
        text = _("Round %(round)s, table %(table)s: closed with %(done)s of %(expected)s deals") % {
            "round": short.round_number,
            "table": status.number,
            "done": status.done,
            "expected": status.expected,
        }
    if status.pending:
        text += " " + ngettext(
            "(%(count)s unconfirmed deal counts nothing)",
            "(%(count)s unconfirmed deals count nothing)",
            status.pending,
        ) % {"count": status.pending}
    return text + "."


def standings_pdf(
    *,
    standings: Standings,
    teams: Sequence[TeamRow],
    short_tables: Sequence[ShortTable] = (),
    hidden_note: str = "",
) -> bytes:
    """``hidden_note``: says which places are left out until the prize ceremony."""
    f = fonts()
    tournament = standings.tournament
    right = [Span(date_format(tournament.date, "SHORT_DATE_FORMAT"), f.regular, 11)]
    if tournament.venue:
        right.append(Span(tournament.venue, f.regular, 11))
    if not standings.finished:
        right.append(Span(_("provisional: results are still missing"), f.bold, 11, RED))
    head = page_head(
        f=f, width=CONTENT_WIDTH, title=_("Standings"), subtitle=tournament.name, right=right
    )
    story: list = [HeadFlowable(head, f)]
    if hidden_note:
        story.append(_note(hidden_note, f, font=f.bold))
        story.append(Spacer(1, 2 * mm))
    if standings.rows:
        story.append(_standings_table(standings, f, columns(standings, f)))
    story.append(Spacer(1, 3 * mm))
    if standings.unresolved_ties:
        story.append(_note(_("= tied: equal total and tie-break, to be decided by lot."), f))
    story.append(_note(_("L: place decided by lot."), f))
    if any(row.withdrawn for row in standings.rows):
        story.append(_note(_("Italic: withdrew from the tournament."), f))
    for short in short_tables:  # the organiser closed the round with these tables unfinished
        story.append(_note(short_table_note(short), f, font=f.bold, color=RED))
    if teams:
        story.extend(_teams(teams, f))
    return build_document(
        story,
        title=f"{_('Standings')} – {tournament.name}",
        fonts=f,
        page_label=_("Page"),
        margins=(MARGIN_TOP, MARGIN_RIGHT, MARGIN_BOTTOM, MARGIN_LEFT),
    )
