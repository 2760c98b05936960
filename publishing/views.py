"""The season server's API for the laptops: POST a tournament archive (the one write
endpoint), GET the registry. Authenticated by a club's publishing token (Bearer)."""

from __future__ import annotations

from django.http import JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from publishing.selectors import registry
from publishing.services import NotYourClub, receive_archive, token_for
from tournaments.services.archive import ArchiveError, parse_archive

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
