"""Output cached by tournament revision (see ``tournaments.services.revision``).

A key names the tournament, the revision the output was built from, the language and whatever
else changes the output (public or staff view, the address in QR codes, …). Nothing is ever
invalidated: a change bumps the revision, so the next reader asks for a new key. Output is
stored only if the revision did not move while it was built, so the data it shows belong to
the revision in its key.

Works with any Django cache: local memory on the venue laptop, Redis on a club server.
"""

from __future__ import annotations

import hashlib
import itertools
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import get_language

from seasons.models import counted_tournaments
from tournaments.models import Tournament

T = TypeVar("T")

# Raise when a template's output changes under the same revision (a new release).
RENDER_VERSION = 1
# Revision keys never go stale; this only lets old revisions leave the cache.
TIMEOUT_SECONDS = 6 * 60 * 60
# How long a request waits for the same output being built by another thread.
WAIT_SECONDS = 120

_building: dict[str, threading.Event] = {}
_building_lock = threading.Lock()
# Per thread: the builds under way (tournament id, revision, what inner builds left to store).
_local = threading.local()


def revision_key(tournament: Tournament, *parts: Hashable, language: bool = True) -> str:
    """The cache key of output built from ``tournament`` as read (its revision included);
    ``language=False``: the same for every language (data, not markup)."""
    return _key(tournament.pk, tournament.revision, parts, language=language)


def _key(tournament_id: int, revision: int, parts: tuple, *, language: bool = True) -> str:
    raw = "|".join(
        str(p)
        for p in (
            RENDER_VERSION,
            tournament_id,
            revision,
            get_language() if language else "-",
            *parts,
        )
    )
    return "rev:" + hashlib.sha1(raw.encode()).hexdigest()  # short, and safe for memcached


def current_revision(tournament_id: int) -> int | None:
    # Plain SQL: asked on every cached read, where building the ORM query (about 0.5 ms)
    # would cost more than the rest of serving the page from the cache.
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {quote('revision')} FROM {quote(Tournament._meta.db_table)} "  # noqa: S608
            f"WHERE {quote(Tournament._meta.pk.column)} = %s",
            [tournament_id],
        )
        row = cursor.fetchone()
    return None if row is None else row[0]


class RecentRevisions:
    """Tournaments' revisions as read in the last ``max_age`` seconds, for the venue's front
    (``cego_club/platform/front.py``), which needs one on every spectator's request: with 500
    spectators' connections open, that query was nine tenths of the front's own time (py-spy;
    each query lets go of the interpreter and waits to get it back behind the other threads).

    A revision bumped in this process forgets them all at once (:func:`revisions_moved`, at
    the bump and at its commit), so a spectator sees the venue's own changes as soon as they
    are committed; a change written by another process (a command on the same database) shows
    after at most ``max_age``. A reading is kept only if nothing moved while it was read."""

    def __init__(self, max_age: float = 0.1, clock: Callable[[], float] = time.monotonic) -> None:
        self.max_age = max_age
        self.clock = clock
        self._moves = itertools.count(1)  # next() is atomic: no lock on the hot path
        self._generation = 0
        self._seen: dict[int, tuple[int | None, int, float]] = {}

    def revision(self, tournament_id: int) -> int | None:
        generation, now = self._generation, self.clock()
        seen = self._seen.get(tournament_id)
        if seen is not None and seen[1] == generation and now - seen[2] < self.max_age:
            return seen[0]
        revision = current_revision(tournament_id)
        if len(self._seen) > 1000:  # addresses of tournaments that do not exist, say
            self._seen = {}
        self._seen[tournament_id] = (revision, generation, now)
        return revision

    def forget(self) -> None:
        self._generation = next(self._moves)


RECENT_REVISIONS = RecentRevisions()


def revisions_moved() -> None:
    """A revision was bumped in this process's transaction: what was read before is forgotten
    now and again when the transaction commits (a reading in between saw the old number)."""
    RECENT_REVISIONS.forget()
    transaction.on_commit(RECENT_REVISIONS.forget)


def revision_cached_parts(
    tournament: Tournament, names: tuple[str, ...], *parts: Hashable, build: Callable[[], dict]
) -> dict:
    """Several outputs built together (one selector call) and cached under a key each, so
    that a reader who needs only some of them does not load the others from the cache.
    ``build()`` returns every name; the result holds at least ``names``."""
    keys = {name: revision_key(tournament, *parts, name) for name in names}
    found = cache.get_many(list(keys.values()))
    if len(found) == len(keys):
        return {name: found[key] for name, key in keys.items()}
    with _building_frame(tournament) as pending:
        values = build()
    _store(
        tournament,
        {**pending, **{revision_key(tournament, *parts, name): v for name, v in values.items()}},
    )
    return values


