"""A per-browser id for the phones at the tables: a random value in a long-lived cookie.

The deal history records it (with the IP address) for every entry and confirmation, so that
one phone cannot enter and confirm the same deal by choosing another seat, and the organiser
can see where that was tried. It identifies a browser, not a person: clearing cookies gives a
new id, which is why the address is kept too, and why a deal entered from one address and
browser (User-Agent) cannot be confirmed from the same address and browser either
(``Device.client``; docs/architecture/tournaments.md, "Phones and devices").
"""

from __future__ import annotations

import re
import secrets

from django.http import HttpRequest, HttpResponse

from tournaments.services.results_common import Device
from venue.client_ip import client_ip

COOKIE = "cego_device"
MAX_AGE = 2 * 365 * 24 * 3600
_VALID = re.compile(r"^[0-9a-f]{32}$")
USER_AGENT_LIMIT = 512  # compared (hashed with the address), never stored


def device_of(request: HttpRequest) -> Device:
    """This browser's device (a new id is made, and set as a cookie, on first use)."""
    device_id = getattr(request, "_device_id", None)
    if device_id is None:
        device_id = request.COOKIES.get(COOKIE, "")
        if not _VALID.match(device_id):
            device_id = secrets.token_hex(16)
            request._new_device_id = device_id
        request._device_id = device_id
    return Device(
        id=device_id,
        ip_address=client_ip(request),
        user_agent=request.META.get("HTTP_USER_AGENT", "")[:USER_AGENT_LIMIT],
    )


class DeviceCookieMiddleware:
    """Sets the cookie of a device id that a view handed out during the request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        new_id = getattr(request, "_new_device_id", None)
        if new_id:
            response.set_cookie(
                COOKIE,
                new_id,
                max_age=MAX_AGE,
                httponly=True,
                samesite="Lax",
                secure=request.is_secure(),
            )
        return response
