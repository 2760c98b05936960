"""Read-only queries of the club area, each in a constant number of queries."""

from __future__ import annotations

import datetime as dt
from collections import Counter

from django.db.models import Prefetch, Q, QuerySet

from clubs.models import Club, ClubAlias, Membership, Player
from clubs.search import club_key, normalise, player_key, similar_keys


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
    ).order_by("sort_key", "pk")


def players_named(*, first_name: str, last_name: str, exclude_pk: int | None = None) -> QuerySet:
    """Players with the same name as written differently ("Müller" / "Mueller")."""
    players = Player.objects.filter(search_key=player_key(first_name, last_name))
    if exclude_pk is not None:
        players = players.exclude(pk=exclude_pk)
    return players.prefetch_related(
        Prefetch("memberships", queryset=Membership.objects.select_related("club"))
    ).order_by("pk")


def players_like(
    *,
    first_name: str,
    last_name: str,
    exclude_pk: int | None = None,
    limit: int = 8,
    memberships: QuerySet | None = None,
) -> list[Player]:
    """Players of the same name however spelt ("Müller" / "Mueller") and of a near-miss
    spelling ("Brigite Baumer" for "Brigitte Baumer"): the same name first, then the closest.
    Two queries: the keys of every player, compared in C by rapidfuzz, then the few found.
    ``memberships``: those to prefetch (e.g. those the user may see), or all."""
    keys = Player.objects.values_list("pk", "search_key")
    if exclude_pk is not None:
        keys = keys.exclude(pk=exclude_pk)
    pks, choices = [], []
    for pk, search_key in keys:
        pks.append(pk)
        choices.append(search_key.strip())
    found = similar_keys(player_key(first_name, last_name), choices, limit=limit)
    order = {pks[index]: (-score, pks[index]) for index, score in found}
    if memberships is None:
        memberships = Membership.objects.all()
    players = Player.objects.filter(pk__in=order).prefetch_related(
        Prefetch("memberships", queryset=memberships.select_related("club"))
    )
    return sorted(players, key=lambda p: order[p.pk])


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
        .order_by("sort_key", "pk")
    )


def season_memberships(*, club: Club, season) -> QuerySet:
    """Memberships of ``club`` that overlap the season (joined before its end, not left
    before its start)."""
    return (
        Membership.objects.filter(club=club)
        .filter(Q(since__isnull=True) | Q(since__lte=season.ends_on))
        .filter(Q(left_on__isnull=True) | Q(left_on__gte=season.starts_on))
        .select_related("player", "club")
        .order_by("player__sort_key", "pk")
    )


def tournaments_played(*, player_ids) -> dict[int, list[tuple]]:
    """Per player, the tournaments entered as (date, name), newest first: what tells two
    records of one name apart before a merge. One query."""
    played: dict[int, list[tuple]] = {pk: [] for pk in player_ids}
    rows = (
        Player.objects.filter(pk__in=played, entries__isnull=False)
        .values_list("pk", "entries__tournament__date", "entries__tournament__name")
        .order_by("pk", "-entries__tournament__date")
    )
    for pk, date, name in rows:
        played[pk].append((date, name))
    return played


def season_fee_cents(*, fees, status: str) -> int | None:
    """The season's fee for a member of ``status``, as the club charged it: the amount most of
    its fee rows of that status carry (``fees``: the club's fee rows of the season). None
    when nothing was charged yet."""
    amounts = Counter(fee.amount_cents for fee in fees if fee.status == status)
    return amounts.most_common(1)[0][0] if amounts else None


def clubs_by_key() -> dict[str, Club]:
    """Every club by the key of its name, its short name and each remembered spelling
    (``ClubAlias``, ``clubs.search.club_key``): how a club typed as text is found, as a
    member list's club is (two queries). A name first, then a short name, then a spelling."""
    clubs = list(Club.objects.all())
    by_id = {club.pk: club for club in clubs}
    found: dict[str, Club] = {}
    for club in clubs:
        found.setdefault(club_key(club.name), club)
    for club in clubs:
        found.setdefault(club_key(club.short_name), club)
    for key, club_id in ClubAlias.objects.values_list("key", "club_id"):
        if club_id in by_id:
            found.setdefault(key, by_id[club_id])
    found.pop("", None)
    return found
