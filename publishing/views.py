"""The season server's API for the laptops: POST a tournament archive (the one write
endpoint of the API), GET the registry; authenticated by a club's publishing token (Bearer).
And the organisers' pages: a club's tokens, a tournament's season server."""

from __future__ import annotations

import zlib

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from clubs.models import Club
from clubs.permissions import MANAGE_CLUB, MANAGE_TOURNAMENT, check, organiser_required
from publishing import outbox
from publishing.forms import PublicationForm, TokenForm
from publishing.inbox import Refused, held_state, receive_changes
from publishing.models import Publication, PublishToken
from publishing.selectors import registry
from publishing.sender import wake
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
# Unpacked, a 4,000-deal tournament's archive is about 3 MB; a gzip body may not unpack to
# more than this (a small body that unpacks to gigabytes is refused, not unpacked).
MAX_UNPACKED_BYTES = 64 * 1024 * 1024


class BodyTooLarge(Exception):
    pass


def read_body(request, *, limit: int) -> bytes:
    """The request's body, gzip unpacked, read past Django's form-post cap (an API body is
    not a form) but never beyond ``limit``."""
    length = int(request.META.get("CONTENT_LENGTH") or 0)
    if length > limit:
        raise BodyTooLarge(
            _("The request is too large (%(size)s MB; at most %(limit)s MB).")
            % {"size": length // 2**20, "limit": limit // 2**20}
        )
    raw = request.read(limit + 1)
    if len(raw) > limit:
        raise BodyTooLarge(
            _("The request is too large (at most %(limit)s MB).") % {"limit": limit // 2**20}
        )
    if (request.headers.get("Content-Encoding") or "").lower() == "gzip":
        unpacker = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
        try:
            raw = unpacker.decompress(raw, MAX_UNPACKED_BYTES + 1)
        except zlib.error as error:
            raise ArchiveError(
                _("The request is not valid gzip: %(error)s") % {"error": error}
            ) from error
        if len(raw) > MAX_UNPACKED_BYTES or unpacker.unconsumed_tail:
            raise BodyTooLarge(
                _("The request unpacks to more than %(limit)s MB.")
                % {"limit": MAX_UNPACKED_BYTES // 2**20}
            )
    return raw


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


def _changes_answer(applied) -> dict:
    return {
        "status": applied.status,
        "tournament": applied.tournament.pk,
        "revision": applied.tournament.archive_revision,
        "state": applied.state,
    }


@csrf_exempt
@require_POST
def changes_endpoint(request):
    """A laptop's batch of changes (``publishing.inbox``): JSON, gzip-compressed or not."""
    token = _token(request)
    if token is None:
        return JsonResponse({"error": _("Unknown or revoked token."), "code": "token"}, status=401)
    try:
        raw = read_body(request, limit=MAX_BYTES)
        applied = receive_changes(token=token, raw=raw)
    except NotYourClub as error:
        return JsonResponse({"error": str(error), "code": "not_your_club"}, status=403)
    except BodyTooLarge as error:
        return JsonResponse({"error": str(error), "code": "too_large"}, status=413)
    except ArchiveError as error:
        return JsonResponse({"error": error.message, "code": "invalid"}, status=400)
    except Refused as error:
        return JsonResponse(
            {"error": error.message, "code": error.code, **error.answer}, status=409
        )
    return JsonResponse(_changes_answer(applied))


@require_GET
def state_endpoint(request, archive_id):
    """What this server holds of a tournament of the token's club: its state digest and
    revision (and with ``?digests=1`` each item's digest), for a laptop to check its
    position."""
    token = _token(request)
    if token is None:
        return JsonResponse({"error": _("Unknown or revoked token."), "code": "token"}, status=401)
    return JsonResponse(
        held_state(token=token, archive_id=archive_id, digests=request.GET.get("digests") == "1")
    )


urlpatterns = [
    path("api/publish/changes/", changes_endpoint, name="publish_changes"),
    path("api/publish/state/<uuid:archive_id>/", state_endpoint, name="publish_state"),
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
    if request.method == "POST" and request.POST.get("retry", "").isdigit():
        publication = get_object_or_404(
            Publication, pk=request.POST["retry"], tournament=tournament
        )
        outbox.retry(publication=publication)
        wake()
        messages.success(request, _("The tournament is sent again."))
        return redirect("publishing:tournament_publication", pk=tournament.pk)
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
