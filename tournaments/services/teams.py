"""Teams of a tournament: registered before the draw, up to four entries each.

The seat draw keeps teammates apart (``tournaments.services.draws.keep_apart_pairs``) unless
the organiser turns that off for the tournament.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club
from tournaments.models import Entry, Team, Tournament


def _locked_tournament(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _check_before_draw(tournament: Tournament) -> None:
    if tournament.round_set.exists():
        raise ValidationError(_("Teams are registered before the first draw."))


def _check_members(
    *, tournament: Tournament, entries: Sequence[Entry], team: Team | None
) -> list[Entry]:
    ids = [e.pk for e in entries]
    if len(set(ids)) != len(ids):
        raise ValidationError({"members": _("A player is listed twice.")})
    if not 1 <= len(ids) <= Team.SIZE:
        raise ValidationError(
            {
                "members": ngettext(
                    "A team has one to %(size)s player.",
                    "A team has one to %(size)s players.",
                    Team.SIZE,
                )
                % {"size": Team.SIZE}
            }
        )
    locked = list(Entry.objects.select_for_update().filter(pk__in=ids).select_related("player"))
    if len(locked) != len(ids) or any(e.tournament_id != tournament.pk for e in locked):
        raise ValidationError({"members": _("Every member must be registered here.")})
    taken = [e for e in locked if e.team_id is not None and (team is None or e.team_id != team.pk)]
    if taken:
        raise ValidationError(
            {
                "members": _("%(player)s is in another team already.")
                % {"player": taken[0].player.full_name}
            }
        )
    return locked


def _check_name(*, tournament: Tournament, name: str, team: Team | None) -> str:
    name = " ".join(name.split())
    if not name:
        raise ValidationError({"name": _("Give the team a name.")})
    others = Team.objects.filter(tournament=tournament, name__iexact=name)
    if team is not None:
        others = others.exclude(pk=team.pk)
    if others.exists():
        raise ValidationError({"name": _("A team of this name exists already.")})
    return name


@transaction.atomic
def create_team(
    *,
    tournament: Tournament,
    name: str,
    members: Sequence[Entry],
    club: Club | None = None,
    user: User | None = None,
) -> Team:
    """A new team of one to four registered players (four for a complete team)."""
    tournament = _locked_tournament(tournament)
    _check_before_draw(tournament)
    name = _check_name(tournament=tournament, name=name, team=None)
    locked = _check_members(tournament=tournament, entries=members, team=None)
    team = Team.objects.create(tournament=tournament, name=name, club=club)
    Entry.objects.filter(pk__in=[e.pk for e in locked]).update(team=team)
    return team


@transaction.atomic
def update_team(
    *,
    team: Team,
    name: str,
    members: Sequence[Entry],
    club: Club | None = None,
    user: User | None = None,
) -> Team:
    tournament = _locked_tournament(team.tournament)
    _check_before_draw(tournament)
    team = Team.objects.select_for_update().get(pk=team.pk)
    team.name = _check_name(tournament=tournament, name=name, team=team)
    locked = _check_members(tournament=tournament, entries=members, team=team)
    team.club = club
    team.save(update_fields=["name", "club"])
    Entry.objects.filter(team=team).exclude(pk__in=[e.pk for e in locked]).update(team=None)
    Entry.objects.filter(pk__in=[e.pk for e in locked]).update(team=team)
    return team


@transaction.atomic
def delete_team(*, team: Team, user: User | None = None) -> None:
    tournament = _locked_tournament(team.tournament)
    _check_before_draw(tournament)
    Entry.objects.filter(team=team).update(team=None)
    Team.objects.filter(pk=team.pk).delete()


@transaction.atomic
def set_keep_teams_apart(
    *, tournament: Tournament, keep_apart: bool, user: User | None = None
) -> Tournament:
    """Whether the next draws keep teammates apart (rounds drawn already stay as they are)."""
    tournament = _locked_tournament(tournament)
    tournament.keep_teams_apart = keep_apart
    tournament.save(update_fields=["keep_teams_apart"])
    return tournament
