"""Changes to simultaneous Cego days: create, change or delete one, add or remove a hall. Each runs in a
transaction, locks the day's row, bumps its revision (the ranking's cache key) and writes a
``DayChange`` naming who. Bad input raises ``ValidationError`` with a German message keyed
by the form's field, and nothing is written."""

from __future__ import annotations

import datetime as dt
import logging

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.permissions import MANAGE_SIMULTANEOUS, has_perm
from rules.registry import get_rule_source
from seasons.models import Season
from simultaneous.models import DayChange, Section, SimultaneousDay
from simultaneous.ranking import Fit, misfits
from tournaments.models import Tournament

logger = logging.getLogger(__name__)


def _may(by: User, day: SimultaneousDay | None = None) -> None:
    if not has_perm(by, MANAGE_SIMULTANEOUS, day):
        raise PermissionDenied


def _rule_name(slug: str) -> str:
    try:
        return get_rule_source(slug).names.de
    except KeyError:
        return slug


def _checked(
    *,
    name: str,
    date: dt.date,
    rules_slug: str,
    rounds: int,
    deals_per_round: int,
    season: Season | None,
) -> str:
    """The name as it is stored; a ``ValidationError`` by field for what cannot be."""
    name = " ".join((name or "").split())
    errors: dict[str, str] = {}
    if not name:
        errors["name"] = _("Please give the day a name.")
    elif len(name) > 160:
        errors["name"] = _("The name is too long (at most 160 characters).")
    try:
        source = get_rule_source(rules_slug or "")
    except KeyError:
        errors["rules_slug"] = _("There is no rule source “%(slug)s”.") % {"slug": rules_slug}
    else:
        if source.practice_only:
            errors["rules_slug"] = _("This rule source is for practice games, not tournaments.")
    if not isinstance(rounds, int) or not 1 <= rounds <= 20:
        errors["rounds"] = _("A tournament has 1 to 20 rounds.")
    if not isinstance(deals_per_round, int) or not 1 <= deals_per_round <= 100:
        errors["deals_per_round"] = _("A round has 1 to 100 deals.")
    if not isinstance(date, dt.date):
        errors["date"] = _("Please give the date.")
    if (
        season is not None
        and isinstance(date, dt.date)
        and not (season.starts_on <= date <= season.ends_on)
    ):
        errors["season"] = _("The date is outside the season %(season)s.") % {"season": season.name}
    if errors:
        raise ValidationError(errors)
    return name


def create_day(
    *,
    name: str,
    date: dt.date,
    rules_slug: str,
    rounds: int,
    deals_per_round: int,
    by: User,
    season: Season | None = None,
) -> SimultaneousDay:
    _may(by)
    name = _checked(
        name=name,
        date=date,
        rules_slug=rules_slug,
        rounds=rounds,
        deals_per_round=deals_per_round,
        season=season,
    )
    with transaction.atomic():
        day = SimultaneousDay.objects.create(
            name=name,
            date=date,
            season=season,
            rules_slug=rules_slug,
            rounds=rounds,
            deals_per_round=deals_per_round,
            created_by=by,
        )
        DayChange.objects.create(day=day, action=DayChange.Action.CREATED, text=name, by=by)
    return day


def change_day(
    *,
    day: SimultaneousDay,
    name: str,
    date: dt.date,
    rules_slug: str,
    rounds: int,
    deals_per_round: int,
    by: User,
    season: Season | None = None,
) -> SimultaneousDay:
    """The day's name, date, season, rule source, rounds or deals per round changed. Refused,
    nothing changed, where a hall taking part would no longer fit (each hall named with its
    reason: its tournament is the host's, changed on its own laptop, not here)."""
    _may(by, day)
    name = _checked(
        name=name,
        date=date,
        rules_slug=rules_slug,
        rounds=rounds,
        deals_per_round=deals_per_round,
        season=season,
    )
    with transaction.atomic():
        locked = SimultaneousDay.objects.select_for_update().get(pk=day.pk)
        proposed = SimultaneousDay(
            name=name,
            date=date,
            rules_slug=rules_slug,
            rounds=rounds,
            deals_per_round=deals_per_round,
        )
        reasons = [
            reason
            for section in Section.objects.filter(day=locked).select_related("tournament")
            if (reason := refusal(day=proposed, tournament=section.tournament)) is not None
        ]
        if reasons:
            raise ValidationError(
                {"__all__": [_("A hall taking part would no longer fit:"), *reasons]}
            )
        before = _described(locked)
        fields = {
            "name": name,
            "date": date,
            "season": season,
            "rules_slug": rules_slug,
            "rounds": rounds,
            "deals_per_round": deals_per_round,
        }
        for field, value in fields.items():
            setattr(locked, field, value)
        after = _described(locked)
        if after == before:
            return locked
        locked.revision = F("revision") + 1
        locked.save(update_fields=[*fields, "revision"])
        locked.refresh_from_db(fields=["revision"])
        DayChange.objects.create(
            day=locked, action=DayChange.Action.CHANGED, text=f"{before} → {after}"[:300], by=by
        )
    return locked


