"""A season's changes: its name and dates, and its rules (how tournament results add up to
the season ranking, ``seasons.ranking``; the final's rule and the season's plan: how many
tournaments, on which dates)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from clubs.services.admin import save_checked
from seasons.models import Appeal, PlannedTournament, ResultConfirmation, Season
from tournaments.finality import appeal_in_time
from tournaments.models import Tournament
from tournaments.selectors.finality import tournament_finality

MAX_CUP_PLACES = 200
MAX_PLANNED = 99  # as the planned number: at most 99 tournaments in a season
NOTE_LENGTH = PlannedTournament._meta.get_field("note").max_length or 120


def _check_planned_dates(
    season: Season, planned_dates: Sequence[tuple[dt.date, str]]
) -> list[tuple[dt.date, str]]:
    """The planned dates as they will be stored (note stripped), or a German refusal: within
    the season, at most 99, no line twice, no note beyond its field."""
    if len(planned_dates) > MAX_PLANNED:
        raise ValidationError(
            {"planned_dates": _("At most %(n)s planned dates.") % {"n": MAX_PLANNED}}
        )
    checked: list[tuple[dt.date, str]] = []
    for day, note in planned_dates:
        note = " ".join(note.split())
        if not season.starts_on <= day <= season.ends_on:
            raise ValidationError(
                {
                    "planned_dates": _("%(date)s lies outside the season (%(start)s – %(end)s).")
                    % {
                        "date": f"{day:%d.%m.%Y}",
                        "start": f"{season.starts_on:%d.%m.%Y}",
                        "end": f"{season.ends_on:%d.%m.%Y}",
                    }
                }
            )
        if len(note) > NOTE_LENGTH:
            raise ValidationError(
                {
                    "planned_dates": _("%(date)s: at most %(n)s characters after the date.")
                    % {"date": f"{day:%d.%m.%Y}", "n": NOTE_LENGTH}
                }
            )
        if (day, note) in checked:
            raise ValidationError(
                {
                    "planned_dates": _("%(date)s %(note)s is listed twice.")
                    % {"date": f"{day:%d.%m.%Y}", "note": note}
                }
            )
        checked.append((day, note))
    return sorted(checked)


@transaction.atomic
def set_season_rules(
    *,
    season: Season,
    scoring: str,
    best_of: int | None,
    cup_points: Sequence[int],
    min_tournaments: int,
    final_min_tournaments: int | None = None,
    planned_tournaments: int | None = None,
    planned_dates: Sequence[tuple[dt.date, str]] | None = None,
    appeal_days: int | None = None,
    user: User | None = None,
) -> Season:
    """Change the season's rule; the standings follow at once (they are computed, not stored).

    ``planned_tournaments``: how many tournaments the season holds in all (None: not said);
    ``planned_dates``: the season's calendar as (date, host or place), replacing the dates
    it had (None: they stay as they are). The final's column counts by both
    (``ranking.season_plan``)."""
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
    if planned_tournaments is not None and not 1 <= planned_tournaments <= MAX_PLANNED:
        raise ValidationError(
            {"planned_tournaments": _("Between 1 and 99 tournaments, or leave it empty.")}
        )
    checked = None if planned_dates is None else _check_planned_dates(season, planned_dates)
    dates_count = (
        len(checked)
        if checked is not None
        else PlannedTournament.objects.filter(season=season).count()
    )
    if planned_tournaments is not None and planned_tournaments < dates_count:
        raise ValidationError(
            {
                "planned_tournaments": _(
                    "The season lists %(count)s planned dates: plan at least as many "
                    "tournaments, or leave the number empty."
                )
                % {"count": dates_count}
            }
        )
    season.scoring = scoring
    season.best_of = best_of if scoring == Season.Scoring.BEST_N else season.best_of
    season.cup_points = points
    season.min_tournaments = min_tournaments
    season.final_min_tournaments = final_min_tournaments
    season.planned_tournaments = planned_tournaments
    if appeal_days is not None:  # None: as it was
        season.appeal_days = appeal_days
    season.full_clean(exclude=["name"])
    season.save(
        update_fields=[
            "scoring",
            "best_of",
            "cup_points",
            "min_tournaments",
            "final_min_tournaments",
            "planned_tournaments",
            "appeal_days",
        ]
    )
    if checked is not None:
        kept = list(PlannedTournament.objects.filter(season=season).values_list("date", "note"))
        if sorted(kept) != checked:
            PlannedTournament.objects.filter(season=season).delete()
            PlannedTournament.objects.bulk_create(
                PlannedTournament(season=season, date=day, note=note) for day, note in checked
            )
            # the caches keyed by the season's fields follow the new dates
            season.plan_revision += 1
            season.save(update_fields=["plan_revision"])
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
    return save_checked(instance=season, unique_message=_("A season of this name exists already."))


# --- appeals and early confirmation (the association's season scorer) --------------------

APPELLANT_LENGTH = 160
TEXT_LENGTH = 4000


def _locked_season_tournament(tournament_id: int) -> Tournament:
    tournament = (
        Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament_id
        else None
    )
    if tournament is None or tournament.season_id is None:
        raise ValidationError(
            {"tournament": _("Appeals are taken against the tournaments of a season only.")}
        )
    return tournament


@transaction.atomic
def record_appeal(
    *,
    tournament_id: int,
    appellant: str,
    text: str,
    received_on: dt.date,
    user: User | None,
    now: dt.datetime | None = None,
):
    """Record an appeal the association received against a season tournament's results: who
    (a player or club, in words), what, when it was received. Refused once the results are
    final since before that day (an appeal received in time counts though recorded later)."""
    tournament = _locked_season_tournament(tournament_id)
    who, what = (appellant or "").strip(), (text or "").strip()
    errors: dict[str, str] = {}
    if not who:
        errors["appellant"] = _("Say who appeals: a player or a club.")
    elif len(who) > APPELLANT_LENGTH:
        errors["appellant"] = _("At most %(n)d characters, please.") % {"n": APPELLANT_LENGTH}
    if not what:
        errors["text"] = _("Say what is appealed.")
    elif len(what) > TEXT_LENGTH:
        errors["text"] = _("At most %(n)d characters, please.") % {"n": TEXT_LENGTH}
    moment = now or timezone.now()
    today = timezone.localdate(moment)
    if received_on > today:
        errors["received_on"] = _("An appeal cannot be received in the future.")
    elif received_on < tournament.date:
        errors["received_on"] = _("An appeal cannot be received before the tournament.")
    else:
        state = tournament_finality(tournament_id=tournament.pk, now=moment)
        zone = timezone.get_default_timezone()
        if state is not None and not appeal_in_time(state, received_on, zone):
            errors["received_on"] = _(
                "Too late: the results of this tournament are final since %(since)s."
            ) % {"since": formats.date_format(timezone.localtime(state.since), "DATE_FORMAT")}
    if errors:
        raise ValidationError(errors)
    appeal = Appeal(
        tournament=tournament,
        appellant=who,
        text=what,
        received_on=received_on,
        recorded_at=moment,
        recorded_by=user if getattr(user, "pk", None) else None,
    )
    appeal.full_clean()
    appeal.save()
    return appeal


@transaction.atomic
def decide_appeal(
    *,
    appeal,
    outcome: str,
    reason: str,
    needs_correction: bool = False,
    user: User | None,
    now: dt.datetime | None = None,
):
    """Decide an open appeal with a reason (shown to the public with the decision). A
    decision that changes a deal says so (``needs_correction``): the results stay provisional
    until the correction, made on the tournament's own pages where it is written, has arrived
    and the scorer confirms them (``confirm_results``)."""
    locked = Appeal.objects.select_for_update().get(pk=appeal.pk)
    if not locked.is_open:
        raise ValidationError(_("This appeal is decided already."))
    errors: dict[str, str] = {}
    if outcome not in Appeal.Outcome.values:
        errors["outcome"] = _("Choose the decision.")
    why = (reason or "").strip()
    if not why:
        errors["reason"] = _("Give the reason for the decision.")
    elif len(why) > TEXT_LENGTH:
        errors["reason"] = _("At most %(n)d characters, please.") % {"n": TEXT_LENGTH}
    if needs_correction and outcome not in (Appeal.Outcome.UPHELD, Appeal.Outcome.PARTLY_UPHELD):
        errors["needs_correction"] = _(
            "Only an appeal that is upheld (wholly or in part) changes the results."
        )
    if errors:
        raise ValidationError(errors)
    locked.outcome, locked.reason, locked.needs_correction = outcome, why, needs_correction
    locked.decided_at = now or timezone.now()
    locked.decided_by = user if getattr(user, "pk", None) else None
    locked.full_clean()
    locked.save(update_fields=["outcome", "reason", "needs_correction", "decided_at", "decided_by"])
    return locked


@transaction.atomic
def confirm_results(*, tournament_id: int, user: User | None, now: dt.datetime | None = None):
    """The season scorer confirms a finished tournament's results before its appeal window
    closes (or after the correction an appeal asked for): final from now. Refused while an
    appeal is open, before the finish, and when they are final already."""
    tournament = _locked_season_tournament(tournament_id)
    moment = now or timezone.now()
    state = tournament_finality(tournament_id=tournament.pk, now=moment)
    if state is None or tournament.finished_at is None:
        raise ValidationError(_("The tournament is not finished yet: nothing to confirm."))
    if state.open_appeals:
        raise ValidationError(_("Decide the open appeal first."))
    if state.final:
        raise ValidationError(_("The results are final already."))
    return ResultConfirmation.objects.create(
        tournament=tournament,
        confirmed_at=moment,
        confirmed_by=user if getattr(user, "pk", None) else None,
    )
