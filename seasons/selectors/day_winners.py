"""The day winners of a series (issue 41): a series over several hosts and pubs has a winner
per evening (the tournament's winner) and an overall winner (the series standings' first)."""

from __future__ import annotations

from dataclasses import dataclass

from seasons.selectors.standings import SeasonRow, SeasonStandings
from tournaments.models import Tournament


@dataclass(frozen=True)
class DayWinner:
    """The winner of one evening of a series (place 1 of the tournament: all of them when
    tied), where the tournament was played, and whether it is one of the series' own."""

    tournament: Tournament
    winners: tuple[SeasonRow, ...]
    total: int | None
    home: bool


def day_winners(*, result: SeasonStandings) -> tuple[DayWinner, ...]:
    """Each played tournament of the series with its winner(s), from the standings already
    read (no query): a series over several hosts and pubs has a day winner per evening and an
    overall winner (the standings' first place)."""
    found = []
    for index, tournament in enumerate(result.tournaments):
        winners = tuple(
            row for row in result.rows if index < len(row.places) and row.places[index] == 1
        )
        if not winners:
            continue  # not played yet, or no results
        found.append(
            DayWinner(
                tournament=tournament,
                winners=tuple(sorted(winners, key=lambda row: (row.last_name, row.first_name))),
                total=winners[0].tournament_totals[index],
                home=tournament.season_id == result.season.pk,
            )
        )
    return tuple(found)
