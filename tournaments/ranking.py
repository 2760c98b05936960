"""Places by total and team ranking as pure functions (no Django, no database); the season's
rules build on them (``seasons.ranking``).

Places: equal totals share a place (1, 2, 2, 4).

Teams: a team's tournament total is the sum of its members' totals. Complete teams (four
members who all played) are ranked first, incomplete ones after them, each group by total.
Over a season a team (same name) adds up its tournament totals.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

Key = TypeVar("Key", bound=Hashable)


def competition_ranks(values: Sequence[int]) -> list[int]:
    """Ranks of ``values`` already sorted best first: equal values share a rank (1, 2, 2, 4)."""
    ranks: list[int] = []
    for index, value in enumerate(values):
        if index and value == values[index - 1]:
            ranks.append(ranks[-1])
        else:
            ranks.append(index + 1)
    return ranks


def places(totals: dict[Key, int]) -> dict[Key, int]:
    """Place of everyone in one tournament by total (equal totals share the place)."""
    ordered = sorted(totals.items(), key=lambda item: -item[1])
    ranks = competition_ranks([total for _, total in ordered])
    return {key: rank for (key, _), rank in zip(ordered, ranks, strict=True)}


@dataclass(frozen=True)
class TeamResult:
    key: Hashable
    name: str
    members: int  # members registered
    played: int  # members with a result
    total: int


@dataclass(frozen=True)
class RankedTeam:
    rank: int
    team: TeamResult
    complete: bool
    tied: bool


def rank_teams(teams: Iterable[TeamResult], *, size: int = 4) -> list[RankedTeam]:
    """Complete teams (``size`` members who all played) by total, then incomplete ones.

    Ranks run on through both groups: an incomplete team never ranks above a complete one,
    whatever its total.
    """
    teams = list(teams)

    def complete(team: TeamResult) -> bool:
        return team.members == size and team.played == size

    rows: list[RankedTeam] = []
    for group in (
        [t for t in teams if complete(t)],
        [t for t in teams if not complete(t)],
    ):
        group.sort(key=lambda t: (-t.total, t.name))
        ranks = competition_ranks([t.total for t in group])
        offset = len(rows)
        for team, rank in zip(group, ranks, strict=True):
            tied = sum(1 for r in ranks if r == rank) > 1
            rows.append(RankedTeam(offset + rank, team, complete(team), tied))
    return rows


def team_key(name: str) -> str:
    """Teams of one season are the same team when their names match (case and spaces aside)."""
    return " ".join(name.split()).casefold()
