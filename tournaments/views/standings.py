"""Standings: the live tournament standings (phones), the projector in the hall, the season
ranking, their Excel exports, and the draw by lot for ties.

Who sees what: the standings, the projector and the season ranking are public and read-only
(players follow them on their phones, the data is what the hall sees on the projector anyway).
The Excel exports are for the organisers, the draw by lot for them and the referees
(``clubs.permissions``).

Every page runs a constant number of queries: the selector's, plus the tournament, the recorded
lot draws and (for the signed-in organiser) the session and the navigation.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs.permissions import (
    MANAGE_TOURNAMENT,
    REFEREE_TOURNAMENT,
    check,
    player_pages_visible,
    tournament_permission,
)
from tournaments.exports import (
    XLSX_CONTENT_TYPE,
    season_rule_text,
    side_label,
    tournament_workbook,
)
from tournaments.models import LotDraw, Season, Tournament
from tournaments.selectors.prizes import prize_groups
from tournaments.selectors.standings import (
    SeasonRow,
    SeasonSide,
    StandingRow,
    Standings,
    season_sides,
    season_standings,
    team_standings,
    tournament_standings,
)
from tournaments.services.standings import LotError, draw_lots
from tournaments.tables_standings import (
    SeasonStandingsTable,
    StandingsTable,
    rank_html,
    signed_html,
)

# Seconds between the partial refreshes of the live pages.
PROJECTOR_REFRESH_SECONDS = 20
STANDINGS_REFRESH_SECONDS = 30
# Rows on the projector: two columns of 15 fit 1920x1080 in type readable from the back.
PROJECTOR_ROWS = 30
PROJECTOR_ROWS_RANGE = (10, 60)
# Season side rankings: shown openly, the rest behind "show all".
SEASON_SIDE_TOP = 10


def _wants_partial(request) -> bool:
    return request.GET.get("partial") == "1" or bool(getattr(request, "htmx", False))


def _no_store(response: HttpResponse) -> HttpResponse:
    # Live pages: a phone's back button or a proxy must not show old standings.
    response["Cache-Control"] = "no-store"
    return response


# --- side rankings -------------------------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    """A standings row as a template shows it: rank and total already marked up."""

    row: StandingRow | SeasonRow
    rank: str
    total: str


def shown(rows, *, tied=lambda row: getattr(row, "tied", False), rank=None) -> list[Shown]:
    return [
        Shown(
            row=row,
            rank=rank_html(row.rank if rank is None else rank(row), tied(row)),
            total=signed_html(row.total),
        )
        for row in rows
    ]


@dataclass(frozen=True)
class SideRankings:
    best_woman: list[Shown]
    best_youth: list[Shown]
    on_plus: list[StandingRow]
    last: list[Shown]  # the "Mauskönig"


def side_rankings(standings: Standings) -> SideRankings:
    """Best woman, best youth, everyone on plus and the last place, as on the prize list."""
    groups = prize_groups(standings)
    return SideRankings(
        best_woman=shown(groups.best_woman),
        best_youth=shown(groups.best_youth),
        on_plus=groups.on_plus,
        last=shown(groups.last),
    )


def season_side_shown(side: SeasonSide) -> list[Shown]:
    """A season side ranking with its own ranks, marked up for the page."""
    return [
        Shown(row=item.row, rank=rank_html(item.rank, item.tied), total=signed_html(item.row.total))
        for item in side.rows
    ]


# --- lot draws -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordedLot:
    performed_at: object
    seed: int
    order: list[StandingRow | int]  # a row, or the bare entry id if the entry is gone


def recorded_lots(tournament: Tournament, standings: Standings) -> list[RecordedLot]:
    """Every tie-break draw recorded for the tournament, with the players in drawn order."""
    by_entry = {row.entry_id: row for row in standings.rows}
    return [
        RecordedLot(
            performed_at=draw["performed_at"],
            seed=draw["seed"],
            order=[by_entry.get(entry_id, entry_id) for entry_id in draw["order"]],
        )
        for draw in LotDraw.objects.filter(tournament=tournament, purpose="tie_break")
        .order_by("performed_at", "pk")
        .values("performed_at", "seed", "order")
    ]


def unresolved_groups(standings: Standings) -> list[list[Shown]]:
    by_entry = {row.entry_id: row for row in standings.rows}
    return [
        shown([by_entry[e] for e in group if e in by_entry]) for group in standings.unresolved_ties
    ]


# --- tournament standings ------------------------------------------------------------------


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("host_club", "season"), pk=pk)


def _live_context(standings: Standings) -> dict:
    return {
        "standings": standings,
        "tournament": standings.tournament,
        "table": StandingsTable(list(standings.rows), round_numbers=standings.round_numbers),
        "sides": side_rankings(standings),
        "updated_at": timezone.localtime(),
    }


def standings(request, pk: int):
    tournament = _tournament(pk)
    result = tournament_standings(tournament=tournament)
    context = _live_context(result)
    if _wants_partial(request):
        return _no_store(render(request, "tournaments/standings/_live.html", context))
    context.update(
        teams=team_standings(standings=result),
        ties=unresolved_groups(result),
        lots=recorded_lots(tournament, result),
        refresh_seconds=STANDINGS_REFRESH_SECONDS,
    )
    return _no_store(render(request, "tournaments/standings/standings.html", context))


def _projector_rows(request) -> int:
    try:
        wanted = int(request.GET.get("rows", PROJECTOR_ROWS))
    except ValueError:
        wanted = PROJECTOR_ROWS
    low, high = PROJECTOR_ROWS_RANGE
    return max(low, min(high, wanted))


def projector(request, pk: int):
    tournament = _tournament(pk)
    result = tournament_standings(tournament=tournament)
    top = shown(result.rows[: _projector_rows(request)])
    # One column for a short list, else two side by side (ranks run down the left first).
    half = (len(top) + 1) // 2 if len(top) > 12 else len(top)
    context = {
        "tournament": tournament,
        "standings": result,
        "columns": [c for c in (top[:half], top[half:]) if c],
        "open_rounds": sorted({t.round_number for t in result.open_tables}),
        "updated_at": timezone.localtime(),
        "refresh_seconds": PROJECTOR_REFRESH_SECONDS,
        "players": len(result.rows),
        "shown_count": len(top),
        # the round clock of the round being played, if the organiser started one
        "clock_round": tournament.round_set.exclude(state="closed")
        .filter(ends_at__isnull=False)
        .order_by("-number")
        .first(),
    }
    template = (
        "tournaments/standings/_projector_board.html"
        if _wants_partial(request)
        else "tournaments/standings/projector.html"
    )
    return _no_store(render(request, template, context))


@tournament_permission(REFEREE_TOURNAMENT)
@require_POST
def standings_draw_lots(request, pk: int):
    tournament = _tournament(pk)
    current = tournament_standings(tournament=tournament)
    target = reverse("tournaments:standings", kwargs={"pk": tournament.pk}) + "#ties"
    if not current.unresolved_ties:
        messages.info(request, _("No ties are left to draw."))
        return redirect(target)
    if not current.finished and request.POST.get("confirm_open") != "1":
        messages.error(
            request,
            _(
                "Tables are still playing, so the standings may still change. Confirm that "
                "you want to draw lots now."
            ),
        )
        return redirect(target)
    try:
        draws = draw_lots(
            tournament=tournament, user=request.user, reason=request.POST.get("reason", "")[:500]
        )
    except LotError as error:
        messages.error(request, str(error))
        return redirect(target)
    messages.success(
        request,
        ngettext(
            "Lots drawn for %(count)d tied group.",
            "Lots drawn for %(count)d tied groups.",
            len(draws),
        )
        % {"count": len(draws)},
    )
    return redirect(target)


def _xlsx_response(content: bytes, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type=XLSX_CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{slugify(name) or "export"}.xlsx"'
    return response


@tournament_permission(MANAGE_TOURNAMENT)
def standings_xlsx(request, pk: int):
    tournament = _tournament(pk)
    check(request.user, MANAGE_TOURNAMENT, tournament)
    result = tournament_standings(tournament=tournament)
    content = tournament_workbook(result, team_standings(standings=result))
    return _xlsx_response(content, f"{tournament.name} {tournament.date:%Y-%m-%d}")


# --- season standings ----------------------------------------------------------------------


def season_context(season: Season, user=None) -> dict:
    """What the season page and its PDF show: the ranking, side rankings and teams."""
    result = season_standings(season=season)
    linked = (
        player_pages_visible(user, [row.player_id for row in result.rows]) if user else frozenset()
    )
    sides = [(side_label(side.key), season_side_shown(side)) for side in season_sides(result)]
    return {
        "season": season,
        "result": result,
        "rule_text": season_rule_text(season),
        "ranked_count": sum(1 for row in result.rows if row.ranked),
        "table": SeasonStandingsTable(
            list(result.rows), tournaments=result.tournaments, linked_players=linked
        ),
        "sides": [(title, rows[:SEASON_SIDE_TOP], rows[SEASON_SIDE_TOP:]) for title, rows in sides],
        "teams": result.teams,
    }


def season_standings_view(request, pk: int):
    season = get_object_or_404(Season, pk=pk)
    context = season_context(season, request.user)
    return render(request, "tournaments/standings/season.html", context)


urlpatterns = [
    path("tournaments/<int:pk>/standings/", standings, name="standings"),
    path("tournaments/<int:pk>/standings/projector/", projector, name="projector"),
    path("tournaments/<int:pk>/standings.xlsx", standings_xlsx, name="standings_xlsx"),
    path(
        "tournaments/<int:pk>/standings/draw-lots/",
        standings_draw_lots,
        name="standings_draw_lots",
    ),
    path("seasons/<int:pk>/standings/", season_standings_view, name="season_standings"),
]
