"""Finishing a tournament (and reopening it with a reason)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.permissions import MANAGE_TOURNAMENT
from tournaments.models import Tournament
from tournaments.selectors.standings import no_shows
from tournaments.services import finish
from tournaments.services.results_common import ResultError
from tournaments.views.access import tournament_permission


# The check comes first: a GET from someone else's organiser is a 403, not a 405.
@tournament_permission(MANAGE_TOURNAMENT)
@require_POST
def tournament_finish(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    try:
        if request.POST.get("action") == "reopen":
            finish.reopen_tournament(
                tournament=tournament, user=request.user, reason=request.POST.get("reason", "")
            )
            messages.success(request, _("The tournament is open again."))
        elif request.POST.get("confirm") != "1":
            # one click would lock everything: say what it fixes and ask (a page, no script)
            return render(
                request,
                "tournaments/setup/finish_confirm.html",
                {"tournament": tournament, "no_shows": no_shows(tournament=tournament)},
            )
        else:
            finish.finish_tournament(
                tournament=tournament,
                user=request.user,
                remove_no_shows=request.POST.get("remove_no_shows") == "1",
            )
            messages.success(request, _("The tournament is finished; its results are locked."))
    except ResultError as error:
        messages.error(request, error.message)
    return redirect(reverse("tournaments:tournament_detail", args=[tournament.pk]) + "#finish")


urlpatterns = [
    path("tournaments/<int:pk>/finish/", tournament_finish, name="tournament_finish"),
]
