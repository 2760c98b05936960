"""Read-only queries of the club area, each in a constant number of queries."""

from __future__ import annotations

import datetime as dt

from django.db.models import Prefetch, Q, QuerySet

from clubs.models import Club, Membership, Player
from clubs.search import normalise, player_key


def search_players(
    *,
    query: str = "",
    club: Club | None = None,
    category: str = "",
    memberships: QuerySet | None = None,
) -> QuerySet:
    """Players whose names contain every word of ``query``, spelling-tolerant: "Mueller"
    finds "Müller", "weisshaar" finds "Weißhaar". Memberships come prefetched (2 queries):
    ``memberships``, a queryset of them (e.g. those the user may see), or all."""
    players = Player.objects.all()
    for word in normalise(query).split():
        players = players.filter(search_key__contains=word)
    if club is not None:
        players = players.filter(memberships__club=club)
    if category:
        players = players.filter(category=category)
    if memberships is None:
        memberships = Membership.objects.all()
    return players.prefetch_related(
        Prefetch("memberships", queryset=memberships.select_related("club"))
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
