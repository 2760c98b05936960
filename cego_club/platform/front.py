"""Spectators' pages answered in front of Django, keyed by what they show (the venue server).

Every spectator who is not signed in sees the same standings page and projector board
(``tournaments.views.standings``: the page is cached by the tournament's revision, only the
clock is put in per request). Served through Django, such a page still paid for the whole
middleware stack (sessions, CSRF, messages, the Content-Security-Policy, …), several times the
cost of finding the page. :class:`SharedPages` wraps the WSGI application and answers those
requests itself:

- A route is registered by the area that owns the page (:func:`share`, from its
  ``AppConfig.ready``): a pattern on the path, the query strings it serves, ``version`` (what
  the page is built from, e.g. the tournament's revision: one small query; None lets Django
  answer) and ``finish`` (puts the per-request parts, the clock, into the stored body).
- A request it may answer: GET, a registered path and query, no session cookie and no
  messages cookie (the conditions of the view's own shared page). Its key: path, query, host,
  scheme, htmx's header (an htmx request gets the live part), the language (the switch's
  cookie) and ``version``.
- A miss goes to Django as ever. If the view served the shared page it hands its body, with
  the clock's marks still in it, to :func:`offer`; the answer (status, headers, that body) is
  kept (in this process's memory, :data:`KEPT`) if it is a 200 without cookies and the
  version did not move while it was built (read again afterwards), so a page is never kept
  under a version older than its data: a deal bumps the revision, and the next request asks
  for a new key. (The tournaments' ``version`` is read at most every 0.1 s and forgotten at
  each bump in this process: ``tournaments.caching.RecentRevisions``.)
- A miss is built once: the spectators who miss the same key meanwhile wait for that build
  and take its answer (:meth:`SharedPages._build_once`).

Only in venue mode (``manage.py venue``: one process, the cache in local memory).
"""

from __future__ import annotations

import contextvars
import hashlib
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

from django.conf import settings
from django.http import parse_cookie

from cego_club.platform.language import chosen_language

# Raise when what a stored answer holds changes (a new release with an old cache).
FRONT_VERSION = 1
MESSAGES_COOKIE = "messages"  # django.contrib.messages' CookieStorage.cookie_name
# Headers waitress writes itself, or that are worked out again for each answer.
_NOT_KEPT = {"content-length", "date", "server", "connection"}


class Kept:
    """The last answers, in this process's memory (the venue is one process): no copy, no
    pickling on a hit. Keys name the revision, so an old answer is never found, only pushed
    out by newer ones (least recently used first)."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.answers: OrderedDict[str, tuple] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> tuple | None:
        with self.lock:
            answer = self.answers.get(key)
            if answer is not None:
                self.answers.move_to_end(key)
            return answer

    def put(self, key: str, answer: tuple) -> None:
        with self.lock:
            self.answers[key] = answer
            self.answers.move_to_end(key)
            while len(self.answers) > self.size:
                self.answers.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.answers.clear()


KEPT = Kept()

# The pages being built now, by key: the first request of a key builds, the others wait.
_BUILDING: dict[str, threading.Event] = {}
_BUILDING_LOCK = threading.Lock()
BUILD_WAIT = 2.0  # seconds a spectator waits for another's build before building itself


@dataclass(frozen=True)
class SharedRoute:
    pattern: re.Pattern[str]
    queries: frozenset[str]
    version: Callable[[re.Match[str]], Hashable | None]
    finish: Callable[[bytes], bytes]
    finish_per_second: bool = False


ROUTES: list[SharedRoute] = []

_offered: contextvars.ContextVar[list[bytes] | None] = contextvars.ContextVar(
    "shared_page_offered", default=None
)


def share(
    pattern: str,
    *,
    queries: Iterable[str],
    version: Callable[[re.Match[str]], Hashable | None],
    finish: Callable[[bytes], bytes],
    finish_per_second: bool = False,
) -> None:
    """Let :class:`SharedPages` answer GETs of ``pattern`` (a regular expression on the whole
    path) with these ``queries`` (idempotent: a pattern is registered once).
    ``finish_per_second``: what ``finish`` puts in changes once a second at most (a clock
    with seconds), so its answer is reused within the second."""
    if any(route.pattern.pattern == pattern for route in ROUTES):
        return
    ROUTES.append(
        SharedRoute(
            pattern=re.compile(pattern),
            queries=frozenset(queries),
            version=version,
            finish=finish,
            finish_per_second=finish_per_second,
        )
    )


def offer(body: bytes) -> None:
    """Called by a view serving a shared page: ``body`` as stored (the clock's marks still in
    it, ``finish`` puts the time in). Does nothing outside :class:`SharedPages`."""
    slot = _offered.get()
    if slot is not None:
        slot.append(body)


def route_of(method: str, path: str) -> tuple[SharedRoute, re.Match[str]] | None:
    """The shared route a request's method and path (without its query) belong to."""
    if method != "GET":
        return None
    for route in ROUTES:
        match = route.pattern.fullmatch(path)
        if match is not None:
            return route, match
    return None


