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
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from clubs.models import Player, category_label
from clubs.permissions import may_see_registry_of, may_view_player_page, refuse_player_page
from seasons.charts import LineChart, line_chart
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
            chart_svg(
                line_chart(
                    [(f"{t.date:%d.%m.}", running) for t, _total, running in progress.steps]
                ),
                title=_("Running total over the season %(season)s")
                % {"season": progress.season.name},
                chart_id=number,
            ),
        )
        for number, progress in enumerate(page.seasons, start=1)
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


def chart_svg(chart: LineChart, *, title: str, chart_id: int) -> SafeString:
    """A season's running total as SVG markup. Written here rather than by a template: a
    regular's page has a chart per season, and the template's number filters were a quarter
    of the page's time at five seasons."""
    zero_y = f"{chart.zero_y:.1f}"
    label_x = chart.left - 6
    parts = [
        f'<svg class="progress-chart" viewBox="0 0 {chart.width} {chart.height}" role="img" '
        f'aria-labelledby="chart-{chart_id}-title" preserveAspectRatio="xMidYMid meet">',
        f'<title id="chart-{chart_id}-title">{escape(title)}</title>',
        f'<line class="axis" x1="{chart.left}" x2="{chart.width}" y1="{zero_y}" '
        f'y2="{zero_y}"></line>',
        f'<text class="axis-label" x="{label_x}" y="{zero_y}" text-anchor="end" '
        'dominant-baseline="middle">0</text>',
    ]
    if chart.top_value > 0:
        parts.append(
            f'<text class="axis-label" x="{label_x}" y="16" text-anchor="end" '
            f'dominant-baseline="middle">{chart.top_value:+d}</text>'
        )
    if chart.bottom_value < 0:
        parts.append(
            f'<text class="axis-label" x="{label_x}" y="{chart.bottom}" text-anchor="end" '
            f'dominant-baseline="middle">{chart.bottom_value:+d}</text>'
        )
    parts.append(f'<polyline class="line" points="{chart.polyline}" fill="none"></polyline>')
    for point in chart.points:
        x, label = f"{point.x:.1f}", escape(point.label)
        minus = " minus" if point.value < 0 else ""
        parts.append(
            f'<circle class="dot{minus}" cx="{x}" cy="{point.y:.1f}" r="4">'
            f"<title>{label}: {point.value:+d}</title></circle>"
            f'<text class="axis-label" x="{x}" y="{chart.bottom + 34}" '
            f'text-anchor="middle">{label}</text>'
        )
    parts.append("</svg>")
    return mark_safe("\n".join(parts))  # every value above is a number or escaped


urlpatterns = [path("players/<int:pk>/results/", player_detail, name="player_detail")]
