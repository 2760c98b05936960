"""The season scorer's pages: the season's rules, the notice-board PDF and the workbook.

The season standings page itself is public (``tournaments.views.standings``); changing the
rules and the downloads are for those who may manage the season.
"""

from __future__ import annotations

import tempfile

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import FileResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.permissions import MANAGE_SEASON, check, organiser_required
from exports.season import season_workbook
from exports.xlsx import XLSX_CONTENT_TYPE
from printing.pdf import pdf_response, render_pdf
from seasons.forms import SeasonRulesForm
from seasons.models import Season
from seasons.services import set_season_rules
from seasons.views.standings import season_context
from tournaments.forms.setup import add_service_errors


def _season(request, pk: int) -> Season:
    season = get_object_or_404(Season, pk=pk)
    check(request.user, MANAGE_SEASON, season)
    return season


@organiser_required
def season_rules(request, pk: int):
    season = _season(request, pk)
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
            }
        )
    return render(request, "tournaments/seasons/rules.html", {"season": season, "form": form})


@organiser_required
def season_pdf(request, pk: int):
    season = _season(request, pk)
    pdf = render_pdf("print/season.html", season_context(season), request=request)
    return pdf_response(pdf, f"{slugify(season.name) or 'season'}.pdf")


@organiser_required
def season_xlsx(request, pk: int):
    """The whole season in one workbook, written to a temporary file (memory stays flat)."""
    season = _season(request, pk)
    target = tempfile.TemporaryFile()  # noqa: SIM115 - FileResponse closes it when sent
    season_workbook(season, target)
    target.seek(0)
    return FileResponse(
        target,
        as_attachment=True,
        filename=f"{slugify(season.name) or 'season'}.xlsx",
        content_type=XLSX_CONTENT_TYPE,
    )


urlpatterns = [
    path("seasons/<int:pk>/rules/", season_rules, name="season_rules"),
    path("seasons/<int:pk>/standings.pdf", season_pdf, name="season_pdf"),
    path("seasons/<int:pk>/standings.xlsx", season_xlsx, name="season_standings_xlsx"),
]