def is_crowd(method: str, path: str) -> bool:
    """A spectator's request (a shared page, whoever asks): it may wait behind the phones."""
    return route_of(method, path) is not None


# Finished bodies of this second, by key: (second, kept body, finished body). Putting the clock
# into a 78 kB standings page took half of a kept page's own time (bytes.replace, the date's
# format), the same work for each of a thousand spectators a second.
_FINISHED: dict[str, tuple[int, bytes, bytes]] = {}


def _finished(route: SharedRoute, key: str, body: bytes) -> bytes:
    if not route.finish_per_second:
        return route.finish(body)
    second = int(time.time())
    done = _FINISHED.get(key)
    if done is None or done[0] != second or done[1] is not body:
        if len(_FINISHED) > 4 * KEPT.size:  # keys of revisions gone
            _FINISHED.clear()
        done = _FINISHED[key] = (second, body, route.finish(body))
    return done[2]


def _answer(kept: tuple, route: SharedRoute, key: str, start_response: Callable) -> list[bytes]:
    """A kept answer, with the per-request parts (the clock) put in."""
    status, headers, body = kept
    body = _finished(route, key, body)
    start_response(status, [*headers, ("Content-Length", str(len(body)))])
    return [body]


class SharedPages:
    """The WSGI application ``app``, with the shared pages answered in front of it."""

    def __init__(self, app: Callable) -> None:
        self.app = app

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        found = route_of(environ.get("REQUEST_METHOD", ""), environ.get("PATH_INFO", ""))
        query = environ.get("QUERY_STRING", "")
        if found is None or query not in found[0].queries:
            return self.app(environ, start_response)
        route, match = found
        cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
        if settings.SESSION_COOKIE_NAME in cookies or MESSAGES_COOKIE in cookies:
            return self.app(environ, start_response)
        try:
            version = route.version(match)
        except Exception:  # noqa: BLE001 - e.g. the database away: Django answers as ever
            version = None
        if version is None:
            return self.app(environ, start_response)
        key = self._key(environ, query, cookies, version)
        kept = KEPT.get(key)
        if kept is not None:
            return _answer(kept, route, key, start_response)
        return self._build_once(environ, start_response, route, match, key, version)

    def _build_once(self, environ, start_response, route, match, key, version) -> Iterable[bytes]:
        """One build of a missed page at a time: after a deal every spectator's next request
        misses at once, and each of waitress's threads built the same page (eight builds of
        the standings where one serves them all, beside the phones). The first request
        builds; the others wait for it and take what it kept. If it kept nothing (the
        revision moved meanwhile) or takes longer than ``BUILD_WAIT``, each goes on to Django
        as before: nobody waits in a queue of builds."""
        with _BUILDING_LOCK:
            building = _BUILDING.get(key)
            first = building is None
            if first:
                building = _BUILDING[key] = threading.Event()
        if not first:
            building.wait(BUILD_WAIT)
            kept = KEPT.get(key)
            if kept is not None:
                return _answer(kept, route, key, start_response)
            return self._build(environ, start_response, route, match, key, version)
        try:
            return self._build(environ, start_response, route, match, key, version)
        finally:
            with _BUILDING_LOCK:
                _BUILDING.pop(key, None)
            building.set()

    @staticmethod
    def _key(environ: dict, query: str, cookies: dict, version: Hashable) -> str:
        language = chosen_language(cookies.get(settings.LANGUAGE_COOKIE_NAME))
        raw = "\x00".join(
            str(part)
            for part in (
                FRONT_VERSION,
                environ.get("PATH_INFO", ""),
                query,
                environ.get("HTTP_HOST", ""),
                environ.get("wsgi.url_scheme", ""),
                environ.get("HTTP_HX_REQUEST", ""),  # htmx asks for the live part only
                language,
                version,
            )
        )
        return "front:" + hashlib.sha1(raw.encode()).hexdigest()

    def _build(self, environ, start_response, route, match, key, version) -> Iterable[bytes]:
        answer: dict = {}

        def capture(status, headers, exc_info=None):
            answer["status"], answer["headers"] = status, headers
            return start_response(status, headers, exc_info)

        slot: list[bytes] = []
        token = _offered.set(slot)
        try:
            result = self.app(environ, capture)
        finally:
            _offered.reset(token)
        headers = answer.get("headers") or []
        if len(slot) == 1 and answer.get("status", "").startswith("200 "):
            try:
                unchanged = route.version(match) == version  # nothing changed while it was built
            except Exception:  # noqa: BLE001 - not kept, then
                unchanged = False
        else:
            unchanged = False
        if (
            len(slot) == 1
            and answer.get("status", "").startswith("200 ")
            and not any(name.lower() == "set-cookie" for name, _value in headers)
            and unchanged
        ):
            kept = [(name, value) for name, value in headers if name.lower() not in _NOT_KEPT]
            KEPT.put(key, (answer["status"], kept, slot[0]))
        return result


def front(app: Callable) -> Callable:
    """``app`` behind :class:`SharedPages` in venue mode; ``app`` itself elsewhere."""
    return SharedPages(app) if getattr(settings, "VENUE_MODE", False) else app