def _described(day: SimultaneousDay) -> str:
    season = day.season.name if day.season is not None else "–"
    return (
        f"{day.name}, {day.date:%d.%m.%Y}, {season}, {day.rules_slug}, "
        f"{day.rounds}×{day.deals_per_round}"
    )


def delete_day(*, day: SimultaneousDay, by: User) -> None:
    """A day no hall takes part in, deleted (with its log). Refused while a hall takes part:
    its overall ranking is what the halls' projectors show."""
    _may(by, day)
    with transaction.atomic():
        locked = SimultaneousDay.objects.select_for_update().get(pk=day.pk)
        halls = Section.objects.filter(day=locked).count()
        if halls:
            raise ValidationError(
                {
                    "__all__": ngettext(
                        "%(count)d hall takes part: remove it first, then the day can be deleted.",
                        "%(count)d halls take part: remove them first, then the day can be "
                        "deleted.",
                        halls,
                    )
                    % {"count": halls}
                }
            )
        logger.info("Simultaneous day %s (%s) deleted by %s", locked.pk, locked.name, by)
        locked.delete()


def refusal(*, day: SimultaneousDay, tournament: Tournament) -> str | None:
    """Why ``tournament`` cannot take part in ``day`` (German), or None when it can."""
    reasons = []
    for field in misfits(
        Fit(rules_slug=day.rules_slug, rounds=day.rounds, deals_per_round=day.deals_per_round),
        Fit(
            rules_slug=tournament.rules_slug,
            rounds=tournament.rounds,
            deals_per_round=tournament.deals_per_round,
        ),
    ):
        if field == "rules_slug":
            reasons.append(
                _("it is played by the rule source “%(theirs)s”, the day by “%(ours)s”")
                % {"theirs": _rule_name(tournament.rules_slug), "ours": _rule_name(day.rules_slug)}
            )
        elif field == "rounds":
            reasons.append(
                _("it has %(theirs)d rounds, the day %(ours)d")
                % {"theirs": tournament.rounds, "ours": day.rounds}
            )
        else:
            reasons.append(
                _("it has %(theirs)d deals per round, the day %(ours)d")
                % {"theirs": tournament.deals_per_round, "ours": day.deals_per_round}
            )
    if tournament.date != day.date:
        reasons.append(
            _("it is played on %(theirs)s, the day is %(ours)s")
            % {"theirs": f"{tournament.date:%d.%m.%Y}", "ours": f"{day.date:%d.%m.%Y}"}
        )
    if not reasons:
        return None
    return _("“%(name)s” cannot take part: %(reasons)s.") % {
        "name": tournament.name,
        "reasons": "; ".join(reasons),
    }


def add_hall(*, day: SimultaneousDay, tournament: Tournament, by: User) -> Section:
    """``tournament`` (hosted by its club) takes part in ``day`` as one hall. Refused with the
    reason when its rule source, rounds, deals per round or date differ from the day's, when it
    takes part in a day already, or when it is finished."""
    _may(by, day)
    with transaction.atomic():
        locked = SimultaneousDay.objects.select_for_update().get(pk=day.pk)
        held = Tournament.objects.select_for_update().get(pk=tournament.pk)
        reason = refusal(day=locked, tournament=held)
        if reason is not None:
            raise ValidationError({"tournament": reason})
        if held.finished_at is not None:
            raise ValidationError(
                {"tournament": _("“%(name)s” is finished already.") % {"name": held.name}}
            )
        other = Section.objects.filter(tournament=held).select_related("day").first()
        if other is not None:
            raise ValidationError(
                {
                    "tournament": _("“%(name)s” takes part in “%(day)s” already.")
                    % {"name": held.name, "day": other.day.name}
                }
            )
        try:
            with transaction.atomic():
                section = Section.objects.create(day=locked, tournament=held, added_by=by)
        except IntegrityError:  # a concurrent add of the same tournament
            raise ValidationError(
                {"tournament": _("“%(name)s” takes part in a day already.") % {"name": held.name}}
            ) from None
        SimultaneousDay.objects.filter(pk=locked.pk).update(revision=F("revision") + 1)
        DayChange.objects.create(
            day=locked,
            action=DayChange.Action.HALL_ADDED,
            text=f"{held.name} ({held.host_club.name})"[:300],
            by=by,
        )
    return section


def remove_hall(*, day: SimultaneousDay, section_id: int, by: User) -> None:
    """The hall leaves the day (its tournament stays as it is)."""
    _may(by, day)
    with transaction.atomic():
        locked = SimultaneousDay.objects.select_for_update().get(pk=day.pk)
        section = (
            Section.objects.filter(pk=section_id, day=locked)
            .select_related("tournament__host_club")
            .first()
        )
        if section is None:
            raise ValidationError({"section": _("This hall does not take part in the day.")})
        text = f"{section.tournament.name} ({section.tournament.host_club.name})"[:300]
        section.delete()
        SimultaneousDay.objects.filter(pk=locked.pk).update(revision=F("revision") + 1)
        DayChange.objects.create(day=locked, action=DayChange.Action.HALL_REMOVED, text=text, by=by)
