"""Tournament archives in the app: download one tournament as JSON, upload one from another
server (the laptop in the village hall). The same as ``export_tournament`` /
``import_tournament`` on the command line.

Uploading shows a preview first (``services.archive_plan.plan_archive``): the season it joins, a
tournament not finished (a tick imports it anyway), a newer revision replacing the copy here,
the unknown clubs (map to a club the uploader runs, create, or no club; never silently), the
clubs she does not run whose new players come without a membership, and the uncertain players (a
namesake here: the same person or a new record). The confirm form carries the file along,
compressed and in base64, so the server keeps nothing between the two steps."""

from __future__ import annotations

import base64
import binascii
import json
import zlib

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
from clubs.services.imports import CREATE, MAP, NO_CLUB, ClubChoice
from seasons.models import Season
from tournaments.archive_format import ArchiveError, parse_archive
from tournaments.forms.archive import ArchiveUploadForm
from tournaments.models import Tournament
from tournaments.selectors.archive import tournament_archive
from tournaments.services.archive_plan import plan_archive
from tournaments.services.archive_players import NEW_PLAYER
from tournaments.services.archive_write import import_tournament_archive

MAX_ARCHIVE_BYTES = 50 * 1024 * 1024
MAX_CHOICES = 500  # club and player choices read from one confirm form


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


def _raw(request, form: ArchiveUploadForm) -> bytes | None:
    """The archive of this request: uploaded now, or carried along from the preview."""
    if request.POST.get("content"):
        try:
            return zlib.decompress(base64.b64decode(request.POST["content"], validate=True))
        except (binascii.Error, ValueError, zlib.error):
            form.add_error(None, _("The file was damaged on the way; upload it again."))
            return None
    if not form.is_valid():
        return None
    upload = form.cleaned_data["file"]
    if upload.size > MAX_ARCHIVE_BYTES:
        form.add_error("file", _("The file is too large for a tournament archive."))
        return None
    return upload.read()


def _club_choices(post) -> dict[str, ClubChoice]:
    choices = {}
    for index in range(MAX_CHOICES):
        key = post.get(f"club-{index}-key")
        if key is None:
            break
        value = post.get(f"club-{index}-choice", "")
        if value.startswith(f"{MAP}:") and value[len(MAP) + 1 :].isdigit():
            choices[key] = ClubChoice(MAP, club_id=int(value[len(MAP) + 1 :]))
        elif value == CREATE:
            choices[key] = ClubChoice(CREATE, short_name=post.get(f"club-{index}-short", ""))
        elif value == NO_CLUB:
            choices[key] = ClubChoice(NO_CLUB)
    return choices


def _player_choices(post) -> dict[str, str]:
    return {
        name[len("player-") :]: value
        for name, value in list(post.items())[: MAX_CHOICES * 4]
        if name.startswith("player-") and (value == NEW_PLAYER or value.isdigit())
    }


@organiser_required
def archive_upload(request, season_pk: int | None = None):
    season = None
    if season_pk is not None:
        season = get_object_or_404(Season, pk=season_pk)
        check(request.user, MANAGE_SEASON, season)
    form = ArchiveUploadForm(request.POST or None, request.FILES or None)
    context = {"form": form, "season": season, "plan": None}
    if request.method != "POST":
        return render(request, "tournaments/archive/upload.html", context)
    raw = _raw(request, form)
    if raw is None:
        return render(request, "tournaments/archive/upload.html", context)
    club_choices, player_choices = _club_choices(request.POST), _player_choices(request.POST)
    try:
        data = parse_archive(raw)
        if season is None:
            _check_may_import(request.user, data)
        plan = plan_archive(
            data=data,
            season=season,
            club_choices=club_choices,
            player_choices=player_choices,
            user=request.user,
        )
    except ArchiveError as error:
        form.add_error("file" if "content" not in request.POST else None, error.message)
        return render(request, "tournaments/archive/upload.html", context)
    context.update(
        plan=plan,
        content=base64.b64encode(zlib.compress(raw)).decode("ascii"),
        # only the clubs a name may be mapped to: those the uploader runs (plan.own_club_ids)
        clubs=list(
            Club.objects.order_by("name")
            if plan.own_club_ids is None
            else Club.objects.filter(pk__in=plan.own_club_ids).order_by("name")
        ),
        allow_unfinished=bool(request.POST.get("allow_unfinished")),
    )
    if request.POST.get("step") != "confirm":
        return render(request, "tournaments/archive/upload.html", context)
    try:
        outcome = import_tournament_archive(
            data=data,
            user=request.user,
            season=season,
            allow_unfinished=bool(request.POST.get("allow_unfinished")),
            club_choices=club_choices,
            player_choices=player_choices,
        )
    except ArchiveError as error:
        context["error"] = error.message
        return render(request, "tournaments/archive/upload.html", context)
    if outcome.replaced:
        messages.success(
            request,
            _("%(tournament)s replaced by the newer archive: %(deals)s deals scored again.")
            % {"tournament": outcome.tournament, "deals": outcome.deals},
        )
    elif outcome.created:
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


urlpatterns = [
    path("tournaments/<int:pk>/archive.json", archive_download, name="archive_download"),
    path("tournaments/import-archive/", archive_upload, name="archive_upload"),
    path(
        "seasons/<int:season_pk>/import-archive/",
        archive_upload,
        name="archive_upload_season",
    ),
]
