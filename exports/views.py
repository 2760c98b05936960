"""Every Excel download: a tournament's standings, the season workbook, a club's treasurer
list and the player list (each to those who may manage what it shows)."""

from __future__ import annotations

import tempfile

from django.http import FileResponse, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.text import slugify

from clubs.permissions import (
    MANAGE_CLUB,
    MANAGE_TOURNAMENT,
    check,
    exportable_players,
    organiser_required,
)
from clubs.views.players import filtered_players
from seasons.views.scoring import managed_season
from tournaments.models import Tournament
from tournaments.selectors.standings import (
    team_standings,
    tournament_standings,
)
from tournaments.views.access import tournament_permission
from treasury.selectors import treasurer_view
from treasury.views import club_and_season, hosted_tournaments

# The workbook writers (openpyxl, lxml: a quarter of a second to import) are imported when a
# workbook is asked for, not when the URLs load: a fresh server's first page does not wait.
XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _xlsx_response(content: bytes, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type=XLSX_CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{slugify(name) or "export"}.xlsx"'
    return response


@tournament_permission(MANAGE_TOURNAMENT)
def standings_xlsx(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    check(request.user, MANAGE_TOURNAMENT, tournament)
    from exports.standings import tournament_workbook

    result = tournament_standings(tournament=tournament)
    content = tournament_workbook(result, team_standings(standings=result))
    return _xlsx_response(content, f"{tournament.name} {tournament.date:%Y-%m-%d}")


@organiser_required
def season_xlsx(request, pk: int):
    """The whole season in one workbook, written to a temporary file (memory stays flat)."""
    from exports.season import season_workbook

    season = managed_season(request, pk)
    target = tempfile.TemporaryFile()  # noqa: SIM115 - FileResponse closes it when sent
    season_workbook(season, target)
    target.seek(0)
    return FileResponse(
        target,
        as_attachment=True,
        filename=f"{slugify(season.name) or 'season'}.xlsx",
        content_type=XLSX_CONTENT_TYPE,
    )


@organiser_required
def treasurer_xlsx(request, pk: int, season_pk: int):
    from exports.treasurer import treasurer_workbook

    club, season = club_and_season(request, pk, season_pk)
    data = treasurer_workbook(
        treasurer_view(club=club, season=season), hosted_tournaments(club, season)
    )
    response = HttpResponse(data, content_type=XLSX_CONTENT_TYPE)
    name = "-".join(p for p in (slugify(club.short_name), slugify(season.name), "beitraege") if p)
    response["Content-Disposition"] = f'attachment; filename="{name}.xlsx"'
    return response


def _signup_rows(request, pk: int):
    from signups.selectors import organiser_list

    tournament = get_object_or_404(Tournament, pk=pk)
    check(request.user, MANAGE_TOURNAMENT, tournament)
    return tournament, organiser_list(tournament=tournament)


@organiser_required
def signups_xlsx(request, pk: int):
    """The tournament's online sign-ups (its organisers; names, clubs, e-mail addresses)."""
    from exports.signups import signups_workbook

    tournament, rows = _signup_rows(request, pk)
    return _xlsx_response(
        signups_workbook(rows), f"anmeldungen {tournament.name} {tournament.date:%Y-%m-%d}"
    )


@organiser_required
def signups_csv(request, pk: int):
    from exports.signups import signups_csv as as_csv

    tournament, rows = _signup_rows(request, pk)
    response = HttpResponse(as_csv(rows), content_type="text/csv; charset=utf-8")
    name = slugify(f"anmeldungen {tournament.name} {tournament.date:%Y-%m-%d}")
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return response


@organiser_required
def player_export_xlsx(request):
    from clubs.exports import players_workbook

    _form, data, players = filtered_players(request)
    if data.get("club"):
        check(request.user, MANAGE_CLUB, data["club"])
    players = exportable_players(request.user, players)
    response = HttpResponse(
        players_workbook(players.iterator(chunk_size=500)), content_type=XLSX_CONTENT_TYPE
    )
    response["Content-Disposition"] = 'attachment; filename="spieler.xlsx"'
    return response


urlpatterns = [
    path("tournaments/<int:pk>/standings.xlsx", standings_xlsx, name="standings_xlsx"),
    path("seasons/<int:pk>/standings.xlsx", season_xlsx, name="season_standings_xlsx"),
    path("clubs/<int:pk>/fees/<int:season_pk>/export.xlsx", treasurer_xlsx, name="treasurer_xlsx"),
    path("players/export.xlsx", player_export_xlsx, name="player_export_xlsx"),
    path("tournaments/<int:pk>/signups.xlsx", signups_xlsx, name="signups_xlsx"),
    path("tournaments/<int:pk>/signups.csv", signups_csv, name="signups_csv"),
]
