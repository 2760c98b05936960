"""The season server's API for the laptops: POST a tournament archive (the one write
endpoint of the API), GET the registry; authenticated by a club's publishing token (Bearer).
And the organisers' pages: a club's tokens, a tournament's season server."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from clubs.models import Club
from clubs.permissions import MANAGE_CLUB, MANAGE_TOURNAMENT, check, organiser_required
from publishing.bodies import BodyError, read_request_body
from publishing.forms import PublicationForm, TokenForm
from publishing.models import Publication, PublishToken
from publishing.selectors import registry
from publishing.services import (
    NotYourClub,
    follow,
    issue_token,
    note_token_used,
    receive_archive,
    revoke_token,
    token_for,
)
from tournaments.models import Tournament
from tournaments.services.archive import ArchiveError, parse_archive


def _token(request):
    header = request.headers.get("Authorization", "")
    return token_for(header[len("Bearer ") :].strip() if header.startswith("Bearer ") else "")


def _refused(message: str, *, status: int) -> JsonResponse:
    """An API refusal: JSON with the German message, never an HTML page."""
    return JsonResponse(
        {"error": message}, status=status, json_dumps_params={"ensure_ascii": False}
    )


def _unknown_token() -> JsonResponse:
    return _refused(
        _("Unknown or revoked token: ask the club's organisers on the season server for one."),
        status=401,
    )


def _only(method: str):
    """Like ``require_http_methods``, answering another method with JSON (405)."""

    def decorate(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method != method:
                response = _refused(
                    _("This address takes %(method)s only.") % {"method": method}, status=405
                )
                response["Allow"] = method
                return response
            return view(request, *args, **kwargs)

        return wrapper

    return decorate


@csrf_exempt
@_only("POST")
def publish_endpoint(request):
    token = _token(request)
    if token is None:
        return _unknown_token()
    try:
        # Read here with the API's own limit (gzip unpacked with a cap), not Django's
        # DATA_UPLOAD_MAX_MEMORY_SIZE for form posts (which answers an HTML page).
        body = read_request_body(request)
    except BodyError as error:
        return _refused(error.message, status=error.status)
    try:
        data = parse_archive(body)
    except ArchiveError as error:  # not an archive at all: the request is wrong
        return _refused(error.message, status=400)
    try:
        outcome = receive_archive(token=token, data=data)
    except NotYourClub as error:
        return _refused(str(error), status=403)
    except ArchiveError as error:
        return _refused(error.message, status=409)
    status = "created" if outcome.created else "replaced" if outcome.replaced else "unchanged"
    return JsonResponse(
        {
            "status": status,
            "tournament": outcome.tournament.pk,
            "revision": outcome.tournament.archive_revision,
        }
    )


@_only("GET")
def registry_endpoint(request):
    """The registry as the token's club may see it (``clubs.permissions``): its own members
    in full, everybody else as on the public pages."""
    token = _token(request)
    if token is None:
        return _unknown_token()
    note_token_used(token=token)
    return JsonResponse(registry(club=token.club), json_dumps_params={"ensure_ascii": False})


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
