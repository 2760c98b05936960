"""The season server's API for the laptops: POST a tournament archive (the one write
endpoint of the API), GET the registry; authenticated by a club's publishing token (Bearer).
And the organisers' pages: a club's tokens, a tournament's season server."""

from __future__ import annotations

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from clubs.models import Club
from clubs.permissions import MANAGE_CLUB, MANAGE_TOURNAMENT, check, organiser_required
from publishing.forms import PublicationForm, TokenForm
from publishing.models import Publication, PublishToken
from publishing.selectors import registry
from publishing.services import (
    NotYourClub,
    follow,
    issue_token,
    receive_archive,
    revoke_token,
    token_for,
)
from tournaments.archive_format import ArchiveError, parse_archive
from tournaments.models import Tournament

MAX_BYTES = 50 * 1024 * 1024


def _token(request):
    header = request.headers.get("Authorization", "")
    return token_for(header[len("Bearer ") :].strip() if header.startswith("Bearer ") else "")


@csrf_exempt
@require_POST
def publish_endpoint(request):
    token = _token(request)
    if token is None:
        return JsonResponse({"error": "unknown or revoked token"}, status=401)
    if len(request.body) > MAX_BYTES:
        return JsonResponse({"error": "too large"}, status=413)
    try:
        outcome = receive_archive(token=token, data=parse_archive(request.body))
    except NotYourClub as error:
        return JsonResponse({"error": str(error)}, status=403)
    except ArchiveError as error:
        return JsonResponse({"error": error.message}, status=409)
    status = "created" if outcome.created else "replaced" if outcome.replaced else "unchanged"
    return JsonResponse(
        {
            "status": status,
            "tournament": outcome.tournament.pk,
            "revision": outcome.tournament.archive_revision,
        }
    )


@require_GET
def registry_endpoint(request):
    if _token(request) is None:
        return JsonResponse({"error": "unknown or revoked token"}, status=401)
    return JsonResponse(registry(), json_dumps_params={"ensure_ascii": False})


urlpatterns = [
    path("api/publish/", publish_endpoint, name="publish"),
    path("api/registry/", registry_endpoint, name="registry"),
]


# The organisers' pages: a club's tokens (season server), a tournament's season server (laptop).


@organiser_required
def club_tokens(request, pk: int):
    club = get_object_or_404(Club, pk=pk)
    check(request.user, MANAGE_CLUB, club)
    form = TokenForm(request.POST or None)
    new_token = ""
    if request.method == "POST":
        if request.POST.get("revoke", "").isdigit():
            token = get_object_or_404(PublishToken, pk=request.POST["revoke"], club=club)
            revoke_token(token=token)
            messages.success(request, _("The token is revoked: it publishes nothing any more."))
            return redirect("publishing:club_tokens", pk=club.pk)
        if form.is_valid():
            _token, new_token = issue_token(
                club=club, user=request.user, label=form.cleaned_data["label"]
            )
            form = TokenForm()
    return render(
        request,
        "publishing/club_tokens.html",
        {
            "club": club,
            "form": form,
            "new_token": new_token,
            "tokens": PublishToken.objects.filter(club=club).order_by("-created_at"),
        },
    )


@organiser_required
def tournament_publication(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    check(request.user, MANAGE_TOURNAMENT, tournament)
    form = PublicationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        follow(
            url=form.cleaned_data["url"],
            token=form.cleaned_data["token"],
            tournaments=[tournament],
        )
        messages.success(
            request,
            _("The tournament is sent to the season server whenever it changes."),
        )
        return redirect("publishing:tournament_publication", pk=tournament.pk)
    return render(
        request,
        "publishing/tournament_publication.html",
        {
            "tournament": tournament,
            "form": form,
            "publications": Publication.objects.filter(tournament=tournament).order_by("url"),
        },
    )


urlpatterns += [
    path("clubs/<int:pk>/publishing-tokens/", club_tokens, name="club_tokens"),
    path("tournaments/<int:pk>/publish/", tournament_publication, name="tournament_publication"),
]
