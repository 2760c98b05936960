"""The seasons list and a season's name and dates (any club's organiser creates one; the
clubs that host it edit it)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _

from clubs.forms import add_service_errors
from clubs.permissions import (
    MANAGE_SEASON,
    check,
    organiser_required,
)
from seasons import services
from seasons.forms import SeasonForm
from seasons.models import Season


@organiser_required
def season_list(request):
    return render(request, "seasons/season_list.html", {"seasons": Season.objects.all()})


@organiser_required
def season_form(request, pk: int | None = None):
    season = get_object_or_404(Season, pk=pk) if pk else None
    check(request.user, MANAGE_SEASON, season)
    initial = (
        {
            "name": season.name,
            "starts_on": season.starts_on,
            "ends_on": season.ends_on,
            "youth_born_from": season.youth_born_from,
        }
        if season
        else {}
    )
    form = SeasonForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.save_season(season=season, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("%(season)s saved.") % {"season": saved.name})
            return redirect("seasons:season_list")
    return render(
        request,
        "clubs/simple_form.html",
        {
            "form": form,
            "title": season.name if season else _("New season"),
            "title_is_name": bool(season),
        },
    )


urlpatterns = [
    path("seasons/", season_list, name="season_list"),
    path("seasons/new/", season_form, name="season_create"),
    path("seasons/<int:pk>/edit/", season_form, name="season_edit"),
]
