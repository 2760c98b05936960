"""Who gets a prize: everyone on plus, best woman, best youth and the last place; who gets a
certificate: the first places of the overall ranking, of each category and of the teams."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from clubs.models import Category
from tournaments.selectors.standings import StandingRow, Standings, TeamRow


@dataclass(frozen=True)
class PrizeGroups:
    on_plus: list[StandingRow]
    best_woman: list[StandingRow]
    best_youth: list[StandingRow]
    last: list[StandingRow]  # the "Mauskönig"


def _playing(standings: Standings) -> list[StandingRow]:
    """Who takes part in prizes and certificates: not withdrawn, no fill-in, played."""
    return [
        row
        for row in standings.rows
        if not row.withdrawn
        and not row.fill_in
        and any(total is not None for total in row.round_totals)
    ]


def prize_groups(standings: Standings) -> PrizeGroups:
    """Players who withdrew or never played take no part, nor do fill-ins; tied players all
    appear (until the lot separates them). The last place is only named once more than one
    player has played."""
    playing = _playing(standings)

    def first_of(rows: list[StandingRow]) -> list[StandingRow]:
        return [row for row in rows if row.rank == rows[0].rank] if rows else []

    last_rank = playing[-1].rank if len(playing) > 1 else None
    return PrizeGroups(
        on_plus=[row for row in playing if row.total > 0],
        best_woman=first_of([row for row in playing if row.category == Category.WOMAN]),
        best_youth=first_of([row for row in playing if row.category == Category.YOUTH]),
        last=[row for row in playing if row.rank == last_rank],
    )


# --- certificates ---------------------------------------------------------------------------

OVERALL, TEAMS = "overall", "teams"
# The side rankings by category, in the order the certificates come (the open class has none:
# it is the overall ranking).
CATEGORY_RANKINGS = (Category.WOMAN, Category.YOUTH, Category.SENIOR)


@dataclass(frozen=True)
class Placing:
    """One certificate: ``place`` in ``ranking`` (``OVERALL``, a category's code or
    ``TEAMS``); a player's ``row``, or a team's ``team``."""

    ranking: str
    place: int
    total: int
    row: StandingRow | None = None
    team: TeamRow | None = None


def _placed(rows: list[StandingRow], places: int) -> list[tuple[int, StandingRow]]:
    """The rows in the first ``places`` places of ``rows`` (best first), each with its place
    there: tied rows share the place (and all are named), the next place counts them."""
    out = []
    for row in rows:
        place = 1 + sum(1 for other in rows if other.rank < row.rank)
        if place > places:
            break
        out.append((place, row))
    return out


def certificate_placings(
    standings: Standings, *, teams: Sequence[TeamRow], places: int
) -> list[Placing]:
    """The places ``1 … places`` of the overall ranking, of every category's side ranking that
    has a player (places counted among its players), and of the complete teams: players who
    take part in the prizes (:func:`prize_groups`), tied ones sharing a place."""
    playing = _playing(standings)
    # the overall place is the standings' rank (a withdrawn player keeps his)
    placings = [
        Placing(ranking=OVERALL, place=row.rank, total=row.total, row=row)
        for row in playing
        if row.rank <= places
    ]
    for category in CATEGORY_RANKINGS:
        rows = [row for row in playing if row.category == category]
        placings += [
            Placing(ranking=category, place=place, total=row.total, row=row)
            for place, row in _placed(rows, places)
        ]
    placings += [
        Placing(ranking=TEAMS, place=team.rank, total=team.total, team=team)
        for team in teams
        if team.complete and team.rank <= places
    ]
    return placings
