"""The treasurer's figures: a tournament's money (fees taken at check-in, prizes, what
remains) and a club's season (members, annual fees, the fees taken at its tournaments)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from clubs.models import AnnualFee, Club, Membership
from clubs.selectors import season_fee_cents, season_memberships
from tournaments.models import Entry
from tournaments.money import PrizeLine, entry_fee_cents, share_prizes


@dataclass(frozen=True)
class TournamentMoney:
    entry_fee_cents: int
    fees_taken_cents: int
    entries_paid: int
    entries_free: int  # youth who play free
    entries_unpaid: int
    outstanding_cents: int
    prizes: tuple[PrizeLine, ...]
    # Signed up, never there (not ranked) and not paid: no fee owed, shown apart.
    entries_absent: int = 0

    @property
    def prizes_cents(self) -> int:
        return sum(line.amount_cents for line in self.prizes)

    @property
    def remainder_cents(self) -> int:
        """What stays with the host club after the prizes (negative: prizes exceed the pot)."""
        return self.fees_taken_cents - self.prizes_cents

    @property
    def balances(self) -> bool:
        return self.remainder_cents >= 0


def tournament_money(*, tournament, standings) -> TournamentMoney:
    from tournaments.models import Entry

    taken = paid = free = unpaid = outstanding = absent = 0
    # Whoever the standings rank was there; a player who never came (signed up online, never
    # checked in nor drawn) owes no fee: the till counts them apart.
    came = {row.entry_id for row in standings.rows}
    for entry in Entry.objects.filter(tournament=tournament).select_related("tournament"):
        fee = entry_fee_cents(entry)
        if fee == 0:
            free += 1
        elif entry.fee_paid:
            paid += 1
            taken += fee
        elif entry.pk not in came and entry.withdrawn_after_round != 0:
            absent += 1
        elif entry.withdrawn_after_round != 0:
            unpaid += 1
            outstanding += fee
    playing = [
        row
        for row in standings.rows
        if not row.withdrawn
        and not row.fill_in  # a fill-in takes no prize
        and any(total is not None for total in row.round_totals)
    ]
    return TournamentMoney(
        entry_fee_cents=tournament.entry_fee_cents,
        fees_taken_cents=taken,
        entries_paid=paid,
        entries_free=free,
        entries_unpaid=unpaid,
        outstanding_cents=outstanding,
        prizes=tuple(share_prizes(playing, tournament.prize_shares_cents or [])),
        entries_absent=absent,
    )


@dataclass(frozen=True)
class FeeLine:
    membership: Membership
    fee: AnnualFee | None
    entry_fees_cents: int  # entry fees this member paid at the season's tournaments
    entries_unpaid: int  # entries in the season without the fee taken
    cash_cents: int | None = None  # "paid in cash today" would record this (None: not offered)

    @property
    def owes_cents(self) -> int:
        if self.fee is None or self.fee.paid:
            return 0
        return self.fee.amount_cents


@dataclass(frozen=True)
class TreasurerView:
    club: Club
    season: object
    lines: tuple[FeeLine, ...]

    @property
    def due_cents(self) -> int:
        return sum(line.fee.amount_cents for line in self.lines if line.fee is not None)

    @property
    def paid_cents(self) -> int:
        return sum(line.fee.amount_cents for line in self.lines if line.fee and line.fee.paid)

    @property
    def owed_cents(self) -> int:
        return sum(line.owes_cents for line in self.lines)

    @property
    def entry_fees_cents(self) -> int:
        return sum(line.entry_fees_cents for line in self.lines)

    @property
    def without_fee(self) -> int:
        return sum(1 for line in self.lines if line.fee is None)


def treasurer_view(*, club: Club, season) -> TreasurerView:
    """Every member of the club in the season: the annual fee (due, paid, how) and the entry
    fees taken from them at the season's tournaments. Three queries."""
    from tournaments.models import Entry
    from tournaments.money import entry_fee_cents

    memberships = list(season_memberships(club=club, season=season))
    fees = {
        fee.membership_id: fee
        for fee in AnnualFee.objects.filter(season=season, membership__club=club)
    }
    player_ids = [m.player_id for m in memberships]
    taken: dict[int, int] = {}
    unpaid: dict[int, int] = {}
    entries: Iterable[Entry] = Entry.objects.filter(
        tournament__season=season, player_id__in=player_ids
    ).select_related("tournament")
    for entry in entries:
        if entry.fee_paid:
            taken[entry.player_id] = taken.get(entry.player_id, 0) + entry_fee_cents(entry)
        elif entry_fee_cents(entry):
            unpaid[entry.player_id] = unpaid.get(entry.player_id, 0) + 1
    season_fee = {
        status: season_fee_cents(fees=fees.values(), status=status)
        for status in Membership.Status.values
    }

    def cash_cents(membership: Membership) -> int | None:
        fee = fees.get(membership.pk)
        if fee is None:
            return season_fee[membership.status]
        return None if fee.paid else fee.amount_cents

    lines = tuple(
        FeeLine(
            membership=m,
            fee=fees.get(m.pk),
            entry_fees_cents=taken.get(m.player_id, 0),
            entries_unpaid=unpaid.get(m.player_id, 0),
            cash_cents=cash_cents(m),
        )
        for m in memberships
    )
    return TreasurerView(club=club, season=season, lines=lines)
