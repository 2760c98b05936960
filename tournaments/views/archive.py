"""Tournament archives in the app: download one tournament as JSON, upload one from another
server (the laptop in the village hall). The same as ``export_tournament`` /
``import_tournament`` on the command line."""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.permissions import (
    MANAGE_CLUB,
    MANAGE_SEASON,
    MANAGE_TOURNAMENT,
    check,
    organiser_required,
)
from seasons.models import Season
from tournaments.forms.archive import ArchiveUploadForm
from tournaments.models import Tournament
from tournaments.selectors.archive import tournament_archive
from tournaments.services.archive import ArchiveError, import_tournament_archive, parse_archive

MAX_ARCHIVE_BYTES = 50 * 1024 * 1024


@organiser_required
def archive_download(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    check(request.user, MANAGE_TOURNAMENT, tournament)
    content = json.dumps(
        tournament_archive(tournament=tournament, user=request.user), ensure_ascii=False, indent=1
    )
    response = HttpResponse(content, content_type="application/json; charset=utf-8")
    name = f"{slugify(tournament.name) or 'tournament'}-{tournament.date:%Y-%m-%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _check_may_import(user, data: dict) -> None:
    """The archive lands in a season and at a host club: whoever imports it must manage that
    season (or, for a tournament outside any season here, the host club; a host club new
    here: some club)."""
    settings = data.get("tournament") or {}
    season_data = settings.get("season") or {}
    season = Season.objects.filter(name=season_data.get("name", "")).first()
    if season is not None:
        check(user, MANAGE_SEASON, season)
        return
    club = Club.objects.filter(short_name=settings.get("host_club", "")).first()
    # a host club new here: someone who runs a club (not a referee, who runs none)
    check(user, MANAGE_CLUB, club)


@organiser_required
def archive_upload(request):
    form = ArchiveUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            if upload.size > MAX_ARCHIVE_BYTES:
                raise ArchiveError(_("The file is too large for a tournament archive."))
            data = parse_archive(upload.read())
            _check_may_import(request.user, data)
            outcome = import_tournament_archive(data=data, user=request.user)
        except ArchiveError as error:
            form.add_error("file", error.message)
        else:
            if outcome.created:
                messages.success(
                    request,
                    _("%(tournament)s imported: %(deals)s deals scored again and matching.")
                    % {"tournament": outcome.tournament, "deals": outcome.deals},
                )
            else:
                messages.info(
                    request,
                    _("%(tournament)s was imported before; nothing changed.")
                    % {"tournament": outcome.tournament},
                )
            return redirect("tournaments:standings", pk=outcome.tournament.pk)
    return render(request, "tournaments/archive/upload.html", {"form": form})


urlpatterns = [
    path("tournaments/<int:pk>/archive.json", archive_download, name="archive_download"),
    path("tournaments/import-archive/", archive_upload, name="archive_upload"),
]
