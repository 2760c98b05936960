"""The season scorer's page: the appeals with their decisions, the tournaments whose results
are still provisional, and the tournaments an appeal may be recorded against. Four queries."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone

from seasons.models import MAX_APPEAL_DAYS, Appeal
from tournaments.finality import Finality
from tournaments.models import Tournament
from tournaments.selectors.finality import finality_of

# The tournaments an appeal is recorded against: of the seasons, played in these last days
# (or not finished yet).
RECENT_DAYS = 120
DECIDED_SHOWN = 200


@dataclass(frozen=True)
class ProvisionalTournament:
    tournament: Tournament
    state: Finality


@dataclass(frozen=True)
class AppealsPage:
    open: list[Appeal]
    decided: list[Appeal]
    provisional: list[ProvisionalTournament]
    choices: list[Tournament]  # for a new appeal


def appeals_page(*, now: dt.datetime | None = None) -> AppealsPage:
    moment = now or timezone.now()
    appeals = list(
        Appeal.objects.select_related(
            "tournament", "tournament__season", "recorded_by", "decided_by"
        ).order_by("-received_on", "-pk")
    )
    # Finished and within the longest window, or appealed: the others are final.
    candidates = list(
        Tournament.objects.select_related("season", "host_club")
        .filter(season__isnull=False, finished_at__isnull=False)
        .filter(
            Q(finished_at__gte=moment - dt.timedelta(days=MAX_APPEAL_DAYS + 1))
            | Q(appeals__isnull=False)
        )
        .distinct()
        .order_by("date", "pk")
    )
    states = finality_of(tournament_ids=[t.pk for t in candidates], now=moment)
    today = timezone.localdate(moment)
    choices = list(
        Tournament.objects.select_related("season")
        .filter(season__isnull=False, date__lte=today)
        .filter(Q(date__gte=today - dt.timedelta(days=RECENT_DAYS)) | Q(finished_at__isnull=True))
        .order_by("-date", "name")
    )
    return AppealsPage(
        open=[a for a in appeals if a.is_open],
        decided=[a for a in appeals if not a.is_open][:DECIDED_SHOWN],
        provisional=[
            ProvisionalTournament(t, states[t.pk])
            for t in candidates
            if t.pk in states and states[t.pk].provisional
        ],
        choices=choices,
    )
