"""How many sign-ups one client address may send in a window (the cache counts; Redis on
the club server, so every worker counts together)."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache


def _key(address: str) -> str:
    return f"signups:throttle:{address}"


def allow(address: str | None) -> bool:
    """Count one attempt from ``address``; False once it is over the limit in the window."""
    key = _key(address or "unknown")
    window = settings.SIGNUP_THROTTLE_SECONDS
    if cache.add(key, 1, timeout=window):
        return True
    try:
        count = cache.incr(key)
    except ValueError:  # expired in between
        cache.add(key, 1, timeout=window)
        return True
    return count <= settings.SIGNUP_THROTTLE_COUNT
