"""A season's changes: its name and dates, and its rules (how tournament results add up to
the season ranking, ``seasons.ranking``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.services.admin import save_checked
from seasons.models import Season

MAX_CUP_PLACES = 200


@transaction.atomic
def set_season_rules(
    *,
    season: Season,
    scoring: str,
    best_of: int | None,
    cup_points: Sequence[int],
    min_tournaments: int,
    final_min_tournaments: int | None = None,
    user: User | None = None,
) -> Season:
    """Change the season's rule; the standings follow at once (they are computed, not stored)."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    if scoring not in Season.Scoring.values:
        raise ValidationError({"scoring": _("Unknown season rule.")})
    if scoring == Season.Scoring.BEST_N and (best_of is None or best_of < 1):
        raise ValidationError({"best_of": _("Say how many results count (at least 1).")})
    points = [int(p) for p in cup_points]
    if scoring == Season.Scoring.CUP and not points:
        raise ValidationError({"cup_points": _("Enter the cup points for place 1, 2, 3, …")})
    if any(p < 0 for p in points) or len(points) > MAX_CUP_PLACES:
        raise ValidationError(
            {
                "cup_points": _(
                    "Cup points are whole numbers of 0 or more, for at most %(n)s places."
                )
                % {"n": MAX_CUP_PLACES}
            }
        )
    if min_tournaments < 1:
        raise ValidationError({"min_tournaments": _("At least one tournament.")})
    if final_min_tournaments is not None and not 1 <= final_min_tournaments <= 99:
        raise ValidationError(
            {"final_min_tournaments": _("Between 1 and 99 tournaments, or leave it empty.")}
        )
    season.scoring = scoring
    season.best_of = best_of if scoring == Season.Scoring.BEST_N else season.best_of
    season.cup_points = points
    season.min_tournaments = min_tournaments
    season.final_min_tournaments = final_min_tournaments
    season.full_clean(exclude=["name"])
    season.save(
        update_fields=[
            "scoring",
            "best_of",
            "cup_points",
            "min_tournaments",
            "final_min_tournaments",
        ]
    )
    return season


@transaction.atomic
def save_season(
    *,
    season=None,
    name: str,
    starts_on: dt.date,
    ends_on: dt.date,
    youth_born_from: int | None = None,
    user: User | None = None,
):
    from seasons.models import Season

    season = Season.objects.select_for_update().get(pk=season.pk) if season else Season()
    if ends_on < starts_on:
        raise ValidationError({"ends_on": _("The season cannot end before it starts.")})
    if Season.objects.exclude(pk=season.pk).filter(name__iexact=name.strip()).exists():
        raise ValidationError({"name": _("A season of this name exists already.")})
    season.name, season.starts_on, season.ends_on = name.strip(), starts_on, ends_on
    season.youth_born_from = youth_born_from
    return save_checked(season, _("A season of this name exists already."))
