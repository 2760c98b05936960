"""The client's address, the one place that decides it.

Used by the login throttling (django-axes, through ``AXES_CLIENT_IP_CALLABLE``) and by the
deal history (``tournaments.views.device``). Without a proxy (the venue server, ``manage.py
runserver``) it is ``REMOTE_ADDR``. Behind reverse proxies (Caddy on the club server)
``REMOTE_ADDR`` is the proxy's address; with ``TRUSTED_PROXY_COUNT`` = N (the number of proxies
in front of the app, each appending the address it got the request from to
``X-Forwarded-For``) the client is the N-th entry counted from the right. Entries further left
were sent by the client itself and are never believed. A header with fewer entries than that,
or an entry that is not an IP address, falls back to ``REMOTE_ADDR``.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def _address(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


def client_ip(request) -> str | None:
    """The address the request came from (None if unknown)."""
    meta = getattr(request, "META", None) or {}
    remote = _address(meta.get("REMOTE_ADDR") or "")
    count = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if count <= 0:
        return remote
    hops = [hop for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    if len(hops) < count:
        return remote
    return _address(hops[-count]) or remote


FORWARDING_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_FORWARDED", "HTTP_X_REAL_IP")


def through_unknown_proxy(request) -> bool:
    """Did the request come through a proxy the settings do not know of? Forwarding headers
    while ``TRUSTED_PROXY_COUNT`` is 0: then ``REMOTE_ADDR`` is likely a proxy's (Caddy on the
    same machine looks like loopback), not the client's. A client sending such headers itself
    only makes its request look less trustworthy, never more."""
    if getattr(settings, "TRUSTED_PROXY_COUNT", 0) > 0:
        return False
    meta = getattr(request, "META", None) or {}
    return any(meta.get(name) for name in FORWARDING_HEADERS)
