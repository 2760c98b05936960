"""The season workbook: overview, standings, one sheet per tournament, every deal, the side
rankings and the teams; written to a file so that memory stays flat."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import BinaryIO

from django.utils.translation import gettext as _

from clubs.models import category_label
from exports.xlsx import DATE_FORMAT, Points, Sheet, write_workbook
from seasons.selectors.deals import (
    DEALS_CHUNK,
    DealLine,
    TournamentLine,
    season_deals,
    season_tournaments,
)
from seasons.selectors.standings import (
    SeasonSide,
    SeasonStandings,
    TournamentRows,
    season_sides,
    season_standings,
    season_tournament_standings,
)
from seasons.words import (
    movement_symbol,
    plan_text,
    qualification_text,
    season_rule_text,
    side_label,
)
from tournaments.models import MAX_SEATS, Deal
from tournaments.selectors.standings import Standings
from tournaments.tables_standings import tournament_column_labels


def season_overview_preamble(season, plan=None) -> list[list]:
    """The overview's head: the season, its rules, and with a final what its column assumes
    about the tournaments to come (``plan``: the standings' ``SeasonPlan``)."""
    return [
        [_("Season"), season.name],
        [_("From"), season.starts_on],
        [_("To"), season.ends_on],
        [_("Season rule"), season_rule_text(season)],
        [_("Minimum tournaments to be ranked"), season.min_tournaments],
        *(
            [[_("tournaments needed for the final"), season.final_min_tournaments]]
            if season.final_min_tournaments
            else []
        ),
        *(
            [[_("Final: tournaments to come"), plan_text(plan)]]
            if season.final_min_tournaments and plan is not None
            else []
        ),
        [],
    ]


def season_overview_rows(lines: Sequence[TournamentLine]) -> Iterator[list]:
    yield [
        _("Date"),
        _("Tournament"),
        _("Host club"),
        _("Venue"),
        _("Rule source"),
        _("Players"),
        _("Teams"),
        _("Deals"),
    ]
    for line in lines:
        yield [
            line.date,
            line.name,
            line.host,
            line.venue,
            line.rules,
            line.players,
            line.teams,
            line.deals,
        ]


def is_cup(standings: SeasonStandings) -> bool:
    return standings.season.scoring == "cup"


def season_standings_rows(standings: SeasonStandings) -> Iterator[list]:
    """One row per player; per tournament its total, or in a cup season two number columns,
    the place and the cup points it gives (so that they can be summed)."""
    best_n = standings.season.scoring == "best_n"
    final = bool(standings.season.final_min_tournaments)
    cup = is_cup(standings)
    columns = tournament_columns(standings.tournaments)
    place, points = _("place"), _("cup points")
    yield [
        _("Rank"),
        _("First name"),
        _("Last name"),
        _("Club"),
        _("Category"),
        *(
            [
                heading
                for column in columns
                for heading in (f"{column} {place}", f"{column} {points}")
            ]
            if cup
            else columns
        ),
        _("Total"),
        _("Tournaments played"),
        *([_("Results not counted")] if best_n else []),
        *([_("Final")] if final else []),
        _("Change of place"),
    ]
    short = tournament_column_labels(standings.tournaments)
    for row in standings.rows:
        dropped = [
            label
            for label, total, counted in zip(short, row.tournament_totals, row.counted, strict=True)
            if total is not None and not counted
        ]
        yield [
            row.rank,
            row.first_name,
            row.last_name,
            row.club,
            category_label(row.category),
            *(
                [value for cell in (row.cup or (None,) * len(columns)) for value in cup_cells(cell)]
                if cup
                else [None if total is None else Points(total) for total in row.tournament_totals]
            ),
            Points(row.total),
            row.tournaments_played,
            *([", ".join(dropped)] if best_n else []),
            *(
                [qualification_text(row.qualification) if row.qualification else None]
                if final
                else []
            ),
            movement_symbol(row.movement) if row.movement else None,
        ]


def tournament_columns(tournaments) -> list[str]:
    """The tournaments' column headings: their dates (which the overview sheet names), never
    two alike (``tables_standings.tournament_column_labels``)."""
    return tournament_column_labels(tournaments, year=True)


def cup_cells(cell: tuple[int, int] | None) -> tuple[int | None, int | None]:
    """A cup season's tournament as two number cells: the place and the cup points."""
    return (None, None) if cell is None else (cell[0], cell[1])


def widths_for(header: Sequence, at_least: Sequence[float]) -> list[float]:
    """Column widths wide enough for each heading (bold, a little wider than its letters) and
    for ``at_least``, so that no heading runs into its neighbour; at most 40."""
    return [
        min(40.0, max(at_least[i] if i < len(at_least) else 8, len(str(text)) * 1.15 + 2))
        for i, text in enumerate(header)
    ]


def season_side_rows(sides: Sequence[SeasonSide]) -> Iterator[list]:
    yield [_("Ranking"), _("Rank"), _("First name"), _("Last name"), _("Club"), _("Total")]
    for side in sides:
        for item in side.rows:
            yield [
                side_label(side.key),
                item.rank,
                item.row.first_name,
                item.row.last_name,
                item.row.club,
                Points(item.row.total),
            ]


def season_team_rows(standings: SeasonStandings) -> Iterator[list]:
    yield [
        _("Rank"),
        _("Team"),
        *tournament_columns(standings.tournaments),
        _("Total"),
        _("Complete"),
    ]
    for team in standings.teams:
        yield [
            team.rank,
            team.name,
            *[None if total is None else Points(total) for total in team.tournament_totals],
            Points(team.total),
            _("yes") if team.complete else _("no"),
        ]


def tournament_sheet_rows(standings: Standings | TournamentRows) -> Iterator[list]:
    yield [
        _("Rank"),
        _("Player"),
        _("Club"),
        *[_("Round %(number)s") % {"number": n} for n in standings.round_numbers],
        _("Total"),
        _("Games won as declarer"),
    ]
    for row in standings.rows:
        yield [
            row.rank,
            f"{row.last_name}, {row.first_name}",
            row.club,
            *[None if total is None else Points(total) for total in row.round_totals],
            Points(row.total),
            row.declarer_wins,
        ]


def season_deal_rows(lines: Iterable[DealLine]) -> Iterator[list]:
    status_labels = {value: str(label) for value, label in Deal.Status.choices}
    yield [
        _("Date"),
        _("Tournament"),
        _("Round"),
        _("Table"),
        _("Deal"),
        _("Dealer"),
        _("Contract"),
        _("Declarer"),
        _("Card points"),
        _("Won"),
        *[
            label % {"seat": seat}
            for seat in range(1, MAX_SEATS + 1)
            for label in (_("Seat %(seat)s player"), _("Seat %(seat)s score"))
        ],
        _("Status"),
        _("Corrected"),
    ]
    yes, no = str(_("yes")), str(_("no"))
    total_label = str(_("round total"))
    voided_label = str(_("table voided"))
    for line in lines:
        seats: list = []
        for name, score in line.seats:
            seats += [name, None if score is None else Points(score)]
        seats += [None] * (2 * MAX_SEATS - len(seats))
        status = status_labels.get(line.status, line.status)
        if line.table_voided:
            status = f"{status}, {voided_label}"
        yield [
            line.date,
            line.tournament,
            line.round,
            line.table,
            line.number,
            line.dealer,
            total_label if line.kind == Deal.Kind.TOTAL else line.contract,
            line.declarer,
            line.declarer_points,
            None if line.won is None else (yes if line.won else no),
            *seats,
            status,
            yes if line.corrected else no,
        ]


def season_workbook(
    season, target: BinaryIO | None = None, *, chunk_size: int = DEALS_CHUNK
) -> bytes | None:
    """The season scorer's workbook: overview, standings, one sheet per tournament, every
    deal, side rankings and teams. Rows are streamed; see ``write_workbook`` for ``target``."""
    standings = season_standings(season=season)
    lines = season_tournaments(season=season)

    def tournament_sheets() -> Iterator[Sheet]:
        for result in season_tournament_standings(season=season):
            tournament = result.tournament
            if not any(
                row.round_totals and any(t is not None for t in row.round_totals)
                for row in result.rows
            ):
                continue  # not played yet: registered players are no ranking
            yield Sheet(
                f"{tournament.date:%d.%m.} {tournament.name}",
                tournament_sheet_rows(result),
                widths=widths_for(
                    next(tournament_sheet_rows(result)),
                    [7, 26, 22, *[10] * len(result.round_numbers), 10, 12],
                ),
                freeze="C",
            )

    tournaments = len(standings.tournaments)
    preamble = season_overview_preamble(season, standings.plan)
    sheets = [
        Sheet(
            _("Overview"),
            season_overview_rows(lines),
            widths=widths_for(
                next(season_overview_rows(lines)),
                # the first column also holds the preamble's labels ("Season rule", …)
                [
                    max(13, *(len(str(line[0])) + 2 for line in preamble if line)),
                    32,
                    26,
                    20,
                    30,
                    8,
                    8,
                    8,
                ],
            ),
            preamble=preamble,
            formats=[DATE_FORMAT],
        ),
        Sheet(
            _("Season standings"),
            season_standings_rows(standings),
            widths=widths_for(
                next(season_standings_rows(standings)),
                [
                    7,
                    14,
                    18,
                    22,
                    10,
                    *([7, 9] * tournaments if is_cup(standings) else [8] * tournaments),
                    8,
                    8,
                    16,
                ],
            ),
            freeze="D",
        ),
        *tournament_sheets(),
        Sheet(
            _("Deals"),
            season_deal_rows(season_deals(season=season, chunk_size=chunk_size)),
            widths=widths_for(
                next(season_deal_rows(())),
                [11, 24, 6, 6, 6, 22, 16, 22, 8, 7, *[22, 8] * MAX_SEATS, 18, 10],
            ),
            freeze="F",
            formats=[DATE_FORMAT],
        ),
        Sheet(
            _("Side rankings"),
            season_side_rows(season_sides(result=standings)),
            widths=widths_for(next(season_side_rows(())), [14, 7, 16, 18, 22, 10]),
        ),
        Sheet(
            _("Teams"),
            season_team_rows(standings),
            widths=widths_for(
                next(season_team_rows(standings)), [7, 24, *[8] * tournaments, 8, 10]
            ),
            freeze="C",
        ),
    ]
    return write_workbook(sheets, target)
