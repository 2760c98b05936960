"""The overall ranking of a simultaneous Cego day, as pure functions (no Django).

Free-deal Cego needs no normalisation: every hall plays the same rule source and the same
number of deals, and a hall is already a set of independent tables, so the day's overall
ranking is every hall's players by total, "as if under one roof". The tournament's rule
applies (``tournaments.ranking``): equal totals share a place (1, 2, 2, 4). A hall's tie-break
and its draw by lot decide places inside that hall only; across halls equal totals stay
tied (a lot drawn in one hall cannot order a player of another). Fill-ins have no place in
their hall and none overall; hidden places (the prize ceremony) are left out by the caller.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tournaments.ranking import competition_ranks


@dataclass(frozen=True)
class HallRow:
    """One player's result in one hall (its section)."""

    section: int  # the section's id
    entry: int  # the entry's id in that hall's tournament
    name: str
    club: str
    total: int
    deals_played: int
    sort_name: str = ""  # the German order of names, for equal totals (display only)


@dataclass(frozen=True)
class OverallRow:
    rank: int
    tied: bool
    row: HallRow


def overall(rows: Iterable[HallRow]) -> list[OverallRow]:
    """Every hall's rows in one ranking: by total, best first; equal totals share the place
    and are marked tied (listed by name, then hall, then entry, so the order is stable)."""
    ordered = sorted(rows, key=lambda r: (-r.total, r.sort_name or r.name, r.section, r.entry))
    ranks = competition_ranks([row.total for row in ordered])
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    return [
        OverallRow(rank=rank, tied=counts[rank] > 1, row=row)
        for rank, row in zip(ranks, ordered, strict=True)
    ]


@dataclass(frozen=True)
class Fit:
    """What a day asks of a hall's tournament."""

    rules_slug: str
    rounds: int
    deals_per_round: int


def misfits(day: Fit, tournament: Fit) -> list[str]:
    """The fields in which ``tournament`` differs from ``day`` (``rules_slug``, ``rounds``,
    ``deals_per_round``); empty when it fits."""
    return [
        name
        for name in ("rules_slug", "rounds", "deals_per_round")
        if getattr(day, name) != getattr(tournament, name)
    ]
