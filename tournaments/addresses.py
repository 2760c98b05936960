"""Where phones reach this server: the base address in the QR codes and short addresses,
and whether a phone can open it at all (not when it names this computer itself)."""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

import segno
from django.conf import settings

from venue.environment import is_loopback


def public_base_url(request) -> str:
    """Where phones reach this server: the QR codes on the sheets start with it."""
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL
    return request.build_absolute_uri("/").rstrip("/")


def absolute_url(request, path_: str) -> str:
    """``path_`` as an address a phone at the table can open."""
    return public_base_url(request) + path_


def phones_cannot_open(url: str) -> bool:
    """True when ``url`` points at this computer itself (127.0.0.1, localhost): a phone that
    scans it opens itself, not the app."""
    return is_loopback(urlsplit(url).hostname or "")


@lru_cache(maxsize=512)
def qr_data_uri(url: str) -> str:
    """The QR code of ``url`` as an image address (the desk's "enter by phone" box; the
    printed sheets draw theirs in :mod:`printing.score_sheets`)."""
    return segno.make(url, error="m").svg_data_uri(scale=4, border=2)
