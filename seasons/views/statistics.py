"""A season's statistics page: public, read-only (``seasons.selectors.statistics``): the
figures, players per tournament and per host club, the earlier seasons to compare and two
server-drawn SVG charts (``seasons.charts``; no script, no inline style)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils.translation import gettext as _

from seasons.charts import bar_chart
from seasons.models import Season
from seasons.selectors.statistics import cached_season_statistics, statistics_scope


def season_years(season: Season) -> str:
    """A season as its years, short enough for the chart's axis ("2026/27", "2026")."""
    start, end = season.starts_on.year, season.ends_on.year
    return str(start) if start == end else f"{start}/{end % 100:02d}"


def season_statistics_view(request, pk: int):
    season = get_object_or_404(Season, pk=pk)
    statistics = cached_season_statistics(scope=statistics_scope(season=season))
    labels = [season_years(figures.season) for figures in statistics.seasons]
    players_chart = bar_chart(
        labels,
        [
            [figures.distinct_players for figures in statistics.seasons],
            [figures.new_players or 0 for figures in statistics.seasons],
        ],
        names=[_("Different players"), _("New players")],
    )
    deals_chart = bar_chart(
        labels, [[figures.deals for figures in statistics.seasons]], names=[_("Deals played")]
    )
    return render(
        request,
        "seasons/statistics.html",
        {
            "season": season,
            "statistics": statistics,
            "figures": statistics.figures,
            "players_chart": players_chart,
            "deals_chart": deals_chart,
        },
    )


urlpatterns = [
    path("seasons/<int:pk>/statistics/", season_statistics_view, name="season_statistics"),
]
