"""The season an archive joins (part of the plan: ``archive_plan``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from seasons.models import Season
from tournaments.models import Tournament


def choose_season(
    *, season: Season | None, existing: Tournament | None, settings: Mapping[str, Any]
) -> tuple[Season | None, str]:
    """The season it joins, and a note where none could be chosen: the one given, else the
    copy's (the organiser may have chosen it here), else the archive's by name, else the one
    season whose dates hold the tournament's date. Several or none: no season, and the note
    says so (the organiser picks once, on the tournament's page)."""
    if season is None and existing is not None:
        season = existing.season
    if season is None and settings.get("season"):
        season = Season.objects.filter(name=settings["season"].get("name", "")).first()
    if season is not None:
        return season, ""
    try:
        day = dt.date.fromisoformat(str(settings.get("date", "")))
    except ValueError:
        return None, ""
    holding = list(Season.objects.filter(starts_on__lte=day, ends_on__gte=day).order_by("name"))
    if len(holding) == 1:
        return holding[0], ""
    if holding:
        return None, _(
            "Several seasons hold %(date)s (%(seasons)s): choose the tournament's season on its "
            "page on the season server."
        ) % {"date": day.strftime("%d.%m.%Y"), "seasons": ", ".join(s.name for s in holding)}
    return None, _(
        "No season on the season server holds %(date)s: the tournament counts for no season "
        "until one is chosen on its page there."
    ) % {"date": day.strftime("%d.%m.%Y")}
