"""Who gets a prize: everyone on plus, best woman, best youth and the last place."""

from __future__ import annotations

from dataclasses import dataclass

from clubs.models import Category
from tournaments.selectors.standings import StandingRow, Standings


@dataclass(frozen=True)
class PrizeGroups:
    on_plus: list[StandingRow]
    best_woman: list[StandingRow]
    best_youth: list[StandingRow]
    last: list[StandingRow]  # the "Mauskönig"


def prize_groups(standings: Standings) -> PrizeGroups:
    """Players who withdrew or never played take no part, nor do fill-ins; tied players all
    appear (until the lot separates them). The last place is only named once more than one
    player has played."""
    playing = [
        row
        for row in standings.rows
        if not row.withdrawn
        and not row.fill_in
        and any(total is not None for total in row.round_totals)
    ]

    def first_of(rows: list[StandingRow]) -> list[StandingRow]:
        return [row for row in rows if row.rank == rows[0].rank] if rows else []

    last_rank = playing[-1].rank if len(playing) > 1 else None
    return PrizeGroups(
        on_plus=[row for row in playing if row.total > 0],
        best_woman=first_of([row for row in playing if row.category == Category.WOMAN]),
        best_youth=first_of([row for row in playing if row.category == Category.YOUTH]),
        last=[row for row in playing if row.rank == last_rank],
    )
