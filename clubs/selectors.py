"""Read-only queries of the club area, each in a constant number of queries."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Prefetch, Q, QuerySet

from clubs.models import AnnualFee, Club, Membership, Player
from clubs.search import normalise, player_key


def search_players(*, query: str = "", club: Club | None = None, category: str = "") -> QuerySet:
    """Players whose names contain every word of ``query``, spelling-tolerant: "Mueller"
    finds "Müller", "weisshaar" finds "Weißhaar". Memberships come prefetched (2 queries)."""
    players = Player.objects.all()
    for word in normalise(query).split():
        players = players.filter(search_key__contains=word)
    if club is not None:
        players = players.filter(memberships__club=club)
    if category:
        players = players.filter(category=category)
    return players.prefetch_related(
        Prefetch("memberships", queryset=Membership.objects.select_related("club"))
    ).order_by("last_name", "first_name", "pk")


def players_named(*, first_name: str, last_name: str, exclude_pk: int | None = None) -> QuerySet:
    """Players with the same name as written differently ("Müller" / "Mueller")."""
    players = Player.objects.filter(search_key=player_key(first_name, last_name))
    if exclude_pk is not None:
        players = players.exclude(pk=exclude_pk)
    return players.prefetch_related(
        Prefetch("memberships", queryset=Membership.objects.select_related("club"))
    ).order_by("pk")


def active_members(*, club: Club, on: dt.date) -> QuerySet:
    """Players who are active members of ``club`` on the day ``on``."""
    return (
        Player.objects.filter(
            memberships__club=club,
            memberships__status=Membership.Status.ACTIVE,
        )
        .filter(Q(memberships__since__isnull=True) | Q(memberships__since__lte=on))
        .filter(Q(memberships__left_on__isnull=True) | Q(memberships__left_on__gte=on))
        .distinct()
        .order_by("last_name", "first_name")
    )


@dataclass(frozen=True)
class FeeLine:
    membership: Membership
    fee: AnnualFee | None
    entry_fees_cents: int  # entry fees this member paid at the season's tournaments
    entries_unpaid: int  # entries in the season without the fee taken

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


def season_memberships(*, club: Club, season) -> QuerySet:
    """Memberships of ``club`` that overlap the season (joined before its end, not left
    before its start)."""
    return (
        Membership.objects.filter(club=club)
        .filter(Q(since__isnull=True) | Q(since__lte=season.ends_on))
        .filter(Q(left_on__isnull=True) | Q(left_on__gte=season.starts_on))
        .select_related("player", "club")
        .order_by("player__last_name", "player__first_name", "pk")
    )


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
    lines = tuple(
        FeeLine(
            membership=m,
            fee=fees.get(m.pk),
            entry_fees_cents=taken.get(m.player_id, 0),
            entries_unpaid=unpaid.get(m.player_id, 0),
        )
        for m in memberships
    )
    return TreasurerView(club=club, season=season, lines=lines)
