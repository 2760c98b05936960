"""Signed-in sessions on the hall's network (venue mode: plain HTTP on a shared Wi-Fi).

Whoever shares the hall's Wi-Fi can read a session cookie off the air and send it from their
own phone. In venue mode (``settings.VENUE_MODE``, set by ``manage.py venue``) a login is
therefore held to the device it was made on and to the day:

- At login (``bind_session``, on Django's ``user_logged_in``) the session keeps a hash of the
  client's address (``venue.client_ip``) and its browser's User-Agent, and the time.
- On every request (``VenueSessionMiddleware``) a signed-in session used from another address
  or browser is refused for that request, and only for it: the request goes on with an empty
  session of its own (anonymous: the login page, "please log in again"), while the stored
  session stays as it is, so the organiser on the device that logged in is not logged out by
  whoever copied the cookie (flushing it let anyone on the Wi-Fi log the organiser out). The
  address is what a copied cookie cannot bring along (each phone on the Wi-Fi has its own, and
  keeps it through the day); the browser is compared too. A device that rejoins the Wi-Fi under
  another address must log in again. A session older than ``SESSION_COOKIE_AGE`` (16 hours in
  venue mode), or signed in without the binding, is logged out: its data is flushed.
- The session cookie lives as long as the browser (``SESSION_EXPIRE_AT_BROWSER_CLOSE``).

Outside venue mode (the club server behind HTTPS) nothing here applies. Anonymous sessions
(a phone's chosen seat) are not bound: they hold no rights beyond the table's token.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import time
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import SESSION_KEY, logout
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from venue.client_ip import client_ip, through_unknown_proxy

CLIENT_KEY = "venue_client"
SINCE_KEY = "venue_login_at"


def venue_mode() -> bool:
    return bool(getattr(settings, "VENUE_MODE", False))


def client_fingerprint(request: HttpRequest) -> str:
    """A hash of the request's client address and User-Agent (neither is stored as such)."""
    address = client_ip(request) or ""
    agent = request.META.get("HTTP_USER_AGENT", "")[:512]
    return hashlib.sha256(f"{address}\n{agent}".encode()).hexdigest()


def bind_session(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """``user_logged_in`` receiver: in venue mode, hold the new session to this device."""
    if not venue_mode() or request is None or not hasattr(request, "session"):
        return
    request.session[CLIENT_KEY] = client_fingerprint(request)
    request.session[SINCE_KEY] = int(time.time())


HOLDS, FOREIGN, EXPIRED = "holds", "foreign", "expired"


def session_state(request: HttpRequest) -> str:
    """Whether the signed-in session may go on from this request (venue mode): ``HOLDS``;
    ``FOREIGN``, another device's request with the session's cookie; ``EXPIRED``, past its
    day or signed in without a binding (before venue mode, or forged)."""
    session = request.session
    bound = session.get(CLIENT_KEY)
    since = session.get(SINCE_KEY)
    if not isinstance(bound, str) or not isinstance(since, int):
        return EXPIRED
    if time.time() - since > settings.SESSION_COOKIE_AGE:
        return EXPIRED
    return HOLDS if hmac.compare_digest(bound, client_fingerprint(request)) else FOREIGN


def _refuse_foreign(request: HttpRequest) -> None:
    """This request only goes on without the session it brought: a fresh, empty session of
    its own (so nothing it does is written into the real one) and no user. The stored session
    is left alone; the cookie this browser copied is replaced or deleted by the answer."""
    engine = import_module(settings.SESSION_ENGINE)
    request.session = engine.SessionStore()
    request.user = AnonymousUser()

    async def auser() -> AnonymousUser:
        return AnonymousUser()

    request.auser = auser


class VenueSessionMiddleware:
    """In venue mode, refuses a signed-in session's cookie used from another device (that
    request goes on anonymous, the session is kept for its own device) and logs out a
    session past its day (after ``AuthenticationMiddleware`` and ``MessageMiddleware``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            venue_mode()
            and hasattr(request, "session")
            and request.session.get(SESSION_KEY) is not None
        ):
            state = session_state(request)
            if state != HOLDS:
                if state == FOREIGN:
                    _refuse_foreign(request)
                else:
                    logout(request)  # flushes the session; request.user is now anonymous
                messages.info(
                    request,
                    _(
                        "Please log in again: a login on the hall's network holds only on the "
                        "device it was made on, and only for the day."
                    ),
                )
        return self.get_response(request)


def from_this_machine(request: HttpRequest) -> bool:
    """The request came from the laptop itself (a loopback address, not through a proxy the
    settings do not name): it never crossed the hall's Wi-Fi."""
    address = client_ip(request)
    if not address or through_unknown_proxy(request):
        return False
    ip = ipaddress.ip_address(address)
    return (getattr(ip, "ipv4_mapped", None) or ip).is_loopback


def venue_context(request: HttpRequest) -> dict[str, bool]:
    """Template context: ``venue_mode``, and ``hall_warning``: the warning about the open
    Wi-Fi, in venue mode for a browser on the Wi-Fi (not on the laptop itself, whose
    ``localhost`` traffic never leaves it)."""
    mode = venue_mode()
    return {"venue_mode": mode, "hall_warning": mode and not from_this_machine(request)}
