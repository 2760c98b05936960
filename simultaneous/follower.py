"""On the hall's laptop: the day's overall ranking, fetched from the season server for the
hall's projector.

The choice (docs/architecture/archives-and-publishing.md, "A simultaneous Cego day"): the
laptop fetches, the projector reads the laptop. The hall's projector is a page of the venue
on the hall's own network; if it showed the season server's page directly, a dropped
village internet would leave a browser error on the wall. Instead a thread of the venue
asks the season server every ``FOLLOW_SECONDS`` for the overall ranking of each published
tournament's day (``GET /simultan/turniere/<archive id>/gesamt.json``, public, without the
halls' own rows) and keeps the last answer with its time (``OverallCopy``); the projector
shows that copy and its time, and says since when the server has not answered. A
tournament in no day (404) is asked again only every ``NOT_IN_DAY_SECONDS``.
"""

from __future__ import annotations

import logging
import threading
import time

from django.db import close_old_connections, transaction
from django.utils import timezone

from publishing.laptop.client import PublishError, request
from publishing.models import Publication
from simultaneous.models import OverallCopy
from tournaments.models import Tournament

logger = logging.getLogger(__name__)

OVERALL_PATH = "/simultan/turniere/{archive_id}/gesamt.json"
FOLLOW_SECONDS = 1.0
NOT_IN_DAY_SECONDS = 60.0

_not_in_day: dict[int, float] = {}  # tournament id -> monotonic time to ask again
_started: threading.Event | None = None


def fetch_overall(*, tournament: Tournament, url: str, token: str = "") -> OverallCopy | None:
    """Ask the season server for the overall ranking of ``tournament``'s day and keep it;
    None when the tournament takes part in no day there. A failure keeps the last copy and
    notes when it failed."""
    path = OVERALL_PATH.format(archive_id=tournament.archive_id)
    try:
        answer = request(url, token=token, path=path, timeout=5.0)
    except PublishError as error:
        if error.status == 404:
            OverallCopy.objects.filter(tournament=tournament).delete()
            return None
        with transaction.atomic():
            OverallCopy.objects.filter(tournament=tournament).update(
                failed_at=timezone.now(), error=str(error)[:300]
            )
        raise
    with transaction.atomic():
        copy, _created = OverallCopy.objects.update_or_create(
            tournament=tournament,
            defaults={
                "document": answer,
                "fetched_at": timezone.now(),
                "failed_at": None,
                "error": "",
            },
        )
    return copy


def follow_once() -> int:
    """One round over the unfinished published tournaments; how many copies were renewed."""
    renewed = 0
    now = time.monotonic()
    publications = Publication.objects.filter(tournament__finished_at__isnull=True).select_related(
        "tournament"
    )
    for publication in publications:
        tournament = publication.tournament
        if _not_in_day.get(tournament.pk, 0.0) > now:
            continue
        try:
            copy = fetch_overall(
                tournament=tournament, url=publication.url, token=publication.token
            )
        except PublishError as error:
            logger.info("overall ranking not fetched for %s: %s", tournament.pk, error)
            continue
        if copy is None:
            _not_in_day[tournament.pk] = now + NOT_IN_DAY_SECONDS
        else:
            renewed += 1
    return renewed


def _loop(stop: threading.Event) -> None:
    while not stop.wait(FOLLOW_SECONDS):
        try:
            follow_once()
        except Exception:  # the thread must outlive a database hiccup
            logger.exception("following the simultaneous day failed")
        finally:
            close_old_connections()


def start() -> threading.Event:
    """Start the follower thread once per process; its stop event."""
    global _started
    if _started is None:
        _started = threading.Event()
        threading.Thread(
            target=_loop, args=(_started,), name="simultaneous-follower", daemon=True
        ).start()
    return _started
