"""A tournament in several series (issue 41): the organiser's page to tick the other series
a tournament also counts for. What counts where is ``seasons.selectors.series``; the
change is ``seasons.services_series.set_series`` (who may: ``clubs.permissions``)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _

from clubs.forms import add_service_errors
from clubs.permissions import MANAGE_TOURNAMENT, has_perm, is_season_scorer, refuse
from seasons.forms import TournamentSeriesForm
from seasons.selectors.series import eligible_series, tournament_series
from seasons.services_series import set_series
from tournaments.models import Tournament


def tournament_series_edit(request, pk: int):
    if not request.user.is_authenticated:
        return refuse(request)  # to the login page
    tournament = get_object_or_404(Tournament.objects.select_related("season", "host_club"), pk=pk)
    if not (
        has_perm(request.user, MANAGE_TOURNAMENT, tournament) or is_season_scorer(request.user)
    ):
        raise PermissionDenied
    choices = eligible_series(tournament=tournament)
    current = tournament_series(tournament=tournament)
    if request.method == "POST":
        form = TournamentSeriesForm(request.POST, choices=choices)
        if form.is_valid():
            try:
                set_series(
                    tournament=tournament, seasons=form.cleaned_data["series"], user=request.user
                )
            except ValidationError as error:
                add_service_errors(form, error)
            except PermissionDenied as error:
                form.add_error("series", str(error) or _("You may not change this."))
            else:
                messages.success(request, _("The series this tournament counts for are saved."))
                return redirect("tournaments:tournament_detail", pk=tournament.pk)
    else:
        form = TournamentSeriesForm(
            initial={"series": [season.pk for season in current.also]}, choices=choices
        )
    return render(
        request,
        "seasons/tournament_series.html",
        {"tournament": tournament, "form": form, "series": current},
    )


urlpatterns = [
    path("tournaments/<int:pk>/series/", tournament_series_edit, name="tournament_series"),
]
