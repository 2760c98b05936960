"""The prize list, laid out by ReportLab's platypus: the head (tournament, date, venue,
"provisional" while results are missing), the prize money by place and the tournament's money
(fees taken, prizes paid, what stays with the host club) first, then one list per prize group
(everyone on plus, best woman, best youth, the last place) with a column to tick "received"; the column
heads on every page a list continues on, "Seite 2 / 3" on every page.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, KeepTogether, Spacer, Table

from printing.drawing import (
    LINE_HEIGHT,
    MUTED,
    PAGE_WIDTH,
    RED,
    RULE,
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
from tournaments.money import euros as spelt_euros
from tournaments.selectors.standings import StandingRow, Standings
from treasury.selectors import TournamentMoney

MARGIN_TOP, MARGIN_RIGHT, MARGIN_BOTTOM, MARGIN_LEFT = 12 * mm, 12 * mm, 14 * mm, 12 * mm
CONTENT_WIDTH = PAGE_WIDTH - MARGIN_LEFT - MARGIN_RIGHT
RANK_W, NUMBER_W, TOTAL_W, CHECK_W = 16 * mm, 14 * mm, 22 * mm, 24 * mm
PAD = 1.5 * mm
ROW = 7 * mm
SIZE, HEAD_SIZE, MARK_SIZE = 11, 8.5, 8
MONEY_W = 110 * mm
KEEP_WITH_HEADING = 35 * mm  # the heading, the column heads and a few rows
CLUB_MIN = 25 * mm


def euros(cents: int) -> str:
    """1234 → "12,34 €", the sign kept with the amount."""
    return spelt_euros(cents).replace(" ", "\u00a0")


def _cell(f: Fonts, *spans: Span, align: str = "left") -> SpanCell:
    return SpanCell(list(spans), f=f, align=align)


def _heads(f: Fonts, labels: Sequence[tuple[str, str]]) -> list[SpanCell]:
    return [_cell(f, Span(label, f.bold, HEAD_SIZE), align=align) for label, align in labels]


def _rank(f: Fonts, rank: int, tied: bool) -> SpanCell:
    spans = [Span(f"{rank}.", f.regular, SIZE)]
    if tied:
        spans.append(Span(" =", f.regular, MARK_SIZE))
    return _cell(f, *spans, align="right")


def _heading(text: str, f: Fonts, *, first: bool = False) -> list:
    """A list's heading, 5 mm above (none at the top of a page; the first below the head's
    4 mm) and 1.5 mm below; on the next page when its list would not begin below it."""
    heading = _cell(f, Span(text, f.bold, 13))
    heading.spaceBefore = 1 * mm if first else 5 * mm
    heading.spaceAfter = 1.5 * mm
    return [CondPageBreak(KEEP_WITH_HEADING), heading]


def _check_column() -> list[tuple]:
    """The column to tick "received": a line on its left."""
    return [("LINEBEFORE", (-1, 1), (-1, -1), 0.4, RULE)]


def _row_height(name_lines: int, club_lines: int) -> float:
    return max(ROW, max(name_lines, club_lines) * SIZE * LINE_HEIGHT + 2 * mm)


def _name_and_club(
    cells: Sequence[tuple[list[Span], list[Span]]], free: float
) -> tuple[float, float, tuple[float, ...]]:
    """The name's and the club's width (the split whose rows take the least height), and the
    rows' heights."""
    split = share_width(cells, free, pad=PAD, second_min=CLUB_MIN, row_height=_row_height)
    return free - split.second, split.second, split.heights


def _group(rows: Sequence[StandingRow], f: Fonts) -> list:
    if not rows:
        return [_cell(f, Span(_("nobody"), f.italic, 10))]
    cells = [
        (
            [Span(row.last_name, f.bold, SIZE), Span(f", {row.first_name}", f.regular, SIZE)],
            [Span(row.club, f.regular, SIZE)] if row.club else [],
        )
        for row in rows
    ]
    name_w, club_w, heights = _name_and_club(
        cells, CONTENT_WIDTH - RANK_W - NUMBER_W - TOTAL_W - CHECK_W
    )
    table = [
        _heads(
            f,
            [
                (_("Rank"), "right"),
                (_("No."), "right"),
                (_("Name"), "left"),
                (_("Club"), "left"),
                (_("Total"), "right"),
                (_("Received"), "left"),
            ],
        )
    ]
    for row, (name, club) in zip(rows, cells, strict=True):
        table.append(
            [
                _rank(f, row.rank, row.tied),
                _cell(f, Span(str(row.number), f.regular, SIZE), align="right"),
                _cell(f, *name),
                _cell(f, *club),
                _cell(f, Span(str(row.total), f.bold, SIZE), align="right"),
                _cell(f),
            ]
        )
    widths = [RANK_W, NUMBER_W, name_w, club_w, TOTAL_W, CHECK_W]
    return [_table(table, widths, heights, f)]


def _table(rows: list[list], widths: list[float], heights: Sequence[float], f: Fonts):
    """Rows at least 7 mm tall (a name or club that wraps makes its row taller)."""
    return list_table(
        rows,
        font=f.regular,
        widths=widths,
        heights=[None, *heights],
        padding=PAD,
        extra=_check_column(),
    )


