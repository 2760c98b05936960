"""A tournament that also counts for other series (issue 41): which ones, changed by the
tournament's host together with the series' side (``clubs.permissions.may_set_series``).

Keyword-only, in one transaction with the tournament's row locked; the tournament's log
says who changed it (``tournaments.services.changelog``, "settings changed", the series
before and after) and its revision moves, so its pages, its archive item (publishing) and the
series' cached standings follow (``tournaments.caching.season_stamp``)."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.permissions import check_not_in_hall, may_set_series
from seasons.models import Season, SeriesMembership
from tournaments.models import Tournament, TournamentChange
from tournaments.services.changelog import record
from tournaments.services.revision import bump_revision

MAX_SERIES = 20  # more series for one evening is a typing error, not a plan


def set_series(
    *,
    tournament: Tournament,
    seasons: Iterable[Season],
    user: User | None,
    check_permissions: bool = True,
) -> list[Season]:
    """Make ``tournament`` also count for exactly ``seasons`` (besides its home season, which
    it always counts for). Refused with a German message, nothing changed: its home season
    among them, a season whose dates do not hold the tournament's day, more than
    ``MAX_SERIES``, or a user who may not add or remove one of the series changed
    (``PermissionDenied``). ``check_permissions=False``: the archive's writer, which carries
    what the other side decided. Returns the series it now also counts for."""
    wanted = {season.pk: season for season in seasons}
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if check_permissions:
            check_not_in_hall(locked)
        current = {
            m.season_id: m.season
            for m in SeriesMembership.objects.filter(tournament=locked).select_related("season")
        }
        _check(locked, wanted, current)
        added = [wanted[pk] for pk in wanted if pk not in current]
        removed = [current[pk] for pk in current if pk not in wanted]
        if not added and not removed:
            return sorted(current.values(), key=_order)
        if check_permissions:
            for season in (*added, *removed):
                if not may_set_series(user, locked, season):
                    raise PermissionDenied(
                        _("You may not change whether this tournament counts for %(series)s.")
                        % {"series": season.name}
                    )
        SeriesMembership.objects.filter(
            tournament=locked, season_id__in=[s.pk for s in removed]
        ).delete()
        if not locked.series_chosen:  # its archive names its series from now on, even none
            Tournament.objects.filter(pk=locked.pk).update(series_chosen=True)
        SeriesMembership.objects.bulk_create(
            SeriesMembership(
                tournament=locked,
                season=season,
                added_by=user if user is not None and user.is_authenticated else None,
            )
            for season in added
        )
        record(
            tournament_id=locked.pk,
            action=TournamentChange.Action.EDITED,
            user=user,
            subject=_("also counts for"),
            before=sorted(s.name for s in current.values()),
            after=sorted(s.name for s in wanted.values()),
        )
        bump_revision(tournament_id=locked.pk)
    tournament.refresh_from_db(fields=["revision"])
    return sorted(wanted.values(), key=_order)


def add_to_series(*, tournament: Tournament, season: Season, user: User | None) -> list[Season]:
    """``tournament`` also counts for ``season`` (as :func:`set_series`)."""
    current = list(Season.objects.filter(also_counting__tournament=tournament))
    return set_series(tournament=tournament, seasons=[*current, season], user=user)


def remove_from_series(
    *, tournament: Tournament, season: Season, user: User | None
) -> list[Season]:
    """``tournament`` no longer counts for ``season`` (as :func:`set_series`)."""
    current = Season.objects.filter(also_counting__tournament=tournament).exclude(pk=season.pk)
    return set_series(tournament=tournament, seasons=list(current), user=user)


def _order(season: Season) -> tuple:
    return (season.starts_on, season.name)


def _check(tournament: Tournament, wanted: dict[int, Season], current: dict[int, Season]) -> None:
    if len(wanted) > MAX_SERIES:
        raise ValidationError(
            {"series": _("At most %(n)s series for one tournament.") % {"n": MAX_SERIES}}
        )
    if tournament.season_id is not None and tournament.season_id in wanted:
        raise ValidationError(
            {
                "series": _("%(season)s is the tournament's own season; it counts there anyway.")
                % {"season": wanted[tournament.season_id].name}
            }
        )
    for pk, season in wanted.items():
        if pk in current:
            continue  # kept as it is, even where the dates have moved since
        if not season.starts_on <= tournament.date <= season.ends_on:
            raise ValidationError(
                {
                    "series": _(
                        "The tournament on %(date)s lies outside %(series)s (%(start)s – %(end)s)."
                    )
                    % {
                        "date": f"{tournament.date:%d.%m.%Y}",
                        "series": season.name,
                        "start": f"{season.starts_on:%d.%m.%Y}",
                        "end": f"{season.ends_on:%d.%m.%Y}",
                    }
                }
            )
