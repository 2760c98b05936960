"""What the public sign-up form lets one client address do in a window, and how many first
mails one e-mail address gets in a day. Counted in the cache (Redis on the club server, so
every worker counts together; a worker's memory on the laptop).

The throttle counts what abuse looks like, not what a club secretary does when she signs up
her members from one PC (or a clubhouse behind one router does): in one window
(``SIGNUP_THROTTLE_SECONDS``, 600 s), from one address,

- more than ``SIGNUP_THROTTLE_NAMES`` (30) different names: a secretary types a member in
  20 to 30 seconds, so 30 names in 10 minutes is the fastest a person fills the form in; a
  script sends far more. A name counted once may be sent again (a correction) within the
  next rule;
- the same name more than ``SIGNUP_THROTTLE_SAME_NAME`` (5) times: a person correcting the
  form needs two or three tries (the consent, a mistyped address), five leave room for a
  double click; more is a loop (sign up, cancel, sign up, each time a mail);
- more than ``SIGNUP_THROTTLE_POSTS`` (60) sends of the form at all, with or without a
  name (empty or malformed ones too): twice the names, so a secretary's corrections never
  reach it first.

The window starts with the first send from that address and is fixed (it does not slide):
the answer can say how long to wait. "The same name" is ``clubs.search.player_key``
("Mueller" is "Müller"). Two sends at the very same moment may both pass the last place:
the limits are a brake, not a ledger.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from clubs.search import player_key

# First mails to one e-mail address (``mail_allowed``) are counted over a day.
MAIL_WINDOW_SECONDS = 24 * 60 * 60


@dataclass(frozen=True)
class Refused:
    """Over a limit: how long until the window ends, and which limit (for the tests)."""

    wait_seconds: int
    limit: str  # "posts", "names" or "same_name"

    @property
    def wait_minutes(self) -> int:
        return max(1, math.ceil(self.wait_seconds / 60))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:24]


def _count(key: str, timeout: int) -> int:
    """Add one to the counter ``key`` (made with ``timeout``); its new value."""
    if cache.add(key, 1, timeout=timeout):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired in between
        cache.add(key, 1, timeout=timeout)
        return 1


def _window(address: str | None, now: float) -> tuple[str, float]:
    """The current window of ``address``: its keys' prefix and when it started."""
    base = f"signups:throttle:{address or 'unknown'}"
    for _attempt in range(3):
        if cache.add(f"{base}:since", now, timeout=settings.SIGNUP_THROTTLE_SECONDS):
            return f"{base}:{now!r}", now
        since = cache.get(f"{base}:since")
        if since is not None:
            return f"{base}:{since!r}", float(since)
    return f"{base}:{now!r}", now


def count_send(*, address: str | None, first_name: str, last_name: str) -> Refused | None:
    """Count one send of the form from ``address`` naming this person; ``Refused`` once it
    is over a limit (nothing else is done with the send then)."""
    now = time.time()
    prefix, since = _window(address, now)
    window = settings.SIGNUP_THROTTLE_SECONDS
    left = max(1, math.ceil(since + window - now))
    if _count(f"{prefix}:posts", left) > settings.SIGNUP_THROTTLE_POSTS:
        return Refused(wait_seconds=left, limit="posts")
    first, last = (first_name or "")[:200].strip(), (last_name or "")[:200].strip()
    if not first and not last:
        return None
    name = f"{prefix}:name:{_digest(player_key(first, last))}"
    if cache.get(name) is None:
        if (cache.get(f"{prefix}:names") or 0) >= settings.SIGNUP_THROTTLE_NAMES:
            return Refused(wait_seconds=left, limit="names")  # a new name: not counted
        if cache.add(name, 1, timeout=left):
            _count(f"{prefix}:names", left)
            return None
    if _count(name, left) > settings.SIGNUP_THROTTLE_SAME_NAME:
        return Refused(wait_seconds=left, limit="same_name")
    return None


def mail_allowed(*, email: str) -> bool:
    """Count one first mail (the confirmation link) to ``email``; False once it has had
    ``SIGNUP_MAILS_PER_ADDRESS`` (20) in a day. Whoever types somebody else's address into
    the form, from however many connections, fills that inbox with at most that many."""
    key = f"signups:mails:{_digest(email.strip().lower())}"
    return _count(key, MAIL_WINDOW_SECONDS) <= settings.SIGNUP_MAILS_PER_ADDRESS