@contextmanager
def _building_frame(tournament: Tournament) -> Iterator[dict]:
    """While ``tournament``'s output is built: what inner builds for the same tournament and
    revision leave to this build's check (see :func:`_store`)."""
    frames = _local.__dict__.setdefault("frames", [])
    pending: dict = {}
    frames.append((tournament.pk, tournament.revision, pending))
    try:
        yield pending
    finally:
        frames.pop()


def _store(tournament: Tournament, items: dict) -> None:
    """Cache ``items`` (key -> output) if the revision did not move while they were built.
    Inside the build of another output of the same tournament at the same revision (the
    standings' data inside the projector board) they wait for that build's check, made later:
    if the revision has not moved by then, it had not moved before (one query, not two)."""
    frames = getattr(_local, "frames", None)
    if frames and frames[-1][:2] == (tournament.pk, tournament.revision):
        frames[-1][2].update(items)
        return
    if current_revision(tournament.pk) == tournament.revision:
        cache.set_many(items, TIMEOUT_SECONDS)


def revision_cached(
    tournament: Tournament, *parts: Hashable, build: Callable[[], T], language: bool = True
) -> T:
    """The output of ``build()`` for ``tournament`` at the revision it was read with
    (``language=False``: one for every language, for data that has none).

    ``tournament`` must have been read before ``build`` reads anything else. Two threads of one
    server asking for the same missing key build it once (the second waits for the first):
    the score sheets the background renderer is working on are not rendered twice.
    """
    key = revision_key(tournament, *parts, language=language)
    value = cache.get(key)
    if value is not None:
        return value
    with _building_lock:
        running = _building.get(key)
        if running is None:
            done = threading.Event()
            _building[key] = done
    if running is not None:
        running.wait(WAIT_SECONDS)
        value = cache.get(key)
        if value is not None:
            return value
        return build()  # the other build failed, or its revision moved on
    try:
        with _building_frame(tournament) as pending:
            value = build()
        _store(tournament, {**pending, key: value})
        return value
    finally:
        with _building_lock:
            _building.pop(key, None)
        done.set()


def cached_at_current_revision(
    tournament_id: int,
    *parts: Hashable,
    load: Callable[[], Tournament],
    build: Callable[[Tournament], T],
) -> T:
    """What spectators refresh: ``build(tournament)`` at the tournament's current revision,
    found with one one-column query and one cache read. Only on a miss is the tournament read
    in full (``load()``) and the output built, through :func:`revision_cached`.
    Raises ``Tournament.DoesNotExist`` for an unknown id."""
    revision = current_revision(tournament_id)
    if revision is None:
        raise Tournament.DoesNotExist
    value = cache.get(_key(tournament_id, revision, parts))
    if value is not None:
        return value
    tournament = load()
    return revision_cached(tournament, *parts, build=lambda: build(tournament))


def season_stamp(season, *, revisions: tuple[tuple[int, int], ...] | None = None) -> tuple:
    """What a season ranking is built from, as one comparable value: every field of the season
    (its rules: sum, best N, cup points, minimum, youth cut-off, the planned number and
    ``plan_revision``, which counts the changes of its planned dates …), the revision of each
    of its tournaments, home and also-counting (one query, or ``revisions``: (id, revision) in id order as the caller
    has read them) and today's date (the final's column tells the tournaments to come by it)."""
    if revisions is None:
        # Home and also-counting tournaments (issue 41): one added to or taken from the
        # series changes the stamp (its id comes or goes, and its revision is bumped).
        revisions = tuple(
            counted_tournaments([season.pk]).order_by("pk").values_list("pk", "revision")
        )
    fields = tuple(repr(getattr(season, f.attname)) for f in season._meta.concrete_fields)
    return (fields, revisions, timezone.localdate())


def season_cached(
    season, *parts: Hashable, build: Callable[[], T], stamp: tuple | None = None
) -> T:
    """Like :func:`revision_cached` for output that spans the tournaments of a season.
    ``stamp``: the season's :func:`season_stamp` as the caller read it before anything else
    (several outputs of one request share one read)."""
    if stamp is None:
        stamp = season_stamp(season)
    raw = "|".join(str(p) for p in (RENDER_VERSION, "season", stamp, get_language(), *parts))
    key = "season:" + hashlib.sha1(raw.encode()).hexdigest()
    value = cache.get(key)
    if value is None:
        value = build()
        if season_stamp(season) == stamp:
            cache.set(key, value, TIMEOUT_SECONDS)
    return value
