"""Teams of a tournament (organisers): register, edit and remove teams before the draw, and
choose whether the draw keeps teammates apart."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.forms import add_service_errors
from clubs.permissions import MANAGE_TOURNAMENT, check, check_not_in_hall, organiser_required
from tournaments.forms.teams import TeamForm
from tournaments.models import Team, Tournament
from tournaments.services import teams as services


def _tournament(request, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    check(request.user, MANAGE_TOURNAMENT, tournament)
    if request.method == "POST":
        check_not_in_hall(tournament)
    return tournament


def _save(request, form: TeamForm, tournament: Tournament, team: Team | None) -> bool:
    if not form.is_valid():
        return False
    try:
        if team is None:
            services.create_team(
                tournament=tournament,
                name=form.cleaned_data["name"],
                club=form.cleaned_data["club"],
                members=form.members(),
                user=request.user,
            )
        else:
            services.update_team(
                team=team,
                name=form.cleaned_data["name"],
                club=form.cleaned_data["club"],
                members=form.members(),
                user=request.user,
            )
    except ValidationError as error:
        add_service_errors(form, error)
        return False
    return True


@organiser_required
def teams(request, pk: int):
    tournament = _tournament(request, pk)
    if request.method == "POST":
        form = TeamForm(request.POST, tournament=tournament)
        if _save(request, form, tournament, None):
            messages.success(request, _("Team registered."))
            return redirect("tournaments:teams", pk=tournament.pk)
    else:
        form = TeamForm(tournament=tournament)
    team_list = (
        Team.objects.filter(tournament=tournament)
        .select_related("club")
        .prefetch_related("members__player")
    )
    return render(
        request,
        "tournaments/teams/teams.html",
        {
            "tournament": tournament,
            "teams": team_list,
            "form": form,
            "drawn": tournament.round_set.exists(),
            "size": Team.SIZE,
        },
    )


@organiser_required
def team_edit(request, pk: int, team_pk: int):
    tournament = _tournament(request, pk)
    team = get_object_or_404(Team, pk=team_pk, tournament=tournament)
    if request.method == "POST":
        form = TeamForm(request.POST, tournament=tournament, team=team)
        if _save(request, form, tournament, team):
            messages.success(request, _("Team saved."))
            return redirect("tournaments:teams", pk=tournament.pk)
    else:
        members = list(team.members.order_by("number"))
        initial = {"name": team.name, "club": team.club_id}
        initial.update({f"member_{i}": e.pk for i, e in enumerate(members, start=1)})
        form = TeamForm(initial=initial, tournament=tournament, team=team)
    return render(
        request,
        "tournaments/teams/team_edit.html",
        {"tournament": tournament, "team": team, "form": form},
    )


@organiser_required
@require_POST
def team_delete(request, pk: int, team_pk: int):
    tournament = _tournament(request, pk)
    team = get_object_or_404(Team, pk=team_pk, tournament=tournament)
    try:
        services.delete_team(team=team, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Team removed."))
    return redirect("tournaments:teams", pk=tournament.pk)


@organiser_required
@require_POST
def keep_teams_apart(request, pk: int):
    tournament = _tournament(request, pk)
    keep = request.POST.get("keep_apart") == "1"
    services.set_keep_teams_apart(tournament=tournament, keep_apart=keep, user=request.user)
    # The page states the new setting beside its button: the message only says it was taken.
    messages.success(request, _("Setting saved."))
    return redirect("tournaments:teams", pk=tournament.pk)


urlpatterns = [
    path("tournaments/<int:pk>/teams/", teams, name="teams"),
    path("tournaments/<int:pk>/teams/<int:team_pk>/", team_edit, name="team_edit"),
    path("tournaments/<int:pk>/teams/<int:team_pk>/delete/", team_delete, name="team_delete"),
    path("tournaments/<int:pk>/teams/keep-apart/", keep_teams_apart, name="keep_teams_apart"),
]
