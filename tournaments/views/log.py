"""A tournament's log, for its organisers: every change of the tournament day in one list."""

from django.shortcuts import get_object_or_404, render
from django.urls import path

from clubs.permissions import MANAGE_TOURNAMENT
from tournaments.models import Tournament
from tournaments.selectors.changelog import AREAS, tournament_log_page
from tournaments.views.access import tournament_permission


@tournament_permission(MANAGE_TOURNAMENT)
def tournament_log_view(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    area = request.GET.get("area", "")
    if area not in AREAS:
        area = ""
    page = tournament_log_page(tournament=tournament, area=area, page=request.GET.get("page"))
    return render(
        request,
        "tournaments/log.html",
        {"tournament": tournament, "page": page, "lines": page.object_list, "area": area},
    )


urlpatterns = [
    path("tournaments/<int:pk>/log/", tournament_log_view, name="tournament_log"),
]
