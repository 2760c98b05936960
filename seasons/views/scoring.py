"""The season scorer's page: the season's rules (how tournament results add up, the final's
rule) and its plan (how many tournaments, on which dates).

The season standings page itself is public (``seasons.views.standings``); the notice-board
PDF and the workbook are downloads (``printing.views``, ``exports.views``), all for those who
may manage the season.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _

from clubs.forms import add_service_errors
from clubs.permissions import MANAGE_SEASON, check, organiser_required
from seasons.forms import SeasonRulesForm, planned_dates_text
from seasons.models import PlannedTournament, Season
from seasons.services import set_season_rules


def managed_season(request, pk: int) -> Season:
    season = get_object_or_404(Season, pk=pk)
    check(request.user, MANAGE_SEASON, season)
    return season


@organiser_required
def season_rules(request, pk: int):
    season = managed_season(request, pk)
    if request.method == "POST":
        form = SeasonRulesForm(request.POST)
        if form.is_valid():
            try:
                set_season_rules(season=season, user=request.user, **form.cleaned_data)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, _("Season rules saved."))
                return redirect("seasons:season_standings", pk=season.pk)
    else:
        form = SeasonRulesForm(
            initial={
                "scoring": season.scoring,
                "best_of": season.best_of,
                "cup_points": ", ".join(str(p) for p in season.cup_points),
                "min_tournaments": season.min_tournaments,
                "final_min_tournaments": season.final_min_tournaments,
                "planned_tournaments": season.planned_tournaments,
                "planned_dates": planned_dates_text(
                    PlannedTournament.objects.filter(season=season)
                ),
                "appeal_days": season.appeal_days,
            }
        )
    return render(request, "seasons/rules.html", {"season": season, "form": form})


urlpatterns = [
    path("seasons/<int:pk>/rules/", season_rules, name="season_rules"),
]
