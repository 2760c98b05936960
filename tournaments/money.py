"""A tournament's money: entry fees taken at check-in, prize money shared out by place.

Pure rules, below the models that use them; ``treasury.selectors.tournament_money`` reads
one tournament's entries (one query) and its standings and applies them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from clubs.models import Category


def plays_free(*, tournament, category: str) -> bool:
    """Youth play free where the tournament says so (``youth_entry_free``): no fee to take."""
    return bool(tournament.youth_entry_free) and category == Category.YOUTH


def entry_fee_cents(entry) -> int:
    """What this entry pays: the tournament's fee; nothing for a fill-in, nor for youth where
    youth play free."""
    tournament = entry.tournament
    if getattr(entry, "fill_in", False) or plays_free(
        tournament=tournament, category=entry.category
    ):
        return 0
    return tournament.entry_fee_cents


@dataclass(frozen=True)
class PrizeLine:
    rank: int
    entry_id: int
    name: str
    club: str
    total: int
    amount_cents: int
    tied: bool


def share_prizes(rows: Sequence, shares_cents: Sequence[int]) -> list[PrizeLine]:
    """Give place p the amount ``shares_cents[p - 1]``. Players tied on a rank share the amounts
    of the places they occupy equally (whole cents; a cent left over stays in the pot).
    ``rows`` are standings rows in rank order, withdrawn players already left out."""
    lines: list[PrizeLine] = []
    place = 0
    index = 0
    while index < len(rows) and place < len(shares_cents):
        group = [row for row in rows[index:] if row.rank == rows[index].rank]
        pot = sum(shares_cents[place : place + len(group)])
        each = pot // len(group)
        for row in group:
            if each:
                lines.append(
                    PrizeLine(
                        rank=row.rank,
                        entry_id=row.entry_id,
                        name=row.name,
                        club=row.club,
                        total=row.total,
                        amount_cents=each,
                        tied=len(group) > 1,
                    )
                )
        place += len(group)
        index += len(group)
    return lines


def euros(cents: int) -> str:
    """German money format: 1234 → "12,34 €"."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100},{cents % 100:02d} €"
