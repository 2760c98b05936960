"""The season standings page: public, read-only (the ranking, side rankings and teams)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import path

from clubs.permissions import (
    player_pages_visible,
)
from seasons.models import Season
from seasons.selectors.chances import season_chances, season_final
from seasons.selectors.day_winners import day_winners
from seasons.selectors.standings import SeasonSide, season_sides, season_standings
from seasons.words import (
    chance_text,
    chances_note,
    movement_html,
    plan_text,
    qualification_text,
    season_rule_text,
    side_label,
)
from tournaments.caching import (
    season_cached,
    season_stamp,
)
from tournaments.selectors.finality import provisional_ids
from tournaments.tables_standings import (
    Shown,
    rank_html,
    season_table,
    signed_html,
    tournament_column_labels,
)

# Season side rankings: shown openly, the rest behind "show all".
SEASON_SIDE_TOP = 10


def season_side_shown(side: SeasonSide) -> list[Shown]:
    """A season side ranking with its own ranks, marked up for the page."""
    return [
        Shown(row=item.row, rank=rank_html(item.rank, item.tied), total=signed_html(item.row.total))
        for item in side.rows
    ]


def season_context(season: Season, user=None) -> dict:
    """What the season page and its PDF show: the ranking, side rankings and teams.

    The ranking and the table's markup are cached under the revisions of the season's
    tournaments (a deal anywhere in the season gives the next reader a new one); the table
    also under the names that link to a player page, which depends on who asks."""
    stamp = season_stamp(season)
    result = season_cached(
        season, "standings", build=lambda: season_standings(season=season), stamp=stamp
    )
    linked = (
        player_pages_visible(user, [row.player_id for row in result.rows]) if user else frozenset()
    )
    sides = [
        (side_label(side.key), season_side_shown(side)) for side in season_sides(result=result)
    ]
    # The tournaments whose results are still provisional (the appeal window, appeals): read
    # per request, as the window closes by the calendar, without a new revision.
    provisional = provisional_ids(tournament_ids=[t.pk for t in result.tournaments])
    # The table's markup, cached like the ranking and by the names that are links (which
    # player pages are public can change without any tournament changing: part of the key),
    # and by the provisional tournaments.
    table = season_cached(
        season,
        "table",
        tuple(sorted(linked)),
        tuple(sorted(provisional)),
        build=lambda: season_table(
            result.rows,
            tournaments=result.tournaments,
            linked_players=linked,
            qualification_text=qualification_text,
            movement_html=movement_html,
            provisional=provisional,
        ),
        stamp=stamp,
    )
    return {
        "season": season,
        "result": result,
        "stamp": stamp,  # the revisions read once, for whatever else the page caches
        "rule_text": season_rule_text(season),
        "ranked_count": sum(1 for row in result.rows if row.ranked),
        "table": table,
        "qualified_count": sum(
            1 for row in result.rows if row.qualification and row.qualification.qualified
        ),
        # what the final's column assumes about the tournaments to come, said under the table
        "plan_text": plan_text(result.plan) if result.plan else "",
        "plan_known": bool(result.plan and result.plan.known),
        "sides": [(title, rows[:SEASON_SIDE_TOP], rows[SEASON_SIDE_TOP:]) for title, rows in sides],
        "teams": result.teams,
        "provisional": provisional,
        # (tournament, its column's heading): dates, never two alike
        "columns": list(
            zip(result.tournaments, tournament_column_labels(result.tournaments), strict=True)
        ),
    }


def chances_context(season: Season, result, stamp=None) -> dict:
    """Who can still win (before and during the season's final): the rows with their words,
    cached like the ranking (a deal in the final gives the next reader a new key)."""

    def build():
        chances = season_chances(result)
        if chances is None:
            return None
        during = chances.phase == "during"
        return {
            "chances": chances,
            "chance_rows": [
                (
                    row,
                    chance,
                    chance_text(
                        chance,
                        leaders=chances.leader_names,
                        scoring=chances.rule.scoring,
                        during=during,
                    ),
                )
                for row, chance in chances.rows
            ],
            "chances_note": chances_note(chances),
        }

    if season_final(result) is None:  # not at the final: nothing to show, nothing to cache
        return {}
    built = season_cached(season, "chances", build=build, stamp=stamp)
    return built or {}


# During the final the season page's "who can still win" refreshes itself this often (seconds).
CHANCES_SECONDS = 30


def season_standings_view(request, pk: int):
    season = get_object_or_404(Season, pk=pk)
    if request.GET.get("partial") == "chances":  # the live part during the final
        stamp = season_stamp(season)
        result = season_cached(
            season, "standings", build=lambda: season_standings(season=season), stamp=stamp
        )
        chances = chances_context(season, result, stamp)
        if not chances:
            return HttpResponse("")
        return render(request, "seasons/_chances.html", chances)
    context = season_context(season, request.user)
    context.update(
        chances_context(season, context["result"], context["stamp"]),
        chances_seconds=CHANCES_SECONDS,
        # A series over several hosts and pubs (issue 41): the winner of each evening beside
        # the overall standings (read from the standings above: no query).
        day_winners=day_winners(result=context["result"]),
    )
    return render(request, "seasons/standings.html", context)


# The season's projector refreshes its board this often (seconds), as the tournament's does.
SEASON_PROJECTOR_SECONDS = 20


def season_projector(request, pk: int):
    """The season on the hall's screen before and during the final: who can still win, in type
    read from the back of the hall; its board refreshes itself (``?partial=1``)."""
    season = get_object_or_404(Season, pk=pk)
    stamp = season_stamp(season)
    result = season_cached(
        season, "standings", build=lambda: season_standings(season=season), stamp=stamp
    )
    context = {"season": season, "result": result, **chances_context(season, result, stamp)}
    board = render_to_string("seasons/_projector_board.html", context, request=request)
    if request.GET.get("partial") == "1":
        return HttpResponse(board)
    context.update(board=board, refresh_seconds=SEASON_PROJECTOR_SECONDS)
    return render(request, "seasons/projector.html", context)


urlpatterns = [
    path("seasons/<int:pk>/standings/", season_standings_view, name="season_standings"),
    path("seasons/<int:pk>/projector/", season_projector, name="season_projector"),
]
