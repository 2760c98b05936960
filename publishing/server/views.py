"""The season server's API for the laptops: POST a tournament archive (the one write
endpoint of the API), GET the registry; authenticated by a club's publishing token (Bearer).
And the organisers' page of a club's tokens. (The laptop's pages: ``publishing.laptop.views``.)"""

from __future__ import annotations

import logging
import re
from functools import wraps

from django.contrib import messages
from django.db import DatabaseError
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from clubs.models import Club
from clubs.permissions import MANAGE_CLUB, check, organiser_required
from publishing.bodies import BodyError, read_request_body
from publishing.models import PublishToken
from publishing.server.forms import TokenForm
from publishing.server.handover import (
    HandOverError,
    hand_over,
    registrations_for_the_hall,
    tournaments_for_the_hall,
)
from publishing.server.inbox import (
    Busy,
    Refused,
    TakeRequestError,
    held_state,
    parse_take_request,
    receive_changes,
    take_back,
)
from publishing.server.selectors import registry
from publishing.server.services import (
    NotYourClub,
    issue_token,
    note_token_used,
    receive_archive,
    revoke_token,
    token_for,
)
from tournaments.archive_format import ArchiveError, parse_archive

logger = logging.getLogger(__name__)


def _token(request):
    header = request.headers.get("Authorization", "")
    return token_for(raw=header[len("Bearer ") :].strip() if header.startswith("Bearer ") else "")


def _refused(message: str, *, status: int, code: str = "", **more) -> JsonResponse:
    """An API refusal: JSON with the German message (and, for the laptop to act on, a
    ``code``), never an HTML page."""
    answer = {"error": message, **({"code": code} if code else {}), **more}
    return JsonResponse(answer, status=status, json_dumps_params={"ensure_ascii": False})


def _unknown_token_message() -> str:
    return _("Unknown or revoked token: ask the club's organisers on the season server for one.")


def _unknown_token() -> JsonResponse:
    return _refused(_unknown_token_message(), status=401, code="token")


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


def _changes_answer(applied) -> dict:
    return {
        "status": applied.status,
        "tournament": applied.tournament.pk,
        "revision": applied.tournament.archive_revision,
        "state": applied.state,
        "notes": list(applied.notes),
    }


@csrf_exempt
@_only("POST")
def changes_endpoint(request):
    """A laptop's batch of changes (``publishing.server.inbox``): JSON, gzip-compressed or not.
    Every refusal is JSON with a German message and a ``code`` the laptop acts on."""
    token = _token(request)
    if token is None:
        return _refused(_unknown_token_message(), status=401, code="token")
    try:
        applied = receive_changes(token=token, raw=read_request_body(request))
    except BodyError as error:
        return _refused(
            error.message,
            status=error.status,
            code="too_large" if error.status == 413 else "invalid",
        )
    except NotYourClub as error:
        return _refused(str(error), status=403, code="not_your_club")
    except ArchiveError as error:
        return _refused(error.message, status=400, code="invalid")
    except Refused as error:
        return _refused(error.message, status=409, code=error.code, **error.answer)
    except Busy:
        return _busy()
    except Exception:  # the server's own fault: JSON for the laptop, the trace in the log
        logger.exception("batch of changes")
        return _own_fault()
    return JsonResponse(_changes_answer(applied))


def _busy() -> JsonResponse:
    response = _refused(
        _("The season server is busy; the laptop tries again in a moment."),
        status=503,
        code="busy",
    )
    response["Retry-After"] = "2"
    return response


def _own_fault() -> JsonResponse:
    return _refused(
        _("The season server met an error of its own; the laptop tries again later."),
        status=500,
        code="server",
    )


