"""A player's results page: tournaments across seasons, statistics by contract, and the
season's progress as a server-rendered SVG chart.

Visible to organisers, and to the public where one of the player's clubs allows it
(``clubs.permissions.may_view_player_page``; refused by ``refuse_player_page``: the login
for a visitor, 404 for anyone else). The page shows what the public standings show (name,
club, category) and the results; never the registry's personal data (birth year, member
number, e-mail): who may see those gets a link to the registry entry instead.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.urls import path

from clubs.models import Player, category_label
from clubs.permissions import may_see_registry_of, may_view_player_page, refuse_player_page
from seasons.charts import line_chart
from seasons.selectors.players import player_page
from tournaments.selectors.standings import home_clubs


def player_detail(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    if not may_view_player_page(request.user, player):
        return refuse_player_page(request)
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
            # as the standings show the player: the club beside the name, the category
            "club": home_clubs(pk=player.pk).get(player.pk, ""),
            "category": category_label(player.category),
            "sees_registry": may_see_registry_of(request.user, player),
        },
    )


urlpatterns = [path("players/<int:pk>/results/", player_detail, name="player_detail")]