def _prizes_by_place(money: TournamentMoney, f: Fonts, *, first: bool = False) -> list:
    cells = [
        (
            [Span(line.name, f.regular, SIZE)],
            [Span(line.club, f.regular, SIZE)] if line.club else [],
        )
        for line in money.prizes
    ]
    name_w, club_w, heights = _name_and_club(cells, CONTENT_WIDTH - RANK_W - 2 * TOTAL_W - CHECK_W)
    table = [
        _heads(
            f,
            [
                (_("Rank"), "right"),
                (_("Name"), "left"),
                (_("Club"), "left"),
                (_("Total"), "right"),
                (_("prize"), "right"),
                (_("Received"), "left"),
            ],
        )
    ]
    for line, (name, club) in zip(money.prizes, cells, strict=True):
        table.append(
            [
                _rank(f, line.rank, line.tied),
                _cell(f, *name),
                _cell(f, *club),
                _cell(f, Span(str(line.total), f.regular, SIZE), align="right"),
                _cell(f, Span(euros(line.amount_cents), f.bold, SIZE), align="right"),
                _cell(f),
            ]
        )
    return [
        *_heading(_("Prize money by place"), f, first=first),
        _table(table, [RANK_W, name_w, club_w, TOTAL_W, TOTAL_W, CHECK_W], heights, f),
    ]


def _money(money: TournamentMoney, f: Fonts, *, first: bool = False) -> list:
    """The tournament's money, as the prize-money page shows it (``clubs/_money.html``)."""
    size = 10
    fees = ngettext(
        "Entry fees taken (%(count)s × %(fee)s)",
        "Entry fees taken (%(count)s × %(fee)s)",
        money.entries_paid,
    ) % {"count": money.entries_paid, "fee": euros(money.entry_fee_cents)}
    rows = [
        [
            _cell(f, Span(fees, f.regular, size)),
            _cell(f, Span(euros(money.fees_taken_cents), f.regular, size), align="right"),
        ],
        [
            _cell(f, Span(_("Prize money paid out"), f.regular, size)),
            _cell(f, Span(f"− {euros(money.prizes_cents)}", f.regular, size), align="right"),
        ],
        [
            _cell(f, Span(_("Remains with the host club"), f.regular, size)),
            _cell(f, Span(euros(money.remainder_cents), f.bold, size), align="right"),
        ],
    ]
    amount_w = 28 * mm
    table = Table(
        rows,
        colWidths=[MONEY_W - amount_w, amount_w],
        hAlign="LEFT",
        style=[
            ("FONT", (0, 0), (-1, -1), f.regular),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LEFTPADDING", (0, 0), (-1, -1), PAD),
            ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
            ("TOPPADDING", (0, 0), (-1, -1), 1 * mm),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1 * mm),
            ("LINEBELOW", (0, 0), (-1, 0), 0.4, RULE),
            ("LINEBELOW", (0, 1), (-1, 1), 1, "#000000"),
        ],
    )
    notes = []
    if money.entries_free:
        notes.append(
            ngettext(
                "%(count)s youth player played free.",
                "%(count)s youth players played free.",
                money.entries_free,
            )
            % {"count": money.entries_free}
        )
    if money.entries_unpaid:
        notes.append(
            ngettext(
                "%(count)s entry fee not taken (%(amount)s).",
                "%(count)s entry fees not taken (%(amount)s).",
                money.entries_unpaid,
            )
            % {"count": money.entries_unpaid, "amount": euros(money.outstanding_cents)}
        )
    story = [*_heading(_("The tournament's money"), f, first=first), table]
    if notes:
        story += [Spacer(1, 3 * mm), _cell(f, Span(" ".join(notes), f.regular, 10, MUTED))]
    if not money.balances:
        problem = _("The prize money is more than the entry fees taken.")
        story += [Spacer(1, 3 * mm), _cell(f, Span(problem, f.bold, 10, RED))]
    return story


def prize_list_pdf(
    *,
    standings: Standings,
    sections: Sequence[tuple[str, Sequence[StandingRow]]],
    money: TournamentMoney,
) -> bytes:
    """``sections``: (heading, rows) for each prize group, in order."""
    f = fonts()
    tournament = standings.tournament
    right = [Span(date_format(tournament.date, "SHORT_DATE_FORMAT"), f.regular, 11)]
    if tournament.venue:
        right.append(Span(tournament.venue, f.regular, 11))
    if not standings.finished:
        right.append(Span(_("provisional: results are still missing"), f.bold, 11, RED))
    head = page_head(
        f=f, width=CONTENT_WIDTH, title=_("Prize list"), subtitle=tournament.name, right=right
    )
    story: list = [HeadFlowable(head, f)]
    has_money = bool(money.prizes or money.fees_taken_cents)
    if has_money:
        # the money first (the prizes are handed out by place), together on one page (as the
        # treasurer reads it)
        money_story = _prizes_by_place(money, f, first=True) if money.prizes else []
        story.append(KeepTogether([*money_story, *_money(money, f, first=not money.prizes)]))
    for index, (title, rows) in enumerate(sections):
        story += [*_heading(title, f, first=index == 0 and not has_money), *_group(rows, f)]
    return build_document(
        story,
        title=f"{_('Prize list')} – {tournament.name}",
        fonts=f,
        page_label=_("Page"),
        margins=(MARGIN_TOP, MARGIN_RIGHT, MARGIN_BOTTOM, MARGIN_LEFT),
    )