@csrf_exempt
@_only("POST")
def take_endpoint(request, archive_id):
    """A laptop takes back what only this server holds before publishing on top
    (``publishing.server.inbox.take_back``): ``{"epoch", "state", "keys"}`` → the items held here."""
    token = _token(request)
    if token is None:
        return _refused(_unknown_token_message(), status=401, code="token")
    try:
        wanted = parse_take_request(read_request_body(request))
        answer = take_back(token=token, archive_id=str(archive_id), **wanted)
    except BodyError as error:
        return _refused(error.message, status=error.status, code="invalid")
    except TakeRequestError as error:
        return _refused(error.message, status=400, code="invalid")
    except NotYourClub as error:
        return _refused(str(error), status=403, code="not_your_club")
    except Refused as error:
        return _refused(error.message, status=409, code=error.code, **error.answer)
    except DatabaseError:
        logger.warning("take back", exc_info=True)
        return _busy()
    return JsonResponse(answer, json_dumps_params={"ensure_ascii": False})


@_only("GET")
def state_endpoint(request, archive_id):
    """What this server holds of a tournament of the token's club: its state digest and
    revision (and with ``?digests=1`` each item's digest), for a laptop to check its
    position."""
    token = _token(request)
    if token is None:
        return _refused(_unknown_token_message(), status=401, code="token")
    base = request.GET.get("base") or None
    if base is not None and not re.fullmatch(r"[0-9a-f]{64}", base):
        return _refused(
            _("The state is not a state digest (64 hexadecimal digits)."),
            status=400,
            code="invalid",
        )
    return JsonResponse(
        held_state(
            token=token,
            archive_id=archive_id,
            digests=request.GET.get("digests") == "1",
            base=base,
        )
    )


@_only("GET")
def hall_list_endpoint(request):
    """The token's club's tournaments set up here that a laptop may fetch (the way back)."""
    token = _token(request)
    if token is None:
        return _unknown_token()
    note_token_used(token=token)
    return JsonResponse(
        {"tournaments": tournaments_for_the_hall(token=token)},
        json_dumps_params={"ensure_ascii": False},
    )


@csrf_exempt
@_only("POST")
def hall_fetch_endpoint(request, archive_id):
    """Hand a tournament to the hall (``publishing.server.handover``): its archive and the
    position the server holds; from then on the laptop writes it."""
    token = _token(request)
    if token is None:
        return _unknown_token()
    try:
        handed = hand_over(token=token, archive_id=archive_id)
    except HandOverError as error:
        return _refused(error.message, status=error.status, code="hall")
    return JsonResponse(
        {
            "archive": handed.archive,
            "state": handed.state,
            "digests": handed.digests,
            "revision": handed.revision,
            "warning": handed.warning,
        },
        json_dumps_params={"ensure_ascii": False},
    )


@_only("GET")
def hall_registrations_endpoint(request, archive_id):
    """Registrations made here since the laptop fetched the tournament, after ``?after=ID``."""
    token = _token(request)
    if token is None:
        return _unknown_token()
    after = request.GET.get("after", "0")
    try:
        answer = registrations_for_the_hall(
            token=token, archive_id=archive_id, after=int(after) if after.isdigit() else 0
        )
    except HandOverError as error:
        return _refused(error.message, status=error.status, code="hall")
    return JsonResponse(answer, json_dumps_params={"ensure_ascii": False})


urlpatterns = [
    path("api/publish/tournaments/", hall_list_endpoint, name="hall_tournaments"),
    path(
        "api/publish/tournaments/<str:archive_id>/fetch/",
        hall_fetch_endpoint,
        name="hall_fetch",
    ),
    path(
        "api/publish/tournaments/<str:archive_id>/registrations/",
        hall_registrations_endpoint,
        name="hall_registrations",
    ),
    path("api/publish/changes/", changes_endpoint, name="publish_changes"),
    path("api/publish/state/<uuid:archive_id>/", state_endpoint, name="publish_state"),
    path("api/publish/take/<uuid:archive_id>/", take_endpoint, name="publish_take"),
    path("api/publish/", publish_endpoint, name="publish"),
    path("api/registry/", registry_endpoint, name="registry"),
]


# The organisers' page: a club's tokens.


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


urlpatterns += [
    path("clubs/<int:pk>/publishing-tokens/", club_tokens, name="club_tokens"),
]
