"""Whether a season tournament's results are provisional or final (``tournaments.finality``),
read from stored facts: the finish, the season's appeal window, the season scorer's
confirmations and the appeals (``seasons.models``: a tournament belongs to a season, and its
results are final by the season's window). One query for any number of tournaments.

Only on the season server: the venue laptop holds neither appeals nor confirmations, so it
says nothing rather than "final" after 14 days (``settings.VENUE_MODE``). Tournaments outside
a season have no appeal window and no state.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Count, Max, OuterRef, Q, Subquery
from django.utils import timezone

from seasons.models import Appeal, ResultConfirmation
from tournaments.finality import Finality, finality
from tournaments.models import Tournament


def _zone() -> ZoneInfo:
    return ZoneInfo(settings.TIME_ZONE)


def finality_of(
    *, tournament_ids: Iterable[int], now: dt.datetime | None = None
) -> dict[int, Finality]:
    """The state of each season tournament of ``tournament_ids`` (others are left out);
    empty on the venue laptop. One query."""
    ids = list(tournament_ids)
    if settings.VENUE_MODE or not ids:
        return {}
    latest_confirmation = (
        ResultConfirmation.objects.filter(tournament=OuterRef("pk"))
        .order_by("-confirmed_at")
        .values("confirmed_at")[:1]
    )
    rows = (
        Tournament.objects.filter(pk__in=ids, season__isnull=False)
        .annotate(
            open_appeals=Count("appeals", filter=Q(appeals__outcome="")),
            last_decided_at=Max("appeals__decided_at"),
            correction_due_at=Max("appeals__decided_at", filter=Q(appeals__needs_correction=True)),
            confirmed_at=Subquery(latest_confirmation),
        )
        .values(
            "pk",
            "finished_at",
            "season__appeal_days",
            "open_appeals",
            "last_decided_at",
            "correction_due_at",
            "confirmed_at",
        )
    )
    moment = now or timezone.now()
    zone = _zone()
    return {
        row["pk"]: finality(
            finished_at=row["finished_at"],
            window_days=row["season__appeal_days"],
            confirmed_at=row["confirmed_at"],
            open_appeals=row["open_appeals"],
            last_decided_at=row["last_decided_at"],
            correction_due_at=row["correction_due_at"],
            now=moment,
            zone=zone,
        )
        for row in rows
    }


def tournament_finality(*, tournament_id: int, now: dt.datetime | None = None) -> Finality | None:
    """One tournament's state (None: no season, or the venue laptop)."""
    return finality_of(tournament_ids=[tournament_id], now=now).get(tournament_id)


def provisional_ids(
    *, tournament_ids: Iterable[int], now: dt.datetime | None = None
) -> frozenset[int]:
    """Of ``tournament_ids``, those finished whose results are still provisional."""
    return frozenset(
        pk
        for pk, state in finality_of(tournament_ids=tournament_ids, now=now).items()
        if state.provisional
    )


@dataclass(frozen=True)
class PublicAppeal:
    """What the public sees of an appeal: that it was received, and the decision with its
    reason; never the appellant or the appellant's text."""

    received_on: dt.date
    outcome: str  # "" while open
    outcome_label: str
    reason: str
    needs_correction: bool
    decided_at: dt.datetime | None


def public_appeals(*, tournament_id: int) -> list[PublicAppeal]:
    """A tournament's appeals as the public sees them, oldest first (one query)."""
    labels = dict(Appeal.Outcome.choices)
    return [
        PublicAppeal(
            received_on=row["received_on"],
            outcome=row["outcome"],
            outcome_label=str(labels.get(row["outcome"], "")),
            reason=row["reason"],
            needs_correction=row["needs_correction"],
            decided_at=row["decided_at"],
        )
        for row in Appeal.objects.filter(tournament_id=tournament_id)
        .order_by("received_on", "pk")
        .values("received_on", "outcome", "reason", "needs_correction", "decided_at")
    ]
