"""Reads of the hall's messages (``tournaments.services.hall``): the open calls for the
referee (the desk's banner), the day's calls, the announcements shown. One query each."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q
from django.utils import timezone

from tournaments.models import Announcement, RefereeCall, Tournament


def open_calls(*, tournament: Tournament) -> list[RefereeCall]:
    """The calls nobody has closed yet, the oldest first (with table and round)."""
    return list(
        RefereeCall.objects.filter(tournament=tournament, closed_at__isnull=True)
        .select_related("table__round")
        .order_by("called_at", "pk")
    )


def day_calls(*, tournament: Tournament) -> list[RefereeCall]:
    """Every call of the tournament: the open ones first (oldest first), then the closed
    ones (the latest first), with table, round and who closed them."""
    calls = list(
        RefereeCall.objects.filter(tournament=tournament).select_related(
            "table__round", "closed_by", "ruling"
        )
    )
    opened = sorted((c for c in calls if c.closed_at is None), key=lambda c: (c.called_at, c.pk))
    closed = sorted(
        (c for c in calls if c.closed_at is not None),
        key=lambda c: (c.closed_at, c.pk),
        reverse=True,
    )
    return opened + closed


@dataclass(frozen=True)
class Shown:
    """An announcement as the public pages show it (cached with the tournament's revision)."""

    pk: int
    text: str
    until: datetime | None


def shown_announcements(*, tournament: Tournament) -> tuple[Shown, ...]:
    """What is shown now: not removed, its time not over; the newest first. Nothing once the
    tournament is finished (a copy that arrived finished included)."""
    if tournament.finished_at is not None:
        return ()
    now = timezone.now()
    return tuple(
        Shown(pk=pk, text=text, until=until)
        for pk, text, until in Announcement.objects.filter(
            tournament=tournament, removed_at__isnull=True
        )
        .filter(Q(shown_until__isnull=True) | Q(shown_until__gt=now))
        .order_by("-created_at", "-pk")
        .values_list("pk", "text", "shown_until")
    )


def still_shown(items: tuple[Shown, ...], *, now: datetime | None = None) -> tuple[Shown, ...]:
    """Of announcements read earlier (a cached list), those whose time is not over yet."""
    now = now or timezone.now()
    return tuple(item for item in items if item.until is None or item.until > now)
