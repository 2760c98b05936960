"""A tournament's standings as a workbook: the ranking, the open tables and the teams."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from django.utils.translation import gettext as _

from clubs.models import category_label
from exports.xlsx import Points, Sheet, write_workbook
from tournaments.selectors.standings import (
    Standings,
    TeamRow,
)


def _flags(row) -> str:
    marks = []
    if row.tied:
        marks.append(_("tied"))
    if row.decided_by_lot:
        marks.append(_("decided by lot"))
    if row.withdrawn:
        marks.append(_("withdrawn"))
    if getattr(row, "fill_in", False):
        marks.append(_("fill-in, not ranked"))
    return ", ".join(str(m) for m in marks)


def tournament_standings_rows(standings: Standings) -> Iterator[list]:
    """Header, then one row per player in rank order."""
    yield [
        _("Rank"),
        _("No."),
        _("First name"),
        _("Last name"),
        _("Club"),
        _("Category"),
        *[_("Round %(number)s") % {"number": n} for n in standings.round_numbers],
        _("Total"),
        _("Deals played"),
        _("Deals won as declarer"),
        _("Note"),
    ]
    for row in standings.rows:
        yield [
            None if row.fill_in else row.rank,  # a fill-in has no place
            row.number,
            row.first_name,
            row.last_name,
            row.club,
            category_label(row.category),
            *[None if total is None else Points(total) for total in row.round_totals],
            Points(row.total),
            row.deals_played,
            row.declarer_wins,
            _flags(row),
        ]


def open_tables_rows(standings: Standings) -> Iterator[list]:
    yield [_("Round"), _("Table"), _("Confirmed deals"), _("Pending deals"), _("Expected deals")]
    for table in standings.open_tables:
        yield [
            table.round_number,
            table.table_number,
            table.deals_confirmed,
            table.deals_pending,
            table.deals_expected,
        ]


def team_rows(teams: Sequence[TeamRow]) -> Iterator[list]:
    yield [
        _("Rank"),
        _("Team"),
        _("Club"),
        _("Members"),
        _("Total"),
        _("Complete"),
    ]
    for team in teams:
        yield [
            team.rank,
            team.name,
            team.club,
            "; ".join(f"{m.name} ({m.total:+d})" for m in team.members),
            Points(team.total),
            _("yes") if team.complete else _("no"),
        ]


def tournament_workbook(standings: Standings, teams: Sequence[TeamRow] = ()) -> bytes:
    rounds = len(standings.round_numbers)
    sheets = [
        Sheet(
            _("Standings"),
            tournament_standings_rows(standings),
            widths=[7, 6, 16, 18, 10, 10, *[10] * rounds, 10, 8, 8, 20],
            freeze="E",
        ),
        Sheet(_("Open tables"), open_tables_rows(standings), widths=[8, 8, 14, 14, 14]),
    ]
    if teams:
        sheets.append(Sheet(_("Teams"), team_rows(teams), widths=[7, 24, 12, 60, 10, 10]))
    return write_workbook(sheets)
