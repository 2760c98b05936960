"""A player's results page: tournaments across seasons, statistics by contract, and the
season's progress as a server-rendered SVG chart.

Visible to organisers, and to the public where one of the player's clubs allows it
(``clubs.permissions.may_view_player_page``).
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render
from django.urls import path

from clubs.models import Player
from clubs.permissions import may_see_registry_of, may_view_player_page
from seasons.charts import line_chart
from seasons.selectors.players import player_page


def player_detail(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    if not may_view_player_page(request.user, player):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied
    page = player_page(player=player)
    charts = [
        (
            progress,
            line_chart([(f"{t.date:%d.%m.}", running) for t, _total, running in progress.steps]),
        )
        for progress in page.seasons
    ]
    return render(
        request,
        "seasons/player.html",
        {
            "player": player,
            "page": page,
            "charts": charts,
            "specials": page.specials,
            "sees_birth_year": may_see_registry_of(request.user, player),
        },
    )


urlpatterns = [path("players/<int:pk>/results/", player_detail, name="player_detail")]
